import Foundation
import Statecraft

/// Where a command writes, and what it knows about the terminal. Passed in, never global,
/// so tests run commands in-process and in parallel.
public struct Console: Sendable {
    /// Writes to standard output.
    public var out: @Sendable (String) -> Void
    /// Writes to standard error.
    public var err: @Sendable (String) -> Void
    /// Writes raw bytes to standard output (rendered images).
    public var write: @Sendable (Data) -> Void
    /// Whether standard output is a terminal and colour is allowed (`NO_COLOR` unset).
    public var colour: Bool
    /// Whether standard input is a terminal (a person would have to type the events).
    public var inputIsTerminal: Bool
    /// Whether standard error is a terminal (a person watches it: a progress line helps).
    public var errorIsTerminal: Bool
    /// The folder relative paths start from and what `-` reads: the process's own, unless the
    /// command runs inside another program (the tests run many at once, each in its folder).
    public var files: InputFile.Context
    /// The environment variables the command sees (`PATH` to find Graphviz, its time limit).
    public var environment: [String: String]

    /// Creates a console.
    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
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
public enum ExitStatus {
    /// Success: no errors.
    public static let success: Int32 = 0
    /// The input has errors (diagnostics were printed).
    public static let failure: Int32 = 1
    /// A usage error, or a file that could not be read.
    public static let usage: Int32 = 2
}

/// The `statecraft` command line: parses arguments and dispatches to a command.
public enum Driver {
    static let commands = ["check", "fmt", "replay", "merge", "paths", "dot", "mermaid", "scxml", "import", "lsp", "help"]

    /// The version printed by `--version`.
    public static let version = "0.1.0"

    /// Runs the command line `arguments` (without the program name); returns the exit status.
    public static func run(_ arguments: [String], console: Console) -> Int32 {
        guard let command = arguments.first else {
            console.err(usage)
            return ExitStatus.usage
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "check":
            return CheckCommand.run(rest, console: console)
        case "fmt":
            return FormatCommand.run(rest, console: console)
        case "replay":
            return ReplayCommand.run(rest, console: console)
        case "merge":
            return MergeCommand.run(rest, console: console)
        case "paths":
            return PathsCommand.run(rest, console: console)
        case "dot":
            return DiagramCommand.run(.dot, rest, console: console)
        case "mermaid":
            return DiagramCommand.run(.mermaid, rest, console: console)
        case "scxml":
            return SCXMLCommand.run(rest, console: console)
        case "import":
            return ImportCommand.run(rest, console: console)
        case "lsp":
            return LSPCommand.run(rest, console: console)
        case "help", "-h", "--help":
            // `help check` is `check --help`.
            if let topic = rest.first {
                guard commands.contains(topic), topic != "help" else {
                    var message = "Error: unknown command '\(topic)'"
                    if let close = closest(topic, commands) { message += "; did you mean '\(close)'?" }
                    console.err(message + "\n\n" + usage)
                    return ExitStatus.usage
                }
                return run([topic, "--help"], console: console)
            }
            console.out(usage)
            return ExitStatus.success
        case "--version":
            console.out("statecraft \(version)\n")
            return ExitStatus.success
        default:
            var message = "Error: unknown command '\(command)'"
            if let close = closest(command, commands) { message += "; did you mean '\(close)'?" }
            console.err(message + "\n\n" + usage)
            return ExitStatus.usage
        }
    }

    static let usage = """
        USAGE: statecraft <command> [options]

        COMMANDS:
          check [PATH ...]    Parse and check specs (*.machine files, or folders of them)
          fmt [PATH ...]      Rewrite specs in the canonical layout (--check: only show the diff)
          replay SPEC [LOG|FOLDER ...]
                              Run a spec against event logs and report where they part ways
          merge REPORT.json ...
                              Add up replay summaries of disjoint sets of logs
          paths SPEC          Generate event logs that reach every transition (model-based tests)
          dot SPEC            Draw the machine as Graphviz DOT (or SVG/PNG with -T)
          mermaid SPEC        Draw the machine as a Mermaid state diagram
          scxml SPEC          Write the machine as an SCXML 1.0 document
          import FILE.scxml   Translate an SCXML document into a spec
          lsp                 Run the language server for editors (LSP on stdin and stdout)
          help [COMMAND]      Show this help, or a command's

        Run 'statecraft <command> --help' for a command's options.

        """

    /// The candidate within two edits of `word`, for "did you mean".
    static func closest(_ word: String, _ candidates: [String]) -> String? {
        EditDistance.closest(to: word, among: candidates, limit: 2)
    }
}
