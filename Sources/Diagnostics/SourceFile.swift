/// A source text held as UTF-8 bytes, with a table of line starts.
///
/// Positions everywhere else are byte offsets into `bytes`; they become line and column
/// only when printed, through `location(of:)`.
public final class SourceFile: Sendable {
    /// The name shown in diagnostics, usually the path as the user wrote it.
    public let path: String
    /// The file's contents, exactly as read.
    public let bytes: [UInt8]
    /// Byte offset of the first byte of each line; `lineStarts[0] == 0`.
    public let lineStarts: [Int]
    /// The line number of the first line: 1 for a whole file, more for a fragment (one line
    /// of a streamed event log, say).
    public let firstLine: Int

    /// Creates a source file from raw bytes; a fragment of a larger file gives the line
    /// number its first line has there.
    public init(path: String, bytes: [UInt8], firstLine: Int = 1) {
        self.path = path
        self.bytes = bytes
        self.firstLine = firstLine
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") {
            starts.append(i + 1)
        }
        self.lineStarts = starts
    }

    /// The file without a leading UTF-8 byte order mark (editors on Windows write one): it is
    /// not part of the text, and without it columns on the first line count as the editor
    /// shows them. The file itself when it has none.
    package var withoutByteOrderMark: SourceFile {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? SourceFile(path: path, bytes: Array(bytes.dropFirst(3)), firstLine: firstLine) : self
    }

    /// Creates a source file from a string (tests and embedding apps).
    public convenience init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }

    /// The 0-based line index holding `offset` (offsets past the end map to the last line).
    public func lineIndex(of offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The byte range of line `index` (0-based), without its line terminator.
    public func lineRange(_ index: Int) -> Range<Int> {
        let start = lineStarts[index]
        var end = index + 1 < lineStarts.count ? lineStarts[index + 1] - 1 : bytes.count
        if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return start..<max(start, end)
    }

    /// The 1-based line and column of a byte offset. Columns count Unicode scalars; a byte
    /// that is not part of valid UTF-8 counts as one column.
    public func location(of offset: Int) -> SourceLocation {
        let clamped = min(max(0, offset), bytes.count)
        let line = lineIndex(of: clamped)
        var column = 1
        var i = lineStarts[line]
        while i < clamped {
            i += UTF8Scanner.sequenceLength(bytes, at: i, limit: clamped)
            column += 1
        }
        return SourceLocation(line: line + firstLine, column: column)
    }
}

/// A 1-based line and column, as printed in diagnostics.
public struct SourceLocation: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// 1-based column, counted in Unicode scalars.
    public var column: Int

    /// Creates a location.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// A half-open range of byte offsets in one source file.
public struct SourceRange: Equatable, Hashable, Sendable {
    /// The first byte.
    public var start: Int
    /// One past the last byte; equal to `start` for an empty range (a point).
    public var end: Int

    /// Creates a range; `end` is raised to `start` if it is smaller.
    public init(_ start: Int, _ end: Int) {
        self.start = start
        self.end = max(start, end)
    }

    /// An empty range at `offset`.
    public static func point(_ offset: Int) -> SourceRange { SourceRange(offset, offset) }
}

/// Helpers for walking UTF-8 without trusting it to be valid.
package enum UTF8Scanner {
    /// The length of the well-formed UTF-8 sequence at `i`, or 1 if the byte there does not
    /// start one (so callers always make progress). Never reads at or past `limit`.
    @inlinable
    package static func sequenceLength<Bytes: RandomAccessCollection>(_ bytes: Bytes, at i: Int, limit: Int) -> Int
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let lead = bytes[i]
        if lead < 0x80 { return 1 }
        let length: Int
        var lowerBound: UInt8 = 0x80
        var upperBound: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lowerBound = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upperBound = 0x9F
        case 0xF0: length = 4; lowerBound = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upperBound = 0x8F
        default: return 1
        }
        guard i + length <= limit else { return 1 }
        let second = bytes[i + 1]
        guard second >= lowerBound && second <= upperBound else { return 1 }
        for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return 1 }
        return length
    }

    /// Decodes the scalar at `i`, or nil when the bytes there are not valid UTF-8.
    package static func scalar(_ bytes: [UInt8], at i: Int, limit: Int) -> Unicode.Scalar? {
        let length = sequenceLength(bytes, at: i, limit: limit)
        let lead = UInt32(bytes[i])
        if length == 1 { return lead < 0x80 ? Unicode.Scalar(lead) : nil }
        var value: UInt32
        switch length {
        case 2: value = lead & 0x1F
        case 3: value = lead & 0x0F
        default: value = lead & 0x07
        }
        for k in 1..<length { value = (value << 6) | UInt32(bytes[i + k] & 0x3F) }
        return Unicode.Scalar(value)
    }
}
