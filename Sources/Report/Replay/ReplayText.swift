import StatecraftDiagnostics
import StatecraftEventLog
import StatecraftModel
import StatecraftReplay
import StatecraftRuntime

/// `replay`'s report for people: per case, the final state, variables, outputs, counts, and
/// each failed expectation or rejected event printed like a compiler's diagnostic.
public enum ReplayText {
    /// The report of one log.
    public static func log(_ report: ReplayReport, path: String, machine: Machine) -> String {
        let renderer = DiagnosticRenderer()
        var out = ""
        for c in report.cases {
            out += "\(path): \(c.title) (from line \(c.firstLine))\n"
            if c.startFailure != nil {
                out += "  state         none (the machine could not start)\n"
            } else {
                out += "  state         \(c.state)\(c.finished ? " (final)" : "")\n"
                // With nesting, the leaves alone do not say which parents and regions hold them.
                if c.configuration.count > 1 {
                    out += "  configuration \(c.configuration.joined(separator: ", "))\n"
                }
            }
            switch c.settled {
            case .atRest?: out += "  settled       at rest: no timer armed\n"
            case .final?: out += "  settled       the run ended in a final state\n"
            case .stillRunning?: out += "  settled       still running after \(Replayer.settleLimit) timer steps\n"
            case nil: break
            }
            out += "  variables     " + (c.variables.isEmpty ? "none" : c.variables.map { "\($0.name) = \($0.value)" }.joined(separator: ", ")) + "\n"
            var outputs = c.outputs.isEmpty ? "none" : c.outputs.map(\.description).joined(separator: ", ")
            if c.outputCount > c.outputs.count { outputs += ", … and \(c.outputCount - c.outputs.count) more" }
            out += "  outputs       \(outputs)\n"
            out += "  events        \(c.applied) applied, \(c.ignored) ignored, \(c.rejected) rejected; "
            out += "\(count(c.timersFired, "timer")) fired; "
            if c.sentTaken > 0 { out += "\(count(c.sentTaken, "sent event")) taken; " }
            out += "t=\(Value.number(c.time))\n"
            if !c.unknownEvents.isEmpty { out += "  unknown       " + Self.unknownEvents(c.unknownEvents) + "\n" }
            out += "  expectations  \(c.expectations) checked, \(c.failureCount) failed\n"
            for v in c.propertyViolations {
                out += "\(path):\(v.line): error: \(v.sentence)\n"
            }
            for f in c.findings {
                out += renderer.render(Diagnostic(f.id, f.message, at: f.range),
                                       in: SourceFile(path: path, bytes: f.text, firstLine: f.line))
                if let spec = f.specRange {
                    out += renderer.renderNote("the failing expression in the spec", at: spec, in: machine.source)
                }
            }
            if c.findingsTruncated {
                out += "  (only the first \(Replayer.keptFailures) failures and rejections are shown)\n"
            }
            out += ReplayExplanations.text(c, path: path, machine: machine)
        }
        out += warnings(report.warnings, path: path)
        if let e = report.error { out += stopped(e, path: path) }
        return out + summary(report, path: path)
    }

    /// The log's warnings (a header that does not match the spec, a cut last line), each as
    /// a diagnostic with its line and caret.
    public static func warnings(_ warnings: [LogWarning], path: String) -> String {
        let renderer = DiagnosticRenderer()
        return warnings.map { w in
            renderer.render(Diagnostic(w.id, w.message, at: ReplayFinding.byteRange(w.text, column: w.column)),
                            in: SourceFile(path: path, bytes: w.text, firstLine: w.line))
        }.joined()
    }

    /// The malformed line that stopped the replay of `path`, as a diagnostic, and a note on
    /// what `coveredBy` (the report above, or a summary) still counts.
    public static func stopped(_ e: LogError, path: String, coveredBy: String = "the report above covers") -> String {
        let d = Diagnostic(.malformedLogLine, e.message, at: ReplayFinding.byteRange(e.text, column: e.column))
        return DiagnosticRenderer().render(d, in: SourceFile(path: path, bytes: e.text, firstLine: e.line))
            + "\(path): note: replay stopped at line \(e.line); \(coveredBy) the lines "
            + (e.applied ? "up to and including it\n" : "before it\n")
    }

    /// `3 lines of events the spec does not declare, ignored: 'DIGIT.5' ×2, 'watch.reset' ×1`
    /// (`replay --unknown-events ignore`), most frequent first.
    static func unknownEvents(_ counts: [String: Int]) -> String {
        let total = counts.values.reduce(0, +)
        let names = counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "'\($0.key)' ×\($0.value)" }
        return "\(count(total, "line")) of events the spec does not declare, ignored: " + names.joined(separator: ", ")
    }

    /// `replayed LOG: 1 case, 18 events (16 applied, 2 ignored, 0 rejected), 13 expectations (0 failed)`
    public static func summary(_ report: ReplayReport, path: String) -> String {
        let cases = report.cases
        let applied = cases.reduce(0) { $0 + $1.applied }
        let ignored = cases.reduce(0) { $0 + $1.ignored }
        let rejected = cases.reduce(0) { $0 + $1.rejected }
        let expectations = cases.reduce(0) { $0 + $1.expectations }
        let failed = cases.reduce(0) { $0 + $1.failureCount }
        var out = "replayed \(path): \(count(cases.count, "case")), \(count(applied + ignored + rejected, "event")) "
        out += "(\(applied) applied, \(ignored) ignored, \(rejected) rejected), "
        out += "\(count(expectations, "expectation")) (\(failed) failed)"
        // Only where a property failed: a spec without properties reads as it always did.
        let violations = cases.reduce(0) { $0 + $1.propertyViolations.count }
        if violations > 0 { out += ", \(count(violations, "property violation"))" }
        return out + "\n"
    }
}
