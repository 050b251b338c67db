import StatecraftDiagnostics
import StatecraftModel

/// Turns an exploration into diagnostics: states and transitions proven unreachable by
/// their guards, overlapping guards with a witness, and what the search did not reach.
enum ExplorationDiagnostics {
    static func diagnostics(_ machine: Machine, _ report: ExplorationReport) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let graph = Reachability.reachableStates(machine)
        let constants = machine.constantValues
        let shadowed = Set(ShadowedTransitions.pairs(machine).map(\.shadowed.id))
        for state in machine.states.dropFirst() {
            switch report.states[state.id.index] {
            case .unreachable(let reason) where graph.contains(state.id):
                // (States no transition leads to are reported by the structural check.)
                findings.append(Diagnostic(.unreachableState, "state '\(state.name)' is unreachable: \(reason)", at: state.range))
            case .notReached:
                findings.append(Diagnostic(.notReached, notReachedMessage("state '\(state.name)'", report), at: state.range))
            default:
                break
            }
        }
        for t in machine.transitions {
            switch report.transitions[t.id.index] {
            case .unreachable(let reason):
                // Constant guards, shadowing and unreachable states have their own diagnostics.
                guard report.states[t.source.index] != nil, !t.neverFires(constants: constants), !shadowed.contains(t.id),
                      case .reached = report.states[t.source.index] else { continue }
                findings.append(Diagnostic(.deadTransition, "transition can never fire: \(reason)", at: t.keywordRange))
            case .notReached:
                if case .reached = report.states[t.source.index] {
                    findings.append(Diagnostic(.notReached, notReachedMessage("transition", report), at: t.keywordRange))
                }
            case .reached:
                break
            }
        }
        for o in report.overlaps {
            let first = machine[o.first]
            let second = machine[o.second]
            let payload = zip(machine[o.event].fields, o.payload).map { "\($0.name): \($1)" }.joined(separator: ", ")
            let vars = zip(machine.variables, o.variables).map { "\($0.name) = \($1)" }.joined(separator: ", ")
            var witness = "both guards hold for \(machine[o.event].name)" + (payload.isEmpty ? "" : "(\(payload))")
            if !vars.isEmpty { witness += " when \(vars)" }
            if !o.path.isEmpty { witness += ", reached by " + WitnessText.describe(o.path, machine) }
            findings.append(Diagnostic(
                .overlappingGuards,
                "guards overlap: this transition and the one above can both take '\(machine[o.event].name)'; the one written first wins",
                at: second.keywordRange,
                notes: [DiagnosticNote("the other transition is here", at: first.keywordRange),
                        DiagnosticNote(witness, at: second.guardExpr?.range ?? second.keywordRange)]))
        }
        return findings
    }

    private static func notReachedMessage(_ what: String, _ report: ExplorationReport) -> String {
        let depth = report.bounds.maxDepth
        return "\(what) was not reached within the search bounds (\(report.configurations) configurations, "
            + "witnesses of up to \(depth) step\(depth == 1 ? "" : "s")); this is not a proof that it is unreachable"
    }
}

/// Witnesses in words: `touchBegan(y: 300, onContent: true), wait until t=2, touchEnded(y: 0)`.
public enum WitnessText {
    /// Describes a witness for people.
    public static func describe(_ steps: [WitnessStep], _ machine: Machine) -> String {
        if steps.isEmpty { return "the start" }
        return steps.map { step in
            switch step {
            case .event(let e, let payload, let time):
                let args = zip(machine[e].fields, payload).map { "\($0.name): \($1)" }.joined(separator: ", ")
                let at = time > 0 ? " at t=\(Value.number(time))" : ""
                return machine[e].name + (args.isEmpty ? "" : "(\(args))") + at
            case .wait(let until):
                return "wait until t=\(Value.number(until))"
            }
        }.joined(separator: ", ")
    }
}
