import StatecraftDiagnostics
import StatecraftEventLog

/// JSON-RPC and LSP error codes the server answers with.
package enum ErrorCode: Int, Sendable {
    case parseError = -32700
    case invalidRequest = -32600
    case methodNotFound = -32601
    case invalidParams = -32602
    case internalError = -32603
    /// A request came before `initialize`.
    case serverNotInitialized = -32002
    /// The client cancelled a request before it was answered.
    case requestCancelled = -32800
    /// The request was understood but cannot be done (a rename that collides).
    case requestFailed = -32803
}

/// An error answer to a request.
struct RequestError: Error, Sendable {
    var code: ErrorCode
    var message: String

    init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    static func invalidParams(_ what: String) -> RequestError {
        RequestError(.invalidParams, "missing or invalid \(what)")
    }
}

/// Building and reading the protocol's JSON.
enum LSP {
    /// A JSON-RPC response.
    static func response(id: JSON, result: JSON) -> JSON {
        ["jsonrpc": "2.0", "id": id, "result": result]
    }

    /// A JSON-RPC error response.
    static func error(id: JSON, _ error: RequestError) -> JSON {
        ["jsonrpc": "2.0", "id": id, "error": ["code": .integer(error.code.rawValue), "message": .string(error.message)]]
    }

    /// A notification from the server.
    static func notification(_ method: String, _ params: JSON) -> JSON {
        ["jsonrpc": "2.0", "method": .string(method), "params": params]
    }

    static func position(_ p: Position) -> JSON {
        ["line": .integer(p.line), "character": .integer(p.character)]
    }

    static func range(_ r: (start: Position, end: Position)) -> JSON {
        ["start": position(r.start), "end": position(r.end)]
    }

    /// A request id as the client sent it (a number or a string), to echo back.
    static func id(_ value: JSONValue?) -> JSON? {
        switch value {
        case .number(let n) where n.rounded() == n && abs(n) < 9.0e15: .integer(Int(n))
        case .number(let n): .number(n)
        case .string(let s): .string(s)
        default: nil
        }
    }

    /// `{"line": …, "character": …}` from a client.
    static func position(_ value: JSONValue?) throws(RequestError) -> Position {
        guard let line = value?["line"]?.intValue, let character = value?["character"]?.intValue else {
            throw .invalidParams("position")
        }
        return Position(line: line, character: character)
    }

    /// The document a request is about.
    static func uri(_ params: JSONValue?) throws(RequestError) -> String {
        guard let uri = params?["textDocument"]?["uri"]?.stringValue else { throw .invalidParams("textDocument.uri") }
        return uri
    }
}
