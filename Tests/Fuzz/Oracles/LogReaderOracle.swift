import Statecraft
@_spi(RawLines) import StatecraftEventLog

/// Bytes as an event log, read four ways: the full parser line by line (`next`), the
/// in-place fast path (`nextRaw`), in batches (`readBatch`, what the two-thread replay
/// reads with), and the fast path again over a stream refilled a few bytes at a time, so
/// that lines straddle chunk boundaries. All four must accept the same lines with the same
/// records, and stop or go on after the same errors at the same line and column.
public enum LogReaderOracle: FuzzOracle {
    public static let name = "log-reader"

    public static func violations(_ input: [UInt8]) -> [String] {
        let full = readFull(EventLogReader(bytes: input))
        // A chunk size that varies with the input, and is small enough to split lines.
        let chunk = 1 + input.count % 23
        let others: [(String, [Result<LogRecord, LogError>])] = [
            ("nextRaw", readRaw(EventLogReader(bytes: input))),
            ("readBatch", readBatched(EventLogReader(bytes: input), lineLimit: 3, byteLimit: 64)),
            ("nextRaw over \(chunk)-byte chunks", readRaw(streamed(input, chunk: chunk))),
        ]
        var found: [String] = []
        for (path, results) in others {
            if let difference = firstDifference(full, results) { found.append("\(path) differs from next: \(difference)") }
        }
        return found
    }

    /// The first line where two readings disagree, described.
    static func firstDifference(_ a: [Result<LogRecord, LogError>], _ b: [Result<LogRecord, LogError>]) -> String? {
        for (index, (x, y)) in zip(a, b).enumerated() where !same(x, y) {
            return "result \(index + 1): \(describe(x)) versus \(describe(y))"
        }
        return a.count == b.count ? nil : "\(a.count) results versus \(b.count)"
    }

    /// Equal records, with numbers compared bit for bit (0 and -0 differ).
    static func same(_ a: Result<LogRecord, LogError>, _ b: Result<LogRecord, LogError>) -> Bool {
        switch (a, b) {
        case (.failure(let x), .failure(let y)): return x == y
        case (.success(let x), .success(let y)): return x == y && sameNumbers(x, y)
        default: return false
        }
    }

    static func sameNumbers(_ a: LogRecord, _ b: LogRecord) -> Bool {
        guard a.time?.bitPattern == b.time?.bitPattern else { return false }
        guard case .event(_, _, let p) = a.body, case .event(_, _, let q) = b.body else { return true }
        for (x, y) in zip(p, q) {
            if case .number(let m) = x.value, case .number(let n) = y.value, m.bitPattern != n.bitPattern { return false }
        }
        return true
    }

    static func describe(_ result: Result<LogRecord, LogError>) -> String {
        switch result {
        case .success(let record): return "line \(record.line) \(record.body)"
        case .failure(let error): return "error \(error.line):\(error.column) \(error.message)"
        }
    }

    /// A reader that gets `input` at most `chunk` bytes per refill.
    static func streamed(_ input: [UInt8], chunk: Int) -> EventLogReader {
        final class Cursor: @unchecked Sendable { var offset = 0 }
        let cursor = Cursor()
        return EventLogReader(chunkSize: chunk) { buffer in
            let count = min(buffer.count, input.count - cursor.offset)
            for k in 0..<count { buffer[k] = input[cursor.offset + k] }
            cursor.offset += count
            return count
        }
    }

    /// Every line through `next`, going on after errors as the reader allows.
    static func readFull(_ reader: EventLogReader) -> [Result<LogRecord, LogError>] {
        var reader = reader
        var results: [Result<LogRecord, LogError>] = []
        while results.count <= lineLimit {
            do {
                guard let record = try reader.next() else { break }
                results.append(.success(record))
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }

    /// Every line through `nextRaw`, in-place lines turned into records.
    static func readRaw(_ reader: EventLogReader) -> [Result<LogRecord, LogError>] {
        var reader = reader
        var results: [Result<LogRecord, LogError>] = []
        while results.count <= lineLimit {
            do {
                let more = try reader.nextRaw { line in
                    switch line {
                    case .event(let raw): results.append(.success(raw.record()))
                    case .record(let record): results.append(.success(record))
                    }
                }
                if !more { break }
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }

    /// Every line through `readBatch`, into two batches used in turn; a batch's lines are
    /// turned into records only after the next batch is read, as the replay's second thread
    /// hands them over (a batch must not depend on the reader's buffer once read).
    static func readBatched(_ reader: EventLogReader, lineLimit: Int, byteLimit: Int) -> [Result<LogRecord, LogError>] {
        var reader = reader
        var results: [Result<LogRecord, LogError>] = []
        let batches = [RawLineBatch(lineLimit: lineLimit, byteLimit: byteLimit),
                       RawLineBatch(lineLimit: lineLimit, byteLimit: byteLimit)]
        var previous: (batch: RawLineBatch, failure: LogError?)?
        func collect(_ batch: RawLineBatch, _ failure: LogError?) {
            for entry in batch.entries {
                results.append(.success(entry.record >= 0 ? batch.records[entry.record] : batch.eventLine(entry).record()))
            }
            if let failure { results.append(.failure(failure)) }
        }
        var turn = 0
        while results.count <= LogReaderOracle.lineLimit {
            let batch = batches[turn % 2]
            turn += 1
            var more = true
            var failure: LogError?
            do {
                more = try reader.readBatch(into: batch)
            } catch {
                failure = error
            }
            if let (last, lastFailure) = previous { collect(last, lastFailure) }
            previous = (batch, failure)
            if !more { break }
        }
        if let (last, lastFailure) = previous { collect(last, lastFailure) }
        return results
    }

    /// More results than any input has lines would mean a reader that never ends.
    static let lineLimit = 1 << 20
}
