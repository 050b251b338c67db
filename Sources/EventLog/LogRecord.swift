import StatecraftDiagnostics

/// One non-blank line of a log.
///
/// Offsets are 0-based byte offsets into `text`; turn them into columns with
/// `column(ofByte:)` only when reporting.
public struct LogRecord: Equatable, Sendable {
    /// What the line says.
    public enum Body: Equatable, Sendable {
        /// An event line: the event name, and every key other than event/time/case, in line order.
        case event(name: String, nameOffset: Int, payload: [JSONMember])
        /// An expectation line.
        case expect(Expectation)
    }

    /// 1-based line number in the log.
    public var line: Int
    /// The event or expectation.
    public var body: Body
    /// The line's `time`, if given (finite; may be negative, ordering is the replayer's job).
    public var time: Double?
    /// Byte offset of the `time` value.
    public var timeOffset: Int?
    /// The line's `case`; an integer case 7 becomes "7" (so 7 and "7" are one case).
    public var caseKey: String?
    /// Byte offset of the `case` value.
    public var caseOffset: Int?
    /// The line's bytes without its line terminator (and, on line 1, without a BOM).
    public var text: [UInt8]

    /// Creates a record.
    public init(line: Int, body: Body, time: Double? = nil, timeOffset: Int? = nil, caseKey: String? = nil,
                caseOffset: Int? = nil, text: [UInt8]) {
        self.line = line
        self.body = body
        self.time = time
        self.timeOffset = timeOffset
        self.caseKey = caseKey
        self.caseOffset = caseOffset
        self.text = text
    }

    /// 1-based column of a byte offset in `text`, counting Unicode scalars (invalid UTF-8 bytes count one each).
    public func column(ofByte offset: Int) -> Int {
        LogRecord.column(ofByte: offset, in: text)
    }

    /// The column of `offset` in `text`; an offset at or past the end gives the column after the last scalar.
    public static func column(ofByte offset: Int, in text: [UInt8]) -> Int {
        let limit = min(max(0, offset), text.count)
        var column = 1
        var i = 0
        while i < limit {
            i += UTF8Scanner.sequenceLength(text, at: i, limit: text.count)
            column += 1
        }
        return column
    }
}
