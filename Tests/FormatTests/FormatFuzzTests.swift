import Foundation
import Statecraft
import Testing
import TestSupport

/// Damaged specs (the checker's fuzz mutations): whatever still parses is formatted without
/// losing or reordering a token or a comment, idempotently, to the same machine; whatever
/// does not parse is refused with exactly the parser's diagnostics.
@Suite struct FormatFuzzTests {
    static func verify(_ bytes: [UInt8], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let file = SourceFile(path: "fuzz.machine", bytes: bytes)
        let result = SpecFormatter.format(file)
        let parsed = Parser.parse(result.source)
        switch result.outcome {
        case .syntaxErrors(let diagnostics):
            #expect(parsed.diagnostics.hasErrors, sourceLocation: sourceLocation)
            #expect(diagnostics == parsed.diagnostics.sorted, sourceLocation: sourceLocation)
        case .failed(let offset, let message):
            Issue.record("the formatter failed at \(offset): \(message)\n\(String(decoding: bytes, as: UTF8.self))",
                         sourceLocation: sourceLocation)
        case .formatted(let output):
            #expect(!parsed.diagnostics.hasErrors, sourceLocation: sourceLocation)
            let formatted = SourceFile(path: "fuzz.machine", bytes: output)
            #expect(SpecFormatter.significantTokens(of: formatted) == SpecFormatter.significantTokens(of: result.source),
                    "a token was lost or moved", sourceLocation: sourceLocation)
            #expect(SpecFormatter.commentTexts(of: formatted) == SpecFormatter.commentTexts(of: result.source),
                    "a comment was lost or moved", sourceLocation: sourceLocation)
            #expect(SpecFormatter.format(formatted).output == output, "formatting twice differs from once",
                    sourceLocation: sourceLocation)
            #expect(FormatSupport.model(formatted) == FormatSupport.model(result.source), "another machine",
                    sourceLocation: sourceLocation)
        }
    }

    /// Bytes flipped, dropped and duplicated in the bundled specs and the checker's fixtures.
    @Test func mutatedSpecsAndFixtures() {
        var rng = SeededGenerator(seed: 0xF0F0)
        let sources = FormatSupport.specPaths.filter { $0.hasPrefix("Specs/") || $0.contains("CheckerTests/Fixtures") }
            .map { FormatSupport.file($0).bytes }
        var formatted = 0
        for _ in 0..<600 {
            var bytes = sources[Int.random(in: 0..<sources.count, using: &rng)]
            Mutation.damage(&bytes, using: &rng)
            FormatFuzzTests.verify(bytes)
            if SpecFormatter.format(SourceFile(path: "fuzz.machine", bytes: bytes)).output != nil { formatted += 1 }
        }
        // Most single edits land in comments, names or numbers and still parse: the test
        // must exercise the formatter, not only its refusal.
        #expect(formatted > 150)
    }

    /// Random statecharts, all the forms, laid out by a generator with its own spacing.
    @Test func randomStatecharts() {
        for seed in 0..<60 {
            var generator = ChartGenerator(seed: UInt64(seed))
            FormatFuzzTests.verify(Array(generator.spec().utf8))
        }
    }

    /// Comments dropped between two tokens of a spec, then formatted: every comment comes out
    /// between the same two tokens. The gaps take a block comment and a line comment in turn
    /// (a line comment is a line break, refused where one is not allowed), so both kinds land
    /// in every kind of gap across the spec.
    ///
    /// Each run tries every third gap, half a minute of CPU rather than a minute and a half:
    /// the two specs repeat each kind of gap many times, so the third still reaches the kinds
    /// with both comments. The nightly run (.ci/deep) tries every gap
    /// (`STATECRAFT_COMMENT_GAPS=1`); under a sanitizer, every fourth is enough for what it
    /// looks for (memory and threads).
    @Test(arguments: ["Specs/MediaPlayer.machine", "Specs/PeekRating.machine"])
    func commentsBetweenEveryTwoTokens(path: String) {
        let file = FormatSupport.file(path)
        let tokens = Lexer.tokenize(file).tokens
        let environment = ProcessInfo.processInfo.environment
        let step = environment["STATECRAFT_COMMENT_GAPS"].flatMap(Int.init).map { max(1, $0) }
            ?? (environment["STATECRAFT_SANITIZER"] == nil ? 3 : 4)
        for (index, token) in tokens.enumerated() where index > 0 && index % step == 0 && token.kind != .endOfFile {
            let comment = (index / step) % 2 == 0 ? "/* c\(index) */" : "// c\(index)\n"
            var bytes = file.bytes
            bytes.insert(contentsOf: Array(" \(comment) ".utf8), at: token.range.start)
            // Where a line comment is not allowed, the spec does not parse and is refused,
            // which `verify` checks too.
            FormatFuzzTests.verify(bytes)
        }
    }
}
