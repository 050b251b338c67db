import StatecraftDiagnostics
import StatecraftModel

/// Transitions that can never be chosen because an earlier transition of the same state,
/// on the same trigger (the same event, the completion of the same state, or eventless), has
/// no guard (or one that is always true) and so always wins: selection takes the first
/// enabled transition of a state in the order written. (A transition of an ancestor is not
/// shadowed by a descendant's: it still fires from the ancestor's other descendants.)
enum ShadowedTransitions {
    /// What a transition is selected for, where one written earlier in the same state can
    /// take it first.
    private enum Key: Hashable {
        case event(EventID)
        case done(StateID)
        case always
    }

    /// Each shadowed transition with the earlier one that always wins over it.
    static func pairs(_ machine: Machine) -> [(shadowed: Transition, winner: Transition)] {
        let constants = machine.constantValues
        var pairs: [(shadowed: Transition, winner: Transition)] = []
        for state in machine.states {
            var takenBy: [Key: Transition] = [:]
            for id in state.transitions {
                let t = machine[id]
                let keys: [Key]
                switch t.trigger {
                case .events(let events): keys = events.map(Key.event)
                case .done(let x): keys = [.done(x)]
                case .always: keys = [.always]
                case .after: continue
                }
                if let winner = keys.lazy.compactMap({ takenBy[$0] }).first,
                   keys.allSatisfy({ takenBy[$0] != nil }) {
                    pairs.append((t, winner))
                }
                if t.alwaysFires(constants: constants) {
                    for k in keys where takenBy[k] == nil { takenBy[k] = t }
                }
            }
        }
        return pairs
    }

    static func diagnostics(_ machine: Machine) -> [Diagnostic] {
        pairs(machine).map { pair in
            Diagnostic(.unreachableTransition,
                       "transition is never taken: an earlier transition of '\(machine[pair.shadowed.source].name)' always takes \(trigger(of: pair.shadowed, machine))",
                       at: pair.shadowed.keywordRange,
                       notes: [DiagnosticNote("this transition has no guard that can fail", at: pair.winner.keywordRange)])
        }
    }

    /// What the winner takes from a shadowed transition, in words: `its event`, `the
    /// completion of 'x'`, or `its turn` for eventless transitions.
    static func trigger(of t: Transition, _ machine: Machine) -> String {
        switch t.trigger {
        case .done(let x): return "the completion of '\(machine[x].name)'"
        case .always: return "its turn (both are eventless)"
        case .events, .after: return "its event"
        }
    }
}
