/// One non-blank line of a log as `EventLogReader.nextRaw` hands it out: an ordinary event
/// line read in place, or the full record of any other line.
///
/// Only valid inside the `nextRaw` callback: an `.event` line points into the reader's
/// buffer, which the next read overwrites.
///
/// The raw-line types are SPI (`@_spi(RawLines) import StatecraftEventLog`), not `package`:
/// they are no API for users, but the replayer in another module must inline their
/// accessors per event, and `@inlinable` members of `package` types are called, not inlined.
@_spi(RawLines) public enum RawLine {
    /// An event line whose keys and strings have no escapes and whose values are numbers,
    /// `true`, `false` or strings: read in place, without allocating.
    case event(RawEventLine)
    /// Any other line (expectations, escapes, nested values, `null`, numbers that need
    /// correct rounding, …), parsed by the full parser exactly as `next()` would.
    case record(LogRecord)
}

/// A payload value read in place.
@_spi(RawLines) public enum RawValue: Equatable, Sendable {
    /// A number (finite; the same double the full parser gives).
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// A string with no escapes: its bytes (valid UTF-8) between the quotes, as a range of
    /// `RawEventLine.bytes`.
    case string(Range<Int>)
}

/// A payload field read in place: byte ranges into `RawEventLine.bytes`.
@_spi(RawLines) public struct RawField: Equatable, Sendable {
    /// The key's bytes between its quotes (no escapes, valid UTF-8).
    public var key: Range<Int>
    /// Byte offset of the key's opening quote.
    public var keyOffset: Int
    /// Byte offset of the value's first byte.
    public var valueOffset: Int
    /// The value.
    public var value: RawValue

    /// Creates a field.
    public init(key: Range<Int>, keyOffset: Int, valueOffset: Int, value: RawValue) {
        self.key = key
        self.keyOffset = keyOffset
        self.valueOffset = valueOffset
        self.value = value
    }
}

/// An event line read in place. Offsets are 0-based byte offsets into `bytes`, the line
/// without its terminator (and BOM), exactly like `LogRecord.text`.
///
/// The pointers are valid only inside the `nextRaw` callback; copy out what must outlive it
/// (`text()`, `string(_:)`, `record()`).
@_spi(RawLines) public struct RawEventLine {
    /// 1-based line number in the log.
    public let line: Int
    /// The line's bytes, in the reader's buffer.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// The event name's bytes between its quotes.
    public let name: Range<Int>
    /// Byte offset of the event name's opening quote (`LogRecord.Body.event`'s `nameOffset`).
    public let nameOffset: Int
    /// Payload fields (every key but event/time/case), in line order; keys are unique.
    public let fields: UnsafeBufferPointer<RawField>
    /// The line's `time`, if given.
    public let time: Double?
    /// Byte offset of the `time` value.
    public let timeOffset: Int?
    /// The `case` as bytes: a string's bytes between its quotes, or an integer's digits
    /// (with its sign), which are the UTF-8 of `LogRecord.caseKey`.
    public let caseKey: Range<Int>?
    /// Byte offset of the `case` value.
    public let caseOffset: Int?

    /// A line over bytes and fields kept elsewhere: for callers that copy lines out of the
    /// callback (a reading thread's batches, say) and hand them on later. The ranges and
    /// offsets are relative to `bytes`, as `nextRaw` gives them.
    public init(line: Int, bytes: UnsafeBufferPointer<UInt8>, name: Range<Int>, nameOffset: Int,
                fields: UnsafeBufferPointer<RawField>, time: Double?, timeOffset: Int?, caseKey: Range<Int>?,
                caseOffset: Int?) {
        self.line = line
        self.bytes = bytes
        self.name = name
        self.nameOffset = nameOffset
        self.fields = fields
        self.time = time
        self.timeOffset = timeOffset
        self.caseKey = caseKey
        self.caseOffset = caseOffset
    }

    /// The bytes of `range` as a buffer (no copy).
    @inline(__always)
    public func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[range])
    }

    /// A copy of the line's bytes, for an error or a report that outlives the callback.
    public func text() -> [UInt8] {
        Array(bytes)
    }

    /// The bytes of `range` decoded as a string (they never hold escapes).
    public func string(_ range: Range<Int>) -> String {
        String(decoding: slice(range), as: UTF8.self)
    }

    /// Whether the bytes of `range` are `literal`'s UTF-8, without allocating.
    public func bytes(_ range: Range<Int>, equal literal: String) -> Bool {
        var literal = literal
        return literal.withUTF8 { other in
            guard other.count == range.count else { return false }
            for k in 0..<other.count where other[k] != bytes[range.lowerBound + k] { return false }
            return true
        }
    }

    /// 1-based column of a byte offset, as `LogRecord.column(ofByte:)` counts it.
    public func column(ofByte offset: Int) -> Int {
        LogRecord.column(ofByte: offset, in: text())
    }

    /// The record `EventLogReader.next()` returns for this line (allocates: for tests, errors
    /// and callers that need to keep the line).
    public func record() -> LogRecord {
        let payload = fields.map { field -> JSONMember in
            let value: JSONValue = switch field.value {
            case .number(let n): .number(n)
            case .bool(let b): .bool(b)
            case .string(let r): .string(string(r))
            }
            return JSONMember(key: string(field.key), value: value, keyOffset: field.keyOffset,
                              valueOffset: field.valueOffset)
        }
        return LogRecord(line: line, body: .event(name: string(name), nameOffset: nameOffset, payload: payload),
                         time: time, timeOffset: timeOffset, caseKey: caseKey.map(string),
                         caseOffset: caseOffset, text: text())
    }
}
