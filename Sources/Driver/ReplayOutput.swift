import Statecraft

/// Prints replay traces and reports in the chosen format.
final class ReplayOutput {
    let format: ReplayCommand.Format
    let trace: Bool
    let console: Console
    let machine: Machine
    let renderer = DiagnosticRenderer()
    /// `--format json`: the reports (and trace steps) of every log, printed at the end.
    var jsonLogs: [String] = []
    var jsonSteps: [String] = []
    var allPassed = true

    init(format: ReplayCommand.Format, trace: Bool, console: Console, machine: Machine) {
        self.format = format
        self.trace = trace
        self.console = console
        self.machine = machine
    }

    // MARK: - Steps

    func step(_ step: TraceStep, log: String) {
        switch format {
        case .text: console.out(ReplayOutput.text(step))
        case .jsonl: console.out(ReplayOutput.json(step, log: log) + "\n")
        case .json: jsonSteps.append(ReplayOutput.json(step, log: log))
        }
    }

    static func text(_ step: TraceStep) -> String {
        var where_ = "line \(step.line)"
        if let key = step.caseKey { where_ += ", case \(key)" }
        where_ += ", t=\(Value.number(step.time))"
        let payload = step.payload.isEmpty ? "" : "(" + step.payload.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + ")"
        var out = "\(where_): \(step.event)\(payload): "
        switch step.result {
        case .applied: out += "\(step.from) -> \(step.to)"
        case .ignored: out += "ignored in \(step.from)"
        case .afterFinal: out += "ignored, the run ended in \(step.from)"
        case .rejected(let message): out += "rejected: \(message)"
        }
        if !step.outputs.isEmpty { out += "; emitted " + step.outputs.map(\.description).joined(separator: ", ") }
        if !step.changed.isEmpty { out += "; set " + step.changed.map { "\($0.name) = \($0.value)" }.joined(separator: ", ") }
        return out + "\n"
    }

    static func json(_ step: TraceStep, log: String) -> String {
        let q = JSONWriter.quote
        var out = "{\"log\": \(q(log)), \"line\": \(step.line), \"case\": \(step.caseKey.map(q) ?? "null"), "
        out += "\"time\": \(JSONWriter.number(step.time)), \"event\": \(q(step.event)), \"timer\": \(step.isTimer), "
        out += "\"payload\": " + object(step.payload) + ", \"from\": \(q(step.from)), \"to\": \(q(step.to)), "
        switch step.result {
        case .applied: out += "\"result\": \"applied\", "
        case .ignored: out += "\"result\": \"ignored\", "
        case .afterFinal: out += "\"result\": \"after-final\", "
        case .rejected(let message): out += "\"result\": \"rejected\", \"message\": \(q(message)), "
        }
        out += "\"outputs\": [" + step.outputs.map(output).joined(separator: ", ") + "], "
        return out + "\"changed\": " + object(step.changed) + "}"
    }

    // MARK: - Reports

    func report(_ report: ReplayReport, log: String) {
        if !report.passed { allPassed = false }
        switch format {
        case .text: console.out(text(report, log: log))
        case .jsonl: console.out("{\"report\": " + json(report, log: log) + "}\n")
        case .json: jsonLogs.append(json(report, log: log))
        }
    }

    func finish() {
        guard format == .json else { return }
        var out = "{\n  \"spec\": \(JSONWriter.quote(machine.source.path)),\n  \"machine\": \(JSONWriter.quote(machine.name)),\n"
        out += "  \"passed\": \(allPassed),\n  \"logs\": [\n    " + jsonLogs.joined(separator: ",\n    ") + "\n  ]"
        if trace { out += ",\n  \"trace\": [\n    " + jsonSteps.joined(separator: ",\n    ") + "\n  ]" }
        console.out(out + "\n}\n")
    }

    func text(_ report: ReplayReport, log: String) -> String {
        var out = ""
        for c in report.cases {
            out += "\(log): " + (c.key.map { "case \(JSONWriter.quote($0))" } ?? "lines without a case")
            out += " (from line \(c.firstLine))\n"
            out += "  state         \(c.state)\(c.finished ? " (final)" : "")\n"
            out += "  variables     " + (c.variables.isEmpty ? "none" : c.variables.map { "\($0.name) = \($0.value)" }.joined(separator: ", ")) + "\n"
            var outputs = c.outputs.isEmpty ? "none" : c.outputs.map(\.description).joined(separator: ", ")
            if c.outputCount > c.outputs.count { outputs += ", … and \(c.outputCount - c.outputs.count) more" }
            out += "  outputs       \(outputs)\n"
            out += "  events        \(c.applied) applied, \(c.ignored) ignored, \(c.rejected) rejected; "
            out += "\(count(c.timersFired, "timer")) fired; t=\(Value.number(c.time))\n"
            out += "  expectations  \(c.expectations) checked, \(c.failureCount) failed\n"
            var problems: [(Int, String)] = []
            for f in c.failures {
                let d = Diagnostic(.expectationFailed, failureMessage(f), at: range(f.text, column: f.column))
                problems.append((f.line, renderer.render(d, in: SourceFile(path: log, bytes: f.text, firstLine: f.line))))
            }
            for r in c.rejections {
                var text = renderer.render(Diagnostic(.eventRejected, r.message, at: range(r.text, column: r.column)),
                                           in: SourceFile(path: log, bytes: r.text, firstLine: r.line))
                if let spec = r.specRange {
                    text += renderer.renderNote("the failing expression in the spec", at: spec, in: machine.source)
                }
                problems.append((r.line, text))
            }
            for (_, text) in problems.sorted(by: { $0.0 < $1.0 }) { out += text }
            if c.failureCount > c.failures.count || c.rejected > c.rejections.count {
                out += "  (only the first \(Replayer.keptFailures) failures and rejections are shown)\n"
            }
        }
        if let e = report.error {
            let d = Diagnostic(.malformedLogLine, e.message, at: range(e.text, column: e.column))
            out += renderer.render(d, in: SourceFile(path: log, bytes: e.text, firstLine: e.line))
            out += "\(log): note: replay stopped at line \(e.line); the report above covers the lines before it\n"
        }
        let cases = report.cases
        let applied = cases.reduce(0) { $0 + $1.applied }
        let ignored = cases.reduce(0) { $0 + $1.ignored }
        let rejected = cases.reduce(0) { $0 + $1.rejected }
        let expectations = cases.reduce(0) { $0 + $1.expectations }
        let failed = cases.reduce(0) { $0 + $1.failureCount }
        out += "replayed \(log): \(count(cases.count, "case")), \(count(applied + ignored + rejected, "event")) "
        out += "(\(applied) applied, \(ignored) ignored, \(rejected) rejected), "
        out += "\(count(expectations, "expectation")) (\(failed) failed)\n"
        return out
    }

    func json(_ report: ReplayReport, log: String) -> String {
        let q = JSONWriter.quote
        var out = "{\"log\": \(q(log)), \"passed\": \(report.passed), \"cases\": ["
        out += report.cases.map { c in
            var o = "{\"case\": \(c.key.map(q) ?? "null"), \"firstLine\": \(c.firstLine), \"state\": \(q(c.state)), "
            o += "\"finished\": \(c.finished), \"time\": \(JSONWriter.number(c.time)), "
            o += "\"variables\": " + ReplayOutput.object(c.variables) + ", "
            o += "\"outputs\": [" + c.outputs.map(ReplayOutput.output).joined(separator: ", ") + "], "
            o += "\"outputCount\": \(c.outputCount), \"applied\": \(c.applied), \"ignored\": \(c.ignored), "
            o += "\"rejected\": \(c.rejected), \"timersFired\": \(c.timersFired), \"expectations\": \(c.expectations), "
            o += "\"failureCount\": \(c.failureCount), \"failures\": ["
            o += c.failures.map { f in
                "{\"line\": \(f.line), \"column\": \(f.column), \"subject\": \(q(f.subject)), "
                    + "\"expected\": \(q(f.expected)), \"actual\": \(q(f.actual))}"
            }.joined(separator: ", ")
            o += "], \"rejections\": ["
            o += c.rejections.map { r in
                var j = "{\"line\": \(r.line), \"column\": \(r.column), \"message\": \(q(r.message))"
                if let spec = r.specRange {
                    let at = machine.source.location(of: spec.start)
                    j += ", \"specLine\": \(at.line), \"specColumn\": \(at.column)"
                }
                return j + "}"
            }.joined(separator: ", ")
            return o + "]}"
        }.joined(separator: ", ")
        out += "], \"error\": "
        if let e = report.error {
            out += "{\"line\": \(e.line), \"column\": \(e.column), \"message\": \(q(e.message))}"
        } else {
            out += "null"
        }
        return out + "}"
    }

    // MARK: - Helpers

    private func failureMessage(_ f: ExpectationFailure) -> String {
        switch f.subject {
        case "state": return "expected state '\(f.expected)', found '\(f.actual)'"
        case "outputs": return "expected outputs \(f.expected), found \(f.actual)"
        default: return "expected \(f.subject.dropFirst("vars.".count)) = \(f.expected), found \(f.actual)"
        }
    }

    private func range(_ text: [UInt8], column: Int) -> SourceRange {
        ReplayOutput.byteRange(text, column: column)
    }

    /// The byte range of the character at a 1-based column of a line.
    static func byteRange(_ text: [UInt8], column: Int) -> SourceRange {
        var offset = 0
        var col = 1
        while col < column && offset < text.count {
            offset += UTF8Scanner.sequenceLength(text, at: offset, limit: text.count)
            col += 1
        }
        let end = offset < text.count ? offset + UTF8Scanner.sequenceLength(text, at: offset, limit: text.count) : offset
        return SourceRange(offset, end)
    }

    private func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }

    static func object(_ pairs: [(name: String, value: Value)]) -> String {
        "{" + pairs.map { "\(JSONWriter.quote($0.name)): \($0.value.json)" }.joined(separator: ", ") + "}"
    }

    static func output(_ o: EmittedOutput) -> String {
        "{\"name\": \(JSONWriter.quote(o.name)), \"args\": [" + o.arguments.map(\.json).joined(separator: ", ") + "]}"
    }
}
