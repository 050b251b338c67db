import Dispatch
import StatecraftEventLog
import StatecraftModel

/// Lines read and staged by the reading thread, handed to the replaying thread in order.
final class LineBatch: @unchecked Sendable {  // owned by one thread at a time, handed over through semaphores
    /// One line: a staged event line, or a record.
    struct Entry {
        var line: Int
        /// The line's bytes in `bytes`.
        var start: Int32
        var count: Int32
        /// The staged event, or -1 when the line is `records[record]`.
        var event: Int32
        var record: Int32
        /// The payload by field slot, from `numbers[numbers]` (and `strings[strings]`).
        var numbers: Int32
        var strings: Int32
        var time: Double
        var hasTime: Bool
        var timeOffset: Int32
        var nameOffset: Int32
        /// The case key's bytes within the line; count -1 when the line has no case.
        var caseStart: Int32
        var caseCount: Int32
    }

    static let lineLimit = 4096
    static let byteLimit = 1 << 19

    // One thread at a time: no run-time exclusivity checks.
    @exclusivity(unchecked) var entries: [Entry] = []
    @exclusivity(unchecked) var bytes: [UInt8] = []
    @exclusivity(unchecked) var numbers: [Double] = []
    @exclusivity(unchecked) var strings: [String] = []
    @exclusivity(unchecked) var records: [LogRecord] = []
    /// The error that ended the log after these lines, if any.
    @exclusivity(unchecked) var failure: LogError?
    /// Whether the log ends after these lines.
    @exclusivity(unchecked) var isLast = false

    var isFull: Bool { entries.count >= LineBatch.lineLimit || bytes.count >= LineBatch.byteLimit }

    func reset() {
        entries.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        numbers.removeAll(keepingCapacity: true)
        if !strings.isEmpty { strings.removeAll(keepingCapacity: true) }
        if !records.isEmpty { records.removeAll(keepingCapacity: true) }
        failure = nil
        isLast = false
    }

    /// Appends a line read in place: staged if `lookup` resolves it, else as its record.
    func append(_ line: RawEventLine, _ lookup: RawLookup) {
        let start = bytes.count
        bytes.append(contentsOf: line.bytes)
        let numbersStart = numbers.count
        for _ in 0..<lookup.stagedNumbers.count { numbers.append(0) }
        let stringsStart = strings.count
        var stringsUsed = false
        let event = numbers.withUnsafeMutableBufferPointer { n -> Int? in
            guard let base = n.baseAddress else { return nil }
            return lookup.stage(line, numbers: base + numbersStart) { slot, value in
                if !stringsUsed {
                    strings.append(contentsOf: repeatElement("", count: lookup.stagedStrings.count))
                    stringsUsed = true
                }
                strings[stringsStart + slot] = value
            }
        }
        guard let event else {
            numbers.removeSubrange(numbersStart...)
            appendRecord(line.record())
            return
        }
        entries.append(Entry(line: line.line, start: Int32(start), count: Int32(line.bytes.count), event: Int32(event),
                             record: -1, numbers: Int32(numbersStart), strings: Int32(stringsStart),
                             time: line.time ?? 0, hasTime: line.time != nil, timeOffset: Int32(line.timeOffset ?? 0),
                             nameOffset: Int32(line.nameOffset), caseStart: Int32(line.caseKey?.lowerBound ?? 0),
                             caseCount: Int32(line.caseKey?.count ?? -1)))
    }

    func appendRecord(_ record: LogRecord) {
        records.append(record)
        entries.append(Entry(line: record.line, start: 0, count: 0, event: -1, record: Int32(records.count - 1),
                             numbers: 0, strings: 0, time: 0, hasTime: false, timeOffset: 0, nameOffset: 0,
                             caseStart: 0, caseCount: -1))
    }
}

/// A staged line as the replayer reports it: its number, and its bytes in the batch.
struct BatchLine: ReplayLine {
    var lineNumber: Int
    var bytes: UnsafeBufferPointer<UInt8>

    func lineText() -> [UInt8] { Array(bytes) }
    func lineColumn(ofByte offset: Int) -> Int { LogRecord.column(ofByte: offset, in: lineText()) }
}

/// The two threads' shared state: a ring of batches, semaphores that hand them over, and
/// the reader, which only the reading thread touches until it has finished.
private final class Pipeline: @unchecked Sendable {  // every field is handed over through the semaphores
    static let depth = 3
    let batches = (0..<Pipeline.depth).map { _ in LineBatch() }
    let empty = DispatchSemaphore(value: Pipeline.depth)
    let full = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    @exclusivity(unchecked) var reader: EventLogReader
    let lookup: RawLookup
    /// Set by the replaying thread when it stops early; read by the reading thread.
    private let stopLock = DispatchSemaphore(value: 1)
    private var stopRequested = false

    init(reader: EventLogReader, lookup: RawLookup) {
        self.reader = reader
        self.lookup = lookup
    }

    var shouldStop: Bool {
        stopLock.wait()
        defer { stopLock.signal() }
        return stopRequested
    }

    func requestStop() {
        stopLock.wait()
        stopRequested = true
        stopLock.signal()
    }

    /// The reading thread: fills batches in ring order until the log ends or fails.
    func produce() {
        var index = 0
        while true {
            empty.wait()
            let batch = batches[index]
            batch.reset()
            if shouldStop {
                batch.isLast = true
            } else {
                fill(batch)
            }
            let last = batch.isLast
            full.signal()
            if last { break }
            index = (index + 1) % Pipeline.depth
        }
        finished.signal()
    }

    private func fill(_ batch: LineBatch) {
        do throws(LogError) {
            while !batch.isFull {
                let more = try reader.nextRaw { (line: RawLine) in
                    switch line {
                    case .event(let raw): batch.append(raw, lookup)
                    case .record(let record): batch.appendRecord(record)
                    }
                }
                if !more {
                    batch.isLast = true
                    return
                }
            }
        } catch {
            batch.failure = error
            batch.isLast = true
        }
    }
}

extension Replayer {
    /// `replay(_:concurrently: true)`: a second thread reads and stages; this one applies.
    mutating func replayPipelined(_ reader: inout EventLogReader, trace: (TraceStep) -> Void) throws(LogError) {
        let pipeline = Pipeline(reader: reader, lookup: lookup)
        DispatchQueue.global().async { pipeline.produce() }
        var index = 0
        var failure: LogError?
        while true {
            pipeline.full.wait()
            let batch = pipeline.batches[index]
            if failure == nil {
                do throws(LogError) {
                    try apply(batch, trace: trace)
                    failure = batch.failure
                } catch {
                    failure = error
                    pipeline.requestStop()
                }
            }
            let last = batch.isLast
            pipeline.empty.signal()
            if last { break }
            index = (index + 1) % Pipeline.depth
        }
        pipeline.finished.wait()
        reader = pipeline.reader
        if let failure { throw failure }
    }

    private mutating func apply(_ batch: LineBatch, trace: (TraceStep) -> Void) throws(LogError) {
        try batch.bytes.withUnsafeBufferPointer { (bytes) throws(LogError) in
            try batch.numbers.withUnsafeBufferPointer { (numbers) throws(LogError) in
                try batch.strings.withUnsafeBufferPointer { (strings) throws(LogError) in
                    for entry in batch.entries {
                        if entry.record >= 0 {
                            try consume(batch.records[Int(entry.record)], trace: trace)
                            continue
                        }
                        let line = UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.start + entry.count)])
                        let width = lookup.stagedNumbers.count
                        let payload = StagedPayload(
                            numbers: UnsafeBufferPointer(rebasing: numbers[Int(entry.numbers)..<Int(entry.numbers) + width]),
                            strings: strings.isEmpty ? strings
                                : UnsafeBufferPointer(rebasing: strings[Int(entry.strings)..<min(strings.count, Int(entry.strings) + width)]))
                        let caseKey = entry.caseCount < 0 ? nil
                            : UnsafeBufferPointer(rebasing: line[Int(entry.caseStart)..<Int(entry.caseStart + entry.caseCount)])
                        try apply(staged: Int(entry.event), payload: payload, caseKey: caseKey,
                                  time: entry.hasTime ? entry.time : nil, timeOffset: entry.hasTime ? Int(entry.timeOffset) : nil,
                                  nameOffset: Int(entry.nameOffset), BatchLine(lineNumber: entry.line, bytes: line), trace: trace)
                    }
                }
            }
        }
    }
}
