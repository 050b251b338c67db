import StatecraftAnalysis
import StatecraftDiagnostics
import StatecraftModel

/// `check`'s report for people: each file's diagnostics as a compiler prints them, the
/// reachability table of `--witnesses`, and the summary line.
public enum CheckText {
    /// The diagnostics of one file, each with its source line and caret.
    public static func diagnostics(_ result: CheckResult, colour: Bool) -> String {
        let renderer = DiagnosticRenderer(colour: colour)
        return result.diagnostics.map { renderer.render($0, in: result.file) }.joined()
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
        "checked \(count(files, "file")): \(count(errors, "error")), \(count(warnings, "warning"))\n"
    }

    /// The summary line of a whole report.
    public static func summary(_ report: CheckReport) -> String {
        summary(files: report.files.count, errors: report.errorCount, warnings: report.warningCount)
    }
}

/// `1 file`, `2 files`.
func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
