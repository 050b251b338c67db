import Foundation
import Statecraft
import StatecraftLanguageServer
import Testing
import TestSupport

/// `statecraft lsp` as a process: everything the client writes arrives in one piece and then
/// standard input closes, as when a client writes and dies.
@Suite struct StandardStreamsTests {
    static func frame(_ json: String) -> String { "Content-Length: \(json.utf8.count)\r\n\r\n\(json)" }

    static let initialize = frame(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#)
    static let initialized = frame(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
    static let open = frame(#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///s.machine","languageId":"statecraft","version":1,"text":"machine M {\n    initial state a {\n        on go -> b\n    }\n}\n"}}}"#)

    /// The messages the server wrote, read back through the framer.
    static func messages(_ stdout: String) -> [JSONValue] {
        var framer = MessageFramer()
        framer.append(Array(stdout.utf8))
        var out: [JSONValue] = []
        while let frame = framer.next() {
            if case .message(let body) = frame, let value = try? JSONValue.parse(body) { out.append(value) }
        }
        return out
    }

    @Test func aRequestCancelledBeforeItIsHandledIsAnsweredCancelled() throws {
        let hover = Self.frame(#"{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///s.machine"},"position":{"line":1,"character":20}}}"#)
        let cancel = Self.frame(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}"#)
        let shutdown = Self.frame(#"{"jsonrpc":"2.0","id":3,"method":"shutdown"}"#)
        let exit = Self.frame(#"{"jsonrpc":"2.0","method":"exit"}"#)
        let run = try CLI.launch(["lsp", "--stdio"], input: Self.initialize + Self.initialized + Self.open + hover + cancel
                                  + shutdown + exit)
        #expect(run.exitedNormally && run.status == 0, "\(run.stderr)")
        let messages = Self.messages(run.stdout)
        let answer = try #require(messages.first { $0["id"]?.intValue == 2 })
        #expect(answer.errorCode == -32800)
        #expect(messages.contains { $0["id"]?.intValue == 3 && $0["result"] == .null })
    }

    @Test func aClientThatDiesEndsTheServer() throws {
        // No shutdown, no exit: the input just ends.
        let run = try CLI.launch(["lsp"], input: Self.initialize + Self.initialized + Self.open)
        #expect(run.exitedNormally)
        #expect(run.status == 1)
        let messages = Self.messages(run.stdout)
        let published = try #require(messages.first { $0["method"]?.stringValue == "textDocument/publishDiagnostics" })
        let codes = published["params"]?["diagnostics"]?.arrayValue?.compactMap { $0["code"]?.stringValue }
        #expect(codes == ["unknown-event", "unknown-state"])
    }

    @Test func unreadableMessagesAreAnsweredAndTheSessionGoesOn() throws {
        let input = "Content-Length: many\r\n\r\n" + Self.frame("{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\"") + Self.initialize
            + "Content-Length: 3\r\n\r\n[1,"
        let run = try CLI.launch(["lsp"], input: input)
        #expect(run.exitedNormally && run.status == 1)
        let messages = Self.messages(run.stdout)
        #expect(messages.prefix(2).map(\.errorCode) == [-32700, -32700])
        #expect(messages.dropFirst(2).first?["result"]?["serverInfo"]?["name"]?.stringValue == "statecraft")
    }

    @Test func usage() throws {
        let run = try CLI.launch(["lsp", "extra.machine"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("Error: unexpected argument 'extra.machine'"))
        let help = try CLI.launch(["help", "lsp"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: statecraft lsp"))
    }
}
