import StatecraftDiagnostics

/// Turns the bytes of a source file into tokens, one at a time.
///
/// Works on UTF-8 bytes with ASCII fast paths. Never fails: bad input becomes an
/// `invalid` token plus a diagnostic, and every call makes progress.
package struct Lexer {
    /// The file being read.
    package let file: SourceFile
    /// Lexical errors found so far.
    package internal(set) var diagnostics = DiagnosticBag()
    /// The comments passed so far, in source order, when the lexer was made with
    /// `recordingComments` (the formatter keeps them; the parser never sees them).
    package private(set) var comments: [SourceComment] = []
    private let recordsComments: Bool
    private let bytes: [UInt8]
    private var position = 0
    private var sawNewline = true
    /// For each string interpolation being read (`"a \(x + (y))…`), innermost last: how many
    /// parentheses are open inside it, and where its `\(` is. A `)` with none open ends the
    /// interpolation, and the string goes on.
    private var interpolations: [(depth: Int, start: Int)] = []
    /// How deeply interpolations may nest (`"\("\("…")")"`).
    static let maxInterpolationNesting = 8

    /// Creates a lexer at the start of `file`; with `recordingComments`, it also lists the
    /// comments it skips (`comments`), without changing the tokens it returns.
    package init(file: SourceFile, recordingComments: Bool = false) {
        self.file = file
        self.bytes = file.bytes
        self.recordsComments = recordingComments
    }

    /// Reads every token, ending with `endOfFile` (tests and tools).
    package static func tokenize(_ file: SourceFile) -> (tokens: [Token], diagnostics: DiagnosticBag) {
        let all = tokenizeWithComments(file)
        return (all.tokens, all.diagnostics)
    }

    /// Reads every token, ending with `endOfFile`, and every comment, both in source order.
    package static func tokenizeWithComments(_ file: SourceFile)
        -> (tokens: [Token], comments: [SourceComment], diagnostics: DiagnosticBag) {
        var lexer = Lexer(file: file, recordingComments: true)
        var tokens: [Token] = []
        while true {
            let token = lexer.next()
            tokens.append(token)
            if token.kind == .endOfFile { return (tokens, lexer.comments, lexer.diagnostics) }
        }
    }

    /// The next token; `endOfFile` forever once the input is used up.
    package mutating func next() -> Token {
        skipTrivia()
        if sawNewline, let open = interpolations.first {
            // Strings stay on one line, and so do the expressions inside them.
            report(.unterminatedString, "unterminated string interpolation; expected ')' and '\"' before end of line",
                   SourceRange(open.start, open.start + 2))
            interpolations.removeAll()
        }
        let startsLine = sawNewline
        sawNewline = false
        let start = position
        guard position < bytes.count else {
            return Token(kind: .endOfFile, range: .point(bytes.count), startsLine: true)
        }
        let kind = scanToken()
        return Token(kind: kind, range: SourceRange(start, position), startsLine: startsLine)
    }

    // MARK: - Trivia

    private mutating func skipTrivia() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C:
                position += 1
            case UInt8(ascii: "\n"):
                position += 1
                sawNewline = true
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                skipLineComment()
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                skipBlockComment()
            default:
                return
            }
        }
    }

    private mutating func skipLineComment() {
        let start = position
        while position < bytes.count && bytes[position] != UInt8(ascii: "\n") {
            skipScalarCheckingUTF8()
        }
        if recordsComments { comments.append(SourceComment(kind: .line, range: SourceRange(start, position))) }
    }

    /// Block comments nest, as in Swift, so a commented-out region may hold comments.
    private mutating func skipBlockComment() {
        let start = position
        position += 2
        var depth = 1
        while position < bytes.count {
            if bytes[position] == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/") {
                position += 2
                depth -= 1
                if depth == 0 {
                    if recordsComments { comments.append(SourceComment(kind: .block, range: SourceRange(start, position))) }
                    return
                }
            } else if bytes[position] == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "*") {
                position += 2
                depth += 1
            } else {
                if bytes[position] == UInt8(ascii: "\n") { sawNewline = true }
                skipScalarCheckingUTF8()
            }
        }
        report(.unterminatedComment, "unterminated block comment; expected '*/' before end of file",
               SourceRange(start, start + 2))
    }

    /// Steps over one scalar, reporting bytes that are not UTF-8 (once per line).
    private mutating func skipScalarCheckingUTF8() {
        if bytes[position] < 0x80 {
            position += 1
            return
        }
        let length = UTF8Scanner.sequenceLength(bytes, at: position, limit: bytes.count)
        if length == 1 {
            report(.invalidUTF8, "invalid UTF-8 byte 0x\(hex(bytes[position]))", SourceRange(position, position + 1))
        }
        position += length
    }

    // MARK: - Tokens

    private mutating func scanToken() -> TokenKind {
        let b = bytes[position]
        if isIdentifierStart(b) { return scanIdentifier() }
        if isDigit(b) { return scanNumber() }
        position += 1
        switch b {
        case UInt8(ascii: "\""): return scanString()
        case UInt8(ascii: "{"): return .lBrace
        case UInt8(ascii: "}"): return .rBrace
        case UInt8(ascii: "("):
            if !interpolations.isEmpty { interpolations[interpolations.count - 1].depth += 1 }
            return .lParen
        case UInt8(ascii: ")"):
            if let open = interpolations.last {
                if open.depth == 0 {
                    interpolations.removeLast()
                    return scanString(continuing: true)
                }
                interpolations[interpolations.count - 1].depth -= 1
            }
            return .rParen
        case UInt8(ascii: ","): return .comma
        case UInt8(ascii: ":"): return .colon
        case UInt8(ascii: ";"): return .semicolon
        case UInt8(ascii: "?"): return .question
        case UInt8(ascii: "%"): return .percent
        case UInt8(ascii: "+"): return match(UInt8(ascii: "="), .plusAssign, else: .plus)
        case UInt8(ascii: "*"): return match(UInt8(ascii: "="), .starAssign, else: .star)
        case UInt8(ascii: "/"): return match(UInt8(ascii: "="), .slashAssign, else: .slash)
        case UInt8(ascii: "="): return match(UInt8(ascii: "="), .equalEqual, else: .assign)
        case UInt8(ascii: "!"): return match(UInt8(ascii: "="), .bangEqual, else: .bang)
        case UInt8(ascii: "<"): return match(UInt8(ascii: "="), .lessEqual, else: .less)
        case UInt8(ascii: ">"): return match(UInt8(ascii: "="), .greaterEqual, else: .greater)
        case UInt8(ascii: "-"):
            if peek(0) == UInt8(ascii: ">") { position += 1; return .arrow }
            return match(UInt8(ascii: "="), .minusAssign, else: .minus)
        case UInt8(ascii: "&"):
            if peek(0) == UInt8(ascii: "&") { position += 1; return .ampAmp }
            return invalidCharacter(from: position - 1, hint: "; did you mean '&&'?")
        case UInt8(ascii: "|"):
            if peek(0) == UInt8(ascii: "|") { position += 1; return .pipePipe }
            return invalidCharacter(from: position - 1, hint: "; did you mean '||'?")
        default:
            return invalidCharacter(from: position - 1, hint: "")
        }
    }

    private mutating func match(_ next: UInt8, _ then: TokenKind, else other: TokenKind) -> TokenKind {
        if peek(0) == next {
            position += 1
            return then
        }
        return other
    }

    /// Reports the character at `start` and swallows the run of unusable bytes after it,
    /// so binary garbage yields one diagnostic per run rather than one per byte.
    private mutating func invalidCharacter(from start: Int, hint: String) -> TokenKind {
        position = start
        let length = UTF8Scanner.sequenceLength(bytes, at: start, limit: bytes.count)
        if bytes[start] >= 0x80 && length == 1 {
            report(.invalidUTF8, "invalid UTF-8 byte 0x\(hex(bytes[start]))", SourceRange(start, start + 1))
        } else if let scalar = UTF8Scanner.scalar(bytes, at: start, limit: bytes.count) {
            let shown = scalar.value < 0x20 || scalar.value == 0x7F
                ? "U+" + hex4(scalar.value) : "'\(Character(scalar))'"
            let extra = scalar.value >= 0x80 && hint.isEmpty ? "; identifiers are ASCII letters, digits and '_'" : hint
            report(.invalidCharacter, "unexpected character \(shown)\(extra)", SourceRange(start, start + length))
        }
        position += length
        while position < bytes.count && !startsToken(bytes[position]) {
            position += UTF8Scanner.sequenceLength(bytes, at: position, limit: bytes.count)
        }
        return .invalid
    }

    /// Whether `b` can begin a token or trivia (used to end a run of invalid bytes).
    private func startsToken(_ b: UInt8) -> Bool {
        if b >= 0x80 { return false }
        if isIdentifierStart(b) || isDigit(b) { return true }
        return b == UInt8(ascii: " ") || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\t")
            || "{}(),:;?%+-*/=!<>&|\"".utf8.contains(b)
    }

    private mutating func scanIdentifier() -> TokenKind {
        let start = position
        while position < bytes.count && (isIdentifierStart(bytes[position]) || isDigit(bytes[position])) {
            position += 1
        }
        // Keywords are short: only build a string for short identifiers.
        if position - start <= 8, let keyword = TokenKind.keywords[String(decoding: bytes[start..<position], as: UTF8.self)] {
            return keyword
        }
        return .identifier
    }

    /// number = digits [ "." digits ] [ ( "e" | "E" ) [ "+" | "-" ] digits ] [ "s" | "ms" ]
    private mutating func scanNumber() -> TokenKind {
        let start = position
        skipDigits()
        if peek(0) == UInt8(ascii: "."), let after = peek(1), isDigit(after) {
            position += 1
            skipDigits()
        } else if peek(0) == UInt8(ascii: "."), !(peek(1).map(isIdentifierStart) ?? false) {
            position += 1
            report(.invalidNumber, "expected digits after '.' in number", SourceRange(start, position))
            return .invalid
        }
        if let e = peek(0), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            var look = 1
            if let sign = peek(1), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { look = 2 }
            if let d = peek(look), isDigit(d) {
                position += look
                skipDigits()
            }
        }
        let unitStart = position
        while position < bytes.count && (isIdentifierStart(bytes[position]) || isDigit(bytes[position])) {
            position += 1
        }
        let unit = bytes[unitStart..<position]
        if !unit.isEmpty && !unit.elementsEqual("s".utf8) && !unit.elementsEqual("ms".utf8) {
            let shown = String(decoding: unit.prefix(40), as: UTF8.self)
            report(.invalidNumber, "unknown unit '\(shown)' after number; expected 's' or 'ms'",
                   SourceRange(unitStart, position))
            return .invalid
        }
        if Lexer.numberValue(bytes[start..<position]) == nil {
            report(.invalidNumber, "number is too large", SourceRange(start, position))
            return .invalid
        }
        return .number
    }

    private mutating func skipDigits() {
        while position < bytes.count && isDigit(bytes[position]) { position += 1 }
    }

    /// Strings stay on one line; escapes are checked here and decoded by `stringValue`.
    ///
    /// An interpolation `\(` ends the token (`stringHead`, or `stringMiddle` when
    /// `continuing` after one); the expression inside comes as ordinary tokens, and the `)`
    /// that closes it resumes the string, up to the next `\(` or the closing quote
    /// (`stringTail`), as Swift's lexer does.
    private mutating func scanString(continuing: Bool = false) -> TokenKind {
        let start = position - 1
        var ok = true
        while position < bytes.count {
            let b = bytes[position]
            if b == UInt8(ascii: "\"") {
                position += 1
                return ok ? (continuing ? .stringTail : .string) : .invalid
            }
            if b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") { break }
            if b == UInt8(ascii: "\\") && peek(1) == UInt8(ascii: "(") {
                guard interpolations.count < Lexer.maxInterpolationNesting else {
                    report(.nestingTooDeep, "string interpolations nest too deeply; at most \(Lexer.maxInterpolationNesting) levels are allowed",
                           SourceRange(position, position + 2))
                    ok = false
                    position += 2
                    continue
                }
                interpolations.append((depth: 0, start: position))
                position += 2
                return ok ? (continuing ? .stringMiddle : .stringHead) : .invalid
            }
            if b == UInt8(ascii: "\\") {
                if !scanEscape() { ok = false }
                continue
            }
            if b >= 0x80 && UTF8Scanner.sequenceLength(bytes, at: position, limit: bytes.count) == 1 {
                report(.invalidUTF8, "invalid UTF-8 byte 0x\(hex(b)) in string", SourceRange(position, position + 1))
                ok = false
            }
            position += b < 0x80 ? 1 : UTF8Scanner.sequenceLength(bytes, at: position, limit: bytes.count)
        }
        report(.unterminatedString, "unterminated string; expected '\"' before end of line", SourceRange(start, start + 1))
        return .invalid
    }

    private mutating func scanEscape() -> Bool {
        let start = position
        position += 1
        guard let c = peek(0) else { return false }
        position += 1
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "n"), UInt8(ascii: "r"),
             UInt8(ascii: "t"), UInt8(ascii: "0"):
            return true
        case UInt8(ascii: "u"):
            guard peek(0) == UInt8(ascii: "{") else { break }
            position += 1
            var value: UInt32 = 0
            var digits = 0
            while let d = peek(0), let v = hexValue(d), digits < 8 {
                value = value &* 16 &+ UInt32(v)
                digits += 1
                position += 1
            }
            guard peek(0) == UInt8(ascii: "}"), digits > 0 else { break }
            position += 1
            if digits <= 6, Unicode.Scalar(value) != nil { return true }
            report(.invalidEscape, "'\\u{...}' is not a valid Unicode scalar", SourceRange(start, position))
            return false
        default:
            if c >= 0x80 { position = start + 1 }
        }
        report(.invalidEscape, "invalid escape sequence in string; expected one of \\\" \\\\ \\n \\r \\t \\0 \\u{...}",
               SourceRange(start, position))
        return false
    }

    // MARK: - Literal values

    /// The value of a number token's text, with its unit applied; nil if not finite.
    package static func numberValue(_ text: ArraySlice<UInt8>) -> Double? {
        var digits = text
        var scale = 1.0
        if digits.last == UInt8(ascii: "s") {
            digits = digits.dropLast()
            if digits.last == UInt8(ascii: "m") {
                digits = digits.dropLast()
                scale = 0.001
            }
        }
        // Fast path: a short run of digits needs no string.
        if digits.count <= 15 {
            var value = 0
            var index = digits.startIndex
            while index < digits.endIndex {
                let d = digits[index]
                guard d >= UInt8(ascii: "0") && d <= UInt8(ascii: "9") else { break }
                value = value * 10 + Int(d &- UInt8(ascii: "0"))
                index += 1
            }
            if index == digits.endIndex { return Double(value) * scale }
        }
        guard let value = Double(String(decoding: digits, as: UTF8.self)), value.isFinite else { return nil }
        return value * scale
    }

    /// The decoded text of a piece of a string token: `"abc"`, `"abc\(`, `)abc\(` or
    /// `)abc"`, without the delimiters, escapes applied.
    package static func stringValue(_ text: ArraySlice<UInt8>, kind: TokenKind) -> String {
        // `stringValue` drops one byte at each end; a piece before `\(` has one more.
        return stringValue(kind == .stringHead || kind == .stringMiddle ? text.dropLast() : text)
    }

    /// The decoded contents of a string token (quotes removed, escapes applied).
    package static func stringValue(_ text: ArraySlice<UInt8>) -> String {
        var out = String.UnicodeScalarView()
        let bytes = Array(text.dropFirst().dropLast())
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\\") && i + 1 < bytes.count {
                let c = bytes[i + 1]
                i += 2
                switch c {
                case UInt8(ascii: "n"): out.append("\n")
                case UInt8(ascii: "r"): out.append("\r")
                case UInt8(ascii: "t"): out.append("\t")
                case UInt8(ascii: "0"): out.append("\0")
                case UInt8(ascii: "u"):
                    var value: UInt32 = 0
                    i += 1
                    while i < bytes.count && bytes[i] != UInt8(ascii: "}") {
                        value = value &* 16 &+ UInt32(hexDigit(bytes[i]) ?? 0)
                        i += 1
                    }
                    i += 1
                    out.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                default: out.append(Unicode.Scalar(c))
                }
                continue
            }
            let length = UTF8Scanner.sequenceLength(bytes, at: i, limit: bytes.count)
            out.append(UTF8Scanner.scalar(bytes, at: i, limit: bytes.count) ?? "\u{FFFD}")
            i += length
        }
        return String(out)
    }

    // MARK: - Helpers

    private func peek(_ ahead: Int) -> UInt8? {
        let i = position + ahead
        return i < bytes.count ? bytes[i] : nil
    }

    private mutating func report(_ id: DiagnosticID, _ message: String, _ range: SourceRange) {
        diagnostics.addSyntaxError(Diagnostic(id, message, at: range), in: file)
    }

    private func isIdentifierStart(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || b == UInt8(ascii: "_")
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private func hexValue(_ b: UInt8) -> UInt8? { Lexer.hexDigit(b) }

    private static func hexDigit(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private func hex(_ b: UInt8) -> String {
        let s = String(b, radix: 16, uppercase: true)
        return s.count == 1 ? "0" + s : s
    }

    private func hex4(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
