/// Pieces for writing JSON by hand, so keys come in a fixed order and output is
/// byte-for-byte deterministic.
///
/// Each piece comes twice: as a String, and appended to a `ByteBuffer` (for output written
/// in bulk, such as replay traces). The String forms are built from the byte forms.
public enum JSONWriter {
    /// Quotes and escapes a string as a JSON string literal.
    public static func quote(_ s: String) -> String {
        StringEscaping.quoted(s, style: .json)
    }

    /// Formats a number the way JSON expects: integers without a fraction, no NaN or infinity.
    public static func number(_ value: Double) -> String {
        var out = ByteBuffer(capacity: 32)
        appendNumber(value, to: &out)
        return out.text
    }

    /// `quote(s)`, appended to `out`.
    public static func appendQuoted(_ s: String, to out: inout ByteBuffer) {
        StringEscaping.appendQuoted(s, style: .json, to: &out)
    }

    /// `number(value)`, appended to `out`: integers (below 10^15) without a fraction, other
    /// finite numbers as Swift's shortest round-trip `description`, NaN and infinity as `null`.
    public static func appendNumber(_ value: Double, to out: inout ByteBuffer) {
        guard value.isFinite else {
            out.append("null")
            return
        }
        if abs(value) < 1e15, Double(Int64(value)) == value {
            appendInteger(Int64(value), to: &out)
        } else if !appendShortDecimal(value, to: &out) {
            out.append(contentsOf: value.description)
        }
    }

    /// Appends an integer in decimal.
    public static func appendInteger(_ value: Int64, to out: inout ByteBuffer) {
        out.append(upTo: 20) { p in
            var magnitude = value.magnitude
            var digits = 0
            var probe = magnitude
            repeat {
                digits += 1
                probe /= 10
            } while probe != 0
            let sign = value < 0 ? 1 : 0
            if sign == 1 { p[0] = UInt8(ascii: "-") }
            var i = sign + digits
            repeat {
                i -= 1
                p[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude != 0
            return sign + digits
        }
    }

    /// Writes a number with a short decimal fraction (`602.6`, `-0.125`, `1.342`) exactly as
    /// `value.description` does, without building a String; false (nothing written) for
    /// numbers it does not handle.
    ///
    /// It tries 1, 2, 3... fraction digits and stops at the first decimal that converts back
    /// to `value` exactly. While `|value| × 10^digits < 2^43` the decimals of that length are
    /// spaced far wider than the doubles near `value`, so at most one of them converts back to
    /// `value`, the rounded product finds it when there is one, and none shorter does: it is
    /// the shortest round-trip form `description` prints. Magnitudes from 0.001 to 10^9 are
    /// written in plain notation by `description`, never with an exponent.
    static func appendShortDecimal(_ value: Double, to out: inout ByteBuffer) -> Bool {
        let magnitude = abs(value)
        guard magnitude >= 1e-3 && magnitude < 1e9 else { return false }
        var scale = 1.0
        var scaled: Int64 = 0
        var digits = 0
        repeat {
            digits += 1
            scale *= 10  // exact: powers of ten up to 10^22 are doubles
            let product = magnitude * scale
            guard product < 0x1p43 else { return false }
            scaled = Int64(product + 0.5)  // a candidate; the loop's test checks it exactly
        } while Double(scaled) / scale != magnitude
        let power = Int64(scale)
        if value < 0 { out.append(UInt8(ascii: "-")) }
        appendInteger(scaled / power, to: &out)
        out.append(upTo: digits + 1) { p in
            p[0] = UInt8(ascii: ".")
            // The fraction, with its leading zeros.
            var fraction = scaled % power
            for i in stride(from: digits, to: 0, by: -1) {
                p[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)
                fraction /= 10
            }
            return digits + 1
        }
        return true
    }
}
