/// A line that breaks the format.
///
/// A file that cannot be opened has line 0 and column 0; one that fails while being read
/// has the number of the line it was reading and column 1.
public struct LogError: Error, Sendable, Equatable {
    /// 1-based line number in the log.
    public var line: Int
    /// 1-based column of the offending character, counted in Unicode scalars (a BOM on line 1 is not counted).
    public var column: Int
    /// Lowercase text, no final period; names in single quotes.
    public var message: String
    /// The line's bytes without its terminator (empty when the file itself failed).
    public var text: [UInt8]
    /// Whether the line was applied before it was refused (a timer its step armed cannot be
    /// due when it should): the report then covers it too. False for every error found
    /// before the line is applied.
    public var applied = false

    /// Creates an error.
    public init(line: Int, column: Int, message: String, text: [UInt8]) {
        self.line = line
        self.column = column
        self.message = message
        self.text = text
    }
}
