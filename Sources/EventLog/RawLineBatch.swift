import StatecraftDiagnostics

/// Lines read by `EventLogReader.readBatch(into:)`: event lines read in place, their bytes
/// and payload fields copied into the batch's own storage so they stay valid after the reader
/// moves on (another thread can apply them while the reader fills the next batch), and any
/// other line as its full record.
///
/// A batch is reused: `readBatch` empties it first, and its storage only grows, so a reader
/// that cycles through a few batches allocates nothing per line.
@_spi(RawLines) public final class RawLineBatch: @unchecked Sendable {  // used by one thread at a time; callers hand it over
    /// One line of the batch.
    public struct Entry: Sendable {
        /// 1-based line number in the log.
        public var line: Int
        /// The line's bytes are `bytes[start ..< start + count]`.
        public var start: Int
        /// How many bytes the line has, counted from `start`.
        public var count: Int
        /// Its payload fields are `fields[fieldStart ..< fieldStart + fieldCount]`.
        public var fieldStart: Int
        /// How many payload fields the line has.
        public var fieldCount: Int
        /// As in `RawEventLine`, relative to the line's first byte.
        public var name: Range<Int>
        /// The byte offset of the event name's opening quote, relative to the line's first byte.
        public var nameOffset: Int
        /// The line's `time`, if given, in seconds.
        public var time: Double?
        /// The byte offset of the `time` value; nil when the line has none.
        public var timeOffset: Int?
        /// The bytes of the `case` value (between quotes for a string); nil when the line has none.
        public var caseKey: Range<Int>?
        /// The byte offset of the `case` value; nil when the line has none.
        public var caseOffset: Int?
        /// For a line the fast path did not read: its record is `records[record]`; -1 otherwise.
        public var record: Int
    }

    /// A batch ends once it holds this many lines…
    public let lineLimit: Int
    /// …or this many bytes of event lines.
    public let byteLimit: Int

    // One thread at a time (see above): no run-time exclusivity checks on the properties.

    /// The lines, in log order.
    @exclusivity(unchecked) public private(set) var entries: [Entry] = []
    /// The records of the lines the fast path did not read.
    @exclusivity(unchecked) public private(set) var records: [LogRecord] = []
    /// The event lines' bytes, back to back.
    @exclusivity(unchecked) public private(set) var bytes: UnsafeMutablePointer<UInt8>
    /// The event lines' payload fields, back to back.
    @exclusivity(unchecked) public private(set) var fields: UnsafeMutablePointer<RawField>

    /// Bytes copied in so far, and room for.
    @exclusivity(unchecked) private(set) var byteCount = 0
    @exclusivity(unchecked) private var byteCapacity: Int
    /// Fields stored so far, and room for.
    @exclusivity(unchecked) private(set) var fieldCount = 0
    @exclusivity(unchecked) private var fieldCapacity: Int

    /// An empty batch. The limits are kept between 1 and 2^24 lines and 2^30 bytes.
    public init(lineLimit: Int = 4096, byteLimit: Int = 1 << 19) {
        self.lineLimit = min(max(1, lineLimit), 1 << 24)
        self.byteLimit = min(max(1, byteLimit), 1 << 30)
        byteCapacity = self.byteLimit + 4096
        bytes = .allocate(capacity: byteCapacity)
        fieldCapacity = self.lineLimit * 4
        fields = .allocate(capacity: fieldCapacity)
        entries.reserveCapacity(self.lineLimit)
    }

    deinit {
        bytes.deallocate()
        fields.deallocate()  // RawField is a trivial type: nothing to deinitialize
    }

    /// The number of lines.
    public var count: Int { entries.count }

    /// Event line `entry` (whose `record` is -1), over the batch's storage: valid until the
    /// batch is refilled.
    @inlinable
    public func eventLine(_ entry: Entry) -> RawEventLine {
        RawEventLine(line: entry.line, bytes: UnsafeBufferPointer(start: bytes + entry.start, count: entry.count),
                     name: entry.name, nameOffset: entry.nameOffset,
                     fields: UnsafeBufferPointer(start: fields + entry.fieldStart, count: entry.fieldCount),
                     time: entry.time, timeOffset: entry.timeOffset, caseKey: entry.caseKey, caseOffset: entry.caseOffset)
    }

    /// Empties the batch, keeping its storage.
    public func removeAll() {
        entries.removeAll(keepingCapacity: true)
        if !records.isEmpty { records.removeAll(keepingCapacity: true) }
        byteCount = 0
        fieldCount = 0
    }

    /// The free field storage, where the scanner writes the next line's fields.
    var freeFields: UnsafeMutableBufferPointer<RawField> {
        UnsafeMutableBufferPointer(start: fields + fieldCount, count: fieldCapacity - fieldCount)
    }

    /// Doubles the field storage, keeping the fields stored so far.
    func growFields() {
        fieldCapacity *= 2
        fields = reallocate(fields, count: fieldCount, capacity: fieldCapacity)
    }

    /// Makes room for `total` bytes, keeping the bytes copied in so far.
    func reserveBytes(_ total: Int) {
        guard total > byteCapacity else { return }
        byteCapacity = max(total, byteCapacity * 2)
        bytes = reallocate(bytes, count: byteCount, capacity: byteCapacity)
    }

    /// Counts `count` more bytes, which the reader copied to the end of the byte storage
    /// (room for them was reserved).
    func didAppendBytes(_ count: Int) {
        byteCount += count
    }

    /// Adds an event line whose bytes are, or will be, at `start` and whose `fieldCount`
    /// fields the scanner wrote to `freeFields`.
    func appendEvent(line: Int, start: Int, count: Int, header: FastLineScanner.Header, fieldCount added: Int) {
        entries.append(Entry(line: line, start: start, count: count, fieldStart: fieldCount, fieldCount: added,
                             name: header.name, nameOffset: header.nameOffset, time: header.time,
                             timeOffset: header.timeOffset, caseKey: header.caseKey, caseOffset: header.caseOffset,
                             record: -1))
        fieldCount += added
    }

    func append(_ record: LogRecord) {
        records.append(record)
        entries.append(Entry(line: record.line, start: 0, count: 0, fieldStart: 0, fieldCount: 0, name: 0..<0,
                             nameOffset: 0, time: nil, timeOffset: nil, caseKey: nil, caseOffset: nil,
                             record: records.count - 1))
    }
}
