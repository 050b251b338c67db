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
    /// States drawn as boxes though they have children (`Machine.collapsed(belowDepth:)`):
    /// a bold border says there is more inside.
    package var collapsed: Set<StateID> = []
    /// The state drawn alone (`Machine.subtree(_:)`): no initial arrow points at it, since
    /// it need not be where the machine starts.
    package var focus: StateID?

    /// Creates an overlay; the default draws nothing extra.
    public init(unreachableStates: Set<StateID> = [], deadTransitions: Set<TransitionID> = [],
                coverage: Coverage? = nil) {
        self.unreachableStates = unreachableStates
        self.deadTransitions = deadTransitions
        self.coverage = coverage
    }
}
