/// Quoting strings for output, in the two notations Statecraft prints: JSON and its own
/// spec language. They differ only in how other control characters are written.
package enum StringEscaping {
    /// The notation of a quoted string.
    package enum Style: Sendable {
        /// `"\u001b"`, as JSON requires.
        case json
        /// `"\u{1B}"`, as `.machine` files write it.
        case spec
    }

    /// `s` in double quotes, with quotes, backslashes and control characters escaped.
    package static func quoted(_ s: String, style: Style) -> String {
        var out = ByteBuffer(capacity: s.utf8.count + 2)
        appendQuoted(s, style: style, to: &out)
        return out.text
    }

    /// `quoted(s, style:)` appended to `out` as UTF-8, without building a String.
    package static func appendQuoted(_ s: String, style: Style, to out: inout ByteBuffer) {
        var s = s
        s.withUTF8 { bytes in
            out.append(UInt8(ascii: "\""))
            // Names and most values need no escape: copied whole.
            if !containsEscape(bytes) {
                out.append(bytes)
                out.append(UInt8(ascii: "\""))
                return
            }
            // In pieces, so the room reserved for escapes (at most 6 bytes per byte:
            // `\u001b`, `\u{1B}`) stays small however long the string.
            var from = 0
            repeat {
                let to = min(from + 4096, bytes.count)
                out.append(upTo: (to - from) * 6) { start in
                    var p = start
                    for i in from..<to {
                        let byte = bytes[i]
                        if needsEscape(byte) {
                            p = writeEscape(byte, style: style, at: p)
                        } else {
                            p.pointee = byte  // bytes of multi-byte characters are all >= 0x80
                            p += 1
                        }
                    }
                    return p - start
                }
                from = to
            } while from < bytes.count
            out.append(UInt8(ascii: "\""))
        }
    }

    /// Whether any byte needs an escape: 8 bytes at a time, then byte by byte.
    @inline(__always)
    private static func containsEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let ones: UInt64 = 0x0101_0101_0101_0101
        var i = 0
        while i &+ 8 <= bytes.count {
            let w = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            // A byte below 0x20, a quote, a backslash or DEL sets its high bit here (bytes of
            // 0x80 and up are masked out: they never need an escape).
            let quote = w ^ (0x22 &* ones), backslash = w ^ (0x5C &* ones), delete = w ^ (0x7F &* ones)
            let flagged = (w &- 0x20 &* ones) | (quote &- ones) | (backslash &- ones) | (delete &- ones)
            if flagged & ~w & (0x80 &* ones) != 0 {
                for k in i..<i &+ 8 where needsEscape(base[k]) { return true }
            }
            i &+= 8
        }
        while i < bytes.count {
            if needsEscape(base[i]) { return true }
            i &+= 1
        }
        return false
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
    }

    /// Writes the escape of `byte` at `p`; returns the position after it.
    private static func writeEscape(_ byte: UInt8, style: Style, at p: UnsafeMutablePointer<UInt8>)
        -> UnsafeMutablePointer<UInt8> {
        p[0] = UInt8(ascii: "\\")
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"):
            p[1] = byte
            return p + 2
        case UInt8(ascii: "\n"):
            p[1] = UInt8(ascii: "n")
            return p + 2
        case UInt8(ascii: "\r"):
            p[1] = UInt8(ascii: "r")
            return p + 2
        case UInt8(ascii: "\t"):
            p[1] = UInt8(ascii: "t")
            return p + 2
        default:
            // Other control characters by code: `\u001b` in JSON, `\u{1B}` in specs.
            let digits: StaticString = style == .json ? "0123456789abcdef" : "0123456789ABCDEF"
            let (high, low) = digits.withUTF8Buffer { ($0[Int(byte >> 4)], $0[Int(byte & 0xF)]) }
            p[1] = UInt8(ascii: "u")
            switch style {
            case .json:
                p[2] = UInt8(ascii: "0")
                p[3] = UInt8(ascii: "0")
                p[4] = high
                p[5] = low
                return p + 6
            case .spec:
                p[2] = UInt8(ascii: "{")
                var q = p + 3
                if byte >= 0x10 {
                    q.pointee = high
                    q += 1
                }
                q[0] = low
                q[1] = UInt8(ascii: "}")
                return q + 2
            }
        }
    }
}
