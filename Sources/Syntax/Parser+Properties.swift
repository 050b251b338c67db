import StatecraftDiagnostics

extension Parser {
    /// The words of a property's forms, for "did you mean" on a misspelt one.
    static let propertyFormWords = ["never", "always", "after"]

    /// `property = "property" IDENT ":" propertyForm`
    ///
    /// A property ends its line: what follows it on the same line is an error.
    mutating func parseProperty() -> PropertyDecl? {
        let keyword = token.range
        advance()
        guard let name = expectIdentifier("property name") else { return recoverProperty() }
        guard expect(.colon, "':' after the property name") != nil else { return recoverProperty() }
        guard let form = parsePropertyForm() else { return recoverProperty() }
        let property = PropertyDecl(keywordRange: keyword, name: name, form: form, range: SourceRange(keyword.start, previousEnd))
        if !(token.startsLine || [.rBrace, .semicolon, .endOfFile].contains(token.kind)) {
            error(expected: "a new line after the property", atToken: true)
            synchronize(to: Parser.memberStarts)
        }
        return property
    }

    /// `propertyForm = ( "never" | "always" ) expr [ "while" expr ]
    ///               | "after" ( IDENT | "entering" IDENT ) "within" expr ":" expr
    ///               | expr "only" "after" expr
    ///               | "always" "reachable" expr`
    ///
    /// The words are contextual, so which form this is follows from neighbours:
    /// - `never` and `always` are the keywords when an expression other than `only after`
    ///   starts right after them on the same line (`never in(a)`); otherwise (`never only
    ///   after x`, `always && y only after x`) they are names that begin the `X` of `X only
    ///   after Y` (parentheses make any name a name: `(never) only after x`);
    /// - after the keyword `always`, `reachable` is the keyword when an expression other
    ///   than the word `while` starts right after it on the same line (`always reachable
    ///   in(home)`); otherwise (`always reachable`, `always reachable == ready`, `always
    ///   reachable while in(a)`) it is a name, the condition of `always X`;
    /// - `entering` after `after` is the keyword when a name follows it (`after entering
    ///   paying`), except `within` not followed by another `within`: `after entering within
    ///   10s` names an event called `entering`.
    mutating func parsePropertyForm() -> PropertyFormSyntax? {
        let next = peek()
        if (isWord(token, "never") || isWord(token, "always")) && startsPropertyExpression(next) {
            let keyword = PropertyKeyword(text(token), token.range)
            advance()
            if isWord(token, "only") && peek().kind == .kwAfter && !peek().startsLine {
                return parsePrecedence(ExprSyntax(.name(keyword.word), keyword.range))
            }
            if keyword.word == "always" && isWord(token, "reachable") {
                let after = peek()
                if startsPropertyExpression(after) && !isWord(after, "while") {
                    let reachable = PropertyKeyword("reachable", token.range)
                    advance()
                    return .reachable(always: keyword, reachable: reachable, parseExpr())
                }
            }
            let condition = parseExpr()
            guard isWord(token, "while") && !token.startsLine else {
                return .invariant(isAlways: keyword.word == "always", keyword: keyword, condition: condition,
                                  whileKeyword: nil, guardExpr: nil)
            }
            let whileKeyword = PropertyKeyword("while", token.range)
            advance()
            return .invariant(isAlways: keyword.word == "always", keyword: keyword, condition: condition,
                              whileKeyword: whileKeyword, guardExpr: parseExpr())
        }
        if token.kind == .kwAfter { return parseResponse() }
        guard startsPropertyExpression(token, sameLine: false) else {
            error(expected: "a property: 'never', 'always', 'after', or an expression and 'only after'")
            return nil
        }
        // A name followed by another operand is no expression: most likely a form's word
        // misspelt or made up (`eventually in(done)`).
        if token.kind == .identifier && !next.startsLine
            && [.identifier, .number, .string, .stringHead, .kwTrue, .kwFalse, .bang].contains(next.kind) {
            let word = text(token)
            let notes = EditDistance.closest(to: word, among: Parser.propertyFormWords, limit: 2)
                .map { [DiagnosticNote("did you mean '\($0)'?", at: token.range)] } ?? []
            syntaxError("unknown property form '\(word.prefix(40))'; expected 'never', 'always', 'after', "
                + "or an expression and 'only after'", at: token.range, notes: notes)
            return nil
        }
        return parsePrecedence(parseExpr())
    }

    /// `expr "only" "after" expr`, from `only` on (`x` is read).
    private mutating func parsePrecedence(_ x: ExprSyntax) -> PropertyFormSyntax? {
        guard isWord(token, "only") && !token.startsLine else {
            error(expected: "'only after' after the property's expression (or 'never' or 'always' before it)")
            return nil
        }
        let only = PropertyKeyword("only", token.range)
        advance()
        guard token.kind == .kwAfter else {
            error(expected: "'after' after 'only'")
            return nil
        }
        let after = PropertyKeyword("after", token.range)
        advance()
        return .precedence(x, only: only, after: after, parseExpr())
    }

    /// `"after" ( IDENT | "entering" IDENT ) "within" expr ":" expr`
    private mutating func parseResponse() -> PropertyFormSyntax? {
        let after = PropertyKeyword("after", token.range)
        advance()
        var entering: PropertyKeyword?
        var trigger: Identifier?
        if isWord(token, "entering") && peek().kind == .identifier && !peek().startsLine {
            let enteringToken = token
            if isWord(peek(), "within") {
                advance()
                // `after entering within within 10s`: state `within`; `after entering within
                // 10s`: event `entering`.
                if isWord(peek(), "within") && !peek().startsLine {
                    entering = PropertyKeyword("entering", enteringToken.range)
                } else {
                    trigger = Identifier("entering", enteringToken.range)
                }
            } else {
                entering = PropertyKeyword("entering", token.range)
                advance()
            }
        }
        if trigger == nil {
            guard let name = expectIdentifier(entering == nil ? "event name or 'entering' after 'after'"
                                              : "state name after 'entering'") else { return nil }
            trigger = name
        }
        guard let trigger else { return nil }
        guard isWord(token, "within") && !token.startsLine else {
            error(expected: "'within' and a deadline after '\(trigger.name.prefix(40))'")
            return nil
        }
        let within = PropertyKeyword("within", token.range)
        advance()
        guard token.kind != .colon && !token.startsLine else {
            error(expected: "a deadline after 'within' (such as '10s')", atToken: token.kind == .colon)
            return nil
        }
        let deadline = parseExpr()
        guard expect(.colon, "':' after the deadline") != nil else { return nil }
        return .response(after: after, entering: entering, trigger: trigger, within: within, deadline: deadline,
                         response: parseExpr())
    }

    /// Whether `t` starts an operand (a name, a literal, `!` or `(`) that cannot continue one
    /// before it: what tells a form's word from a name. With `sameLine`, `t` must also be on
    /// the same line as the token before it.
    func startsPropertyExpression(_ t: Token, sameLine: Bool = true) -> Bool {
        if sameLine && t.startsLine { return false }
        return [.identifier, .number, .string, .stringHead, .kwTrue, .kwFalse, .bang, .lParen].contains(t.kind)
            || (!sameLine && t.kind == .minus)
    }

    private mutating func recoverProperty<T>() -> T? {
        synchronize(to: Parser.memberStarts)
        return nil
    }
}
