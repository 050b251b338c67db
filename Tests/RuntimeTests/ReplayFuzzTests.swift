import Foundation
import Statecraft
import Testing
import TestSupport

/// Damaged logs through the replayer: it must stop with an error that points inside the
/// line, or replay to the end; never crash.
@Suite struct ReplayFuzzTests {
    static let machines = ["Drawer", "VibrantButton", "PullToRefresh", "PeekRating", "SwipeToDismiss"]

    /// Replays `bytes`; checks the error, if any, points at a real place.
    static func replayChecked(_ program: Program, _ bytes: [UInt8]) {
        var reader = EventLogReader(bytes: bytes)
        var replayer = Replayer(program: program, options: .init(strict: false, trace: true))
        do {
            while let record = try reader.next() {
                try replayer.consume(record) { step in
                    #expect(!step.from.isEmpty && !step.to.isEmpty)
                }
            }
        } catch {
            #expect(error.line >= 1)
            #expect(error.column >= 1 && error.column <= error.text.count + 1, "\(error.message)")
            #expect(!error.message.isEmpty && !error.message.hasSuffix("."))
        }
        let report = replayer.report
        #expect(report.cases.allSatisfy { $0.outputs.count <= Replayer.keptOutputs })
    }

    @Test(arguments: ReplayFuzzTests.machines)
    func mutatedSessionLogs(machine: String) throws {
        let program = try program(spec: machine)
        let log = Repository.bytes(Repository.specs.appendingPathComponent(machine + ".session.jsonl"))
        #expect(!log.isEmpty)
        var rng = SeededGenerator(seed: UInt64(machine.utf8.count))
        for _ in 0..<150 {
            var bytes = log
            Mutation.damage(&bytes, using: &rng)
            ReplayFuzzTests.replayChecked(program, bytes)
        }
    }

    @Test(arguments: ReplayFuzzTests.machines)
    func truncatedSessionLogs(machine: String) throws {
        let program = try program(spec: machine)
        let log = Repository.bytes(Repository.specs.appendingPathComponent(machine + ".session.jsonl"))
        for cut in stride(from: 0, to: log.count, by: 7) {
            ReplayFuzzTests.replayChecked(program, Array(log[..<cut]))
        }
    }

    @Test func randomBytes() throws {
        let program = try program(spec: "Drawer")
        var rng = SeededGenerator(seed: 1234)
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0..<512, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            ReplayFuzzTests.replayChecked(program, bytes)
        }
    }
}
