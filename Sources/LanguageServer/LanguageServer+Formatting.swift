import Statecraft

extension LanguageServer {
    /// `textDocument/formatting` through `statecraft fmt`'s formatter: one edit replacing the
    /// whole text when the layout changes. A spec with syntax errors cannot be laid out: no
    /// edits, and a message saying why.
    mutating func formatting(_ params: JSONValue?) throws(RequestError) -> JSON {
        let uri = try LSP.uri(params)
        guard let document = documents[uri] else {
            throw RequestError(.requestFailed, "\(Document.path(of: uri)) is not open (send textDocument/didOpen first)")
        }
        let formatted = SpecFormatter.format(SourceFile(path: Document.path(of: uri), bytes: document.text))
        switch formatted.outcome {
        case .formatted(let bytes):
            guard bytes != document.text else { return .array([]) }
            let whole = LSP.range((Position(line: 0, character: 0), document.lines.position(of: document.text.count)))
            return .array([["range": whole, "newText": .string(String(decoding: bytes, as: UTF8.self))]])
        case .syntaxErrors(let diagnostics):
            let first = diagnostics.first.map { d in
                let at = formatted.source.location(of: d.range.start)
                return " (line \(at.line): \(d.message))"
            } ?? ""
            outbox.append(showMessage(.warning, "statecraft: the spec has syntax errors, so it was not formatted\(first)"))
            return .array([])
        case .failed(_, let message):
            throw RequestError(.internalError, "the formatter failed: \(message)")
        }
    }
}
