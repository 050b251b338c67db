/// A tiny writer for JSON text with keys in the order they are written, so output is
/// byte-for-byte deterministic.
public struct JSONWriter: Sendable {
    /// The text so far.
    public private(set) var text = ""

    /// Creates an empty writer.
    public init() {}

    /// Quotes and escapes a string as a JSON string literal.
    public static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Formats a number the way JSON expects: integers without a fraction, no NaN or infinity.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded() && abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    /// Appends raw JSON text.
    public mutating func raw(_ s: String) { text += s }
}
