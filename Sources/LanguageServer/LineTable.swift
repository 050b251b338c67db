import StatecraftDiagnostics

/// A place in a document as the protocol names it: a 0-based line and a 0-based character
/// counted in UTF-16 code units (LSP 3.17's default and only mandatory encoding).
package struct Position: Equatable, Hashable, Sendable {
    /// 0-based line.
    package var line: Int
    /// 0-based offset into the line in UTF-16 code units.
    package var character: Int

    /// Creates a position.
    package init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }
}

/// Converts between byte offsets (what the library's ranges hold) and protocol positions.
///
/// Lines end at `\n`, `\r\n` or a lone `\r`, as the protocol counts them. A character outside
/// a line is clamped to its end, and one that falls inside a character needing two UTF-16
/// units (an emoji) is moved to that character's start, so a client's off-by-one can never
/// split a character. A byte that is not valid UTF-8 counts as one unit, as the replacement
/// character a client shows for it.
package struct LineTable: Sendable {
    /// The text, UTF-8.
    package let bytes: [UInt8]
    /// Byte offset of each line's first byte.
    package let lineStarts: [Int]

    /// Builds the table for `bytes`.
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\n") {
                starts.append(i + 1)
            } else if b == UInt8(ascii: "\r") {
                if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\n") { i += 1 }
                starts.append(i + 1)
            }
            i += 1
        }
        lineStarts = starts
    }

    /// The byte offset just past line `index`'s last character (before its line break).
    package func lineEnd(_ index: Int) -> Int {
        guard index + 1 < lineStarts.count else { return bytes.count }
        var end = lineStarts[index + 1] - 1
        if bytes[end] == UInt8(ascii: "\n"), end > lineStarts[index], bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return end
    }

    /// The position of a byte offset (clamped into the text).
    package func position(of offset: Int) -> Position {
        let offset = min(max(0, offset), bytes.count)
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        let end = min(offset, lineEnd(low))
        var units = 0
        var i = lineStarts[low]
        while i < end {
            let length = UTF8Scanner.sequenceLength(bytes, at: i, limit: end)
            units += length == 4 ? 2 : 1
            i += length
        }
        return Position(line: low, character: units)
    }

    /// The byte offset of a position, clamped: a line past the last is the end of the text.
    package func offset(of position: Position) -> Int {
        guard position.line >= 0 else { return 0 }
        guard position.line < lineStarts.count else { return bytes.count }
        let end = lineEnd(position.line)
        var units = 0
        var i = lineStarts[position.line]
        while i < end {
            let length = UTF8Scanner.sequenceLength(bytes, at: i, limit: end)
            let width = length == 4 ? 2 : 1
            if units + width > position.character { break }
            units += width
            i += length
        }
        return i
    }

    /// The protocol range of a byte range.
    package func range(of range: SourceRange) -> (start: Position, end: Position) {
        (position(of: range.start), position(of: range.end))
    }
}
