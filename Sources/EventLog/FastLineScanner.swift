import StatecraftDiagnostics
/// Reads the common shape of event line in place, without allocating:
/// `{"time": 1.5, "event": "name", "field": 12, "flag": true, "label": "text"}`, keys in any
/// order, whitespace anywhere JSON allows it.
///
/// It never reports an error: anything it does not handle exactly as `LineParser` would
/// (escapes, non-ASCII it cannot vouch for, `null`, arrays, objects, `expect`, numbers that
/// need correct rounding, duplicate keys, any syntax error) makes it decline, and the
/// reader parses the line again with the full parser, which gives the record or the exact
/// error. So what it accepts must equal what `LineParser` returns; the equivalence tests
/// check that.
///
/// It works on raw pointers: every read of a single byte is checked against the line's end,
/// and 8-byte word reads stay within `readable`, the bytes the buffer holds from the line's
/// start on (the line and whatever follows it); what a word read sees past the line's end is
/// never taken as part of the line.
struct FastLineScanner {
    /// What the scanner read besides the payload fields.
    struct Header {
        var name: Range<Int>
        var nameOffset: Int
        var time: Double?
        var timeOffset: Int?
        var caseKey: Range<Int>?
        var caseOffset: Int?
    }

    /// How a scan ended.
    enum Outcome {
        /// An event line with `count` payload fields, stored at the start of the field buffer.
        case event(Header, count: Int)
        /// Not a line the scanner vouches for: the full parser must read it.
        case declined
        /// The line has more payload fields than the buffer holds: grow it and scan again.
        case needsRoom
    }

    /// The line's first byte.
    private let base: UnsafePointer<UInt8>
    /// The line's length in bytes.
    private let end: Int
    /// How many bytes from `base` on may be read (at least `end`).
    private let readable: Int

    init(line base: UnsafePointer<UInt8>, count: Int, readable: Int) {
        self.base = base
        end = count
        self.readable = max(count, readable)
    }

    /// Reads an event line, storing its payload fields in `fields` from index 0.
    func scanEventLine(into fields: UnsafeMutableBufferPointer<RawField>) -> Outcome {
        var i = skipWhitespace(0)
        guard i < end, base[i] == UInt8(ascii: "{") else { return .declined }
        i = skipWhitespace(i &+ 1)
        var count = 0
        var hasName = false
        var header = Header(name: 0..<0, nameOffset: 0)
        while true {
            let keyOffset = i
            guard i < end, base[i] == UInt8(ascii: "\""), let keyEnd = stringEnd(from: i &+ 1) else { return .declined }
            let key = i &+ 1..<keyEnd
            i = skipWhitespace(keyEnd &+ 1)
            guard i < end, base[i] == UInt8(ascii: ":") else { return .declined }
            i = skipWhitespace(i &+ 1)
            let valueOffset = i
            guard i < end else { return .declined }
            switch reservedKey(key) {
            case .event:
                guard !hasName, base[i] == UInt8(ascii: "\""), let valueEnd = stringEnd(from: i &+ 1) else { return .declined }
                hasName = true
                header.name = i &+ 1..<valueEnd
                header.nameOffset = valueOffset
                i = valueEnd &+ 1
            case .time:
                guard header.time == nil, let (value, next) = scanNumber(i) else { return .declined }
                header.time = value
                header.timeOffset = valueOffset
                i = next
            case .case:
                guard header.caseKey == nil else { return .declined }
                if base[i] == UInt8(ascii: "\"") {
                    guard let valueEnd = stringEnd(from: i &+ 1) else { return .declined }
                    header.caseKey = i &+ 1..<valueEnd
                    i = valueEnd &+ 1
                } else {
                    guard let next = scanCaseInteger(i) else { return .declined }
                    header.caseKey = i..<next
                    i = next
                }
                header.caseOffset = valueOffset
            case .expect:
                return .declined
            case .payload:
                guard !isKey(key, amongFirst: count, of: fields), let (value, next) = scanValue(i) else { return .declined }
                guard count < fields.count else { return .needsRoom }
                fields[count] = RawField(key: key, keyOffset: keyOffset, valueOffset: valueOffset, value: value)
                count &+= 1
                i = next
            }
            i = skipWhitespace(i)
            guard i < end else { return .declined }
            if base[i] == UInt8(ascii: ",") {
                i = skipWhitespace(i &+ 1)
            } else if base[i] == UInt8(ascii: "}") {
                break
            } else {
                return .declined
            }
        }
        guard skipWhitespace(i &+ 1) == end, hasName else { return .declined }
        return .event(header, count: count)
    }

    /// The first index from `i` on that is not JSON whitespace (or `end`).
    @inline(__always)
    private func skipWhitespace(_ i: Int) -> Int {
        var i = i
        while i < end {
            let b = base[i]
            // Everything above the space is not whitespace: one compare for the usual byte.
            if b > 0x20 || (b != 0x20 && b != 0x09 && b != 0x0A && b != 0x0D) { return i }
            i &+= 1
        }
        return i
    }

    private enum KeyKind {
        case event, time, `case`, expect, payload
    }

    /// Which reserved key `key` spells, by its length and one or two word compares.
    @inline(__always)
    private func reservedKey(_ key: Range<Int>) -> KeyKind {
        let start = key.lowerBound
        switch key.count {
        case 4:
            let word = load32(start)
            if word == FastLineScanner.word("t", "i", "m", "e") { return .time }
            if word == FastLineScanner.word("c", "a", "s", "e") { return .case }
        case 5:
            if load32(start) == FastLineScanner.word("e", "v", "e", "n") && base[start &+ 4] == UInt8(ascii: "t") {
                return .event
            }
        case 6:
            if load32(start) == FastLineScanner.word("e", "x", "p", "e")
                && base[start &+ 4] == UInt8(ascii: "c") && base[start &+ 5] == UInt8(ascii: "t") {
                return .expect
            }
        default:
            break
        }
        return .payload
    }

    /// The four bytes at `i` (which must be readable) as a little-endian word.
    @inline(__always)
    private func load32(_ i: Int) -> UInt32 {
        UInt32(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt32.self))
    }

    /// Four ASCII characters as the little-endian word `load32` reads.
    @inline(__always)
    private static func word(_ a: Unicode.Scalar, _ b: Unicode.Scalar, _ c: Unicode.Scalar, _ d: Unicode.Scalar) -> UInt32 {
        a.value | b.value << 8 | c.value << 16 | d.value << 24
    }

    /// Whether `key` equals the key of one of the first `count` fields.
    @inline(__always)
    private func isKey(_ key: Range<Int>, amongFirst count: Int, of fields: UnsafeMutableBufferPointer<RawField>) -> Bool {
        var k = 0
        while k < count {
            let other = fields[k].key
            if other.count == key.count && memoryEqual(other.lowerBound, key.lowerBound, key.count) { return true }
            k &+= 1
        }
        return false
    }

    private func memoryEqual(_ a: Int, _ b: Int, _ count: Int) -> Bool {
        var k = 0
        while k < count {
            if base[a &+ k] != base[b &+ k] { return false }
            k &+= 1
        }
        return true
    }

    /// A payload value: a string without escapes, a number, `true` or `false`; the value and
    /// the index after it.
    @inline(__always)
    private func scanValue(_ i: Int) -> (RawValue, Int)? {
        switch base[i] {
        case UInt8(ascii: "\""):
            guard let valueEnd = stringEnd(from: i &+ 1) else { return nil }
            return (.string(i &+ 1..<valueEnd), valueEnd &+ 1)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let (value, next) = scanNumber(i) else { return nil }
            return (.number(value), next)
        case UInt8(ascii: "t"):
            guard i &+ 4 <= end, load32(i) == FastLineScanner.word("t", "r", "u", "e"), !isWordByte(at: i &+ 4) else {
                return nil
            }
            return (.bool(true), i &+ 4)
        case UInt8(ascii: "f"):
            guard i &+ 5 <= end, load32(i &+ 1) == FastLineScanner.word("a", "l", "s", "e"), !isWordByte(at: i &+ 5) else {
                return nil
            }
            return (.bool(false), i &+ 5)
        default:
            return nil
        }
    }

    /// Whether the byte at `i` continues a word (false at the end), as `LineParser` decides
    /// that a literal goes on.
    @inline(__always)
    private func isWordByte(at i: Int) -> Bool {
        i < end && LineParser.isWordByte(base[i])
    }

    /// The index of the closing quote of a string whose contents start at `start`, when the
    /// contents have no escapes and no control characters and are valid UTF-8; nil otherwise.
    @inline(__always)
    private func stringEnd(from start: Int) -> Int? {
        var i = start
        while true {
            // Eight bytes at a time up to the first quote, backslash, control or non-ASCII byte.
            while i &+ 8 <= readable {
                let special = FastLineScanner.specialBytes(
                    UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)))
                if special != 0 {
                    i &+= special.trailingZeroBitCount &>> 3
                    break
                }
                i &+= 8
            }
            guard i < end else { return nil }
            let b = base[i]
            if b == UInt8(ascii: "\"") { return i }
            if b < 0x80 {
                if b == UInt8(ascii: "\\") || b < 0x20 { return nil }
                i &+= 1
            } else {
                // A byte of 0x80 or more that starts no well-formed sequence gives length 1.
                let length = UTF8Scanner.sequenceLength(UnsafeBufferPointer(start: base, count: end), at: i, limit: end)
                if length == 1 { return nil }
                i &+= length
            }
        }
    }

    /// The high bit of each byte of `w` that is a quote, a backslash, below 0x20 or 0x80 and
    /// above; the lowest flagged byte is exact (higher ones may be false alarms).
    @inline(__always)
    static func specialBytes(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = w ^ (0x22 &* ones)
        let backslash = w ^ (0x5C &* ones)
        let zeroQuote = (quote &- ones) & ~quote
        let zeroBackslash = (backslash &- ones) & ~backslash
        let control = (w &- 0x20 &* ones) & ~w
        return (zeroQuote | zeroBackslash | control | w) & (0x80 &* ones)
    }

    /// A number starting at `start`: its value and the index after it. Plain decimals of at
    /// most 19 digits whose digits make an integer up to 2^53 are converted here (one
    /// correctly rounded division by an exact power of ten); numbers with an exponent or more
    /// digits go to `scanGeneralNumber`.
    @inline(__always)
    private func scanNumber(_ start: Int) -> (Double, Int)? {
        var i = start
        let negative = base[i] == UInt8(ascii: "-")
        if negative { i &+= 1 }
        let integerStart = i
        var mantissa: UInt64 = 0
        while i < end {
            let d = base[i] &- UInt8(ascii: "0")
            if d >= 10 { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            i &+= 1
        }
        let integerDigits = i &- integerStart
        // No digit, or a leading zero (an error for the full parser).
        guard integerDigits > 0, integerDigits == 1 || base[integerStart] != UInt8(ascii: "0") else { return nil }
        var fractionDigits = 0
        if i < end && base[i] == UInt8(ascii: ".") {
            i &+= 1
            let fractionStart = i
            while i < end {
                let d = base[i] &- UInt8(ascii: "0")
                if d >= 10 { break }
                mantissa = mantissa &* 10 &+ UInt64(d)
                i &+= 1
            }
            fractionDigits = i &- fractionStart
            guard fractionDigits > 0 else { return nil }
        }
        if i < end && base[i] | 0x20 == UInt8(ascii: "e") || integerDigits &+ fractionDigits > 19
            || mantissa > 1 << 53 || fractionDigits > 22 {
            return scanGeneralNumber(start)
        }
        let value = Double(mantissa) / FastLineScanner.powerOfTen(fractionDigits)
        return (negative ? -value : value, i)
    }

    /// 10^k for 0 ≤ k ≤ 22 (each exact as a double).
    @inline(__always)
    private static func powerOfTen(_ k: Int) -> Double {
        switch k {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    /// The grammar of `LineParser.parseNumber`, accepting only numbers its exact fast path
    /// converts (so the double is the same); nil for anything else.
    private func scanGeneralNumber(_ start: Int) -> (Double, Int)? {
        var i = start
        let negative = base[i] == UInt8(ascii: "-")
        if negative { i &+= 1 }
        var digits = DecimalDigits()
        guard i < end, LineParser.isDigit(base[i]) else { return nil }
        if base[i] == UInt8(ascii: "0") {
            i &+= 1
            if i < end, LineParser.isDigit(base[i]) { return nil }
        } else {
            while i < end, LineParser.isDigit(base[i]) {
                digits.addIntegerDigit(base[i] &- UInt8(ascii: "0"))
                i &+= 1
            }
        }
        if i < end, base[i] == UInt8(ascii: ".") {
            i &+= 1
            guard i < end, LineParser.isDigit(base[i]) else { return nil }
            while i < end, LineParser.isDigit(base[i]) {
                digits.addFractionDigit(base[i] &- UInt8(ascii: "0"))
                i &+= 1
            }
        }
        if i < end, base[i] | 0x20 == UInt8(ascii: "e") {
            i &+= 1
            var exponentNegative = false
            if i < end, base[i] == UInt8(ascii: "-") || base[i] == UInt8(ascii: "+") {
                exponentNegative = base[i] == UInt8(ascii: "-")
                i &+= 1
            }
            guard i < end, LineParser.isDigit(base[i]) else { return nil }
            var exponent = 0
            while i < end, LineParser.isDigit(base[i]) {
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(base[i] &- UInt8(ascii: "0")) }
                i &+= 1
            }
            digits.exponent += exponentNegative ? -exponent : exponent
        }
        guard let value = digits.exactValue else { return nil }
        return (negative ? -value : value, i)
    }

    /// A `case` integer whose digits are already its canonical text (`String(Int64(value))`):
    /// `0`, or an optional `-` and up to 15 digits without a leading zero, with no fraction or
    /// exponent; the index after it. Anything else goes to the full parser.
    private func scanCaseInteger(_ start: Int) -> Int? {
        var i = start
        if base[i] == UInt8(ascii: "-") { i &+= 1 }
        guard i < end, LineParser.isDigit(base[i]) else { return nil }
        if base[i] == UInt8(ascii: "0") {
            guard i == start else { return nil }
            i &+= 1
        } else {
            let first = i
            while i < end, LineParser.isDigit(base[i]) { i &+= 1 }
            guard i &- first <= 15 else { return nil }
        }
        if i < end, base[i] == UInt8(ascii: ".") || base[i] | 0x20 == UInt8(ascii: "e") || LineParser.isDigit(base[i]) {
            return nil
        }
        return i
    }
}
