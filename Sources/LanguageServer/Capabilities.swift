import Statecraft

/// What the server tells the client it can do, in answer to `initialize`.
enum Capabilities {
    static func initializeResult(version: String) -> JSON {
        [
            "capabilities": [
                "positionEncoding": "utf-16",
                // 2: incremental; a client may still send whole texts, which are accepted too.
                "textDocumentSync": ["openClose": true, "change": 2],
                "definitionProvider": true,
                "referencesProvider": true,
                "renameProvider": ["prepareProvider": true],
                "hoverProvider": true,
                "completionProvider": ["triggerCharacters": [">", "(", ",", " "]],
                "documentSymbolProvider": true,
                "documentFormattingProvider": true,
                "semanticTokensProvider": [
                    "legend": ["tokenTypes": .array(SemanticTokens.types.map { .string($0) }),
                               "tokenModifiers": .array(SemanticTokens.modifiers.map { .string($0) })],
                    "full": true,
                ],
            ],
            "serverInfo": ["name": "statecraft", "version": .string(version)],
        ]
    }
}
