import StatecraftEventLog
import StatecraftModel

/// Names the fast path looks up by their bytes, and payload buffers it refills in place.
struct RawLookup {
    var events: ByteNameTable
    var fields: [ByteNameTable]
    var payloads: [[Value]]
    var filled: [[Bool]]

    init(_ machine: Machine) {
        events = ByteNameTable(machine.events.map(\.name))
        fields = machine.events.map { ByteNameTable($0.fields.map(\.name)) }
        payloads = machine.events.map { $0.fields.map { f in f.type.zero } }
        filled = machine.events.map { Array(repeating: false, count: $0.fields.count) }
    }
}

extension Replayer {
    /// Applies an event line read in place by `EventLogReader.nextRaw`, without allocating
    /// in the common case. Anything unusual (an unknown name, a missing or mistyped field)
    /// goes through `consume(_:)` with the full record, so errors are exactly the same.
    public mutating func consume(raw line: RawEventLine, trace: (TraceStep) -> Void = { _ in }) throws(LogError) {
        guard let event = lookup.events.index(of: line.name, in: line), resolveRawPayload(line, event: event) else {
            try consume(line.record(), trace: trace)
            return
        }
        records += 1
        let caseKey = caseString(line)
        let existing = existingRun(for: caseKey)
        let time = try checkedTime(line.time, offset: line.timeOffset, caseKey: caseKey, run: existing, line)
        let index = existing ?? openRun(for: caseKey, line: line.line)
        advance(index, to: time, line, trace: trace)
        let payload = lookup.payloads[event]
        lookup.payloads[event] = Replayer.emptyPayload  // so the buffer stays uniquely owned while it is used
        apply(EventID(event), payload, runIndex: index, caseKey: caseKey, nameOffset: line.nameOffset, line, trace: trace)
        lookup.payloads[event] = payload
    }

    static let emptyPayload: [Value] = []

    /// Fills the event's payload buffer from the line; false if a field is unknown, mistyped
    /// or missing (the slow path then reports it).
    private mutating func resolveRawPayload(_ line: RawEventLine, event: Int) -> Bool {
        let fields = program.machine.events[event].fields
        if fields.isEmpty { return line.fields.isEmpty }
        for i in lookup.filled[event].indices { lookup.filled[event][i] = false }
        for field in line.fields {
            guard let slot = lookup.fields[event].index(of: field.key, in: line) else { return false }
            switch (field.value, fields[slot].type) {
            case (.number(let n), .number): lookup.payloads[event][slot] = .number(n)
            case (.bool(let b), .bool): lookup.payloads[event][slot] = .bool(b)
            case (.string(let r), .string): lookup.payloads[event][slot] = .string(line.string(r))
            default: return false
            }
            lookup.filled[event][slot] = true
        }
        return !lookup.filled[event].contains(false)
    }

    private func caseString(_ line: RawEventLine) -> String? {
        guard let range = line.caseKey else { return nil }
        return line.string(range)
    }
}
