import StatecraftModel

/// Findings drawn on top of a diagram: analysis results and replay coverage.
public struct DiagramOverlay: Sendable {
    /// States no path reaches; drawn in red.
    public var unreachableStates: Set<StateID>
    /// Transitions that can never fire; drawn in red.
    public var deadTransitions: Set<TransitionID>
    /// What replays exercised; nil draws no coverage.
    public var coverage: Coverage?
    /// With coverage: colour and thicken each taken transition by how often it was taken,
    /// relative to the most taken (a heat map, for reports of many logs).
    public var heat = false

    /// Creates an overlay; the default draws nothing extra.
    public init(unreachableStates: Set<StateID> = [], deadTransitions: Set<TransitionID> = [],
                coverage: Coverage? = nil) {
        self.unreachableStates = unreachableStates
        self.deadTransitions = deadTransitions
        self.coverage = coverage
    }
}
