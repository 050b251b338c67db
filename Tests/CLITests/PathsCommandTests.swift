import Foundation
import Testing
import TestSupport

/// `statecraft paths`: it fails when a target has no log, and `--emit` never leaves a stale
/// log beside the new ones.
@Suite struct PathsCommandTests {
    static let soonerFails = """
        machine SoonerFails {
            public var z: Number = 1
            public var n: Number = 0
            event dec
            event go
            initial state a {
                on dec { z -= 1 }
                on go -> b
            }
            state b {
                after 1s -> c { n = 1 / z }
                after 2s -> d
            }
            state c { on go -> a }
            state d { on go -> a }
        }
        """

    @Test func missedTargetsAreNamedAndExitOne() throws {
        let counter = try CLI.run(["paths", "Tests/CheckerTests/Fixtures/not-reached-collapse.machine"])
        #expect(counter.status == 1)
        #expect(counter.stdout.contains("1 of 5 targets reached by 1 log"))
        #expect(counter.stderr.contains("error: 4 of 5 targets have no log:"))
        #expect(counter.stderr.contains("  transition counting --check--> twenty (line 11): not reached within the bounds (not a proof)"))
        let spec = try AnalysisVerdictTests.spec(PathsCommandTests.soonerFails)
        let sooner = try CLI.run(["paths", spec])
        #expect(sooner.status == 1)
        #expect(sooner.stderr.contains("transition b --after 2s--> d (line 12): reached only through a step that fails (division by zero (1 / 0) at line 11), which 'replay --strict' rejects"))
        #expect(try CLI.run(["paths", "Specs/PullToRefresh.machine"]).status == 0)
    }

    /// Every log `paths` writes replays under `--strict`, even where some witness goes
    /// through a failing timer step (that target gets no log instead).
    @Test func everyEmittedLogReplaysStrictly() throws {
        let spec = try AnalysisVerdictTests.spec(PathsCommandTests.soonerFails)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-paths-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try CLI.run(["paths", spec, "--emit", dir.path])
        let logs = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".jsonl") }
        #expect(!logs.isEmpty)
        for log in logs {
            let r = try CLI.run(["replay", "--strict", spec, dir.appendingPathComponent(log).path])
            #expect(r.status == 0, "\(log): \(r.stdout)")
        }
    }

    @Test func emitReplacesItsOwnLogsAndRefusesOthers() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-paths-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        #expect(try CLI.run(["paths", "Specs/PullToRefresh.machine", "--emit", dir.path]).status == 0)
        let first = try fm.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        // A second spec into the same folder replaces the first one's logs: no stale file remains.
        #expect(try CLI.run(["paths", "Specs/VibrantButton.machine", "--emit", dir.path]).status == 0)
        let second = try fm.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        #expect(!first.isEmpty && !second.isEmpty)
        // Every log in the folder is the second spec's: a stale PullToRefresh log would not replay.
        for log in second {
            #expect(try CLI.run(["replay", "--strict", "Specs/VibrantButton.machine", dir.appendingPathComponent(log).path]).status == 0)
        }
        // A file paths did not write is never overwritten or deleted.
        try Data("{}\n".utf8).write(to: dir.appendingPathComponent("mine.jsonl"))
        let refused = try CLI.run(["paths", "Specs/PullToRefresh.machine", "--emit", dir.path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("holds files that 'paths' did not write ('mine.jsonl'); emit into a new or empty folder"))
        #expect(fm.fileExists(atPath: dir.appendingPathComponent("mine.jsonl").path))
    }
}
