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

    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    @inline(__always)
    private var current: UInt8 { position < bytes.count ? bytes[position] : 0 }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0D, 0x0A: position += 1
            default: return
            }
        }
    }

    /// Reads an event line, filling `fields` (emptied first, capacity kept); nil to decline.
    mutating func scanEventLine(into fields: inout [RawField]) -> Header? {
        fields.removeAll(keepingCapacity: true)
        skipWhitespace()
        guard current == UInt8(ascii: "{") else { return nil }
        position += 1
        skipWhitespace()
        var name: Range<Int>?
        var header = Header(name: 0..<0, nameOffset: 0)
        while true {
            let keyOffset = position
            guard current == UInt8(ascii: "\""), let key = scanString() else { return nil }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { return nil }
            position += 1
            skipWhitespace()
            let valueOffset = position
            switch reservedKey(key) {
            case .event:
                guard name == nil, current == UInt8(ascii: "\""), let value = scanString() else { return nil }
                name = value
                header.nameOffset = valueOffset
            case .time:
                guard header.time == nil, let value = scanNumber() else { return nil }
                header.time = value
                header.timeOffset = valueOffset
            case .case:
                guard header.caseKey == nil else { return nil }
                guard let value = current == UInt8(ascii: "\"") ? scanString() : scanCaseInteger() else { return nil }
                header.caseKey = value
                header.caseOffset = valueOffset
            case .expect:
                return nil
            case nil:
                for field in fields where equalBytes(field.key, key) { return nil }
                guard let value = scanValue() else { return nil }
                fields.append(RawField(key: key, keyOffset: keyOffset, valueOffset: valueOffset, value: value))
            }
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                position += 1
                skipWhitespace()
            } else if current == UInt8(ascii: "}") {
                position += 1
                break
            } else {
                return nil
            }
        }
        skipWhitespace()
        guard position == bytes.count, let name else { return nil }
        header.name = name
        return header
    }

    private func reservedKey(_ key: Range<Int>) -> ReservedKey? {
        switch key.count {
        case 4:
            if matches(key, "time") { return .time }
            if matches(key, "case") { return .case }
        case 5:
            if matches(key, "event") { return .event }
        case 6:
            if matches(key, "expect") { return .expect }
        default:
            break
        }
        return nil
    }

    @inline(__always)
    private func matches(_ key: Range<Int>, _ literal: StaticString) -> Bool {
        let pattern = literal.utf8Start
        for k in 0..<literal.utf8CodeUnitCount where bytes[key.lowerBound + k] != pattern[k] { return false }
        return true
    }

    private func equalBytes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        for k in 0..<a.count where bytes[a.lowerBound + k] != bytes[b.lowerBound + k] { return false }
        return true
    }

    /// A payload value: a string without escapes, a number, `true` or `false`.
    private mutating func scanValue() -> RawValue? {
        switch current {
        case UInt8(ascii: "\""): return scanString().map(RawValue.string)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return scanNumber().map(RawValue.number)
        case UInt8(ascii: "t"): return scanLiteral("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return scanLiteral("false") ? .bool(false) : nil
        default: return nil
        }
    }

    /// A string with no escapes and no control characters, in valid UTF-8; its contents.
    private mutating func scanString() -> Range<Int>? {
        let start = position + 1
        var i = start
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                position = i + 1
                return start..<i
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { return nil }
            if b < 0x80 {
                i += 1
            } else {
                // A byte of 0x80 or more that starts no well-formed sequence gives length 1.
                let length = UTF8Scanner.sequenceLength(bytes, at: i, limit: bytes.count)
                if length == 1 { return nil }
                i += length
            }
        }
        return nil
    }

    private mutating func scanLiteral(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        let pattern = word.utf8Start
        for k in 0..<count where bytes[position + k] != pattern[k] { return false }
        if position + count < bytes.count, LineParser.isWordByte(bytes[position + count]) { return false }
        position += count
        return true
    }

    /// The grammar of `LineParser.parseNumber`, accepting only numbers its exact fast path
    /// converts (so the double is the same); nil for anything else.
    private mutating func scanNumber() -> Double? {
        var i = position
        let negative = current == UInt8(ascii: "-")
        if negative { i += 1 }
        var digits = DecimalDigits()
        guard i < bytes.count, LineParser.isDigit(bytes[i]) else { return nil }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < bytes.count, LineParser.isDigit(bytes[i]) { return nil }
        } else {
            while i < bytes.count, LineParser.isDigit(bytes[i]) {
                digits.addIntegerDigit(bytes[i] &- UInt8(ascii: "0"))
                i += 1
            }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < bytes.count, LineParser.isDigit(bytes[i]) else { return nil }
            while i < bytes.count, LineParser.isDigit(bytes[i]) {
                digits.addFractionDigit(bytes[i] &- UInt8(ascii: "0"))
                i += 1
            }
        }
        if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var exponentNegative = false
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < bytes.count, LineParser.isDigit(bytes[i]) else { return nil }
            var exponent = 0
            while i < bytes.count, LineParser.isDigit(bytes[i]) {
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(bytes[i] &- UInt8(ascii: "0")) }
                i += 1
            }
            digits.exponent += exponentNegative ? -exponent : exponent
        }
        guard let value = digits.exactValue else { return nil }
        position = i
        return negative ? -value : value
    }

    /// A `case` integer whose digits are already its canonical text (`String(Int64(value))`):
    /// `0`, or an optional `-` and up to 15 digits without a leading zero, with no fraction or
    /// exponent. Anything else goes to the full parser.
    private mutating func scanCaseInteger() -> Range<Int>? {
        let start = position
        var i = position
        if current == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, LineParser.isDigit(bytes[i]) else { return nil }
        if bytes[i] == UInt8(ascii: "0") {
            guard i == start else { return nil }
            i += 1
        } else {
            let first = i
            while i < bytes.count, LineParser.isDigit(bytes[i]) { i += 1 }
            guard i - first <= 15 else { return nil }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") || bytes[i] | 0x20 == UInt8(ascii: "e")
            || LineParser.isDigit(bytes[i]) {
            return nil
        }
        position = i
        return start..<i
    }
}
