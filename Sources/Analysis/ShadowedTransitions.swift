import StatecraftDiagnostics
import StatecraftModel

/// Transitions that can never be chosen because an earlier transition of the same state,
/// on the same event, has no guard (or one that is always true) and so always wins.
enum ShadowedTransitions {
    /// Each shadowed transition with the earlier one that always wins over it.
    static func pairs(_ machine: Machine) -> [(shadowed: Transition, winner: Transition)] {
        let constants = machine.constantValues
        var pairs: [(shadowed: Transition, winner: Transition)] = []
        for state in machine.states {
            var takenBy: [EventID: Transition] = [:]
            for id in state.transitions {
                let t = machine[id]
                guard case .events(let events) = t.trigger else { continue }
                if let winner = events.lazy.compactMap({ takenBy[$0] }).first,
                   events.allSatisfy({ takenBy[$0] != nil }) {
                    pairs.append((t, winner))
                }
                if t.alwaysFires(constants: constants) {
                    for e in events where takenBy[e] == nil { takenBy[e] = t }
                }
            }
        }
        return pairs
    }

    static func diagnostics(_ machine: Machine) -> [Diagnostic] {
        pairs(machine).map { pair in
            Diagnostic(.unreachableTransition,
                       "transition is never taken: an earlier transition of '\(machine[pair.shadowed.source].name)' always takes its event",
                       at: pair.shadowed.keywordRange,
                       notes: [DiagnosticNote("this transition has no guard that can fail", at: pair.winner.keywordRange)])
        }
    }
}
