import Statecraft

/// A log decoded once, ahead of timing: what `Instance.send` and the hand-written machines
/// step through.
struct DecodedLog {
    /// One event line, resolved against the machine.
    struct Event {
        var id: EventID
        var payload: [Value]
        var time: Double?
        /// Index into the instances, one per `case` (the lines without a case share one).
        var run: Int
    }

    var events: [Event] = []
    var runCount = 0
    /// How many of the events the generated and hand-written machines step (all when nil):
    /// the allocation probe builds their events from the whole log, and steps N or 2N of them.
    var stepLimit: Int?

    /// Reads the log with the public reader and resolves names and fields the way the
    /// replayer does; nil (with a message) if a line does not fit the machine.
    static func decode(path: String, program: Program) -> Result<DecodedLog, BenchError> {
        var decoded = DecodedLog()
        var runs: [String: Int] = [:]
        do {
            var reader = try EventLogReader.open(path: path)
            while let record = try reader.next() {
                guard case .event(let name, _, let members) = record.body else { continue }
                guard let id = program.event(named: name) else {
                    return .failure(BenchError("line \(record.line): unknown event '\(name)'"))
                }
                let fields = program.machine[id].fields
                var payload = Array(repeating: Value.number(0), count: fields.count)
                for member in members {
                    guard let slot = program.machine[id].fieldIndex(member.key) else {
                        return .failure(BenchError("line \(record.line): unknown field '\(member.key)'"))
                    }
                    switch member.value {
                    case .number(let n): payload[slot] = .number(n)
                    case .bool(let b): payload[slot] = .bool(b)
                    case .string(let s): payload[slot] = .string(s)
                    default: return .failure(BenchError("line \(record.line): unsupported value"))
                    }
                }
                let key = record.caseKey ?? ""
                let run = runs[key] ?? runs.count
                runs[key] = run
                decoded.events.append(Event(id: id, payload: payload, time: record.time, run: run))
            }
        } catch {
            return .failure(BenchError("\(path):\(error.line):\(error.column): \(error.message)"))
        }
        decoded.runCount = runs.count
        return .success(decoded)
    }

    /// Steps fresh instances through the first `count` events: advance to the line's time
    /// (firing timers), then send. Returns the instances at the end.
    @inline(never)  // one symbol for a profiler to collect, whoever calls it
    func step(_ program: Program, count: Int? = nil) -> [Instance] {
        var instances = (0..<max(1, runCount)).map { _ in
            var instance = Instance(program)
            _ = instance.start()
            return instance
        }
        let limit = min(count ?? events.count, events.count)
        instances.withUnsafeMutableBufferPointer { runs in
            events.withUnsafeBufferPointer { all in
                // By index, not `for e in`: a copy of each event would retain and release its payload.
                for k in 0..<limit {
                    let run = all[k].run
                    if let time = all[k].time { runs[run].advance(to: time) }
                    _ = runs[run].send(all[k].id, payload: all[k].payload)
                }
            }
        }
        return instances
    }

    /// The events on one `EventTape` per run, in log order.
    func tapes(_ program: Program) -> [EventTape] {
        var tapes = Array(repeating: EventTape(program), count: max(1, runCount))
        for e in events { tapes[e.run].append(e.id, payload: e.payload, time: e.time) }
        return tapes
    }

    /// Steps a fresh instance per run through its tape with `Instance.run`. Returns the
    /// instances at the end.
    @inline(never)
    static func run(_ tapes: [EventTape], _ program: Program) -> [Instance] {
        tapes.map { tape in
            var instance = Instance(program)
            _ = instance.start()
            instance.run(tape)
            return instance
        }
    }

    /// The events as `HandEvent`s for a hand-written machine whose event codes follow
    /// `names`; nil when the log has cases (these hand-written machines have one run).
    func handEvents(names: [String], program: Program) -> [HandEvent]? {
        guard runCount <= 1 else { return nil }
        return handEvents(program: program) { line in
            var number = 0.0
            var flag = false
            for value in line.payload {
                switch value {
                case .number(let n): number = n
                case .bool(let b): flag = b
                case .string: break
                }
            }
            return HandEvent(code: UInt8(names.firstIndex(of: line.name) ?? 255), number: number, flag: flag, time: line.time)
        }
    }

    /// The events as a hand-written machine's own event type, made by `make` from each line
    /// (here, before any clock starts: the run itself only reads them); nil if `make` refuses
    /// a line. A line without a time happens at its case's latest time, as in replay.
    func handEvents<E>(program: Program, _ make: (HandLine) -> E?) -> [E]? {
        var times = Array(repeating: 0.0, count: max(1, runCount))
        var made: [E] = []
        made.reserveCapacity(events.count)
        for e in events {
            times[e.run] = e.time ?? times[e.run]
            let event = program.machine[e.id]
            guard let m = make(HandLine(name: event.name, run: e.run, time: times[e.run], payload: e.payload,
                                        fields: event.fields)) else { return nil }
            made.append(m)
        }
        return made
    }
}

/// One log line, for making a hand-written machine's event: the event's name, its case (an
/// index into the runs), its time, and its payload, read by field name.
struct HandLine {
    var name: String
    var run: Int
    var time: Double
    var payload: [Value]
    var fields: [Field]

    private func value(_ field: String) -> Value? { fields.firstIndex { $0.name == field }.map { payload[$0] } }

    func number(_ field: String) -> Double {
        if case .number(let n)? = value(field) { return n }
        return .nan
    }

    func flag(_ field: String) -> Bool {
        if case .bool(let b)? = value(field) { return b }
        return false
    }

    func string(_ field: String) -> String {
        if case .string(let s)? = value(field) { return s }
        return ""
    }
}

/// A benchmark failure with a message for standard error.
struct BenchError: Error {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}

/// The interpreter's end of each run of a log (`DecodedLog.step`), which a hand-written or
/// generated machine's end must equal: the active states' names, outermost first, and every
/// variable of the spec, by name (numbers exactly: the same operations give the same bits).
struct FinalStates {
    let program: Program
    let instances: [Instance]

    init(_ decoded: DecodedLog, _ program: Program) {
        self.program = program
        instances = decoded.step(program)
    }

    /// Nil when run `k` ended with these states and variables (`variables` must name every
    /// variable of the spec); otherwise what differs, for the table.
    func difference(_ k: Int, names: [String], variables: [(name: String, value: Value)]) -> String? {
        guard k < instances.count else { return "no run \(k)" }
        let instance = instances[k]
        let expected = instance.activeStates.map { program.machine[$0].name }
        let which = instances.count > 1 ? "case \(k + 1): " : ""
        if names != expected { return which + "\(names.joined(separator: ",")), not \(expected.joined(separator: ","))" }
        let declared = Set(program.machine.variables.map(\.name))
        if Set(variables.map(\.name)) != declared { return which + "variables \(variables.map(\.name)), not \(declared.sorted())" }
        for (name, value) in variables where instance.value(of: name) != value {
            return which + "\(name) = \(value), not \(instance.value(of: name).map { "\($0)" } ?? "nil")"
        }
        return nil
    }

    /// "same end state" (with the number of runs when the log has cases), or "DIFFERS: …"
    /// for the first run that differs; `end(k)` gives a machine's end of run `k`.
    func verdict(_ runs: Int, _ end: (Int) -> (names: [String], variables: [(name: String, value: Value)])) -> String {
        guard runs == instances.count else { return "DIFFERS: \(runs) runs, not \(instances.count)" }
        for k in 0..<runs {
            let (names, variables) = end(k)
            if let difference = difference(k, names: names, variables: variables) { return "DIFFERS: " + difference }
        }
        return "same end state" + (runs > 1 ? " (\(runs) cases)" : "")
    }
}
