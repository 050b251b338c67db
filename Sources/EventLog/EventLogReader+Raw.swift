extension EventLogReader {
    /// Reads the next non-blank line and hands it to `body`: ordinary event lines in place
    /// (`.event`, no allocation once the field storage has grown to the widest line), any
    /// other line as the record `next()` would return (`.record`). Returns false at the end.
    ///
    /// Errors are exactly those of `next()`, with the same line and column: a line the fast
    /// path cannot vouch for goes through the full parser. Errors thrown by `body` pass
    /// through. The `.event` line's pointers are valid only inside `body`.
    public mutating func nextRaw(_ body: (RawLine) throws(LogError) -> Void) throws(LogError) -> Bool {
        guard let range = try nextLineRange() else { return false }
        let number = lineNumber
        // Moved out of `self` so the scanner can fill it while the buffer is borrowed.
        var fields = rawFields
        rawFields = []
        defer { rawFields = fields }
        let fast = lines.withBytes(range) { bytes -> Result<Void, LogError>? in
            var scanner = FastLineScanner(bytes: bytes)
            guard let header = scanner.scanEventLine(into: &fields) else { return nil }
            return fields.withUnsafeBufferPointer { stored -> Result<Void, LogError> in
                let line = RawEventLine(line: number, bytes: bytes, name: header.name, nameOffset: header.nameOffset,
                                        fields: stored, time: header.time, timeOffset: header.timeOffset,
                                        caseKey: header.caseKey, caseOffset: header.caseOffset)
                do throws(LogError) {
                    try body(.event(line))
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
        }
        if let fast {
            try fast.get()
            return true
        }
        try body(.record(try parseFull(range)))
        return true
    }
}
