// Text and attribute values written into an XML document (an SCXML export, a JUnit
// report) are escaped here, once, so that a state or event name, a string literal, an
// expression or a log's text can never end an attribute or open an element.

/// Escaping for XML 1.0 text and attribute values.
package enum XMLEscaping {
    /// `s` as the value of a double-quoted attribute: `&`, `<`, `>`, `"` become entity
    /// references, and tab, line feed and carriage return character references (an XML
    /// parser normalises them to spaces inside attributes otherwise). Other control
    /// characters cannot appear in XML 1.0 at all and become U+FFFD.
    package static func attribute(_ s: String) -> String {
        escape(s, quotes: true)
    }

    /// `s` as element text: `&`, `<`, `>` escaped; control characters as for attributes.
    package static func text(_ s: String) -> String {
        escape(s, quotes: false)
    }

    private static func escape(_ s: String, quotes: Bool) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            case "\t" where quotes: out += "&#9;"
            case "\n" where quotes: out += "&#10;"
            case "\r": out += "&#13;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                // XML 1.0 allows #x9, #xA, #xD and #x20 and above, less the surrogates
                // (never scalars) and #xFFFE, #xFFFF.
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
