import Foundation
import Statecraft
import Testing
import TestSupport

/// `statecraft replay` with a spec's properties, as a pipeline sees it: the exit status, the
/// JSON report's violations, and the summary's counts per property, which `merge` adds up.
@Suite struct ReplayPropertyCommandTests {
    /// A refresh that its 2 s timer ends, with a property that promises too much (1 s): a
    /// log still refreshing at 1.5 s breaks it there; one that ends the refresh at 0.5 s
    /// keeps it.
    static let spec = """
        machine Refresh {
            public var inset: Number = 0
            event pull(by: Number)
            event done
            initial state idle {
                on pull if by > 100 -> refreshing
            }
            state refreshing {
                entry { inset = 110 }
                exit { inset -= 110 }
                after 2s -> idle
                on done -> idle
            }
            property quick: after entering refreshing within 1s: !in(refreshing)
            property held: always inset == 110 while in(refreshing)
        }

        """

    static let breaking = """
        {"time": 0, "event": "pull", "by": 120}
        {"time": 1.5, "expect": "refreshing"}

        """
    static let keeping = """
        {"time": 0, "event": "pull", "by": 120}
        {"time": 0.5, "event": "done"}
        {"time": 3, "expect": "idle"}

        """

    @Test func aBrokenPropertyFailsTheReplayAndIsReported() throws {
        let dir = try ReplayCommandTests.folder(["Refresh.machine": Self.spec, "breaking.jsonl": Self.breaking,
                                                 "keeping.jsonl": Self.keeping])
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = dir.appendingPathComponent("Refresh.machine").path
        let kept = try CLI.run(["replay", spec, dir.appendingPathComponent("keeping.jsonl").path])
        #expect(kept.status == 0, "\(kept.stdout)\(kept.stderr)")
        let broken = try CLI.run(["replay", "--format", "json", spec, dir.appendingPathComponent("breaking.jsonl").path])
        #expect(broken.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(broken.stdout.utf8)) as? [String: Any])
        let log = try #require((document["logs"] as? [[String: Any]])?.first)
        let run = try #require((log["cases"] as? [[String: Any]])?.first)
        let violations = try #require(run["propertyViolations"] as? [[String: Any]])
        // The deadline of 1 s passes at the line at 1.5 s (line 2); the spec's line 14.
        #expect(violations.count == 1)
        #expect(violations.first?["property"] as? String == "quick")
        #expect(violations.first?["line"] as? Int == 2)
        #expect(violations.first?["specLine"] as? Int == 14)
        #expect(document["passed"] as? Bool == false)
    }

    /// `replay --help` says what the exit status of a broken property is, and it is that.
    @Test func theHelpsExitStatusCountsABrokenProperty() throws {
        let help = try CLI.run(["replay", "--help"])
        let footer = try #require(help.stdout.components(separatedBy: "\n\n").first { $0.hasPrefix("EXIT STATUS:") })
        let words = footer.replacingOccurrences(of: "\n", with: " ")
        let one = try #require(words.range(of: " 1 ")), two = try #require(words.range(of: " 2 "))
        #expect(words[..<one.lowerBound].contains("no property was broken"), "\(footer)")
        #expect(words[one.upperBound..<two.lowerBound].contains("a property of the spec was broken"), "\(footer)")
        let dir = try ReplayCommandTests.folder(["Refresh.machine": Self.spec, "breaking.jsonl": Self.breaking])
        defer { try? FileManager.default.removeItem(at: dir) }
        // The log's only expectation holds and nothing is rejected: only the property fails it.
        let broken = try CLI.run(["replay", dir.appendingPathComponent("Refresh.machine").path,
                                  dir.appendingPathComponent("breaking.jsonl").path])
        #expect(broken.status == 1 && broken.stdout.contains("1 expectation (0 failed), 1 property violation"), "\(broken.stdout)")
    }

    @Test func summariesCountViolationsPerPropertyAndMergeAddsThem() throws {
        let dir = try ReplayCommandTests.folder(["Refresh.machine": Self.spec, "a.jsonl": Self.breaking,
                                                 "b.jsonl": Self.breaking, "c.jsonl": Self.keeping])
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = dir.appendingPathComponent("Refresh.machine").path
        func summary(_ logs: [String], to name: String) throws -> [String: Any] {
            let r = try CLI.run(["replay", spec] + logs.map { dir.appendingPathComponent($0).path } + ["--summary", "--format", "json"])
            try r.stdout.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            return try #require(document["summary"] as? [String: Any])
        }
        let whole = try summary(["a.jsonl", "b.jsonl", "c.jsonl"], to: "whole.json")
        #expect(whole["propertyViolations"] as? [String: Int] == ["quick": 2], "\(whole)")
        #expect(whole["fittingCases"] as? Int == 1)
        _ = try summary(["a.jsonl"], to: "one.json")
        _ = try summary(["b.jsonl", "c.jsonl"], to: "two.json")
        let merged = try CLI.run(["merge", dir.appendingPathComponent("one.json").path, dir.appendingPathComponent("two.json").path,
                                  "--format", "json"])
        let mergedJSON = try #require(try JSONSerialization.jsonObject(with: Data(merged.stdout.utf8)) as? [String: Any])
        let mergedSummary = try #require(mergedJSON["summary"] as? [String: Any])
        #expect(mergedSummary["propertyViolations"] as? [String: Int] == ["quick": 2], "\(merged.stdout)\(merged.stderr)")
        #expect(mergedSummary["fittingCases"] as? Int == 1)
        // Merged, a summary still says where each broken property is declared.
        let line = try #require(whole["propertyLines"] as? [String: Int])["quick"]
        #expect(line != nil && mergedSummary["propertyLines"] as? [String: Int] == ["quick": line ?? 0])
        let text = try CLI.run(["merge", dir.appendingPathComponent("one.json").path, dir.appendingPathComponent("two.json").path])
        #expect(text.stdout.contains("  properties    quick (line \(line ?? 0)) violated in 2 cases\n"), "\(text.stdout)")
    }
}

/// `check --counterexamples DIR`: each violated property's log, which `replay` reproduces;
/// the folder is refused when it holds a file `check` did not write.
@Suite struct CounterexamplesCommandTests {
    @Test func violatedPropertiesAreWrittenAsLogsThatReplayBreaks() throws {
        let dir = try ReplayCommandTests.folder(["Refresh.machine": ReplayPropertyCommandTests.spec])
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        let spec = dir.appendingPathComponent("Refresh.machine").path
        let out = dir.appendingPathComponent("cx")
        let checked = try CLI.run(["check", "--counterexamples", out.path, spec])
        #expect(checked.status == 1, "\(checked.stdout)\(checked.stderr)")
        // `quick` is violated, `held` proven: one log, named after the property.
        #expect(try fm.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".jsonl") } == ["quick.jsonl"])
        let replayed = try CLI.run(["replay", spec, out.appendingPathComponent("quick.jsonl").path])
        #expect(replayed.status == 1)
        #expect(replayed.stdout.contains("error: property 'quick' (spec line 14) violated"), "\(replayed.stdout)")
        // Written again over its own files, and refused over a file of the user's, which stays.
        #expect(try CLI.run(["check", "--counterexamples", out.path, spec]).status == 1)
        try Data("{}\n".utf8).write(to: out.appendingPathComponent("mine.jsonl"))
        let refused = try CLI.run(["check", "--counterexamples", out.path, spec])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("holds files that 'check' did not write ('mine.jsonl')"), "\(refused.stderr)")
        #expect(fm.fileExists(atPath: out.appendingPathComponent("mine.jsonl").path))
    }
}
