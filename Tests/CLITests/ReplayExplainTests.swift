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

    /// A broken property is explained in each format `--explain` writes: in the text after
    /// the case's findings, as a note at the log line where it broke; in JSON as an
    /// explanation of kind `property`; in JSON Lines as a line of its own before the report.
    /// Here a deadline: the note names the line whose step started the wait.
    @Test func aBrokenPropertyIsExplainedInEachFormat() throws {
        let dir = try ReplayCommandTests.folder(["Refresh.machine": ReplayPropertyCommandTests.spec,
                                                 "breaking.jsonl": ReplayPropertyCommandTests.breaking])
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = dir.appendingPathComponent("Refresh.machine").path
        let log = dir.appendingPathComponent("breaking.jsonl").path
        let text = try CLI.run(["replay", "--explain", spec, log])
        #expect(text.status == 1)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.suffix(3) == [
            "\(log):2: error: property 'quick' (spec line 14) violated: after the trigger at t=0, '!in(refreshing)' did not "
                + "hold by the deadline t=1; the clock passed it at t=1.5",
            "\(log):2: note: why property 'quick' (spec line 14) was violated: the step of line 1 triggered it at t=0; "
                + "its deadline t=1 passed at line 2, t=1.5",
            "replayed \(log): 1 case, 1 event (1 applied, 0 ignored, 0 rejected), 1 expectation (0 failed), 1 property violation",
        ])
        let explanation = #"{"kind": "property", "line": 2, "property": "quick", "specLine": 14, "time": 1.5, "#
            + #""configuration": ["refreshing"], "reason": "deadline", "trigger": {"line": 1, "time": 0}, "deadline": 1}"#
        let json = try CLI.run(["replay", "--explain", "--format", "json", spec, log])
        #expect(json.status == 1)
        #expect(json.stdout.contains(#""explanationCount": 1, "explanations": ["# + explanation + "]}"), "\(json.stdout)")
        let jsonl = try CLI.run(["replay", "--explain", "--format", "jsonl", spec, log])
        let objects = jsonl.stdout.split(separator: "\n")
        #expect(objects.count == 2)
        #expect(objects.first.map(String.init) == #"{"log": ""# + log + #"", "case": null, "explanation": "# + explanation + "}")
        #expect(objects.last?.contains(#""explanationCount": 1}"#) == true)
        for object in objects { #expect((try? JSONSerialization.jsonObject(with: Data(object.utf8))) != nil, "\(object)") }
    }

    /// `never` and `always`: the note is followed by each sub-expression that decided it, at
    /// its place in the spec, with the values it read, as a false guard's are.
    @Test func aBrokenAlwaysShowsWhatItRead() throws {
        let spec = """
            machine Counter {
                var count: Number = 0
                const limit = 2
                event tap
                initial state counting {
                    on tap { count += 1 }
                }
                property small: always count < limit || in(done) while in(counting)
                final state done
            }

            """
        let dir = try ReplayCommandTests.folder(["Counter.machine": spec, "taps.jsonl": String(repeating: #"{"event": "tap"}"# + "\n", count: 3)])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("Counter.machine").path
        let log = dir.appendingPathComponent("taps.jsonl").path
        let r = try CLI.run(["replay", "--explain", path, log])
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.contains("note: why property") }, "\(r.stdout)")
        #expect(Array(lines[start...]) == [
            "\(log):2: note: why property 'small' (spec line 8) was violated: the values it read in counting",
            "\(path):8:28: note: 'count < limit' is false: count = 2, limit = 2 (constant)",
            "    property small: always count < limit || in(done) while in(counting)",
            "                           ^~~~~~~~~~~~~",
            "\(path):8:45: note: 'in(done)' is false: in(done) = false",
            "    property small: always count < limit || in(done) while in(counting)",
            "                                            ^~~~~~~~",
            "\(path):8:60: note: 'in(counting)' is true: in(counting) = true",
            "    property small: always count < limit || in(done) while in(counting)",
            "                                                           ^~~~~~~~~~~~",
            "replayed \(log): 1 case, 3 events (3 applied, 0 ignored, 0 rejected), 0 expectations (0 failed), 1 property violation",
            "",
        ], "\(r.stdout)")
    }
}
