import StatecraftDiagnostics

extension Parser {
    static let actionStarts: Set<TokenKind> = [.identifier, .kwEmit, .kwLet, .kwIf]

    /// `block = "{" { action } "}"`
    mutating func parseBlock() -> BlockSyntax? {
        let start = token.range.start
        guard token.kind == .lBrace else {
            error(expected: "'{'")
            return nil
        }
        nesting += 1
        defer { nesting -= 1 }
        if nesting > Parser.maxNesting {
            reportTooDeep(token.range)
            skipGroup()
            return BlockSyntax(actions: [], range: SourceRange(start, previousEnd))
        }
        let opening = token.range
        advance()
        var actions: [ActionSyntax] = []
        while token.kind != .rBrace && token.kind != .endOfFile {
            let before = token.range.start
            if let action = parseAction() { actions.append(action) }
            if token.range.start == before && token.kind != .endOfFile && token.kind != .rBrace { advance() }
        }
        expectClosingBrace("'}' at the end of the block", opening: opening)
        return BlockSyntax(actions: actions, range: SourceRange(start, previousEnd))
    }

    /// `action = assignment | emit | raise | send | cancel | let | if`
    /// `raise = "raise" IDENT [ "(" [ expr { "," expr } ] ")" ]`
    /// `send = "send" ( IDENT [ "(" [ expr { "," expr } ] ")" ] | STRING ) [ "after" expr ]`
    /// `cancel = "cancel" IDENT`
    ///
    /// `raise`, `send` and `cancel` are keywords only when an event name follows them on
    /// the same line, so a variable may still be called `raise` (`raise = 1`). A reserved
    /// word there counts as a name, to be reported as one (`raise after`). `send` followed by
    /// a string literal on the same line sends the event that string names when it runs.
    mutating func parseAction() -> ActionSyntax? {
        let start = token.range.start
        switch token.kind {
        case .identifier where isWord(token, "send") && stringFollows():
            advance()
            let name = parsePrimary()
            var delay: ExprSyntax?
            if token.kind == .kwAfter && !token.startsLine {
                advance()
                delay = parseExpr()
            }
            return .sendNamed(name: name, delay: delay, range: SourceRange(start, previousEnd))
        case .identifier where isWord(token, "raise") && eventNameFollows():
            advance()
            guard let event = expectIdentifier("event name after 'raise'") else { return recoverAction() }
            var arguments: [ExprSyntax] = []
            if token.kind == .lParen && !token.startsLine {
                guard let args = parseArguments() else { return recoverAction() }
                arguments = args
            }
            return .raise(event: event, arguments: arguments, range: SourceRange(start, previousEnd))
        case .identifier where isWord(token, "send") && eventNameFollows():
            advance()
            guard let event = expectIdentifier("event name after 'send'") else { return recoverAction() }
            var arguments: [ExprSyntax] = []
            if token.kind == .lParen && !token.startsLine {
                guard let args = parseArguments() else { return recoverAction() }
                arguments = args
            }
            var delay: ExprSyntax?
            if token.kind == .kwAfter && !token.startsLine {
                advance()
                delay = parseExpr()
            }
            return .send(event: event, arguments: arguments, delay: delay, range: SourceRange(start, previousEnd))
        case .identifier where isWord(token, "cancel") && eventNameFollows():
            advance()
            guard let event = expectIdentifier("event name after 'cancel'") else { return recoverAction() }
            return .cancel(event: event, range: SourceRange(start, previousEnd))
        case .identifier:
            let target = Identifier(text(token), token.range)
            advance()
            let op: AssignOperator
            switch token.kind {
            case .assign: op = .assign
            case .plusAssign: op = .add
            case .minusAssign: op = .subtract
            case .starAssign: op = .multiply
            case .slashAssign: op = .divide
            default:
                error(expected: "'=' after '\(target.name.prefix(40))'")
                return recoverAction()
            }
            advance()
            let value = parseExpr()
            return .assign(target: target, op: op, value: value, range: SourceRange(start, previousEnd))
        case .kwEmit:
            advance()
            guard let output = expectIdentifier("output name after 'emit'") else { return recoverAction() }
            var arguments: [ExprSyntax] = []
            if token.kind == .lParen && !token.startsLine {
                guard let args = parseArguments() else { return recoverAction() }
                arguments = args
            }
            return .emit(output: output, arguments: arguments, range: SourceRange(start, previousEnd))
        case .kwLet:
            advance()
            guard let name = expectIdentifier("name after 'let'"),
                  expect(.assign, "'=' and the value") != nil else { return recoverAction() }
            let value = parseExpr()
            return .letValue(name: name, value: value, range: SourceRange(start, previousEnd))
        case .kwIf:
            return parseIf()
        case .semicolon:
            advance()
            return nil
        default:
            error(expected: "an action (an assignment, 'emit', 'raise', 'send', 'cancel', 'let' or 'if')", atToken: true)
            advance()
            return recoverAction()
        }
    }

    /// `if = "if" expr block [ "else" ( block | if ) ]`
    mutating func parseIf() -> ActionSyntax? {
        let start = token.range.start
        advance()
        let condition = parseExpr()
        guard let then = parseBlock() else { return recoverAction() }
        var otherwise: BlockSyntax?
        if consume(.kwElse) {
            if token.kind == .kwIf {
                let nestedStart = token.range.start
                nesting += 1
                defer { nesting -= 1 }
                if nesting > Parser.maxNesting {
                    reportTooDeep(token.range)
                    return recoverAction()
                }
                guard let nested = parseIf() else { return nil }
                otherwise = BlockSyntax(actions: [nested], range: SourceRange(nestedStart, previousEnd))
            } else {
                guard let block = parseBlock() else { return recoverAction() }
                otherwise = block
            }
        }
        return .ifAction(condition: condition, then: then, otherwise: otherwise, range: SourceRange(start, previousEnd))
    }

    private mutating func recoverAction() -> ActionSyntax? {
        synchronize(to: Parser.actionStarts)
        return nil
    }

    /// `"(" [ expr { "," expr } ] ")"`; nil after a reported error.
    mutating func parseArguments() -> [ExprSyntax]? {
        advance()
        var arguments: [ExprSyntax] = []
        while token.kind != .rParen && token.kind != .endOfFile {
            arguments.append(parseExpr())
            if !consume(.comma) { break }
        }
        guard expect(.rParen, "',' or ')' in the argument list") != nil else { return nil }
        return arguments
    }

    /// Whether a string literal (plain or interpolated) follows on the same line.
    private mutating func stringFollows() -> Bool {
        let next = peek()
        return (next.kind == .string || next.kind == .stringHead) && !next.startsLine
    }

    /// Whether the next token, on the same line, stands where an event name would: a name,
    /// or a reserved word written as one.
    private mutating func eventNameFollows() -> Bool {
        let next = peek()
        return (next.kind == .identifier || next.kind.isReservedWord) && !next.startsLine
    }
}
