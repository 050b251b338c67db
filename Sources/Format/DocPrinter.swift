/// Lays a `Doc` out in lines no wider than `width` where it can, then aligns the comments
/// that end lines.
///
/// The algorithm is Prettier's: a stack of commands, each a document with its indentation
/// and mode; a group is tried flat by measuring it together with what follows it up to the
/// next possible line break.
struct DocPrinter {
    /// The widest line wanted, in Unicode scalars.
    let width: Int
    /// One level of indentation, in spaces.
    static let indentWidth = 4
    /// Trailing comments start at this column or further right, at a multiple of 4.
    static let commentColumn = 40
    /// A line whose code reaches past this column keeps its trailing comment two spaces
    /// after the code and does not push its neighbours' comments to the right.
    static let commentAlignmentLimit = 60

    private enum Mode { case flat, broken }
    private struct Command {
        var indent: Int
        var mode: Mode
        var doc: Doc
    }

    /// The printed text, ending with a line break.
    func print(_ doc: Doc) -> String {
        var writer = LineWriter()
        var groupModes: [Int: Mode] = [:]
        var commands = [Command(indent: 0, mode: .broken, doc: doc)]
        while let command = commands.popLast() {
            let indent = command.indent
            switch command.doc {
            case .text(let text): writer.text(text)
            case .verbatim(let text): writer.verbatim(text)
            case .space: writer.space()
            case .flatOnly(let text): if command.mode == .flat { writer.text(text) }
            case .trailingComment(let text): writer.trailingComment(text)
            case .inlineComment(let text): writer.inlineComment(text)
            case .line, .softline:
                if command.mode == .broken {
                    writer.newline(indent: indent)
                } else if case .line = command.doc {
                    writer.space()
                }
            case .hardline: writer.newline(indent: indent)
            case .blankLine: writer.blankLine(indent: indent)
            case .concat(let children, _):
                push(children, indent: indent, mode: command.mode, onto: &commands)
            case .fill(let parts, _):
                fill(parts, indent: indent, mode: command.mode, column: writer.column, onto: &commands)
            case .indent(let children, _):
                push(children, indent: indent + DocPrinter.indentWidth, mode: command.mode, onto: &commands)
            case .indentIfBroken(let id, let children, _):
                let extra = groupModes[id] == .broken ? DocPrinter.indentWidth : 0
                push(children, indent: indent + extra, mode: command.mode, onto: &commands)
            case .group(let id, let children, let hard):
                var mode = Mode.broken
                if !hard {
                    if command.mode == .flat {
                        mode = .flat
                    } else {
                        let flat = Command(indent: indent, mode: .flat, doc: .concat(children, hard: false))
                        if fits(flat, rest: commands, remaining: width - writer.column) {
                            mode = .flat
                        }
                    }
                }
                groupModes[id] = mode
                push(children, indent: indent, mode: mode, onto: &commands)
            }
        }
        return writer.finish()
    }

    private func push(_ children: [Doc], indent: Int, mode: Mode, onto commands: inout [Command]) {
        for child in children.reversed() { commands.append(Command(indent: indent, mode: mode, doc: child)) }
    }

    /// The first part of a fill and the line after it: the line is a space when the next
    /// part fits after it, else a break; the rest is filled when its turn comes.
    private func fill(_ parts: [Doc], indent: Int, mode: Mode, column: Int, onto commands: inout [Command]) {
        guard let content = parts.first else { return }
        let remaining = width - column
        func flat(_ doc: Doc) -> Command { Command(indent: indent, mode: .flat, doc: doc) }
        func broken(_ doc: Doc) -> Command { Command(indent: indent, mode: .broken, doc: doc) }
        if mode == .flat {
            push(parts, indent: indent, mode: .flat, onto: &commands)
            return
        }
        let contentFits = fits(flat(content), rest: [], remaining: remaining, mustBeFlat: true)
        guard parts.count >= 3 else {
            push(Array(parts.dropFirst()), indent: indent, mode: contentFits ? .flat : .broken, onto: &commands)
            commands.append(contentFits ? flat(content) : broken(content))
            return
        }
        let separator = parts[1]
        let pair = flat(.concat([content, separator, parts[2]], hard: false))
        commands.append(Command(indent: indent, mode: mode, doc: .fill(Array(parts.dropFirst(2)), hard: false)))
        if fits(pair, rest: [], remaining: remaining, mustBeFlat: true) {
            commands.append(flat(separator))
            commands.append(flat(content))
        } else {
            commands.append(broken(separator))
            commands.append(contentFits ? flat(content) : broken(content))
        }
    }

    /// Whether `next` printed flat, and then `rest` up to its first line break, fits in
    /// `remaining` columns.
    /// With `mustBeFlat`, a group that must break does not fit.
    private func fits(_ next: Command, rest: [Command], remaining: Int, mustBeFlat: Bool = false) -> Bool {
        var remaining = remaining
        var stack = [next]
        var restIndex = rest.count
        while remaining >= 0 {
            guard let command = stack.popLast() else {
                if restIndex == 0 { return true }
                restIndex -= 1
                stack.append(rest[restIndex])
                continue
            }
            switch command.doc {
            case .text(let text), .inlineComment(let text): remaining -= LineWriter.width(text)
            case .verbatim, .hardline, .blankLine: return true
            case .space: remaining -= 1
            case .flatOnly(let text): if command.mode == .flat { remaining -= LineWriter.width(text) }
            case .trailingComment: break
            case .line, .softline:
                if command.mode == .broken { return true }
                if case .line = command.doc { remaining -= 1 }
            case .concat(let children, _), .indent(let children, _), .indentIfBroken(_, let children, _),
                 .fill(let children, _):
                for child in children.reversed() { stack.append(Command(indent: 0, mode: command.mode, doc: child)) }
            case .group(_, let children, let hard):
                if mustBeFlat && hard { return false }
                let mode: Mode = hard ? .broken : command.mode
                for child in children.reversed() { stack.append(Command(indent: 0, mode: mode, doc: child)) }
            }
        }
        return false
    }
}

/// Collects printed lines: each an indentation, its code and perhaps a comment that ends it.
struct LineWriter {
    private struct Line {
        var indent: Int
        var code = ""
        var comment: String?
        /// Whether the line continues a block comment; its text is kept as written.
        var verbatim = false
        var isEmpty: Bool { code.isEmpty && comment == nil }
    }

    private var lines: [Line] = []
    private var current = Line(indent: 0)
    private var pendingSpace = false
    /// Where the inline comment that is last on the current line starts, if one is.
    private var lastComment: String.Index?

    /// The column where the next text would start.
    var column: Int {
        (current.verbatim ? 0 : current.indent) + LineWriter.width(current.code) + (pendingSpace && !current.code.isEmpty ? 1 : 0)
    }

    /// Width in Unicode scalars, the unit of the diagnostics' columns.
    static func width(_ text: String) -> Int { text.unicodeScalars.count }

    mutating func text(_ text: String) {
        if pendingSpace && !current.code.isEmpty { current.code += " " }
        pendingSpace = false
        lastComment = nil
        current.code += text
    }

    mutating func inlineComment(_ text: String) {
        self.text("")
        lastComment = current.code.endIndex
        current.code += text
    }

    mutating func space() { pendingSpace = true }

    mutating func verbatim(_ text: String) {
        lastComment = nil
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        self.text(parts.removeFirst())
        for part in parts {
            lines.append(current)
            current = Line(indent: 0, code: part, verbatim: true)
        }
    }

    mutating func trailingComment(_ text: String) {
        lastComment = nil
        if current.code.isEmpty {
            current.code = text
        } else {
            current.comment = text
        }
        pendingSpace = false
    }

    /// Ends the line, unless nothing is on it yet; the next line is indented `indent`.
    mutating func newline(indent: Int) {
        pendingSpace = false
        if let split = lastComment, current.comment == nil {
            // A block comment that ends the line is a trailing comment after all.
            let code = current.code[..<split].trimmingSpaces
            if !code.isEmpty {
                current.comment = String(current.code[split...])
                current.code = code
            }
        }
        lastComment = nil
        if !current.isEmpty { lines.append(current) }
        current = Line(indent: indent)
    }

    /// Ends the line and leaves one empty line (never two, never one at the top).
    mutating func blankLine(indent: Int) {
        newline(indent: indent)
        if let last = lines.last, !last.isEmpty { lines.append(Line(indent: 0)) }
    }

    /// The text: every line, trailing comments aligned by paragraph (lines between two empty
    /// lines), a line break after the last.
    mutating func finish() -> String {
        newline(indent: 0)
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        var out = ""
        var start = 0
        while start < lines.count {
            var end = start
            while end < lines.count && !lines[end].isEmpty { end += 1 }
            out += paragraph(lines[start..<end])
            if end < lines.count { out += "\n" }
            start = end + 1
        }
        return out
    }

    private func paragraph(_ lines: ArraySlice<Line>) -> String {
        func codeEnd(_ line: Line) -> Int { (line.verbatim ? 0 : line.indent) + LineWriter.width(line.code) }
        let aligned = lines.filter { $0.comment != nil && codeEnd($0) + 2 <= DocPrinter.commentAlignmentLimit }
        let widest = aligned.map(codeEnd).max() ?? 0
        let column = max(DocPrinter.commentColumn, (widest + 2 + 3) / 4 * 4)
        var out = ""
        for line in lines {
            var text = line.verbatim ? line.code : String(repeating: " ", count: line.indent) + line.code
            if let comment = line.comment {
                let end = codeEnd(line)
                let pad = end + 2 <= DocPrinter.commentAlignmentLimit ? column - end : 2
                text += String(repeating: " ", count: pad) + comment
            }
            out += text + "\n"
        }
        return out
    }
}

extension Substring {
    /// The text without the spaces at its end.
    fileprivate var trimmingSpaces: String {
        var end = endIndex
        while end > startIndex && self[index(before: end)] == " " { end = index(before: end) }
        return String(self[startIndex..<end])
    }
}
