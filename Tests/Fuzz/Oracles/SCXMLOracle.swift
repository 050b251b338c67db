import Statecraft

/// Bytes as an SCXML document, through `statecraft import`: either one error positioned
/// inside the document, or a spec that parses and resolves (the importer must never write
/// a spec our own checker refuses). The analyses' findings about the document itself (a
/// state no transition reaches) are its own, and not counted.
public enum SCXMLOracle: FuzzOracle {
    public static let name = "scxml"

    public static func violations(_ input: [UInt8]) -> [String] {
        let file = SourceFile(path: "fuzz.scxml", bytes: input)
        let result = SCXMLImporter.translate(file, machineName: "Fuzz", sourceName: "fuzz.scxml")
        var found: [String] = []
        for d in result.diagnostics where d.range.start < 0 || d.range.start > d.range.end || d.range.end > input.count {
            found.append("\(d.id.rawValue) at \(d.range.start)..<\(d.range.end) outside a document of \(input.count) bytes")
        }
        guard let text = result.text else {
            if result.diagnostics.isEmpty { found.append("refused without a diagnostic") }
            return found
        }
        let checked = Statecraft.check(source: text, path: "Fuzz.machine", bounds: nil)
        if checked.machine == nil {
            for d in checked.diagnostics where d.severity == .error {
                found.append("the imported spec does not resolve: \(DiagnosticRenderer().render(d, in: checked.file))")
            }
        }
        return found
    }
}
