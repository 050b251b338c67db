import Foundation
import Statecraft
import Testing
import TestSupport

/// The example workflow (`Tests/Workflows/specs.yml`, which the ContinuousIntegration
/// article quotes) works: each step that runs statecraft is run here, with the built binary
/// for `.build/release/statecraft`, in a folder laid out like the repository; what it writes
/// is what the upload and publish steps read.
@Suite struct WorkflowExampleTests {
    static let workflow = "Tests/Workflows/specs.yml"

    /// The `run:` scripts of a workflow, in order (one line, or a `|` block).
    static func runSteps(_ yaml: String) -> [String] {
        var steps: [String] = []
        let lines = yaml.components(separatedBy: "\n")
        var i = 0
        while i < lines.count {
            let line = lines[i]
            i += 1
            guard let run = line.range(of: "run: ") else { continue }
            let value = String(line[run.upperBound...])
            if value != "|" {
                steps.append(value)
                continue
            }
            let indent = line.prefix { $0 == " " }.count + 2
            var script: [String] = []
            while i < lines.count, lines[i].prefix(while: { $0 == " " }).count >= indent || lines[i].isEmpty {
                script.append(String(lines[i].dropFirst(indent)))
                i += 1
            }
            steps.append(script.joined(separator: "\n"))
        }
        return steps
    }

    @Test func theWorkflowsCommandsWork() throws {
        let binary = try #require(CLI.executable)
        let yaml = try String(contentsOf: Repository.root.appendingPathComponent(WorkflowExampleTests.workflow), encoding: .utf8)
        let steps = WorkflowExampleTests.runSteps(yaml).filter { $0.contains(".build/release/statecraft") }
        #expect(steps.count == 2, "\(steps)")
        let dir = try ReportTesting.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: Repository.specs, to: dir.appendingPathComponent("Specs"))
        guard let bash = ExternalTool.find("bash") else { Issue.record("bash not found"); return }
        for step in steps {
            let script = "set -e\ncd '\(dir.path)'\n" + step.replacingOccurrences(of: ".build/release/statecraft", with: binary.path)
            let run = try bash.run(["-c", script])
            #expect(run.status == 0, "\(step)\n\(run.stderr)")
        }
        // What the upload step reads: a SARIF log of the specs, which check clean.
        #expect(yaml.contains("sarif_file: statecraft.sarif\n"))
        let sarif = try Data(contentsOf: dir.appendingPathComponent("statecraft.sarif"))
        let log = try #require(try JSONSerialization.jsonObject(with: sarif) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        // Nothing to alert on: the only results are the proven properties, which pass.
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(!results.isEmpty && results.allSatisfy { $0["kind"] as? String == "pass" && $0["ruleId"] as? String == "property-proven" })
        // What the publish step reads: a JUnit report per spec, every case passed.
        #expect(yaml.contains("report_paths: replays/*.xml\n"))
        let reports = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("replays").path).sorted()
        #expect(reports == Repository.specFiles().map { $0.deletingPathExtension().lastPathComponent + ".xml" })
        for name in reports {
            let xml = try String(contentsOf: dir.appendingPathComponent("replays/" + name), encoding: .utf8)
            #expect(xml.hasPrefix("<?xml") && xml.contains(" failures=\"0\" errors=\"0\""), "\(name)")
        }
    }

    /// A failing replay fails its step, but only after every spec's report is written (the
    /// loop goes on and exits 1 at the end), so the publish step shows every reason.
    @Test func aFailedReplayFailsTheStepAfterEveryReport() throws {
        let binary = try #require(CLI.executable)
        let yaml = try String(contentsOf: Repository.root.appendingPathComponent(WorkflowExampleTests.workflow), encoding: .utf8)
        let replay = try #require(WorkflowExampleTests.runSteps(yaml).first { $0.contains("replay --format junit") })
        let dir = try ReportTesting.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: Repository.specs, to: dir.appendingPathComponent("Specs"))
        // The drawer's session ends closed; now its log expects it open.
        let first = "Drawer"
        let log = dir.appendingPathComponent("Specs/\(first).session.jsonl")
        let broken = try String(contentsOf: log, encoding: .utf8) + "{\"expect\": \"open\"}\n"
        try broken.write(to: log, atomically: true, encoding: .utf8)
        guard let bash = ExternalTool.find("bash") else { Issue.record("bash not found"); return }
        let run = try bash.run(["-c", "cd '\(dir.path)'\n" + replay.replacingOccurrences(of: ".build/release/statecraft", with: binary.path)])
        #expect(run.status == 1)
        let reports = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("replays").path)
        #expect(reports.count == Repository.specFiles().count)
        let xml = try String(contentsOf: dir.appendingPathComponent("replays/\(first).xml"), encoding: .utf8)
        #expect(xml.contains("<failure "), "\(xml)")
    }

    /// The article shows the workflow as it is in the repository.
    @Test func theArticleQuotesTheWorkflow() throws {
        let article = try String(contentsOf: Repository.root.appendingPathComponent(
            "Sources/Statecraft/Statecraft.docc/ContinuousIntegration.md"), encoding: .utf8)
        #expect(article.contains("<!-- excerpt: \(WorkflowExampleTests.workflow) -->\n```yaml\nname: Specs\n"))
    }
}
