import Foundation
@_spi(RawLines) import Statecraft
import Testing
import TestSupport

/// A recording replays to where the app's machine went, and replay reads a recording's
/// header and a last line cut off the same way on every path.
@Suite struct RecordedReplayTests {
    static func program(_ name: String) throws -> Program {
        let url = Repository.specs.appendingPathComponent(name + ".machine")
        return try Program(specText: String(contentsOf: url, encoding: .utf8), path: "Specs/\(name).machine")
    }

    static let specs = ["CheckoutScreen", "Drawer", "MediaPlayer", "PeekRating", "PullToRefresh", "SwipeToDismiss", "VibrantButton"]

    /// Events sent to an `Instance` as an app sends them, recorded as they go; replaying the
    /// recording reaches the same configuration, variables and outputs, on the in-place
    /// path and with the reading thread.
    @Test(arguments: specs)
    func aRecordedSessionReplaysToWhereTheMachineWent(spec: String) throws {
        let program = try Self.program(spec)
        let machine = program.machine
        for seed in 0..<20 as Range<UInt64> {
            var rng = SeededGenerator(seed: seed)
            var bytes: [UInt8] = []
            let writer = EventLogWriter { bytes += $0 }
            try writer.header(machine: machine.name, spec: SpecFingerprint(file: machine.source))
            var instance = Instance(program)
            var outputs: [String] = []
            let emit: (OutputID, [Value]) -> Void = { output, args in
                let name = machine[output].name
                outputs.append(args.isEmpty ? name : name + "(" + args.map(\.description).joined(separator: ", ") + ")")
            }
            _ = instance.start(emit: emit)
            var time = 0.0
            for _ in 0..<200 {
                time += [0, 0.05, 0.3, 1.1, 2.5].randomElement(using: &rng)!
                let event = machine.events.randomElement(using: &rng)!
                let payload = event.fields.map { field -> Value in
                    switch field.type {
                    case .number: .number([-700, -10, 0, 0.5, 40, 312.5, 600, 900].randomElement(using: &rng)!
                                          + Double(Int.random(in: -3...3, using: &rng)))
                    case .bool: .bool(Bool.random(using: &rng))
                    case .string: .string(["", "❤️", "a\"b", "tab\there"].randomElement(using: &rng)!)
                    }
                }
                instance.advance(to: time, emit: emit)
                _ = instance.send(event.id, payload: payload, emit: emit)
                try writer.event(event.name, time: time) { line throws(EventLogWriter.Failure) in
                    for (field, value) in zip(event.fields, payload) {
                        switch value {
                        case .number(let n): try line.number(field.name, n)
                        case .bool(let b): try line.bool(field.name, b)
                        case .string(let s): try line.string(field.name, s)
                        }
                    }
                }
            }
            // Timers armed with no delay by the last step fire at its time, as replay has it.
            instance.advance(to: time, emit: emit)
            try writer.close()
            for concurrently in [false, true] {
                var reader = EventLogReader(bytes: bytes)
                guard case .replayed(let report, let failure) = ManyLogs.replay(&reader, program: program, options: .init(),
                                                                                 concurrently: concurrently) else {
                    Issue.record("not replayed")
                    return
                }
                #expect(failure == nil)
                #expect(report.warnings.isEmpty, "the header matches the spec")
                let c = try #require(report.cases.first)
                #expect(c.configuration == instance.configuration.names(in: machine), "\(spec) seed \(seed)")
                #expect(c.variables.map(\.value) == instance.variables, "\(spec) seed \(seed)")
                #expect(c.outputCount == outputs.count)
                #expect(c.outputs.map(\.description) == Array(outputs.prefix(Replayer.keptOutputs)), "\(spec) seed \(seed)")
            }
        }
    }

    /// Replays `log` on the three paths, each as `ManyLogs` does: record by record through
    /// `next()` (the reference), in place, and with a reading thread.
    static func replayEveryWay(_ log: String, _ program: Program) throws -> [(ReplayReport, LogError?)] {
        var results: [(ReplayReport, LogError?)] = []
        var reader = EventLogReader(bytes: Array(log.utf8))
        var replayer = Replayer(program: program)
        var failure: LogError?
        do {
            while let record = try reader.next() { try replayer.consume(record) }
        } catch {
            failure = error
        }
        var report = replayer.report
        report.warnings = ManyLogs.warnings(of: reader, program: program)
        results.append((report, failure))
        for concurrently in [false, true] {
            var reader = EventLogReader(bytes: Array(log.utf8))
            guard case .replayed(let report, let failure) = ManyLogs.replay(&reader, program: program, options: .init(),
                                                                             concurrently: concurrently) else {
                throw CancellationError()
            }
            results.append((report, failure))
        }
        return results
    }

    static func drawerHeader() throws -> String {
        let program = try RecordedReplayTests.program("Drawer")
        return #"{"recording": {"machine": "Drawer", "spec": ""# + SpecFingerprint(file: program.machine.source).description + #""}}"#
    }

    @Test func aCutLastLineIsSkippedWithAWarningOnEveryPath() throws {
        let program = try Self.program("Drawer")
        let log = try Self.drawerHeader() + "\n" + """
            {"time": 0.5, "event": "touchBegan", "y": 600, "onContent": true}
            {"time": 0.6, "event": "touchMoved", "y": 500}
            {"time": 0.7, "event": "touchMo
            """
        for (report, failure) in try Self.replayEveryWay(log, program) {
            #expect(failure == nil)
            #expect(report.cases.first?.applied == 2)
            #expect(report.warnings == [LogWarning(.truncatedLogLine, line: 4, column: 32,
                                                   message: "the last line is cut off (no line end, and its object is not closed); replayed up to line 3",
                                                   text: Array(#"{"time": 0.7, "event": "touchMo"#.utf8))])
        }
    }

    /// The same bytes with a line end, or a whole object that breaks a rule, stay errors.
    @Test(arguments: [
        (#"{"time": 0.7, "event": "touchMo"# + "\n", 3, 32),
        (#"{"time": 0.7, "event": "touchMoved"}"#, 3, 24),
        (#"{"time": 0.7, "event": "touchMoved", "y": tru}"#, 3, 43),
        (#"{"recording": {"machine": "Drawer", "spec": "0"}}"#, 3, 2),
    ])
    func otherBadLastLinesStayErrors(last: String, line: Int, column: Int) throws {
        let program = try Self.program("Drawer")
        let log = """
            {"time": 0.5, "event": "touchBegan", "y": 600, "onContent": true}
            {"time": 0.6, "event": "touchMoved", "y": 500}

            """ + last
        for (report, failure) in try Self.replayEveryWay(log, program) {
            #expect(failure?.line == line)
            #expect(failure?.column == column, "\(failure?.message ?? "")")
            #expect(report.cases.first?.applied == 2)
            #expect(report.warnings.isEmpty)
        }
    }

    @Test func aMatchingHeaderIsSilentAndADifferentOneWarns() throws {
        let program = try Self.program("Drawer")
        let event = "\n" + #"{"time": 0.5, "event": "touchBegan", "y": 600, "onContent": true}"# + "\n"
        for (report, failure) in try Self.replayEveryWay(try Self.drawerHeader() + event, program) {
            #expect(failure == nil && report.warnings.isEmpty && report.cases.first?.applied == 1)
        }
        let otherSpec = #"{"recording": {"machine": "Drawer", "spec": "00000000000000ff"}}"#
        for (report, _) in try Self.replayEveryWay("\n" + otherSpec + event, program) {
            #expect(report.warnings.map(\.id) == [.logHeaderMismatch])
            #expect(report.warnings.first?.line == 2)
            #expect(report.warnings.first?.column == 45)
            #expect(report.warnings.first?.message.hasPrefix(
                "the log was recorded against another version of the spec: its fingerprint was 00000000000000ff, the spec's is ") == true)
            #expect(report.cases.first?.applied == 1)
        }
        let otherMachine = #"{"recording": {"machine": "Drawer2", "spec": "00000000000000ff"}}"#
        for (report, _) in try Self.replayEveryWay(otherMachine + event, program) {
            #expect(report.warnings.map(\.message) == ["the log was recorded from machine 'Drawer2', not 'Drawer'"])
            #expect(report.warnings.first?.column == 27)
        }
    }
}
