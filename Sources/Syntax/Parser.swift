import StatecraftDiagnostics

/// A recursive-descent parser that recovers from errors.
///
/// Errors are collected, never thrown: after an error the parser skips to the start of the
/// next construct (panic mode) and goes on, so one run reports several problems. Every loop
/// consumes a token or stops, and nesting is bounded, so no input can hang it or overflow
/// the stack.
package struct Parser {
    /// How deeply blocks, states and parenthesised expressions may nest.
    package static let maxNesting = 64
    /// How deep an expression tree may grow (long operator chains count).
    package static let maxExpressionDepth = 256

    var lexer: Lexer
    var token: Token
    var lookahead: Token?
    var previousEnd = 0
    var nesting = 0
    var reportedTooDeep = false
    /// Syntax errors of the parser itself (the lexer keeps its own until the end).
    var diagnostics = DiagnosticBag()
    let file: SourceFile

    /// Creates a parser at the start of `file`.
    package init(file: SourceFile) {
        self.file = file
        self.lexer = Lexer(file: file)
        self.token = lexer.next()
    }

    /// Parses a whole file. The machine is nil only when the file holds no `machine` at all.
    package static func parse(_ file: SourceFile) -> (machine: MachineDecl?, diagnostics: DiagnosticBag) {
        var parser = Parser(file: file)
        let machine = parser.parseFile()
        // Lexer and parser errors in source order, still at most one per line.
        var all = DiagnosticBag()
        let merged = (parser.lexer.diagnostics.diagnostics + parser.diagnostics.diagnostics)
            .sorted { $0.range.start < $1.range.start }
        for d in merged { all.addSyntaxError(d, in: file) }
        // The lexer's and the parser's bags stop at the same limit; what they dropped is
        // dropped here too, so the file still gets its "too many errors" note.
        let dropped = [parser.lexer.diagnostics.firstDropped, parser.diagnostics.firstDropped].compactMap { $0 }
        if let first = dropped.min(by: { $0.start < $1.start }) { all.noteDropped(at: first) }
        return (machine, all)
    }

    // MARK: - Token handling

    /// Whether `t` is the identifier `word`. Contextual keywords (`done`, `always`, `raise`,
    /// `send`, `cancel`, `history`, `deep`, `in`, `internal`) are identifiers to the lexer; the parser decides
    /// from their neighbours whether they are keywords where they stand.
    func isWord(_ t: Token, _ word: String) -> Bool {
        guard t.kind == .identifier, t.range.end - t.range.start == word.utf8.count else { return false }
        return file.bytes[t.range.start..<t.range.end].elementsEqual(word.utf8)
    }

    /// What a construct that starts with a contextual word is.
    enum ContextualStart { case transition, state }

    /// Whether the current identifier starts a transition or a state as a contextual keyword:
    /// `done` followed by `->`, `if`, `(`, `{`, a name or the end of the line; `always`
    /// followed by `->`, `if`, `{`, a name or the end of the line; `internal` before a
    /// trigger; `history state`; `deep history`. Anywhere else these words are plain names.
    mutating func contextualStart() -> ContextualStart? {
        guard token.kind == .identifier else { return nil }
        let next = peek()
        let endsHere = next.startsLine || [.arrow, .kwIf, .lBrace, .semicolon, .rBrace, .endOfFile].contains(next.kind)
        // `done x` and `always x` are no valid member either way; reading them as
        // transitions gives the better message ("expected '->' before the target state").
        let misspeltTarget = next.kind == .identifier && !next.startsLine
        if isWord(token, "done") {
            return endsHere || next.kind == .lParen || misspeltTarget ? .transition : nil
        }
        if isWord(token, "always") { return endsHere || misspeltTarget ? .transition : nil }
        if isWord(token, "internal") {
            let trigger = next.kind == .kwOn || next.kind == .kwAfter || isWord(next, "done") || isWord(next, "always")
            return trigger && !next.startsLine ? .transition : nil
        }
        if isWord(token, "history") { return next.kind == .kwState ? .state : nil }
        if isWord(token, "deep") { return isWord(next, "history") ? .state : nil }
        return nil
    }

    /// Moves to the next token.
    mutating func advance() {
        previousEnd = token.range.end
        if let next = lookahead {
            token = next
            lookahead = nil
        } else {
            token = lexer.next()
        }
    }

    /// The token after the current one.
    mutating func peek() -> Token {
        if let next = lookahead { return next }
        let next = lexer.next()
        lookahead = next
        return next
    }

    /// The source text of a token.
    func text(_ t: Token) -> String {
        String(decoding: file.bytes[t.range.start..<t.range.end], as: UTF8.self)
    }

    /// Consumes a token of `kind` or reports what was expected.
    mutating func consume(_ kind: TokenKind) -> Bool {
        guard token.kind == kind else { return false }
        advance()
        return true
    }

    /// Consumes a token of `kind`, or reports "expected …, found …" and returns nil.
    @discardableResult
    mutating func expect(_ kind: TokenKind, _ what: String? = nil) -> Token? {
        if token.kind == kind {
            let t = token
            advance()
            return t
        }
        error(expected: what ?? kind.spelling)
        return nil
    }

    /// Consumes an identifier or reports what was expected; a reserved word where a name
    /// belongs is called one, since it looks like a name to whoever wrote it.
    mutating func expectIdentifier(_ what: String) -> Identifier? {
        guard token.kind == .identifier else {
            error(expected: what, nameExpected: true)
            return nil
        }
        let id = Identifier(text(token), token.range)
        advance()
        return id
    }

    /// How the current token is described after "found".
    var foundDescription: String {
        switch token.kind {
        case .identifier: return "identifier '\(text(token).prefix(40))'"
        case .number: return "number \(text(token).prefix(40))"
        default: return token.kind.spelling
        }
    }

    /// Reports "expected X, found Y". When something is missing and the current token
    /// starts a new line, the error points just past the previous token, where the missing
    /// piece belongs; when the current token itself is out of place (`atToken`), at it.
    ///
    /// With `nameExpected`, a reserved word on the same line is said to be one ("found
    /// 'after', which is a reserved word"); at the start of a line it more likely begins the
    /// next construct after a missing name, and is described as usual.
    mutating func error(expected what: String, atToken: Bool = false, nameExpected: Bool = false,
                        notes: [DiagnosticNote] = []) {
        guard token.kind != .invalid else { return }  // the lexer already reported it
        // After an unterminated comment the end of file is no surprise: say nothing more.
        if token.kind == .endOfFile && lexer.diagnostics.diagnostics.contains(where: { $0.id == .unterminatedComment }) {
            return
        }
        let reserved = nameExpected && token.kind.isReservedWord && !token.startsLine
        let found = reserved ? "\(token.kind.spelling), which is a reserved word" : foundDescription
        let at: SourceRange = !atToken && token.startsLine && previousEnd > 0 && token.kind != .endOfFile
            ? .point(previousEnd) : token.range
        diagnostics.addSyntaxError(
            Diagnostic(.expectedToken, "expected \(what), found \(found)", at: at, notes: notes), in: file)
    }

    /// Reports a syntax error in words of its own: a common mistake (a Swift habit, a
    /// misspelt keyword) deserves a message that names it, not just what was expected.
    mutating func syntaxError(_ message: String, at range: SourceRange, notes: [DiagnosticNote] = []) {
        guard token.kind != .invalid else { return }
        diagnostics.addSyntaxError(Diagnostic(.expectedToken, message, at: range, notes: notes), in: file)
    }

    /// Consumes the `}` that closes a group opened at `opening`. When the file ends first,
    /// the error at the end of the file gets a note at the `{` that was never closed.
    mutating func expectClosingBrace(_ what: String, opening: SourceRange) {
        if consume(.rBrace) { return }
        let notes = token.kind == .endOfFile ? [DiagnosticNote("the '{' opened here is never closed", at: opening)] : []
        error(expected: what, notes: notes)
    }

    /// The keywords that start a member or a state member, for "did you mean" on a misspelling
    /// (contextual words included).
    static let memberKeywords = ["const", "var", "public", "event", "output", "state", "initial", "final", "parallel",
                                 "entry", "exit", "on", "after", "done", "always", "history", "internal", "property"]

    /// "did you mean 'initial'?" when the current token is an identifier a keyword's
    /// misspelling (`inital`, `evnet`).
    func keywordSuggestion() -> [DiagnosticNote] {
        guard token.kind == .identifier else { return [] }
        let word = text(token)
        guard word.count >= 3, let keyword = EditDistance.closest(to: word, among: Parser.memberKeywords, limit: 2) else {
            return []
        }
        return [DiagnosticNote("did you mean '\(keyword)'?", at: token.range)]
    }

    /// Which limit was passed: `maxNesting` (blocks, states, parentheses and the nested
    /// expressions the grammar recurses into) or `maxExpressionDepth` (the tree an
    /// expression builds, where every operator of a flat chain such as `a + b + c` is one
    /// more level, since the tree is walked recursively by every later stage).
    enum DepthLimit { case nesting, expressionTree }

    /// Reports nesting past the limit, once per file, naming the limit that was passed.
    mutating func reportTooDeep(_ range: SourceRange, _ limit: DepthLimit = .nesting) {
        guard !reportedTooDeep else { return }
        reportedTooDeep = true
        let message = switch limit {
        case .nesting: "nesting is too deep; at most \(Parser.maxNesting) levels are allowed"
        case .expressionTree:
            "expression is too deep; its tree may have at most \(Parser.maxExpressionDepth) levels, and every operator "
                + "of a chain such as 'a + b + c' adds one; split it into smaller expressions"
        }
        diagnostics.addSyntaxError(Diagnostic(.nestingTooDeep, message, at: range), in: file)
    }

    /// Skips tokens until one of `stops` starts a line (or follows a `;`), or a closing
    /// brace or parenthesis that belongs to an enclosing construct. Brace and parenthesis
    /// groups in between are skipped whole.
    ///
    /// The contextual words that start a state member (`done`, `always`, `internal`, `history`,
    /// `deep`) stop it too where `on` (or, for `history` and `deep`, `state`) would.
    mutating func synchronize(to stops: Set<TokenKind>) {
        var depth = 0
        var afterSemicolon = false
        while token.kind != .endOfFile {
            if depth == 0 && (token.startsLine || afterSemicolon) {
                if stops.contains(token.kind) { return }
                // `property` starts a member wherever members are the stops.
                if stops.contains(.kwConst) && isWord(token, "property") { return }
                if token.kind == .identifier, let start = contextualStart(),
                   stops.contains(start == .state ? .kwState : .kwOn) { return }
            }
            switch token.kind {
            case .lBrace, .lParen: depth += 1
            case .rBrace, .rParen:
                if depth == 0 { return }
                depth -= 1
            default: break
            }
            afterSemicolon = token.kind == .semicolon
            advance()
        }
    }
}
