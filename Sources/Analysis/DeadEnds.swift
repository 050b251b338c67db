import StatecraftDiagnostics
import StatecraftModel

/// States that are not final but have no transition to another state: once entered, the
/// interaction is stuck there.
///
/// In a statechart a leaf is stuck only when its whole configuration is: no transition that
/// can be enabled while it is active (its own, its ancestors', and those of every state in
/// the other regions of its parallel ancestors, whatever their trigger: event, timer, `done`
/// or `always`) changes state. A compound or parallel state is never reported itself: its
/// configuration is stuck exactly when the leaves it holds are, and they are reported. A
/// final state ends its run or completes its parent (a `done` transition takes it from
/// there, or the interaction ends), so it is never a dead end.
enum DeadEnds {
    static func diagnostics(_ machine: Machine) -> [Diagnostic] {
        let constants = machine.constantValues
        var findings: [Diagnostic] = []
        for state in machine.states.dropFirst() where state.kind == .atomic {
            let hasWayOut = machine.coActiveStates(state.id).contains { source in
                machine[source].transitions.contains { id in
                    let t = machine[id]
                    if t.isBroken { return true }
                    guard let target = t.target, target != state.id else { return false }
                    return !t.neverFires(constants: constants)
                }
            }
            if !hasWayOut {
                findings.append(Diagnostic(.deadEndState,
                                           "state '\(state.name)' is not final and has no way out",
                                           at: state.range,
                                           notes: [DiagnosticNote("mark it 'final' if the interaction ends here",
                                                                  at: state.range)]))
            }
        }
        return findings
    }
}
