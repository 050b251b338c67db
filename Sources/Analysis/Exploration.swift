import StatecraftModel
import StatecraftRuntime

/// What the guard-aware analysis found for each state and transition of a machine.
public struct ExplorationReport: Sendable {
    /// The verdict on one state or transition.
    public enum Finding: Sendable, Equatable {
        /// Reached: the shortest witness found (events with payloads and times) gets there.
        case reached([WitnessStep])
        /// Proven never to happen, with the reason in words.
        case unreachable(String)
        /// Neither reached within the bounds nor proven unreachable: not a proof.
        case notReached
    }

    /// Two guarded transitions of one state that can both take one event, and where.
    public struct Overlap: Sendable, Equatable {
        public var first: TransitionID
        public var second: TransitionID
        public var event: EventID
        /// How to get to the configuration where both guards hold.
        public var path: [WitnessStep]
        public var payload: [Value]
        public var variables: [Value]
    }

    /// By `StateID` (the root, index 0, is always reached).
    public var states: [Finding]
    /// By `TransitionID`.
    public var transitions: [Finding]
    public var overlaps: [Overlap]
    /// Configurations the search visited.
    public var configurations: Int
    /// The bounds used.
    public var bounds: ExplorationBounds
}

/// Guard-aware reachability: proofs from structure and interval analysis, witnesses from a
/// breadth-first search with the runtime's step function, and overlapping guards.
public enum Exploration {
    /// After every state and transition is settled, the search goes on for this many
    /// configurations more, looking for overlapping guards.
    static let overlapSearch = 300

    /// Analyses `machine` (which must have resolved without errors).
    public static func run(_ machine: Machine, bounds: ExplorationBounds = ExplorationBounds()) -> ExplorationReport {
        let proofs = proven(machine)
        var explorer = Explorer(program: Program(machine), bounds: bounds)
        var settledAt: Int?
        explorer.run { e in
            let settled = (1..<machine.states.count).allSatisfy { e.stateWitness[$0] != nil || proofs.states[$0] != nil }
                && machine.transitions.indices.allSatisfy { e.transitionWitness[$0] != nil || proofs.transitions[$0] != nil }
            guard settled else { return false }
            if settledAt == nil { settledAt = e.nodes.count }
            return e.nodes.count >= (settledAt ?? 0) + overlapSearch
        }
        var states: [ExplorationReport.Finding] = [.reached([])]
        for i in 1..<max(1, machine.states.count) {
            if let node = explorer.stateWitness[i] {
                states.append(.reached(explorer.path(to: node)))
            } else if let reason = proofs.states[i] {
                states.append(.unreachable(reason))
            } else {
                states.append(.notReached)
            }
        }
        let transitions = machine.transitions.indices.map { i -> ExplorationReport.Finding in
            if let node = explorer.transitionWitness[i] { return .reached(explorer.path(to: node)) }
            if let reason = proofs.transitions[i] { return .unreachable(reason) }
            return .notReached
        }
        let overlaps = explorer.overlaps.compactMap { o -> ExplorationReport.Overlap? in
            guard case .events(let events) = machine[o.first].trigger,
                  case .events(let others) = machine[o.second].trigger,
                  let event = events.first(where: others.contains) else { return nil }
            return ExplorationReport.Overlap(first: o.first, second: o.second, event: event, path: o.path,
                                             payload: o.payload, variables: o.variables)
        }
        return ExplorationReport(states: states, transitions: transitions, overlaps: overlaps,
                                 configurations: explorer.nodes.count, bounds: bounds)
    }

    /// What can be proven without running: unreachable states and transitions that can
    /// never fire, each with its reason.
    static func proven(_ machine: Machine) -> (states: [String?], transitions: [String?]) {
        let constants = machine.constantValues
        let intervals = IntervalAnalysis(machine)
        let graph = Reachability.reachableStates(machine)
        var states: [String?] = Array(repeating: nil, count: machine.states.count)
        for s in machine.states.dropFirst() where intervals.environments[s.id.index] == nil {
            states[s.id.index] = graph.contains(s.id)
                ? "no transition into it can ever fire"
                : "no transition leads to it from the initial state"
        }
        var transitions: [String?] = Array(repeating: nil, count: machine.transitions.count)
        var shadowedBy: [TransitionID: Transition] = [:]
        for pair in ShadowedTransitions.pairs(machine) { shadowedBy[pair.shadowed.id] = pair.winner }
        for t in machine.transitions {
            if states[t.source.index] != nil {
                transitions[t.id.index] = "its state '\(machine[t.source].name)' is unreachable"
            } else if t.neverFires(constants: constants) {
                transitions[t.id.index] = "its guard is always false"
            } else if shadowedBy[t.id] != nil {
                transitions[t.id.index] = "an earlier transition of '\(machine[t.source].name)' always takes its event"
            } else if let reason = intervals.deadTransitions[t.id] {
                transitions[t.id.index] = reason
            }
        }
        return (states, transitions)
    }
}
