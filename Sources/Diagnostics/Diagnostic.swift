/// How serious a diagnostic is.
public enum Severity: String, Sendable, Comparable {
    /// Extra information attached to another diagnostic (an earlier declaration, a "did you mean").
    case note
    /// A likely mistake that does not stop the spec from running (an error under `--warnings-as-errors`).
    case warning
    /// A problem that makes the spec (or the log) unusable: the command fails.
    case error

    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }
}

/// A secondary message attached to a diagnostic, such as "earlier declaration is here".
public struct DiagnosticNote: Equatable, Sendable {
    /// Lowercase text, no final period.
    public var message: String
    /// Where the note points; nil for a note about the file as a whole.
    public var range: SourceRange?

    /// Creates a note.
    public init(_ message: String, at range: SourceRange?) {
        self.message = message
        self.range = range
    }
}

/// One finding about one source file: an id from the catalogue, a message and a range.
public struct Diagnostic: Equatable, Sendable {
    /// The stable kebab-case id, e.g. `unknown-state`.
    public var id: DiagnosticID
    /// Error or warning (notes travel inside `notes`).
    public var severity: Severity
    /// Lowercase text, no final period; user names in single quotes.
    public var message: String
    /// The bytes the diagnostic is about; the caret starts at `range.start`.
    public var range: SourceRange
    /// Secondary messages, printed after the diagnostic.
    public var notes: [DiagnosticNote]

    /// Creates a diagnostic with the id's default severity.
    public init(_ id: DiagnosticID, _ message: String, at range: SourceRange, notes: [DiagnosticNote] = []) {
        self.id = id
        self.severity = id.defaultSeverity
        self.message = message
        self.range = range
        self.notes = notes
    }
}

/// Collects the diagnostics of one file, in the order found.
///
/// Keeps at most one syntax error per line (the first is the useful one) and stops
/// collecting after `limit` errors, recording that it did.
public struct DiagnosticBag: Sendable {
    /// The diagnostics so far.
    public private(set) var diagnostics: [Diagnostic] = []
    /// Errors collected; counts toward `limit`.
    public private(set) var errorCount = 0
    /// Whether diagnostics were dropped because of `limit`.
    public var truncated: Bool { firstDropped != nil }
    /// Where the first dropped diagnostic pointed.
    public private(set) var firstDropped: SourceRange?
    /// The maximum number of errors kept.
    public let limit: Int
    private var syntaxErrorLines: Set<Int> = []

    /// Creates an empty bag.
    public init(limit: Int = 50) {
        self.limit = limit
    }

    /// Whether the bag holds any error.
    public var hasErrors: Bool { errorCount > 0 }

    /// Adds a diagnostic, unless the error limit was reached.
    public mutating func add(_ diagnostic: Diagnostic) {
        if errorCount >= limit {
            if firstDropped == nil { firstDropped = diagnostic.range }
            return
        }
        diagnostics.append(diagnostic)
        if diagnostic.severity == .error { errorCount += 1 }
    }

    /// Adds a syntax error unless an earlier one is on the same line of `file`.
    public mutating func addSyntaxError(_ diagnostic: Diagnostic, in file: SourceFile) {
        let line = file.lineIndex(of: diagnostic.range.start)
        guard syntaxErrorLines.insert(line).inserted else { return }
        add(diagnostic)
    }

    /// Records that a diagnostic at `range` was dropped by another bag with the same limit,
    /// whose kept diagnostics this one holds: it is as truncated as that bag.
    public mutating func noteDropped(at range: SourceRange) {
        if firstDropped == nil { firstDropped = range }
    }

    /// Appends every diagnostic of another bag (a later stage's findings).
    public mutating func merge(_ other: DiagnosticBag) {
        for d in other.diagnostics { add(d) }
        if firstDropped == nil, let dropped = other.firstDropped { firstDropped = dropped }
    }

    /// The diagnostics sorted by position, errors before warnings at the same position.
    public var sorted: [Diagnostic] {
        diagnostics.enumerated().sorted { a, b in
            if a.element.range.start != b.element.range.start {
                return a.element.range.start < b.element.range.start
            }
            return a.offset < b.offset
        }.map(\.element)
    }
}
