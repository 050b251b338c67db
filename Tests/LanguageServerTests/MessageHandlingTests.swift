import Foundation
import Statecraft
import StatecraftLanguageServer
import Testing
import TestSupport

/// The server driven in-process, message by message, as a client would.
@Suite struct MessageHandlingTests {
    static let overlap = """
        machine M {
            event tap(x: Number)
            initial state a {
                on tap if x > 1 -> b
                on tap if x > 2 && x < 5 -> c
            }
            final state b
            state c {}
        }

        """

    @Test func requestsBeforeInitializeAreRefusedAndNotificationsIgnored() {
        var session = Session()
        #expect(session.request("textDocument/hover", [:]).answer.errorCode == -32002)
        #expect(session.notify("textDocument/didOpen", ["textDocument": ["uri": "file:///a", "version": 1, "text": "x"]]).isEmpty)
        let (answer, _) = session.request("initialize", ["capabilities": [:]])
        #expect(answer["result"]?["capabilities"]?["textDocumentSync"]?["change"]?.intValue == 2)
        #expect(answer["result"]?["capabilities"]?["positionEncoding"]?.stringValue == "utf-16")
        #expect(session.diagnostics().isEmpty, "the document opened before initialize is not known")
        #expect(session.request("initialize", ["capabilities": [:]]).answer.errorCode == -32600)
    }

    @Test func shutdownThenExitEndsWithZeroAndLaterRequestsAreInvalid() {
        var session = Session.open("machine M { initial state a }")
        #expect(session.request("shutdown").answer["result"] == .null)
        #expect(session.request("textDocument/hover", Session.at("a", in: "")).answer.errorCode == -32600)
        #expect(session.server.exitStatus == nil)
        _ = session.notify("exit")
        #expect(session.server.exitStatus == 0)
    }

    @Test func exitWithoutShutdownEndsWithOne() {
        var session = Session.open("machine M { initial state a }")
        _ = session.notify("exit")
        #expect(session.server.exitStatus == 1)
    }

    @Test func unknownMethodsAndGarbage() {
        var session = Session.open("machine M { initial state a }")
        #expect(session.request("textDocument/colorPresentation", [:]).answer.errorCode == -32601)
        #expect(session.notify("$/somethingNew", [:]).isEmpty)
        let garbage = session.server.handle(Array("{\"jsonrpc\": \"2.0\", \"id\": 1, ".utf8))
        #expect(garbage.count == 1)
        #expect(garbage.first?.rendered(.compact).contains("-32700") == true)
        #expect(session.server.handle(Array("[1, 2]".utf8)).first?.rendered(.compact).contains("-32600") == true)
        #expect(session.request("textDocument/definition", ["textDocument": ["uri": "file:///nowhere"],
                                                           "position": ["line": 0, "character": 0]]).answer.errorCode == -32803)
        #expect(session.request("textDocument/definition", ["textDocument": ["uri": .string(Session.uri)]]).answer.errorCode == -32602)
    }

    @Test func diagnosticsAppearWithTheirIdsAndWitnessesThenClear() throws {
        var session = Session.open(Self.overlap)
        let published = try #require(session.diagnostics().first)
        #expect(published["method"]?.stringValue == "textDocument/publishDiagnostics")
        let diagnostics = try #require(published["params"]?["diagnostics"]?.arrayValue)
        let codes = diagnostics.compactMap { $0["code"]?.stringValue }
        #expect(codes == Statecraft.check(source: Self.overlap).diagnostics.map(\.id.rawValue))
        let overlap = try #require(diagnostics.first { $0["code"]?.stringValue == "overlapping-guards" })
        #expect(overlap["range"]?.start == Position(line: 4, character: 8))
        #expect(overlap["severity"]?.intValue == 2)
        let related = overlap["relatedInformation"]?.arrayValue ?? []
        #expect(related.contains { $0["message"]?.stringValue?.hasPrefix("both guards hold for tap(x: ") == true })
        #expect(session.diagnostics().isEmpty, "nothing changed, nothing is published again")
        // Fixed: the second guard no longer overlaps, and c can be reached.
        let fixed = Self.overlap.replacingOccurrences(of: "x > 2 && x < 5", with: "x <= 1")
            .replacingOccurrences(of: "state c {}", with: "final state c")
        _ = session.notify("textDocument/didChange", ["textDocument": ["uri": .string(Session.uri), "version": 2],
                                                      "contentChanges": [["text": .string(fixed)]]])
        let cleared = try #require(session.diagnostics().first)
        #expect(cleared["params"]?["diagnostics"]?.arrayValue == [])
        #expect(cleared["params"]?["version"]?.intValue == 2)
    }

    @Test func incrementalChangesAfterAnEmojiLandWhereTheClientMeant() throws {
        let text = Session.spec("PeekRating")
        var session = Session.open(text)
        _ = session.diagnostics()
        // Replace the `""` after the skull on the rating line with `"none"`, by positions in
        // UTF-16 units: the skull is two of them.
        let afterSkull = Session.position(of: "\"💀\") : \"\"", in: text, shift: 8)
        let range: JSON = ["start": ["line": .integer(afterSkull.line), "character": .integer(afterSkull.character)],
                           "end": ["line": .integer(afterSkull.line), "character": .integer(afterSkull.character + 2)]]
        _ = session.notify("textDocument/didChange", ["textDocument": ["uri": .string(Session.uri), "version": 2],
                                                      "contentChanges": [["range": range, "text": "\"none\""]]])
        let expected = text.replacingOccurrences(of: "(y < cellMidY ? \"❤️\" : \"💀\") : \"\"\n                if",
                                                 with: "(y < cellMidY ? \"❤️\" : \"💀\") : \"none\"\n                if")
        #expect(expected != text)
        #expect(session.server.text(of: Session.uri) == Array(expected.utf8))
        let formatted = session.request("textDocument/formatting", ["textDocument": ["uri": .string(Session.uri)],
                                                                    "options": ["tabSize": 4, "insertSpaces": true]])
        // The spec is formatted, so the edited text is what the server holds if it has no edits.
        #expect(formatted.answer["result"]?.arrayValue == [])
        let hover = session.request("textDocument/hover", Session.at("\"none\"", in: expected))
        #expect(hover.answer["result"] == .null)
        let published = try #require(session.diagnostics().first)
        // Nothing but the spec's properties: "none" is no label, so a rating may now be none of them.
        let codes = published["params"]?["diagnostics"]?.arrayValue?.map { $0["code"]?.stringValue }
        #expect(codes == ["property-proven", "property-proven", "property-violated"])
    }

    @Test func definitionReferencesAndRenameOnTheEmojiSpec() throws {
        let text = Session.spec("PeekRating")
        var session = Session.open(text)
        // `cellMidY` on the line after the emoji comment line and on lines with emoji.
        let definition = session.request("textDocument/definition", Session.at("cellMidY ? \"❤️\"", in: text, shift: 3))
        let location = try #require(definition.answer["result"]?.arrayValue?.first)
        #expect(location["range"]?.start == Session.position(of: "cellMidY: Number", in: text))
        var params = Session.at("cellMidY: Number", in: text)
        if case .object(var object) = params { object["context"] = ["includeDeclaration": true]; params = .object(object) }
        let references = try #require(session.request("textDocument/references", params).answer["result"]?.arrayValue)
        #expect(references.count == 4)
        let rename = session.request("textDocument/rename", Session.at("state idle", in: text, shift: 6).adding("newName", "resting"))
        let edits = try #require(rename.answer["result"]?["changes"]?[Session.uri]?.arrayValue)
        #expect(edits.count == 4)  // the declaration, two targets, `in(idle)` in a property
        #expect(edits.allSatisfy { $0["newText"]?.stringValue == "resting" })
        let collision = session.request("textDocument/rename", Session.at("state idle", in: text, shift: 6).adding("newName", "commit"))
        #expect(collision.answer.errorCode == -32803)
        #expect(collision.answer["error"]?["message"]?.stringValue
                == "cannot rename 'idle' to 'commit': a state named 'commit' is already declared at line 62")
        let prepare = session.request("textDocument/prepareRename", Session.at("state idle", in: text, shift: 8))
        #expect(prepare.answer["result"]?["placeholder"]?.stringValue == "idle")
    }

    @Test func hoverShowsDeclarationsStatesAndVerdicts() throws {
        var session = Session.open(Self.overlap)
        let state = session.request("textDocument/hover", Session.at("state a", in: Self.overlap, shift: 6))
        let stateText = try #require(state.answer["result"]?["contents"]?["value"]?.stringValue)
        #expect(stateText.contains("initial state a"))
        #expect(stateText.contains("**Out** (2)"))
        #expect(stateText.contains("- `on tap` → `b` (line 4)"))
        let field = session.request("textDocument/hover", Session.at("x > 1", in: Self.overlap))
        #expect(field.answer["result"]?["contents"]?["value"]?.stringValue?.contains("x: Number (a field of event tap)") == true)
        let dead = session.request("textDocument/hover", Session.at("on tap if x > 2", in: Self.overlap))
        let verdict = try #require(dead.answer["result"]?["contents"]?["value"]?.stringValue)
        #expect(verdict.contains("**Unreachable** (proven)"), "\(verdict)")
        let live = session.request("textDocument/hover", Session.at("on tap if x > 1", in: Self.overlap))
        #expect(live.answer["result"]?["contents"]?["value"]?.stringValue?.contains("**Reachable**: tap(x: ") == true)
    }

    @Test func completionDependsOnWhatComesBefore() throws {
        func labels(_ text: String, after needle: String) -> [String] {
            var session = Session.open(text)
            let answer = session.request("textDocument/completion", Session.at(needle, in: text, shift: needle.utf16.count))
            return answer.answer["result"]?["items"]?.arrayValue?.compactMap { $0["label"]?.stringValue } ?? []
        }
        let text = Session.spec("PeekRating")
        let halfTyped = text.replacingOccurrences(of: "on cancel -> idle", with: "on cancel -> ")
        #expect(labels(halfTyped, after: "on cancel -> ") == ["idle", "pressing", "preview", "commit"])
        let onEvent = text.replacingOccurrences(of: "on cancel -> idle", with: "on ")
        #expect(labels(onEvent, after: "        on ") == ["pressBegan", "previewUpdate", "commitUpdate", "cancel"])
        let emit = text.replacingOccurrences(of: "emit rated(rating)", with: "emit ")
        #expect(labels(emit, after: "{ emit ") == ["rated"])
        let expression = text.replacingOccurrences(of: "if rating != \"\" {", with: "if ra")
        let values = labels(expression, after: "if ra")
        #expect(values.contains("cellMidY") && values.contains("progress") && values.contains("insideCell"))
        #expect(!values.contains("cellHeight"), "pressBegan's fields are not in scope on commitUpdate")
        #expect(!values.contains("idle"))
        #expect(labels(text.replacingOccurrences(of: "var cellMinX: Number", with: "var cellMinX: "), after: "var cellMinX: ")
                == ["Number", "Bool", "String"])
        let conditional = text.replacingOccurrences(of: "(y < cellMidY ? \"❤️\" : \"💀\")", with: "(y < cellMidY ? 1 : ")
        #expect(labels(conditional, after: "cellMidY ? 1 : ").contains("cellMidY"))
        #expect(labels(text, after: "// previewInteractionDidC").isEmpty, "nothing inside a comment")
    }

    @Test func documentSymbolsAreTheStateTree() throws {
        let text = Session.spec("PeekRating")
        var session = Session.open(text)
        let symbols = try #require(session.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(Session.uri)]])
            .answer["result"]?.arrayValue)
        let pressing = try #require(symbols.first { $0["name"]?.stringValue == "pressing" })
        #expect(pressing["children"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["preview", "commit"])
        let event = try #require(symbols.first { $0["name"]?.stringValue == "commitUpdate" })
        #expect(event["children"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["progress", "ended", "x", "y"])
        #expect(!symbols.contains { $0["name"]?.stringValue == "preview" })
    }

    @Test func formattingRewritesTheLayoutAndRefusesSyntaxErrors() throws {
        var session = Session.open("machine M {\n  initial state a { on go -> a }\n      event go\n}\n")
        let answer = session.request("textDocument/formatting", ["textDocument": ["uri": .string(Session.uri)],
                                                                 "options": ["tabSize": 4, "insertSpaces": true]])
        let edit = try #require(answer.answer["result"]?.arrayValue?.first)
        #expect(edit["newText"]?.stringValue == SpecFormatter.format(source: "machine M {\n  initial state a { on go -> a }\n      event go\n}\n"))
        #expect(edit["range"]?["end"]?["line"]?.intValue == 4)
        var broken = Session.open("machine M {\n  initial state a { on -> }\n")
        let refused = broken.request("textDocument/formatting", ["textDocument": ["uri": .string(Session.uri)],
                                                                 "options": ["tabSize": 4, "insertSpaces": true]])
        #expect(refused.answer["result"]?.arrayValue == [])
        #expect(refused.before.first?["method"]?.stringValue == "window/showMessage")
    }

    @Test func semanticTokensClassifyNamesAfterAnEmoji() throws {
        let text = Session.spec("PeekRating")
        var session = Session.open(text)
        let answer = session.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(Session.uri)]])
        let data = try #require(answer.answer["result"]?["data"]?.arrayValue).compactMap { $0.intValue }
        #expect(data.count % 5 == 0)
        // Decode to absolute positions.
        var tokens: [Position: (length: Int, type: Int, modifiers: Int)] = [:]
        var line = 0
        var character = 0
        for i in stride(from: 0, to: data.count, by: 5) {
            line += data[i]
            character = data[i] == 0 ? character + data[i + 1] : data[i + 1]
            tokens[Position(line: line, character: character)] = (data[i + 2], data[i + 3], data[i + 4])
        }
        // `cellMidY` on a line after two emoji strings, a variable; the comment with emoji.
        let use = Session.position(of: "cellMidY ? \"❤️\"", in: text, shift: 0)
        #expect(tokens[use].map { $0.type } == 5)
        let skull = Session.position(of: "\"💀\") : \"\"", in: text)
        #expect(tokens[skull].map { $0.length } == 4)
        let declaration = Session.position(of: "state commit", in: text, shift: 6)
        #expect(tokens[declaration].map { [$0.length, $0.type, $0.modifiers] } == [6, 2, 1])
    }
}

extension JSON {
    /// The object with one more member.
    func adding(_ key: String, _ value: JSON) -> JSON {
        guard case .object(var object) = self else { return self }
        object[key] = value
        return .object(object)
    }
}

/// Diagnostics in two stages: the quick one at once, the search's findings after it, and an
/// edit elsewhere keeps those findings (moved) until the search has run again.
@Suite struct StagedDiagnosticsTests {
    static func codes(_ message: JSONValue?) -> [String] {
        message?["params"]?["diagnostics"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? []
    }

    @Test func theSearchsFindingsFollowTheQuickStageAndSurviveAnEditElsewhere() throws {
        let text = MessageHandlingTests.overlap
        var session = Session.open(text)
        let quick = session.quickDiagnostics()
        #expect(Self.codes(quick.first) == ["dead-end-state"] || !Self.codes(quick.first).contains("overlapping-guards"))
        #expect(session.server.hasUnexploredDocuments)
        let full = session.server.publishExploration()
        let fullCodes = Self.codes(try JSONValue.parse(Array(try #require(full.first).rendered(.compact).utf8)))
        #expect(fullCodes == Statecraft.check(source: text).diagnostics.map(\.id.rawValue))
        #expect(fullCodes.contains("overlapping-guards"))
        // A new line typed at the top: the quick stage keeps the search's findings, a line lower.
        _ = session.notify("textDocument/didChange", ["textDocument": ["uri": .string(Session.uri), "version": 2],
                                                      "contentChanges": [["range": ["start": ["line": 0, "character": 0],
                                                                                    "end": ["line": 0, "character": 0]],
                                                                          "text": "// a comment\n"]]])
        let moved = try #require(session.quickDiagnostics().first)
        #expect(Self.codes(moved).sorted() == fullCodes.sorted(), "the same findings (at one position the order may differ)")
        let overlap = try #require(moved["params"]?["diagnostics"]?.arrayValue?.first { $0["code"]?.stringValue == "overlapping-guards" })
        #expect(overlap["range"]?.start == Position(line: 5, character: 8))
        #expect(overlap["relatedInformation"]?.arrayValue?.first?["location"]?["range"]?.start == Position(line: 4, character: 8))
        // Typing inside the overlapping transition drops its finding until the search says again.
        _ = session.notify("textDocument/didChange", ["textDocument": ["uri": .string(Session.uri), "version": 3],
                                                      "contentChanges": [["range": ["start": ["line": 5, "character": 8],
                                                                                    "end": ["line": 5, "character": 10]],
                                                                          "text": "on"]]])
        #expect(!Self.codes(session.quickDiagnostics().first).contains("overlapping-guards"))
        #expect(Self.codes(session.diagnostics().first) == fullCodes)
    }
}
