import Foundation
import Statecraft
import Testing
import TestSupport

/// The README's "In CI" workflow works: each step that runs statecraft is run here, with
/// the built binary for `.build/release/statecraft`, in a folder laid out like the
/// repository; what it writes is what the upload and publish steps read.
@Suite struct ReadmeWorkflowTests {
    static func section() throws -> String {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "\n## In CI\n"))
        let rest = readme[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// The `run:` scripts of a YAML block, in order (one line, or a `|` block).
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
            while i < lines.count, lines[i].prefix { $0 == " " }.count >= indent || lines[i].isEmpty {
                script.append(String(lines[i].dropFirst(indent)))
                i += 1
            }
            steps.append(script.joined(separator: "\n"))
        }
        return steps
    }

    static func yamlBlocks(_ text: String) -> [String] {
        text.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    }

    @Test func theWorkflowsCommandsWork() throws {
        let binary = try #require(CLI.executable)
        let blocks = ReadmeWorkflowTests.yamlBlocks(try ReadmeWorkflowTests.section())
        #expect(blocks.count == 2)
        let steps = blocks.flatMap(ReadmeWorkflowTests.runSteps).filter { $0.contains(".build/release/statecraft") }
        #expect(steps.count == 3, "\(steps)")
        let dir = try ReportTesting.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: Repository.specs, to: dir.appendingPathComponent("Specs"))
        guard let bash = ExternalTool.find("bash") else { Issue.record("bash not found"); return }
        var outputs: [String] = []
        for step in steps {
            let script = "set -e\ncd '\(dir.path)'\n" + step.replacingOccurrences(of: ".build/release/statecraft", with: binary.path)
            let run = try bash.run(["-c", script])
            #expect(run.status == 0, "\(step)\n\(run.stderr)")
            outputs.append(run.stdout)
        }
        // What the upload step reads: a SARIF log of the specs, which check clean.
        let sarif = try Data(contentsOf: dir.appendingPathComponent("statecraft.sarif"))
        let log = try #require(try JSONSerialization.jsonObject(with: sarif) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        #expect((run["results"] as? [Any])?.isEmpty == true)
        // What the publish step reads: a JUnit report per spec, every case passed.
        let reports = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("replays").path).sorted()
        #expect(reports == Repository.specFiles().map { $0.deletingPathExtension().lastPathComponent + ".xml" })
        for name in reports {
            let xml = try String(contentsOf: dir.appendingPathComponent("replays/" + name), encoding: .utf8)
            #expect(xml.hasPrefix("<?xml") && xml.contains(" failures=\"0\" errors=\"0\""), "\(name)")
        }
        // The annotation alternative prints the summary line and no annotation.
        #expect(outputs.last == "checked \(Repository.specFiles().count) files: 0 errors, 0 warnings\n")
    }

    /// The README's examples of the new formats are what the commands print.
    @Test func theReadmesExamplesAreReal() throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        let check = try CLI.run(["check", "--format", "github", "Tests/CheckerTests/Fixtures/done-when.machine"])
        let annotation = try #require(check.stdout.components(separatedBy: "\n").first { $0.contains("title=unknown-name") })
        #expect(readme.contains("```\n" + annotation + "\n" + "checked 1 file: 3 errors, 0 warnings\n```"))
        let sarif = try CLI.run(["check", "--format", "sarif", "Tests/CheckerTests/Fixtures/done-when.machine"])
        #expect(sarif.stdout.contains("\"partialFingerprints\": {\"statecraftFinding/v1\": \"f6a4e5995546c41a:1\"}"))
        #expect(readme.contains("\"partialFingerprints\": {\"statecraftFinding/v1\": \"f6a4e5995546c41a:1\"}"))

        let dir = try ReportTesting.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: Repository.specs, to: dir.appendingPathComponent("Specs"))
        try "{\"event\":\"touchBegan\",\"y\":300,\"onContent\":true,\"time\":0}\n{\"expect\": \"open\"}\n"
            .write(to: dir.appendingPathComponent("session.jsonl"), atomically: true, encoding: .utf8)
        let junit = try CLI.run(["replay", "--format", "junit", "Specs/Drawer.machine", "session.jsonl"], in: dir)
        #expect(readme.contains("```xml\n" + junit.stdout + "```"))
        let github = try CLI.run(["replay", "--format", "github", "Specs/Drawer.machine", "session.jsonl"], in: dir)
        #expect(readme.contains("```\n" + github.stdout + "```"))
    }
}
