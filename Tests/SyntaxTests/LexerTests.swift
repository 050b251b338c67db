import StatecraftDiagnostics
import Testing
@testable import StatecraftSyntax

private func lex(_ text: String) -> (kinds: [TokenKind], texts: [String], diagnostics: [Diagnostic]) {
    let file = SourceFile(path: "t.machine", text: text)
    let (tokens, bag) = Lexer.tokenize(file)
    let texts = tokens.map { String(decoding: file.bytes[$0.range.start..<$0.range.end], as: UTF8.self) }
    return (tokens.map(\.kind), texts, bag.diagnostics)
}

@Suite struct LexerTests {
    @Test func keywordsIdentifiersAndPunctuation() {
        let result = lex("initial state idle { on tap if x >= 1 && !y -> busy }")
        #expect(result.kinds == [.kwInitial, .kwState, .identifier, .lBrace, .kwOn, .identifier, .kwIf,
                                 .identifier, .greaterEqual, .number, .ampAmp, .bang, .identifier, .arrow,
                                 .identifier, .rBrace, .endOfFile])
        #expect(result.diagnostics.isEmpty)
    }

    @Test func everyOperator() {
        let result = lex("+ - * / % = += -= *= /= == != < <= > >= && || ! ? : , ; ( ) { } ->")
        #expect(result.kinds == [.plus, .minus, .star, .slash, .percent, .assign, .plusAssign, .minusAssign,
                                 .starAssign, .slashAssign, .equalEqual, .bangEqual, .less, .lessEqual, .greater,
                                 .greaterEqual, .ampAmp, .pipePipe, .bang, .question, .colon, .comma, .semicolon,
                                 .lParen, .rParen, .lBrace, .rBrace, .arrow, .endOfFile])
    }

    @Test(arguments: [
        ("667", 667.0), ("0.7", 0.7), ("1e3", 1000.0), ("2.5E-1", 0.25), ("2s", 2.0), ("300ms", 0.3),
        ("1.5s", 1.5), ("007", 7.0),
    ])
    func numbers(text: String, value: Double) {
        let result = lex(text)
        #expect(result.kinds == [.number, .endOfFile])
        #expect(Lexer.numberValue(ArraySlice(text.utf8)) == value)
    }

    @Test func stringsDecodeEscapesAndKeepUTF8() {
        let source = #""tab\t\"q\" \\ \u{1F480} ❤️""#
        let result = lex(source)
        #expect(result.kinds == [.string, .endOfFile])
        #expect(Lexer.stringValue(ArraySlice(source.utf8)) == "tab\t\"q\" \\ 💀 ❤️")
        #expect(result.diagnostics.isEmpty)
    }

    @Test func commentsNestAndAreSkipped() {
        let result = lex("a // line comment\n/* outer /* inner */ still */ b")
        #expect(result.texts == ["a", "b", ""])
    }

    @Test func tokensKnowWhetherTheyStartALine() {
        let file = SourceFile(path: "t", text: "a b\n  c /* x\n */ d")
        let (tokens, _) = Lexer.tokenize(file)
        #expect(tokens.map(\.startsLine) == [true, false, true, true, true])
    }

    @Test(arguments: [
        ("\"open", DiagnosticID.unterminatedString, 1),
        ("/* open", .unterminatedComment, 1),
        ("2min", .invalidNumber, 2),
        ("3.", .invalidNumber, 1),
        ("1e999", .invalidNumber, 1),
        ("\"\\q\"", .invalidEscape, 2),
        ("\"\\u{D800}\"", .invalidEscape, 2),
        ("@", .invalidCharacter, 1),
        ("café", .invalidCharacter, 4),
        ("a & b", .invalidCharacter, 3),
    ])
    func lexicalErrors(text: String, id: DiagnosticID, column: Int) {
        let file = SourceFile(path: "t", text: text)
        let (tokens, bag) = Lexer.tokenize(file)
        #expect(bag.diagnostics.map(\.id) == [id])
        #expect(bag.diagnostics.first.map { file.location(of: $0.range.start).column } == column)
        #expect(tokens.last?.kind == .endOfFile)
    }

    @Test func invalidUTF8IsReportedOncePerLine() {
        let file = SourceFile(path: "t", bytes: Array("a ".utf8) + [0xFF, 0xFE, 0x80] + Array(" b\n".utf8) + [0xC3, 0x28])
        let (tokens, bag) = Lexer.tokenize(file)
        #expect(bag.diagnostics.map(\.id) == [.invalidUTF8, .invalidUTF8])
        #expect(bag.diagnostics.map { file.location(of: $0.range.start) } ==
                [SourceLocation(line: 1, column: 3), SourceLocation(line: 2, column: 1)])
        #expect(tokens.map(\.kind).contains(.identifier))
    }

    @Test func columnsCountUnicodeScalarsNotBytes() {
        // ❤️ is two scalars (U+2764 U+FE0F); 💀 is one, four bytes long.
        let file = SourceFile(path: "t", text: "\"💀❤️\" x\n\té y")
        #expect(file.location(of: Array("\"💀❤️\" ".utf8).count) == SourceLocation(line: 1, column: 7))
        #expect(file.location(of: file.lineStarts[1] + 4) == SourceLocation(line: 2, column: 4))
    }
}
