import Statecraft
import Testing
import StatecraftLanguageServer
import TestSupport

/// A send by name in the editor: `send` is coloured as a keyword, its string as a string and the
/// names interpolated in it as what they are; hovering them answers as anywhere else. A plain
/// literal that spells an event's own name (`send "lap"`) is a reference to that event, which a
/// rename rewrites inside the quotes; one that spells an external name (`send "watch.reset"`),
/// and any other string, is left alone.
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

    static let named = """
        machine Watch {
            event lap
            event reset as "watch.reset"
            event next
            var kind: String = "lap"

            initial state running {
                on next { send "lap" after 1s; send "\\(kind)" }
                on lap { send "reset"; send "watch.reset" after 2s }
                on reset { kind = "lap" }
            }
        }

        """

    /// The start positions of the edits of a rename, in order.
    func renamed(_ session: inout Session, at needle: String, shift: Int, to newName: String) throws -> [Position] {
        let answer = session.request("textDocument/rename", Session.at(needle, in: Self.named, shift: shift).adding("newName", .string(newName)))
        let edits = try #require(answer.answer["result"]?["changes"]?[Session.uri]?.arrayValue, "\(answer.answer)")
        #expect(edits.allSatisfy { $0["newText"]?.stringValue == newName })
        return edits.compactMap { $0["range"]?.start }.sorted { ($0.line, $0.character) < ($1.line, $1.character) }
    }

    @Test func aPlainLiteralNamingAnEventIsAReferenceToIt() throws {
        var session = Session.open(Self.named)
        let answer = session.request("textDocument/references",
                                     Session.at("event lap", in: Self.named, shift: 6).adding("context", ["includeDeclaration": true]))
        let ranges = try #require(answer.answer["result"]?.arrayValue)
        let starts = ranges.compactMap { $0["range"]?.start }
        // The declaration, the characters inside the quotes of `send "lap"`, and `on lap`; not
        // the strings "lap" that are values of `kind`.
        #expect(Set(starts) == [Session.position(of: "event lap", in: Self.named, shift: 6),
                                Session.position(of: "send \"lap\"", in: Self.named, shift: 6),
                                Session.position(of: "on lap", in: Self.named, shift: 3)], "\(ranges)")
        let inside = try #require(ranges.first { $0["range"]?.start == Session.position(of: "send \"lap\"", in: Self.named, shift: 6) })
        #expect(inside["range"]?["end"]?["character"]?.intValue == Session.position(of: "send \"lap\"", in: Self.named, shift: 9).character)
        // Hovering the literal answers with the event.
        let hover = session.request("textDocument/hover", Session.at("send \"lap\"", in: Self.named, shift: 7))
        #expect(hover.answer["result"]?["contents"]?["value"]?.stringValue?.contains("event lap") == true, "\(hover.answer)")
    }

    @Test func renameRewritesTheLiteralThatSpellsTheEventsOwnName() throws {
        var session = Session.open(Self.named)
        #expect(try renamed(&session, at: "event lap", shift: 6, to: "split") == [
            Session.position(of: "event lap", in: Self.named, shift: 6),
            Session.position(of: "send \"lap\"", in: Self.named, shift: 6),
            Session.position(of: "on lap", in: Self.named, shift: 3),
        ])
        // From the literal itself, too.
        #expect(try renamed(&session, at: "send \"lap\"", shift: 7, to: "split").count == 3)
        // An externally named event: `send "reset"` names it by its own name and is renamed;
        // `send "watch.reset"` names it by its external name, which a rename keeps, so it is not.
        #expect(try renamed(&session, at: "event reset", shift: 6, to: "restart") == [
            Session.position(of: "event reset", in: Self.named, shift: 6),
            Session.position(of: "send \"reset\"", in: Self.named, shift: 6),
            Session.position(of: "on reset", in: Self.named, shift: 3),
        ])
    }
}
