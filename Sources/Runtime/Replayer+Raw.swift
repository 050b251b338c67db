import StatecraftEventLog
import StatecraftModel

/// Names the in-place path looks up by their bytes, and the buffers it stages a line's
/// payload in. A class, so the replayer holds it with one reference and never copies its
/// tables; the staging buffers are scratch space for one line at a time.
final class RawLookup {
    let events: ByteNameTable
    let fields: [ByteNameTable]
    /// Each event's field types, by slot.
    let types: [[ValueType]]
    /// The payload of the line being applied, by field slot: numbers and bools (0 or 1)
    /// here, strings in `stagedStrings`. Room for the widest event.
    let stagedNumbers: UnsafeMutablePointer<Double>
    let width: Int
    @exclusivity(unchecked) var stagedStrings: [String]

    init(_ machine: Machine) {
        events = ByteNameTable(machine.events.map(\.name))
        fields = machine.events.map { ByteNameTable($0.fields.map(\.name)) }
        types = machine.events.map { $0.fields.map(\.type) }
        width = max(1, machine.events.map(\.fields.count).max() ?? 0)
        stagedNumbers = .allocate(capacity: width)
        stagedNumbers.initialize(repeating: 0, count: width)
        stagedStrings = Array(repeating: "", count: width)
    }

    deinit {
        stagedNumbers.deallocate()
    }

    /// The line's event, with its payload staged by field slot; nil if the event is unknown
    /// or a field is unknown, mistyped or missing (the slow path then reports it).
    func stage(_ line: RawEventLine) -> Int? {
        guard let event = events.index(of: line.name, in: line) else { return nil }
        let types = self.types[event]
        if types.count != line.fields.count { return nil }
        // Keys are unique (the reader declines duplicates), so as many known keys as fields
        // means every field is there.
        for field in line.fields {
            guard let slot = fields[event].index(of: field.key, in: line) else { return nil }
            switch (field.value, types[slot]) {
            case (.number(let n), .number): stagedNumbers[slot] = n
            case (.bool(let b), .bool): stagedNumbers[slot] = b ? 1 : 0
            case (.string(let r), .string): stagedStrings[slot] = line.string(r)
            default: return nil
            }
        }
        return event
    }
}

/// Where a staged line's payload is: numbers by field slot, strings by field slot.
struct StagedPayload {
    var numbers: UnsafeBufferPointer<Double>
    var strings: UnsafeBufferPointer<String>
}

extension Replayer {
    /// Reads `reader` to its end and applies every line: plain event lines in place (no
    /// allocation per line), anything else as a full record. Throws at the first line that
    /// breaks the log's contract; everything before it stays in `report`.
    ///
    /// With `concurrently`, a second thread reads and stages lines in batches while this one
    /// applies them (same results, same errors, in the same order); use it for files, not
    /// for a live stream whose lines should be applied as they arrive.
    public mutating func replay(_ reader: inout EventLogReader, concurrently: Bool = false,
                                trace: (TraceStep) -> Void = { _ in }) throws(LogError) {
        if concurrently {
            try replayPipelined(&reader, trace: trace)
            return
        }
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
        guard let event = lookup.stage(line) else {
            try consume(line.record(), trace: trace)
            return
        }
        let numbers = UnsafeBufferPointer(start: lookup.stagedNumbers, count: lookup.width)
        try lookup.stagedStrings.withUnsafeBufferPointer { (strings) throws(LogError) in
            try apply(staged: event, payload: StagedPayload(numbers: numbers, strings: strings),
                      caseKey: line.caseKey.map(line.slice), time: line.time, timeOffset: line.timeOffset,
                      nameOffset: line.nameOffset, line, trace: trace)
        }
    }

    /// Applies an event line whose event and payload are already resolved.
    mutating func apply<L: ReplayLine>(staged event: Int, payload: StagedPayload, caseKey: UnsafeBufferPointer<UInt8>?,
                                       time: Double?, timeOffset: Int?, nameOffset: Int, _ source: L,
                                       trace: (TraceStep) -> Void) throws(LogError) {
        records += 1
        let existing = caseKey.map { cases.run(for: $0) } ?? defaultRun
        let caseString = { caseKey.map { String(decoding: $0, as: UTF8.self) } }
        let time = try checkedTime(time, offset: timeOffset, caseKey: caseString(), run: existing, source)
        let index = existing ?? openRun(for: caseString(), line: source.lineNumber)
        advance(index, to: time, source, trace: trace)
        runs[index].instance.loadPayload(event, payload)
        apply(EventID(event), runIndex: index, nameOffset: nameOffset, source, trace: trace)
    }
}
