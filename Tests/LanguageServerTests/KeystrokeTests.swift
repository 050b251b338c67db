import Foundation
import Statecraft
import StatecraftLanguageServer
import Testing
import TestSupport

/// A user typing a spec from an empty file: after every keystroke the server takes the
/// incremental change, publishes diagnostics, and answers at the caret without failing.
@Suite struct KeystrokeTests {
    @Test func typingTheEmojiSpecKeystrokeByKeystroke() throws {
        let text = Session.spec("PeekRating")
        var session = Session.open("")
        _ = session.diagnostics()
        var typed = ""
        var line = 0
        var character = 0
        for (count, ch) in text.enumerated() {
            let at: JSON = ["line": .integer(line), "character": .integer(character)]
            _ = session.notify("textDocument/didChange", [
                "textDocument": ["uri": .string(Session.uri), "version": .integer(count + 2)],
                "contentChanges": [["range": ["start": at, "end": at], "text": .string(String(ch))]],
            ])
            typed.append(ch)
            if ch == "\n" { line += 1; character = 0 } else { character += ch.utf16.count }
            let published = session.diagnostics()
            #expect(published.count == 1)
            guard count % 3 == 0 || ch == "\n" else { continue }
            let caret: JSON = ["textDocument": ["uri": .string(Session.uri)],
                               "position": ["line": .integer(line), "character": .integer(character)]]
            for method in ["textDocument/completion", "textDocument/hover", "textDocument/definition"] {
                let answer = session.request(method, caret).answer
                #expect(answer["error"] == nil, "\(method) after \(count + 1) characters: \(answer)")
            }
        }
        #expect(session.server.text(of: Session.uri) == Array(text.utf8))
        #expect(session.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(Session.uri)]])
            .answer["result"]?.arrayValue?.count == 19)  // 16 declarations and 3 properties
        let last = session.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(Session.uri)]])
        #expect(last.answer["error"] == nil)
    }

    /// Positions a careless client may send: past the end of a line or of the file, inside the
    /// skull emoji's surrogate pair, negative.
    @Test(arguments: [(-1, -1), (0, 10_000), (10_000, 3), (68, 62), (68, 63), (68, 64)])
    func outOfRangePositionsAreClamped(_ line: Int, _ character: Int) {
        var session = Session.open(Session.spec("PeekRating"))
        let caret: JSON = ["textDocument": ["uri": .string(Session.uri)],
                           "position": ["line": .integer(line), "character": .integer(character)]]
        for method in ["textDocument/completion", "textDocument/hover", "textDocument/definition",
                       "textDocument/references", "textDocument/prepareRename"] {
            let answer = session.request(method, caret).answer
            #expect(answer["result"] != nil || answer.errorCode == -32803, "\(method): \(answer)")
        }
        let range: JSON = ["start": ["line": .integer(line), "character": .integer(character)],
                           "end": ["line": .integer(line + 1), "character": .integer(character)]]
        _ = session.notify("textDocument/didChange", ["textDocument": ["uri": .string(Session.uri), "version": 2],
                                                      "contentChanges": [["range": range, "text": "x"]]])
        #expect(session.diagnostics().count == 1)
    }
}
