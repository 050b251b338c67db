import StatecraftModel

/// How often replays took each transition and which states they visited.
public struct Coverage: Sendable {
    /// Times each transition fired; a missing transition fired zero times.
    public var transitionCounts: [TransitionID: Int]
    /// Every state that was active at some point.
    public var visitedStates: Set<StateID>

    /// Creates a coverage record.
    public init(transitionCounts: [TransitionID: Int] = [:], visitedStates: Set<StateID> = []) {
        self.transitionCounts = transitionCounts
        self.visitedStates = visitedStates
    }

    /// Times `transition` fired.
    public func count(_ transition: TransitionID) -> Int { transitionCounts[transition] ?? 0 }
}
