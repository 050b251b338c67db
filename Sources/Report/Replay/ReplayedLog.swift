import StatecraftDiagnostics
import StatecraftEventLog
import StatecraftReplay
import StatecraftRuntime

/// One log of a replay as its reports show it: the path as printed (`<stdin>` for standard
/// input) and what the replay found, or why the log could not be read.
public struct ReplayedLog: Sendable {
    /// What became of the log: replayed (to its end or to a malformed line), or unreadable.
    public enum Outcome: Sendable {
        /// The log was read, to its end or to a malformed line (then the report's `error` says which).
        case replayed(ReplayReport)
        /// The log could not be opened (`no such file or directory`).
        case unreadable(String)
    }

    /// The log's path as reports print it (`<stdin>` for standard input).
    public var path: String
    /// What the replay found, or why the log could not be read.
    public var outcome: Outcome

    /// Pairs a log's path with its outcome.
    public init(path: String, outcome: Outcome) {
        self.path = path
        self.outcome = outcome
    }

    /// Whether every expectation held, nothing was rejected and the whole log was read.
    public var passed: Bool {
        if case .replayed(let report) = outcome { return report.passed }
        return false
    }
}

/// A failed expectation or a rejected event, at its line and column of the log: what every
/// format of a replay's report lists.
public struct ReplayFinding: Sendable {
    /// `expectation-failed` or `event-rejected`.
    public var id: DiagnosticID
    /// The 1-based line of the log.
    public var line: Int
    /// The 1-based column the finding points at, in characters.
    public var column: Int
    /// What went wrong, lowercase, without a final period.
    public var message: String
    /// The log line's text, for the caret.
    public var text: [UInt8]
    /// For a failed expectation, the value the log expected and the one the run had.
    public var expected: String?
    /// For a failed expectation, the value the run had; nil for a rejection.
    public var actual: String?
    /// For a rejection, the spec expression that failed, if one did.
    public var specRange: SourceRange?

    /// The bytes of `text` the finding points at: the character at its column.
    public var range: SourceRange { ReplayFinding.byteRange(text, column: column) }

    /// The byte range of the character at a 1-based column of a line.
    public static func byteRange(_ text: [UInt8], column: Int) -> SourceRange {
        var offset = 0
        var col = 1
        while col < column && offset < text.count {
            offset += UTF8Scanner.sequenceLength(text, at: offset, limit: text.count)
            col += 1
        }
        let end = offset < text.count ? offset + UTF8Scanner.sequenceLength(text, at: offset, limit: text.count) : offset
        return SourceRange(offset, end)
    }
}

extension CaseReport {
    /// The case as reports name it: `case "k"`, or `lines without a case`.
    public var title: String {
        key.map { "case " + JSONWriter.quote($0) } ?? "lines without a case"
    }

    /// The kept failures and rejections, by line.
    public var findings: [ReplayFinding] {
        var all = failures.map { f in
            ReplayFinding(id: .expectationFailed, line: f.line, column: f.column, message: f.message, text: f.text,
                          expected: f.expected, actual: f.actual)
        }
        all += rejections.map { r in
            ReplayFinding(id: .eventRejected, line: r.line, column: r.column, message: r.message, text: r.text,
                          specRange: r.specRange)
        }
        // A stable sort: at one line, failures before rejections, as the text report has it.
        return all.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
    }

    /// Whether failures or rejections were counted beyond the ones kept.
    public var findingsTruncated: Bool { failureCount > failures.count || rejected > rejections.count }
}

extension ExpectationFailure {
    /// `expected state 'open', found 'closed'`.
    public var message: String {
        switch subject {
        case "state": "expected state '\(expected)', found '\(actual)'"
        case "outputs": "expected outputs \(expected), found \(actual)"
        default: "expected \(subject.dropFirst("vars.".count)) = \(expected), found \(actual)"
        }
    }
}
