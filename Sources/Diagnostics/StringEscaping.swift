/// Quoting strings for output, in the two notations Statecraft prints: JSON and its own
/// spec language. They differ only in how other control characters are written.
public enum StringEscaping {
    /// The notation of a quoted string.
    public enum Style: Sendable {
        /// `"\u001b"`, as JSON requires.
        case json
        /// `"\u{1B}"`, as `.machine` files write it.
        case spec
    }

    /// `s` in double quotes, with quotes, backslashes and control characters escaped.
    public static func quoted(_ s: String, style: Style) -> String {
        var out = ByteBuffer(capacity: s.utf8.count + 2)
        appendQuoted(s, style: style, to: &out)
        return out.text
    }

    /// `quoted(s, style:)` appended to `out` as UTF-8, without building a String.
    public static func appendQuoted(_ s: String, style: Style, to out: inout ByteBuffer) {
        var s = s
        s.withUTF8 { bytes in
            // The common case: nothing to escape, so the bytes go out as they are.
            guard bytes.contains(where: needsEscape) else {
                out.append(upTo: bytes.count + 2) { p in
                    p[0] = UInt8(ascii: "\"")
                    if let source = bytes.baseAddress { (p + 1).update(from: source, count: bytes.count) }
                    p[bytes.count + 1] = UInt8(ascii: "\"")
                    return bytes.count + 2
                }
                return
            }
            out.append(UInt8(ascii: "\""))
            for byte in bytes {
                guard needsEscape(byte) else {
                    out.append(byte)  // bytes of multi-byte characters are all >= 0x80
                    continue
                }
                appendEscape(byte, style: style, to: &out)
            }
            out.append(UInt8(ascii: "\""))
        }
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
    }

    private static func appendEscape(_ byte: UInt8, style: Style, to out: inout ByteBuffer) {
        switch byte {
        case UInt8(ascii: "\""): out.append("\\\"")
        case UInt8(ascii: "\\"): out.append("\\\\")
        case UInt8(ascii: "\n"): out.append("\\n")
        case UInt8(ascii: "\r"): out.append("\\r")
        case UInt8(ascii: "\t"): out.append("\\t")
        default:
            // Other control characters by code: `\u001b` in JSON, `\u{1B}` in specs.
            let digits: StaticString = style == .json ? "0123456789abcdef" : "0123456789ABCDEF"
            let (high, low) = digits.withUTF8Buffer { ($0[Int(byte >> 4)], $0[Int(byte & 0xF)]) }
            switch style {
            case .json:
                out.append("\\u00")
                out.append(high)
            case .spec:
                out.append("\\u{")
                if byte >= 0x10 { out.append(high) }
            }
            out.append(low)
            if style == .spec { out.append(UInt8(ascii: "}")) }
        }
    }
}
