/// Turns diagnostics into the compiler-style text users read:
/// `path:line:col: severity: message [id]`, the source line, and a caret line.
public struct DiagnosticRenderer: Sendable {
    /// Whether to colour the output with ANSI escapes.
    public var colour: Bool
    /// Source lines longer than this many characters are shown as a window around the caret.
    public var maxLineWidth: Int

    /// Creates a renderer.
    public init(colour: Bool = false, maxLineWidth: Int = 160) {
        self.colour = colour
        self.maxLineWidth = maxLineWidth
    }

    /// Renders one diagnostic with its notes; every line ends with a newline.
    public func render(_ d: Diagnostic, in file: SourceFile) -> String {
        var out = header(file: file, range: d.range, severity: d.severity, message: d.message, id: d.id)
        out += snippet(file: file, range: d.range)
        for note in d.notes {
            guard let range = note.range else {
                out += paint("\(file.path): ", bold) + paint("note: ", cyan) + note.message + "\n"
                continue
            }
            out += header(file: file, range: range, severity: .note, message: note.message, id: nil)
            if range != d.range { out += snippet(file: file, range: range) }
        }
        return out
    }

    /// Renders a note on its own (a note that points into another file than its diagnostic,
    /// such as the spec expression behind a failed log line).
    public func renderNote(_ message: String, at range: SourceRange, in file: SourceFile) -> String {
        header(file: file, range: range, severity: .note, message: message, id: nil) + snippet(file: file, range: range)
    }

    private func header(file: SourceFile, range: SourceRange, severity: Severity, message: String,
                        id: DiagnosticID?) -> String {
        let loc = file.location(of: range.start)
        let label: String
        switch severity {
        case .error: label = paint("error: ", red)
        case .warning: label = paint("warning: ", magenta)
        case .note: label = paint("note: ", cyan)
        }
        let suffix = id.map { " [\($0.rawValue)]" } ?? ""
        return paint("\(file.path):\(loc.line):\(loc.column): ", bold) + label + paint(message, bold) + suffix + "\n"
    }

    /// The source line holding `range.start` and a caret line under the range. A long line
    /// is cut to a window around the caret; only that window is decoded.
    func snippet(file: SourceFile, range: SourceRange) -> String {
        let lineIndex = file.lineIndex(of: min(range.start, file.bytes.count))
        let line = file.lineRange(lineIndex)
        // First pass: count characters without decoding them.
        var count = 0
        var caretStart = -1
        var caretEnd = -1
        var i = line.lowerBound
        while i < line.upperBound {
            if i >= range.start && caretStart < 0 { caretStart = count }
            if i >= range.end && caretEnd < 0 && caretStart >= 0 { caretEnd = count }
            i += UTF8Scanner.sequenceLength(file.bytes, at: i, limit: line.upperBound)
            count += 1
        }
        if caretStart < 0 { caretStart = count }
        if caretEnd < 0 { caretEnd = count }
        caretEnd = max(caretEnd, caretStart + 1)
        var first = 0
        var last = count
        if count > maxLineWidth {
            first = max(0, caretStart - maxLineWidth / 3)
            last = min(count, first + maxLineWidth)
        }
        // Second pass: decode the window only.
        var source = first > 0 ? "…" : ""
        var caret = first > 0 ? " " : ""
        var index = 0
        i = line.lowerBound
        while i < line.upperBound && index < last {
            let length = UTF8Scanner.sequenceLength(file.bytes, at: i, limit: line.upperBound)
            if index >= first {
                let cell = DisplayCell(UTF8Scanner.scalar(file.bytes, at: i, limit: line.upperBound))
                source += cell.text
                if index < caretStart {
                    caret += cell.text == "\t" ? "\t" : String(repeating: " ", count: cell.width)
                } else if index == caretStart {
                    caret += "^" + String(repeating: "~", count: max(0, cell.width - 1))
                } else if index < caretEnd {
                    caret += String(repeating: "~", count: cell.width)
                }
            }
            i += length
            index += 1
        }
        if caretStart >= last { caret += "^" }
        if last < count { source += "…" }
        return source + "\n" + paint(caret, green) + "\n"
    }

    private let bold = "\u{1B}[1m"
    private let red = "\u{1B}[1;31m"
    private let magenta = "\u{1B}[1;35m"
    private let cyan = "\u{1B}[1;36m"
    private let green = "\u{1B}[1;32m"

    private func paint(_ text: String, _ code: String) -> String {
        colour ? code + text + "\u{1B}[0m" : text
    }
}

/// One character of a source line as printed: its text and how many terminal cells it takes.
struct DisplayCell {
    var text: String
    var width: Int

    init(_ scalar: Unicode.Scalar?) {
        guard let scalar else {
            text = "\u{FFFD}"
            width = 1
            return
        }
        let v = scalar.value
        if v == 9 {
            text = "\t"
            width = 1
        } else if v < 0x20 || v == 0x7F || (v >= 0x80 && v < 0xA0) {
            text = "\u{FFFD}"
            width = 1
        } else {
            text = String(Character(scalar))
            width = DisplayCell.width(of: v)
        }
    }

    /// Terminal width: 0 for combining marks and joiners, 2 for wide East Asian and emoji.
    static func width(of v: UInt32) -> Int {
        switch v {
        case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F, 0x20D0...0x20FF, 0xE0100...0xE01EF:
            return 0
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x1F680...0x1F6FF,
             0x2600...0x26FF, 0x2700...0x27BF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
