import Statecraft

extension LanguageServer {
    /// `textDocument/definition`: the declaration of the name under the caret (several for a
    /// payload field read in a transition on several events).
    mutating func definition(_ params: JSONValue?) throws(RequestError) -> JSON {
        let (document, result) = try quickAnalysis(params)
        let declarations = result.symbols.definition(at: try offset(params, in: document))
        if declarations.isEmpty { return .null }
        return .array(declarations.map { location(document, $0.nameRange) })
    }

    /// `textDocument/references`: every place the name under the caret is written.
    mutating func references(_ params: JSONValue?) throws(RequestError) -> JSON {
        let (document, result) = try quickAnalysis(params)
        guard let symbol = result.symbols.symbol(at: try offset(params, in: document)) else { return .array([]) }
        let withDeclaration = params?["context"]?["includeDeclaration"]?.boolValue ?? true
        return .array(result.symbols.references(of: symbol, includingDeclarations: withDeclaration)
            .map { location(document, $0) })
    }

    /// `textDocument/prepareRename`: the name's range and text, or an error saying why it
    /// cannot be renamed.
    mutating func prepareRename(_ params: JSONValue?) throws(RequestError) -> JSON {
        let (document, result) = try quickAnalysis(params)
        guard let occurrence = result.symbols.occurrence(at: try offset(params, in: document)) else {
            throw RequestError(.requestFailed, "there is no declared name here to rename")
        }
        return ["range": document.range(occurrence.range), "placeholder": .string(occurrence.symbol.name)]
    }

    /// `textDocument/rename`: a workspace edit of every mention, or an error naming the collision.
    mutating func rename(_ params: JSONValue?) throws(RequestError) -> JSON {
        let (document, result) = try quickAnalysis(params)
        guard let newName = params?["newName"]?.stringValue else { throw .invalidParams("newName") }
        switch result.symbols.rename(at: try offset(params, in: document), to: newName) {
        case .failure(let refusal):
            throw RequestError(.requestFailed, refusal.message)
        case .success(let ranges):
            let edits: [JSON] = ranges.map { ["range": document.range($0), "newText": .string(newName)] }
            return ["changes": .object(JSONObject([(document.uri, .array(edits))]))]
        }
    }

    func location(_ document: Document, _ range: SourceRange) -> JSON {
        ["uri": .string(document.uri), "range": document.range(range)]
    }
}
