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
        var name: Range<Int> = 0..<0
        var nameOffset = 0
        var time: Double?
        var timeOffset: Int?
        var caseKey: Range<Int>?
        var caseOffset: Int?
        /// The line's length, without its terminator.
        var length = 0
        /// Where the newline is, for `Extent.toNewline`.
        var newline = 0
    }

    /// Where the line ends.
    enum Extent {
        /// At the end of the bytes given: they are exactly one line, without its terminator.
        case whole
        /// At the first newline in the bytes given (a `\r` before it is not part of the line).
        case toNewline
    }

    /// How a scan ended.
    enum Outcome {
        /// An event line with `count` payload fields, stored at the start of the field buffer.
        case event(count: Int)
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

    private let extent: Extent

    init(line base: UnsafePointer<UInt8>, count: Int, readable: Int, extent: Extent = .whole) {
        self.base = base
        end = count
        self.readable = max(count, readable)
        self.extent = extent
    }

    /// Reads an event line into `header` (which must be fresh), storing its payload fields in
    /// `fields` from index 0.
    func scanEventLine(into header: inout Header, fields: UnsafeMutableBufferPointer<RawField>) -> Outcome {
        var i = skipWhitespace(0)
        guard i < end, base[i] == UInt8(ascii: "{") else { return .declined }
        i = skipWhitespace(i &+ 1)
        var count = 0
        var hasName = false
        while true {
            let keyOffset = i
            guard i < end, base[i] == UInt8(ascii: "\""), let keyEnd = stringEnd(from: i &+ 1) else { return .declined }
            let key = i &+ 1..<keyEnd
            i = keyEnd &+ 1
            if i &+ 2 <= end && load16(i) == FastLineScanner.colonSpace {
                // The usual `": "`; more whitespace may follow.
                i = skipWhitespace(i &+ 2)
            } else {
                i = skipWhitespace(i)
                guard i < end, base[i] == UInt8(ascii: ":") else { return .declined }
                i = skipWhitespace(i &+ 1)
            }
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
            if i &+ 3 <= end && load16(i) == FastLineScanner.commaSpace && base[i &+ 2] == UInt8(ascii: "\"") {
                // The usual `, "` before the next key.
                i &+= 2
                continue
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
        guard hasName else { return .declined }
        // Whitespace never includes a newline here: a line given whole holds none, and a line
        // scanned up to its newline must stop there (strings and numbers stop there too).
        let stop = skipWhitespace(i &+ 1)
        switch extent {
        case .whole:
            guard stop == end else { return .declined }
            header.length = end
        case .toNewline:
            guard stop < end, base[stop] == 0x0A else { return .declined }
            header.newline = stop
            header.length = base[stop &- 1] == 0x0D ? stop &- 1 : stop
        }
        return .event(count: count)
    }

    /// The first index from `i` on that is not a space, tab or carriage return (or `end`).
    /// A newline, JSON whitespace too, ends a line before the scanner ever sees it, or must
    /// stop the scan (`Extent.toNewline`).
    @inline(__always)
    private func skipWhitespace(_ i: Int) -> Int {
        var i = i
        while i < end {
            let b = base[i]
            // Everything above the space is not whitespace: one compare for the usual byte.
            if b > 0x20 || (b != 0x20 && b != 0x09 && b != 0x0D) { return i }
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

    /// `": "` and `", "` as the little-endian words `load16` reads.
    private static let colonSpace = UInt16(UInt8(ascii: ":")) | UInt16(UInt8(ascii: " ")) << 8
    private static let commaSpace = UInt16(UInt8(ascii: ",")) | UInt16(UInt8(ascii: " ")) << 8

    /// The two bytes at `i` (which must be readable) as a little-endian word.
    @inline(__always)
    private func load16(_ i: Int) -> UInt16 {
        UInt16(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt16.self))
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

    /// A number starting at `start`: its value and the index after it. Short decimals are
    /// read a word at a time (`shortDecimal`); the rest byte by byte (`scanGeneralNumber`).
    @inline(__always)
    private func scanNumber(_ start: Int) -> (Double, Int)? {
        let negative = base[start] == UInt8(ascii: "-")
        guard let (mantissa, fractionDigits, next) = shortDecimal(negative ? start &+ 1 : start) else {
            return scanGeneralNumber(start)
        }
        let value = Double(mantissa) / FastLineScanner.powerOfTen(fractionDigits)
        return (negative ? -value : value, next)
    }

    /// A number without sign or exponent of at most 7 integer and 7 fraction digits
    /// (`602.6`, `0`, `11` after its sign, `17328.373`), read a word for the integer part and
    /// one for the fraction: its digits as an integer, the count of fraction digits and the
    /// index after it; nil for anything else, which the caller reads byte by byte.
    @inline(__always)
    private func shortDecimal(_ i: Int) -> (UInt64, Int, Int)? {
        guard i &+ 8 <= readable else { return nil }
        // Each byte xor '0': digits become 0...9.
        let t = load64(i) ^ 0x3030_3030_3030_3030
        let integerDigits = FastLineScanner.leadingDigits(t)
        // No digit, 8 or more, or a leading zero (an error, left to the byte-by-byte reading).
        guard integerDigits > 0, integerDigits < 8, integerDigits == 1 || t & 0xFF != 0 else { return nil }
        // The digits moved to the top bytes, zeros below: an 8-digit number with leading zeros.
        let integer = FastLineScanner.eightDigits(t &<< UInt64(64 &- 8 &* integerDigits))
        var next = i &+ integerDigits
        // The number must end inside the line, and not with an exponent.
        guard next < end else { return nil }
        if base[next] != UInt8(ascii: ".") {
            guard base[next] | 0x20 != UInt8(ascii: "e") else { return nil }
            return (integer, 0, next)
        }
        let fractionStart = next &+ 1
        guard fractionStart &+ 8 <= readable else { return nil }
        let f = load64(fractionStart) ^ 0x3030_3030_3030_3030
        let fractionDigits = FastLineScanner.leadingDigits(f)
        guard fractionDigits > 0, fractionDigits < 8 else { return nil }
        next = fractionStart &+ fractionDigits
        guard next < end, base[next] | 0x20 != UInt8(ascii: "e") else { return nil }
        let fraction = FastLineScanner.eightDigits(f &<< UInt64(64 &- 8 &* fractionDigits))
        return (integer &* FastLineScanner.integerPowerOfTen(fractionDigits) &+ fraction, fractionDigits, next)
    }

    /// The 8 bytes at `i` (which must be readable) as a little-endian word.
    @inline(__always)
    private func load64(_ i: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
    }

    /// 10^k for 1 ≤ k ≤ 7.
    @inline(__always)
    private static func integerPowerOfTen(_ k: Int) -> UInt64 {
        switch k {
        case 1: 10
        case 2: 100
        case 3: 1000
        case 4: 10000
        case 5: 100_000
        case 6: 1_000_000
        default: 10_000_000
        }
    }

    /// How many of the 8 bytes of `t` (ASCII xor '0', in memory order) are digits before the
    /// first that is not.
    @inline(__always)
    static func leadingDigits(_ t: UInt64) -> Int {
        // A digit byte is 0...9; adding 0x76 sets the high bit of any byte from 10 up; bytes
        // from 0x80 up have it already (their carries only reach bytes above them).
        let other = (t &+ 0x7676_7676_7676_7676 | t) & 0x8080_8080_8080_8080
        return other == 0 ? 8 : other.trailingZeroBitCount &>> 3
    }

    /// The value of 8 digits 0...9, one per byte, the first (most significant) in the lowest
    /// byte.
    @inline(__always)
    static func eightDigits(_ t: UInt64) -> UInt64 {
        let pairs = t &* 10 &+ t &>> 8
        let mask: UInt64 = 0x0000_00FF_0000_00FF
        return (pairs & mask &* 0x000F_4240_0000_0064 &+ (pairs &>> 16 & mask) &* 0x0000_2710_0000_0001) &>> 32
    }

    /// 10^k for 0 ≤ k ≤ 7, the fraction lengths `shortDecimal` reads.
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
        default: 1e7
        }
    }

    /// The grammar of `LineParser.parseNumber`, accepting only numbers its exact fast path
    /// converts (so the double is the same); nil for anything else.
    @inline(never)
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
