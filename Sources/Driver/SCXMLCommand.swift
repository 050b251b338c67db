import Foundation
import Statecraft

/// `statecraft scxml SPEC [-o FILE]`.
enum SCXMLCommand {
    static let spec = CommandSpec(
        name: "scxml", positionals: "SPEC", positionalsFirst: true,
        about: """
            Prints the machine as an SCXML 1.0 document (datamodel="ecmascript"): states,
            regions, history, transitions and actions as SCXML elements, guards and values as
            ECMAScript, timers as delayed sends, outputs as <log label="output">.
            """,
        options: [OptionSpec("-o", .value("FILE"), "Write to FILE instead of standard output")],
        footer: "EXIT STATUS: 0 written, 2 the spec cannot be read or does not resolve.")

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
        guard let machine = DiagramCommand.loadMachine(specPath, purpose: "exporting", console: console) else {
            return ExitStatus.usage
        }
        let document = SCXMLWriter.document(for: machine, source: specPath == InputFile.standardInput ? nil : specPath)
        guard let output = parsed.values["-o"] else {
            console.out(document)
            return ExitStatus.success
        }
        return console.write(Data(document.utf8), toFile: output) ? ExitStatus.success : ExitStatus.usage
    }
}
