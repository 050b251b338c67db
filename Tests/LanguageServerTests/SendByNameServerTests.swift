import Statecraft
import Testing
import StatecraftLanguageServer
import TestSupport

/// A send by name in the editor: `send` is coloured as a keyword, its string as a string and the
/// names interpolated in it as what they are; hovering them answers as anywhere else.
@Suite struct SendByNameServerTests {
    static let text = """
        machine Watch {
            event lap
            event next
            var kind: String = "lap"

            initial state running {
                on next { send "\\(kind)" after 1s }
                on lap { kind = "lap" }
            }
        }

        """

    @Test func tokensAndHover() throws {
        var session = Session.open(Self.text)
        let answer = session.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(Session.uri)]])
        let data = try #require(answer.answer["result"]?["data"]?.arrayValue).compactMap { $0.intValue }
        var tokens: [Position: (length: Int, type: Int)] = [:]
        var line = 0
        var character = 0
        for i in stride(from: 0, to: data.count, by: 5) {
            line += data[i]
            character = data[i] == 0 ? character + data[i + 1] : data[i + 1]
            tokens[Position(line: line, character: character)] = (data[i + 2], data[i + 3])
        }
        let send = Session.position(of: "send \"", in: Self.text, shift: 0)
        #expect(tokens[send].map { [$0.length, $0.type] } == [4, 0])
        let head = Session.position(of: "\"\\(kind)", in: Self.text, shift: 0)
        #expect(tokens[head].map(\.type) == 8)
        let kind = Session.position(of: "kind)\" after", in: Self.text, shift: 0)
        #expect(tokens[kind].map { [$0.length, $0.type] } == [4, 5])
        let hover = session.request("textDocument/hover", Session.at("kind)\" after", in: Self.text))
        let contents = hover.answer["result"]?["contents"]?["value"]?.stringValue ?? ""
        #expect(contents.contains("var kind: String"), "\(contents)")
        // No diagnostics beyond the search's (the literal send is known to be sound).
        let published = session.diagnostics().first
        let codes = published?["params"]?["diagnostics"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? []
        #expect(!codes.contains("unknown-event"), "\(codes)")
    }
}
