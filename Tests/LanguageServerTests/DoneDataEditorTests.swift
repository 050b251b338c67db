import Foundation
import Statecraft
import StatecraftLanguageServer
import Testing

/// The values of final states in the editor: a field is a field where it is given and where a
/// `done` reads it (semantic tokens, hover, completion), a rename changes every final state's
/// label with the reads, a variable used in a value is found there, and errors sit at their column.
@Suite struct DoneDataEditorTests {
    static let text = """
        machine M {
            var total: Number = 0
            event go
            event stop
            initial state payment {
                initial state charging {
                    on go -> paid
                    on stop -> refused
                }
                final state paid(code: 200, sum: total)
                final state refused(code: 402, sum: 0)
                done if code == 200 -> over { total = sum }
            }
            state over { on go -> payment }
        }

        """

    func tokens(_ session: inout Session) throws -> [Position: Int] {
        let answer = session.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(Session.uri)]])
        let data = try #require(answer.answer["result"]?["data"]?.arrayValue).compactMap { $0.intValue }
        var tokens: [Position: Int] = [:]
        var line = 0
        var character = 0
        for i in stride(from: 0, to: data.count, by: 5) {
            line += data[i]
            character = data[i] == 0 ? character + data[i + 1] : data[i + 1]
            tokens[Position(line: line, character: character)] = data[i + 3]
        }
        return tokens
    }

    @Test func fieldsAreFieldsWhereGivenAndRead() throws {
        var session = Session.open(Self.text)
        let tokens = try tokens(&session)
        #expect(tokens[Session.position(of: "code: 200", in: Self.text)] == 6)
        #expect(tokens[Session.position(of: "code == 200", in: Self.text)] == 6)
        #expect(tokens[Session.position(of: "sum }", in: Self.text)] == 6)
        #expect(tokens[Session.position(of: "total)", in: Self.text)] == 5, "a variable in a value is a variable")
        let hover = session.request("textDocument/hover", Session.at("code == 200", in: Self.text))
        let value = try #require(hover.answer["result"]?["contents"]?["value"]?.stringValue)
        #expect(value.contains("code: 200 (a field of the completion of payment, given by final state paid)"), "\(value)")
    }

    @Test func renameChangesEveryFinalStateAndTheReads() throws {
        var session = Session.open(Self.text)
        let rename = session.request("textDocument/rename", Session.at("code: 402", in: Self.text).adding("newName", "status"))
        let edits = try #require(rename.answer["result"]?["changes"]?[Session.uri]?.arrayValue)
        let lines = edits.compactMap { $0["range"]?["start"]?["line"]?.intValue }.sorted()
        #expect(lines == [9, 10, 11], "\(edits)")
        // A variable used only in a value is renamed there too.
        let variable = session.request("textDocument/rename", Session.at("var total", in: Self.text, shift: 4).adding("newName", "charged"))
        let changed = try #require(variable.answer["result"]?["changes"]?[Session.uri]?.arrayValue)
        #expect(changed.compactMap { $0["range"]?["start"]?["line"]?.intValue }.sorted() == [1, 9, 11])
    }

    @Test func completionInADoneOffersItsFields() throws {
        var session = Session.open(Self.text)
        let answer = session.request("textDocument/completion", Session.at("sum }", in: Self.text))
        let items = try #require(answer.answer["result"]?["items"]?.arrayValue ?? answer.answer["result"]?.arrayValue)
        let labels = items.compactMap { $0["label"]?.stringValue }
        #expect(labels.contains("code") && labels.contains("sum") && labels.contains("total"), "\(labels)")
    }

    @Test func errorsSitAtTheirColumn() throws {
        let text = Self.text.replacingOccurrences(of: "refused(code: 402, sum: 0)", with: "refused(code: \"no\", sum: 0)")
        var session = Session.open(text)
        let published = try #require(session.diagnostics().first)
        let diagnostics = try #require(published["params"]?["diagnostics"]?.arrayValue)
        let mismatch = try #require(diagnostics.first { $0["code"]?.stringValue == "done-data-mismatch" })
        #expect(mismatch["range"]?["start"]?["line"]?.intValue == 10)
        #expect(mismatch["range"]?["start"]?["character"]?.intValue == 28)
    }
}
