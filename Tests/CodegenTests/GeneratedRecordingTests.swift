import Foundation
import GeneratedMachines
import Statecraft
import Testing
import TestSupport

/// A generated type's events, recorded with `EventLogWriter`, replay to where the type went;
/// a private field never reaches the recording; `RecentLines` keeps the last lines.
@Suite struct GeneratedRecordingTests {
    /// Writes a recorded event as a log line of case `session`.
    static func write<R: GeneratedRecorded>(_ r: R, session: Int, to log: EventLogWriter) {
        do {
            try log.event(r.name, time: r.time, case: .number(session)) { line throws(EventLogWriter.Failure) in
                try r.forEachField { (name: String, value: R.Value) throws(EventLogWriter.Failure) in
                    if let n = value.numberValue {
                        try line.number(name, n)
                    } else if let b = value.boolValue {
                        try line.bool(name, b)
                    } else {
                        try line.string(name, value.stringValue ?? "")
                    }
                }
            }
        } catch {
            Issue.record("the writer refused \(r.name): \(error)")
        }
    }

    /// 1,000 random sessions of `type`, recorded as the cases of one log; returns the log and
    /// where each session's machine ended (active states, variables, finished).
    static func recordSessions<M: GeneratedMachine>(_ type: M.Type, spec: String, sessions: Int,
                                                    seed: UInt64) throws -> (log: String, ends: [String]) {
        let program = try GeneratedDifferentialTests.program(spec)
        let inputs = GeneratedDifferentialTests.Inputs(program.machine)
        var bytes: [UInt8] = []
        let log = EventLogWriter { bytes += $0 }
        try log.header(machine: program.machine.name, specText: String(contentsOf: Repository.root.appendingPathComponent(spec), encoding: .utf8))
        var rng = SplitMix64(seed: seed)
        var ends: [String] = []
        for session in 0..<sessions {
            var machine = M()
            var time = 0.0
            for _ in 0..<Int(rng.next() % 40) {
                let event = program.machine.events[Int(rng.next() % UInt64(program.machine.events.count))]
                let payload = event.fields.map { inputs.value($0.type, &rng) }
                guard let typed = M.Event(name: event.name, fields: payload.map(GeneratedDifferentialTests.Pair<M>.generatedValue)) else {
                    Issue.record("no event \(event.name)")
                    return ("", [])
                }
                if rng.next() % 3 == 0 { time += Double(rng.next() % 400) / 100 }
                _ = machine.send(typed, at: time) { write($0, session: session, to: log) }
            }
            let variables = machine.variableValues.map { "\($0.name)=\(GeneratedDifferentialTests.Pair<M>.modelValue($0.value))" }
            ends.append("\(machine.configurationNames) \(variables) finished=\(machine.isFinished)")
        }
        try log.close()
        return (String(decoding: bytes, as: UTF8.self), ends)
    }

    /// Where each case of the replay of `log` ended, in case order (the cases are numbers): the
    /// replayer the `replay` command runs, in process, its report's values exact.
    static func replayEnds(spec: String, log: String) throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-rec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("recorded.jsonl").path
        try log.write(toFile: path, atomically: true, encoding: .utf8)
        let program = try GeneratedDifferentialTests.program(spec)
        guard case .replayed(let report, failure: nil) = ManyLogs.replayOne(path, program: program, options: Replayer.Options())
        else {
            Issue.record("\(spec): the recording does not replay")
            return []
        }
        #expect(report.cases.allSatisfy { $0.failures.isEmpty && $0.rejections.isEmpty })
        return report.cases.sorted { Int($0.key ?? "") ?? -1 < Int($1.key ?? "") ?? -1 }.map { c in
            let variables = c.variables.map { "\($0.name)=\($0.value)" }
            return "\(c.configuration) \(variables) finished=\(c.finished)"
        }
    }

    /// Every session: recorded through the generated type, then replayed, ends where the
    /// generated type ended. (A session that sent nothing is no case of the log. The spec with a
    /// private field is not here: its guard reads the field, which the recording empties.)
    @Test(arguments: generatedMachines.map(\.spec).filter { $0.hasPrefix("Specs/") })
    func aRecordingReplaysToWhereTheMachineWent(spec: String) throws {
        let type = try #require(generatedMachines.first { $0.spec == spec }?.type)
        let (log, ends) = try Self.recordSessions(type, spec: spec, sessions: 1_000, seed: 33)
        let sent = Set(log.split(separator: "\n").compactMap { line -> Int? in
            guard let r = line.range(of: "\"case\": ") else { return nil }
            return Int(line[r.upperBound...].prefix { $0.isNumber })
        })
        let replayed = try Self.replayEnds(spec: spec, log: log)
        let expected = ends.enumerated().filter { sent.contains($0.offset) }.map(\.element)
        #expect(replayed.count == expected.count)
        for (k, (mine, theirs)) in zip(expected, replayed).enumerated() where mine != theirs {
            Issue.record("\(spec), session \(k): the generated type ended at \(mine), replay at \(theirs)")
            break
        }
    }

    /// A private field's value never reaches the recording: the line holds the type's empty value.
    @Test func aPrivateFieldNeverReachesTheRecording() throws {
        var machine = Fixture_private_fields()
        var bytes: [UInt8] = []
        let log = EventLogWriter { bytes += $0 }
        _ = machine.send(.submit(name: "ada", password: "hunter2-secret", remember: true), at: 1) {
            Self.write($0, session: 0, to: log)
        }
        try log.close()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("hunter2"))
        #expect(text == #"{"time": 1, "case": 0, "event": "submit", "name": "ada", "password": "", "remember": true}"# + "\n")
        // The machine itself saw the password: the guard `password != ""` let the step through.
        #expect(machine.configurationNames == ["waiting"])
        #expect(machine.attempts == 1)
    }

    /// The ring keeps the last lines whole, drops the oldest, and its text replays.
    @Test func recentLinesKeepsTheLastLines() throws {
        let recent = RecentLines(capacity: 3)
        let log = EventLogWriter(bufferSize: 1, sink: recent.sink)
        for y in 1...5 {
            try log.event("touchMoved", time: Double(y)) { line throws(EventLogWriter.Failure) in try line.number("y", Double(y)) }
        }
        #expect(recent.keptLines == [
            #"{"time": 3, "event": "touchMoved", "y": 3}"#,
            #"{"time": 4, "event": "touchMoved", "y": 4}"#,
            #"{"time": 5, "event": "touchMoved", "y": 5}"#,
        ])
        let small = RecentLines(capacity: 10, byteLimit: 90)
        let other = EventLogWriter(bufferSize: 1, sink: small.sink)
        for y in 1...5 {
            try other.event("touchMoved", time: Double(y)) { line throws(EventLogWriter.Failure) in try line.number("y", Double(y)) }
        }
        #expect(small.keptLines.count == 2)  // 42 bytes a line: two fit in 90
        #expect(small.text.hasSuffix("\"y\": 5}\n"))
    }
}
