import Testing
@testable import StatecraftEventLog

/// RFC 8259 as the reader parses it, through payload values: `{"event":"e","v":<json>}`.
@Suite struct JSONParsingTests {
    @Test(arguments: [
        ("0", 0.0), ("-0", -0.0), ("7", 7), ("-12", -12), ("312.5", 312.5), ("0.1", 0.1), ("1e3", 1000),
        ("1E+3", 1000), ("25e-1", 2.5), ("-0.0e0", -0.0), ("0.000001", 0.000001), ("123456789012345678", 123456789012345678),
        ("1.7976931348623157e308", 1.7976931348623157e308), ("5e-324", Double.leastNonzeroMagnitude), ("1e-999", 0),
        ("9007199254740993", 9007199254740992), ("0.30000000000000004", 0.30000000000000004),
        ("12345678901234567890123456789", 1.2345678901234568e28), ("1e22", 1e22), ("1e23", 1e23),
        ("2.2250738585072011e-308", 2.2250738585072011e-308), ("0e999999999999", 0),
        ("-1.5e+0000000000000000001", -15),
    ])
    func numbers(json: String, expected: Double) throws {
        let parsed = try #require(value(json))
        guard case .number(let n) = parsed else {
            Issue.record("\(json) is not a number: \(parsed)")
            return
        }
        #expect(n == expected)
        #expect(n.sign == expected.sign)
    }

    @Test(arguments: [
        // json, column within json, message
        ("01", 2, "unexpected digit after a leading '0' in a number"),
        ("-01", 3, "unexpected digit after a leading '0' in a number"),
        ("-", 2, "expected a digit after '-', found '}'"),
        ("-x", 2, "expected a digit after '-', found 'x'"),
        ("+1", 1, "expected a value, found '+'"),
        ("1.", 3, "expected a digit after '.', found '}'"),
        (".5", 1, "expected a value, found '.'"),
        ("1e", 3, "expected a digit in the exponent, found '}'"),
        ("1e+", 4, "expected a digit in the exponent, found '}'"),
        ("1.5.3", 4, "expected ',' or '}', found '.'"),
        ("1e999", 1, "number '1e999' is out of range for a double"),
        ("-1e400", 1, "number '-1e400' is out of range for a double"),
        ("[1, 2e308]", 5, "number '2e308' is out of range for a double"),
        ("NaN", 1, "expected a value, found 'NaN'"),
        ("Infinity", 1, "expected a value, found 'Infinity'"),
        ("0x10", 2, "expected ',' or '}', found 'x10'"),
    ])
    func badNumbers(json: String, column: Int, message: String) throws {
        let e = try #require(valueError(json))
        #expect(e.message == message)
        #expect(e.column == column)
    }

    @Test(arguments: [
        (#""""#, ""), (#""plain""#, "plain"), (#""a\"b""#, "a\"b"), (#""a\\b""#, "a\\b"), (#""a\/b""#, "a/b"),
        (#""\b\f\n\r\t""#, "\u{8}\u{C}\n\r\t"), (#""\u0041\u00e9\u20AC""#, "Aé€"), (#""\u0000""#, "\u{0}"),
        (#""\uD83D\uDE00""#, "😀"), (#""\ud83d\ude00x""#, "😀x"), (#""é💀❤️""#, "é💀❤️"),
        (#""x\u002Fy\n""#, "x/y\n"), (#""\uDBFF\uDFFF""#, "\u{10FFFF}"), (#""\uFFFF""#, "\u{FFFF}"),
    ])
    func strings(json: String, expected: String) {
        #expect(value(json) == .string(expected))
    }

    @Test(arguments: [
        // The closing brace after the value is then inside the string.
        (#""abc"#, 6, "expected '\"' to end the string, found end of line"),
        (#""a\"#, 4, "expected an escape character after '\\', found '}'"),
        (#""\q""#, 3, "expected an escape character after '\\', found 'q'"),
        (#""\x41""#, 3, "expected an escape character after '\\', found 'x41'"),
        (#""\u12""#, 6, "expected 4 hex digits after '\\u', found '\"'"),
        (#""\u12G4""#, 6, "expected 4 hex digits after '\\u', found 'G4'"),
        (#""\uD800""#, 2, "unpaired surrogate '\\uD800' in a string"),
        (#""\uD800x""#, 2, "unpaired surrogate '\\uD800' in a string"),
        (#""\uD800\u0041""#, 2, "unpaired surrogate '\\uD800' in a string"),
        (#""\uD800\uD800""#, 2, "unpaired surrogate '\\uD800' in a string"),
        (#""\uDC00""#, 2, "unpaired surrogate '\\uDC00' in a string"),
        (#""ab\uDE00\uD83D""#, 4, "unpaired surrogate '\\uDE00' in a string"),
        ("\"a\tb\"", 3, "unescaped control character U+0009 in a string"),
        ("\"a\u{1}\"", 3, "unescaped control character U+0001 in a string"),
        ("'a'", 1, "expected a value, found U+0027"),
    ])
    func badStrings(json: String, column: Int, message: String) throws {
        let e = try #require(valueError(json))
        #expect(e.message == message)
        #expect(e.column == column)
    }

    @Test func linesEndingInsideAString() {
        #expect(error(#"{"event":"a\"#)?.message == "expected an escape character after '\\', found end of line")
        #expect(error(#"{"event":"a\"#)?.column == 13)
        #expect(error(#"{"event":"a"#)?.message == "expected '\"' to end the string, found end of line")
        #expect(error(#"{"event":"a"#)?.column == 12)
        #expect(error(#"{"event":"a\u00"#)?.column == 16)
        #expect(error(#"{"event":"\uD834\uDD"#)?.message == "expected 4 hex digits after '\\u', found end of line")
    }

    @Test func literalsArraysAndObjects() {
        #expect(value("true") == .bool(true))
        #expect(value("false") == .bool(false))
        #expect(value("null") == .null)
        #expect(value("[]") == .array([]))
        #expect(value("{}") == .object([]))
        #expect(value(#"[1, "a", [true, null], {"k": []}]"#) == .array([
            .number(1), .string("a"), .array([.bool(true), .null]),
            .object([JSONMember(key: "k", value: .array([]), keyOffset: 41, valueOffset: 46)]),
        ]))
    }

    @Test(arguments: [
        ("tru", 1, "expected a value, found 'tru'"),
        ("True", 1, "expected a value, found 'True'"),
        ("truex", 1, "expected a value, found 'truex'"),
        ("nul", 1, "expected a value, found 'nul'"),
        ("[1,]", 4, "expected a value, found ']'"),
        ("[1 2]", 4, "expected ',' or ']', found '2'"),
        ("[", 2, "expected a value, found '}'"),
        (#"{"a" 1}"#, 6, "expected ':' after the key, found '1'"),
        (#"{"a":1,}"#, 8, "expected a string key, found '}'"),
        (#"{a:1}"#, 2, "expected a string key, found 'a'"),
        (#"{"a":1 "b":2}"#, 8, "expected ',' or '}', found '\"'"),
        ("", 1, "expected a value, found '}'"),
        ("\u{FEFF}1", 1, "expected a value, found U+FEFF"),
        ("é", 1, "expected a value, found 'é'"),
    ])
    func badStructure(json: String, column: Int, message: String) throws {
        let e = try #require(valueError(json))
        #expect(e.message == message)
        #expect(e.column == column)
    }

    @Test func whitespaceEverywhere() throws {
        let line = " \t{ \"event\" \r: \t\"e\" , \"v\"\t:\r[ 1 ,\t{ \"k\" : null } ] , \"time\" : 2 }\t \r"
        let r = try #require(record(line))
        #expect(r.time == 2)
        #expect(r.body == .event(name: "e", nameOffset: 16, payload: [
            JSONMember(key: "v", value: .array([.number(1), .object([
                JSONMember(key: "k", value: .null, keyOffset: 36, valueOffset: 42),
            ])]), keyOffset: 22, valueOffset: 28),
        ]))
    }

    @Test func nestingIsBoundedWithAnError() throws {
        // The line's object is level 1 and `v` level 2, so 127 brackets fit and 128 do not.
        let deepest = String(repeating: "[", count: 127) + String(repeating: "]", count: 127)
        #expect(value(deepest) != nil)
        let tooDeep = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
        let e = try #require(valueError(tooDeep))
        #expect(e.message == "nesting deeper than 128 levels")
        #expect(e.column == 128)
        // Far deeper input is refused just the same, without exhausting the stack.
        let hostile = String(repeating: #"{"a":["#, count: 100_000)
        #expect(valueError(hostile)?.message == "nesting deeper than 128 levels")
        let vars = #"{"expect":{"vars":"# + String(repeating: "[", count: 200) + "}}"
        #expect(error(vars)?.message == "nesting deeper than 128 levels")
    }

    @Test func invalidUTF8IsAnErrorAtThatByte() throws {
        let prefix = Array(#"{"event":"a"#.utf8)
        for bad: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80], [0x80]] {
            let line = prefix + bad + Array(#"b"}"#.utf8)
            let e = try #require(error(bytes: line))
            #expect(e.message == "invalid UTF-8 byte 0x" + LogMessage.hex(UInt32(bad[0]), width: 2))
            #expect(e.column == 12)
            #expect(e.text == line)
        }
        // Outside strings too, and in the middle of a later value.
        #expect(error(bytes: Array(#"{"event":"e"} "#.utf8) + [0xFE])?.message == "invalid UTF-8 byte 0xFE")
        #expect(error(bytes: [0xFF] + Array(#"{"event":"e"}"#.utf8))?.column == 1)
        let inKey = Array(#"{"event":"e","é"#.utf8) + [0xFF] + Array(#"":1}"#.utf8)
        #expect(error(bytes: inKey)?.column == 16)
    }

    @Test func manyKeysStillFindDuplicates() throws {
        let keys = (0..<100).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        #expect(payload(#"{"event":"e","# + keys + "}")?.count == 100)
        let e = try #require(error(#"{"event":"e","# + keys + #","k57":0}"#))
        #expect(e.message == "duplicate key 'k57'")
        let nested = try #require(valueError("{" + keys + #","k3":0}"#))
        #expect(nested.message == "duplicate key 'k3'")
    }

    @Test func keysCompareAsCodePointsNotCanonicalEquivalents() {
        // "é" precomposed and "e" + combining acute are different JSON keys.
        #expect(payload(#"{"event":"e","\u00e9":1,"e\u0301":2}"#)?.count == 2)
    }
}
