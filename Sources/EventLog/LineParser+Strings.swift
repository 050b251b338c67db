import StatecraftDiagnostics

extension LineParser {
    /// string = quotation-mark *char quotation-mark, with `position` at the opening quote.
    ///
    /// A string without escapes is decoded straight from the line (and `rawString` says
    /// where); one with escapes is built in `scratch`. Raw control characters and invalid
    /// UTF-8 are errors.
    mutating func parseString() throws(LineFailure) -> String {
        let start = position + 1
        var i = start
        while i < end {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                position = i + 1
                rawString = start..<i
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") { break }
            i = try stringByte(at: i)
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
        while i < end {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                position = i + 1
                rawString = nil
                return String(decoding: scratch, as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") {
                i = try parseEscape(at: i)
                continue
            }
            let next = try stringByte(at: i)
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<next]))
            i = next
        }
        throw LineFailure(offset: end, message: LogMessage.expected("'\"' to end the string", found: "end of line"))
    }

    /// Checks the unescaped character at `i` inside a string; returns the offset after it.
    @inline(__always)
    private func stringByte(at i: Int) throws(LineFailure) -> Int {
        let b = bytes[i]
        if b < 0x20 {
            throw LineFailure(offset: i, message: LogMessage.controlCharacterInString(b))
        }
        if b < 0x80 { return i + 1 }
        let length = UTF8Scanner.sequenceLength(text, at: i, limit: end)
        if length == 1 { throw LineFailure(offset: i, message: LogMessage.invalidUTF8(b)) }
        return i + length
    }

    /// escape = "\" ( '"' / "\" / "/" / "b" / "f" / "n" / "r" / "t" / "u" 4HEXDIG ), with `i`
    /// at the backslash. Appends the decoded bytes to `scratch`; returns the offset after it.
    private mutating func parseEscape(at i: Int) throws(LineFailure) -> Int {
        guard i + 1 < end else { throw unexpected("an escape character after '\\'", at: i + 1) }
        let decoded: UInt8
        switch bytes[i + 1] {
        case UInt8(ascii: "\""): decoded = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): decoded = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): decoded = UInt8(ascii: "/")
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"): return try parseUnicodeEscape(at: i)
        default:
            throw unexpected("an escape character after '\\'", at: i + 1)
        }
        scratch.append(decoded)
        return i + 2
    }

    /// `\uXXXX`, or a surrogate pair `\uD83D\uDE00`, with `i` at the backslash.
    private mutating func parseUnicodeEscape(at i: Int) throws(LineFailure) -> Int {
        let first = try hexQuad(at: i + 2)
        var value = first
        var next = i + 6
        if first >= 0xDC00 && first <= 0xDFFF {
            throw LineFailure(offset: i, message: LogMessage.unpairedSurrogate(first))
        }
        if first >= 0xD800 && first <= 0xDBFF {
            guard next + 1 < end, bytes[next] == UInt8(ascii: "\\"), bytes[next + 1] == UInt8(ascii: "u") else {
                throw LineFailure(offset: i, message: LogMessage.unpairedSurrogate(first))
            }
            let second = try hexQuad(at: next + 2)
            guard second >= 0xDC00 && second <= 0xDFFF else {
                throw LineFailure(offset: i, message: LogMessage.unpairedSurrogate(first))
            }
            value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            next += 6
        }
        appendUTF8(value)
        return next
    }

    /// The value of four hex digits at `offset`.
    private func hexQuad(at offset: Int) throws(LineFailure) -> UInt32 {
        var value: UInt32 = 0
        for k in offset..<offset + 4 {
            guard k < end else { throw unexpected("4 hex digits after '\\u'", at: k) }
            let b = bytes[k]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw unexpected("4 hex digits after '\\u'", at: k)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Appends a scalar value (not a surrogate) to `scratch` as UTF-8.
    private mutating func appendUTF8(_ v: UInt32) {
        switch v {
        case 0..<0x80:
            scratch.append(UInt8(v))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | v >> 6))
            scratch.append(UInt8(0x80 | v & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | v >> 12))
            scratch.append(UInt8(0x80 | (v >> 6) & 0x3F))
            scratch.append(UInt8(0x80 | v & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | v >> 18))
            scratch.append(UInt8(0x80 | (v >> 12) & 0x3F))
            scratch.append(UInt8(0x80 | (v >> 6) & 0x3F))
            scratch.append(UInt8(0x80 | v & 0x3F))
        }
    }
}
