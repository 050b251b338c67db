import Statecraft

/// Prints replay traces and reports in the chosen format.
final class ReplayOutput {
    let format: ReplayCommand.Format
    let trace: Bool
    let console: Console
    let machine: Machine
    let renderer = DiagnosticRenderer()
    /// Standard output, written in large pieces.
    let out: ByteOutput
    /// `--format json`: the reports of every log, printed at the end.
    var jsonLogs: [String] = []
    // One thread at a time uses an output (the replaying thread, or a `TraceThread` while it
    // runs): no run-time exclusivity checks on what every step touches.
    /// `--format json --trace`: the steps of every log, separated by `,\n    `, printed at the end.
    @exclusivity(unchecked) var jsonSteps = ByteBuffer()
    var allPassed = true
    /// `{"log": "<path>", "line": ` for the log whose steps are being traced.
    @exclusivity(unchecked) private var lastStepPrefix: (log: String, bytes: [UInt8])?

    /// Names as a trace writes them, looked up and quoted once per machine (see `TraceNames`).
    private let names: TraceNames

    init(format: ReplayCommand.Format, trace: Bool, console: Console, machine: Machine) {
        self.format = format
        self.trace = trace
        self.console = console
        self.machine = machine
        self.out = ByteOutput(console: console)
        names = TraceNames(machine)
    }

    // MARK: - Steps

    /// Writes the steps of `batch` (steps of `log`) in the output's format.
    func steps(_ batch: TraceBatch, log: String) {
        switch format {
        case .text:
            for k in 0..<batch.count {
                out.line { names.appendText(batch, k, to: &$0) }
            }
        case .jsonl:
            stepPrefix(log: log).withUnsafeBufferPointer { prefix in
                for k in 0..<batch.count {
                    out.line { bytes in
                        names.appendJSON(batch, k, prefix: prefix, to: &bytes)
                        bytes.append(UInt8(ascii: "\n"))
                    }
                }
            }
        case .json:
            stepPrefix(log: log).withUnsafeBufferPointer { prefix in
                for k in 0..<batch.count {
                    if !jsonSteps.isEmpty { jsonSteps.append(",\n    ") }
                    names.appendJSON(batch, k, prefix: prefix, to: &jsonSteps)
                }
            }
        }
    }

    /// `{"log": "<path>", "line": `, the start of every step of a log.
    private func stepPrefix(log: String) -> [UInt8] {
        if let last = lastStepPrefix, last.log == log { return last.bytes }
        var prefix = ByteBuffer()
        prefix.append("{\"log\": ")
        JSONWriter.appendQuoted(log, to: &prefix)
        prefix.append(", \"line\": ")
        let bytes = prefix.withBytes { Array($0) }
        lastStepPrefix = (log, bytes)
        return bytes
    }

    // MARK: - Reports

    func report(_ report: ReplayReport, log: String) {
        if !report.passed { allPassed = false }
        switch format {
        case .text: out.append(text(report, log: log))
        case .jsonl: out.append("{\"report\": " + json(report, log: log) + "}\n")
        case .json: jsonLogs.append(json(report, log: log))
        }
        out.flush()
    }

    /// A log that cannot be read: on standard error, and in a machine-readable format as a
    /// failed log of the report, so the document records every failure.
    func unreadable(log: String, message: String) {
        out.flush()
        console.err("error: \(message)\n")
        allPassed = false
        let q = JSONWriter.quote
        let entry = "{\"log\": \(q(log)), \"passed\": false, \"cases\": [], "
            + "\"error\": {\"line\": null, \"column\": null, \"message\": \(q(message))}}"
        switch format {
        case .text: break
        case .jsonl:
            out.append("{\"report\": " + entry + "}\n")
            out.flush()
        case .json: jsonLogs.append(entry)
        }
    }

    func finish() {
        guard format == .json else { return }
        var text = "{\n  \"spec\": \(JSONWriter.quote(machine.source.path)),\n  \"machine\": \(JSONWriter.quote(machine.name)),\n"
        text += "  \"passed\": \(allPassed),\n  \"logs\": [\n    " + jsonLogs.joined(separator: ",\n    ") + "\n  ]"
        out.append(text)
        if trace {
            out.append(",\n  \"trace\": [\n    ")
            out.bytes.append(jsonSteps)
            out.append("\n  ]")
        }
        out.append("\n}\n")
        out.flush()
    }

    func text(_ report: ReplayReport, log: String) -> String {
        var out = ""
        for c in report.cases {
            out += "\(log): " + (c.key.map { "case \(JSONWriter.quote($0))" } ?? "lines without a case")
            out += " (from line \(c.firstLine))\n"
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
            var o = "{\"case\": \(c.key.map(q) ?? "null"), \"firstLine\": \(c.firstLine), \"state\": \(c.startFailure == nil ? q(c.state) : "null"), "
            o += "\"configuration\": [" + c.configuration.map(q).joined(separator: ", ") + "], "
            if let settled = c.settled { o += "\"settled\": \(q(settled.rawValue)), " }
            o += "\"finished\": \(c.finished), \"started\": \(c.startFailure == nil), \"time\": \(JSONWriter.number(c.time)), "
            o += "\"variables\": " + ReplayOutput.object(c.variables) + ", "
            o += "\"outputs\": [" + c.outputs.map(ReplayOutput.output).joined(separator: ", ") + "], "
            o += "\"outputCount\": \(c.outputCount), \"applied\": \(c.applied), \"ignored\": \(c.ignored), "
            o += "\"rejected\": \(c.rejected), \"timersFired\": \(c.timersFired), \"sentTaken\": \(c.sentTaken), \"expectations\": \(c.expectations), "
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

    static func object(_ pairs: [NamedValue]) -> String {
        var out = ByteBuffer()
        appendObject(pairs, to: &out)
        return out.text
    }

    static func output(_ o: EmittedOutput) -> String {
        var out = ByteBuffer()
        appendOutput(o, to: &out)
        return out.text
    }

    /// `{"name": value, ...}`
    static func appendObject(_ pairs: [NamedValue], to out: inout ByteBuffer) {
        out.append(UInt8(ascii: "{"))
        for (i, pair) in pairs.enumerated() {
            if i > 0 { out.append(", ") }
            JSONWriter.appendQuoted(pair.name, to: &out)
            out.append(": ")
            pair.value.appendJSON(to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `{"name": "didTap", "args": [0]}`
    static func appendOutput(_ o: EmittedOutput, to out: inout ByteBuffer) {
        out.append("{\"name\": ")
        JSONWriter.appendQuoted(o.name, to: &out)
        out.append(", \"args\": [")
        for (i, argument) in o.arguments.enumerated() {
            if i > 0 { out.append(", ") }
            argument.appendJSON(to: &out)
        }
        out.append("]}")
    }
}

extension Value {
    /// `json`, appended to `out`.
    func appendJSON(to out: inout ByteBuffer) {
        switch self {
        case .number(let n): JSONWriter.appendNumber(n, to: &out)
        case .bool(let b): out.append(b ? "true" : "false")
        case .string(let s): JSONWriter.appendQuoted(s, to: &out)
        }
    }

    /// `description` (spec notation), appended to `out`.
    func appendDescription(to out: inout ByteBuffer) {
        switch self {
        case .number(let n) where n.isFinite: JSONWriter.appendNumber(n, to: &out)
        case .string(let s): StringEscaping.appendQuoted(s, style: .spec, to: &out)
        default: out.append(contentsOf: description)
        }
    }
}
