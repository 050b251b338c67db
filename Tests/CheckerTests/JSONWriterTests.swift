import Foundation
import Statecraft
@_spi(Bytes) import StatecraftDiagnostics
import Testing
import TestSupport

/// The byte-level JSON and spec quoting (used for replay traces) against the String
/// versions they replaced, kept here as the reference: the output must not change by a byte.
@Suite struct JSONWriterTests {
    /// `StringEscaping.quoted` as it was written before the byte-level version.
    static func referenceQuoted(_ s: String, style: StringEscaping.Style) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                guard scalar.value < 0x20 || scalar.value == 0x7F else {
                    out.unicodeScalars.append(scalar)
                    continue
                }
                let hex = String(scalar.value, radix: 16, uppercase: style == .spec)
                switch style {
                case .json: out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                case .spec: out += "\\u{" + hex + "}"
                }
            }
        }
        return out + "\""
    }

    /// `JSONWriter.number` as it was written before the byte-level version.
    static func referenceNumber(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    static let hostileStrings: [String] = [
        "", "plain", "quote\"inside", "back\\slash", "\\\"", "new\nline", "tab\there", "\r\u{8}\u{C}",
        "\u{0}\u{1}\u{1F}\u{7F}\u{80}", "u2028\u{2028}u2029\u{2029}", "emoji😀🏳️‍🌈", "é e\u{301}", "</script>",
        "exactly15bytes!", "sixteen bytes!!!", String(decoding: [0x61, 0xFF, 0xC3, 0x62], as: UTF8.self),
        String(repeating: "a\"\u{1}é", count: 3000),  // escapes across the 4096-byte pieces
        String(repeating: "x", count: 4095) + "\"", String(repeating: "\u{1}", count: 5000),
    ]

    @Test(arguments: JSONWriterTests.hostileStrings)
    func quotingGivesTheSameBytesAsBefore(s: String) {
        for style in [StringEscaping.Style.json, .spec] {
            let expected = JSONWriterTests.referenceQuoted(s, style: style)
            #expect(StringEscaping.quoted(s, style: style) == expected)
            var out = ByteBuffer()
            out.append("prefix ")
            StringEscaping.appendQuoted(s, style: style, to: &out)
            #expect(out.withBytes { Array($0) } == Array(("prefix " + expected).utf8))
        }
        #expect(JSONWriter.quote(s) == JSONWriterTests.referenceQuoted(s, style: .json))
    }

    static let numbers: [Double] = [
        0, -0.0, 1, -1, 7, -617, 0.1, 0.2, 0.3, 0.1 + 0.2, 1.0 / 3, 602.6, 1.342, 86315.759, -2.5, 0.001, 0.0009999,
        1e-7, .leastNonzeroMagnitude, 1e15, -1e15, 1e15 - 1, 1e15 + 2, 999999999999999.9, 9007199254740992, 9007199254740994, 1e9, 1e9 - 0.5,
        999999999.9999, 123456789.125, 12.0000001, 1e21, 1e300, -1e300, .greatestFiniteMagnitude,
        .leastNormalMagnitude, .infinity, -.infinity, .nan,
    ]

    /// Plain strings are copied whole after a check 8 bytes at a time: every character that
    /// needs an escape, at every position of such a word and past it, among ASCII and
    /// multi-byte neighbours.
    @Test func escapesAreFoundAtEveryPositionOfAWord() {
        let specials: [Character] = ["\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}"]
        for filler in ["a", "~", " ", "é", "\u{80}", "😀"] {
            for length in [1, 7, 8, 9, 16, 23] {
                for position in 0..<length {
                    for special in specials {
                        var characters = Array(repeating: Character(filler), count: length)
                        characters[position] = special
                        let s = String(characters)
                        for style in [StringEscaping.Style.json, .spec] {
                            var out = ByteBuffer()
                            StringEscaping.appendQuoted(s, style: style, to: &out)
                            #expect(out.text == JSONWriterTests.referenceQuoted(s, style: style))
                        }
                    }
                }
                let plain = String(repeating: filler, count: length)
                #expect(StringEscaping.quoted(plain, style: .json) == "\"" + plain + "\"")
            }
        }
    }

    @Test func numbersGiveTheSameBytesAsBefore() {
        var values = JSONWriterTests.numbers
        var rng = SeededGenerator(seed: 42)
        for _ in 0..<20_000 {
            // Short decimals (the common case in logs), their neighbours, and anything at all.
            var scale = 1.0
            for _ in 0..<Int.random(in: 1...12, using: &rng) { scale *= 10 }
            let short = Double(Int64.random(in: -1 << 50...1 << 50, using: &rng) >> Int.random(in: 0...48, using: &rng)) / scale
            values += [short, short.nextUp, short.nextDown, Double(bitPattern: rng.next())]
        }
        for e in -1074...1023 { values.append(Double(sign: .plus, exponent: e, significand: 1)) }
        for value in values {
            let expected = JSONWriterTests.referenceNumber(value)
            #expect(JSONWriter.number(value) == expected, "\(value)")
            var out = ByteBuffer(capacity: 1)
            JSONWriter.appendNumber(value, to: &out)
            #expect(out.text == expected, "\(value)")
        }
    }

    /// Numbers that need 16 or 17 digits, from 0.001 to 10^9 (written without Swift's
    /// `description`): every significand at every exponent of the range, as `description`
    /// writes them; and the neighbours of powers of two, where the gap below is half the gap
    /// above.
    @Test func longDecimalsAreTheShortestThatReadBack() {
        var rng = SeededGenerator(seed: 1077)
        var values: [Double] = []
        for exponent in -10...29 {
            let power = Double(sign: .plus, exponent: exponent, significand: 1)
            values += [power, power.nextUp, power.nextDown, power.nextUp.nextUp, power.nextDown.nextDown]
            for _ in 0..<5_000 {
                let significand = Double(bitPattern: (1.0).bitPattern | (rng.next() & ((1 << 52) - 1)))
                let v = Double(sign: .plus, exponent: exponent, significand: significand)
                values += [v, -v]
            }
        }
        var written = 0
        for value in values where abs(value) >= 1e-3 && abs(value) < 1e9 {
            var out = ByteBuffer(capacity: 1)
            JSONWriter.appendNumber(value, to: &out)
            #expect(out.text == JSONWriterTests.referenceNumber(value), "\(value.bitPattern)")
            written += 1
        }
        #expect(written > 350_000)
    }

    @Test func integers() {
        for n: Int64 in [0, 1, -1, 9, 10, -10, 99, 100, 1_000_000, .max, .min, .max - 1, .min + 1] {
            var out = ByteBuffer(capacity: 1)
            JSONWriter.appendInteger(n, to: &out)
            #expect(out.text == String(n))
        }
    }

    /// Appends of up to `ByteBuffer.shortCopy` bytes are copied in line with overlapping
    /// word moves: every length around the word sizes, at every alignment of the source and
    /// of the buffer's end, copies exactly its bytes and nothing else.
    @Test func shortAppendsCopyExactlyTheirBytes() {
        var rng = SeededGenerator(seed: 7)
        let source = (0..<256).map { _ in UInt8.random(in: 0...255, using: &rng) }
        source.withUnsafeBufferPointer { all in
            for length in 1...(ByteBuffer.shortCopy + 20) {
                for start in 0..<17 {
                    for before in 0..<9 {
                        var out = ByteBuffer(capacity: 1)
                        var expected = Array(repeating: UInt8(ascii: "."), count: before)
                        for _ in 0..<before { out.append(UInt8(ascii: ".")) }
                        let piece = UnsafeBufferPointer(rebasing: all[start..<start + length])
                        out.append(piece)
                        expected += piece
                        out.append(UInt8(ascii: "|"))
                        expected.append(UInt8(ascii: "|"))
                        #expect(out.withBytes { Array($0) } == expected, "length \(length), start \(start), before \(before)")
                    }
                }
            }
        }
    }

    @Test func aByteBufferGrowsAndKeepsItsBytesInOrder() {
        var out = ByteBuffer(capacity: 1)
        var expected: [UInt8] = []
        for i in 0..<10_000 {
            let piece = "\(i),"
            out.append(contentsOf: piece)
            expected += Array(piece.utf8)
            out.append(UInt8(ascii: ";"))
            expected.append(UInt8(ascii: ";"))
        }
        out.append("literal")
        expected += Array("literal".utf8)
        #expect(out.count == expected.count)
        #expect(out.withBytes { Array($0) } == expected)
        var copy = ByteBuffer()
        copy.append(out)
        #expect(copy.text == out.text)
        out.removeAll()
        #expect(out.isEmpty && out.text == "")
        out.append("again")
        #expect(out.text == "again")
    }
}
