import StatecraftDiagnostics
import Testing
@testable import StatecraftSyntax

/// `final state f(code: 200, note: "x")`: the values a final state gives its parent's
/// completion, read as labelled arguments after the state's name.
@Suite struct DoneDataParserTests {
    static func parse(_ text: String) -> (MachineDecl?, [Diagnostic]) {
        let (decl, bag) = Parser.parse(SourceFile(path: "t.machine", text: text))
        return (decl, bag.diagnostics)
    }

    static func finalState(_ decl: MachineDecl?) -> StateDecl? {
        for case .state(let s) in decl?.members ?? [] {
            if let f = s.children.first(where: { $0.modifier(.final) != nil }) { return f }
        }
        return nil
    }

    @Test(arguments: [
        ("final state f(code: 200, note: \"paid\")", ["code: 200", "note: \"paid\""]),
        ("final state f(total: a + b * 2)", ["total: a + b * 2"]),
        ("final state f(x: 1,)", ["x: 1"]),
        ("final state f()", []),
        ("final state f(ok: in(busy)) { entry { n = 1 } }", ["ok: in(busy)"]),
    ])
    func valuesAreReadInOrder(line: String, expected: [String]) throws {
        let text = "machine M {\n    initial state s {\n        initial state a\n        \(line)\n    }\n}\n"
        let (decl, diagnostics) = Self.parse(text)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        let f = try #require(Self.finalState(decl))
        let data = try #require(f.doneData)
        let bytes = Array(text.utf8)
        let written = data.fields.map { field in
            field.name.name + ": " + String(decoding: bytes[field.value.range.start..<field.value.range.end], as: UTF8.self)
        }
        #expect(written == expected)
        // The list's range is its parentheses; the state's range covers it.
        #expect(bytes[data.range.start] == UInt8(ascii: "(") && bytes[data.range.end - 1] == UInt8(ascii: ")"))
        #expect(f.range.end >= data.range.end)
    }

    @Test func aStateWithoutValuesHasNoList() throws {
        let (decl, diagnostics) = Self.parse("machine M {\n    initial state s {\n        initial state a\n        final state f\n    }\n}\n")
        #expect(diagnostics.isEmpty)
        #expect(try #require(Self.finalState(decl)).doneData == nil)
    }

    /// A `(` on the next line is not the state's list (a state body cannot start with one),
    /// and a value needs its label: both are syntax errors at the right place.
    @Test(arguments: [
        ("        final state f(200)\n", "t.machine:4:23", "expected a field name (as in 'final state done(code: 200)'), found number 200"),
        ("        final state f(code 200)\n", "t.machine:4:28", "expected ':' and the field's value after 'code', found number 200"),
        ("        final state f(code: 1\n", "t.machine:4:30", "expected ',' or ')' in the final state's values, found '}'"),
    ])
    func malformedListsAreReported(line: String, at: String, message: String) throws {
        let text = "machine M {\n    initial state s {\n        initial state a\n" + line + "    }\n}\n"
        let file = SourceFile(path: "t.machine", text: text)
        let (_, bag) = Parser.parse(file)
        let first = try #require(bag.diagnostics.first)
        let location = file.location(of: first.range.start)
        #expect("t.machine:\(location.line):\(location.column)" == at)
        #expect(first.message == message)
    }
}
