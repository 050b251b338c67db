import StatecraftDiagnostics
import StatecraftModel
import StatecraftSemantics
import StatecraftSyntax

// Spec text in, a running machine out: the one entry point of the `StatecraftRuntime`
// product, for apps that embed a spec and link nothing else (no analyses, reports,
// exporters or SCXML).

/// A spec that cannot run because it does not parse or resolve, with its diagnostics.
public struct SpecError: Error, CustomStringConvertible {
    /// The spec as read (without a byte order mark).
    public var file: SourceFile
    /// Its diagnostics in source order, at least one of them an error.
    public var diagnostics: [Diagnostic]

    /// The diagnostics as `statecraft check` prints them (without colour): for a log, or
    /// for a test's failure message.
    public var description: String {
        let renderer = DiagnosticRenderer()
        return diagnostics.map { renderer.render($0, in: file) }.joined()
    }
}

extension Program {
    /// Parses, resolves and compiles spec text, as `statecraft replay` does. Only a spec that
    /// does not parse or resolve is refused: what the analyses warn about (an unreachable
    /// state, say) is for `statecraft check`, and does not stop a machine from running.
    public convenience init(specText: String, path: String = "<spec>") throws(SpecError) {
        let file = SourceFile(path: path, text: specText).withoutByteOrderMark
        let (syntax, syntaxDiagnostics) = Parser.parse(file)
        guard !syntaxDiagnostics.hasErrors else { throw SpecError(file: file, diagnostics: syntaxDiagnostics.sorted) }
        let resolution = Resolver.resolve(syntax, in: file)
        guard let machine = resolution.machine, !resolution.diagnostics.hasErrors else {
            var all = syntaxDiagnostics
            all.merge(resolution.diagnostics)
            throw SpecError(file: file, diagnostics: all.sorted)
        }
        self.init(machine)
    }
}

extension Instance {
    /// Spec text to a machine ready to run, in one call: parsed, resolved and compiled
    /// (`Program(specText:path:)`), not started yet, so that `start(emit:)` hands the
    /// outputs of the initial state's entry to the app.
    ///
    /// ```swift
    /// var drawer = try Instance(specText: text, path: "Drawer.machine")
    /// _ = drawer.start()
    /// _ = drawer.send("touchBegan", ["y": .number(300), "onContent": .bool(true)])
    /// ```
    public init(specText: String, path: String = "<spec>") throws(SpecError) {
        self.init(try Program(specText: specText, path: path))
    }
}
