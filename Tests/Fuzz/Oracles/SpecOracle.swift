import Statecraft

/// Bytes as a spec, through the whole of `check` (the analysis with small bounds, so that
/// every input that resolves is explored too) and the exporters of a machine that resolves.
/// Every diagnostic and note must point inside the file, and a machine with errors must not
/// come back.
public enum SpecOracle: FuzzOracle {
    public static let name = "spec"

    public static func violations(_ input: [UInt8]) -> [String] {
        let file = SourceFile(path: "fuzz.machine", bytes: input)
        let result = Statecraft.check(file, bounds: ExplorationBounds(maxDepth: 4, maxConfigurations: 40))
        // `check` drops a leading byte order mark; positions are in the text it checked.
        let checked = result.file
        var found: [String] = []
        func inside(_ range: SourceRange, _ what: String) {
            if range.start < 0 || range.start > range.end || range.end > checked.bytes.count {
                found.append("\(what): range \(range.start)..<\(range.end) outside a file of \(checked.bytes.count) bytes")
            }
        }
        for d in result.diagnostics {
            inside(d.range, d.id.rawValue)
            for note in d.notes { if let range = note.range { inside(range, "note of \(d.id.rawValue)") } }
            let at = checked.location(of: d.range.start)
            let prefix = "fuzz.machine:\(at.line):\(at.column): "
            if !DiagnosticRenderer().render(d, in: checked).hasPrefix(prefix) {
                found.append("\(d.id.rawValue): rendered without '\(prefix)'")
            }
        }
        if result.machine == nil, result.exploration != nil {
            found.append("an exploration report for a machine that did not resolve")
        }
        // The error limit is 50, and one more says that the rest were dropped.
        if result.errorCount > 51 { found.append("\(result.errorCount) errors; the limit is 50") }
        if let machine = result.machine {
            _ = DOTWriter.write(machine)
            _ = MermaidWriter.write(machine)
            _ = SCXMLWriter.document(for: machine, source: "fuzz.machine")
        }
        return found
    }
}
