import Foundation
import Statecraft

/// Where a command writes, and what it knows about the terminal. Passed in, never global,
/// so tests run commands in-process and in parallel.
package struct Console: Sendable {
    /// Writes to standard output.
    package var out: @Sendable (String) -> Void
    /// Writes to standard error.
    package var err: @Sendable (String) -> Void
    /// Writes raw bytes to standard output (rendered images).
    package var write: @Sendable (Data) -> Void
    /// Whether standard output is a terminal and colour is allowed (`NO_COLOR` unset).
    package var colour: Bool
    /// Whether standard input is a terminal (a person would have to type the events).
    package var inputIsTerminal: Bool
    /// Whether standard error is a terminal (a person watches it: a progress line helps).
    package var errorIsTerminal: Bool
    /// The folder relative paths start from and what `-` reads: the process's own, unless the
    /// command runs inside another program (the tests run many at once, each in its folder).
    package var files: InputFile.Context
    /// The environment variables the command sees (`PATH` to find Graphviz, its time limit).
    package var environment: [String: String]

    /// Creates a console.
    package init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
                write: (@Sendable (Data) -> Void)? = nil, colour: Bool = false, inputIsTerminal: Bool = false,
                errorIsTerminal: Bool = false, files: InputFile.Context = .process,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.out = out
        self.err = err
        self.write = write ?? { out(String(decoding: $0, as: UTF8.self)) }
        self.colour = colour
        self.inputIsTerminal = inputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        self.files = files
        self.environment = environment
    }

    /// This process's standard streams, with colour when standard output is a terminal and
    /// `NO_COLOR` is unset: what the `statecraft` binary (and the plugin's tool) run with.
    package static func standard() -> Console {
        Console(out: { FileHandle.standardOutput.write(Data($0.utf8)) },
                err: { FileHandle.standardError.write(Data($0.utf8)) },
                write: { FileHandle.standardOutput.write($0) },
                colour: isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil,
                inputIsTerminal: isatty(STDIN_FILENO) != 0,
                errorIsTerminal: isatty(STDERR_FILENO) != 0)
    }
}

extension Console {
    /// `path` as the system should open it (see `InputFile.Context.resolve`).
    func resolve(_ path: String) -> String { files.resolve(path) }

    /// The process's working directory, or the folder the command runs in.
    var directory: String { files.directory ?? FileManager.default.currentDirectoryPath }

    /// Writes `bytes` to the file `-o` named; false (after saying why) when it cannot.
    func write(_ bytes: Data, toFile path: String) -> Bool {
        do {
            try bytes.write(to: URL(fileURLWithPath: resolve(path)))
            return true
        } catch {
            err("error: cannot write '\(path)': \(error.localizedDescription)\n")
            return false
        }
    }
}

/// Exit statuses of every command.
package enum ExitStatus {
    /// Success: no errors.
    package static let success: Int32 = 0
    /// The input has errors (diagnostics were printed).
    package static let failure: Int32 = 1
    /// A usage error, or a file that could not be read.
    package static let usage: Int32 = 2
}

/// A command of the command line, written once: its name, its line in the usage text and
/// what runs it. The dispatch, the usage text and "did you mean" all come from `Driver.commands`.
struct Command {
    var name: String
    /// Its name and arguments, as the usage text shows them (`check [PATH ...]`).
    var usage: String
    /// What it does, in one line of the usage text.
    var summary: String
    /// Runs it on the arguments after its name; returns the exit status.
    var run: @Sendable ([String], Console) -> Int32
}

/// The `statecraft` command line: parses arguments and dispatches to a command.
package enum Driver {
    /// Every command, in the order the usage text lists them.
    static let commands: [Command] = [
        Command(name: "check", usage: "check [PATH ...]",
                summary: "Parse and check specs (*.machine files, or folders of them)",
                run: { CheckCommand.run($0, console: $1) }),
        Command(name: "fmt", usage: "fmt [PATH ...]",
                summary: "Rewrite specs in the canonical layout (--check: only show the diff)",
                run: { FormatCommand.run($0, console: $1) }),
        Command(name: "replay", usage: "replay SPEC [LOG|FOLDER ...]",
                summary: "Run a spec against event logs and report where they part ways",
                run: { ReplayCommand.run($0, console: $1) }),
        Command(name: "merge", usage: "merge REPORT.json ...",
                summary: "Add up replay summaries of disjoint sets of logs",
                run: { MergeCommand.run($0, console: $1) }),
        Command(name: "paths", usage: "paths SPEC",
                summary: "Generate event logs that reach every transition (model-based tests)",
                run: { PathsCommand.run($0, console: $1) }),
        Command(name: "dot", usage: "dot SPEC",
                summary: "Draw the machine as Graphviz DOT (or SVG/PNG with -T)",
                run: { DiagramCommand.run(.dot, $0, console: $1) }),
        Command(name: "mermaid", usage: "mermaid SPEC",
                summary: "Draw the machine as a Mermaid state diagram",
                run: { DiagramCommand.run(.mermaid, $0, console: $1) }),
        Command(name: "scxml", usage: "scxml SPEC",
                summary: "Write the machine as an SCXML 1.0 document",
                run: { SCXMLCommand.run($0, console: $1) }),
        Command(name: "swift", usage: "swift SPEC",
                summary: "Write the machine as a Swift type (--check: is FILE up to date? --harness: replay logs with it)",
                run: { SwiftCommand.run($0, console: $1) }),
        Command(name: "import", usage: "import FILE.scxml",
                summary: "Translate an SCXML document into a spec",
                run: { ImportCommand.run($0, console: $1) }),
        Command(name: "lsp", usage: "lsp",
                summary: "Run the language server for editors (LSP on stdin and stdout)",
                run: { LSPCommand.run($0, console: $1) }),
        Command(name: "help", usage: "help [COMMAND]",
                summary: "Show this help, or a command's",
                run: { help($0, console: $1) }),
    ]

    /// The version printed by `--version`.
    package static let version = "0.1.0"

    /// Runs the command line `arguments` (without the program name); returns the exit status.
    package static func run(_ arguments: [String], console: Console) -> Int32 {
        guard let name = arguments.first else {
            console.err(usage)
            return ExitStatus.usage
        }
        let rest = Array(arguments.dropFirst())
        if let command = commands.first(where: { $0.name == name }) {
            return command.run(rest, console)
        }
        switch name {
        case "-h", "--help":
            return help(rest, console: console)
        case "--version":
            console.out("statecraft \(version)\n")
            return ExitStatus.success
        default:
            console.err(unknown(name) + "\n\n" + usage)
            return ExitStatus.usage
        }
    }

    /// `help`, `help COMMAND` (which is `COMMAND --help`).
    static func help(_ arguments: [String], console: Console) -> Int32 {
        guard let topic = arguments.first else {
            console.out(usage)
            return ExitStatus.success
        }
        guard topic != "help", commands.contains(where: { $0.name == topic }) else {
            console.err(unknown(topic) + "\n\n" + usage)
            return ExitStatus.usage
        }
        return run([topic, "--help"], console: console)
    }

    /// `Error: unknown command 'x'`, with the closest command's name when one is near.
    private static func unknown(_ name: String) -> String {
        var message = "Error: unknown command '\(name)'"
        if let close = closest(name, commands.map(\.name)) { message += "; did you mean '\(close)'?" }
        return message
    }

    /// Where a command's summary starts in the usage text; a longer usage puts it on the
    /// next line.
    static let summaryColumn = 22

    /// The usage text: a line per command, from `commands`.
    static let usage: String = {
        var text = "USAGE: statecraft <command> [options]\n\nCOMMANDS:\n"
        for command in commands {
            let head = "  " + command.usage
            if head.count + 2 <= summaryColumn {
                text += head + String(repeating: " ", count: summaryColumn - head.count) + command.summary + "\n"
            } else {
                text += head + "\n" + String(repeating: " ", count: summaryColumn) + command.summary + "\n"
            }
        }
        return text + "\nRun 'statecraft <command> --help' for a command's options.\n"
    }()

    /// The candidate within two edits of `word`, for "did you mean".
    static func closest(_ word: String, _ candidates: [String]) -> String? {
        EditDistance.closest(to: word, among: candidates, limit: 2)
    }
}
