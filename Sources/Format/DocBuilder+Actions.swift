import StatecraftSyntax

// The layout of action blocks: `{ a; b }` on one line when it fits (and holds no comment
// that ends a line), else one action per line.
extension DocBuilder {
    /// `block = "{" { action } "}"`
    mutating func block(_ block: BlockSyntax) throws {
        beginGroup()
        try token(.lBrace)
        skipSemicolons()
        if block.actions.isEmpty && !hasCommentBeforeNextToken {
            try token(.rBrace)
            end()
            return
        }
        beginIndent()
        startBody()
        for (index, action) in block.actions.enumerated() {
            if index > 0 { flatOnly(";") }
            line()
            flushLeading(keepBlank: true, blankBeforeToken: true)
            try self.action(action)
            skipSemicolons()
        }
        if hasCommentBeforeNextToken {
            flushTrailing()
            if hasCommentBeforeNextToken {
                hardline()
                flushLeading(keepBlank: true, blankBeforeToken: false)
            }
        }
        end()
        line()
        try token(.rBrace)
        end()
    }

    /// `action = assignment | emit | raise | send | cancel | let | if`
    mutating func action(_ action: ActionSyntax) throws {
        switch action {
        case .assign(_, let op, let value, _):
            try token(.identifier)
            beginIndent()
            space()
            try token(Self.assignmentToken(op))
            space()
            try expression(value)
            end()
        case .emit(_, let arguments, _):
            try token(.kwEmit)
            try call(arguments)
        case .raise(_, let arguments, _):
            try token(.identifier)
            try call(arguments)
        case .send(_, let arguments, let delay, _):
            try token(.identifier)
            try call(arguments)
            try sendDelay(delay)
        case .sendNamed(let name, let delay, _):
            try token(.identifier)
            space()
            try expression(name)
            try sendDelay(delay)
        case .cancel:
            try token(.identifier)
            space()
            try token(.identifier)
        case .letValue(_, let value, _):
            try token(.kwLet)
            beginIndent()
            space()
            try token(.identifier)
            space()
            try token(.assign)
            space()
            try expression(value)
            end()
        case .ifAction(let condition, let then, let otherwise, _):
            try token(.kwIf)
            space()
            try expression(condition)
            space()
            try block(then)
            guard let otherwise else { return }
            space()
            try token(.kwElse)
            space()
            // `else if` is kept in the tree as a block holding the nested `if`, without braces.
            if peekKind == .kwIf, otherwise.actions.count == 1, let nested = otherwise.actions.first {
                try self.action(nested)
            } else {
                try block(otherwise)
            }
        }
    }

    /// A send's ` after d`, if written, indented where it breaks.
    private mutating func sendDelay(_ delay: ExprSyntax?) throws {
        guard let delay else { return }
        beginIndent()
        space()
        try token(.kwAfter)
        space()
        try expression(delay)
        end()
    }

    /// The event or output name after `emit`, `raise` or `send`, then its arguments if written.
    private mutating func call(_ arguments: [ExprSyntax]) throws {
        space()
        try token(.identifier)
        // The `(` is on the name's line in the source, or it would not be an argument list.
        if peekKind == .lParen && !peekStartsLine { try argumentList(arguments) }
    }

    private static func assignmentToken(_ op: AssignOperator) -> TokenKind {
        switch op {
        case .assign: .assign
        case .add: .plusAssign
        case .subtract: .minusAssign
        case .multiply: .starAssign
        case .divide: .slashAssign
        }
    }
}
