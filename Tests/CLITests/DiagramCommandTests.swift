import Foundation
import Testing
import TestSupport

/// `statecraft dot` and `statecraft mermaid` through the command line (the driver, in process).
@Suite struct DiagramCommandTests {
    static let machines = ["Drawer", "VibrantButton", "PullToRefresh", "PeekRating", "SwipeToDismiss"]
    static let golden = Repository.root.appendingPathComponent("Tests/ExportTests/Golden")
    static var graphvizInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/dot")
        || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/dot") }

    @Test(arguments: DiagramCommandTests.machines)
    func dotAndMermaidPrintTheGoldenDiagrams(machine: String) throws {
        let dot = try CLI.run(["dot", "Specs/\(machine).machine"])
        #expect(dot.status == 0)
        #expect(dot.stdout == (try String(contentsOf: DiagramCommandTests.golden.appendingPathComponent("\(machine).dot"), encoding: .utf8)))
        let mermaid = try CLI.run(["mermaid", "Specs/\(machine).machine"])
        #expect(mermaid.status == 0)
        #expect(mermaid.stdout == (try String(contentsOf: DiagramCommandTests.golden.appendingPathComponent("\(machine).mmd"), encoding: .utf8)))
    }

    @Test func outputFile() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-\(UUID().uuidString).dot")
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try CLI.run(["dot", "Specs/Drawer.machine", "-o", out.path])
        #expect(r.status == 0 && r.stdout.isEmpty)
        #expect(try String(contentsOf: out, encoding: .utf8).hasPrefix("digraph \"Drawer\" {"))
    }

    /// The coverage view's counts are replay's own: they add up to the events applied plus
    /// the timers fired, and the one transition the session never takes is dashed grey (in
    /// the flat version of the spec, where idle's own copy of `endDragging` is never taken).
    @Test func coverageCountsMatchReplay() throws {
        let flat = "Tests/ExportTests/Golden/Flat/PullToRefresh.machine"
        let dot = try CLI.run(["dot", flat, "--coverage", "Specs/PullToRefresh.session.jsonl"])
        #expect(dot.status == 0)
        let counts = dot.stdout.matches(of: /×(\d+)/).compactMap { Int($0.output.1) }
        let replay = try CLI.run(["replay", "--format", "json", flat, "Specs/PullToRefresh.session.jsonl"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(replay.stdout.utf8)) as? [String: Any])
        let c = try #require(((report["logs"] as? [[String: Any]])?.first?["cases"] as? [[String: Any]])?.first)
        let applied = try #require(c["applied"] as? Int)
        let timers = try #require(c["timersFired"] as? Int)
        #expect(counts.reduce(0, +) == applied + timers)
        // Drawn through its label node (refreshing -> idle runs the other way).
        #expect(dot.stdout.contains(#"t2 [shape=plaintext, fontsize=10, width=0, height=0, margin=0.04, label="endDragging [progress >= 1]", fontcolor=grey55]"#))
        #expect(dot.stdout.contains("    s1 -> t2 [arrowhead=none, style=dashed, color=grey55]\n    t2 -> s3 [style=dashed, color=grey55]\n"))
    }

    /// Coverage on a statechart: counts on edges out of clusters (completion included), the
    /// region never entered greyed as a cluster, history states not counted.
    @Test func coverageOnAStatechart() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: log) }
        let lines = [#"{"event": "loaded", "duration": 3}"#, #"{"event": "play"}"#, #"{"event": "interrupt"}"#,
                     #"{"event": "pause"}"#]
        try (lines.joined(separator: "\n") + "\n").write(to: log, atomically: true, encoding: .utf8)
        let dot = try CLI.run(["dot", "Tests/ExportTests/Golden/statechart.machine", "--coverage", log.path])
        #expect(dot.status == 0, "\(dot.stderr)")
        #expect(dot.stdout.contains(#"t0 [shape=plaintext, fontsize=10, width=0, height=0, margin=0.04, label="loaded [duration > 0] ×1"]"#), "\(dot.stdout)")
        #expect(dot.stdout.contains("    s1 -> t0 [arrowhead=none]\n    t0 -> t0b [lhead=cluster_s2]\n"))
        #expect(dot.stdout.contains(#"t1 [shape=plaintext, fontsize=10, width=0, height=0, margin=0.04, label="interrupt ×1"]"#))
        #expect(dot.stdout.contains("    t1a -> t1 [arrowhead=none, ltail=cluster_s2]\n    t1 -> s18\n"))
        #expect(dot.stdout.contains(#"graph [label="summary", style="rounded,filled", fillcolor=grey96, color=grey60, fontcolor=grey45]"#))
        #expect(dot.stdout.contains("states 9/16"), "\(dot.stdout)")
    }

    /// `--depth` and `--state` draw part of the machine; coverage is replayed on the whole
    /// machine and drawn on the part, counts included.
    @Test func partsOfAChartWithCoverage() throws {
        let spec = "Specs/MediaPlayer.machine"
        let log = "Specs/MediaPlayer.session.jsonl"
        let whole = try CLI.run(["dot", spec, "--coverage", log])
        let top = try CLI.run(["dot", spec, "--coverage", log, "--depth", "1"])
        #expect(top.status == 0, "\(top.stderr)")
        #expect(!top.stdout.contains("subgraph"))
        #expect(top.stdout.contains(#"s1 [label="player", style="rounded,bold"]"#), "\(top.stdout)")
        // The title counts the whole machine, as without --depth.
        let title = try #require(whole.stdout.split(separator: "\n").first { $0.contains("covered:") })
        #expect(top.stdout.contains(title))
        let part = try CLI.run(["mermaid", spec, "--state", "sound"])
        #expect(part.status == 0, "\(part.stderr)")
        #expect(part.stdout.hasPrefix("stateDiagram-v2\n    state sound {\n"), "\(part.stdout)")
        #expect(!part.stdout.contains("playing"))
    }

    @Test func checkDrawsFindingsInRed() throws {
        let r = try CLI.run(["dot", "--check", "Tests/CheckerTests/Fixtures/analysis.machine"])
        #expect(r.status == 0)
        let red = r.stdout.split(separator: "\n").filter { $0.contains("color=red") }
        #expect(red.contains { $0.contains("label=\"island\"") })
        #expect(red.contains { $0.contains("label=\"hidden\"") })
        #expect(red.contains { $0.contains("release [enabled]") })
        #expect(red.contains { $0.contains("release [progress > 2]") })
        #expect(red.contains { $0.hasPrefix("    t8 [") && $0.contains("label=\"release\"") }, "the way out of an unreachable state is dead too")
        #expect(red.contains { $0 == "    s4 -> t8 [arrowhead=none, color=red]" })
        // Two states, and three transitions each drawn as a label node and two segments.
        #expect(red.count == 2 + 3 * 3)
    }

    @Test(.enabled(if: DiagramCommandTests.graphvizInstalled)) func rendersSVGThroughGraphviz() throws {
        let r = try CLI.run(["dot", "Specs/PeekRating.machine", "-T", "svg"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("<svg"))
        #expect(r.stdout.contains("commit"))
        #expect(r.stderr.isEmpty)
    }

    @Test func missingGraphvizIsExplained() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let r = try CLI.run(["dot", "Specs/Drawer.machine", "-T", "png"], environment: ["PATH": empty.path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("rendering PNG needs Graphviz's 'dot', which is not on PATH; install Graphviz ('apt-get install graphviz'"))
    }

    @Test(arguments: [
        (["dot"], "Error: missing the SPEC argument"),
        (["dot", "Specs/Drawer.machine", "-T", "gif"], "Error: -T takes 'svg' or 'png', not 'gif'"),
        (["mermaid", "Specs/Drawer.machine", "--check"], "Error: unknown option '--check'"),
        (["dot", "Tests/CheckerTests/Fixtures/names.machine"], "has errors; fix them with 'statecraft check' before drawing it"),
        (["dot", "Specs/Drawer.machine", "--coverage", "Specs/PullToRefresh.session.jsonl"], "unknown state 'idle' in expectation"),
        (["dot", "Specs/Drawer.machine", "--depth", "0"], "Error: --depth takes a number of levels, 1 or more, not '0'"),
        (["mermaid", "Specs/Drawer.machine", "--depth", "two"], "Error: --depth takes a number of levels, 1 or more, not 'two'"),
        (["dot", "Specs/Drawer.machine", "--state", "drawers"], "error: 'Specs/Drawer.machine' has no state named 'drawers'"),
        (["mermaid", "Specs/Drawer.machine", "--state", "Drawer"], "error: 'Specs/Drawer.machine' has no state named 'Drawer'"),
    ])
    func errorsExitTwo(arguments: [String], message: String) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }
}

/// `statecraft check --witnesses` and `statecraft paths` through the binary.
@Suite struct AnalysisCommandTests {
    @Test(arguments: ["Drawer", "VibrantButton", "PullToRefresh", "PeekRating", "SwipeToDismiss"])
    func pathsEmitLogsThatReplayClean(machine: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-paths-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["paths", "Specs/\(machine).machine", "--emit", dir.path])
        #expect(r.status == 0)
        #expect(r.stdout.contains(" targets reached by "))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        #expect(!files.isEmpty)
        for file in files {
            let replay = try CLI.run(["replay", "--strict", "Specs/\(machine).machine", dir.appendingPathComponent(file).path])
            #expect(replay.status == 0, "\(file): \(replay.stdout)")
        }
    }

    @Test func checkWitnessesListsEveryStateAndTransition() throws {
        let r = try CLI.run(["check", "--witnesses", "Tests/CheckerTests/Fixtures/guard-clamp.machine"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("  state refreshing "))
        #expect(r.stdout.contains("reached by pull(offset: -"))
        #expect(r.stdout.contains("unreachable: its guard 'progress > 1' can never hold in 'idle': 'progress' is in [0, 1] there"))
    }

    @Test func checkJSONCarriesTheExploration() throws {
        let r = try CLI.run(["check", "--format", "json", "Tests/CheckerTests/Fixtures/guard-overlap.machine"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let exploration = try #require((object["exploration"] as? [[String: Any]])?.first)
        let states = try #require(exploration["states"] as? [[String: Any]])
        #expect(states.map { $0["status"] as? String } == ["reached", "reached", "reached"])
        #expect((states[1]["witness"] as? [[String: Any]])?.first?["event"] as? String == "drag")
        #expect((exploration["overlaps"] as? [Any])?.count == 1)
        let ids = (object["diagnostics"] as? [[String: Any]])?.map { $0["id"] as? String }
        #expect(ids == ["overlapping-guards"])
    }

    @Test func boundsAreFlags() throws {
        let r = try CLI.run(["check", "--witnesses", "--max-depth", "1", "Tests/CheckerTests/Fixtures/guard-equality.machine"])
        #expect(r.stdout.contains("state four"))
        #expect(r.stdout.contains("witnesses longer than 1 step were not tried (raise it with --max-depth)"))
        #expect(try CLI.run(["check", "--max-depth", "zero", "Specs"]).status == 2)
    }
}
