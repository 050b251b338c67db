import Dispatch
import StatecraftEventLog
import StatecraftModel

/// Lines scanned by the reading thread and copied out of the reader's buffer, handed to the
/// replaying thread in order.
final class LineBatch: @unchecked Sendable {  // owned by one thread at a time, handed over through semaphores
    /// One line: an event line scanned in place (its bytes and fields copied here), or a record.
    struct Entry {
        var line: Int
        /// The line's bytes in `bytes`, and its fields in `fields`.
        var start: Int
        var count: Int
        var fieldStart: Int
        var fieldCount: Int
        var name: Range<Int>
        var nameOffset: Int
        var time: Double?
        var timeOffset: Int?
        var caseKey: Range<Int>?
        var caseOffset: Int?
        /// The record of any other line (`records[record]`), else -1.
        var record: Int
    }

    static let lineLimit = 4096
    static let byteLimit = 1 << 19

    // One thread at a time: no run-time exclusivity checks. Bytes and fields live in raw
    // storage that grows by doubling (a batch ends once it holds `byteLimit` bytes, so
    // it stops growing after the first batches).
    @exclusivity(unchecked) var entries: [Entry] = []
    @exclusivity(unchecked) private(set) var bytes: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private(set) var byteCount = 0
    @exclusivity(unchecked) private var byteCapacity: Int
    @exclusivity(unchecked) private(set) var fields: UnsafeMutablePointer<RawField>
    @exclusivity(unchecked) private(set) var fieldCount = 0
    @exclusivity(unchecked) private var fieldCapacity: Int
    @exclusivity(unchecked) var records: [LogRecord] = []
    /// The error that ended the log after these lines, if any.
    @exclusivity(unchecked) var failure: LogError?
    /// Whether the log ends after these lines.
    @exclusivity(unchecked) var isLast = false

    init() {
        byteCapacity = LineBatch.byteLimit + 4096
        bytes = .allocate(capacity: byteCapacity)
        fieldCapacity = LineBatch.lineLimit * 4
        fields = .allocate(capacity: fieldCapacity)
        entries.reserveCapacity(LineBatch.lineLimit)
    }

    deinit {
        bytes.deallocate()
        fields.deinitialize(count: fieldCount)
        fields.deallocate()
    }

    var isFull: Bool { entries.count >= LineBatch.lineLimit || byteCount >= LineBatch.byteLimit }

    func reset() {
        entries.removeAll(keepingCapacity: true)
        byteCount = 0
        fields.deinitialize(count: fieldCount)
        fieldCount = 0
        if !records.isEmpty { records.removeAll(keepingCapacity: true) }
        failure = nil
        isLast = false
    }

    func append(_ line: RawEventLine) {
        let start = byteCount
        let fieldStart = fieldCount
        if byteCount + line.bytes.count > byteCapacity { growBytes(to: byteCount + line.bytes.count) }
        if fieldCount + line.fields.count > fieldCapacity { growFields(to: fieldCount + line.fields.count) }
        if let source = line.bytes.baseAddress { (bytes + byteCount).update(from: source, count: line.bytes.count) }
        byteCount += line.bytes.count
        if let source = line.fields.baseAddress { (fields + fieldCount).initialize(from: source, count: line.fields.count) }
        fieldCount += line.fields.count
        entries.append(Entry(line: line.line, start: start, count: line.bytes.count, fieldStart: fieldStart,
                             fieldCount: line.fields.count, name: line.name, nameOffset: line.nameOffset, time: line.time,
                             timeOffset: line.timeOffset, caseKey: line.caseKey, caseOffset: line.caseOffset, record: -1))
    }

    func append(_ record: LogRecord) {
        records.append(record)
        entries.append(Entry(line: record.line, start: 0, count: 0, fieldStart: 0, fieldCount: 0, name: 0..<0,
                             nameOffset: 0, time: nil, timeOffset: nil, caseKey: nil, caseOffset: nil,
                             record: records.count - 1))
    }

    private func growBytes(to needed: Int) {
        byteCapacity = max(needed, byteCapacity * 2)
        bytes = reallocate(bytes, count: byteCount, capacity: byteCapacity)
    }

    private func growFields(to needed: Int) {
        fieldCapacity = max(needed, fieldCapacity * 2)
        fields = reallocate(fields, count: fieldCount, capacity: fieldCapacity)
    }
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
    /// Set by the replaying thread when it stops early; read by the reading thread.
    private let stopLock = DispatchSemaphore(value: 1)
    private var stopRequested = false

    init(reader: EventLogReader) {
        self.reader = reader
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
                    case .event(let raw): batch.append(raw)
                    case .record(let record): batch.append(record)
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
    /// `replay(_:concurrently: true)`: a second thread reads and scans; this one applies.
    mutating func replayPipelined(_ reader: inout EventLogReader, trace: (TraceStep) -> Void) throws(LogError) {
        let pipeline = Pipeline(reader: reader)
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
        for entry in batch.entries {
            if entry.record >= 0 {
                try consume(batch.records[entry.record], trace: trace)
                continue
            }
            let line = RawEventLine(
                line: entry.line, bytes: UnsafeBufferPointer(start: batch.bytes + entry.start, count: entry.count),
                name: entry.name, nameOffset: entry.nameOffset,
                fields: UnsafeBufferPointer(start: batch.fields + entry.fieldStart, count: entry.fieldCount),
                time: entry.time, timeOffset: entry.timeOffset, caseKey: entry.caseKey, caseOffset: entry.caseOffset)
            try consume(raw: line, trace: trace)
        }
    }
}
