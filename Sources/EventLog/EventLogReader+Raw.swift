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
        // A copy of this reader shares the store: take a store of our own before writing to it.
        if !isKnownUniquelyReferenced(&rawFields) { rawFields = RawFieldStore(capacity: rawFields.capacity) }
        let number = lineNumber
        while true {
            let fields = rawFields.buffer
            let status = try lines.withLine(range) { (base, count, readable) throws(LogError) -> RawScanStatus in
                let scanner = FastLineScanner(line: base, count: count, readable: readable)
                switch scanner.scanEventLine(into: fields) {
                case .event(let header, let fieldCount):
                    try body(.event(RawEventLine(line: number, bytes: UnsafeBufferPointer(start: base, count: count),
                                                 name: header.name, nameOffset: header.nameOffset,
                                                 fields: UnsafeBufferPointer(rebasing: fields[0..<fieldCount]),
                                                 time: header.time, timeOffset: header.timeOffset,
                                                 caseKey: header.caseKey, caseOffset: header.caseOffset)))
                    return .done
                case .declined:
                    return .declined
                case .needsRoom:
                    return .needsRoom
                }
            }
            switch status ?? .declined {
            case .done:
                return true
            case .declined:
                try body(.record(try parseFull(range)))
                return true
            case .needsRoom:
                // Rarely: a line wider than any before it.
                rawFields.grow()
            }
        }
    }
}

/// What became of a line `nextRaw` handed to the scanner.
private enum RawScanStatus {
    case done, declined, needsRoom
}

/// The reader's storage for one line's payload fields, reused line after line (`RawField` is
/// a trivial type, so the memory needs no deinitialization).
final class RawFieldStore {
    /// The fields' memory, `capacity` elements.
    private(set) var buffer: UnsafeMutableBufferPointer<RawField>

    var capacity: Int { buffer.count }

    init(capacity: Int = 8) {
        buffer = .allocate(capacity: max(1, capacity))
        buffer.initialize(repeating: RawField(key: 0..<0, keyOffset: 0, valueOffset: 0, value: .bool(false)))
    }

    /// Doubles the capacity; the contents are not kept.
    func grow() {
        let larger = UnsafeMutableBufferPointer<RawField>.allocate(capacity: buffer.count * 2)
        larger.initialize(repeating: RawField(key: 0..<0, keyOffset: 0, valueOffset: 0, value: .bool(false)))
        buffer.deallocate()
        buffer = larger
    }

    deinit {
        buffer.deallocate()
    }
}
