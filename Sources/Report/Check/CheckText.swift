import StatecraftAnalysis
import StatecraftDiagnostics
import StatecraftModel

/// `check`'s report for people: each file's diagnostics as a compiler prints them, the
/// reachability table of `--witnesses`, and the summary line.
public enum CheckText {
    /// The diagnostics of one file, each with its source line and caret.
    /// A proven property is no finding to act on: the summary line counts them, and
    /// `--witnesses` lists each with its proof.
    public static func diagnostics(_ result: CheckResult, colour: Bool) -> String {
        diagnostics(result, colour: colour, proofs: false)
    }

    /// The diagnostics, with the proven properties' notes too when `proofs` is set (`--witnesses`).
    public static func diagnostics(_ result: CheckResult, colour: Bool, proofs: Bool) -> String {
        let renderer = DiagnosticRenderer(colour: colour)
        return result.diagnostics.filter { proofs || $0.id != .propertyProven }.map { renderer.render($0, in: result.file) }.joined()
    }

    /// The reachability table of `--witnesses`: every state and transition, reached (by the
    /// shortest events that get there) or why not (why the search did not reach one is said
    /// once, under the rows). Empty when the spec did not resolve.
    public static func witnesses(_ result: CheckResult) -> String {
        guard let machine = result.machine, let report = result.exploration else { return "" }
        var rows: [(String, ExplorationReport.Finding)] = []
        for s in machine.states.dropFirst() {
            // A history state is reached when a transition enters through it.
            rows.append(((s.isHistory ? "history " : "state ") + s.name, report.states[s.id.index]))
        }
        for t in machine.transitions {
            rows.append(("transition " + TestGeneration.describe(t, machine), report.transitions[t.id.index]))
        }
        let width = min(70, rows.map(\.0.count).max() ?? 0)
        let searched = report.configurations == 1 ? "1 configuration" : "\(report.configurations) configurations"
        var out = "\(result.file.path): reachability (\(searched) searched)\n"
        for (name, finding) in rows {
            let padded = name.count < width ? name + String(repeating: " ", count: width - name.count) : name
            switch finding {
            case .reached(let steps):
                out += "  \(padded)  reached" + (steps.isEmpty ? " at the start" : " by " + WitnessText.describe(steps, machine)) + "\n"
            case .unreachable(let reason):
                out += "  \(padded)  unreachable: \(reason)\n"
            case .notReached:
                out += "  \(padded)  not reached\n"
            }
        }
        // Every row not reached has the same reason: it is said once, under the table.
        if rows.contains(where: { $0.1 == .notReached }) {
            out += "  not reached: \(ExplorationReport.notReachedReason(report))\n"
        }
        for (property, verdict) in zip(machine.properties, report.properties) {
            switch verdict {
            case .proven(let reason): out += "  property \(property.name)  proven: \(reason)\n"
            case .violated(let c):
                out += "  property \(property.name)  violated by " + WitnessText.describe(c.witness, machine) + ": \(c.reason)\n"
            case .notDecided(let reason): out += "  property \(property.name)  not decided: \(reason)\n"
            }
        }
        return out
    }

    /// What `check --reach` found: per target (a state, or each transition on the line), its
    /// witness, the proof that it cannot happen, or why the search stopped short of it.
    package static func reach(_ report: TargetedSearch.Report, target: TargetedSearch.Target, machine: Machine, path: String) -> String {
        let rows: [(String, ExplorationReport.Finding)] = switch target {
        case .state(let s): [("state " + machine[s].name, report.exploration.states[s.index])]
        case .transitions(let ts): ts.map { ("transition " + TestGeneration.describe(machine[$0], machine), report.exploration.transitions[$0.index]) }
        }
        let n = report.exploration.configurations
        var searched = n == 1 ? "1 configuration searched" : "\(n) configurations searched"
        if report.pruned > 0 { searched += ", \(report.pruned) left out as leading nowhere near it" }
        var out = ""
        for (name, finding) in rows {
            out += "\(path): \(name) (\(searched))\n"
            switch finding {
            case .reached(let steps):
                out += "  reached" + (steps.isEmpty ? " at the start" : " by " + WitnessText.describe(steps, machine)) + "\n"
            case .unreachable(let reason):
                out += "  unreachable: \(reason)\n"
            case .notReached:
                out += "  not reached: \(ExplorationReport.notReachedReason(report.exploration))\n"
            }
        }
        return out
    }

    /// `checked 6 files: 0 errors, 0 warnings`
    public static func summary(files: Int, errors: Int, warnings: Int) -> String {
        summary(files: files, errors: errors, warnings: warnings, proven: 0)
    }

    /// `checked 6 files: 0 errors, 0 warnings, 19 properties proven`
    public static func summary(files: Int, errors: Int, warnings: Int, proven: Int) -> String {
        "checked \(count(files, "file")): \(count(errors, "error")), \(count(warnings, "warning"))"
            + (proven > 0 ? ", \(count(proven, "property", plural: "properties")) proven" : "") + "\n"
    }

    /// The summary line of a whole report.
    public static func summary(_ report: CheckReport) -> String {
        let proven = report.files.reduce(0) { n, r in n + r.diagnostics.filter { $0.id == .propertyProven }.count }
        return summary(files: report.files.count, errors: report.errorCount, warnings: report.warningCount, proven: proven)
    }
}

/// `1 file`, `2 files`.
func count(_ n: Int, _ noun: String, plural: String? = nil) -> String { n == 1 ? "1 \(noun)" : "\(n) \(plural ?? noun + "s")" }
