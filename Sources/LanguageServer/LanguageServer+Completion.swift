import Statecraft

extension LanguageServer {
    /// `textDocument/completion`, from the tokens before the caret: state names after `->`,
    /// `done(` and `in(`; event names after `on` (and its commas), `raise`, `send` and
    /// `cancel`; outputs after `emit`; types after `:`; elsewhere the values an expression
    /// can read there (variables, constants, the transition's payload fields and `let` values).
    mutating func completion(_ params: JSONValue?) throws(RequestError) -> JSON {
        let (document, result) = try quickAnalysis(params)
        let offset = try offset(params, in: document)
        let items = Completion.items(at: offset, in: result.file, index: result.symbols)
        return ["isIncomplete": false, "items": .array(items.map { item in
            ["label": .string(item.label), "kind": .integer(item.kind), "detail": .string(item.detail)]
        })]
    }
}

/// The context rules of completion, apart from the protocol.
enum Completion {
    struct Item: Equatable {
        var label: String
        /// The protocol's `CompletionItemKind`.
        var kind: Int
        var detail: String
    }

    /// What the caret at `offset` can be completed with.
    static func items(at offset: Int, in file: SourceFile, index: SymbolIndex) -> [Item] {
        let (allTokens, comments, _) = Lexer.tokenizeWithComments(file)
        // Nothing to offer inside a comment or a string.
        if comments.contains(where: { $0.range.start < offset && offset <= $0.range.end })
            || allTokens.contains(where: { [.string, .stringHead, .stringMiddle, .stringTail].contains($0.kind)
                && $0.range.start < offset && offset < $0.range.end }) {
            return []
        }
        let tokens = allTokens.filter { $0.kind != .endOfFile }
        // The tokens before the caret, without the word being typed.
        var before = tokens.prefix { $0.range.end <= offset }
        if let last = before.last, last.kind == .identifier || last.kind.isKeyword, last.range.end == offset {
            before = before.dropLast()
        }
        func word(_ t: Token) -> String { String(decoding: file.bytes[t.range.start..<t.range.end], as: UTF8.self) }
        let previous = before.last
        let beforePrevious = before.dropLast().last
        switch previous?.kind {
        case .arrow?:
            return names(.state, index)
        case .kwOn?:
            return names(.event, index)
        case .comma? where triggerEvents(before, word) != nil:
            return names(.event, index)
        case .kwEmit?:
            return names(.output, index)
        case .identifier? where ["raise", "send", "cancel"].contains(previous.map(word) ?? ""):
            return names(.event, index)
        case .lParen? where beforePrevious.map { $0.kind == .identifier && ["done", "in"].contains(word($0)) } ?? false:
            return names(.state, index)
        case .colon? where isTypePosition(before):
            return ["Number", "Bool", "String"].map { Item(label: $0, kind: 22, detail: "type") }
        default:
            return values(at: offset, before, word, index)
        }
    }

    /// Whether the tokens end in `var x :`, `const x :` or a field's `( x :` / `, x :`, where a
    /// type follows (and not the `:` of a conditional).
    private static func isTypePosition(_ tokens: ArraySlice<Token>) -> Bool {
        let last = tokens.suffix(3).map(\.kind)
        guard last.count == 3, last[1] == .identifier else { return false }
        return [.kwVar, .kwConst, .lParen, .comma].contains(last[0])
    }

    private static func names(_ kind: Symbol.Kind, _ index: SymbolIndex) -> [Item] {
        index.names(of: kind).map { Item(label: $0.symbol.name, kind: itemKind(kind), detail: $0.signature) }
    }

    /// The events of the `on` trigger that the tokens end in, if they end in one.
    private static func triggerEvents(_ tokens: ArraySlice<Token>, _ word: (Token) -> String) -> [String]? {
        var events: [String] = []
        var i = tokens.endIndex - 1
        while i >= tokens.startIndex {
            let t = tokens[i]
            switch t.kind {
            case .kwOn: return events
            case .identifier: events.append(word(t))
            case .comma: break
            default: return nil
            }
            i -= 1
        }
        return nil
    }

    /// Variables, constants, and what the transition around the caret adds: its events' payload
    /// fields and the `let` values declared before the caret.
    private static func values(at offset: Int, _ before: ArraySlice<Token>, _ word: (Token) -> String,
                               _ index: SymbolIndex) -> [Item] {
        var items = names(.variable, index) + names(.constant, index)
        let transition = index.transitions.last { $0.range.start <= offset && offset <= $0.range.end }
        var events = transition?.events ?? []
        if transition == nil, let on = before.lastIndex(where: { $0.kind == .kwOn }),
           !before[before.index(after: on)...].contains(where: \.startsLine) {
            // A transition the parser has not kept yet (half typed): the events after its `on`.
            events = before[before.index(after: on)...].prefix { $0.kind == .identifier || $0.kind == .comma }
                .filter { $0.kind == .identifier }.map(word)
        }
        var seen = Set(items.map(\.label))
        for event in events {
            for field in index.declarations where field.symbol.kind == .eventField && field.symbol.owner == event
                && seen.insert(field.symbol.name).inserted {
                items.append(Item(label: field.symbol.name, kind: itemKind(.eventField), detail: field.signature))
            }
        }
        // In a `done` / `done(x)` transition: the fields of the completion it takes.
        if let transition {
            let trigger = transition.trigger.hasPrefix("internal ") ? String(transition.trigger.dropFirst(9)) : transition.trigger
            let completing: String? = trigger == "done" ? transition.source
                : trigger.hasPrefix("done(") && trigger.hasSuffix(")") ? String(trigger.dropFirst(5).dropLast()) : nil
            for field in index.declarations where field.symbol.kind == .completionField && field.symbol.owner == completing
                && completing != nil && seen.insert(field.symbol.name).inserted {
                items.append(Item(label: field.symbol.name, kind: itemKind(.completionField), detail: field.signature))
            }
        }
        if let transition {
            for local in index.declarations where local.symbol.kind == .local && transition.range.start <= local.nameRange.start
                && local.range.end < offset && seen.insert(local.symbol.name).inserted {
                items.append(Item(label: local.symbol.name, kind: itemKind(.local), detail: local.signature))
            }
        }
        return items
    }

    /// The protocol's `CompletionItemKind` for a symbol.
    static func itemKind(_ kind: Symbol.Kind) -> Int {
        switch kind {
        case .state: 7        // Class
        case .event: 23       // Event
        case .output: 3       // Function
        case .variable, .local: 6  // Variable
        case .constant: 21    // Constant
        case .eventField, .outputField, .completionField: 5  // Field
        case .property: 10    // Property
        }
    }
}

extension TokenKind {
    /// Whether this is a reserved word (one of the lexer's keyword kinds).
    var isKeyword: Bool { TokenKind.keywords.values.contains(self) }
}
