import StatecraftDiagnostics
import StatecraftModel

/// Transitions that can never be chosen because an earlier transition of the same state,
/// on the same event, has no guard (or one that is always true) and so always wins.
enum ShadowedTransitions {
    static func diagnostics(_ machine: Machine) -> [Diagnostic] {
        let constants = machine.constantValues
        var findings: [Diagnostic] = []
        for state in machine.states {
            var takenBy: [EventID: Transition] = [:]
            for id in state.transitions {
                let t = machine[id]
                guard case .events(let events) = t.trigger else { continue }
                if let winner = events.lazy.compactMap({ takenBy[$0] }).first,
                   events.allSatisfy({ takenBy[$0] != nil }) {
                    findings.append(Diagnostic(
                        .unreachableTransition,
                        "transition is never taken: an earlier transition of '\(state.name)' always takes its event",
                        at: t.keywordRange,
                        notes: [DiagnosticNote("this transition has no guard that can fail", at: winner.keywordRange)]))
                }
                if t.alwaysFires(constants: constants) {
                    for e in events where takenBy[e] == nil { takenBy[e] = t }
                }
            }
        }
        return findings
    }
}
