import Foundation
import Statecraft
import Testing
import TestSupport

/// Hostile input for the whole pipeline: it must always answer with diagnostics, never
/// crash or hang, and every diagnostic must point inside the file.
@Suite struct FuzzTests {
    /// Checks `bytes` and verifies the invariants every result must have.
    @discardableResult
    static func checkInvariants(_ bytes: [UInt8], expectError: Bool = false,
                                sourceLocation: Testing.SourceLocation = #_sourceLocation) -> CheckResult {
        let file = SourceFile(path: "fuzz.machine", bytes: bytes)
        // Small search bounds: the exploration runs on every mutant that resolves, which is
        // fuzzing for it too, and stays quick in a debug build.
        let result = Statecraft.check(file, bounds: ExplorationBounds(maxDepth: 4, maxConfigurations: 40))
        for d in result.diagnostics {
            #expect(d.range.start >= 0 && d.range.start <= bytes.count && d.range.end <= bytes.count,
                    "range out of file: \(d.id.rawValue)", sourceLocation: sourceLocation)
            let at = file.location(of: d.range.start)
            #expect(at.line >= 1 && at.line <= file.lineStarts.count && at.column >= 1, sourceLocation: sourceLocation)
            let text = DiagnosticRenderer().render(d, in: file)
            #expect(text.hasPrefix("fuzz.machine:\(at.line):\(at.column): "), sourceLocation: sourceLocation)
        }
        if expectError {
            #expect(result.errorCount > 0, "expected an error", sourceLocation: sourceLocation)
        }
        #expect(result.diagnostics.count <= 51, sourceLocation: sourceLocation)
        return result
    }

    @Test func randomBytes() {
        var rng = SeededGenerator(seed: 0x5EED)
        for _ in 0..<300 {
            let count = Int.random(in: 0..<2048, using: &rng)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            FuzzTests.checkInvariants(bytes, expectError: true)
        }
    }

    /// Random text built from the language's own tokens: closer to real mistakes than bytes.
    @Test func randomTokenSoup() {
        let pieces = ["machine", "M", "{", "}", "(", ")", "state", "initial", "final", "on", "after", "if", "else",
                      "->", "=", "+=", "==", "&&", "||", "!", "?", ":", ",", ";", "emit", "let", "var", "public",
                      "const", "event", "output", "x", "1", "2s", "\"❤️\"", "true", "\n", " ", "min", "Number",
                      "entry", "exit", "/*", "*/", "//", "\"", "-", "*", "%",
                      "parallel", "history", "deep", "done", "always", "raise", "in", "internal", "h", "done(", "in(x)"]
        var rng = SeededGenerator(seed: 42)
        for _ in 0..<500 {
            let n = Int.random(in: 0..<120, using: &rng)
            let text = (0..<n).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &rng)] }.joined(separator: " ")
            FuzzTests.checkInvariants(Array(text.utf8))
        }
    }

    /// Every prefix of every bundled spec (cut at every 5th byte) gets diagnostics, not a crash;
    /// a cut-off spec is always an error.
    @Test(arguments: Repository.specFiles().map(\.lastPathComponent))
    func truncatedSpecs(name: String) {
        let bytes = Repository.bytes(Repository.specs.appendingPathComponent(name))
        #expect(!bytes.isEmpty)
        let lastBrace = bytes.lastIndex(of: UInt8(ascii: "}")) ?? 0
        for cut in stride(from: 0, to: lastBrace, by: 5) {
            FuzzTests.checkInvariants(Array(bytes[..<cut]), expectError: true)
        }
    }

    /// Bytes flipped, dropped and duplicated in the bundled specs.
    @Test func mutatedSpecs() {
        var rng = SeededGenerator(seed: 7)
        let specs = Repository.specFiles().map(Repository.bytes)
        for _ in 0..<400 {
            var bytes = specs[Int.random(in: 0..<specs.count, using: &rng)]
            Mutation.damage(&bytes, using: &rng)
            FuzzTests.checkInvariants(bytes)
        }
    }

    /// Statecharts with bytes flipped, dropped and duplicated: every mutant is checked, and
    /// each one that still resolves is compiled and run for a while on random events (the
    /// runtime must take whatever the checker lets through).
    @Test func mutatedStatecharts() throws {
        var rng = SeededGenerator(seed: 11)
        var ran = 0
        for seed in 0..<200 as Range<UInt64> {
            var generator = ChartGenerator(seed: seed)
            var bytes = Array(generator.spec().utf8)
            Mutation.damage(&bytes, using: &rng)
            guard let machine = FuzzTests.checkInvariants(bytes).machine, !machine.events.isEmpty else { continue }
            var instance = Instance(Program(machine))
            _ = instance.start()
            for k in 0..<60 {
                instance.advance(to: Double(k) * 0.3)
                let event = machine.events[Int.random(in: 0..<machine.events.count, using: &rng)]
                let payload = event.fields.map { field -> Value in
                    switch field.type {
                    case .number: .number(Double(Int.random(in: -2...3, using: &rng)))
                    case .bool: .bool(Bool.random(using: &rng))
                    case .string: .string("a")
                    }
                }
                _ = instance.send(event.id, payload: payload)
            }
            #expect(instance.configuration.allSatisfy { machine.states.indices.contains($0.index) })
            ran += 1
        }
        #expect(ran > 20, "too few mutants resolved to exercise the runtime")
    }

    /// 2 MB; 1 MB under a sanitizer (`Tests/Sanitizers/test`), which slows the scan tenfold.
    /// A scan that is quadratic or recurses per byte fails at 2 MB as surely as at 10 MB (in
    /// the debug build, 2 MB already take a second a line), and a 10 MB line still goes
    /// through the whole binary in `HostileInputTests`.
    static let longLine = ProcessInfo.processInfo.environment["STATECRAFT_SANITIZER"] == nil ? 2_000_000 : 1_000_000

    /// Lines of megabytes: a name, a string, a comment, a number, spaces.
    @Test(arguments: [
        ("identifier", "machine M { const c = " + String(repeating: "a", count: longLine) + " }"),
        ("unterminated string", "machine M { const c = \"" + String(repeating: "x", count: longLine)),
        ("comment", "machine M { /* " + String(repeating: "z", count: longLine)),
        ("number", "machine M { const c = " + String(repeating: "9", count: longLine) + " }"),
        ("spaces then garbage", "machine M {" + String(repeating: " ", count: longLine) + "@ }"),
    ])
    func megabyteLines(kind: String, text: String) {
        let result = FuzzTests.checkInvariants(Array(text.utf8), expectError: true)
        #expect(result.errorCount >= 1, "\(kind)")
        // The printed source line is cut to a window around the caret.
        if let d = result.diagnostics.first {
            #expect(DiagnosticRenderer().render(d, in: result.file).utf8.count < 2_000, "\(kind)")
        }
    }

    /// A long chain of operators on one line (token-dense; 1 MB keeps the debug build quick).
    @Test func megabyteOperatorChain() {
        let text = "machine M { const c = " + Array(repeating: "1", count: 500_000).joined(separator: "+") + " }"
        let result = FuzzTests.checkInvariants(Array(text.utf8), expectError: true)
        #expect(result.diagnostics.map(\.id) == [.nestingTooDeep])
    }

    @Test(arguments: [
        ("parentheses", String(repeating: "(", count: 10_000)),
        ("braces", String(repeating: "{", count: 10_000)),
        ("states", String(repeating: "state s {", count: 10_000)),
        ("ifs", "state s { on e { " + String(repeating: "if a {", count: 10_000)),
    ])
    func deepUnclosedNesting(kind: String, body: String) {
        let result = FuzzTests.checkInvariants(Array(("machine M { " + body).utf8), expectError: true)
        #expect(result.errorCount >= 1, "\(kind)")
    }

    @Test func controlCharactersAndNULs() {
        let bytes: [UInt8] = Array("machine M {\n".utf8) + [0, 1, 2, 0x1B, 0x7F, 0x0A] + Array("}".utf8)
        let result = FuzzTests.checkInvariants(bytes, expectError: true)
        let text = result.diagnostics.map { DiagnosticRenderer().render($0, in: result.file) }.joined()
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
    }
}
