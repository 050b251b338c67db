import StatecraftDiagnostics
import StatecraftSyntax

/// Builds the layout document of a spec that parsed without errors, walking its syntax tree
/// and its tokens together.
///
/// Every token is printed from the source (its text as written) when the walk reaches it,
/// and every comment between two tokens is printed between them, so nothing is lost or
/// reordered; `;` separators and trailing commas are the only tokens dropped (the layout
/// puts its own separators). The walk checks each token's kind against the tree; a mismatch
/// is a formatter bug, reported as `FormatFailure` instead of printing something wrong.
struct DocBuilder {
    /// A comment with what the layout needs to know about its surroundings in the source.
    struct CommentInfo {
        var text: String
        var start: Int
        var isLine: Bool
        /// A line break (or the start of the file) comes between it and the token or comment before it.
        var newlineBefore: Bool
        /// An empty line comes between it and what is before it.
        var blankBefore: Bool
        /// A line break comes between it and what follows it.
        var newlineAfter: Bool
        /// Something follows it directly, with no space between.
        var spaceAfter: Bool
        var spansLines: Bool
    }

    private struct Frame {
        enum Kind { case root, group(Int), indent, indentIfBroken(Int), fill, fillPart }
        var kind: Kind
        var children: [Doc] = []
        var hard = false
    }

    let file: SourceFile
    private let tokens: [Token]
    /// Whether an empty line comes before each token (after the token or comment before it).
    private let tokenBlankBefore: [Bool]
    private let comments: [CommentInfo]
    private var nextToken = 0
    private var nextComment = 0
    private var frames = [Frame(kind: .root)]
    private var groupCount = 0
    /// Inside a string interpolation, which must stay on one line: lines become spaces.
    private var noBreaks = 0
    /// Right after a `{` or at the top of the file: no empty line goes here.
    private var atBodyStart = true

    init(file: SourceFile, tokens: [Token], comments: [SourceComment]) {
        self.file = file
        self.tokens = tokens
        let bytes = file.bytes
        func newlines(_ from: Int, _ to: Int) -> Int {
            var count = 0
            var i = from
            while i < to {
                if bytes[i] == UInt8(ascii: "\n") { count += 1 }
                i += 1
            }
            return count
        }
        // Tokens and comments merged in source order, to measure the gaps between them.
        var infos: [CommentInfo] = []
        var blank: [Bool] = []
        var previousEnd = 0
        var first = true
        var c = 0
        for (index, token) in tokens.enumerated() {
            while c < comments.count && comments[c].range.start < token.range.start {
                let comment = comments[c]
                let before = newlines(previousEnd, comment.range.start)
                let nextStart = c + 1 < comments.count && comments[c + 1].range.start < token.range.start
                    ? comments[c + 1].range.start : token.range.start
                var text = String(decoding: bytes[comment.range.start..<comment.range.end], as: UTF8.self)
                if comment.kind == .line {
                    while let last = text.unicodeScalars.last, last == " " || last == "\t" || last == "\r"
                            || last == "\u{0B}" || last == "\u{0C}" {
                        text.unicodeScalars.removeLast()
                    }
                }
                infos.append(CommentInfo(
                    text: text, start: comment.range.start, isLine: comment.kind == .line,
                    newlineBefore: first || before > 0, blankBefore: !first && before > 1,
                    newlineAfter: comment.kind == .line || newlines(comment.range.end, nextStart) > 0
                        || token.kind == .endOfFile && nextStart == token.range.start,
                    spaceAfter: nextStart > comment.range.end,
                    spansLines: newlines(comment.range.start, comment.range.end) > 0))
                previousEnd = comment.range.end
                first = false
                c += 1
            }
            blank.append(!first && newlines(previousEnd, token.range.start) > 1)
            // A token the layout drops (`;`, a comma before `)`) is not there for the comments
            // after it: one that followed it on its line starts a line of its own.
            let dropped = token.kind == .semicolon
                || token.kind == .comma && index + 1 < tokens.count && tokens[index + 1].kind == .rParen
            if !dropped {
                previousEnd = token.range.end
                first = false
            }
        }
        self.comments = infos
        self.tokenBlankBefore = blank
    }

    // MARK: - The document

    /// The finished document; fails unless every token and comment was printed.
    mutating func document() throws -> Doc {
        flushTrailing()
        append(.hardline)
        flushLeading(keepBlank: true, blankBeforeToken: false)
        guard nextToken < tokens.count, tokens[nextToken].kind == .endOfFile, nextComment == comments.count else {
            throw FormatFailure(offset: nextToken < tokens.count ? tokens[nextToken].range.start : file.bytes.count,
                                message: "text after the machine was not printed")
        }
        while frames.count > 1 { end() }
        return .concat(frames[0].children, hard: frames[0].hard)
    }

    private mutating func append(_ doc: Doc) {
        frames[frames.count - 1].children.append(doc)
        if doc.isHard { frames[frames.count - 1].hard = true }
    }

    /// Opens a group; returns its id for `beginIndentIfBroken`.
    @discardableResult
    mutating func beginGroup() -> Int {
        groupCount += 1
        frames.append(Frame(kind: .group(groupCount)))
        return groupCount
    }

    mutating func beginIndent() { frames.append(Frame(kind: .indent)) }

    mutating func beginIndentIfBroken(_ group: Int) { frames.append(Frame(kind: .indentIfBroken(group))) }

    /// Opens a fill: parts (each opened with `beginFillPart`) with `fillSeparator` between them.
    mutating func beginFill() { frames.append(Frame(kind: .fill)) }

    /// Opens one part of a fill; the comments that end its line are kept inside it.
    mutating func beginFillPart() { frames.append(Frame(kind: .fillPart)) }

    /// Closes a part of a fill, with the comments that end its last token's line.
    mutating func endFillPart() {
        flushTrailing()
        end()
    }

    /// A space between two parts of a fill, or a line break where the next does not fit.
    mutating func fillSeparator() { append(.line) }

    /// Closes the innermost group or indentation.
    mutating func end() {
        guard frames.count > 1, let frame = frames.popLast() else { return }
        switch frame.kind {
        case .root: append(.concat(frame.children, hard: frame.hard))
        case .group(let id): append(.group(id: id, frame.children, hard: frame.hard))
        case .indent: append(.indent(frame.children, hard: frame.hard))
        case .indentIfBroken(let id): append(.indentIfBroken(id: id, frame.children, hard: frame.hard))
        case .fill: append(.fill(frame.children, hard: frame.hard))
        case .fillPart: append(.concat(frame.children, hard: frame.hard))
        }
    }

    // MARK: - Spacing

    /// A space (comments that end the previous token's line come first).
    mutating func space() {
        flushTrailing()
        append(.space)
    }

    /// A space, or a line break where the group is broken.
    mutating func line() {
        flushTrailing()
        append(noBreaks > 0 ? .space : .line)
    }

    /// Nothing, or a line break where the group is broken.
    mutating func softline() {
        flushTrailing()
        if noBreaks == 0 { append(.softline) }
    }

    /// A line break.
    mutating func hardline() {
        flushTrailing()
        append(.hardline)
    }

    /// Text printed only when the enclosing group is flat.
    mutating func flatOnly(_ text: String) { append(.flatOnly(text)) }

    /// Marks the start of a body (after `{`): no empty line before its first member.
    mutating func startBody() { atBodyStart = true }

    /// While inside an interpolated string, lines stay spaces.
    mutating func beginNoBreaks() { noBreaks += 1 }
    mutating func endNoBreaks() { noBreaks -= 1 }

    // MARK: - Tokens

    /// The kind of the next token.
    var peekKind: TokenKind { tokens[min(nextToken, tokens.count - 1)].kind }

    /// The token after the next one.
    var peekSecond: Token { tokens[min(nextToken + 1, tokens.count - 1)] }

    /// Whether the next token starts its line in the source.
    var peekStartsLine: Bool { tokens[min(nextToken, tokens.count - 1)].startsLine }

    /// Whether a comment comes before the next token.
    var hasCommentBeforeNextToken: Bool {
        nextComment < comments.count && comments[nextComment].start < tokens[min(nextToken, tokens.count - 1)].range.start
    }

    /// Prints the next token, which must be of `kind`, after the comments before it.
    mutating func token(_ kind: TokenKind) throws {
        flushTrailing()
        flushLeading(keepBlank: false, blankBeforeToken: false)
        let token = try take(kind)
        append(.text(String(decoding: file.bytes[token.range.start..<token.range.end], as: UTF8.self)))
        atBodyStart = false
    }

    /// Prints the next token whatever its kind (a state modifier, an interpolation's piece).
    mutating func anyToken() throws {
        try token(peekKind)
    }

    /// Drops the next token, which must be of `kind` (a `;` or a trailing comma); the
    /// comments around it stay where they are.
    mutating func skip(_ kind: TokenKind) throws {
        _ = try take(kind)
    }

    /// Drops every `;` that comes next.
    mutating func skipSemicolons() {
        while peekKind == .semicolon { nextToken += 1 }
    }

    private mutating func take(_ kind: TokenKind) throws -> Token {
        guard nextToken < tokens.count, tokens[nextToken].kind == kind, kind != .endOfFile else {
            let found = nextToken < tokens.count ? tokens[nextToken] : nil
            throw FormatFailure(offset: found?.range.start ?? file.bytes.count,
                                message: "expected \(kind.spelling), found \(found?.kind.spelling ?? "end of file")")
        }
        nextToken += 1
        return tokens[nextToken - 1]
    }

    // MARK: - Comments

    /// The comments on the line of the token just printed, before the next token: at the end
    /// of the line (aligned) or, a block comment with code after it, in the line.
    mutating func flushTrailing() {
        while nextComment < comments.count, comments[nextComment].start < tokens[min(nextToken, tokens.count - 1)].range.start,
              !comments[nextComment].newlineBefore {
            let comment = comments[nextComment]
            nextComment += 1
            if comment.spansLines {
                append(.space)
                append(.verbatim(comment.text))
                append(comment.newlineAfter ? .hardline : .space)
            } else if comment.isLine || comment.newlineAfter {
                append(.trailingComment(comment.text))
                append(.hardline)
            } else {
                append(.space)
                append(.inlineComment(comment.text))
                if comment.spaceAfter { append(.space) }
            }
        }
    }

    /// The comments on lines of their own before the next token, each on its line at the
    /// current indentation; with `keepBlank`, an empty line stays where the source had one
    /// (or more) before a comment, and before the token when `blankBeforeToken`.
    mutating func flushLeading(keepBlank: Bool, blankBeforeToken: Bool) {
        let next = min(nextToken, tokens.count - 1)
        var printed = false
        var endsLine = false
        while nextComment < comments.count, comments[nextComment].start < tokens[next].range.start {
            let comment = comments[nextComment]
            nextComment += 1
            if comment.newlineBefore {
                append(keepBlank && comment.blankBefore && !atBodyStart ? .blankLine : .hardline)
            } else {
                append(.space)
            }
            append(comment.spansLines ? .verbatim(comment.text) : .text(comment.text))
            printed = true
            atBodyStart = false
            endsLine = comment.isLine || comment.newlineAfter
        }
        if printed { append(endsLine ? .hardline : .space) }
        if keepBlank && blankBeforeToken && tokenBlankBefore[next] && !atBodyStart { append(.blankLine) }
    }
}

/// The formatter could not keep its walk of the tree and its tokens in step: a bug, reported
/// instead of writing a file that might say something else.
struct FormatFailure: Error {
    /// Where in the input the walk stopped.
    var offset: Int
    var message: String
}
