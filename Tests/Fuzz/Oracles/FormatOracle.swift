import Statecraft

/// Bytes as a spec, through `statecraft fmt`: a spec that parses is formatted, and the result
/// parses without errors, has the same tokens and comments in the same order, resolves to
/// the same machine and is its own formatting; a spec that does not parse is refused with
/// the parser's diagnostics.
public enum FormatOracle: FuzzOracle {
    public static let name = "format"

    public static func violations(_ input: [UInt8]) -> [String] {
        let result = SpecFormatter.format(SourceFile(path: "fuzz.machine", bytes: input))
        let source = result.source
        let parsed = Parser.parse(source)
        switch result.outcome {
        case .syntaxErrors(let diagnostics):
            if !parsed.diagnostics.hasErrors { return ["refused a spec that parses"] }
            if diagnostics != parsed.diagnostics.sorted { return ["refused with other diagnostics than the parser's"] }
            return []
        case .failed(let offset, let message):
            return ["the formatter failed at byte \(offset): \(message)"]
        case .formatted(let output):
            if parsed.diagnostics.hasErrors { return ["formatted a spec with syntax errors"] }
            let formatted = SpecFormatter.format(SourceFile(path: "fuzz.machine", bytes: output))
            guard let again = formatted.output else { return ["the formatted text does not format again"] }
            var found: [String] = []
            if again != output { found.append("formatting twice differs from formatting once") }
            let text = formatted.source
            if Parser.parse(text).diagnostics.hasErrors { found.append("the formatted text has syntax errors") }
            if SpecFormatter.significantTokens(of: text) != SpecFormatter.significantTokens(of: source) {
                found.append("a token was lost, added or moved")
            }
            if SpecFormatter.commentTexts(of: text) != SpecFormatter.commentTexts(of: source) {
                found.append("a comment was lost, changed or moved")
            }
            if model(text) != model(source) { found.append("the formatted text resolves to another machine") }
            return found
        }
    }

    /// The checked machine without source positions: its SCXML document and its compiled
    /// program; nil when it does not resolve.
    static func model(_ file: SourceFile) -> String? {
        guard let machine = Statecraft.check(file, bounds: nil).machine else { return nil }
        return SCXMLWriter.document(for: machine, source: nil) + Program(machine).disassembly
    }
}
