import Foundation
import Statecraft
import Testing
import TestSupport
@_spi(RawLines) import StatecraftEventLog

/// The in-place replay path (`nextRaw` + `consume(raw:)`, what the CLI runs), alone and with
/// a second thread reading and staging (`replay(_:concurrently: true)`), against the
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

    /// The in-place path; asserts that the pipelined replay gives the same outcome.
    static func fast(_ program: Program, _ bytes: [UInt8], strict: Bool) -> Outcome {
        let alone = fast(program, bytes, strict: strict, concurrently: false)
        #expect(fast(program, bytes, strict: strict, concurrently: true) == alone, "pipelined replay differs")
        return alone
    }

    static func fast(_ program: Program, _ bytes: [UInt8], strict: Bool, concurrently: Bool) -> Outcome {
        var reader = EventLogReader(bytes: bytes)
        var replayer = Replayer(program: program, options: .init(strict: strict))
        var failure: LogError?
        do {
            try replayer.replay(&reader, concurrently: concurrently)
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
                + "\(c.rejections.map { "\($0.line):\($0.column) \($0.message)" }) time=\(c.time) "
                + "\(c.propertyViolations.map { "\($0.property)@\($0.line) \($0.message)" })"
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

    /// The UsingTheLibrary article's bulk-reading loop (`readBatch` into a reused `RawLineBatch`, then
    /// `consume`) gives the report `replay` gives.
    @Test(arguments: ReplayFastPathTests.machines)
    func aHandWrittenBatchLoopGivesTheSameReport(machine: String) throws {
        let program = try program(spec: machine)
        let log = Repository.bytes(Repository.specs.appendingPathComponent(machine + ".session.jsonl"))
        var reader = EventLogReader(bytes: log)
        var replayer = Replayer(program: program)
        let batch = RawLineBatch(lineLimit: 7, byteLimit: 300)
        var more = true
        while more {
            more = try reader.readBatch(into: batch)
            for entry in batch.entries {
                if entry.record >= 0 { try replayer.consume(batch.records[entry.record]) }
                else { try replayer.consume(raw: batch.eventLine(entry)) }
            }
        }
        #expect(ReplayFastPathTests.outcome(replayer.report, nil) == ReplayFastPathTests.slow(program, log, strict: false))
    }

    /// The trace a library caller sees: the same steps, in order, whether lines go through
    /// records, in place or on two threads; each step's ids name its event and states.
    @Test(arguments: ReplayFastPathTests.machines)
    func traceStepsAreTheSameOnEveryPath(machine: String) throws {
        let program = try program(spec: machine)
        let log = Repository.bytes(Repository.specs.appendingPathComponent(machine + ".session.jsonl"))
        func describe(_ step: TraceStep) -> String {
            #expect(program.machine[step.fromState].name == step.from && program.machine[step.toState].name == step.to)
            #expect(step.eventID.map { program.machine[$0].name } == (step.isTimer ? nil : step.event))
            return ReplayFastPathTests.describe(step)
        }
        var records: [String] = []
        var reader = EventLogReader(bytes: log)
        var replayer = Replayer(program: program, options: .init(trace: true))
        while let record = try reader.next() { try replayer.consume(record) { records.append(describe($0)) } }
        #expect(!records.isEmpty)
        for concurrently in [false, true] {
            var steps: [String] = []
            var reader = EventLogReader(bytes: log)
            var replayer = Replayer(program: program, options: .init(trace: true))
            try replayer.replay(&reader, concurrently: concurrently) { step in steps.append(describe(step)) }
            #expect(steps == records, "concurrently: \(concurrently)")
        }
    }

    /// `TraceStep` as text, for comparing traces.
    static func describe(_ step: TraceStep) -> String {
        "\(step.line) \(step.caseKey ?? "-") \(step.time) \(step.event) \(step.isTimer) \(step.from)->\(step.to) \(step.result) "
            + "\(step.payload.map { "\($0.name)=\($0.value)" }) \(step.changed.map { "\($0.name)=\($0.value)" }) "
            + "\(step.outputs.map(\.description)) \(step.eventID.map { "\($0.index)" } ?? "-") \(step.fromState.index) \(step.toState.index)"
    }

    /// The steps one at a time, through records (the straightforward path), and the error.
    static func tracedOneByOne(_ program: Program, _ log: [UInt8], strict: Bool) -> ([String], LogError?) {
        var steps: [String] = []
        var reader = EventLogReader(bytes: log)
        var replayer = Replayer(program: program, options: .init(strict: strict, trace: true))
        do {
            while let record = try reader.next() { try replayer.consume(record) { steps.append(describe($0)) } }
        } catch {
            return (steps, error)
        }
        return (steps, nil)
    }

    /// What a writer on another thread gets (`replay(_:concurrently:traceBatches:)`): every
    /// step, in order, with the same values and names as one at a time, also when the sink
    /// takes each batch away by swapping it (as the CLI's trace thread does) and reads it
    /// later; on two threads in batches of at most `TraceBatch.preferredCount`, on one
    /// thread a step at a time; and the steps before a bad line arrive before the error.
    @Test(arguments: [false, true])
    func traceBatchesHoldTheSameStepsAsOneByOne(strict: Bool) throws {
        let hostile = Repository.root.appendingPathComponent("Tests/CLITests/Golden/Hostile.machine")
        let checked = Statecraft.check(SourceFile(path: "Hostile.machine", bytes: Repository.bytes(hostile)), bounds: nil)
        var logs: [(Program, [UInt8])] = [(Program(try #require(checked.machine)),
                                          Repository.bytes(hostile.deletingLastPathComponent().appendingPathComponent("hostile.jsonl")))]
        for machine in ReplayFastPathTests.machines {
            let log = Repository.bytes(Repository.specs.appendingPathComponent(machine + ".session.jsonl"))
            logs.append((try program(spec: machine), log + Array("{oops\n".utf8)))
        }
        // Several batches' worth of pulls, refreshes and their timers, then a bad line.
        let pulls = (0..<3000).map { i in
            i % 40 == 39 ? "{\"time\": \(Double(i) / 20), \"event\": \"endDragging\"}\n"
                : "{\"time\": \(Double(i) / 20), \"event\": \"scroll\", \"offsetY\": \(-(i % 40) * 4)}\n"
        }
        logs.append((try program(spec: "PullToRefresh"), Array((pulls.joined() + "{\"time\": 1}\n").utf8)))
        // A sink may hand back a batch of another program: the replayer records in its own.
        let other = try program(source: "machine Other { event e initial state s { on e -> s } }")
        for (program, log) in logs {
            let (expected, expectedError) = ReplayFastPathTests.tracedOneByOne(program, log, strict: strict)
            #expect(expected.count > 5)
            if log.count > 100_000 { #expect(expected.count > 2 * TraceBatch.preferredCount) }
            for (concurrently, foreign) in [(false, false), (true, false), (true, true)] {
                var taken: [TraceBatch] = []
                var sizes: [Int] = []
                var reader = EventLogReader(bytes: log)
                var replayer = Replayer(program: program, options: .init(strict: strict, trace: true))
                var failure: LogError?
                do {
                    try replayer.replay(&reader, concurrently: concurrently, traceBatches: { batch in
                        sizes.append(batch.count)
                        var mine = TraceBatch(program: foreign ? other : program)
                        swap(&mine, &batch)
                        taken.append(mine)
                    })
                } catch {
                    failure = error
                }
                let steps = taken.flatMap { batch in (0..<batch.count).map { ReplayFastPathTests.describe(batch.step($0)) } }
                #expect(steps == expected, "concurrently: \(concurrently), foreign: \(foreign)")
                #expect(failure == expectedError)
                if concurrently {
                    #expect(sizes.allSatisfy { $0 > 0 && $0 <= TraceBatch.preferredCount })
                    #expect(expected.count <= TraceBatch.preferredCount || sizes.count > 1)
                } else {
                    #expect(sizes.allSatisfy { $0 == 1 })
                }
            }
        }
    }

    /// A trace shows each output once, on the step that emitted it: steps that did not fire
    /// (ignored, after the final state, rejected) show none, even right after a step that
    /// emitted some, and the traced outputs add up to each case's count.
    @Test(arguments: ReplayFastPathTests.machines)
    func tracedOutputsAreThoseOfTheStepsThatFired(machine: String) throws {
        let program = try program(spec: machine)
        let log = Repository.bytes(Repository.specs.appendingPathComponent(machine + ".session.jsonl"))
        var reader = EventLogReader(bytes: log)
        var replayer = Replayer(program: program, options: .init(trace: true))
        var traced: [String: Int] = [:]
        try replayer.replay(&reader, concurrently: true) { step in
            if step.result != .applied { #expect(step.outputs.isEmpty, "line \(step.line): \(step.result)") }
            traced[step.caseKey ?? "", default: 0] += step.outputs.count
        }
        // Entering the initial state is no step of the trace, but its outputs are counted.
        var instance = Instance(program)
        var atStart = 0
        _ = instance.start { _, _ in atStart += 1 }
        #expect(!replayer.report.cases.isEmpty)
        for c in replayer.report.cases {
            #expect(traced[c.key ?? "", default: 0] == c.outputCount - atStart, "case \(c.key ?? "-")")
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

    /// The in-place path compares a line's event and field names with the previous line's
    /// before it hashes them: names that differ from each other in a single byte, at every
    /// position and for every length up to 20, must never be taken for one another.
    @Test func namesDifferingInOneByteAreToldApart() throws {
        var declarations: [String] = []
        var lines: [String] = []
        for length in 1...20 {
            for position in 0..<length {
                for (k, letter) in ["a", "b"].enumerated() {
                    var name = Array(repeating: "n", count: length)
                    name[position] = letter
                    let event = "e" + name.joined(), field = "f" + name.joined()
                    declarations.append("event \(event)(\(field): Number)")
                    lines.append(#"{"event": "\#(event)", "\#(field)": \#(k)}"#)
                    // The same event with its sibling's field: unknown, for the slow path to report.
                    let sibling = "f" + name.enumerated().map { $0.offset == position ? (k == 0 ? "b" : "a") : $0.element }.joined()
                    lines.append(#"{"event": "\#(event)", "\#(sibling)": \#(k)}"#)
                }
            }
        }
        let names = declarations.map { $0.dropFirst(6).prefix { $0 != "(" } }
        let transitions = names.map { "on \($0) -> s" }.joined(separator: "\n        ")
        let program = try program(source: """
            machine Names {
                \(declarations.joined(separator: "\n    "))
                initial state s {
                    \(transitions)
                }
            }
            """)
        // Each pair of lines alone (the second line is an error), and every good line in one log.
        for pair in stride(from: 0, to: lines.count, by: 2) {
            let bytes = Array((lines[pair] + "\n" + lines[pair + 1] + "\n").utf8)
            #expect(ReplayFastPathTests.fast(program, bytes, strict: true) == ReplayFastPathTests.slow(program, bytes, strict: true))
        }
        let good = Array(stride(from: 0, to: lines.count, by: 2).map { lines[$0] }.joined(separator: "\n").utf8)
        let outcome = ReplayFastPathTests.fast(program, good, strict: true)
        #expect(outcome == ReplayFastPathTests.slow(program, good, strict: true))
        #expect(outcome.error == nil)
        #expect(outcome.coverage.allSatisfy { $0 == 1 })
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

    /// Logs of many batches: interleaved string-keyed and integer-keyed cases, string
    /// payloads, expectations, and an error late in the log (the reading thread is told to
    /// stop) or in the reader itself (a malformed line).
    @Test(arguments: [0, 1, 2])
    func longLogsGiveTheSameOutcomeAcrossBatches(ending: Int) throws {
        let program = try program(source: """
            machine Pick {
                public var last: String = ""
                var count: Number = 0
                event pick(name: String, weight: Number, sure: Bool)
                event confirm
                output picked(name: String)

                initial state choosing {
                    on pick if sure { last = name; count += weight; emit picked(last) }
                    on confirm if last == "💀" -> done
                }
                final state done
            }
            """)
        var lines: [String] = []
        let names = ["a", "💀", "a longer name than fits inline", "\\u00e9", "x"]
        for i in 0..<20_000 {
            let key = i % 3 == 0 ? "\"c\(i % 7)\"" : "\(i % 5)"
            if i % 997 == 0 {
                lines.append(#"{"case": \#(key), "expect": {"state": "choosing"}}"#)
            } else if i % 13 == 0 {
                lines.append(#"{"case": \#(key), "time": \#(i), "event": "confirm"}"#)
            } else {
                lines.append(#"{"case": \#(key), "time": \#(i), "event": "pick", "name": "\#(names[i % 5])", "weight": \#(i % 4), "sure": \#(i % 2 == 0)}"#)
            }
        }
        switch ending {
        case 1: lines.insert(#"{"case": 1, "time": 0, "event": "confirm"}"#, at: 15_000)  // time goes backwards
        case 2: lines.insert(#"{"case": 1, "time": 1e5, "event": "pick", "name": "x", "weight": 1, sure: true}"#, at: 15_000)
        default: break
        }
        let bytes = Array(lines.joined(separator: "\n").utf8)
        let slow = ReplayFastPathTests.slow(program, bytes, strict: false)
        #expect(ReplayFastPathTests.fast(program, bytes, strict: false) == slow)
        #expect((slow.error?.line).map { $0 > 15_000 } ?? (ending == 0))
    }

    /// Events under the names another system gives them (`as "watch.reset"`) and the SCXML
    /// extensions of a `.*` name (`DIGIT.7` for `as "DIGIT.*"`, the longest match winning):
    /// the in-place path finds the event the full-record path finds, for each of the
    /// fixture's logs, with what the logs expect.
    @Test func externalNamesAndExtensionsGiveTheSameReport() throws {
        let fixture = Repository.root.appendingPathComponent("Tests/CheckerTests/Fixtures/external-names.machine")
        let program = try program(source: String(decoding: Repository.bytes(fixture), as: UTF8.self))
        let name = { (log: String) in program.event(loggedAs: log).map { program.machine[$0].name } }
        #expect(name("DIGIT") == "DIGIT" && name("DIGIT.7") == "DIGIT" && name("DIGIT.0.1") == "DIGIT")
        #expect(name("DIGIT.0") == "zero" && name("zero") == "zero")
        #expect(name("watch.lap") == "lap" && name("watch.lap.3.b") == "lap" && name("watch.reset") == "reset")
        #expect(name("watch.reset.now") == nil && name("DIGIT7") == nil && name("watch") == nil)
        let folder = Repository.root.appendingPathComponent("Tests/CodegenTests/Logs/external-names")
        for log in ["engine", "misnamed", "extension-payload"] {
            let bytes = Repository.bytes(folder.appendingPathComponent(log + ".jsonl"))
            for strict in [false, true] {
                let slow = ReplayFastPathTests.slow(program, bytes, strict: strict)
                #expect(ReplayFastPathTests.fast(program, bytes, strict: strict) == slow, "\(log)")
            }
        }
        let engine = ReplayFastPathTests.slow(program, Repository.bytes(folder.appendingPathComponent("engine.jsonl")), strict: false)
        #expect(engine.error == nil)
        #expect(engine.cases.first?.contains("a=10 i=1 r=0 t=0 e=4 f=0") == true, "\(engine.cases)")
        let payload = ReplayFastPathTests.slow(program, Repository.bytes(folder.appendingPathComponent("extension-payload.jsonl")),
                                               strict: false)
        #expect(payload.error?.message == "event 'DIGIT' (logged as 'DIGIT.9') has no field 'digit'; its fields are 'value'")
    }
}
