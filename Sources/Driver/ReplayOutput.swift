import Statecraft
@_spi(Bytes) import StatecraftDiagnostics

/// Prints replay traces and reports in the chosen format.
final class ReplayOutput {
    let format: ReplayCommand.Format
    let trace: Bool
    let console: Console
    let machine: Machine
    /// Standard output, written in large pieces.
    let out: ByteOutput
    /// `--format json` and `junit`: the reports of every log, printed at the end.
    var logs: [ReplayedLog] = []
    // One thread at a time uses an output (the replaying thread, or a `TraceThread` while it
    // runs): no run-time exclusivity checks on what every step touches.
    /// `--format json --trace`: the steps of every log, separated by `,\n    `, printed at the end.
    @exclusivity(unchecked) var jsonSteps = ByteBuffer()
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
        case .text, .github:
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
        case .junit, .html:
            break  // refused with --trace (ReplayCommand.parse)
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

    /// Writes what the replay of `log` found, in the output's format (JSON and JUnit wait
    /// for `finish`, which writes one document for every log).
    func report(_ report: ReplayReport, log: String) {
        add(ReplayedLog(path: log, outcome: .replayed(report)))
    }

    /// A log that cannot be read: on standard error, and in a machine-readable format as a
    /// failed log of the report, so the document records every failure.
    func unreadable(log: String, message: String) {
        out.flush()
        console.err("error: \(message)\n")
        add(ReplayedLog(path: log, outcome: .unreadable(message)))
    }

    private func add(_ log: ReplayedLog) {
        switch (format, log.outcome) {
        case (.text, .replayed(let report)): out.append(ReplayText.log(report, path: log.path, machine: machine))
        case (.text, .unreadable): break
        case (.github, .replayed(let report)):
            out.append(GitHubAnnotations.replay(log, machine: machine) + ReplayText.summary(report, path: log.path))
        case (.github, .unreadable): out.append(GitHubAnnotations.replay(log, machine: machine))
        case (.jsonl, _): out.append(ReplayJSON.jsonlExplanations(log, machine: machine) + ReplayJSON.jsonlLine(log, machine: machine))
        case (.json, _), (.junit, _): logs.append(log)
        case (.html, _): break  // (a summary: ReplayCommand writes it)
        }
        out.flush()
    }

    func finish() {
        switch format {
        case .json:
            ReplayJSON.write(spec: machine.source.path, machine: machine, logs: logs, to: &out.bytes,
                             trace: trace ? { [self] in $0.append(jsonSteps) } : nil)
        case .junit:
            out.append(ReplayJUnit.document(spec: machine.source.path, machine: machine, logs: logs))
        case .text, .jsonl, .github, .html:
            return
        }
        out.flush()
    }
}
