import Statecraft

extension LanguageServer {
    /// `textDocument/documentSymbol`: the declarations as an outline, states nested as the
    /// state tree, payload fields under their event or output.
    mutating func documentSymbols(_ params: JSONValue?) throws(RequestError) -> JSON {
        let (document, result) = try quickAnalysis(params)
        let declarations = result.symbols.declarations.filter { $0.symbol.kind != .local }
        func node(_ d: Declaration, children: [JSON]) -> JSON {
            var object = JSONObject([
                ("name", .string(d.symbol.name)),
                ("detail", .string(d.signature)),
                ("kind", .integer(Self.symbolKind(d.symbol.kind))),
                ("range", document.range(SourceRange(min(d.range.start, d.nameRange.start), max(d.range.end, d.nameRange.end)))),
                ("selectionRange", document.range(d.nameRange)),
            ])
            if !children.isEmpty { object["children"] = .array(children) }
            return .object(object)
        }
        func children(of owner: Declaration) -> [JSON] {
            switch owner.symbol.kind {
            case .state:
                return declarations.filter { $0.symbol.kind == .state && $0.parent == owner.symbol.name }
                    .map { node($0, children: children(of: $0)) }
            case .event, .output:
                let field: Symbol.Kind = owner.symbol.kind == .event ? .eventField : .outputField
                return declarations.filter { $0.symbol.kind == field && $0.symbol.owner == owner.symbol.name }
                    .map { node($0, children: []) }
            default:
                return []
            }
        }
        let top = declarations.filter { d in
            switch d.symbol.kind {
            case .state: d.parent == nil
            case .eventField, .outputField, .completionField, .local: false
            default: true
            }
        }
        return .array(top.map { node($0, children: children(of: $0)) })
    }

    /// The protocol's `SymbolKind` for a declaration.
    static func symbolKind(_ kind: Symbol.Kind) -> Int {
        switch kind {
        case .state: 5              // Class
        case .event: 24             // Event
        case .output: 12            // Function
        case .variable, .local: 13  // Variable
        case .constant: 14          // Constant
        case .eventField, .outputField, .completionField: 8  // Field
        case .property: 7           // Property
        }
    }
}
