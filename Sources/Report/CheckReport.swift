import StatecraftDiagnostics

/// What `statecraft check` found over all its files: the data every format of its report
/// (text, JSON, SARIF, GitHub annotations) is written from.
public struct CheckReport: Sendable {
    /// The files that were read and checked, in the order checked.
    public var files: [CheckResult]
    /// The files that could not be read.
    public var unreadable: [UnreadableFile]

    /// Creates a report.
    public init(files: [CheckResult], unreadable: [UnreadableFile] = []) {
        self.files = files
        self.unreadable = unreadable
    }

    /// Every diagnostic of every file, in order, with its positions worked out.
    public var diagnostics: [ReportedDiagnostic] {
        files.flatMap { result in result.diagnostics.map { ReportedDiagnostic($0, in: result.file) } }
    }

    /// Diagnostics that are errors (unreadable files not counted).
    public var errorCount: Int { files.reduce(0) { $0 + $1.errorCount } }
    /// Diagnostics that are warnings.
    public var warningCount: Int { files.reduce(0) { $0 + $1.warningCount } }
    /// Whether `check` succeeds: no error, and every file was read.
    public var passed: Bool { errorCount == 0 && unreadable.isEmpty }
}

/// A file that could not be read, and why (`no such file or directory`).
public struct UnreadableFile: Sendable, Equatable {
    /// The path as the user gave it.
    public var path: String
    /// Why it could not be read, as `check` prints it.
    public var message: String

    /// Creates a record of an unreadable file.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
}

/// Where a diagnostic points, as people count: 1-based lines and columns (Unicode scalars),
/// the end just past the last character.
public struct ReportSpan: Sendable, Equatable {
    /// The 1-based line the span starts on.
    public var line: Int
    /// The 1-based column the span starts at, in Unicode scalars.
    public var column: Int
    /// The 1-based line the span ends on.
    public var endLine: Int
    /// The 1-based column just past the span's last character, in Unicode scalars.
    public var endColumn: Int

    /// The span of `range` in `file`.
    public init(_ range: SourceRange, in file: SourceFile) {
        let start = file.location(of: range.start)
        let end = file.location(of: range.end)
        line = start.line
        column = start.column
        endLine = end.line
        endColumn = end.column
    }
}

/// A diagnostic as reports show it: the file's path and the positions as lines and columns,
/// so a formatter needs no source file.
public struct ReportedDiagnostic: Sendable {
    /// A note with the position it points at (nil for a note about the whole file).
    public struct Note: Sendable {
        /// The note's text, lowercase, without a final period.
        public var message: String
        /// Where the note points; nil when it is about the whole file.
        public var span: ReportSpan?
    }

    /// The file's path as it was given.
    public var path: String
    /// The diagnostic's stable id (its kebab-case name is the raw value).
    public var id: DiagnosticID
    /// Whether it is an error, a warning or a note (`check --warnings-as-errors` has made warnings errors).
    public var severity: Severity
    /// The message, lowercase, without a final period.
    public var message: String
    /// Where the diagnostic points.
    public var span: ReportSpan
    /// The notes attached to it, in order.
    public var notes: [Note]
    /// The text of the line the diagnostic starts on, without its line break: what a
    /// fingerprint of the finding hashes, so it survives lines added above it.
    public var lineText: String

    /// `diagnostic` of `file`, its positions worked out.
    public init(_ diagnostic: Diagnostic, in file: SourceFile) {
        path = file.path
        id = diagnostic.id
        severity = diagnostic.severity
        message = diagnostic.message
        span = ReportSpan(diagnostic.range, in: file)
        notes = diagnostic.notes.map { Note(message: $0.message, span: $0.range.map { ReportSpan($0, in: file) }) }
        let line = file.lineRange(file.lineIndex(of: diagnostic.range.start)).clamped(to: 0..<file.bytes.count)
        lineText = String(decoding: file.bytes[line], as: UTF8.self)
    }
}
