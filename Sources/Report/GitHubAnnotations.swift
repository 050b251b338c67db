import StatecraftDiagnostics
import StatecraftModel
import StatecraftReplay
import StatecraftRuntime

/// `--format github`: GitHub Actions workflow commands, one line per finding
/// (`::error file=…,line=…,col=…,endLine=…,endColumn=…,title=…::message`), which the runner
/// turns into annotations on the pull request without an upload step.
///
/// The runner reads a command up to the end of its line, its properties up to `::`, and
/// each property up to `,`; so the message escapes `%`, CR and LF as `%25`, `%0D`, `%0A`,
/// and a property value also `:` and `,` as `%3A` and `%2C` (the rules of the
/// actions/toolkit's `command.ts`, which the runner undoes).
public enum GitHubAnnotations {
    /// One annotation: where it points and what it says.
    public struct Annotation: Sendable, Equatable {
        /// `error`, `warning` or `notice`.
        public var level: String
        /// The path the annotation is shown on; nil for one about no file.
        public var file: String?
        /// The 1-based line it starts on; nil for the whole file.
        public var line: Int?
        /// The 1-based column it starts at; nil for the whole line.
        public var column: Int?
        /// The 1-based line it ends on; nil when it is the start line.
        public var endLine: Int?
        /// The 1-based column it ends at; nil when not known.
        public var endColumn: Int?
        /// The annotation's title (our reports put the diagnostic's id there); nil for none.
        public var title: String?
        /// The annotation's text.
        public var message: String

        /// Creates an annotation; only its level and message are required.
        public init(level: String, file: String? = nil, line: Int? = nil, column: Int? = nil, endLine: Int? = nil,
                    endColumn: Int? = nil, title: String? = nil, message: String) {
            self.level = level
            self.file = file
            self.line = line
            self.column = column
            self.endLine = endLine
            self.endColumn = endColumn
            self.title = title
            self.message = message
        }

        /// The workflow command, with its line break.
        public var command: String {
            var properties: [String] = []
            if let file { properties.append("file=" + escapeProperty(file)) }
            if let line { properties.append("line=\(line)") }
            if let column { properties.append("col=\(column)") }
            if let endLine { properties.append("endLine=\(endLine)") }
            if let endColumn { properties.append("endColumn=\(endColumn)") }
            if let title { properties.append("title=" + escapeProperty(title)) }
            let head = properties.isEmpty ? level : level + " " + properties.joined(separator: ",")
            return "::" + head + "::" + escapeData(message) + "\n"
        }
    }

    /// The level of a severity: errors and warnings as they are, notes as notices.
    public static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
    }

    /// Escapes a command's message.
    public static func escapeData(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Escapes a property's value.
    public static func escapeProperty(_ s: String) -> String {
        escapeData(s).replacingColonsAndCommas()
    }

    /// `check`'s findings: each diagnostic at its range, titled with its id; its notes
    /// follow the message on lines of their own. A file that could not be read is an error
    /// without a position.
    ///
    /// A proven property gets no annotation: GitHub shows only the first few annotations of
    /// each level per step, and proofs there would crowd out the findings. The summary line
    /// after them counts the proofs.
    public static func check(_ report: CheckReport) -> String {
        var out = ""
        for d in report.diagnostics where d.id != .propertyProven {
            var message = d.message
            for note in d.notes {
                message += "\nnote: " + note.message + (note.span.map { " (line \($0.line), column \($0.column))" } ?? "")
            }
            out += Annotation(level: level(d.severity), file: d.path, line: d.span.line, column: d.span.column,
                              endLine: d.span.endLine, endColumn: d.span.endColumn, title: d.id.rawValue,
                              message: message).command
        }
        for file in report.unreadable {
            out += Annotation(level: "error", title: "unreadable file", message: file.message).command
        }
        return out
    }
}

extension String {
    fileprivate func replacingColonsAndCommas() -> String {
        var out = ""
        for c in unicodeScalars {
            switch c {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

extension GitHubAnnotations {
    /// A replay's findings: each broken property at the log line where it became certain,
    /// titled with the property's name; each failed expectation and rejected event at its
    /// line and column of the log; a malformed line where replay stopped; a log that cannot
    /// be read.
    public static func replay(_ log: ReplayedLog, machine: Machine) -> String {
        switch log.outcome {
        case .unreadable(let message):
            return Annotation(level: "error", title: "unreadable log", message: message).command
        case .replayed(let report):
            var out = ""
            for c in report.cases {
                // In the text report's order: the case's broken properties, then its findings.
                for v in c.propertyViolations {
                    out += Annotation(level: "error", file: log.path, line: v.line, title: v.property,
                                      message: c.title + ": " + v.sentence).command
                }
                for f in c.findings {
                    var message = c.title + ": " + f.message
                    if let spec = f.specRange {
                        let at = machine.source.location(of: spec.start)
                        message += "\nnote: the failing expression in the spec is at \(machine.source.path):\(at.line):\(at.column)"
                    }
                    out += Annotation(level: "error", file: log.path, line: f.line, column: f.column,
                                      title: f.id.rawValue, message: message).command
                }
                if c.findingsTruncated {
                    out += Annotation(level: "notice", file: log.path,
                                      message: c.title + ": only the first \(Replayer.keptFailures) failures and "
                                        + "rejections are annotated").command
                }
            }
            for w in report.warnings {
                out += Annotation(level: "warning", file: log.path, line: w.line, column: w.column,
                                  title: w.id.rawValue, message: w.message).command
            }
            if let e = report.error {
                out += Annotation(level: "error", file: log.path, line: e.line, column: e.column,
                                  title: DiagnosticID.malformedLogLine.rawValue,
                                  message: e.message + "\nreplay stopped here").command
            }
            return out
        }
    }
}
