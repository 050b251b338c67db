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
    /// How many of the events the generated machines step (all when nil): the allocation
    /// probe builds the typed events of the whole log, and steps N or 2N of them.
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
    /// `names`; nil when the log has cases (the hand-written machines have one run).
    func handEvents(names: [String], program: Program) -> [HandEvent]? {
        guard runCount <= 1 else { return nil }
        let codes = program.machine.events.map { event in UInt8(names.firstIndex(of: event.name) ?? 255) }
        var time = 0.0
        return events.map { e in
            time = e.time ?? time
            var number = 0.0
            var flag = false
            for value in e.payload {
                switch value {
                case .number(let n): number = n
                case .bool(let b): flag = b
                case .string: break
                }
            }
            return HandEvent(code: codes[e.id.index], number: number, flag: flag, time: time)
        }
    }
}

/// A benchmark failure with a message for standard error.
struct BenchError: Error {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
