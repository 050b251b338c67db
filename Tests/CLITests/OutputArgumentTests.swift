import Foundation
import Testing
import TestSupport

/// Expectations that compare an output's arguments, as replay applies them.
@Suite struct OutputArgumentReplayTests {
    /// The PeekRating session up to the line that expects `rated`, with that expectation
    /// replaced by `outputs`.
    static func log(expecting outputs: String) -> String {
        let lines = String(decoding: Repository.bytes(Repository.specs.appendingPathComponent("PeekRating.session.jsonl")), as: UTF8.self)
            .split(separator: "\n").prefix(16)
        return lines.joined(separator: "\n") + "\n{\"expect\": {\"outputs\": \(outputs)}}\n"
    }

    @Test func argumentsAreCompared() throws {
        let right = try CLI.run(["replay", "Specs/PeekRating.machine"],
                                input: OutputArgumentReplayTests.log(expecting: #"[{"name": "rated", "args": ["❤️"]}]"#))
        #expect(right.status == 0, "\(right.stdout)")
        let wrong = try CLI.run(["replay", "Specs/PeekRating.machine"],
                                input: OutputArgumentReplayTests.log(expecting: #"[{"name": "rated", "args": ["💀"]}]"#))
        #expect(wrong.status == 1)
        #expect(wrong.stdout.contains("<stdin>:17:51: error: expected outputs [rated(\"💀\")], found [rated(\"❤️\")] [expectation-failed]"))
        // A bare name still compares the name only.
        let name = try CLI.run(["replay", "Specs/PeekRating.machine"], input: OutputArgumentReplayTests.log(expecting: #"["rated"]"#))
        #expect(name.status == 0)
    }

    /// An output without fields is spelled `"name"` on both sides of a mismatch, not
    /// `"hidden"` expected and `hidden()` found (issue 31).
    @Test func anOutputWithoutFieldsIsSpelledOneWay() throws {
        let spec = try AnalysisVerdictTests.spec("""
            machine Bar {
                output hidden
                output rated(stars: Number)
                event rate(stars: Number)
                initial state shown {
                    on rate { emit hidden; emit rated(stars) }
                }
            }
            """)
        let log = #"""
            {"event": "rate", "stars": 3}
            {"expect": {"outputs": ["hidden", {"name": "rated", "args": [4]}]}}
            """# + "\n"
        let r = try CLI.run(["replay", spec], input: log)
        #expect(r.status == 1)
        #expect(r.stdout.contains(#"error: expected outputs ["hidden", rated(4)], found ["hidden", rated(3)] [expectation-failed]"#),
                "\(r.stdout)")
    }

    @Test func argumentsMustFitTheOutput() throws {
        let count = try CLI.run(["replay", "Specs/PeekRating.machine"],
                                input: OutputArgumentReplayTests.log(expecting: #"[{"name": "rated", "args": []}]"#))
        #expect(count.status == 2)
        #expect(count.stdout.contains("<stdin>:17:51: error: output 'rated' takes 1 argument, but the expectation gives 0 [malformed-log-line]"))
        let type = try CLI.run(["replay", "Specs/PeekRating.machine"],
                               input: OutputArgumentReplayTests.log(expecting: #"[{"name": "rated", "args": [1]}]"#))
        #expect(type.status == 2)
        #expect(type.stdout.contains("<stdin>:17:52: error: argument 'rating' of 'rated' is a String, but the expectation gives the number 1"))
    }

    /// Numbers are equal within 1e-9, as in `vars`.
    @Test func numbersAreComparedWithinTolerance() throws {
        let log = """
            {"event": "tap"}
            {"expect": {"outputs": [{"name": "didTap", "args": [0.0000000001]}]}}
            {"event": "tap"}
            {"expect": {"outputs": [{"name": "didTap", "args": [1]}]}}

            """
        let r = try CLI.run(["replay", "Specs/VibrantButton.machine"], input: log)
        #expect(r.status == 1)
        #expect(r.stdout.contains("expectations  2 checked, 1 failed"))
        #expect(r.stdout.contains("<stdin>:4:"))
    }
}
