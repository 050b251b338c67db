import StatecraftSyntax

// The layout of expressions: binary operators and `?:` with a space on each side, unary
// operators and parentheses tight. A chain of operators of one precedence that does not
// fit breaks before each operator, one level deeper; a call's arguments break after `(`.
extension DocBuilder {
    /// `expr = conditional`
    mutating func expression(_ expr: ExprSyntax) throws {
        switch expr.kind {
        case .number: try token(.number)
        case .string: try token(.string)
        case .bool(let value): try token(value ? .kwTrue : .kwFalse)
        case .name: try token(.identifier)
        case .call(_, let arguments):
            try token(.identifier)
            try argumentList(arguments)
        case .unary(let op, let operand):
            try token(op == .not ? .bang : .minus)
            // `- -2`, not `--2`, which reads like a decrement.
            if op == .negate, case .unary(.negate, _) = operand.kind { space() }
            try expression(operand)
        case .binary(let op, _, _):
            try binaryChain(expr, precedence: op.precedence)
        case .conditional(let condition, let then, let otherwise):
            beginGroup()
            try expression(condition)
            beginIndent()
            line()
            try token(.question)
            space()
            try expression(then)
            line()
            try token(.colon)
            space()
            try expression(otherwise)
            end()
            end()
        case .paren(let inner):
            try token(.lParen)
            try expression(inner)
            try token(.rParen)
        case .interpolation(let pieces):
            // The string and the expressions inside it stay on one line.
            beginNoBreaks()
            defer { endNoBreaks() }
            try token(.stringHead)
            for piece in pieces {
                guard case .expression(let inner) = piece else { continue }
                try expression(inner)
                try token(peekKind == .stringMiddle ? .stringMiddle : .stringTail)
            }
        case .bad:
            throw FormatFailure(offset: expr.range.start, message: "an expression that did not parse")
        }
    }

    /// `"(" [ expr { "," expr } [ "," ] ] ")"` after a call's, an emit's, a raise's or a send's name.
    mutating func argumentList(_ arguments: [ExprSyntax]) throws {
        beginGroup()
        try token(.lParen)
        if !arguments.isEmpty {
            beginIndent()
            softline()
            for (index, argument) in arguments.enumerated() {
                if index > 0 {
                    try token(.comma)
                    line()
                }
                try expression(argument)
            }
            if peekKind == .comma { try skip(.comma) }
            end()
            softline()
        }
        try token(.rParen)
        end()
    }

    /// A left-associative chain of one precedence (`a + b - c`), as one group.
    private mutating func binaryChain(_ expr: ExprSyntax, precedence: Int) throws {
        var operands: [ExprSyntax] = []
        var operators: [BinaryOperator] = []
        var current = expr
        while case .binary(let op, let left, let right) = current.kind, op.precedence == precedence {
            operands.append(right)
            operators.append(op)
            current = left
        }
        operands.append(current)
        operands.reverse()
        operators.reverse()
        beginGroup()
        try expression(operands[0])
        beginIndent()
        for (op, operand) in zip(operators, operands.dropFirst()) {
            line()
            try token(Self.operatorToken(op))
            space()
            try expression(operand)
        }
        end()
        end()
    }


    private static func operatorToken(_ op: BinaryOperator) -> TokenKind {
        switch op {
        case .or: .pipePipe
        case .and: .ampAmp
        case .equal: .equalEqual
        case .notEqual: .bangEqual
        case .less: .less
        case .lessEqual: .lessEqual
        case .greater: .greater
        case .greaterEqual: .greaterEqual
        case .add: .plus
        case .subtract: .minus
        case .multiply: .star
        case .divide: .slash
        case .remainder: .percent
        }
    }
}
