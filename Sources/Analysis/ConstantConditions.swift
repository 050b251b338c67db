import StatecraftDiagnostics
import StatecraftModel

/// Guards and `if` conditions that fold to a constant: the condition is pointless (always
/// true) or the transition or branch is dead (always false).
enum ConstantConditions {
    static func diagnostics(_ machine: Machine) -> [Diagnostic] {
        let constants = machine.constantValues
        var findings: [Diagnostic] = []
        func checkConditions(_ actions: [Action]) {
            for action in actions {
                action.visit { a in
                    guard case .ifAction(let condition, _, _, _) = a,
                          case .bool(let value)? = condition.folded(constants: constants) else { return }
                    findings.append(Diagnostic(.constantGuard,
                                               value ? "condition is always true" : "condition is always false; its block never runs",
                                               at: condition.range))
                }
            }
        }
        for t in machine.transitions {
            if let g = t.guardExpr, case .bool(let value)? = g.folded(constants: constants) {
                findings.append(Diagnostic(.constantGuard,
                                           value ? "guard is always true" : "guard is always false; this transition never fires",
                                           at: g.range))
            }
            checkConditions(t.actions)
        }
        for state in machine.states {
            checkConditions(state.entry)
            checkConditions(state.exit)
            checkConditions(state.defaultEntryActions)
        }
        return findings
    }
}
