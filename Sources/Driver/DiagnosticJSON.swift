import Statecraft

/// The `--format json` rendering of check results; keys in a fixed order.
enum DiagnosticJSON {
    static func render(_ results: [CheckResult], errors: Int, warnings: Int) -> String {
        let q = JSONWriter.quote
        var out = "{\n  \"files\": [" + results.map { q($0.file.path) }.joined(separator: ", ") + "],\n"
        out += "  \"diagnostics\": ["
        var first = true
        for result in results {
            let file = result.file
            for d in result.diagnostics {
                let start = file.location(of: d.range.start)
                let end = file.location(of: d.range.end)
                out += first ? "\n" : ",\n"
                first = false
                out += "    {\"file\": \(q(file.path)), \"id\": \(q(d.id.rawValue)), \"severity\": \(q(d.severity.rawValue)), "
                out += "\"message\": \(q(d.message)), "
                out += "\"line\": \(start.line), \"column\": \(start.column), \"endLine\": \(end.line), \"endColumn\": \(end.column), "
                out += "\"notes\": [" + d.notes.map { note in
                    var n = "{\"file\": \(q(file.path)), "
                    if let range = note.range {
                        let at = file.location(of: range.start)
                        n += "\"line\": \(at.line), \"column\": \(at.column), "
                    }
                    return n + "\"message\": \(q(note.message))}"
                }.joined(separator: ", ") + "]}"
            }
        }
        out += first ? "],\n" : "\n  ],\n"
        out += "  \"errors\": \(errors),\n  \"warnings\": \(warnings)\n}\n"
        return out
    }
}
