@testable import StatecraftEventLog

/// Reads every line of a log, keeping going after errors: one result per non-blank line.
func readAll(_ reader: EventLogReader) -> [Result<LogRecord, LogError>] {
    var reader = reader
    var results: [Result<LogRecord, LogError>] = []
    while true {
        do {
            guard let record = try reader.next() else { return results }
            results.append(.success(record))
        } catch {
            results.append(.failure(error))
        }
        // A reader that never ends would hang the suite; no test log is this long.
        if results.count > 1_000_000 { return results }
    }
}

/// `readAll` over a log given as text.
func readAll(_ text: String) -> [Result<LogRecord, LogError>] {
    readAll(EventLogReader(bytes: Array(text.utf8)))
}

/// The record of a one-line log, or nil if the line is an error.
func record(_ line: String) -> LogRecord? {
    guard case .success(let record)? = readAll(line).first else { return nil }
    return record
}

/// The error of a one-line log, or nil if the line reads.
func error(_ line: String) -> LogError? {
    error(bytes: Array(line.utf8))
}

/// The error of a one-line log given as bytes. The line gets a line end if it has none: the
/// last line of a log without one, if it stops inside its object, is a line cut off, which
/// the reader skips (`truncated-log-line`) rather than an error.
func error(bytes: [UInt8]) -> LogError? {
    let line = bytes.last == 0x0A ? bytes : bytes + [0x0A]
    guard case .failure(let error)? = readAll(EventLogReader(bytes: line)).first else { return nil }
    return error
}

/// The payload of a one-line event log (nil when the line is not an event).
func payload(_ line: String) -> [JSONMember]? {
    guard case .event(_, _, let payload)? = record(line)?.body else { return nil }
    return payload
}

/// The value of the single payload field `v` of `{"event":"e","v":<json>}`.
func value(_ json: String) -> JSONValue? {
    payload(#"{"event":"e","v":"# + json + "}")?.first?.value
}

/// The error for `{"event":"e","v":<json>}`, with its column counted from the start of `json`.
func valueError(_ json: String) -> (column: Int, message: String)? {
    let prefix = #"{"event":"e","v":"#
    guard let e = error(prefix + json + "}") else { return nil }
    return (e.column - prefix.count, e.message)
}

extension Result where Success == LogRecord, Failure == LogError {
    /// The line number of the record or error.
    var line: Int {
        switch self {
        case .success(let r): r.line
        case .failure(let e): e.line
        }
    }
}

/// A reader that streams `bytes` through `refill` in chunks of at most `chunk` bytes.
func chunkedReader(_ bytes: [UInt8], chunk: Int, readSize: Int? = nil) -> EventLogReader {
    final class Source: @unchecked Sendable {
        var offset = 0
    }
    let source = Source()
    let step = readSize ?? chunk
    return EventLogReader(chunkSize: chunk) { buffer in
        let count = min(buffer.count, step, bytes.count - source.offset)
        for k in 0..<count { buffer[k] = bytes[source.offset + k] }
        source.offset += count
        return count
    }
}
