import Foundation
import Testing
import TestSupport

/// `statecraft fmt`, run as a user runs it: in place, `--check`, standard input, and the
/// files it must leave alone.
@Suite struct FormatCommandTests {
    static let messy = "machine M{\n  event e\n  initial state s{on e->s}\n}\n"
    static let tidy = "machine M {\n    event e\n    initial state s {\n        on e -> s\n    }\n}\n"

    /// A fresh folder holding `files` (name → text).
    static func folder(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fmt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return dir
    }

    static func read(_ dir: URL, _ name: String) -> String {
        String(decoding: Repository.bytes(dir.appendingPathComponent(name)), as: UTF8.self)
    }

    @Test func theBundledSpecsAreFormatted() throws {
        let r = try CLI.run(["fmt", "--check", "Specs"])
        #expect(r.status == 0)
        #expect(r.stdout == "7 files: 0 would be reformatted, 7 already formatted\n")
        #expect(r.stderr == "")
    }

    @Test func formatsInPlaceAndLeavesFormattedFilesAlone() throws {
        let dir = try FormatCommandTests.folder(["a.machine": FormatCommandTests.messy,
                                                 "sub/b.machine": FormatCommandTests.tidy, "notes.txt": "x{"])
        let b = dir.appendingPathComponent("sub/b.machine")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: dir.appendingPathComponent("a.machine").path)
        let before = try FileManager.default.attributesOfItem(atPath: b.path)[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 0.01)
        let r = try CLI.run(["fmt"], in: dir)
        #expect(r.status == 0)
        #expect(r.stdout == "reformatted ./a.machine\n2 files: 1 reformatted, 1 already formatted\n")
        #expect(FormatCommandTests.read(dir, "a.machine") == FormatCommandTests.tidy)
        #expect(FormatCommandTests.read(dir, "notes.txt") == "x{")
        // Written beside and renamed over: the file keeps its permissions, and no temporary is left.
        let attributes = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("a.machine").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["a.machine", "notes.txt", "sub"])
        // A formatted file is not written at all.
        #expect(try FileManager.default.attributesOfItem(atPath: b.path)[.modificationDate] as? Date == before)
        let again = try CLI.run(["fmt", "a.machine", "sub"], in: dir)
        #expect(again.stdout == "2 files: 0 reformatted, 2 already formatted\n")
    }

    @Test func checkPrintsTheDiffAndTheFilesAndChangesNothing() throws {
        let dir = try FormatCommandTests.folder(["a.machine": FormatCommandTests.messy, "b.machine": FormatCommandTests.tidy])
        let r = try CLI.run(["fmt", "--check", "a.machine", "b.machine"], in: dir)
        #expect(r.status == 1)
        #expect(r.stdout == """
            --- a.machine
            +++ a.machine (formatted)
            @@ -1,4 +1,6 @@
            -machine M{
            -  event e
            -  initial state s{on e->s}
            +machine M {
            +    event e
            +    initial state s {
            +        on e -> s
            +    }
             }
            would reformat a.machine
            2 files: 1 would be reformatted, 1 already formatted

            """)
        #expect(FormatCommandTests.read(dir, "a.machine") == FormatCommandTests.messy)
    }

    @Test func aFileWithSyntaxErrorsIsRefusedWithItsDiagnostics() throws {
        let bad = "machine M {\n    state s { on e -> }\n}\n"
        let dir = try FormatCommandTests.folder(["bad.machine": bad, "a.machine": FormatCommandTests.messy])
        let r = try CLI.run(["fmt", "bad.machine", "a.machine"], in: dir)
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("bad.machine:2:23: error: expected target state name, found '}' [expected-token]\n"))
        #expect(r.stdout == "reformatted a.machine\n2 files: 1 reformatted, 0 already formatted, 1 with syntax errors\n")
        #expect(FormatCommandTests.read(dir, "bad.machine") == bad)
        let check = try CLI.run(["fmt", "--check", "bad.machine"], in: dir)
        #expect(check.status == 1)
        #expect(check.stdout == "1 file: 0 would be reformatted, 0 already formatted, 1 with syntax errors\n")
    }

    @Test func standardInputToStandardOutput() throws {
        let r = try CLI.run(["fmt", "-"], input: FormatCommandTests.messy)
        #expect(r.status == 0)
        #expect(r.stdout == FormatCommandTests.tidy)
        let check = try CLI.run(["fmt", "--check", "-"], input: FormatCommandTests.tidy)
        #expect(check.status == 0)
        #expect(check.stdout == "")
        let changed = try CLI.run(["fmt", "--check", "-"], input: FormatCommandTests.messy)
        #expect(changed.status == 1)
        #expect(changed.stdout.hasPrefix("--- <stdin>\n+++ <stdin> (formatted)\n"))
        let bad = try CLI.run(["fmt", "-"], input: "machine {")
        #expect(bad.status == 1)
        #expect(bad.stdout == "")
        #expect(bad.stderr.hasPrefix("<stdin>:1:9: error: expected machine name"))
    }

    @Test func usageAndUnreadableFiles() throws {
        let missing = try CLI.run(["fmt", "missing.machine"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "error: cannot read 'missing.machine': no such file or directory\n")
        let option = try CLI.run(["fmt", "--chek"])
        #expect(option.status == 2)
        #expect(option.stderr.hasPrefix("Error: unknown option '--chek'; did you mean '--check'?\n\nUSAGE: statecraft fmt"))
        let mixed = try CLI.run(["fmt", "-", "Specs"])
        #expect(mixed.status == 2)
        let dir = try FormatCommandTests.folder(["notes.txt": "x"])
        let empty = try CLI.run(["fmt"], in: dir)
        #expect(empty.status == 2)
        #expect(empty.stderr == "error: no .machine files found in '.'\n")
        let help = try CLI.run(["help"])
        #expect(help.stdout.contains("  fmt [PATH ...]      Rewrite specs in the canonical layout"))
        let fmtHelp = try CLI.run(["help", "fmt"])
        #expect(fmtHelp.status == 0)
        #expect(fmtHelp.stdout.hasPrefix("USAGE: statecraft fmt [--check] [PATH ...]"))
    }
}
