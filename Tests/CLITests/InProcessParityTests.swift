import Foundation
import Testing
import TestSupport

/// The suite runs most commands in process (`CLI.run`, through the driver) and only a few
/// through the binary (`CLI.launch`). That is only sound while the two print the same bytes
/// and exit with the same status: every command, relative paths from another folder,
/// standard input, files a command writes, and errors.
@Suite struct InProcessParityTests {
    static let machines = ["CheckoutScreen", "Drawer", "MediaPlayer", "PeekRating", "PullToRefresh", "SwipeToDismiss", "VibrantButton"]

    /// Each command once per bundled spec, in the formats whose writers differ.
    static let perSpec: [[String]] = machines.flatMap { m -> [[String]] in
        let spec = "Specs/\(m).machine", log = "Specs/\(m).session.jsonl"
        return [
            ["check", spec], ["check", "--format", "json", "--witnesses", spec],
            ["replay", spec, log], ["replay", "--trace", "--format", "jsonl", spec, log],
            ["replay", "--explain", "--format", "json", spec, log], ["replay", "--summary", spec, log],
            ["dot", "--check", spec, "--coverage", log], ["mermaid", spec], ["scxml", spec], ["paths", spec],
        ]
    }

    /// Options, usage errors and files that cannot be read.
    static let others: [[String]] = [
        [], ["--version"], ["help"], ["help", "replay"], ["chek", "Specs"], ["check", "--format", "sarif", "Specs"],
        ["check", "--format", "github", "Specs", "Tests/CheckerTests/Fixtures"], ["check", "missing.machine", "Specs/Drawer.machine"],
        ["replay", "Specs/Drawer.machine"], ["replay", "Specs/Drawer.session.jsonl", "Specs/Drawer.machine"],
        ["replay", "--format", "junit", "Specs/PullToRefresh.machine", "Specs"], ["replay", "--jobs", "2", "Specs/Drawer.machine", "Specs"],
        ["fmt", "--check", "Specs"], ["dot", "Specs/Drawer.machine", "--depth", "0"], ["merge"],
        ["import", "Tests/SCXMLTests/W3C"],
    ]

    static func same(_ arguments: [String], in directory: URL = Repository.root, input: String? = nil) throws {
        let inside = try CLI.run(arguments, in: directory, input: input)
        let outside = try CLI.launch(arguments, in: directory, input: input)
        #expect(inside.status == outside.status, "\(arguments): exit status")
        #expect(inside.stdout == outside.stdout, "\(arguments): standard output")
        #expect(inside.stderr == outside.stderr, "\(arguments): standard error")
    }

    @Test(.enabled(if: CLI.executable != nil), arguments: perSpec)
    func everyCommandOnEveryBundledSpec(arguments: [String]) throws {
        try Self.same(arguments)
    }

    @Test(.enabled(if: CLI.executable != nil), arguments: others)
    func optionsAndErrors(arguments: [String]) throws {
        try Self.same(arguments)
    }

    /// Relative paths start from the folder the command runs in, never from this process's.
    @Test(.enabled(if: CLI.executable != nil))
    func relativePathsStartFromTheCommandsFolder() throws {
        let specs = Repository.specs
        try Self.same(["check", "Drawer.machine", "."], in: specs)
        try Self.same(["replay", "Drawer.machine", "Drawer.session.jsonl", "."], in: specs)
        try Self.same(["dot", "PullToRefresh.machine", "--coverage", "PullToRefresh.session.jsonl"], in: specs)
        let inside = try CLI.run(["check", "Drawer.machine"], in: specs)
        #expect(inside.status == 0 && inside.stdout.hasPrefix("checked 1 file"), "\(inside.stdout)\(inside.stderr)")
    }

    /// `-` reads what the test hands the command, and a command that never reads it is fine.
    @Test(.enabled(if: CLI.executable != nil))
    func standardInput() throws {
        let spec = try String(contentsOf: Repository.specs.appendingPathComponent("Drawer.machine"), encoding: .utf8)
        let log = try String(contentsOf: Repository.specs.appendingPathComponent("Drawer.session.jsonl"), encoding: .utf8)
        try Self.same(["check", "-"], input: spec)
        try Self.same(["fmt", "-"], input: spec)
        try Self.same(["replay", "--trace", "Specs/Drawer.machine", "-"], input: log)
        try Self.same(["replay", "Specs/Drawer.machine"], input: log)
        try Self.same(["replay", "-", "Specs/Drawer.session.jsonl"], input: spec)
        // Never read: a large input must not block the writer.
        try Self.same(["--version"], input: String(repeating: log, count: 200))
        try Self.same(["replay", "Specs/Drawer.machine"])
    }

    /// Files a command writes land in its folder, with the same bytes.
    @Test(.enabled(if: CLI.executable != nil))
    func writtenFiles() throws {
        let fm = FileManager.default
        func folder() throws -> URL {
            let dir = fm.temporaryDirectory.appendingPathComponent("statecraft-parity-\(UUID().uuidString)")
            try fm.createDirectory(at: dir, withIntermediateDirectories: true)
            try fm.copyItem(at: Repository.specs.appendingPathComponent("Drawer.machine"), to: dir.appendingPathComponent("Drawer.machine"))
            try "machine  Door {\nevent open\n initial state closed { on open -> opened }\nstate opened\n}\n"
                .write(to: dir.appendingPathComponent("Door.machine"), atomically: true, encoding: .utf8)
            return dir
        }
        let (a, b) = (try folder(), try folder())
        defer { try? fm.removeItem(at: a); try? fm.removeItem(at: b) }
        let commands = [["scxml", "Drawer.machine", "-o", "drawer.scxml"], ["paths", "Drawer.machine", "--emit", "generated"],
                        ["fmt", "Door.machine"], ["import", "drawer.scxml", "-o", "back.machine"]]
        for arguments in commands {
            let inside = try CLI.run(arguments, in: a)
            let outside = try CLI.launch(arguments, in: b)
            #expect(inside.status == outside.status && inside.stdout == outside.stdout && inside.stderr == outside.stderr,
                    "\(arguments): \(inside) against \(outside)")
        }
        let written = ["drawer.scxml", "back.machine", "Door.machine", "generated/.statecraft-paths"]
        for name in written {
            let inside = try Data(contentsOf: a.appendingPathComponent(name))
            let outside = try Data(contentsOf: b.appendingPathComponent(name))
            #expect(!inside.isEmpty && inside == outside, "\(name)")
        }
        #expect(try fm.contentsOfDirectory(atPath: a.appendingPathComponent("generated").path).sorted()
                == (try fm.contentsOfDirectory(atPath: b.appendingPathComponent("generated").path)).sorted())
        // Nothing was written where the test process runs.
        #expect(!fm.fileExists(atPath: Repository.root.appendingPathComponent("drawer.scxml").path))
    }
}
