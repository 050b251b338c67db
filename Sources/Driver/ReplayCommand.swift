import Statecraft

/// `statecraft replay SPEC [LOG ...] [--strict] [--trace] [--format text|json|jsonl]`
enum ReplayCommand {
    static let help = """
        USAGE: statecraft replay SPEC [LOG ...] [--strict] [--trace] [--format text|json|jsonl]

        Runs the machine in SPEC against each event log (JSON Lines, see shared/event-log.md)
        and reports, per case, the final state, variables, outputs, event counts and every
        expectation that failed. With no LOG, or with '-', reads standard input.

        OPTIONS:
          --strict               Treat ignored events as rejected
          --trace                Also print one line per step (event, from -> to, outputs, changes)
          --format text|json|jsonl
                                 Output format (default: text); jsonl streams one JSON object
                                 per step (with --trace) and ends with the report
          -h, --help             Show this help

        EXIT STATUS: 0 every expectation held and nothing was rejected, 1 an expectation failed
        or an event was rejected, 2 the spec or a log cannot be read (a malformed line).

        """

    enum Format: String { case text, json, jsonl }

    struct Options {
        var format = Format.text
        var strict = false
        var trace = false
        var spec: String?
        var logs: [String] = []
    }

    static func run(_ arguments: [String], console: Console) -> Int32 {
        let options: Options
        switch parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let message):
            if message.text.isEmpty {
                console.out(help)
                return ExitStatus.success
            }
            console.err("Error: \(message.text)\n\n" + help)
            return ExitStatus.usage
        }
        guard let specPath = options.spec else {
            console.err("Error: missing the SPEC argument\n\n" + help)
            return ExitStatus.usage
        }
        guard let program = loadProgram(specPath, console: console) else { return ExitStatus.usage }
        let output = ReplayOutput(format: options.format, trace: options.trace, console: console,
                                  machine: program.machine)
        var status = ExitStatus.success
        let logs = options.logs.isEmpty ? ["-"] : options.logs
        for path in logs {
            let displayPath = path == "-" ? "<stdin>" : path
            var reader: EventLogReader
            if path == "-" {
                reader = EventLogReader(fileDescriptor: 0)
            } else {
                do {
                    reader = try EventLogReader.open(path: path)
                } catch {
                    console.err("error: \(error.message)\n")
                    status = ExitStatus.usage
                    continue
                }
            }
            var replayer = Replayer(program: program, options: Replayer.Options(strict: options.strict, trace: options.trace))
            var failure: LogError?
            do {
                while let record = try reader.next() {
                    try replayer.consume(record) { output.step($0, log: displayPath) }
                }
            } catch {
                failure = error
            }
            var report = replayer.report
            report.error = failure
            output.report(report, log: displayPath)
            if failure != nil {
                status = ExitStatus.usage
            } else if !report.passed && status == ExitStatus.success {
                status = ExitStatus.failure
            }
        }
        output.finish()
        return status
    }

    struct Message: Error { var text: String }

    static func parse(_ arguments: [String]) -> Result<Options, Message> {
        var options = Options()
        var index = 0
        var onlyPaths = false
        while index < arguments.count {
            let arg = arguments[index]
            index += 1
            if onlyPaths || !arg.hasPrefix("-") || arg == "-" {
                if options.spec == nil { options.spec = arg } else { options.logs.append(arg) }
                continue
            }
            switch arg {
            case "--": onlyPaths = true
            case "-h", "--help": return .failure(Message(text: ""))
            case "--strict": options.strict = true
            case "--trace": options.trace = true
            case "--format":
                guard index < arguments.count, let f = Format(rawValue: arguments[index]) else {
                    return .failure(Message(text: "--format takes 'text', 'json' or 'jsonl'"))
                }
                options.format = f
                index += 1
            default:
                if arg.hasPrefix("--format=") {
                    guard let f = Format(rawValue: String(arg.dropFirst("--format=".count))) else {
                        return .failure(Message(text: "--format takes 'text', 'json' or 'jsonl'"))
                    }
                    options.format = f
                    continue
                }
                var text = "unknown option '\(arg)'"
                if let close = Driver.closest(arg, ["--strict", "--trace", "--format", "--help"]) {
                    text += "; did you mean '\(close)'?"
                }
                return .failure(Message(text: text))
            }
        }
        return .success(options)
    }

    /// Reads and checks the spec; prints its errors to standard error when it has any.
    static func loadProgram(_ path: String, console: Console) -> Program? {
        let file: SourceFile
        switch SpecFiles.read(path) {
        case .success(let f): file = f
        case .failure(let problem):
            console.err("error: \(problem.message)\n")
            return nil
        }
        let result = Statecraft.check(file)
        guard let machine = result.machine else {
            console.err(CheckCommand.renderText(result, colour: false))
            console.err("error: '\(path)' has errors; fix them with 'statecraft check' before replaying\n")
            return nil
        }
        return Program(machine)
    }
}
