import StatecraftEventLog
import Testing

/// `JSONValue.parse`: a whole document, as the language server reads its messages.
@Suite struct JSONDocumentTests {
    @Test func readsADocumentSpreadOverLines() throws {
        let text = "\r\n {\n  \"jsonrpc\" : \"2.0\",\n\t\"id\": 7 ,\n  \"params\": { \"a\": [ 1 , true , null ] }\n}\n  "
        let value = try JSONValue.parse(Array(text.utf8))
        #expect(value["jsonrpc"]?.stringValue == "2.0")
        #expect(value["id"]?.intValue == 7)
        #expect(value["params"]?["a"] == .array([.number(1), .bool(true), .null]))
    }

    @Test func readsAStringOfAnyLength() throws {
        let long = String(repeating: "state s { on e -> t }\\n\\u00e9\\ud83d\\udc80 ", count: 20_000)
        let value = try JSONValue.parse(Array("{\"text\": \"\(long)\"}".utf8))
        let text = try #require(value["text"]?.stringValue)
        #expect(text.hasPrefix("state s { on e -> t }\né💀 "))
        #expect(text.unicodeScalars.count == 25 * 20_000)
    }

    @Test(arguments: [
        ("{\"a\": 1} x", 9, "the end of the document"),
        ("{\"a\": 1", 7, "',' or '}'"),
        ("", 0, "a value"),
        ("{\"a\": 1, \"a\": 2}", 9, "duplicate"),
    ])
    func rejectsWhatIsNotOneDocument(_ text: String, _ offset: Int, _ words: String) {
        #expect {
            _ = try JSONValue.parse(Array(text.utf8))
        } throws: { error in
            guard let error = error as? JSONSyntaxError else { return false }
            return error.offset == offset && error.message.contains(words)
        }
    }

    @Test func refusesNestingDeeperThanTheLimit() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONSyntaxError.self) { _ = try JSONValue.parse(Array(deep.utf8)) }
    }
}
