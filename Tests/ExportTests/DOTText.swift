/// Reading back the DOT the writer produced, as far as the tests need: labels and syntax.
enum DOTText {
    /// The line that starts with `prefix` (after indentation), e.g. `s1 -> s3 [` or `s2 [`.
    static func line(_ dot: String, startingWith prefix: String) -> String? {
        dot.split(separator: "\n").map { $0.drop { $0 == " " } }.first { $0.hasPrefix(prefix) }.map(String.init)
    }

    /// Every line of every `label="…"`, as Graphviz will show it: DOT escapes undone, split
    /// at `\n` and `\l`, then character entities decoded once (Graphviz does that too).
    static func labelLines(_ dot: String) -> [String] {
        var lines: [String] = []
        var rest = dot[...]
        while let start = rest.range(of: "label=\"") {
            var current = ""
            var i = start.upperBound
            while i < rest.endIndex, rest[i] != "\"" {
                if rest[i] == "\\", rest.index(after: i) < rest.endIndex {
                    i = rest.index(after: i)
                    switch rest[i] {
                    case "n", "l":
                        lines.append(Graphviz.decodeEntities(current))
                        current = ""
                    default:
                        current.append(rest[i])
                    }
                } else {
                    current.append(rest[i])
                }
                i = rest.index(after: i)
            }
            if !current.isEmpty { lines.append(Graphviz.decodeEntities(current)) }
            rest = rest[min(rest.index(after: i), rest.endIndex)...]
        }
        return lines
    }

    /// Problems with the DOT's shape: a quoted string left open at the end of a line, or
    /// braces that do not balance outside strings. Empty when the text is well formed.
    static func syntaxProblems(_ dot: String) -> [String] {
        var problems: [String] = []
        var depth = 0
        for (number, line) in dot.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var inString = false
            var escaped = false
            for ch in line {
                if inString {
                    if escaped { escaped = false } else if ch == "\\" { escaped = true } else if ch == "\"" { inString = false }
                } else if ch == "\"" {
                    inString = true
                } else if ch == "{" {
                    depth += 1
                } else if ch == "}" {
                    depth -= 1
                    if depth < 0 { problems.append("line \(number + 1): '}' closes nothing") }
                }
            }
            if inString { problems.append("line \(number + 1): string not closed") }
        }
        if depth != 0 { problems.append("braces do not balance (depth \(depth) at the end)") }
        return problems
    }
}
