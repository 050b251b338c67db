/// Making names and labels safe in Mermaid's `stateDiagram-v2`.
///
/// Mermaid reads a transition label or state description up to the end of the line, but
/// stops at `:` and `;` (a statement separator); `#` starts a comment where an id is
/// expected and an entity code (`#35;`) in text; `%%` starts a comment; labels are drawn as
/// HTML. Mermaid's documented escape is the entity code `#NN;` (decimal), which it decodes
/// when drawing, so every character that could be read as syntax is written that way.
enum MermaidText {
    /// Words Mermaid's state diagram lexer reads as keywords where an id may stand (compared
    /// case-insensitively, as the lexer does), plus `end`, which breaks other Mermaid
    /// diagrams and is best kept out of ids; such a state gets a generated id and an alias.
    private static let reserved: Set<String> = [
        "state", "note", "class", "classdef", "style", "linkstyle", "click", "scale", "hide",
        "statediagram", "acctitle", "accdescr", "end",
    ]

    /// Whether `name` can be written as a state id as it is: an ASCII identifier that is no
    /// keyword. (`default…` is lexed as the keyword `default` followed by the rest, and a
    /// line containing `direction` and a direction is read as a direction statement.)
    static func isPlainID(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, isLetter(first) || first == "_" else { return false }
        guard name.unicodeScalars.allSatisfy({ isLetter($0) || ("0"..."9").contains($0) || $0 == "_" }) else {
            return false
        }
        let lower = name.lowercased()
        return !reserved.contains(lower) && !lower.hasPrefix("default") && !lower.contains("direction")
    }

    /// `text` on one line with every character Mermaid could read as syntax written as an
    /// entity code; for labels, descriptions and the quoted names of `state "…" as id`.
    /// Runs of white space become one space. The last letter of `direction` before a space
    /// or the end is encoded too: Mermaid reads any line holding `direction`, white space and
    /// a direction such as `LR` as a direction statement, wherever on the line it stands.
    static func escaped(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = ""
        var pendingSpace = false
        for (i, scalar) in scalars.enumerated() {
            if scalar.properties.isWhitespace || scalar.value < 0x20 || scalar.value == 0x7F {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace {
                out += " "
                pendingSpace = false
            }
            switch scalar {
            case "#", ";", ":", "\"", "<", ">", "&", "{", "}", "%":
                out += "#\(scalar.value);"
            case _ where (scalar == "n" || scalar == "N") && out.lowercased().hasSuffix("directio")
                && (i + 1 == scalars.count || scalars[i + 1].properties.isWhitespace):
                out += "#\(scalar.value);"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isLetter(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) || ("A"..."Z").contains(s) }
}
