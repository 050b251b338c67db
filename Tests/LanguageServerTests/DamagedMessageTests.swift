import Foundation
import Statecraft
import StatecraftLanguageServer
import Testing
import TestSupport

/// Damaged messages and damaged framing: the server answers what it can, never fails, and a
/// good request after them is still answered.
@Suite struct DamagedMessageTests {
    /// A session's worth of messages, each as a body.
    static func bodies(_ text: String) -> [[UInt8]] {
        let uri = Session.uri
        let at: JSON = ["textDocument": ["uri": .string(uri)], "position": ["line": 40, "character": 12]]
        let messages: [JSON] = [
            ["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["capabilities": [:]]],
            ["jsonrpc": "2.0", "method": "initialized", "params": [:]],
            ["jsonrpc": "2.0", "method": "textDocument/didOpen", "params": ["textDocument": [
                "uri": .string(uri), "languageId": "statecraft", "version": 1, "text": .string(text)]]],
            ["jsonrpc": "2.0", "method": "textDocument/didChange", "params": [
                "textDocument": ["uri": .string(uri), "version": 2],
                "contentChanges": [["range": ["start": ["line": 3, "character": 0], "end": ["line": 5, "character": 4]],
                                    "text": "x💀\n"]]]],
            ["jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": at],
            ["jsonrpc": "2.0", "id": 3, "method": "textDocument/completion", "params": at],
            ["jsonrpc": "2.0", "id": 4, "method": "textDocument/rename", "params": at.adding("newName", "renamed")],
            ["jsonrpc": "2.0", "id": 5, "method": "textDocument/semanticTokens/full", "params": at],
            ["jsonrpc": "2.0", "id": 6, "method": "textDocument/formatting", "params": at],
        ]
        return messages.map { Array($0.rendered(.compact).utf8) }
    }

    @Test(arguments: 0..<40)
    func damagedBodiesAreAnsweredOrIgnored(_ seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed))
        var server = LanguageServer(version: "test")
        for var body in Self.bodies(Session.spec("PeekRating")) {
            Mutation.damage(&body, using: &rng)
            for reply in server.handle(body) {
                let parsed = try JSONValue.parse(Array(reply.rendered(.compact).utf8))
                #expect(parsed["jsonrpc"]?.stringValue == "2.0")
            }
            _ = server.publishDiagnostics()
            _ = server.publishExploration()
        }
        // Whatever state the damage left, an answer still comes.
        let replies = server.handle(Array(#"{"jsonrpc":"2.0","id":99,"method":"textDocument/hover","params":{}}"#.utf8))
        #expect(replies.count == 1)
    }

    @Test(arguments: 0..<40)
    func damagedFramingLosesAtMostTheDamagedMessages(_ seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        var stream: [UInt8] = []
        let bodies = Self.bodies("machine M { initial state a }")
        for body in bodies { stream += Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body }
        Mutation.damage(&stream, using: &rng)
        var framer = MessageFramer()
        var frames = 0
        var offset = 0
        // In pieces of random sizes, as a pipe delivers them.
        while offset < stream.count {
            let size = Int.random(in: 1...300, using: &rng)
            framer.append(stream[offset..<min(stream.count, offset + size)])
            offset += size
            while framer.next() != nil { frames += 1 }
        }
        #expect(frames <= bodies.count + 3)
        // A good message after the damage comes out whole once the damage is skipped.
        let good = Array("Content-Length: 2\r\n\r\n{}".utf8)
        var recovered = false
        for _ in 0..<4 where !recovered {
            framer.append(good)
            while let frame = framer.next() { if frame == .message(Array("{}".utf8)) { recovered = true } }
        }
        #expect(recovered)
    }
}
