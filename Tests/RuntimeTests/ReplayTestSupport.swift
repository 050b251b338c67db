import Statecraft
import Testing

/// What replaying a log found: the report (with whatever came before an error) and the error.
struct Replay {
    var report: ReplayReport
    var error: LogError?

    /// The only case of the log (most rule tests use one run).
    var run: CaseReport {
        get throws {
            try #require(report.cases.count == 1, "expected one case, found \(report.cases.count)")
            return report.cases[0]
        }
    }

    /// The case with this key (nil: the lines without a case).
    func run(_ key: String?) throws -> CaseReport {
        try #require(report.cases.first { $0.key == key }, "no case \(key ?? "nil")")
    }

    /// Failed expectations of every case, as `line subject: expected / actual`.
    var failures: [String] {
        report.cases.flatMap { $0.failures.map(\.summary) }
    }
}

extension ExpectationFailure {
    /// `3 vars.originY: -617 / 0`: the line, what was asserted, expected / actual.
    var summary: String { "\(line) \(subject): \(expected) / \(actual)" }
}

extension CaseReport {
    /// The value of a variable at the end of the case.
    func value(_ name: String) -> Value? {
        variables.first { $0.name == name }?.value
    }

    /// The outputs as `didTap(0)`.
    var outputTexts: [String] { outputs.map(\.description) }
}

/// Replays `lines` (one JSON object each) against `Specs/<spec>.machine`. A `LogError` does not
/// escape: it is returned with the report of everything consumed before it.
func replay(_ spec: String, _ lines: [String], strict: Bool = false) throws -> Replay {
    var replayer = Replayer(program: try program(spec: spec), options: Replayer.Options(strict: strict))
    var reader = EventLogReader(bytes: Array(lines.joined(separator: "\n").utf8))
    do throws(LogError) {
        while let record = try reader.next() {
            try replayer.consume(record)
        }
    } catch {
        var report = replayer.report
        report.error = error
        return Replay(report: report, error: error)
    }
    return Replay(report: replayer.report, error: nil)
}

/// Replays and requires that the log was read to its end and every expectation held.
@discardableResult
func replayPassing(_ spec: String, _ lines: [String], strict: Bool = false,
                   sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Replay {
    let result = try replay(spec, lines, strict: strict)
    #expect(result.error == nil, "\(result.error.map { "\($0.line):\($0.column) \($0.message)" } ?? "")",
            sourceLocation: sourceLocation)
    for run in result.report.cases {
        #expect(run.failureCount == 0, "case \(run.key ?? "-"): \(run.failures.map(\.summary))",
                sourceLocation: sourceLocation)
        #expect(run.rejected == 0, "case \(run.key ?? "-"): \(run.rejections.map(\.message))",
                sourceLocation: sourceLocation)
    }
    return result
}
