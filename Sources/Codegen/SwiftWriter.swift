import StatecraftDiagnostics

/// Swift source text, line by line, with indentation: what the generator writes into.
struct SwiftWriter {
    private(set) var text = ""
    private var depth = 0

    /// How much has been written: compare two marks to tell whether lines were written in
    /// between (holding on to `text` itself would make the next line copy all of it).
    var mark: Int { text.utf8.count }

    /// One line at the current indentation (an empty line stays empty).
    mutating func line(_ s: String = "") {
        if !s.isEmpty { text += String(repeating: "    ", count: depth) + s }
        text += "\n"
    }

    /// `opening {`, then the lines that follow one level in, until `close()`.
    mutating func open(_ opening: String) {
        line(opening + " {")
        depth += 1
    }

    /// `}` (or `closing`) one level out.
    mutating func close(_ closing: String = "}") {
        depth -= 1
        line(closing)
    }

    /// `} middle {` (`} catch {`, `} else {`): closes a block and opens the next.
    mutating func reopen(_ middle: String) {
        depth -= 1
        line("} " + middle + " {")
        depth += 1
    }

    /// The lines that follow one level in (a `case`'s body), until `dedent()`.
    mutating func indent() { depth += 1 }
    mutating func dedent() { depth -= 1 }

    /// A `///` comment, one line per line of `text`.
    mutating func doc(_ text: String) {
        for part in text.split(separator: "\n", omittingEmptySubsequences: false) { line("/// " + part) }
    }
}

/// Names as Swift spells them: a spec name that is a Swift keyword is written in backticks.
enum SwiftName {
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        "Type", "Protocol", "some", "any", "consume", "copy", "borrowing", "consuming",
    ]

    /// `name`, in backticks if Swift reserves it.
    static func quoted(_ name: String) -> String { keywords.contains(name) ? "`\(name)`" : name }

    /// `name` as an argument label in a call (`.shown(in: x)`): Swift takes any keyword there
    /// but `inout`, `var` and `let`, and warns about backticks around the others.
    static func label(_ name: String) -> String { ["inout", "var", "let"].contains(name) ? "`\(name)`" : name }

    /// A Swift string literal holding `s` exactly: the spec's own escapes (`\"`, `\\`, `\n`,
    /// `\u{1B}`) are Swift's.
    static func literal(_ s: String) -> String { StringEscaping.quoted(s, style: .spec) }

    /// A Swift literal of a finite double that reads back as the same double.
    static func number(_ value: Double) -> String {
        if value == 0 { return value.sign == .minus ? "-0.0" : "0" }
        if value.magnitude < 1e15, value == value.rounded(.towardZero) { return String(Int64(value)) }
        return "\(value)"
    }
}
