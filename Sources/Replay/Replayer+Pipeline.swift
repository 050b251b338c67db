import Dispatch
@_spi(RawLines) import StatecraftEventLog
import StatecraftModel
import StatecraftRuntime

/// A batch of lines and how the log went on after them, handed from the reading thread to
/// the replaying thread.
private final class Batch: @unchecked Sendable {  // owned by one thread at a time, handed over through semaphores
    let lines = RawLineBatch()
    /// The error that ended the log after these lines, if any.
    @exclusivity(unchecked) var failure: LogError?
    /// Whether the log ends after these lines.
    @exclusivity(unchecked) var isLast = false
}

/// The two threads' shared state: a ring of batches, and the reader, which only the reading
/// thread touches until it has finished.
private final class Pipeline: @unchecked Sendable {  // every field is handed over through semaphores
    let batches = HandOffRing(depth: 3) { Batch() }
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
        while true {
            let batch = batches.slotToFill()
            batch.failure = nil
            batch.isLast = false
            batch.lines.removeAll()
            if shouldStop {
                batch.isLast = true
            } else {
                fill(batch)
            }
            let last = batch.isLast
            batches.filled()
            if last { break }
        }
        finished.signal()
    }

    private func fill(_ batch: Batch) {
        do throws(LogError) {
            batch.isLast = try !reader.readBatch(into: batch.lines)
        } catch {
            batch.failure = error
            batch.isLast = true
        }
    }
}

extension Replayer {
    /// `replay(_:concurrently: true)`: a second thread reads and scans; this one applies.
    mutating func replayPipelined(_ reader: inout EventLogReader, sink: TraceSink) throws(LogError) {
        let pipeline = Pipeline(reader: reader)
        DispatchQueue.global().async { pipeline.produce() }
        var failure: LogError?
        while true {
            let batch = pipeline.batches.slotToEmpty()
            if failure == nil {
                do throws(LogError) {
                    try apply(batch.lines, sink: sink)
                    failure = batch.failure
                } catch {
                    failure = error
                    pipeline.requestStop()
                }
            }
            let last = batch.isLast
            pipeline.batches.emptied()
            if last { break }
        }
        pipeline.finished.wait()
        reader = pipeline.reader
        if let failure { throw failure }
    }

    private mutating func apply(_ batch: RawLineBatch, sink: TraceSink) throws(LogError) {
        for entry in batch.entries {
            if entry.record >= 0 {
                try consume(batch.records[entry.record], sink: sink)
            } else {
                try consume(raw: batch.eventLine(entry), sink: sink)
            }
        }
    }
}

