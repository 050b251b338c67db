import Foundation
import Statecraft

/// `statecraft swift SPEC [-o FILE] [--type-name NAME] [--access public|internal] [--check] [--harness DIR]`.
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
                  OptionSpec("--check", .flag, "Write nothing; exit 1 if FILE (-o) is not what the spec generates"),
                  OptionSpec("--harness", .value("DIR"), """
                      Write a SwiftPM package into DIR whose executable, replay-generated
                      LOG..., replays logs through the generated type alone and prints
                      what 'statecraft replay --format json' prints; DIR must be new,
                      empty, or an earlier harness
                      """)],
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
        let harness = parsed.values["--harness"]
        if harness != nil && (parsed.values["-o"] != nil || check || access == "public") {
            return spec.usageError("--harness writes its own files, with internal access; it takes no -o, --check or --access public",
                                   console)
        }
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
        var harnessFiles: [HarnessWriter.File] = []
        do {
            if harness != nil {
                harnessFiles = try HarnessWriter.files(machine, options: options, specPath: specPath)
                text = ""
            } else {
                text = try SwiftGenerator.generate(machine, options: options)
            }
        } catch {
            // Rendered as a diagnostic for its source line and caret. It is no finding of the
            // spec (the spec is fine; the generator is not there yet), so it gets no id of the
            // catalogue: the placeholder id's tag is taken off the first line.
            let d = Diagnostic(.expectedToken, error.message, at: error.range)
            console.err(DiagnosticRenderer().render(d, in: file).replacingOccurrences(of: " [expected-token]", with: ""))
            return ExitStatus.usage
        }
        if let harness {
            if let problem = writeHarness(harnessFiles, into: harness, in: console.files) {
                console.err("error: \(problem)\n")
                return ExitStatus.usage
            }
            let folder = harness.hasSuffix("/") ? String(harness.dropLast()) : harness
            console.out("wrote the harness of '\(machine.name)' into '\(folder)': build it with 'swift build --package-path \(folder)', "
                        + "then run '\(folder)/.build/debug/replay-generated LOG...'\n")
            return ExitStatus.success
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

    /// The file in a harness folder that lists the files `--harness` wrote there, so that a
    /// later run replaces exactly those.
    static let harnessManifest = ".statecraft-harness"

    /// What building a harness leaves in its folder, kept when the harness is written again.
    static let buildProducts: Set<String> = [".build", ".swiftpm", "Package.resolved"]

    /// Writes the harness into `dir`: a new or empty folder, or one that holds only what an
    /// earlier `--harness` wrote and what building it left (the files are replaced). Returns
    /// what went wrong, if anything.
    static func writeHarness(_ files: [HarnessWriter.File], into dir: String, in context: InputFile.Context) -> String? {
        let fm = FileManager.default
        let url = URL(fileURLWithPath: context.resolve(dir))
        let manifest = url.appendingPathComponent(harnessManifest)
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { return "cannot write into '\(dir)': it is a file, not a folder" }
            let previous = Set(((try? String(contentsOf: manifest, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init))
            var present: [String] = []
            func walk(_ relative: String) {
                let path = relative.isEmpty ? url.path : url.appendingPathComponent(relative).path
                for name in ((try? fm.contentsOfDirectory(atPath: path)) ?? []).sorted() {
                    let child = relative.isEmpty ? name : relative + "/" + name
                    if relative.isEmpty && (name == harnessManifest || buildProducts.contains(name)) { continue }
                    var childIsDirectory: ObjCBool = false
                    if fm.fileExists(atPath: url.appendingPathComponent(child).path, isDirectory: &childIsDirectory),
                       childIsDirectory.boolValue {
                        walk(child)
                    } else {
                        present.append(child)
                    }
                }
            }
            walk("")
            let foreign = present.filter { !previous.contains($0) }
            guard foreign.isEmpty else {
                let shown = foreign.prefix(3).map { "'\($0)'" }.joined(separator: ", ") + (foreign.count > 3 ? ", …" : "")
                return "'\(dir)' holds files that '--harness' did not write (\(shown)); write the harness into a new or empty folder"
            }
            for path in present { try? fm.removeItem(at: url.appendingPathComponent(path)) }
        }
        do {
            for file in files {
                let target = url.appendingPathComponent(file.path)
                try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.contents.utf8).write(to: target)
            }
            try Data((files.map(\.path).joined(separator: "\n") + "\n").utf8).write(to: manifest)
        } catch {
            return "cannot write into '\(dir)': \(error.localizedDescription)"
        }
        return nil
    }

    private static func isIdentifier(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return s.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}
