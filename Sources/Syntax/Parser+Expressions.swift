import StatecraftDiagnostics

extension Parser {
    /// `expr = conditional`
    ///
    /// Every recursion into a sub-expression passes through here, so this is where nesting
    /// is bounded: past the limit the rest of the group is skipped iteratively.
    mutating func parseExpr() -> ExprSyntax {
        nesting += 1
        defer { nesting -= 1 }
        if nesting > Parser.maxNesting {
            let start = token.range.start
            reportTooDeep(token.range)
            skipExpressionRest()
            return ExprSyntax(.bad, SourceRange(start, previousEnd))
        }
        return parseConditional()
    }

    /// `conditional = or [ "?" expr ":" conditional ]`
    mutating func parseConditional() -> ExprSyntax {
        let condition = parseBinary(minimumPrecedence: 0)
        guard token.kind == .question else { return condition }
        advance()
        let then = parseExpr()
        guard expect(.colon, "':' in the conditional expression") != nil else {
            return ExprSyntax(.bad, SourceRange(condition.range.start, previousEnd))
        }
        let otherwise = parseExpr()
        return bounded(ExprSyntax(.conditional(condition, then, otherwise),
                                  SourceRange(condition.range.start, otherwise.range.end)))
    }

    /// The binary levels `or` … `multiplicative`, by precedence climbing; every level is
    /// left-associative, so operands at one level are gathered in a loop.
    mutating func parseBinary(minimumPrecedence: Int) -> ExprSyntax {
        var left = parseUnary()
        while let op = binaryOperator(token.kind), op.precedence >= minimumPrecedence {
            advance()
            let right = parseBinary(minimumPrecedence: op.precedence + 1)
            left = bounded(ExprSyntax(.binary(op, left, right), SourceRange(left.range.start, right.range.end)))
            if case .bad = left.kind, reportedTooDeep {
                // Past the depth limit: skip the rest of the chain instead of building it.
                skipExpressionRest()
                return ExprSyntax(.bad, SourceRange(left.range.start, previousEnd))
            }
        }
        return left
    }

    /// `unary = ( "!" | "-" ) unary | primary`, read with a loop so a long run of
    /// prefix operators cannot exhaust the stack.
    mutating func parseUnary() -> ExprSyntax {
        var operators: [(UnaryOperator, Int)] = []
        while token.kind == .bang || token.kind == .minus {
            operators.append((token.kind == .bang ? .not : .negate, token.range.start))
            advance()
        }
        var expr = parsePrimary()
        if operators.count >= Parser.maxExpressionDepth, let first = operators.first {
            let range = SourceRange(first.1, expr.range.end)
            reportTooDeep(range, .expressionTree)
            return ExprSyntax(.bad, range)
        }
        for (op, start) in operators.reversed() {
            expr = bounded(ExprSyntax(.unary(op, expr), SourceRange(start, expr.range.end)))
        }
        return expr
    }

    /// `primary = NUMBER | STRING | "true" | "false" | IDENT | call | "(" expr ")"`
    /// `call = IDENT "(" [ expr { "," expr } ] ")"`
    mutating func parsePrimary() -> ExprSyntax {
        let t = token
        switch t.kind {
        case .number:
            advance()
            let value = Lexer.numberValue(file.bytes[t.range.start..<t.range.end]) ?? .nan
            return ExprSyntax(.number(value), t.range)
        case .string:
            advance()
            return ExprSyntax(.string(Lexer.stringValue(file.bytes[t.range.start..<t.range.end])), t.range)
        case .stringHead:
            return parseInterpolation()
        case .kwTrue, .kwFalse:
            advance()
            return ExprSyntax(.bool(t.kind == .kwTrue), t.range)
        case .identifier:
            advance()
            let name = Identifier(text(t), t.range)
            guard token.kind == .lParen && !token.startsLine else { return ExprSyntax(.name(name.name), t.range) }
            guard let arguments = parseArguments() else { return ExprSyntax(.bad, SourceRange(t.range.start, previousEnd)) }
            return ExprSyntax(.call(name, arguments), SourceRange(t.range.start, previousEnd))
        case .lParen:
            advance()
            let inner = parseExpr()
            guard expect(.rParen, "')'") != nil else { return ExprSyntax(.bad, SourceRange(t.range.start, previousEnd)) }
            return ExprSyntax(.paren(inner), SourceRange(t.range.start, previousEnd))
        case .invalid:
            advance()
            return ExprSyntax(.bad, t.range)
        default:
            // A reserved word here is most often meant as a name (`if state == 1`).
            error(expected: "an expression", nameExpected: true)
            // Leave structural tokens for the caller's recovery; swallow anything else.
            if ![.rBrace, .lBrace, .rParen, .endOfFile, .arrow].contains(t.kind) && !isKeyword(t.kind) {
                advance()
            }
            return ExprSyntax(.bad, SourceRange.point(t.range.start))
        }
    }

    /// `"text\(expr)text\(expr)text"`: the lexer hands over the text pieces as tokens around
    /// the interpolated expressions' own tokens.
    mutating func parseInterpolation() -> ExprSyntax {
        let start = token.range.start
        var pieces: [ExprSyntax.InterpolationPiece] = []
        var piece = token
        while true {
            let text = Lexer.stringValue(file.bytes[piece.range.start..<piece.range.end], kind: piece.kind)
            if !text.isEmpty { pieces.append(.text(text)) }
            advance()
            if piece.kind == .stringTail { break }
            pieces.append(.expression(parseExpr()))
            guard token.kind == .stringMiddle || token.kind == .stringTail else {
                error(expected: "')' to end the interpolation")
                return ExprSyntax(.bad, SourceRange(start, previousEnd))
            }
            piece = token
        }
        return bounded(ExprSyntax(.interpolation(pieces), SourceRange(start, previousEnd)))
    }

    /// Replaces a node deeper than `maxExpressionDepth` with `.bad`, reporting it once.
    private mutating func bounded(_ expr: ExprSyntax) -> ExprSyntax {
        guard expr.depth > Parser.maxExpressionDepth else { return expr }
        reportTooDeep(expr.range, .expressionTree)
        return ExprSyntax(.bad, expr.range)
    }

    /// Skips the remainder of an expression past the nesting limit: up to a `)` that closes
    /// an enclosing group, or, outside any group, a token that cannot continue it.
    mutating func skipExpressionRest() {
        var depth = 0
        while token.kind != .endOfFile {
            switch token.kind {
            case .lParen: depth += 1
            case .rParen:
                if depth == 0 { return }
                depth -= 1
            case .lBrace, .rBrace, .arrow, .semicolon:
                if depth == 0 { return }
            default:
                if depth == 0 && (token.startsLine || (isKeyword(token.kind) && token.kind != .kwTrue
                    && token.kind != .kwFalse)) { return }
            }
            advance()
        }
    }

    private func isKeyword(_ kind: TokenKind) -> Bool { kind.isReservedWord }

    private func binaryOperator(_ kind: TokenKind) -> BinaryOperator? {
        switch kind {
        case .pipePipe: .or
        case .ampAmp: .and
        case .equalEqual: .equal
        case .bangEqual: .notEqual
        case .less: .less
        case .lessEqual: .lessEqual
        case .greater: .greater
        case .greaterEqual: .greaterEqual
        case .plus: .add
        case .minus: .subtract
        case .star: .multiply
        case .slash: .divide
        case .percent: .remainder
        default: nil
        }
    }

}
