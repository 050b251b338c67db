/// Writing text into Graphviz DOT double-quoted strings.
///
/// Inside quotes DOT itself only treats `\"` specially, but labels are then read again by
/// Graphviz: `\\`, `\n`, `\l` and `\N`-style names, and `&name;` character entities. So every
/// backslash is doubled, quotes are escaped, line breaks are `\n` (or `\l`), control
/// characters are spelled out, and an `&` that would start an entity is written `&amp;`.
/// Everything else, emoji included, passes through as UTF-8.
enum DOTString {
    /// How the lines of a label are justified.
    enum Justification {
        case center, left
    }

    /// `lines` as one quoted label: centred lines joined by `\n`, or each left-justified
    /// line ended by `\l`.
    static func label(_ lines: [String], _ justification: Justification = .center) -> String {
        switch justification {
        case .center: return "\"" + lines.map(escaped).joined(separator: "\\n") + "\""
        case .left: return "\"" + lines.map { escaped($0) + "\\l" }.joined() + "\""
        }
    }

    /// `text` as a quoted DOT string (a graph name or a one-line label).
    static func quoted(_ text: String) -> String { label([text]) }

    /// `text` escaped for the inside of a quoted label.
    static func escaped(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = ""
        out.unicodeScalars.reserveCapacity(scalars.count)
        for (i, scalar) in scalars.enumerated() {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": break
            case "\t": out += " "
            case "&" where startsEntity(scalars, at: i): out += "&amp;"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Whether the `&` at `index` begins something Graphviz would read as a character
    /// entity (`&amp;`, `&#38;`, `&#x26;`): a short run of letters, digits or `#`, then `;`.
    private static func startsEntity(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        var i = index + 1
        while i < scalars.count && i - index <= 12 {
            let s = scalars[i]
            if s == ";" { return i > index + 1 }
            guard ("a"..."z").contains(s) || ("A"..."Z").contains(s)
                    || ("0"..."9").contains(s) || s == "#" else { return false }
            i += 1
        }
        return false
    }
}
