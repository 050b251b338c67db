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

    /// Adds what another replay exercised: counts summed, visited states joined.
    public mutating func merge(_ other: Coverage) {
        for (t, n) in other.transitionCounts { transitionCounts[t, default: 0] += n }
        visitedStates.formUnion(other.visitedStates)
    }

    /// `transitions 7/9 (78%), states 4/4 (100%)`: how much of `machine` was exercised.
    /// History states are pseudo-states, never active, so they are not counted.
    public func summary(_ machine: Machine) -> String {
        let transitions = machine.transitions.count
        let taken = machine.transitions.filter { count($0.id) > 0 }.count
        let counted = machine.states.dropFirst().filter { !$0.isHistory }  // the root is not drawn
        let states = counted.count
        let visited = counted.filter { visitedStates.contains($0.id) }.count
        func percent(_ part: Int, _ whole: Int) -> String {
            whole == 0 ? "100%" : "\(Int((Double(part) * 100 / Double(whole)).rounded(.down)))%"
        }
        return "transitions \(taken)/\(transitions) (\(percent(taken, transitions))), "
            + "states \(visited)/\(states) (\(percent(visited, states)))"
    }
}
