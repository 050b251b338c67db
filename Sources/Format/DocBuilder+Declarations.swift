import StatecraftSyntax

// The layout of declarations: the machine and each state hold one member per line at one
// more level of indentation; a member's own line breaks (a long value, a comment inside
// it) are indented one level more than its first line.
extension DocBuilder {
    /// `file = machine`, with the comments before and after it.
    mutating func file(_ machine: MachineDecl) throws {
        flushLeading(keepBlank: true, blankBeforeToken: false)
        try token(.kwMachine)
        space()
        try token(.identifier)
        space()
        let members = machine.members
        try body(count: members.count) { builder, index in
            try builder.member(members[index])
        }
    }

    /// `"{" { member } "}"` of the machine or a state: always one member per line.
    mutating func body(count: Int, member: (inout DocBuilder, Int) throws -> Void) throws {
        try token(.lBrace)
        skipSemicolons()
        if count == 0 && !hasCommentBeforeNextToken {
            try token(.rBrace)
            return
        }
        beginIndent()
        startBody()
        for index in 0..<count {
            hardline()
            flushLeading(keepBlank: true, blankBeforeToken: true)
            try member(&self, index)
            skipSemicolons()
        }
        hardline()
        flushLeading(keepBlank: true, blankBeforeToken: false)
        end()
        hardline()
        try token(.rBrace)
    }

    /// `member = const | var | event | output | state | initialTargets | property`
    mutating func member(_ member: MemberDecl) throws {
        switch member {
        case .constant(let decl):
            try token(.kwConst)
            beginIndent()
            space()
            try token(.identifier)
            if decl.type != nil { try typeAnnotation() }
            try value(decl.value)
            end()
        case .variable(let decl):
            if decl.isPublic {
                try token(.kwPublic)
                space()
            }
            try token(.kwVar)
            beginIndent()
            space()
            try token(.identifier)
            try typeAnnotation()
            try value(decl.initialValue)
            end()
        case .event(let decl):
            try signature(.kwEvent, fields: decl.fields)
            if decl.externalName != nil {
                // `as` and its string stay on the signature's line, where the parser reads them.
                space()
                try token(.identifier)  // `as`
                space()
                try token(.string)
            }
        case .output(let decl):
            try signature(.kwOutput, fields: decl.fields)
        case .state(let state):
            try self.state(state)
        case .initialTargets(let decl):
            try initialTargets(decl)
        case .property(let decl):
            try property(decl)
        }
    }

    /// `property = "property" IDENT ":" propertyForm`, one space between words.
    ///
    /// The form's words stay on the line of the token before them, as the parser reads
    /// them only there; an expression breaks inside itself, indented one level more.
    private mutating func property(_ decl: PropertyDecl) throws {
        try token(.identifier)  // `property`
        beginIndent()
        space()
        try token(.identifier)
        try token(.colon)
        space()
        switch decl.form {
        case .invariant(_, _, let condition, _, let guardExpr):
            try token(.identifier)  // `never` or `always`
            space()
            try expression(condition)
            if let guardExpr {
                space()
                try token(.identifier)  // `while`
                space()
                try expression(guardExpr)
            }
        case .response(_, let entering, _, _, let deadline, let response):
            try token(.kwAfter)
            space()
            if entering != nil {
                try token(.identifier)  // `entering`
                space()
            }
            try token(.identifier)
            space()
            try token(.identifier)  // `within`
            space()
            try expression(deadline)
            try token(.colon)
            space()
            try expression(response)
        case .precedence(let x, _, _, let y):
            try expression(x)
            space()
            try token(.identifier)  // `only`
            space()
            try token(.kwAfter)
            space()
            try expression(y)
        case .reachable(_, _, let x):
            try token(.identifier)  // `always`
            space()
            try token(.identifier)  // `reachable`
            space()
            try expression(x)
        }
        end()
    }

    /// `":" type`
    private mutating func typeAnnotation() throws {
        try token(.colon)
        space()
        try token(.identifier)
    }

    /// `"=" expr` of a constant or variable.
    private mutating func value(_ expr: ExprSyntax) throws {
        space()
        try token(.assign)
        space()
        try expression(expr)
    }

    /// `IDENT [ "(" [ field { "," field } [ "," ] ] ")" ]` after `event` or `output`:
    /// the fields on the name's line when they fit, else on lines of their own, as many
    /// to a line as fit.
    private mutating func signature(_ keyword: TokenKind, fields decls: [FieldDecl]) throws {
        let fields = decls.count
        try token(keyword)
        beginIndent()
        space()
        try token(.identifier)
        end()
        // A `(` on a line of its own would not belong to the signature: the tree has none then.
        if peekKind == .lParen && !peekStartsLine {
            beginGroup()
            try token(.lParen)
            if fields > 0 {
                beginIndent()
                softline()
                beginFill()
                for index in 0..<fields {
                    if index > 0 { fillSeparator() }
                    beginFillPart()
                    if decls[index].privateMark != nil {
                        try token(.identifier)  // `private`
                        space()
                    }
                    try token(.identifier)
                    try typeAnnotation()
                    if index + 1 < fields {
                        try token(.comma)
                    } else if peekKind == .comma {
                        try skip(.comma)
                    }
                    endFillPart()
                }
                end()
                end()
                softline()
            }
            try token(.rParen)
            end()
        }
    }

    /// `initialTargets = "initial" "->" IDENT { "," IDENT } [ block ]`
    private mutating func initialTargets(_ decl: InitialTargetsDecl) throws {
        try token(.kwInitial)
        beginIndent()
        space()
        try token(.arrow)
        space()
        for index in decl.targets.indices {
            if index > 0 {
                try token(.comma)
                space()
            }
            try token(.identifier)
        }
        end()
        if let actions = decl.actions {
            space()
            try block(actions)
        }
    }

    /// One member of a state's body, in source order (the tree keeps each kind apart).
    private enum StateMember {
        case entryExit(EntryExitDecl)
        case transition(TransitionDecl)
        case state(StateDecl)
        case initialTargets(InitialTargetsDecl)

        var start: Int {
            switch self {
            case .entryExit(let decl): decl.keywordRange.start
            case .transition(let decl): decl.range.start
            case .state(let decl): decl.range.start
            case .initialTargets(let decl): decl.keywordRange.start
            }
        }
    }

    /// `state = { "initial" | "final" | "parallel" } "state" IDENT [ "{" { stateMember } "}" ]
    ///        | [ "deep" ] "history" "state" IDENT [ "->" IDENT { "," IDENT } [ block ] ]`
    mutating func state(_ state: StateDecl) throws {
        for _ in state.modifiers {
            try anyToken()
            space()
        }
        try token(.kwState)
        beginIndent()
        space()
        try token(.identifier)
        if !state.historyDefaults.isEmpty {
            space()
            try token(.arrow)
            for index in state.historyDefaults.indices {
                if index > 0 { try token(.comma) }
                space()
                try token(.identifier)
            }
        }
        end()
        // A history state has no values (the parser reads none after its name).
        if let data = state.doneData { try doneData(data) }
        if let actions = state.historyActions {
            space()
            try block(actions)
            return
        }
        guard peekKind == .lBrace else { return }
        var members: [StateMember] = state.entry.map(StateMember.entryExit) + state.exit.map(StateMember.entryExit)
        members += state.transitions.map(StateMember.transition) + state.children.map(StateMember.state)
        members += state.initialTargets.map(StateMember.initialTargets)
        members.sort { $0.start < $1.start }
        space()
        try body(count: members.count) { builder, index in
            switch members[index] {
            case .entryExit(let decl):
                try builder.anyToken()
                builder.space()
                try builder.block(decl.block)
            case .transition(let decl): try builder.transition(decl)
            case .state(let decl): try builder.state(decl)
            case .initialTargets(let decl): try builder.initialTargets(decl)
            }
        }
    }

    /// `doneData = "(" [ IDENT ":" expr { "," IDENT ":" expr } ] ")"` after a final state's
    /// name: on the name's line when it fits, else one field to a line, as an argument list.
    private mutating func doneData(_ data: DoneDataSyntax) throws {
        beginGroup()
        try token(.lParen)
        if !data.fields.isEmpty {
            beginIndent()
            softline()
            for (index, field) in data.fields.enumerated() {
                if index > 0 {
                    try token(.comma)
                    line()
                }
                try token(.identifier)
                try token(.colon)
                space()
                try expression(field.value)
            }
            if peekKind == .comma { try skip(.comma) }
            end()
            softline()
        }
        try token(.rParen)
        end()
    }

    /// `transition = [ "internal" ] trigger [ "if" expr ] [ "->" IDENT ] [ block ]`
    ///
    /// On one line when it fits; else the guard and the target each start a continuation
    /// line (the actions follow the target), as the language's line-break rules allow.
    mutating func transition(_ transition: TransitionDecl) throws {
        let header = beginGroup()
        if transition.isInternal {
            try token(.identifier)
            space()
        }
        try anyToken()  // `on`, `after`, `done` or `always`
        beginIndent()
        switch transition.trigger {
        case .events(let names):
            space()
            beginGroup()
            for index in names.indices {
                if index > 0 {
                    try token(.comma)
                    line()
                }
                try token(.identifier)
            }
            end()
        case .after(let delay):
            space()
            try expression(delay)
        case .done(let state):
            if state != nil {
                try token(.lParen)
                try token(.identifier)
                try token(.rParen)
            }
        case .always:
            break
        }
        if let guardExpr = transition.guardExpr {
            line()
            try token(.kwIf)
            space()
            try expression(guardExpr)
        }
        if transition.target != nil {
            line()
            try token(.arrow)
            space()
            try token(.identifier)
        }
        end()
        end()
        if let actions = transition.actions {
            beginIndentIfBroken(header)
            space()
            try block(actions)
            end()
        }
    }
}
