import Foundation
import StatecraftLanguageServer
import Testing
import TestSupport

/// Byte offsets and the protocol's UTF-16 positions, both ways, on the spec with emoji.
@Suite struct LineTableTests {
    static let peek = Repository.bytes(Repository.specs.appendingPathComponent("PeekRating.machine"))

    /// Where `needle` first starts in `bytes`, after `after` when given.
    static func find(_ needle: String, in bytes: [UInt8], after: Int = 0) -> Int? {
        let n = Array(needle.utf8)
        guard n.count <= bytes.count else { return nil }
        return (after...(bytes.count - n.count)).first { bytes[$0..<$0 + n.count].elementsEqual(n) }
    }

    @Test func anEmojiIsTwoUnitsAndShiftsNothingAfterIt() throws {
        let lines = LineTable(Self.peek)
        // `rating = insideCell ? (y < cellMidY ? "❤️" : "💀") : ""`: ❤️ is U+2764 U+FE0F (one
        // unit each, three bytes each), 💀 is U+1F480 (two units, four bytes).
        let skull = try #require(Self.find("\"💀\") : \"\"", in: Self.peek))
        let line = lines.position(of: skull).line
        let lineStart = lines.lineStarts[line]
        let text = String(decoding: Self.peek[lineStart..<skull], as: UTF8.self)
        let position = lines.position(of: skull)
        #expect(position.character == text.utf16.count)
        // After the skull: the closing quote is 3 units further (quote, two for the emoji).
        let after = lines.position(of: skull + 1 + 4)
        #expect(after == Position(line: line, character: position.character + 3))
        #expect(lines.offset(of: after) == skull + 5)
        // A character in the middle of the surrogate pair goes back to the emoji's start.
        #expect(lines.offset(of: Position(line: line, character: position.character + 2)) == skull + 1)
    }

    @Test func everyOffsetOfTheSpecRoundTrips() {
        let lines = LineTable(Self.peek)
        let text = String(decoding: Self.peek, as: UTF8.self)
        var offset = 0
        for scalar in text.unicodeScalars {
            let p = lines.position(of: offset)
            #expect(lines.offset(of: p) == offset)
            offset += String(scalar).utf8.count
        }
        // The line and character Foundation counts for every line start agree.
        let lineTexts = text.components(separatedBy: "\n")
        #expect(lines.lineStarts.count == lineTexts.count)
        for (index, lineText) in lineTexts.enumerated() {
            let end = lines.position(of: lines.lineEnd(index))
            #expect(end == Position(line: index, character: lineText.utf16.count))
        }
    }

    @Test func positionsOutsideTheTextAreClamped() {
        let lines = LineTable(Array("ab\r\ncd\ref".utf8))
        #expect(lines.lineStarts == [0, 4, 7])
        #expect(lines.offset(of: Position(line: 0, character: 99)) == 2)
        #expect(lines.offset(of: Position(line: 1, character: 1)) == 5)
        #expect(lines.offset(of: Position(line: 2, character: 2)) == 9)
        #expect(lines.offset(of: Position(line: 7, character: 0)) == 9)
        #expect(lines.offset(of: Position(line: -1, character: 3)) == 0)
        #expect(lines.position(of: 3) == Position(line: 0, character: 2))
        #expect(lines.position(of: 500) == Position(line: 2, character: 2))
    }

    @Test func anInvalidByteIsOneUnit() {
        let lines = LineTable([0x61, 0xFF, 0x62])
        #expect(lines.position(of: 2) == Position(line: 0, character: 2))
        #expect(lines.offset(of: Position(line: 0, character: 2)) == 2)
    }
}
