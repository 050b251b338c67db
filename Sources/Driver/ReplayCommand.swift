import Statecraft

/// `statecraft replay SPEC [LOG ...] [--strict] [--trace] [--settle] [--explain] [--format text|json|jsonl|junit|github]`
enum ReplayCommand {
    enum Format: String, CaseIterable { case text, json, jsonl, junit, github }

    static let spec = CommandSpec(
        name: "replay", positionals: "SPEC [LOG ...]", positionalsFirst: true,
        about: """
            Runs the machine in SPEC against each event log (JSON Lines, see shared/event-log.md)
            and reports, per case, the final state, variables, outputs, event counts and every
            expectation that failed. With no LOG, or with '-', reads standard input.
            """,
        options: [
            OptionSpec("--strict", .flag, "Treat ignored events as rejected"),
            OptionSpec("--trace", .flag, "Also print one line per step (event, from -> to, outputs, changes)"),
            OptionSpec("--settle", .flag, """
                After the last line, let time pass from timer to timer until
                each case comes to rest, and report where
                """),
            OptionSpec("--explain", .flag, """
                Say why each ignored or rejected event was not taken (each
                candidate transition's false sub-expression and the values it
                read) and which step last changed what a failed expectation
                names; in the text, json and jsonl formats
                """),
            .choice("--format", Format.self, """
                Output format (default: text); jsonl streams one JSON object
                per step (with --trace) and ends with the report; junit writes
                JUnit XML (a test suite per log, a test case per case); github
                prints workflow commands that annotate the pull request
                """),
        ],
        footer: """
            EXIT STATUS: 0 every expectation held and nothing was rejected, 1 an expectation failed
            or an event was rejected, 2 the spec or a log cannot be read (a malformed line).
            """)

    static var help: String { spec.help }

    struct Options {
        var format = Format.text
        var strict = false
        var trace = false
        var settle = false
        var explain = false
        var spec: String?
        var logs: [String] = []
        var help = false
    }

    static func run(_ arguments: [String], console: Console) -> Int32 {
        let options: Options
        switch parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let error):
            console.err("Error: \(error.message)\n\n" + help)
            return ExitStatus.usage
        }
        if options.help {
            console.out(help)
            return ExitStatus.success
        }
        guard let specPath = options.spec else {
            console.err("Error: missing the SPEC argument\n\n" + help)
            return ExitStatus.usage
        }
        let logs = options.logs.isEmpty ? ["-"] : options.logs
        if specPath == InputFile.standardInput && logs.contains(InputFile.standardInput) {
            console.err("Error: the spec and a log cannot both be read from standard input ('-')\n\n" + help)
            return ExitStatus.usage
        }
        let program: Program
        switch loadProgram(specPath) {
        case .success(let p): program = p
        case .failure(let failure):
            reportSpecFailure(failure, spec: specPath, format: options.format, console: console)
            return ExitStatus.usage
        }
        let output = ReplayOutput(format: options.format, trace: options.trace, console: console,
                                  machine: program.machine)
        var status = ExitStatus.success
        for path in logs {
            let displayPath = path == "-" ? "<stdin>" : path
            var reader: EventLogReader
            // Trace lines come out in large writes, or one by one while a live stream feeds them.
            output.out.lineByLine = path == "-" && ByteOutput.isLive(fileDescriptor: 0)
            if path == "-" {
                if console.inputIsTerminal {
                    console.err("reading events from standard input (JSON Lines; end with Ctrl-D)\n")
                }
                reader = EventLogReader(fileDescriptor: 0)
            } else {
                do {
                    reader = try EventLogReader.open(path: path)
                } catch {
                    output.unreadable(log: path, message: error.message)
                    status = ExitStatus.usage
                    continue
                }
            }
            var replayer = Replayer(program: program, options: Replayer.Options(strict: options.strict, trace: options.trace,
                                                                                settle: options.settle, explain: options.explain))
            var failure: LogError?
            // A file is read and staged on a second thread while this one applies, and its trace
            // is formatted on another; standard input is applied and traced line by line as it
            // arrives.
            let concurrently = path != "-"
            let traceThread = options.trace && concurrently
                ? TraceThread(output: output, log: displayPath, program: program) : nil
            do {
                try replayer.replay(&reader, concurrently: concurrently, traceBatches: { batch in
                    if let traceThread { traceThread.take(&batch) } else { output.steps(batch, log: displayPath) }
                })
            } catch {
                failure = error
            }
            traceThread?.finish()  // every step is in `output` from here on
            var report = replayer.report
            report.error = failure
            output.report(report, log: displayPath)  // writes out everything up to here
            if failure != nil {
                status = ExitStatus.usage
            } else if !report.passed && status == ExitStatus.success {
                status = ExitStatus.failure
            }
        }
        output.finish()
        return status
    }

    static func parse(_ arguments: [String]) -> Result<Options, UsageError> {
        spec.parse(arguments).flatMap { parsed in
            parsed.choice("--format", default: Format.text).flatMap { format in
                // A JUnit report is one XML document: trace lines have no place in it.
                if format == .junit && parsed.flags.contains("--trace") {
                    return .failure(UsageError("--trace cannot be used with --format junit"))
                }
                var options = Options()
                options.format = format
                options.strict = parsed.flags.contains("--strict")
                options.trace = parsed.flags.contains("--trace")
                options.settle = parsed.flags.contains("--settle")
                options.explain = parsed.flags.contains("--explain")
                options.help = parsed.wantsHelp
                options.spec = parsed.positionals.first
                options.logs = Array(parsed.positionals.dropFirst())
                return .success(options)
            }
        }
    }

    /// Why a spec cannot be run: it cannot be read, or it does not parse or resolve.
    enum SpecFailure: Error {
        case unreadable(String)
        case errors(CheckResult)
    }

    /// Reads a spec file, or says why it cannot.
    static func readSpec(_ path: String, console: Console) -> SourceFile? {
        switch SpecFiles.read(path) {
        case .success(let f): return f
        case .failure(let problem):
            console.err("error: \(problem.message)\n")
            return nil
        }
    }

    /// Reads, checks and compiles the spec.
    static func loadProgram(_ path: String) -> Result<Program, SpecFailure> {
        let file: SourceFile
        switch SpecFiles.read(path) {
        case .success(let f): file = f
        case .failure(let problem): return .failure(.unreadable(problem.message))
        }
        let result = Statecraft.check(file, bounds: nil)
        // Only a spec that does not parse or resolve cannot run: what the analyses find
        // (an unreachable state, say) is for `check` to report (statecharts.md, "Running a
        // machine").
        guard let machine = result.machine else { return .failure(.errors(result)) }
        return .success(Program(machine))
    }

    /// Says why the spec cannot be run: in text on standard error; with a machine-readable
    /// format also as the one document on standard output, so a pipeline reading it sees
    /// the failure (`"passed": false`, the spec's diagnostics) and never an empty output.
    static func reportSpecFailure(_ failure: SpecFailure, spec path: String, format: Format, console: Console) {
        var message: String
        var check = CheckReport(files: [])
        switch failure {
        case .unreadable(let text):
            message = text
            check.unreadable = [UnreadableFile(path: path, message: text)]
            console.err("error: \(text)\n")
        case .errors(let result):
            message = "'\(path)' has errors; fix them with 'statecraft check' before replaying"
            check.files = [result]
            console.err(CheckText.diagnostics(result, colour: false))
            console.err("error: \(message)\n")
        }
        let document = ReplayJSON.specFailure(spec: path, message: message, diagnostics: check.diagnostics)
        switch format {
        case .text: break
        case .json: console.out(document.rendered(.outline(levels: 0)) + "\n")
        case .jsonl: console.out(JSON.object(["report": document]).rendered(.outline(levels: 0)) + "\n")
        case .junit: console.out(ReplayJUnit.specFailure(spec: path, message: message, diagnostics: check.diagnostics))
        case .github:
            console.out(GitHubAnnotations.check(CheckReport(files: check.files))
                        + GitHubAnnotations.Annotation(level: "error", title: "replay", message: message).command)
        }
    }
}
