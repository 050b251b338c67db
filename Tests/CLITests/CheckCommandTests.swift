import Foundation
import Testing
import TestSupport

/// The real `statecraft` executable, run as a user or CI would run it.
@Suite struct CheckCommandTests {
    static let fixtures = "Tests/CheckerTests/Fixtures"

    @Test func bundledSpecsCheckClean() throws {
        let r = try CLI.run(["check", "Specs"])
        #expect(r.status == 0)
        #expect(r.stdout == "checked 7 files: 0 errors, 0 warnings, 21 properties proven\n")
        #expect(r.stderr.isEmpty)
    }

    @Test func noPathMeansTheCurrentFolder() throws {
        let r = try CLI.run(["check"], in: Repository.specs)
        #expect(r.status == 0)
        #expect(r.stdout.hasSuffix("checked 7 files: 0 errors, 0 warnings, 21 properties proven\n"))
    }

    @Test func errorsExitOneWithCompilerStyleDiagnostics() throws {
        let r = try CLI.run(["check", "\(CheckCommandTests.fixtures)/done-when.machine"])
        #expect(r.status == 1)
        let lines = r.stdout.components(separatedBy: "\n")
        #expect(lines.first == "\(CheckCommandTests.fixtures)/done-when.machine:8:27: error: '>' needs 'Number' operands, found 'String' [type-mismatch]")
        #expect(lines.contains("                          ^~~~~~~"))
        #expect(r.stdout.contains("done-when.machine:9:30: error: unknown name 'amount' [unknown-name]"))
        #expect(r.stdout.contains("done-when.machine:14:11: error: state 'orphan' is unreachable"))
        #expect(r.stdout.hasSuffix("checked 1 file: 3 errors, 0 warnings\n"))
    }

    @Test func foldersAreSearchedRecursivelyInSortedOrder() throws {
        let r = try CLI.run(["check", "Tests/CheckerTests"])
        #expect(r.status == 1)
        let files = r.stdout.components(separatedBy: "\n").compactMap { line -> String? in
            // Whole file names: "history-always-default.machine" sorts before "history.machine".
            guard let range = line.range(of: ".machine:") else { return nil }
            return String(line[..<range.lowerBound]) + ".machine"
        }
        var unique: [String] = []
        for f in files where unique.last != f { unique.append(f) }
        #expect(unique == unique.sorted())
        #expect(unique.count >= 15)
    }

    @Test func warningsAsErrors() throws {
        let path = "\(CheckCommandTests.fixtures)/analysis.machine"
        let plain = try CLI.run(["check", path])
        let strict = try CLI.run(["check", "--warnings-as-errors", path])
        #expect(plain.stdout.contains("warning: event 'neverSent' is never handled"))
        #expect(strict.stdout.contains("error: event 'neverSent' is never handled"))
        #expect(!strict.stdout.contains("warning:"))
        #expect(strict.status == 1)
    }

    @Test func warningsAloneExitZeroUnlessStrict() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = "machine W {\n    event tap\n    event unused\n    initial state a { on tap -> b }\n    final state b\n}\n"
        try spec.write(to: dir.appendingPathComponent("w.machine"), atomically: true, encoding: .utf8)
        let plain = try CLI.run(["check", "w.machine"], in: dir)
        #expect(plain.status == 0)
        #expect(plain.stdout.hasSuffix("checked 1 file: 0 errors, 1 warning\n"))
        #expect(try CLI.run(["check", "--warnings-as-errors", "w.machine"], in: dir).status == 1)
    }

    @Test func jsonFormat() throws {
        let r = try CLI.run(["check", "--format", "json", "\(CheckCommandTests.fixtures)/done-when.machine"])
        #expect(r.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["errors"] as? Int == 3)
        #expect(object["warnings"] as? Int == 0)
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["id"] as? String } == ["type-mismatch", "unknown-name", "unreachable-state"])
        #expect(diagnostics.map { $0["line"] as? Int } == [8, 9, 14])
        #expect(diagnostics.map { $0["column"] as? Int } == [27, 30, 11])
        let notes = diagnostics[1]["notes"] as? [[String: Any]]
        #expect(notes?.first?["message"] as? String == "did you mean 'count'?")
        #expect(try CLI.run(["check", "--format=json", "Specs"]).stdout.contains("\"errors\": 0"))
    }

    @Test func missingFileExitsTwoButChecksTheOthers() throws {
        let r = try CLI.run(["check", "nope.machine", "Specs/Drawer.machine"])
        #expect(r.status == 2)
        #expect(r.stderr == "error: cannot read 'nope.machine': no such file or directory\n")
        #expect(r.stdout == "checked 1 file: 0 errors, 0 warnings, 4 properties proven\n")
    }

    @Test func folderWithoutSpecsExitsTwo() throws {
        let r = try CLI.run(["check", "Sources/StatecraftCLI"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("no .machine files found in 'Sources/StatecraftCLI'"))
    }

    @Test(arguments: [
        (["chek", "Specs"], "Error: unknown command 'chek'; did you mean 'check'?"),
        (["check", "--warnings-as-error"], "Error: unknown option '--warnings-as-error'; did you mean '--warnings-as-errors'?"),
        (["check", "--format", "xml"], "Error: --format takes 'text', 'json', 'sarif' or 'github', not 'xml'"),
        (["check", "--format"], "Error: --format needs a value"),
        ([], "USAGE: statecraft <command>"),
    ])
    func usageErrorsExitTwo(arguments: [String], message: String) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message))
        #expect(r.stdout.isEmpty)
    }

    @Test func helpAndVersion() throws {
        let help = try CLI.run(["check", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--warnings-as-errors"))
        #expect(try CLI.run(["--help"]).stdout.contains("check [PATH ...]"))
        #expect(try CLI.run(["--version"]).stdout.hasPrefix("statecraft "))
    }

    @Test func noColourWhenNotATerminal() throws {
        let r = try CLI.run(["check", "\(CheckCommandTests.fixtures)/analysis.machine"])
        #expect(!r.stdout.contains("\u{1B}["))
    }
}
