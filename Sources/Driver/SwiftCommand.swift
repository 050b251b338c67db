import Foundation
import Statecraft

/// `statecraft swift SPEC [-o FILE] [--type-name NAME] [--access public|internal] [--check]`.
enum SwiftCommand {
    static let spec = CommandSpec(
        name: "swift", positionals: "SPEC", positionalsFirst: true,
        about: """
            Writes the machine as one self-contained Swift file: a value type with typed states,
            events, outputs and variables, stepped by plain Swift with the runtime's semantics.
            The file imports nothing of Statecraft. Every form of the language is generated:
            statecharts whole, and the events a machine sends itself.
            """,
        options: [OptionSpec("-o", .value("FILE"), "Write to FILE instead of standard output"),
                  OptionSpec("--type-name", .value("NAME"), "Name the type NAME (default: the machine's name)"),
                  OptionSpec("--access", .value("LEVEL"), "public or internal (default) declarations"),
                  OptionSpec("--check", .flag, "Write nothing; exit 1 if FILE (-o) is not what the spec generates")],
        footer: "EXIT STATUS: 0 written (or up to date), 1 --check found FILE stale, 2 the spec cannot be\nread, does not resolve, or has a name that clashes with a member of the generated type.")

    static var help: String { spec.help }

    static func run(_ arguments: [String], console: Console) -> Int32 {
        let parsed: ParsedArguments
        switch spec.start(arguments, console: console) {
        case .run(let p, _): parsed = p
        case .exit(let status): return status
        }
        let specPath: String
        switch parsed.onlyPositional("SPEC") {
        case .success(let path): specPath = path
        case .failure(let error): return spec.usageError(error.message, console)
        }
        let access = parsed.values["--access"] ?? "internal"
        guard access == "public" || access == "internal" else {
            return spec.usageError("--access takes 'public' or 'internal', not '\(access)'", console)
        }
        let check = parsed.flags.contains("--check")
        guard !check || parsed.values["-o"] != nil else { return spec.usageError("--check needs -o FILE", console) }
        if let name = parsed.values["--type-name"], !isIdentifier(name) {
            return spec.usageError("--type-name takes a Swift identifier, not '\(name)'", console)
        }
        guard let file = ReplayCommand.readSpec(specPath, console: console) else { return ExitStatus.usage }
        let result = Statecraft.check(file, bounds: nil)
        guard let machine = result.machine else {
            console.err(CheckText.diagnostics(result, colour: false))
            console.err("error: '\(specPath)' has errors; fix them with 'statecraft check' before generating its Swift\n")
            return ExitStatus.usage
        }
        let name = specPath == InputFile.standardInput ? "<stdin>" : URL(fileURLWithPath: specPath).lastPathComponent
        let options = SwiftGenerator.Options(typeName: parsed.values["--type-name"], isPublic: access == "public",
                                             specName: name, fingerprint: SpecFingerprint(file: file).description)
        let text: String
        do {
            text = try SwiftGenerator.generate(machine, options: options)
        } catch {
            // Rendered as a diagnostic for its source line and caret. It is no finding of the
            // spec (the spec is fine; the generator is not there yet), so it gets no id of the
            // catalogue: the placeholder id's tag is taken off the first line.
            let d = Diagnostic(.expectedToken, error.message, at: error.range)
            console.err(DiagnosticRenderer().render(d, in: file).replacingOccurrences(of: " [expected-token]", with: ""))
            return ExitStatus.usage
        }
        guard let output = parsed.values["-o"] else {
            console.out(text)
            return ExitStatus.success
        }
        if check {
            guard let existing = FileManager.default.contents(atPath: console.resolve(output)) else {
                console.err("error: '\(output)' does not exist; run 'statecraft swift \(specPath) -o \(output)'\n")
                return ExitStatus.failure
            }
            if existing == Data(text.utf8) { return ExitStatus.success }
            console.err("error: '\(output)' is not what '\(specPath)' generates; run 'statecraft swift \(specPath) -o \(output)'\n")
            return ExitStatus.failure
        }
        return console.write(Data(text.utf8), toFile: output) ? ExitStatus.success : ExitStatus.usage
    }

    private static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return s.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}
