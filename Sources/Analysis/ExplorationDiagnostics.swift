import StatecraftDiagnostics
import StatecraftModel
import StatecraftRuntime

/// Turns an exploration into diagnostics: states and transitions proven unreachable by
/// their guards, overlapping guards with a witness, and what the search did not reach.
enum ExplorationDiagnostics {
    /// More `not-reached` transitions than this in one state are reported as one finding
    /// on the state, with a note per transition, instead of one warning each.
    static let collapseAbove = 3

    static func diagnostics(_ machine: Machine, _ report: ExplorationReport,
                            explained: Set<SourceRange> = []) -> [Diagnostic] {
        if let fault = report.startFault { return [startFails(machine, fault)] + properties(machine, report) }
        var findings: [Diagnostic] = []
        let graph = Reachability.reachableStates(machine)
        let constants = machine.constantValues
        let shadowed = Set(ShadowedTransitions.pairs(machine).map(\.shadowed.id))
        // Every `not-reached` finding of a spec has the same reason: it is said once, in a
        // note on the first of them, and each finding is one short line (a spec with many
        // of them stays readable, and usable with `--warnings-as-errors` in CI).
        let short = " within the search's limits"
        let why = notReachedReasons(report)
        // A history state is never active: the transitions into it carry its verdicts.
        for state in machine.states.dropFirst() where !state.isHistory {
            switch report.states[state.id.index] {
            case .unreachable(let reason) where graph.contains(state.id):
                // (States no transition leads to are reported by the structural check.)
                findings.append(Diagnostic(.unreachableState, "state '\(state.name)' is unreachable: \(reason)", at: state.range))
            case .notReached:
                findings.append(Diagnostic(.notReached, "state '\(state.name)' was not reached" + short, at: state.range))
            default:
                break
            }
        }
        var notReached: [StateID: [Transition]] = [:]
        for t in machine.transitions {
            // Only transitions of a reached state: the others follow from their state's verdict.
            guard case .reached = report.states[t.source.index] else { continue }
            switch report.transitions[t.id.index] {
            case .unreachable(let reason):
                // Constant guards, shadowing and `done` for a state that never completes
                // (`never-completes`, from the front end) have their own diagnostics.
                guard !t.neverFires(constants: constants), !shadowed.contains(t.id), !machine.waitsInVain(t) else { continue }
                findings.append(Diagnostic(.deadTransition, "transition can never fire: \(reason)", at: t.keywordRange))
            case .notReached:
                notReached[t.source, default: []].append(t)
            case .reached:
                break
            }
        }
        for (state, transitions) in notReached.sorted(by: { $0.key.index < $1.key.index }) {
            if transitions.count <= collapseAbove {
                for t in transitions {
                    findings.append(Diagnostic(.notReached, "transition was not reached" + short, at: t.keywordRange))
                }
            } else {
                findings.append(Diagnostic(
                    .notReached,
                    "\(transitions.count) transitions of state '\(machine[state].name)' were not reached" + short,
                    at: machine[state].range,
                    notes: transitions.map { DiagnosticNote("not reached: \(TestGeneration.describe($0, machine))", at: $0.keywordRange) }))
            }
        }
        // (Diagnostics are shown sorted by position, a tie keeping the order found.)
        if let first = findings.indices.filter({ findings[$0].id == .notReached })
            .min(by: { findings[$0].range.start < findings[$1].range.start }) {
            let count = findings.filter { $0.id == .notReached }.count
            let which = count == 1 ? "why" : "why, for the \(count) not-reached findings of this spec"
            findings[first].notes.insert(DiagnosticNote("\(which): \(why)", at: nil), at: 0)
        }
        for o in report.overlaps {
            let first = machine[o.first]
            let second = machine[o.second]
            let payload = zip(machine[o.event].fields, o.payload).map { "\($0.name): \($1)" }.joined(separator: ", ")
            let vars = zip(machine.variables, o.variables).map { "\($0.name) = \($1)" }.joined(separator: ", ")
            var witness = "both guards hold for \(machine[o.event].name)" + (payload.isEmpty ? "" : "(\(payload))")
            if !vars.isEmpty { witness += " when \(vars)" }
            if !o.path.isEmpty { witness += ", reached by " + WitnessText.describe(o.path, machine) }
            let rule = first.source == second.source
                ? "this transition and the one above can both take '\(machine[o.event].name)'; the one written first wins"
                : "this transition and the one in '\(machine[first.source].name)' can both take '\(machine[o.event].name)'; "
                    + "the one in the inner state wins"
            findings.append(Diagnostic(
                .overlappingGuards,
                "guards overlap: " + rule,
                at: second.keywordRange,
                notes: [DiagnosticNote("the other transition is here", at: first.keywordRange),
                        DiagnosticNote(witness, at: second.guardExpr?.range ?? second.keywordRange)]))
        }
        for f in report.faults where !explained.contains(f.fault.range) {
            findings.append(Diagnostic(
                .runTimeFault,
                "this can fail at run time: \(f.fault.message); the step is rejected and undone",
                at: f.fault.range,
                notes: [DiagnosticNote("it fails at the last of these steps: " + WitnessText.describe(f.witness, machine), at: f.fault.range)]))
        }
        return findings + properties(machine, report)
    }

    /// One diagnostic per property, at its name: its verdict.
    static func properties(_ machine: Machine, _ report: ExplorationReport) -> [Diagnostic] {
        zip(machine.properties, report.properties).map { property, verdict in
            let name = "property '\(property.name)'"
            switch verdict {
            case .proven(let reason):
                return Diagnostic(.propertyProven, "\(name) is proven: \(reason)", at: property.nameRange)
            case .violated(let c):
                return Diagnostic(.propertyViolated, "\(name) is violated: \(c.reason)", at: property.nameRange,
                                  notes: [DiagnosticNote("a shortest run that breaks it: " + WitnessText.describe(c.witness, machine),
                                                         at: nil)])
            case .notDecided(let reason):
                return Diagnostic(.propertyNotDecided, "\(name) was not decided: \(reason)", at: property.nameRange)
            }
        }
    }

    /// The machine's start fails: one error, at the expression that fails.
    static func startFails(_ machine: Machine, _ fault: ExpressionFault) -> Diagnostic {
        let initial = machine.initialState.map { machine[$0] }
        return Diagnostic(
            .startFails,
            "the machine cannot start: entering '\(initial?.name ?? "")' fails at run time (\(fault.message)); "
                + "every case of a replay is rejected at its first line",
            at: fault.range,
            notes: initial.map { [DiagnosticNote("'\($0.name)' is the initial state", at: $0.range)] } ?? [])
    }

    /// Why the search left items unsettled, in words, with what would help.
    static func notReachedReasons(_ report: ExplorationReport) -> String {
        ExplorationReport.notReachedReason(report)
    }
}

extension ExplorationReport {
    /// Why the search left items unsettled, in words, with what would help: the text of
    /// every `not-reached` finding.
    public static func notReachedReason(_ report: ExplorationReport) -> String {
        var reasons = limitReasons(report)
        if reasons.isEmpty { reasons.append("the search found no way there") }
        return reasons.joined(separator: "; ") + "; this is not a proof that it is unreachable"
    }

    /// What kept the search from settling everything, in words, with what would help
    /// (empty when nothing did).
    package static func limitReasons(_ report: ExplorationReport) -> [String] {
        let limits = report.limits
        var reasons: [String] = []
        if limits.configurationBoundHit {
            let bound = report.bounds.maxConfigurations
            reasons.append("the search stopped at its bound of \(bound) configuration\(bound == 1 ? "" : "s") "
                + "(raise it with --max-configurations)")
        }
        if limits.depthBoundHit {
            let depth = report.bounds.maxDepth
            reasons.append("witnesses longer than \(depth) step\(depth == 1 ? "" : "s") were not tried (raise it with --max-depth)")
        }
        if limits.payloadsSampled {
            var sampled = "payloads were sampled, not tried one per region (a field feeds arithmetic or a variable, "
                + "or is compared with something other than a constant)"
            let untried = limits.untriedNumbers
            if !untried.isEmpty {
                let shown = untried.prefix(8).map { "\(Value.number($0))" }.joined(separator: ", ")
                sampled += "; numbers of the spec tried only for the fields whose guards use them: \(shown)"
                    + (untried.count > 8 ? " and \(untried.count - 8) more" : "")
            }
            for g in limits.sampledGuards {
                sampled += "; \(g.tried) of \(g.of) combinations of the fields of the guard on line \(g.line)"
            }
            reasons.append(sampled)
        }
        if limits.timedStatesOverlap {
            reasons.append("states with timers can be active together (a state and its ancestor, or two regions), so "
                + "which timer fires first depends on when each was entered, and the search sends events only at the "
                + "times its witnesses reach")
        } else if limits.timerOrderVaries {
            reasons.append("the order in which a state's timers fire can depend on when it is entered (their delays are "
                + "not constants written shortest first, and deadlines are rounded), and the search enters states only "
                + "at the times its witnesses reach")
        }
        if limits.deadlinesRefused {
            reasons.append("some steps arm a timer at a time so large that its deadline cannot be represented (a replay "
                + "refuses such a line), and the search did not go on from them")
        }
        return reasons
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
