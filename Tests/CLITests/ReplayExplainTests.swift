import Foundation
import Testing
import TestSupport

/// `statecraft replay --explain` through the real binary: the text, JSON and JSON Lines forms
/// of the explanations (golden files), and that they read back as JSON. The specs and logs
/// are the runtime tests' (`Tests/RuntimeTests/Golden/Explain`), whose library-level tests
/// check each culprit and value.
@Suite struct ReplayExplainTests {
    static let golden = Repository.root.appendingPathComponent("Tests/CLITests/Golden/explain")
    static let panel = ["Tests/RuntimeTests/Golden/Explain/Panel.machine", "Tests/RuntimeTests/Golden/Explain/panel.jsonl"]
    static let pullToRefresh = ["Specs/PullToRefresh.machine", "Tests/RuntimeTests/Golden/Explain/pull-to-refresh.jsonl"]

    @Test(arguments: [
        (["--explain"], panel, "panel.txt"),
        (["--explain", "--strict"], panel, "panel-strict.txt"),
        (["--explain", "--format", "json"], panel, "panel.json"),
        (["--explain", "--format", "jsonl"], panel, "panel.jsonl"),
        (["--explain"], pullToRefresh, "pull-to-refresh.txt"),
        (["--explain", "--format", "json"], pullToRefresh, "pull-to-refresh.json"),
    ])
    func explanationsAreRendered(options: [String], files: [String], expected: String) throws {
        let r = try CLI.run(["replay"] + options + files)
        #expect(r.status == 1)
        #expect(Golden.compare(r.stdout, to: ReplayExplainTests.golden.appendingPathComponent(expected)) == nil)
    }

    /// Every JSON Lines line is an object: one per explanation (the log, the case, the
    /// explanation), then the log's report, whose case counts them.
    @Test func jsonLinesHaveOneObjectPerExplanation() throws {
        let r = try CLI.run(["replay", "--explain", "--format", "jsonl"] + ReplayExplainTests.panel)
        let objects = try r.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let explanations = objects.compactMap { $0["explanation"] as? [String: Any] }
        #expect(explanations.map { $0["kind"] as? String }
                == ["ignored", "ignored", "rejected", "ignored", "expectation", "expectation", "expectation", "ignored"])
        #expect(objects.dropLast().allSatisfy { $0["log"] as? String == ReplayExplainTests.panel[1] })
        let report = try #require(objects.last?["report"] as? [String: Any])
        let cases = try #require(report["cases"] as? [[String: Any]])
        #expect(cases.first?["explanationCount"] as? Int == explanations.count)
        #expect(cases.first?["explanations"] == nil)
    }

    /// In the JSON document, a culprit carries its 1-based spec range and the values it read.
    @Test func jsonCulpritsHavePositionsAndValues() throws {
        let r = try CLI.run(["replay", "--explain", "--format", "json"] + ReplayExplainTests.pullToRefresh)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let log = try #require((document["logs"] as? [[String: Any]])?.first)
        let c = try #require((log["cases"] as? [[String: Any]])?.first)
        let first = try #require((c["explanations"] as? [[String: Any]])?.first)
        #expect(first["line"] as? Int == 2 && first["event"] as? String == "endDragging")
        let candidate = try #require((first["candidates"] as? [[String: Any]])?.first)
        #expect(candidate["transition"] as? String == "on endDragging if progress >= 1 -> refreshing")
        #expect(candidate["guard"] as? String == "false")
        let culprit = try #require((candidate["culprits"] as? [[String: Any]])?.first)
        #expect(culprit["text"] as? String == "progress >= 1")
        #expect(culprit["line"] as? Int == 28 && culprit["column"] as? Int == 27 && culprit["endColumn"] as? Int == 40)
        let reads = try #require(culprit["reads"] as? [[String: Any]])
        #expect(reads.map { $0["name"] as? String } == ["progress"])
        #expect(reads.map { $0["value"] as? Double } == [0.62])
    }

    /// Without --explain the report has neither explanations nor their count.
    @Test func withoutExplainTheReportIsUnchanged() throws {
        let r = try CLI.run(["replay", "--format", "json"] + ReplayExplainTests.panel)
        #expect(!r.stdout.contains("explanation"))
        let text = try CLI.run(["replay"] + ReplayExplainTests.panel)
        #expect(!text.stdout.contains("why"))
    }
}
