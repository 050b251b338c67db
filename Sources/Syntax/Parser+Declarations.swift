import StatecraftDiagnostics

extension Parser {
    static let memberStarts: Set<TokenKind> = [.kwConst, .kwVar, .kwPublic, .kwEvent, .kwOutput, .kwState,
                                               .kwInitial, .kwFinal, .kwParallel]
    static let stateMemberStarts: Set<TokenKind> = [.kwOn, .kwAfter, .kwEntry, .kwExit, .kwState,
                                                    .kwInitial, .kwFinal, .kwParallel]

    /// `file = machine`
    mutating func parseFile() -> MachineDecl? {
        if token.kind == .endOfFile {
            diagnostics.add(Diagnostic(.emptyFile, "file holds no machine; expected 'machine'", at: .point(0)))
            return nil
        }
        if token.kind != .kwMachine {
            error(expected: "'machine'", atToken: true)
            while token.kind != .kwMachine && token.kind != .endOfFile { advance() }
            if token.kind == .endOfFile { return nil }
        }
        let machine = parseMachine()
        if token.kind != .endOfFile {
            error(expected: "end of file after the machine", atToken: true)
        }
        return machine
    }

    /// `machine = "machine" IDENT "{" { member } "}"`
    mutating func parseMachine() -> MachineDecl {
        let start = token.range.start
        advance()
        let name = expectIdentifier("machine name")
        var members: [MemberDecl] = []
        let opening = token.range
        guard expect(.lBrace, "'{' after the machine name") != nil else {
            // Recover: read the members anyway if they follow.
            if Parser.memberStarts.contains(token.kind) { parseMembers(into: &members) }
            return MachineDecl(name: name, members: members, range: SourceRange(start, previousEnd))
        }
        parseMembers(into: &members)
        expectClosingBrace("'}' at the end of the machine", opening: opening)
        return MachineDecl(name: name, members: members, range: SourceRange(start, previousEnd))
    }

    private mutating func parseMembers(into members: inout [MemberDecl]) {
        while token.kind != .rBrace && token.kind != .endOfFile {
            let before = token.range.start
            if let member = parseMember() { members.append(member) }
            if token.range.start == before && token.kind != .endOfFile && token.kind != .rBrace { advance() }
        }
    }

    /// `member = const | var | event | output | state | initialTargets | property`
    mutating func parseMember() -> MemberDecl? {
        switch token.kind {
        case .identifier where isWord(token, "property"):
            return parseProperty().map(MemberDecl.property)
        case .kwInitial where peek().kind == .arrow:
            return parseInitialTargets().map(MemberDecl.initialTargets)
        case .kwConst: return parseConst().map(MemberDecl.constant)
        case .kwVar, .kwPublic: return parseVar().map(MemberDecl.variable)
        case .kwEvent:
            advance()
            guard let (name, fields) = parseSignature(of: "event") else { return nil }
            return .event(EventDecl(name: name, fields: fields, externalName: parseExternalName()))
        case .kwOutput:
            advance()
            return parseSignature(of: "output").map { MemberDecl.output(OutputDecl(name: $0.0, fields: $0.1)) }
        case .kwState, .kwInitial, .kwFinal, .kwParallel:
            return parseState().map(MemberDecl.state)
        case .identifier where contextualStart() == .state:
            // `history state h` at the top level parses; the resolver says why it is wrong.
            return parseState().map(MemberDecl.state)
        case .semicolon:
            advance()
            return nil
        default:
            error(expected: "a declaration ('const', 'var', 'public var', 'event', 'output', 'state' or 'property')", atToken: true,
                  notes: keywordSuggestion())
            advance()
            synchronize(to: Parser.memberStarts)
            return nil
        }
    }

    /// `const = "const" IDENT [ ":" type ] "=" expr`
    mutating func parseConst() -> ConstDecl? {
        advance()
        guard let name = expectIdentifier("constant name") else { return recoverMember() }
        var type: TypeRef?
        if consume(.colon) {
            guard let t = parseType() else { return recoverMember() }
            type = t
        }
        guard expect(.assign, "'=' and the constant's value") != nil else { return recoverMember() }
        return ConstDecl(name: name, type: type, value: parseExpr())
    }

    /// `var = [ "public" ] "var" IDENT ":" type "=" expr`
    mutating func parseVar() -> VarDecl? {
        let isPublic = consume(.kwPublic)
        guard expect(.kwVar, "'var' after 'public'") != nil else { return recoverMember() }
        guard let name = expectIdentifier("variable name") else { return recoverMember() }
        guard expect(.colon, "':' and the variable's type") != nil, let type = parseType() else {
            return recoverMember()
        }
        guard expect(.assign, "'=' and the variable's initial value") != nil else { return recoverMember() }
        return VarDecl(isPublic: isPublic, name: name, type: type, initialValue: parseExpr())
    }

    /// `type = "Number" | "Bool" | "String"`
    mutating func parseType() -> TypeRef? {
        expectIdentifier("a type ('Number', 'Bool' or 'String')").map { TypeRef(name: $0) }
    }

    /// `IDENT [ "(" [ field { "," field } [ "," ] ] ")" ]`, shared by events and outputs
    /// (`what` says which, for the error when the name is missing).
    mutating func parseSignature(of what: String) -> (Identifier, [FieldDecl])? {
        guard let name = expectIdentifier("\(what) name") else { return recoverMember() }
        var fields: [FieldDecl] = []
        guard token.kind == .lParen && !token.startsLine else { return (name, fields) }
        advance()
        while token.kind != .rParen {
            // `private` is a word only here, before a field's name: a field may still be
            // called `private` (`private: Bool`).
            var privateMark: SourceRange?
            if isWord(token, "private") && peek().kind == .identifier {
                if what == "output" {
                    syntaxError("'private' marks an event's payload field; an output's arguments are never recorded",
                                at: token.range)
                } else {
                    privateMark = token.range
                }
                advance()
            }
            guard let field = expectIdentifier("field name or ')'") else { return recoverMember() }
            guard expect(.colon, "':' and the field's type") != nil, let type = parseType() else {
                return recoverMember()
            }
            fields.append(FieldDecl(name: field, type: type, privateMark: privateMark))
            if !consume(.comma) { break }
        }
        guard expect(.rParen, "',' or ')'") != nil else { return recoverMember() }
        return (name, fields)
    }

    /// `[ "as" STRING ]` after an event's signature, on the same line: `as` is a word only
    /// there, so an event, state or variable may still be called `as`.
    mutating func parseExternalName() -> ExternalNameSyntax? {
        guard isWord(token, "as") && !token.startsLine else { return nil }
        let asRange = token.range
        advance()
        guard token.kind == .string && !token.startsLine else {
            if token.kind == .stringHead && !token.startsLine {
                syntaxError("the name after 'as' is written out in full: a string without interpolation", at: token.range)
            } else {
                error(expected: "the event's name in other systems after 'as', a string such as \"watch.reset\"")
            }
            synchronize(to: Parser.memberStarts)
            return nil
        }
        let range = token.range
        let text = Lexer.stringValue(file.bytes[range.start..<range.end])
        advance()
        return ExternalNameSyntax(text: text, asRange: asRange, range: range)
    }

    private mutating func recoverMember<T>() -> T? {
        synchronize(to: Parser.memberStarts)
        return nil
    }

    /// `state = { "initial" | "final" | "parallel" } "state" IDENT [ "{" { stateMember } "}" ]
    ///        | [ "deep" ] "history" "state" IDENT [ "->" IDENT { "," IDENT } [ block ] ]`
    ///
    /// A history state's body, if one is written, is read like any state's, so that the
    /// resolver can say what a history state may not have.
    mutating func parseState() -> StateDecl? {
        let start = token.range.start
        var modifiers: [StateModifier] = []
        while let kind = modifierKind(afterDeep: modifiers.last?.kind == .deep) {
            modifiers.append(StateModifier(kind: kind, range: token.range))
            advance()
        }
        guard expect(.kwState, "'state'") != nil, let name = expectIdentifier("state name") else {
            synchronize(to: Parser.stateMemberStarts.union(Parser.memberStarts))
            return nil
        }
        var state = StateDecl(modifiers: modifiers, name: name, entry: [], exit: [], transitions: [],
                              children: [], range: SourceRange(start, previousEnd))
        if token.kind == .lParen && !token.startsLine && state.modifier(.history) == nil {
            guard let data = parseDoneData() else {
                synchronize(to: Parser.stateMemberStarts.union(Parser.memberStarts))
                return state
            }
            state.doneData = data
            state.range = SourceRange(start, previousEnd)
        }
        if state.modifier(.history) != nil && token.kind == .arrow {
            advance()
            repeat {
                guard let target = expectIdentifier("the history state's default state after '->'") else {
                    synchronize(to: Parser.stateMemberStarts.union(Parser.memberStarts))
                    return state
                }
                state.historyDefaults.append(target)
            } while consume(.comma)
            // After the defaults, a block is the default transition's actions (a history
            // state has no body of its own).
            if token.kind == .lBrace { state.historyActions = parseBlock() }
            state.range = SourceRange(start, previousEnd)
            if state.historyActions != nil { return state }
        }
        guard token.kind == .lBrace else { return state }
        nesting += 1
        defer { nesting -= 1 }
        if nesting > Parser.maxNesting {
            reportTooDeep(token.range)
            skipGroup()
            return state
        }
        let opening = token.range
        advance()
        while token.kind != .rBrace && token.kind != .endOfFile {
            let before = token.range.start
            parseStateMember(into: &state)
            if token.range.start == before && token.kind != .endOfFile && token.kind != .rBrace { advance() }
        }
        expectClosingBrace("'}' at the end of state '\(name.name)'", opening: opening)
        state.range = SourceRange(start, previousEnd)
        return state
    }

    /// `doneData = "(" [ IDENT ":" expr { "," IDENT ":" expr } ] ")"`; nil after a reported error.
    private mutating func parseDoneData() -> DoneDataSyntax? {
        let start = token.range.start
        advance()
        var fields: [DoneDataSyntax.Field] = []
        while token.kind != .rParen && token.kind != .endOfFile {
            guard let name = expectIdentifier("a field name (as in 'final state done(code: 200)')"),
                  expect(.colon, "':' and the field's value after '\(name.name.prefix(40))'") != nil else { return nil }
            fields.append(DoneDataSyntax.Field(name: name, value: parseExpr()))
            if !consume(.comma) { break }
        }
        guard expect(.rParen, "',' or ')' in the final state's values") != nil else { return nil }
        return DoneDataSyntax(fields: fields, range: SourceRange(start, previousEnd))
    }

    /// `initialTargets = "initial" "->" IDENT { "," IDENT } [ block ]`
    mutating func parseInitialTargets() -> InitialTargetsDecl? {
        let keyword = token.range
        advance()
        advance()  // `->`, checked by the caller
        var targets: [Identifier] = []
        repeat {
            guard let name = expectIdentifier("state name after 'initial ->'") else {
                synchronize(to: Parser.stateMemberStarts.union(Parser.memberStarts))
                return nil
            }
            targets.append(name)
        } while consume(.comma)
        let actions = token.kind == .lBrace ? parseBlock() : nil
        return InitialTargetsDecl(keywordRange: keyword, targets: targets, actions: actions)
    }

    /// The modifier the current token is, if any: a keyword, or `history` before `state` or
    /// after `deep`, or `deep` before `history`.
    private mutating func modifierKind(afterDeep: Bool) -> StateModifier.Kind? {
        switch token.kind {
        case .kwInitial: return .initial
        case .kwFinal: return .final
        case .kwParallel: return .parallel
        case .identifier:
            if isWord(token, "history") && (afterDeep || peek().kind == .kwState) { return .history }
            if isWord(token, "deep") && isWord(peek(), "history") { return .deep }
            return nil
        default: return nil
        }
    }

    /// `stateMember = "entry" block | "exit" block | transition | state | initialTargets`
    mutating func parseStateMember(into state: inout StateDecl) {
        let contextual = contextualStart()
        switch token.kind {
        case .kwInitial where peek().kind == .arrow:
            if let decl = parseInitialTargets() { state.initialTargets.append(decl) }
        case .kwEntry, .kwExit:
            let keyword = token
            advance()
            guard let block = parseBlock() else { return }
            let decl = EntryExitDecl(keywordRange: keyword.range, block: block)
            if keyword.kind == .kwEntry { state.entry.append(decl) } else { state.exit.append(decl) }
        case .kwOn, .kwAfter:
            if let transition = parseTransition() { state.transitions.append(transition) }
        case .kwState, .kwInitial, .kwFinal, .kwParallel:
            if let child = parseState() { state.children.append(child) }
        case .identifier where contextual == .transition:
            if let transition = parseTransition() { state.transitions.append(transition) }
        case .identifier where contextual == .state:
            if let child = parseState() { state.children.append(child) }
        case .semicolon:
            advance()
        case .identifier where isWord(token, "property") && peek().kind == .identifier:
            // Read whole, so that its words raise no errors of their own.
            syntaxError("a property is declared at the top level of the machine, not in state '\(state.name.name)'",
                        at: token.range)
            _ = parseProperty()
        default:
            error(expected: "'on', 'after', 'done', 'always', 'entry', 'exit' or 'state' in state '\(state.name.name)'",
                  atToken: true,
                  notes: keywordSuggestion())
            advance()
            synchronize(to: Parser.stateMemberStarts)
        }
    }

    /// `transition = [ "internal" ] trigger [ "if" expr ] [ "->" IDENT ] [ block ]`
    /// `trigger = "on" IDENT { "," IDENT } | "after" expr | "done" [ "(" IDENT ")" ] | "always"`
    mutating func parseTransition() -> TransitionDecl? {
        var internalRange: SourceRange?
        if isWord(token, "internal") {
            internalRange = token.range
            advance()
        }
        let keyword = token
        guard let trigger = parseTrigger() else {
            synchronize(to: Parser.stateMemberStarts)
            return nil
        }
        var guardExpr: ExprSyntax?
        if consume(.kwIf) { guardExpr = parseExpr() }
        var target: Identifier?
        if consume(.arrow) {
            guard let name = expectIdentifier("target state name") else {
                synchronize(to: Parser.stateMemberStarts)
                return nil
            }
            target = name
        }
        var actions: BlockSyntax?
        if token.kind == .lBrace { actions = parseBlock() }
        if !(token.startsLine || [.rBrace, .semicolon, .endOfFile].contains(token.kind)) {
            reportTransitionEnd(guardExpr: guardExpr, target: target, actions: actions)
            synchronize(to: Parser.stateMemberStarts)
        }
        return TransitionDecl(trigger: trigger, keywordRange: keyword.range, internalRange: internalRange,
                              guardExpr: guardExpr, target: target, actions: actions,
                              range: SourceRange(internalRange?.start ?? keyword.range.start, previousEnd))
    }

    /// `trigger = "on" IDENT { "," IDENT } | "after" expr | "done" [ "(" IDENT ")" ] | "always"`
    ///
    /// nil after a reported error (the caller recovers).
    private mutating func parseTrigger() -> TriggerSyntax? {
        let keyword = token
        switch keyword.kind {
        case .kwOn:
            advance()
            var events: [Identifier] = []
            repeat {
                guard let event = expectIdentifier("event name") else { return nil }
                events.append(event)
            } while consume(.comma)
            return .events(events)
        case .kwAfter:
            advance()
            return .after(parseExpr())
        case .identifier where isWord(keyword, "done"):
            advance()
            guard token.kind == .lParen && !token.startsLine else { return .done(nil) }
            advance()
            guard let name = expectIdentifier("state name in 'done(…)'"),
                  expect(.rParen, "')' after the state name") != nil else { return nil }
            return .done(name)
        case .identifier where isWord(keyword, "always"):
            advance()
            return .always
        default:
            // Only reachable after `internal`, which is a prefix only before a trigger.
            error(expected: "'on', 'after', 'done' or 'always' after 'internal'", atToken: true)
            return nil
        }
    }

    /// Something follows a transition on its line. Name the usual mistakes (Swift and
    /// other languages' habits) instead of only "expected a new line".
    private mutating func reportTransitionEnd(guardExpr: ExprSyntax?, target: Identifier?, actions: BlockSyntax?) {
        let word = token.kind == .identifier ? text(token) : ""
        let guardText = guardExpr.map { String(decoding: file.bytes[$0.range.start..<$0.range.end], as: UTF8.self) }
        switch token.kind {
        case .assign where guardExpr != nil && target == nil && actions == nil:
            syntaxError("'=' assigns; to compare in a guard, write '=='", at: token.range)
        case .identifier where guardText == "not" && target == nil:
            syntaxError("'not' is written '!' here, as in Swift", at: guardExpr?.range ?? token.range)
        case .identifier where (word == "and" || word == "or") && guardExpr != nil && target == nil:
            syntaxError("'\(word)' is written '\(word == "and" ? "&&" : "||")' here, as in Swift", at: token.range)
        case .identifier where target == nil && actions == nil:
            syntaxError("expected '->' before the target state '\(word)'", at: token.range)
        case .kwElse where target != nil:
            syntaxError("a transition has one target, and 'else' does not continue it; write the other case as a "
                + "transition of its own on the next line (transitions are tried in the order written, so one "
                + "without a guard below this one is its 'else')", at: token.range)
        default:
            error(expected: guardExpr == nil && target == nil && actions == nil
                ? "'if', '->', '{' or a new line after the trigger" : "a new line after the transition")
        }
    }

    /// Skips a brace group starting at the current `{`, iteratively (used past the nesting limit).
    mutating func skipGroup() {
        var depth = 0
        repeat {
            if token.kind == .lBrace { depth += 1 }
            if token.kind == .rBrace { depth -= 1 }
            advance()
        } while depth > 0 && token.kind != .endOfFile
    }
}
