import Foundation
import Statecraft
import Testing
import TestSupport

/// The in-place replay path (`nextRaw` + `consume(raw:)`, what the CLI runs) against the
/// straightforward one (`next` + `consume`): same report, same error, on the shipped logs,
/// hostile lines and damaged logs.
@Suite struct ReplayFastPathTests {
    struct Outcome: Equatable {
        var cases: [String]
        var error: LogError?
        var coverage: [Int]
    }

    static func slow(_ program: Program, _ bytes: [UInt8], strict: Bool) -> Outcome {
        var reader = EventLogReader(bytes: bytes)
        var replayer = Replayer(program: program, options: .init(strict: strict))
        var failure: LogError?
        do {
            while let record = try reader.next() { try replayer.consume(record) }
        } catch {
            failure = error
        }
        return outcome(replayer.report, failure)
    }

    static func fast(_ program: Program, _ bytes: [UInt8], strict: Bool) -> Outcome {
        var reader = EventLogReader(bytes: bytes)
        var replayer = Replayer(program: program, options: .init(strict: strict))
        var failure: LogError?
        do {
            while try reader.nextRaw({ (line: RawLine) throws(LogError) in
                switch line {
                case .event(let raw): try replayer.consume(raw: raw)
                case .record(let record): try replayer.consume(record)
                }
            }) {}
        } catch {
            failure = error
        }
        return outcome(replayer.report, failure)
    }

    static func outcome(_ report: ReplayReport, _ error: LogError?) -> Outcome {
        Outcome(cases: report.cases.map { c in
            "\(c.key ?? "-")@\(c.firstLine) \(c.state) \(c.variables.map { "\($0.name)=\($0.value)" }) "
                + "\(c.outputs.map(\.description)) n=\(c.outputCount) a=\(c.applied) i=\(c.ignored) r=\(c.rejected) "
                + "t=\(c.timersFired) e=\(c.expectations) f=\(c.failureCount) "
                + "\(c.failures.map { "\($0.line):\($0.column) \($0.subject) \($0.expected) \($0.actual)" }) "
                + "\(c.rejections.map { "\($0.line):\($0.column) \($0.message)" }) time=\(c.time)"
        }, error: error, coverage: report.transitionCounts)
    }

    static let machines = ["Drawer", "VibrantButton", "PullToRefresh", "PeekRating", "SwipeToDismiss"]

    @Test(arguments: ReplayFastPathTests.machines)
    func shippedLogsGiveTheSameReport(machine: String) throws {
        let program = try program(spec: machine)
        let log = Repository.bytes(Repository.specs.appendingPathComponent(machine + ".session.jsonl"))
        for strict in [false, true] {
            #expect(ReplayFastPathTests.fast(program, log, strict: strict) == ReplayFastPathTests.slow(program, log, strict: strict))
        }
    }

    @Test func hostileEventLinesGiveTheSameOutcome() throws {
        let program = try program(spec: "PeekRating")
        let lines = [
            #"{"event": "pressBegan", "x": 1, "y": 2, "onCell": true, "cellX": 0, "cellY": 0, "cellWidth": 10, "cellHeight": 10}"#,
            #"{ "cellHeight" : 1e1 , "cellWidth":1E+1,"cellY":-0,"cellX":0.0,"onCell":true,"y":2,"x":1,"event":"pressBegan" }"#,
            #"{"event": "press\u0042egan", "x": 1, "y": 2, "onCell": true, "cellX": 0, "cellY": 0, "cellWidth": 10, "cellHeight": 10}"#,
            #"{"event": "pressBegan", "x": 1, "x": 2}"#,
            #"{"event": "pressBegan", "x": "1", "y": 2, "onCell": true, "cellX": 0, "cellY": 0, "cellWidth": 10, "cellHeight": 10}"#,
            #"{"event": "pressBegan", "x": 1, "y": 2, "onCell": true, "cellX": 0, "cellY": 0, "cellWidth": 10}"#,
            #"{"event": "pressBegan", "x": 1, "y": 2, "onCell": true, "cellX": 0, "cellY": 0, "cellWidth": 10, "cellHeight": 10, "z": 1}"#,
            #"{"event": "cancel", "case": 7}"#, #"{"event": "cancel", "case": "7"}"#, #"{"event": "cancel", "case": -0}"#,
            #"{"event": "cancel", "time": 1e999}"#, #"{"event": "cancel", "time": 5}"#, #"{"event": "cancel", "time": 4}"#,
            #"{"event": "commitUpdate", "progress": 1, "ended": true, "x": 1, "y": 1}"#,
            #"{"event": "nope"}"#,
        ]
        // Each line alone, and all of them in one log (which stops at the first error).
        for line in lines {
            let bytes = Array((line + "\n").utf8)
            #expect(ReplayFastPathTests.fast(program, bytes, strict: true) == ReplayFastPathTests.slow(program, bytes, strict: true), "\(line)")
        }
        let all = Array(lines.joined(separator: "\n").utf8)
        #expect(ReplayFastPathTests.fast(program, all, strict: false) == ReplayFastPathTests.slow(program, all, strict: false))
    }

    @Test(arguments: ReplayFastPathTests.machines)
    func damagedLogsGiveTheSameOutcome(machine: String) throws {
        let program = try program(spec: machine)
        let log = Repository.bytes(Repository.specs.appendingPathComponent(machine + ".session.jsonl"))
        var rng = SeededGenerator(seed: 77)
        for _ in 0..<100 {
            var bytes = log
            Mutation.damage(&bytes, using: &rng)
            #expect(ReplayFastPathTests.fast(program, bytes, strict: false) == ReplayFastPathTests.slow(program, bytes, strict: false))
        }
    }
}
