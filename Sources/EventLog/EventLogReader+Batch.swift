extension EventLogReader {
    /// Empties `batch` and reads lines into it until it holds `lineLimit` lines or
    /// `byteLimit` bytes, or the log ends: what `nextRaw` would hand out, line for line, but
    /// with the event lines' bytes and fields copied into the batch, so they outlive the call.
    /// Returns false once the log has ended (the batch may still hold its last lines).
    ///
    /// Errors are exactly those of `next()`; the lines before the failing one stay in the batch.
    @_spi(RawLines) public mutating func readBatch(into batch: RawLineBatch) throws(LogError) -> Bool {
        batch.removeAll()
        // Event lines found in place are copied out in runs (`pending`): the bytes from the
        // first such line to the last one, in one copy, just before the reader's buffer may
        // move or refill, and when the batch is done.
        var pending = PendingBytes()
        defer { pending.copy(from: lines, into: batch) }
        while batch.count < batch.lineLimit && pending.end(in: batch) < batch.byteLimit {
            // The usual case, as in `nextRaw`: a whole line in the buffer, read up to its newline.
            if lineNumber > 0 {
                var header = FastLineScanner.Header()
                switch scanUnread(into: &header, fields: batch.freeFields) {
                case .event(let fieldCount)?:
                    lineNumber += 1
                    let range = lines.take(length: header.length, newline: header.newline)
                    let start = pending.add(range, in: batch)
                    batch.appendEvent(line: lineNumber, start: start, count: range.count, header: header,
                                      fieldCount: fieldCount)
                    continue
                case .needsRoom?:
                    batch.growFields()
                    continue
                case .declined?, nil:
                    break
                }
            }
            // Anything else goes through `nextLineRange`, which may move the buffer's bytes.
            pending.copy(from: lines, into: batch)
            guard let range = try nextLineRange() else { return false }
            while true {
                var header = FastLineScanner.Header()
                switch scan(range, into: &header, fields: batch.freeFields) {
                case .event(let fieldCount):
                    let start = pending.add(range, in: batch)
                    batch.appendEvent(line: lineNumber, start: start, count: range.count, header: header,
                                      fieldCount: fieldCount)
                case .declined:
                    // (No record: the header, or a cut last line.)
                    if let record = try parseRecord(range) { batch.append(record) }
                case .needsRoom:
                    batch.growFields()
                    continue
                }
                break
            }
        }
        return true
    }
}

/// Bytes of the reader's buffer, from the first event line not yet copied into the batch to
/// the end of the last one, and where in the batch they go.
private struct PendingBytes {
    /// `buffer[from ..< to]` goes to `batch.bytes[at...]`; nothing is pending when `from == to`.
    var from = 0
    var to = 0
    var at = 0

    /// The batch's byte count once the pending bytes are in.
    func end(in batch: RawLineBatch) -> Int {
        from == to ? batch.byteCount : at + (to - from)
    }

    /// Adds the line at `range` of the reader's buffer, which must follow the pending bytes
    /// without any move of the buffer in between; returns where its bytes will be in the batch.
    mutating func add(_ range: Range<Int>, in batch: RawLineBatch) -> Int {
        if from == to {
            from = range.lowerBound
            at = batch.byteCount
        }
        to = range.upperBound
        batch.reserveBytes(at + (to - from))
        return at + (range.lowerBound - from)
    }

    /// Copies the pending bytes into the batch.
    mutating func copy(from lines: LineBuffer, into batch: RawLineBatch) {
        guard from != to else { return }
        lines.copy(from..<to, to: batch.bytes + at)
        batch.didAppendBytes(to - from)
        from = to
    }
}
