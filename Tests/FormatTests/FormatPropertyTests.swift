import Foundation
import Statecraft
import Testing
import TestSupport

/// What formatting promises, on every spec of the repository: it changes the layout and
/// nothing else, and formatting formatted text changes nothing.
@Suite struct FormatPropertyTests {
    @Test func thereAreSpecsToFormat() {
        #expect(FormatSupport.specPaths.count >= 50)
        #expect(FormatSupport.specPaths.contains("Specs/Drawer.machine"))
    }

    /// A spec that parses is formatted; formatting the result again gives it back unchanged.
    @Test(arguments: FormatSupport.specPaths)
    func formattingIsIdempotent(path: String) throws {
        let file = FormatSupport.file(path)
        guard FormatSupport.parses(file) else {
            #expect(SpecFormatter.format(file).output == nil, "a spec with syntax errors must be refused")
            return
        }
        let once = FormatSupport.format(file)
        let formatted = try #require(once.text, "\(once.problem ?? "")")
        let twice = FormatSupport.format(formatted)
        #expect(twice.text?.bytes == formatted.bytes, "formatting twice differs from once")
    }

    /// The formatted text has the same tokens (but `;` and trailing commas) and comments, in
    /// the same order, resolves to the same machine and gives the same diagnostics at the
    /// same tokens.
    @Test(arguments: FormatSupport.specPaths)
    func formattingKeepsWhatTheSpecSays(path: String) throws {
        let file = FormatSupport.file(path)
        guard FormatSupport.parses(file), let formatted = FormatSupport.format(file).text else { return }
        let input = SpecFormatter.format(file).source
        #expect(SpecFormatter.significantTokens(of: formatted) == SpecFormatter.significantTokens(of: input))
        #expect(SpecFormatter.commentTexts(of: formatted) == SpecFormatter.commentTexts(of: input))
        #expect(FormatSupport.model(formatted) == FormatSupport.model(input))
        #expect(FormatSupport.diagnostics(formatted) == FormatSupport.diagnostics(input))
    }

    /// The analysis' findings too (the search runs on the bundled specs only: it is slow).
    @Test(arguments: Repository.specFiles().map { "Specs/" + $0.lastPathComponent })
    func bundledSpecsReportTheSameAfterFormatting(path: String) throws {
        let file = FormatSupport.file(path)
        let formatted = try #require(FormatSupport.format(file).text)
        #expect(FormatSupport.diagnostics(formatted, bounds: ExplorationBounds())
                == FormatSupport.diagnostics(file, bounds: ExplorationBounds()))
    }

    /// The house style is the formatter's: every bundled spec is already formatted (CI runs
    /// `statecraft fmt --check Specs` too).
    @Test(arguments: Repository.specFiles().map { "Specs/" + $0.lastPathComponent })
    func bundledSpecsAreFormatted(path: String) throws {
        let file = FormatSupport.file(path)
        let result = SpecFormatter.format(file)
        let output = try #require(result.output)
        if output != file.bytes {
            Issue.record(Comment(rawValue: UnifiedDiff.diff(String(decoding: file.bytes, as: UTF8.self),
                                                            String(decoding: output, as: UTF8.self),
                                                            oldName: path, newName: path + " (formatted)")))
        }
    }

    /// Line breaks, tabs and spaces of any kind in, the canonical layout out: the same
    /// spec written with CRLF line ends, tabs and no spaces formats like the plain one.
    @Test func whitespaceOfAnyKindGivesOneLayout() throws {
        let plain = "machine M {\n    var x: Number = 0                   // count\n    event e\n    initial state s {\n        on e if x < 1 -> s { x += 1 }\n    }\n}\n"
        let crlf = plain.replacingOccurrences(of: "\n", with: "\r\n").replacingOccurrences(of: "    ", with: "\t")
        let squeezed = "machine M{var x:Number=0// count\nevent e\ninitial state s{on e if x<1->s{x+=1}}}"
        #expect(SpecFormatter.format(source: plain) == plain)
        #expect(SpecFormatter.format(source: crlf) == plain)
        #expect(SpecFormatter.format(source: squeezed) == plain)
    }

    /// A byte order mark stays; the rest is formatted as without it.
    @Test func aByteOrderMarkIsKept() throws {
        let text = "machine M {\n  initial state s\n}\n"
        let result = SpecFormatter.format(SourceFile(path: "m.machine", bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8)))
        let output = try #require(result.output)
        #expect(output == [0xEF, 0xBB, 0xBF] + Array("machine M {\n    initial state s\n}\n".utf8))
    }

    /// A file with syntax errors is refused with the parser's diagnostics, unchanged.
    @Test func syntaxErrorsAreRefusedWithTheirDiagnostics() throws {
        let result = SpecFormatter.format(SourceFile(path: "bad.machine", text: "machine M {\n    state s { on e -> }\n}\n"))
        guard case .syntaxErrors(let diagnostics) = result.outcome else {
            Issue.record("expected syntax errors, got \(result.outcome)")
            return
        }
        #expect(diagnostics.map(\.message) == ["expected target state name, found '}'"])
        #expect(result.output == nil)
    }
}
