import StatecraftDiagnostics
import StatecraftSyntax

/// The canonical layout of a spec: `statecraft fmt`.
///
/// The layout depends only on the tokens, the comments and where the source has empty
/// lines, so formatting formatted text changes nothing. It never changes what the spec
/// says: every token and comment is printed in its order (only `;` separators and trailing
/// commas give way to the layout's own), and the result is lexed again and compared before
/// it is returned.
public enum SpecFormatter {
    /// The widest line the layout aims for, in Unicode scalars (a token, a string or a comment
    /// longer than that still goes on one line).
    public static let lineWidth = 100

    /// What formatting a file gave.
    public enum Outcome: Sendable, Equatable {
        /// The formatted text (the file is already formatted when it equals the input).
        case formatted([UInt8])
        /// The file has syntax errors, which a formatter cannot lay out: the diagnostics,
        /// sorted, pointing into `FormatResult.source`.
        case syntaxErrors([Diagnostic])
        /// A bug in the formatter stopped it at this offset of `FormatResult.source`; the
        /// file is left as it is.
        case failed(offset: Int, message: String)
    }

    /// The outcome for one file.
    public struct FormatResult: Sendable {
        /// The text that was formatted: the input without a byte order mark, which
        /// diagnostics point into.
        public var source: SourceFile
        /// The input exactly as given.
        public var input: [UInt8]
        /// The formatted bytes, the syntax errors that stopped the formatter, or its failure.
        public var outcome: Outcome

        /// The formatted bytes (with the input's byte order mark, if it had one), or nil.
        public var output: [UInt8]? {
            guard case .formatted(let bytes) = outcome else { return nil }
            return bytes
        }

        /// Whether the file was formatted and the layout differs from the input.
        public var changed: Bool { output.map { $0 != input } ?? false }
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Formats one spec.
    public static func format(_ file: SourceFile) -> FormatResult {
        let hasMark = file.bytes.starts(with: byteOrderMark)
        // Like `check`, the text after a byte order mark is what is read and pointed into.
        let source = hasMark ? SourceFile(path: file.path, bytes: Array(file.bytes.dropFirst(3)), firstLine: file.firstLine)
            : file
        var result = FormatResult(source: source, input: file.bytes, outcome: .formatted([]))
        let (tree, diagnostics) = Parser.parse(source)
        guard let tree, !diagnostics.hasErrors else {
            result.outcome = .syntaxErrors(diagnostics.sorted)
            return result
        }
        let lexed = Lexer.tokenizeWithComments(source)
        do {
            var builder = DocBuilder(file: source, tokens: lexed.tokens, comments: lexed.comments)
            try builder.file(tree)
            let doc = try builder.document()
            let text = DocPrinter(width: lineWidth).print(doc)
            let bytes = Array(text.utf8)
            try verify(bytes, against: source, tokens: lexed.tokens, comments: lexed.comments)
            result.outcome = .formatted(hasMark ? byteOrderMark + bytes : bytes)
        } catch let failure as FormatFailure {
            result.outcome = .failed(offset: failure.offset, message: failure.message)
        } catch {
            result.outcome = .failed(offset: 0, message: "\(error)")
        }
        return result
    }

    /// Formats spec text (tests and embedding apps); nil when it has syntax errors.
    public static func format(source: String, path: String = "<input>") -> String? {
        format(SourceFile(path: path, text: source)).output.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The tokens of `file` that the layout keeps, with their text, in order: every token
    /// but `;` and a comma right before `)`, and the end of file. What formatting preserves.
    package static func significantTokens(of file: SourceFile) -> [String] {
        significant(Lexer.tokenize(file).tokens, in: file)
    }

    /// The text of each comment of `file`, in order (a line comment without the spaces that
    /// end its line). What formatting preserves.
    package static func commentTexts(of file: SourceFile) -> [String] {
        Lexer.tokenizeWithComments(file).comments.map { commentText($0, in: file) }
    }

    private static func significant(_ tokens: [Token], in file: SourceFile) -> [String] {
        var kept: [String] = []
        for (index, token) in tokens.enumerated() where token.kind != .endOfFile && token.kind != .semicolon {
            if token.kind == .comma, index + 1 < tokens.count, tokens[index + 1].kind == .rParen { continue }
            kept.append(String(decoding: file.bytes[token.range.start..<token.range.end], as: UTF8.self))
        }
        return kept
    }

    private static func commentText(_ comment: SourceComment, in file: SourceFile) -> String {
        var text = String(decoding: file.bytes[comment.range.start..<comment.range.end], as: UTF8.self)
        if comment.kind == .line {
            while let last = text.unicodeScalars.last, last == " " || last == "\t" || last == "\r"
                    || last == "\u{0B}" || last == "\u{0C}" {
                text.unicodeScalars.removeLast()
            }
        }
        return text
    }

    /// The output must lex to the same tokens and comments and parse without errors; if not,
    /// the formatter has a bug and the file is better left alone.
    private static func verify(_ output: [UInt8], against source: SourceFile, tokens: [Token],
                               comments: [SourceComment]) throws {
        let formatted = SourceFile(path: source.path, bytes: output)
        let relexed = Lexer.tokenizeWithComments(formatted)
        if significant(relexed.tokens, in: formatted) != significant(tokens, in: source) {
            throw FormatFailure(offset: 0, message: "the formatted text would have other tokens")
        }
        if relexed.comments.map({ commentText($0, in: formatted) }) != comments.map({ commentText($0, in: source) }) {
            throw FormatFailure(offset: 0, message: "the formatted text would have other comments")
        }
        if Parser.parse(formatted).diagnostics.hasErrors {
            throw FormatFailure(offset: 0, message: "the formatted text would not parse")
        }
    }
}
