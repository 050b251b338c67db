import Foundation
import Statecraft
@testable import StatecraftAnalysis
import Testing
import TestSupport

/// The search and `paths` against the replay's refusal of unrepresentable deadlines
/// (`Instance.deadlineHolds`): no witness goes through a step whose log line a replay
/// refuses, a search that left one out proves nothing, and every log `paths` writes for the
/// bundled specs and the fixtures replays clean.
@Suite struct DeadlineSearchTests {
    /// `long`'s timer is due at 1e300 (exactly: it is armed at 0), and there a 2 s timer
    /// rounds back to the time it is armed at: the search used to reach `over` through it,
    /// and `paths` wrote a log that a replay refuses.
    static let far = """
        machine Far {
            const far = 1e300
            event go
            initial state idle {
                on go -> long
            }
            state long {
                after far -> short
            }
            state short {
                after 2s -> over
            }
            final state over
        }
        """

    @Test func noWitnessGoesThroughARefusedDeadline() throws {
        let result = Statecraft.check(source: Self.far, path: "Far.machine")
        let machine = try #require(result.machine)
        let report = try #require(result.exploration)
        let over = try #require(machine.states.first { $0.name == "over" })
        let short = try #require(machine.states.first { $0.name == "short" })
        let long = try #require(machine.states.first { $0.name == "long" })
        #expect(report.states[long.id.index] != .notReached)
        // Waiting until 1e300 fires 'long''s timer, whose step enters 'short' and arms a 2 s
        // timer there: the log line of that wait is refused, so neither is reached.
        #expect(report.states[short.id.index] == .notReached)
        #expect(report.states[over.id.index] == .notReached)
        #expect(report.limits.deadlinesRefused)
        #expect(ExplorationReport.notReachedReason(report).contains("cannot be represented"))
        for cover in TestGeneration.Cover.allCases {
            for log in TestGeneration.generate(machine, report, cover: cover).logs {
                try Self.expectClean(log.text, Program(machine), "\(log.file)")
            }
        }
    }

    /// Every log `paths` writes for every bundled spec and every fixture that resolves
    /// replays without an error, an ignored event or a failed expectation.
    @Test func everyPathsLogReplaysClean() throws {
        var specs = try FileManager.default.contentsOfDirectory(at: Repository.specs, includingPropertiesForKeys: nil)
        specs += try FileManager.default.contentsOfDirectory(at: GoldenTests.fixtures, includingPropertiesForKeys: nil)
        var logs = 0
        for url in specs.sorted(by: { $0.path < $1.path }) where url.pathExtension == "machine" {
            let result = Statecraft.check(SourceFile(path: url.lastPathComponent, bytes: Repository.bytes(url)))
            guard let machine = result.machine, let report = result.exploration else { continue }
            let program = Program(machine)
            for cover in TestGeneration.Cover.allCases {
                for log in TestGeneration.generate(machine, report, cover: cover).logs {
                    try Self.expectClean(log.text, program, "\(url.lastPathComponent): \(log.file)")
                    logs += 1
                }
            }
        }
        #expect(logs > 100, "\(logs) logs")
    }

    static func expectClean(_ text: String, _ program: Program, _ what: String) throws {
        var replayer = Replayer(program: program, options: .init(strict: true))
        var reader = EventLogReader(bytes: Array(text.utf8))
        do throws(LogError) {
            while let record = try reader.next() { try replayer.consume(record) }
        } catch {
            Issue.record("\(what) is refused at line \(error.line): \(error.message)")
        }
        // Clean as `paths` promises: no ignored or rejected event, no failed expectation. What
        // the run does to the spec's properties is the spec's business (a fixture may break its
        // own on purpose: watched-properties).
        let cases = replayer.report.cases
        #expect(cases.allSatisfy { $0.rejected == 0 && $0.failureCount == 0 }, "\(what) does not replay under --strict")
    }
}
