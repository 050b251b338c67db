/// Pieces for writing JSON by hand, so keys come in a fixed order and output is
/// byte-for-byte deterministic.
public enum JSONWriter {
    /// Quotes and escapes a string as a JSON string literal.
    public static func quote(_ s: String) -> String {
        StringEscaping.quoted(s, style: .json)
    }

    /// Formats a number the way JSON expects: integers without a fraction, no NaN or infinity.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded() && abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }
}
