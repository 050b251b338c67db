/// Lines of a spec being written, indented four spaces per level as our own specs are.
struct MachineText {
    private(set) var lines: [String] = []
    private(set) var depth = 0

    var text: String { lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n" }

    mutating func line(_ s: String) { lines.append(String(repeating: "    ", count: depth) + s) }

    mutating func blank() { if let last = lines.last, !last.isEmpty { lines.append("") } }

    /// `head {` and one level deeper.
    mutating func open(_ head: String) {
        line(head + " {")
        depth += 1
    }

    mutating func close() {
        depth -= 1
        line("}")
    }

    mutating func indent() { depth += 1 }
    /// Levels around these lines that they are not indented by (a block written apart and
    /// appended at its place later), counted in `nesting`.
    var outer = 0
    /// How deep the next line is nested in the whole spec.
    var nesting: Int { depth + outer }
    mutating func dedent() { depth -= 1 }

    /// Replaces the `}` just written with `head` (an `} else {` continuing an `if`).
    mutating func replaceLastCloseWith(_ head: String) {
        if let last = lines.last, last.trimmingWhitespace == "}" { lines.removeLast() }
        line(head)
    }

    /// Appends `other`'s lines at this depth.
    mutating func append(_ other: MachineText) {
        for l in other.lines { lines.append(l.isEmpty ? l : String(repeating: "    ", count: depth) + l) }
    }
}
