@_spi(RawLines) import StatecraftEventLog
import StatecraftModel
import StatecraftRuntime

/// Names the in-place path looks up by their bytes, and the buffers it stages a line's
/// payload in. A class, so the replayer holds it with one reference and never copies its
/// tables; the staging buffers are scratch space for one line at a time.
final class RawLookup {
    /// Every name a log may give an event exactly (`Machine.logNames`): declared names first,
    /// so name `k < eventCount` is event `k`, then external names, whose events
    /// `externalEvents[k - eventCount]` gives.
    let events: ByteNameTable
    private let eventCount: Int
    private let externalEvents: FrozenTable<Int>
    /// The external names written with `.*` (`Machine.extensionStems`), looked up only for a
    /// name no event has, one prefix at a time, longest first; their events in `stemEvents`.
    private let stems: ByteNameTable
    private let stemEvents: FrozenTable<Int>
    let fields: [ByteNameTable]
    /// The payload of the line being applied, by field slot: numbers and bools (0 or 1)
    /// here, strings in `stagedStrings`. Room for the widest event.
    let stagedNumbers: UnsafeMutablePointer<Double>
    let width: Int
    let stagedStrings: UnsafeMutablePointer<String>
    /// The program, whose flat field tables (`payloadStart`, `fieldTypes`) these follow:
    /// field `k` of the machine has its name's bytes at `names[nameStart[k] ..< nameStart[k + 1]]`.
    private let program: Program
    private let names: FrozenTable<UInt8>
    private let nameStart: FrozenTable<Int>
    /// For each event and position in the line, the field slot found there in the previous
    /// line of that event (-1: none yet). Lines of one event almost always list their keys in
    /// the same order, so a key is compared with that field's name first and hashed only
    /// when it differs.
    private let expected: UnsafeMutablePointer<Int>
    /// Event names' bytes, as for fields: event `e`'s at `eventNames[eventNameStart[e] ..< eventNameStart[e + 1]]`.
    private let eventNames: FrozenTable<UInt8>
    private let eventNameStart: FrozenTable<Int>
    /// The event of the previous line: lines of one event often follow each other, so the
    /// name is compared with it before it is hashed.
    private var lastEvent = -1

    init(_ program: Program) {
        self.program = program
        let machine = program.machine
        let logNames = machine.logNames
        events = ByteNameTable(logNames.map(\.name))
        eventCount = machine.events.count
        externalEvents = FrozenTable(logNames.dropFirst(machine.events.count).map(\.event.index))
        let extensionStems = machine.extensionStems
        stems = ByteNameTable(extensionStems.map(\.name))
        stemEvents = FrozenTable(extensionStems.map(\.event.index))
        fields = machine.events.map { ByteNameTable($0.fields.map(\.name)) }
        width = max(1, machine.events.map(\.fields.count).max() ?? 0)
        stagedNumbers = .allocate(capacity: width)
        stagedNumbers.initialize(repeating: 0, count: width)
        stagedStrings = .allocate(capacity: width)
        stagedStrings.initialize(repeating: "", count: width)
        (names, nameStart) = RawLookup.packed(machine.events.flatMap(\.fields).map(\.name))
        (eventNames, eventNameStart) = RawLookup.packed(machine.events.map(\.name))
        expected = .allocate(capacity: max(1, machine.events.count * width))
        expected.initialize(repeating: -1, count: max(1, machine.events.count * width))
    }

    deinit {
        stagedNumbers.deallocate()
        stagedStrings.deinitialize(count: width)
        stagedStrings.deallocate()
        expected.deallocate()
        names.free()
        nameStart.free()
        eventNames.free()
        eventNameStart.free()
        externalEvents.free()
        stemEvents.free()
    }

    /// The line's event, with its payload staged by field slot; nil if the event is unknown
    /// or a field is unknown, mistyped or missing (the slow path then reports it).
    func stage(_ line: RawEventLine) -> Int? {
        let event: Int
        if lastEvent >= 0 && RawLookup.spells(eventNames, eventNameStart, lastEvent, line.name, line) {
            event = lastEvent
        } else {
            guard let found = events.index(of: line.name, in: line) ?? extensionEvent(line) else { return nil }
            event = found < eventCount ? found : externalEvents[found - eventCount]
            // An external name is not remembered: the comparison above is with declared
            // names. (An extension's event is, and the next line's comparison then misses.)
            if found < eventCount { lastEvent = found }
        }
        let base = Int(program.payloadStart[event])
        let fields = line.fields
        // Keys are unique (the reader declines duplicates), so as many known keys as fields
        // means every field is there.
        if Int(program.payloadStart[event + 1]) - base != fields.count { return nil }
        var position = 0
        while position < fields.count {
            let key = fields[position].key
            let memo = expected + (event * width + position)
            var slot = memo.pointee
            if slot < 0 || !RawLookup.spells(names, nameStart, base + slot, key, line) {
                guard let found = self.fields[event].index(of: key, in: line) else { return nil }
                slot = found
                memo.pointee = found
            }
            switch (fields[position].value, program.fieldTypes[base + slot]) {
            case (.number(let n), .number): stagedNumbers[slot] = n
            case (.bool(let b), .bool): stagedNumbers[slot] = b ? 1 : 0
            case (.string(let r), .string): stagedStrings[slot] = line.string(r)
            default: return nil
            }
            position += 1
        }
        return event
    }

    /// For a name no event has: the event whose `.*` external name is the longest prefix of
    /// it ending before a `.`, as an index into `events`' numbering (an event's own index);
    /// nil when none is. Walks the name's bytes in place.
    private func extensionEvent(_ line: RawEventLine) -> Int? {
        guard stems.count > 0 else { return nil }
        let name = line.slice(line.name)
        var end = name.count
        while end > 0 {
            end -= 1
            if name[end] == UInt8(ascii: "."), let k = stems.index(of: UnsafeBufferPointer(rebasing: name[0..<end])) {
                return stemEvents[k]
            }
        }
        return nil
    }

    /// Names' UTF-8 back to back, and where each starts: name `k` is
    /// `bytes[start[k] ..< start[k + 1]]`.
    private static func packed(_ names: [String]) -> (bytes: FrozenTable<UInt8>, start: FrozenTable<Int>) {
        var bytes: [UInt8] = []
        var start = [0]
        for name in names {
            bytes.append(contentsOf: name.utf8)
            start.append(bytes.count)
        }
        return (FrozenTable(bytes), FrozenTable(start))
    }

    /// Whether the bytes of `range` in `line` spell name `k` of a table made by `packed`.
    @inline(__always)
    private static func spells(_ names: FrozenTable<UInt8>, _ start: FrozenTable<Int>, _ k: Int, _ range: Range<Int>,
                               _ line: RawEventLine) -> Bool {
        let first = start[k]
        guard start[k + 1] - first == range.count, let bytes = line.bytes.baseAddress else { return false }
        return ByteNameTable.equal(UnsafePointer(names.base + first), bytes + range.lowerBound, range.count)
    }
}

extension Replayer {
    /// Reads `reader` to its end and applies every line: plain event lines in place (no
    /// allocation per line), anything else as a full record. Throws at the first line that
    /// breaks the log's contract; everything before it stays in `report`.
    ///
    /// With `concurrently`, a second thread reads and scans lines in batches while this one
    /// applies them (same results, same errors, in the same order); use it for files, not
    /// for a live stream whose lines should be applied as they arrive.
    public mutating func replay(_ reader: inout EventLogReader, concurrently: Bool = false,
                                trace: (consuming TraceStep) -> Void = { _ in }) throws(LogError) {
        traceFlushLimit = 1
        try replay(&reader, concurrently: concurrently, sink: { Replayer.deliver($0, to: trace) })
    }

    /// `replay(_:concurrently:trace:)` for a writer that formats many steps at a time: the
    /// traced steps go to `traceBatches` in batches of about `TraceBatch.preferredCount`
    /// (with `concurrently`; otherwise each step as it happens, for a live stream), and what
    /// is left when the replay ends, or stops at a bad line, before it returns or throws.
    public mutating func replay(_ reader: inout EventLogReader, concurrently: Bool = false,
                                traceBatches: TraceSink) throws(LogError) {
        traceFlushLimit = concurrently ? TraceBatch.preferredCount : 1
        try replay(&reader, concurrently: concurrently, sink: traceBatches)
    }

    private mutating func replay(_ reader: inout EventLogReader, concurrently: Bool, sink: TraceSink) throws(LogError) {
        defer { flushTrace(sink) }
        if concurrently {
            try replayPipelined(&reader, sink: sink)
        } else {
            while try reader.nextRaw({ (line: RawLine) throws(LogError) in
                switch line {
                case .event(let raw): try consume(raw: raw, sink: sink)
                case .record(let record): try consume(record, sink: sink)
                }
            }) {}
        }
        finishInstant(afterLine: reader.linesRead, sink: sink)
        if options.settle { settle(afterLine: reader.linesRead, sink: sink) }
    }

    /// Applies an event line read in place by `EventLogReader.nextRaw`, without allocating
    /// in the common case. Anything unusual (an unknown name, a missing or mistyped field)
    /// goes through `consume(_:)` with the full record, so errors are exactly the same.
    package mutating func consume(raw line: RawEventLine, trace: (consuming TraceStep) -> Void = { _ in }) throws(LogError) {
        traceFlushLimit = 1
        try consume(raw: line, sink: { Replayer.deliver($0, to: trace) })
    }

    /// `consume(raw:trace:)`, with traced steps going to `sink` when `traceBatch` is full.
    @inline(__always)
    mutating func consume(raw line: RawEventLine, sink: TraceSink) throws(LogError) {
        guard let event = lookup.stage(line) else {
            try consume(line.record(), sink: sink)
            return
        }
        let payload = StagedPayload(numbers: UnsafeBufferPointer(start: lookup.stagedNumbers, count: lookup.width),
                                    strings: UnsafeBufferPointer(start: lookup.stagedStrings, count: lookup.width))
        try apply(staged: event, payload: payload, caseKey: line.caseKey.map(line.slice), time: line.time,
                  timeOffset: line.timeOffset, nameOffset: line.nameOffset, line, sink: sink)
    }

    /// A case key's bytes as the `String` reports use (only for errors and new cases).
    static func caseString(_ key: UnsafeBufferPointer<UInt8>?) -> String? {
        key.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Applies an event line whose event and payload are already resolved.
    @inline(__always)
    mutating func apply<L: ReplayLine>(staged event: Int, payload: StagedPayload, caseKey: UnsafeBufferPointer<UInt8>?,
                                       time: Double?, timeOffset: Int?, nameOffset: Int, _ source: L,
                                       sink: TraceSink) throws(LogError) {
        records += 1
        // No closures here: a captured context would be allocated on every line.
        let existing: Int?
        if let key = caseKey { existing = existingRun(forKey: key) } else { existing = defaultRun }
        let time = try checkedTime(time, offset: timeOffset, caseKey: Replayer.caseString(caseKey), run: existing, source)
        let index = existing ?? openRun(for: Replayer.caseString(caseKey), source: source)
        advance(index, to: time, source, sink: sink)
        apply(EventID(event), runIndex: index, loading: payload, nameOffset: nameOffset, source, sink: sink)
        try checkDeadlines(index, timeOffset: timeOffset, nameOffset: nameOffset, source)
    }
}
