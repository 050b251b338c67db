import StatecraftDiagnostics
import StatecraftModel

/// States that are not final but have no transition to another state: once entered, the
/// interaction is stuck there.
enum DeadEnds {
    static func diagnostics(_ machine: Machine) -> [Diagnostic] {
        let constants = machine.constantValues
        var findings: [Diagnostic] = []
        for state in machine.states.dropFirst() where state.kind == .atomic {
            var hasWayOut = false
            var current: StateID? = state.id
            while let s = current, !hasWayOut {
                hasWayOut = machine[s].transitions.contains { id in
                    let t = machine[id]
                    if t.isBroken { return true }
                    guard let target = t.target, target != state.id else { return false }
                    return !t.neverFires(constants: constants)
                }
                current = machine[s].parent
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
