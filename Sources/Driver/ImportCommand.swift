import Foundation
import Statecraft

/// `statecraft import FILE.scxml [-o FILE.machine]`: an SCXML document as a spec.
enum ImportCommand {
    static let spec = CommandSpec(
        name: "import", positionals: "FILE.scxml", positionalsFirst: true,
        about: """
            Translates an SCXML document (ECMAScript or null data model) into a spec: states,
            parallel states, finals and history; transitions with events, conditions and targets;
            data, assignments, <if>, <raise>, <send> to the machine itself (with a delay),
            <cancel>, <log> as an output. An element or expression the language has no
            equivalent for is an error naming it, with its line and column. A spelling SCXML
            does not define but engines accept (In(s) without quotes, cond="") is read as they
            read it, with a warning; a part that does nothing gets a note. The spec written
            always resolves ('statecraft check' may still report what its analysis finds, such
            as a state nothing enters).
            """,
        options: [OptionSpec("-o", .value("FILE"), "Write the spec to FILE instead of standard output")],
        footer: "EXIT STATUS: 0 written, 1 the document cannot be translated, 2 it cannot be read.")

    static var help: String { spec.help }

    static func run(_ arguments: [String], console: Console) -> Int32 {
        let parsed: ParsedArguments
        switch spec.start(arguments, console: console) {
        case .run(let p, _): parsed = p
        case .exit(let status): return status
        }
        let path: String
        switch parsed.onlyPositional("FILE.scxml") {
        case .success(let p): path = p
        case .failure(let error): return spec.usageError(error.message, console)
        }
        guard let file = ReplayCommand.readSpec(path, console: console) else { return ExitStatus.usage }
        let fileName = URL(fileURLWithPath: file.path).lastPathComponent
        let stem = fileName.hasSuffix(".scxml") ? String(fileName.dropLast(6)) : fileName
        let machineName = stem.isEmpty || path == InputFile.standardInput ? "Imported" : stem
        let result = SCXMLImporter.translate(file, machineName: machineName, sourceName: fileName)
        let renderer = DiagnosticRenderer(colour: false)
        guard let text = result.text else {
            console.err(result.diagnostics.map { renderer.render($0, in: result.file) }.joined())
            return ExitStatus.failure
        }
        // What we write must be a machine: a translation that does not check is our bug,
        // and saying so beats writing a file that fails later.
        let outputPath = parsed.values["-o"] ?? "<import of \(fileName)>"
        let checked = Statecraft.check(source: text, path: outputPath, bounds: nil)
        // Findings of the analyses (a state nothing enters) do not make it less of a
        // machine: conformance suites have such states on purpose.
        if checked.machine == nil {
            console.err(checked.diagnostics.filter { $0.severity == .error }.map { renderer.render($0, in: checked.file) }.joined())
            console.err("error: the spec translated from '\(path)' does not check (a bug in statecraft import; please report it)\n")
            return ExitStatus.failure
        }
        // Warnings and notes about the document, at their place in it: the spec is written
        // all the same.
        console.err(result.diagnostics.map { renderer.render($0, in: result.file) }.joined())
        if let output = parsed.values["-o"] {
            guard console.write(Data(text.utf8), toFile: output) else { return ExitStatus.usage }
        } else {
            console.out(text)
        }
        return ExitStatus.success
    }
}
