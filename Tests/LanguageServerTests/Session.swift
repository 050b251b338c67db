import Foundation
import Statecraft
import StatecraftLanguageServer
import TestSupport

/// A client driving a `LanguageServer` in-process: messages go in as JSON text, answers come
/// back parsed, so tests read them as a client would.
struct Session {
    var server = LanguageServer(version: "test")
    var nextID = 1

    /// Sends one message body; returns everything the server wrote, read back as JSON.
    mutating func send(_ message: JSON) -> [JSONValue] {
        parse(server.handle(Array(message.rendered(.compact).utf8)))
    }

    /// Sends a request and returns its answer (the last message), and anything before it.
    mutating func request(_ method: String, _ params: JSON = .null) -> (answer: JSONValue, before: [JSONValue]) {
        let id = nextID
        nextID += 1
        var out = send(["jsonrpc": "2.0", "id": .integer(id), "method": .string(method), "params": params])
        let answer = out.removeLast()
        return (answer, out)
    }

    mutating func notify(_ method: String, _ params: JSON = .null) -> [JSONValue] {
        send(["jsonrpc": "2.0", "method": .string(method), "params": params])
    }

    /// The diagnostics the server publishes when the client is idle: both stages, the last
    /// message for a document being the full check's.
    mutating func diagnostics() -> [JSONValue] {
        var out = server.publishDiagnostics()
        while server.hasUnexploredDocuments { out += server.publishExploration() }
        var last: [String: JSON] = [:]
        var order: [String] = []
        for message in out {
            let uri = (try? JSONValue.parse(Array(message.rendered(.compact).utf8)))?["params"]?["uri"]?.stringValue ?? ""
            if last[uri] == nil { order.append(uri) }
            last[uri] = message
        }
        return parse(order.compactMap { last[$0] })
    }

    /// Only the quick stage's diagnostics.
    mutating func quickDiagnostics() -> [JSONValue] { parse(server.publishDiagnostics()) }

    /// A session past `initialize` and `initialized`, with `text` open at `uri`.
    static func open(_ text: String, uri: String = Session.uri) -> Session {
        var session = Session()
        _ = session.request("initialize", ["processId": .null, "rootUri": .null, "capabilities": [:]])
        _ = session.notify("initialized", [:])
        _ = session.notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "statecraft",
                                                                      "version": 1, "text": .string(text)]])
        return session
    }

    static let uri = "file:///tmp/Spec%20One.machine"

    static func spec(_ name: String) -> String {
        String(decoding: Repository.bytes(Repository.specs.appendingPathComponent(name + ".machine")), as: UTF8.self)
    }

    /// `{"textDocument": {"uri": …}, "position": {…}}` at the first `needle` (plus `shift`
    /// UTF-16 units), positions counted as a client counts them.
    static func at(_ needle: String, in text: String, shift: Int = 0, uri: String = Session.uri) -> JSON {
        let position = Session.position(of: needle, in: text, shift: shift)
        return ["textDocument": ["uri": .string(uri)],
                "position": ["line": .integer(position.line), "character": .integer(position.character)]]
    }

    static func position(of needle: String, in text: String, shift: Int = 0) -> Position {
        guard let range = text.range(of: needle) else { return Position(line: -1, character: -1) }
        let before = text[..<range.lowerBound]
        let line = before.filter { $0 == "\n" }.count
        let lineStart = before.lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
        return Position(line: line, character: text[lineStart..<range.lowerBound].utf16.count + shift)
    }

    private func parse(_ messages: [JSON]) -> [JSONValue] {
        messages.compactMap { try? JSONValue.parse(Array($0.rendered(.compact).utf8)) }
    }
}

extension JSONValue {
    /// The range's start as a position.
    var start: Position? {
        guard let line = self["start"]?["line"]?.intValue, let character = self["start"]?["character"]?.intValue else { return nil }
        return Position(line: line, character: character)
    }

    var errorCode: Int? { self["error"]?["code"]?.intValue }
}
