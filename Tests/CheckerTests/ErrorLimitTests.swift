import Statecraft
import Testing

/// A file with more errors than the limit says so at the end, whatever stage found them.
@Suite struct ErrorLimitTests {
    /// Sixty lines each missing a value: syntax errors, one per line.
    @Test func tooManySyntaxErrorsEndWithTheNote() {
        let lines = (0..<60).map { "    var v\($0): Number =" }.joined(separator: "\n")
        let result = Statecraft.check(source: "machine M {\n\(lines)\n    initial state a\n}\n", bounds: nil)
        #expect(result.diagnostics.filter { $0.severity == .error }.count == 50)
        let note = result.diagnostics.last
        #expect(note?.id == .tooManyErrors)
        #expect(note?.message == "too many errors; stopped after 50")
        // It points at the first error it left out: the 51st line's.
        #expect(note.map { result.file.location(of: $0.range.start).line } == 52)
    }

    /// Sixty type errors: resolution's findings, after a clean parse.
    @Test func tooManyTypeErrorsEndWithTheNote() {
        let lines = (0..<60).map { "    var v\($0): Number = \"x\"" }.joined(separator: "\n")
        let result = Statecraft.check(source: "machine M {\n\(lines)\n    initial state a\n}\n", bounds: nil)
        #expect(result.diagnostics.last?.id == .tooManyErrors)
    }
}
