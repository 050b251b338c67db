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
}
