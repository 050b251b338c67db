extension EventLogReader {
    /// Reads the next non-blank line and hands it to `body`: ordinary event lines in place
    /// (`.event`, no allocation once the field storage has grown to the widest line), any
    /// other line as the record `next()` would return (`.record`). Returns false at the end.
    ///
    /// Errors are exactly those of `next()`, with the same line and column: a line the fast
    /// path cannot vouch for goes through the full parser. Errors thrown by `body` pass
    /// through. The `.event` line's pointers are valid only inside `body`.
    @_spi(RawLines) public mutating func nextRaw(_ body: (RawLine) throws(LogError) -> Void) throws(LogError) -> Bool {
        // A copy of this reader shares the store: take a store of our own before writing to it.
        if !isKnownUniquelyReferenced(&rawFields) { rawFields = RawFieldStore(capacity: rawFields.capacity) }
        let fields = rawFields.buffer
        var header = FastLineScanner.Header()
        // The usual case: the scanner finds the line's end itself, so the line needs no
        // separate search for its newline. Line 1 (a byte order mark) and anything unusual
        // (a blank line, a line the buffer does not hold whole, a line the scanner declines)
        // take the general path below.
        if lineNumber > 0 {
            switch scanUnread(into: &header, fields: fields) {
            case .event(let fieldCount)?:
                lineNumber += 1
                let range = lines.take(length: header.length, newline: header.newline)
                try deliver(range, header, fieldCount, body)
                return true
            case .needsRoom?:
                rawFields.grow()
            case .declined?, nil:
                break
            }
        }
        while let range = try nextLineRange() {
            while true {
                header = FastLineScanner.Header()
                switch scan(range, into: &header, fields: rawFields.buffer) {
                case .event(let fieldCount):
                    try deliver(range, header, fieldCount, body)
                    return true
                case .declined:
                    // (No record: the header, or a cut last line; read on.)
                    guard let record = try parseRecord(range) else { break }
                    try body(.record(record))
                    return true
                case .needsRoom:
                    // Rarely: a line wider than any before it.
                    rawFields.grow()
                    continue
                }
                break
            }
        }
        return false
    }

    /// Scans the line at the start of the unread bytes, up to its newline, as an event line
    /// (`header` must be fresh); nil when nothing is unread. The line stays unread: `take` it
    /// on `.event`.
    @inline(__always)
    func scanUnread(into header: inout FastLineScanner.Header,
                    fields: UnsafeMutableBufferPointer<RawField>) -> FastLineScanner.Outcome? {
        lines.withUnread { base, count, readable in
            FastLineScanner(line: base, count: count, readable: readable, extent: .toNewline)
                .scanEventLine(into: &header, fields: fields)
        }
    }

    /// Scans the whole line at `range` as an event line (`header` must be fresh).
    @inline(__always)
    func scan(_ range: Range<Int>, into header: inout FastLineScanner.Header,
              fields: UnsafeMutableBufferPointer<RawField>) -> FastLineScanner.Outcome {
        lines.withLine(range) { base, count, readable in
            FastLineScanner(line: base, count: count, readable: readable).scanEventLine(into: &header, fields: fields)
        } ?? .declined
    }

    /// Calls `body` with the event line at `range`, which the scanner read into `header` and
    /// the first `fieldCount` fields of the store.
    @inline(__always)
    private func deliver(_ range: Range<Int>, _ header: FastLineScanner.Header, _ fieldCount: Int,
                         _ body: (RawLine) throws(LogError) -> Void) throws(LogError) {
        let fields = UnsafeBufferPointer(rebasing: rawFields.buffer[0..<fieldCount])
        let number = lineNumber
        _ = try lines.withLine(range) { (base, count, _) throws(LogError) -> Void? in
            try body(.event(RawEventLine(line: number, bytes: UnsafeBufferPointer(start: base, count: count),
                                         name: header.name, nameOffset: header.nameOffset, fields: fields,
                                         time: header.time, timeOffset: header.timeOffset,
                                         caseKey: header.caseKey, caseOffset: header.caseOffset)))
            return ()
        }
    }
}

/// The reader's storage for one line's payload fields, reused line after line (`RawField` is
/// a trivial type, so the memory needs no deinitialization).
final class RawFieldStore {
    /// The fields' memory, `capacity` elements.
    private(set) var buffer: UnsafeMutableBufferPointer<RawField>

    var capacity: Int { buffer.count }

    init(capacity: Int = 8) {
        buffer = RawFieldStore.allocate(max(1, capacity))
    }

    /// Doubles the capacity; the contents are not kept.
    func grow() {
        let larger = RawFieldStore.allocate(buffer.count * 2)
        buffer.deallocate()
        buffer = larger
    }

    private static func allocate(_ capacity: Int) -> UnsafeMutableBufferPointer<RawField> {
        let buffer = UnsafeMutableBufferPointer<RawField>.allocate(capacity: capacity)
        buffer.initialize(repeating: RawField(key: 0..<0, keyOffset: 0, valueOffset: 0, value: .bool(false)))
        return buffer
    }

    deinit {
        buffer.deallocate()
    }
}
