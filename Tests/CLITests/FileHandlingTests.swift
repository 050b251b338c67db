import Foundation
import Testing
import TestSupport

/// Every command opens files the same way and says the same thing when it cannot; a
/// machine-readable format always prints one document that records every failure.
@Suite struct FileHandlingTests {
    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    // (A folder where replay takes logs stands for the logs in it: ReplayManyLogsTests.)
    @Test(arguments: [["replay", "Specs"], ["dot", "Specs"], ["mermaid", "Specs"], ["paths", "Specs"],
                      ["dot", "Specs/Drawer.machine", "--coverage", "Specs"]])
    func aFolderWhereAFileBelongsIsSaidPlainly(arguments: [String]) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 2)
        #expect(r.stderr.contains("error: cannot read 'Specs': it is a folder, not a file"))
        #expect(!r.stderr.contains("NSCocoaErrorDomain"))
        #expect(!r.stdout.contains("malformed-log-line"))
    }

    @Test(arguments: [["check", "missing.machine"], ["replay", "missing.machine"], ["dot", "missing.machine"],
                      ["mermaid", "missing.machine"], ["paths", "missing.machine"],
                      ["replay", "Specs/Drawer.machine", "missing.machine"]])
    func aMissingFileIsSaidTheSameWayByEveryCommand(arguments: [String]) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 2)
        #expect(r.stderr.contains("error: cannot read 'missing.machine': no such file or directory"))
    }

    /// A folder's hidden files and folders (`.build`, `.git`) are not searched for specs;
    /// a hidden file named on the command line is read.
    @Test func hiddenFoldersAreNotSearched() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-hidden-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".build/corpus"), withIntermediateDirectories: true)
        let spec = Repository.bytes(Repository.specs.appendingPathComponent("Drawer.machine"))
        try Data(spec).write(to: folder.appendingPathComponent("Drawer.machine"))
        try Data("machine {".utf8).write(to: folder.appendingPathComponent(".build/corpus/broken.machine"))
        try Data("machine {".utf8).write(to: folder.appendingPathComponent(".scratch.machine"))
        let r = try CLI.run(["check", folder.path])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout == "checked 1 file: 0 errors, 0 warnings, 4 properties proven\n")
        let named = try CLI.run(["check", folder.appendingPathComponent(".scratch.machine").path])
        #expect(named.status == 1)
    }

    @Test func aDashReadsTheSpecFromStandardInput() throws {
        let spec = String(decoding: Repository.bytes(Repository.specs.appendingPathComponent("Drawer.machine")), as: UTF8.self)
        let check = try CLI.run(["check", "-"], input: spec)
        #expect(check.status == 0)
        #expect(check.stdout == "checked 1 file: 0 errors, 0 warnings, 4 properties proven\n")
        let mermaid = try CLI.run(["mermaid", "-"], input: spec)
        #expect(mermaid.stdout.hasPrefix("stateDiagram-v2"))
        let replay = try CLI.run(["replay", "-", "Specs/Drawer.session.jsonl"], input: spec)
        #expect(replay.status == 0)
        let both = try CLI.run(["replay", "-", "-"], input: spec)
        #expect(both.status == 2)
        #expect(both.stderr.contains("cannot both be read from standard input"))
    }

    /// `replay --format json SPEC good.jsonl missing.jsonl` said `"passed": true` and left
    /// the missing log out.
    @Test func replayJSONRecordsAnUnreadableLog() throws {
        let r = try CLI.run(["replay", "--format", "json", "Specs/Drawer.machine", "Specs/Drawer.session.jsonl", "missing.jsonl"])
        #expect(r.status == 2)
        let object = try FileHandlingTests.json(r.stdout)
        #expect(object["passed"] as? Bool == false)
        let logs = try #require(object["logs"] as? [[String: Any]])
        #expect(logs.map { $0["log"] as? String } == ["Specs/Drawer.session.jsonl", "missing.jsonl"])
        let missing = logs[1]
        #expect(missing["passed"] as? Bool == false)
        #expect((missing["error"] as? [String: Any])?["message"] as? String == "cannot read 'missing.jsonl': no such file or directory")
        let jsonl = try CLI.run(["replay", "--format", "jsonl", "Specs/Drawer.machine", "missing.jsonl"])
        let line = try FileHandlingTests.json(jsonl.stdout.trimmingCharacters(in: .newlines))
        #expect((line["report"] as? [String: Any])?["passed"] as? Bool == false)
    }

    /// `replay --format json` with a broken spec printed plain-text diagnostics on stdout.
    @Test func replayJSONOfABrokenSpecIsOneDocumentWithItsDiagnostics() throws {
        let r = try CLI.run(["replay", "--format", "json", "Tests/CheckerTests/Fixtures/done-when.machine", "Specs/Drawer.session.jsonl"])
        #expect(r.status == 2)
        let object = try FileHandlingTests.json(r.stdout)
        #expect(object["passed"] as? Bool == false)
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["id"] as? String } == ["type-mismatch", "unknown-name", "unreachable-state"])
        #expect(diagnostics.first?["line"] as? Int == 8)
        let unreadable = try FileHandlingTests.json(try CLI.run(["replay", "--format", "json", "missing.machine"]).stdout)
        #expect(unreadable["passed"] as? Bool == false)
        #expect((unreadable["error"] as? [String: Any])?["message"] as? String == "cannot read 'missing.machine': no such file or directory")
    }

    /// `check --format json missing.machine` said `"errors": 0`.
    @Test func checkJSONCountsAnUnreadableFileAsAnError() throws {
        let r = try CLI.run(["check", "--format", "json", "missing.machine", "Specs/Drawer.machine"])
        #expect(r.status == 2)
        let object = try FileHandlingTests.json(r.stdout)
        #expect(object["errors"] as? Int == 1)
        let unreadable = try #require(object["unreadable"] as? [[String: Any]])
        #expect(unreadable.first?["file"] as? String == "missing.machine")
        #expect(object["files"] as? [String] == ["Specs/Drawer.machine"])
    }

    /// On a terminal with no LOG, replay says it is reading standard input (through a real
    /// pseudo-terminal made by util-linux `script`; Ctrl-D ends the input).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script") && CLI.executable != nil))
    func replayOnATerminalSaysItIsWaiting() throws {
        #if os(Linux)
        let binary = try #require(CLI.executable).path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-q", "-e", "-c", "\(binary) replay Specs/Drawer.machine", "/dev/null"]
        process.currentDirectoryURL = Repository.root
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data([4]))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.contains("reading events from standard input (JSON Lines; end with Ctrl-D)"))
        #expect(text.contains("replayed <stdin>: 0 cases"))
        // Not on a pipe: there, nobody is typing.
        let piped = try CLI.launch(["replay", "Specs/Drawer.machine"], input: "")
        #expect(!piped.stderr.contains("reading events"))
        #endif
    }
}
