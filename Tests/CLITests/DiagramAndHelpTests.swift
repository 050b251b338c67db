import Foundation
import Testing
import TestSupport

/// `dot --coverage` over several logs, `help COMMAND`, and counts in the singular. Coverage:
/// the union of what they exercised, counts summed, and
/// the share covered in the graph's title, as real Graphviz draws it.
@Suite struct DiagramAndHelpTests {
    @Test func severalLogsDrawTheUnionWithAPercentage() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-coverage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try CLI.run(["paths", "Specs/PullToRefresh.machine", "--emit", dir.path]).status == 0)
        let logs = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        #expect(logs.count >= 2)
        let one = try CLI.run(["dot", "Specs/PullToRefresh.machine", "--coverage", dir.appendingPathComponent(logs[0]).path])
        #expect(one.stdout.contains("PullToRefresh — covered: transitions "))
        #expect(!one.stdout.contains("transitions 8/8 (100%)"))
        // Every generated log together takes every transition: the union is complete.
        var arguments = ["dot", "Specs/PullToRefresh.machine"]
        for log in logs { arguments += ["--coverage", dir.appendingPathComponent(log).path] }
        let all = try CLI.run(arguments)
        #expect(all.status == 0)
        #expect(all.stdout.contains("graph [label=\"PullToRefresh — covered: transitions 8/8 (100%), states 4/4 (100%)\""))
        #expect(!all.stdout.contains("style=dashed, color=grey55"))
        // Counts are summed: the same log twice doubles every count.
        let once = try CLI.run(["dot", "Specs/PullToRefresh.machine", "--coverage", "Specs/PullToRefresh.session.jsonl"])
        let twice = try CLI.run(["dot", "Specs/PullToRefresh.machine", "--coverage", "Specs/PullToRefresh.session.jsonl",
                                 "--coverage", "Specs/PullToRefresh.session.jsonl"])
        let counts = { (text: String) in text.matches(of: /×(\d+)/).compactMap { Int($0.output.1) } }
        #expect(counts(twice.stdout) == counts(once.stdout).map { $0 * 2 })
        // Real Graphviz draws it, title included.
        try Skip.unless(DiagramCommandTests.graphvizInstalled, "Graphviz is not installed",
                        unlessRequiredBy: "STATECRAFT_REQUIRE_GRAPHVIZ")
        arguments += ["-T", "svg"]
        let svg = try CLI.run(arguments)
        #expect(svg.status == 0)
        #expect(svg.stdout.contains("PullToRefresh — covered: transitions 8/8 (100%), states 4/4 (100%)"))
    }

    @Test func helpTopicAndSingularCounts() throws {
        let help = try CLI.run(["help", "check"])
        #expect(help.status == 0)
        #expect(help.stdout == (try CLI.run(["check", "--help"])).stdout)
        let unknown = try CLI.run(["help", "chek"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown command 'chek'; did you mean 'check'?"))
        let one = try CLI.run(["check", "--witnesses", "Tests/CheckerTests/Fixtures/start-fails.machine"])
        #expect(one.stdout.contains("reachability (1 configuration searched)"))
        let bound = try CLI.run(["check", "--max-configurations", "1", "Specs/Drawer.machine"])
        #expect(bound.stdout.contains("its bound of 1 configuration (raise"))
    }
}
