import Foundation
import Testing
import TestSupport

/// `statecraft dot -T svg` runs Graphviz as a child: killing statecraft must not leave it
/// running, and a render that hangs is stopped after a time limit. A stand-in `dot` on PATH
/// records its process id and sleeps, so the tests do not depend on Graphviz's speed.
@Suite struct GraphvizProcessTests {
    /// A folder with a fake `dot` that writes its pid to `pidFile` and sleeps.
    static func fakeDot() throws -> (bin: URL, pidFile: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-fakedot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pidFile = folder.appendingPathComponent("dot.pid")
        let script = folder.appendingPathComponent("dot")
        try Data("#!/bin/sh\necho $$ > '\(pidFile.path)'\nexec sleep 30\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return (folder, pidFile)
    }

    static func isAlive(_ pid: Int32) -> Bool { kill(pid, 0) == 0 }

    static func environment(_ bin: URL, _ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = bin.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        for (k, v) in extra { env[k] = v }
        return env
    }

    @Test(.enabled(if: CLI.executable != nil))
    func killingStatecraftStopsGraphviz() throws {
        let (bin, pidFile) = try GraphvizProcessTests.fakeDot()
        defer { try? FileManager.default.removeItem(at: bin) }
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["dot", "Specs/Drawer.machine", "-T", "svg"]
        process.currentDirectoryURL = Repository.root
        process.environment = GraphvizProcessTests.environment(bin)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait (at most 10 s) for the child to start.
        var childPid: Int32?
        for _ in 0..<1000 where childPid == nil {
            if let text = try? String(contentsOf: pidFile, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                childPid = pid
            } else {
                usleep(10_000)
            }
        }
        let child = try #require(childPid)
        #expect(GraphvizProcessTests.isAlive(child))
        process.terminate()  // SIGTERM, as `kill` or a CI runner's timeout sends
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGTERM)
        // The child was stopped and reaped before statecraft exited.
        #expect(!GraphvizProcessTests.isAlive(child))
    }

    @Test(.enabled(if: CLI.executable != nil))
    func aRenderThatHangsIsStoppedAfterTheTimeLimit() throws {
        let (bin, pidFile) = try GraphvizProcessTests.fakeDot()
        defer { try? FileManager.default.removeItem(at: bin) }
        let started = Date()
        let r = try CLI.launch(["dot", "Specs/Drawer.machine", "-T", "svg"],
                            environment: GraphvizProcessTests.environment(bin, ["STATECRAFT_RENDER_TIMEOUT": "1"]))
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(r.status == 2)
        #expect(r.stderr.contains("error: Graphviz's 'dot' did not finish within 1 s and was stopped; set STATECRAFT_RENDER_TIMEOUT (seconds) to allow longer"))
        let pid = try #require(Int32((try String(contentsOf: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(!GraphvizProcessTests.isAlive(pid))
    }
}
