#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import StatecraftDiagnostics

/// Reads an event log (JSON Lines) as a stream of records, checking the format only.
///
/// Whether an event or a field exists is the replayer's business; the records carry byte
/// offsets so it can point at the right column. After an error, `next()` continues with the
/// following line.
public struct EventLogReader {
    /// How many bytes a streaming reader asks for at a time.
    static let defaultChunkSize = 1 << 20

    var lines: LineBuffer
    /// The number of the last line read (1-based; 0 before the first).
    var lineNumber = 0
    /// How many lines have been read so far (the number of the last one).
    public var linesRead: Int { lineNumber }
    /// Payload fields of the last line read by `nextRaw`; the storage is reused line after line.
    var rawFields = RawFieldStore()
    /// The number of the first non-blank line, the only one that may be a header (0 before it).
    var firstLine = 0
    /// The recording's header, once the first line has been read, if the log has one: the
    /// header is not a record, so no reading mode hands it out.
    public private(set) var header: LogHeader?
    /// What the log holds that replay reports without stopping, found so far: a last line
    /// cut off in its middle (no line end, and its object not closed), which is skipped.
    public private(set) var warnings: [LogWarning] = []

    /// Reads a log held in memory (tests, small inputs).
    public init(bytes: [UInt8]) {
        lines = LineBuffer(bytes: bytes)
    }

    /// Streams a log from an open file descriptor, in fixed-size chunks; the caller keeps
    /// ownership of the descriptor.
    public init(fileDescriptor: Int32) {
        self.init(fileDescriptor: fileDescriptor, chunkSize: EventLogReader.defaultChunkSize)
    }

    /// Streams from a descriptor in chunks of `chunkSize` bytes (tests use tiny chunks).
    init(fileDescriptor: Int32, chunkSize: Int) {
        self.init(chunkSize: chunkSize) { buffer in EventLogReader.read(fileDescriptor, into: buffer) }
    }

    /// Streams from any source (a decompressor, a socket): `refill` fills a buffer of at most
    /// `chunkSize` bytes and returns the count read, 0 at the end, or a negated `errno`.
    public init(chunkSize: Int, refill: @escaping (UnsafeMutableBufferPointer<UInt8>) -> Int) {
        lines = LineBuffer(chunkSize: chunkSize, refill: refill)
    }

    /// Opens the file at `path` (relative to `context`'s folder) and streams it; the file is
    /// closed when the reader goes away.
    public static func open(path: String, in context: InputFile.Context = .process) throws(LogError) -> EventLogReader {
        try open(path: path, chunkSize: defaultChunkSize, in: context)
    }

    /// `open(path:in:)` with a chosen chunk size.
    static func open(path: String, chunkSize: Int, in context: InputFile.Context = .process) throws(LogError) -> EventLogReader {
        let descriptor: Int32
        switch InputFile.open(path, in: context) {
        case .success(let d): descriptor = d
        case .failure(let problem): throw LogError(line: 0, column: 0, message: problem.message, text: [])
        }
        let owner = OwnedFileDescriptor(descriptor)
        return EventLogReader(chunkSize: chunkSize) { buffer in EventLogReader.read(owner.descriptor, into: buffer) }
    }

    /// The next record, skipping blank (whitespace-only) lines; nil at the end.
    public mutating func next() throws(LogError) -> LogRecord? {
        while let range = try nextLineRange() {
            if let record = try parseRecord(range) { return record }
        }
        return nil
    }

    /// The byte range in `lines` of the next non-blank line (without a BOM on line 1), with
    /// `lineNumber` set to its number; nil at the end.
    mutating func nextLineRange() throws(LogError) -> Range<Int>? {
        while true {
            var range: Range<Int>
            do throws(LineBuffer.ReadFailure) {
                guard let line = try lines.nextLine() else { return nil }
                range = line
            } catch {
                throw LogError(line: lineNumber + 1, column: 1, message: LogMessage.cannotRead(reason: error.reason),
                               text: [])
            }
            lineNumber += 1
            if lineNumber == 1 && lines.startsWithByteOrderMark(range) {
                range = range.lowerBound + 3..<range.upperBound
            }
            if lines.isBlank(range) { continue }
            if firstLine == 0 { firstLine = lineNumber }
            return range
        }
    }

    /// Parses the line at `range` (from `nextLineRange`) with the full parser, as every
    /// reading mode does with a line that is not a plain event line; nil when the line is
    /// no record: the header on the first line (kept in `header`), or a last line cut off
    /// in its middle (kept in `warnings`). Any other line that does not parse is an error,
    /// and so is a header elsewhere.
    mutating func parseRecord(_ range: Range<Int>) throws(LogError) -> LogRecord? {
        let text = lines.bytes(range)
        let number = lineNumber
        let headerAllowed = number == firstLine
        let parsed = text.withUnsafeBufferPointer { buffer -> Result<LineParser.FirstLine, LineFailure> in
            var parser = LineParser(bytes: buffer, text: text)
            do throws(LineFailure) {
                return .success(try parser.parseLine(number: number, headerAllowed: headerAllowed))
            } catch {
                return .failure(error)
            }
        }
        switch parsed {
        case .success(.record(let record)):
            return record
        case .success(.header(let header)):
            self.header = header
            return nil
        case .failure(let failure):
            // A killed writer leaves the start of a line without its end: replay what came before.
            if lines.lastLineUnterminated && JSONPrefix.isUnfinishedObject(text) {
                warnings.append(LogWarning(.truncatedLogLine, line: number,
                                           column: LogRecord.column(ofByte: text.count, in: text),
                                           message: LogMessage.truncatedLastLine(replayedUpTo: number - 1), text: text))
                return nil
            }
            throw LogError(line: number, column: LogRecord.column(ofByte: failure.offset, in: text),
                           message: failure.message, text: text)
        }
    }

    /// read(2), retried when interrupted; returns the count, 0 at the end, or a negated errno.
    private static func read(_ descriptor: Int32, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        while true {
            let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { return -Int(errno) }
        }
    }
}

/// A file descriptor the reader opened itself, closed when the last reader copy is gone.
private final class OwnedFileDescriptor {
    let descriptor: Int32

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        _ = close(descriptor)
    }
}

// The C functions, under names that do not clash with this type's own `open` and `read`.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
