import Statecraft

extension LanguageServer {
    /// `textDocument/publishDiagnostics` for an open document: the diagnostics `check`
    /// reports, with its id as the code and its notes (witnesses, proofs, "declared here")
    /// as related information pointing into the document.
    func diagnosticsNotification(_ document: Document, _ found: [Diagnostic]) -> JSON {
        let uri = document.uri
        let diagnostics: [JSON] = found.map { d in
            var message = d.message
            var related: [JSON] = []
            for note in d.notes {
                if let range = note.range {
                    related.append(["location": ["uri": .string(uri), "range": document.range(range)],
                                    "message": .string(note.message)])
                } else {
                    message += "\nnote: " + note.message
                }
            }
            var object = JSONObject([
                ("range", document.range(d.range)),
                ("severity", .integer(Self.severity(of: d))),
                ("code", .string(d.id.rawValue)),
                ("source", "statecraft"),
                ("message", .string(message)),
            ])
            if !related.isEmpty { object["relatedInformation"] = .array(related) }
            return .object(object)
        }
        return LSP.notification("textDocument/publishDiagnostics",
                                ["uri": .string(uri), "version": .integer(document.version), "diagnostics": .array(diagnostics)])
    }

    /// The protocol's severities: 1 error, 2 warning, 3 information, 4 hint. A proven property
    /// is a hint: the editor marks its name faintly, and the problems list, which editors fill
    /// with the other three, stays empty for a spec without problems.
    static func severity(of diagnostic: Diagnostic) -> Int {
        if diagnostic.id == .propertyProven { return 4 }
        return switch diagnostic.severity {
        case .error: 1
        case .warning: 2
        case .note: 3
        }
    }
}
