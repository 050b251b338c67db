import Statecraft

/// The Statecraft language server's logic: JSON-RPC messages in, messages out, no I/O.
///
/// `StandardStreams` feeds it the client's messages and writes what it returns; tests drive
/// it in-process the same way. Diagnostics are not computed on each change but when the
/// client has nothing more queued, so a burst of keystrokes is checked once, at its last
/// version, and in two stages: `publishDiagnostics()` sends the quick stage's (everything
/// but the guard-aware search, with the search's earlier findings moved along the edits),
/// then `publishExploration()`, while the client is still quiet, the full check's.
package struct LanguageServer {
    /// Where the session is in the protocol's lifecycle.
    package enum Phase: Sendable, Equatable {
        /// Only `initialize` (and `exit`) are answered.
        case waitingForInitialize
        /// Answering everything.
        case running
        /// After `shutdown`: only `exit` is meaningful.
        case shutDown
    }

    /// Where the session is.
    package private(set) var phase = Phase.waitingForInitialize
    /// Set by `exit`: 0 after `shutdown`, 1 without (as the protocol asks).
    package private(set) var exitStatus: Int32?
    /// How far the guard-aware search goes for diagnostics and hover verdicts.
    let bounds: ExplorationBounds
    /// The version `initialize` reports.
    let version: String
    var documents: [String: Document] = [:]
    /// Documents whose diagnostics are owed to the client, in the order they changed.
    private var stale: [String] = []
    /// Documents whose quick diagnostics were sent and whose full ones are owed.
    private var unexplored: [String] = []
    /// Notifications produced while answering a request (a message for the user).
    var outbox: [JSON] = []

    /// Creates a server; `bounds` as `statecraft check`'s defaults unless given.
    package init(version: String, bounds: ExplorationBounds = ExplorationBounds()) {
        self.version = version
        self.bounds = bounds
    }

    /// Handles one message body as framed by `MessageFramer`; returns the messages to send.
    package mutating func handle(_ body: [UInt8]) -> [JSON] {
        let message: JSONValue
        do {
            message = try JSONValue.parse(body)
        } catch {
            return [LSP.error(id: .null, RequestError(.parseError, "the message is not JSON: \(error.message) at byte \(error.offset)"))]
        }
        return handle(message: message)
    }

    /// Handles one parsed message; returns the messages to send.
    package mutating func handle(message: JSONValue) -> [JSON] {
        guard case .object = message else {
            return [LSP.error(id: .null, RequestError(.invalidRequest, "a message must be a JSON object"))]
        }
        let id = LSP.id(message["id"])
        guard let method = message["method"]?.stringValue else {
            // A response to a request of ours (we send none) or nonsense: a request gets an error.
            if message["id"] != nil, message["result"] == nil, message["error"] == nil {
                return [LSP.error(id: id ?? .null, RequestError(.invalidRequest, "a request needs a 'method' string"))]
            }
            return []
        }
        if message["id"] != nil && id == nil {
            return [LSP.error(id: .null, RequestError(.invalidRequest, "a request id must be a number or a string"))]
        }
        let params = message["params"]
        if method == "exit" {
            exitStatus = phase == .shutDown ? 0 : 1
            return []
        }
        guard let id else {
            notification(method, params)
            return takeOutbox()
        }
        let answer: JSON
        do {
            answer = LSP.response(id: id, result: try request(method, params))
        } catch {
            answer = LSP.error(id: id, error)
        }
        return takeOutbox() + [answer]
    }

    /// The text the server holds for an open document (what the client's edits made of it).
    package func text(of uri: String) -> [UInt8]? { documents[uri]?.text }

    /// An answer to a request the client cancelled before it was handled.
    package static func cancelled(_ id: JSONValue?) -> JSON {
        LSP.error(id: LSP.id(id) ?? .null, RequestError(.requestCancelled, "the request was cancelled"))
    }

    /// The `textDocument/publishDiagnostics` notifications owed since the last call: the
    /// quick stage's diagnostics for each changed document (with the search's findings of
    /// the last full check, moved along the edits), or the full check's when it already ran.
    package mutating func publishDiagnostics() -> [JSON] {
        let uris = stale
        stale = []
        return uris.compactMap { uri in
            guard var document = documents[uri] else { return nil }
            let result = document.quickAnalysis()
            documents[uri] = document
            if document.isExplored {
                unexplored.removeAll { $0 == uri }
                return diagnosticsNotification(document, result.diagnostics)
            }
            if !unexplored.contains(uri) { unexplored.append(uri) }
            let merged = (result.diagnostics + document.carried).enumerated()
                .sorted { ($0.element.range.start, $0.offset) < ($1.element.range.start, $1.offset) }.map(\.element)
            return diagnosticsNotification(document, merged)
        }
    }

    /// Whether a document's full check is owed (`publishExploration()`).
    package var hasUnexploredDocuments: Bool { !unexplored.isEmpty }

    /// Runs the full check (with the guard-aware search) of one document whose quick
    /// diagnostics were sent, and returns its diagnostics.
    package mutating func publishExploration() -> [JSON] {
        while !unexplored.isEmpty {
            let uri = unexplored.removeFirst()
            guard var document = documents[uri] else { continue }
            let result = document.analysis(bounds: bounds)
            documents[uri] = document
            return [diagnosticsNotification(document, result.diagnostics)]
        }
        return []
    }

    /// The open document a request names, and the quick stage's result for its current text
    /// (names, symbols, diagnostics without the search): what most requests need.
    mutating func quickAnalysis(_ params: JSONValue?) throws(RequestError) -> (Document, CheckResult) {
        let uri = try LSP.uri(params)
        guard var document = documents[uri] else {
            throw RequestError(.requestFailed, "\(Document.path(of: uri)) is not open (send textDocument/didOpen first)")
        }
        let result = document.quickAnalysis()
        documents[uri] = document
        return (document, result)
    }

    private mutating func takeOutbox() -> [JSON] {
        defer { outbox = [] }
        return outbox
    }

    private mutating func request(_ method: String, _ params: JSONValue?) throws(RequestError) -> JSON {
        switch phase {
        case .waitingForInitialize:
            guard method == "initialize" else {
                throw RequestError(.serverNotInitialized, "the server is not initialized: send 'initialize' first")
            }
            phase = .running
            return Capabilities.initializeResult(version: version)
        case .shutDown:
            throw RequestError(.invalidRequest, "the server is shut down: only 'exit' is accepted")
        case .running:
            break
        }
        switch method {
        case "initialize": throw RequestError(.invalidRequest, "the server is already initialized")
        case "shutdown":
            phase = .shutDown
            return .null
        case "textDocument/definition": return try definition(params)
        case "textDocument/references": return try references(params)
        case "textDocument/prepareRename": return try prepareRename(params)
        case "textDocument/rename": return try rename(params)
        case "textDocument/hover": return try hover(params)
        case "textDocument/completion": return try completion(params)
        case "textDocument/documentSymbol": return try documentSymbols(params)
        case "textDocument/formatting": return try formatting(params)
        case "textDocument/semanticTokens/full": return try semanticTokens(params)
        default: throw RequestError(.methodNotFound, "unknown method '\(method)'")
        }
    }

    /// Notifications change state and answer nothing; unknown ones (and any before
    /// `initialize`) are ignored, as the protocol asks.
    private mutating func notification(_ method: String, _ params: JSONValue?) {
        guard phase == .running else { return }
        switch method {
        case "textDocument/didOpen":
            guard let item = params?["textDocument"], let uri = item["uri"]?.stringValue,
                  let text = item["text"]?.stringValue else { return }
            documents[uri] = Document(uri: uri, version: item["version"]?.intValue ?? 0, text: Array(text.utf8))
            markStale(uri)
        case "textDocument/didChange":
            guard let uri = params?["textDocument"]?["uri"]?.stringValue, var document = documents[uri],
                  let changes = params?["contentChanges"]?.arrayValue else { return }
            do {
                try document.apply(changes, version: params?["textDocument"]?["version"]?.intValue ?? document.version + 1)
            } catch {
                outbox.append(showMessage(.error, "statecraft: a change to \(Document.path(of: uri)) could not be applied (\(error.message)); reopen the file"))
                return
            }
            documents[uri] = document
            markStale(uri)
        case "textDocument/didClose":
            guard let uri = params?["textDocument"]?["uri"]?.stringValue else { return }
            documents[uri] = nil
            stale.removeAll { $0 == uri }
            unexplored.removeAll { $0 == uri }
            outbox.append(LSP.notification("textDocument/publishDiagnostics", ["uri": .string(uri), "diagnostics": []]))
        case "workspace/didChangeWatchedFiles":
            // A spec deleted on disk that is not open has no diagnostics any more; an open one
            // keeps the editor's text, which is what the user sees.
            for change in params?["changes"]?.arrayValue ?? [] where change["type"]?.intValue == 3 {
                guard let uri = change["uri"]?.stringValue, documents[uri] == nil else { continue }
                outbox.append(LSP.notification("textDocument/publishDiagnostics", ["uri": .string(uri), "diagnostics": []]))
            }
        default:
            break
        }
    }

    private mutating func markStale(_ uri: String) {
        if !stale.contains(uri) { stale.append(uri) }
    }

    /// The open document a request names, and the full check's result for its current text.
    mutating func analysis(_ params: JSONValue?) throws(RequestError) -> (Document, CheckResult) {
        let uri = try LSP.uri(params)
        guard var document = documents[uri] else {
            throw RequestError(.requestFailed, "\(Document.path(of: uri)) is not open (send textDocument/didOpen first)")
        }
        let result = document.analysis(bounds: bounds)
        documents[uri] = document
        return (document, result)
    }

    /// The checker's offset for the request's `position`.
    func offset(_ params: JSONValue?, in document: Document) throws(RequestError) -> Int {
        document.offset(of: try LSP.position(params?["position"]))
    }

    /// The protocol's `MessageType` for `window/showMessage`.
    enum MessageType: Int { case error = 1, warning = 2 }

    func showMessage(_ type: MessageType, _ text: String) -> JSON {
        LSP.notification("window/showMessage", ["type": .integer(type.rawValue), "message": .string(text)])
    }
}
