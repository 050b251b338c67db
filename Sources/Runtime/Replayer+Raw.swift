import StatecraftEventLog
import StatecraftModel

/// Names the fast path looks up by their bytes, cases by their key's bytes, and the payload
/// of the line being read, staged by field slot.
struct RawLookup {
    var events: ByteNameTable
    var fields: [ByteNameTable]
    /// Each event's field types, by slot.
    var types: [[ValueType]]
    var cases = CaseTable()
    /// The line's payload by field slot: numbers and bools (0 or 1) here, strings in
    /// `stagedStrings`. Room for the widest event.
    var stagedNumbers: [Double]
    var stagedStrings: [String]

    init(_ machine: Machine) {
        events = ByteNameTable(machine.events.map(\.name))
        fields = machine.events.map { ByteNameTable($0.fields.map(\.name)) }
        types = machine.events.map { $0.fields.map(\.type) }
        let widest = machine.events.map(\.fields.count).max() ?? 0
        stagedNumbers = Array(repeating: 0, count: max(1, widest))
        stagedStrings = Array(repeating: "", count: widest)
    }
}

extension Replayer {
    /// Reads `reader` to its end and applies every line: plain event lines in place (no
    /// allocation per line), anything else as a full record. Throws at the first line that
    /// breaks the log's contract; everything before it stays in `report`.
    public mutating func replay(_ reader: inout EventLogReader, trace: (TraceStep) -> Void = { _ in }) throws(LogError) {
        while try reader.nextRaw({ (line: RawLine) throws(LogError) in
            switch line {
            case .event(let raw): try consume(raw: raw, trace: trace)
            case .record(let record): try consume(record, trace: trace)
            }
        }) {}
    }

    /// Applies an event line read in place by `EventLogReader.nextRaw`, without allocating
    /// in the common case. Anything unusual (an unknown name, a missing or mistyped field)
    /// goes through `consume(_:)` with the full record, so errors are exactly the same.
    public mutating func consume(raw line: RawEventLine, trace: (TraceStep) -> Void = { _ in }) throws(LogError) {
        guard let event = lookup.events.index(of: line.name, in: line), stage(line, event: event) else {
            try consume(line.record(), trace: trace)
            return
        }
        records += 1
        let existing = line.caseKey.map { lookup.cases.run(for: line.slice($0)) } ?? defaultRun
        let time = try checkedTime(line.time, offset: line.timeOffset, caseKey: line.caseKey.map(line.string), run: existing, line)
        let index = existing ?? openRun(for: line.caseKey.map(line.string), line: line.line)
        advance(index, to: time, line, trace: trace)
        lookup.stagedNumbers.withUnsafeBufferPointer { staged in
            runs[index].instance.loadPayload(event, numbers: staged, strings: lookup.stagedStrings)
        }
        apply(EventID(event), runIndex: index, nameOffset: line.nameOffset, line, trace: trace)
    }

    /// Stages the line's payload by field slot; false if a field is unknown, mistyped or
    /// missing (the slow path then reports it).
    private mutating func stage(_ line: RawEventLine, event: Int) -> Bool {
        let types = lookup.types[event]
        if types.count != line.fields.count { return false }
        if types.isEmpty { return true }
        // Keys are unique (the reader declines duplicates), so as many known keys as fields
        // means every field is there.
        for field in line.fields {
            guard let slot = lookup.fields[event].index(of: field.key, in: line) else { return false }
            switch (field.value, types[slot]) {
            case (.number(let n), .number): lookup.stagedNumbers[slot] = n
            case (.bool(let b), .bool): lookup.stagedNumbers[slot] = b ? 1 : 0
            case (.string(let r), .string): lookup.stagedStrings[slot] = line.string(r)
            default: return false
            }
        }
        return true
    }
}
