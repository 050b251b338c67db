import Foundation
import Statecraft

/// `statecraft replay SPEC [LOG|FOLDER ...] [--jobs N] [--summary] [--strict] [--unknown-events error|ignore] [--trace] [--settle] [--explain] [--format text|json|jsonl|junit|github|html] [-o FILE]`
enum ReplayCommand {
    enum Format: String, CaseIterable { case text, json, jsonl, junit, github, html }
    enum UnknownEvents: String, CaseIterable { case error, ignore }

    static let spec = CommandSpec(
        name: "replay", positionals: "SPEC [LOG|FOLDER ...]", positionalsFirst: true,
        about: """
            Runs the machine in SPEC against each event log (JSON Lines: one event, or one
            expectation, per line; the EventLogFormat article of the documentation says every
            rule) and reports, per case, the final state, variables, outputs, event counts and
            every expectation that failed. A FOLDER stands for every *.jsonl file under it,
            sorted. With no LOG, or with '-', reads standard input.
            """,
        options: [
            OptionSpec("--jobs", .value("N"), """
                Replay N logs at once (default: one per core); the report
                is the same, in the same order, as with --jobs 1
                """),
            OptionSpec("--summary", .flag, """
                Print what the logs add up to instead of a report per log:
                cases and fitting cases, event fitness, expectations, the
                properties broken, the transitions taken (most first) and never
                taken, and the events not taken; with --format json, a summary
                'statecraft merge' adds to others
                """),
            OptionSpec("--strict", .flag, "Treat ignored events as rejected"),
            .choice("--unknown-events", UnknownEvents.self, """
                What an event the spec does not declare does: error (the
                default: the log is malformed, exit 2, since a typo is worth
                stopping for) or ignore (counted per name and reported, as an
                SCXML engine ignores it; its time still moves the clock)
                """),
            OptionSpec("--trace", .flag, "Also print one line per step (event, from -> to, outputs, changes)"),
            OptionSpec("--settle", .flag, """
                After the last line, let time pass from timer to timer until
                each case comes to rest, and report where
                """),
            OptionSpec("--explain", .flag, """
                Say why each ignored or rejected event was not taken (each
                candidate transition's false sub-expression and the values it
                read), which step last changed what a failed expectation
                names, and what broke each property (the step that started a
                missed deadline, the values a 'never' or 'always' read); in the
                text, json and jsonl formats
                """),
            .choice("--format", Format.self, """
                Output format (default: text); jsonl streams one JSON object
                per step (with --trace) and ends with the report; junit writes
                JUnit XML (a test suite per log, a test case per case); github
                prints workflow commands that annotate the pull request; html
                writes the summary as one self-contained page (with -o)
                """),
            OptionSpec("-o", .value("FILE"), "With --format html, write the page to FILE"),
        ],
        footer: """
            EXIT STATUS: 0 every expectation held, nothing was rejected and no property was broken,
            1 an expectation failed, an event was rejected or a property of the spec was broken,
            2 the spec or a log cannot be read (a malformed line).
            """)

    static var help: String { spec.help }

    struct Options {
        var format = Format.text
        var strict = false
        var ignoresUnknownEvents = false
        var trace = false
        var settle = false
        var explain = false
        var spec: String?
        var logs: [String] = []
        var jobs = ProcessInfo.processInfo.activeProcessorCount
        var summary = false
        var output: String?
        var help = false
    }

    static func run(_ arguments: [String], console: Console) -> Int32 {
        let options: Options
        switch parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let error): return spec.usageError(error.message, console)
        }
        if options.help {
            console.out(help)
            return ExitStatus.success
        }
        guard let specPath = options.spec else {
            return spec.usageError("missing the SPEC argument", console)
        }
        let expanded = expandFolders(options.logs.isEmpty ? ["-"] : options.logs, in: console.files)
        let logs = expanded.logs
        if specPath == InputFile.standardInput && logs.contains(InputFile.standardInput) {
            return spec.usageError("the spec and a log cannot both be read from standard input ('-')", console)
        }
        let program: Program
        switch loadProgram(specPath, in: console.files) {
        case .success(let p): program = p
        case .failure(.errors) where swappedArguments(spec: specPath, logs: options.logs, in: console.files) != nil:
            // The parser's "expected 'machine', found '{'" would say nothing useful.
            let hint = swappedArguments(spec: specPath, logs: options.logs, in: console.files) ?? ""
            reportSpecFailure(.unreadable(hint), spec: specPath, format: options.format, console: console)
            return ExitStatus.usage
        case .failure(let failure):
            reportSpecFailure(failure, spec: specPath, format: options.format, console: console)
            return ExitStatus.usage
        }
        let output = ReplayOutput(format: options.format, trace: options.trace, console: console,
                                  machine: program.machine)
        var status = ExitStatus.success
        var summary = ConformanceSummary(machine: program.machine)
        for problem in expanded.problems {
            output.unreadable(log: problem.path, message: problem.message)
            status = ExitStatus.usage
        }
        let progress = ProgressLine(console: console, enabled: console.errorIsTerminal)
        /// What one log gave, in log order: its report (or its part of the summary) and the
        /// exit status it calls for.
        func take(_ outcome: ManyLogs.Outcome, log path: String) {
            switch outcome {
            case .unreadable(let message):
                progress.clear()
                output.unreadable(log: path, message: message)
                summary.add(outcome, log: path)
                status = ExitStatus.usage
            case .replayed(var report, let failure):
                report.error = failure
                if options.summary {
                    summary.add(outcome, log: path)
                    if !report.warnings.isEmpty {
                        progress.clear()
                        console.err(ReplayText.warnings(report.warnings, path: path))
                    }
                    if let failure {
                        progress.clear()
                        console.err(ReplayText.stopped(failure, path: path, coveredBy: "the summary counts"))
                    }
                } else {
                    output.report(report, log: path)  // writes out everything up to here
                }
                if failure != nil {
                    status = ExitStatus.usage
                } else if !report.passed && status == ExitStatus.success {
                    status = ExitStatus.failure
                }
            }
        }
        // Several files without a trace replay on every core (a trace is for following one
        // log, and standard input is one stream).
        if logs.count > 1 && !options.trace && !logs.contains(InputFile.standardInput) {
            ManyLogs.replay(logs, program: program, options: replayerOptions(options), jobs: options.jobs, in: console.files,
                            each: { index, outcome in take(outcome, log: logs[index]) }, progress: { progress.show($0) })
            progress.clear()
        } else {
            for path in logs {
                let displayPath = path == "-" ? "<stdin>" : path
                var reader: EventLogReader
                // Trace lines come out in large writes, or one by one while a live stream feeds them.
                output.out.lineByLine = path == "-" && ByteOutput.isLive(fileDescriptor: console.files.standardInput)
                if path == "-" {
                    if console.inputIsTerminal {
                        console.err("reading events from standard input (JSON Lines; end with Ctrl-D)\n")
                    }
                    reader = EventLogReader(fileDescriptor: console.files.standardInput)
                } else {
                    do {
                        reader = try EventLogReader.open(path: path, in: console.files)
                    } catch {
                        take(.unreadable(error.message), log: path)
                        continue
                    }
                }
                // A file is read and staged on a second thread while this one applies, and its trace
                // is formatted on another; standard input is applied and traced line by line as it
                // arrives.
                let concurrently = path != "-"
                let traceThread = options.trace && concurrently
                    ? TraceThread(output: output, log: displayPath, program: program) : nil
                let outcome = ManyLogs.replay(&reader, program: program, options: replayerOptions(options),
                                              concurrently: concurrently, traceBatches: { batch in
                    if let traceThread { traceThread.take(&batch) } else { output.steps(batch, log: displayPath) }
                })
                traceThread?.finish()  // every step is in `output` from here on
                take(outcome, log: displayPath)
            }
        }
        if options.summary {
            if !printSummary(SummaryDocument(spec: specPath, machine: program.machine, summary: summary), options,
                             machine: program.machine, console) {
                status = ExitStatus.usage
            }
        } else {
            output.finish()
        }
        return status
    }

    /// Prints the summary, or writes the HTML page (to `-o`'s file or standard output); false
    /// when the page cannot be written.
    @discardableResult
    static func printSummary(_ document: SummaryDocument, _ options: Options, machine: Machine, _ console: Console) -> Bool {
        switch options.format {
        case .json: console.out(ReplaySummaryJSON.render(document))
        case .html:
            let drawing = HeatDrawing(document.summary, machine)
            let svg = diagram(drawing, environment: console.environment)
            let page = Data(ReplaySummaryHTML.render(document, svg: svg, note: drawing.note).utf8)
            guard let path = options.output else {
                console.write(page)
                return true
            }
            return console.write(page, toFile: path)
        default: console.out(ReplaySummaryText.render(document))
        }
        return true
    }

    /// The machine drawn by Graphviz, each transition coloured by how often it was taken;
    /// nil when Graphviz is not installed (the page says so).
    static func diagram(_ drawing: HeatDrawing, environment: [String: String]) -> String? {
        switch Graphviz.render(Data(DOTWriter.write(drawing.machine, overlay: drawing.overlay).utf8), format: "svg", environment: environment) {
        case .success(let svg): return String(decoding: svg, as: UTF8.self)
        case .failure: return nil
        }
    }

    static func replayerOptions(_ options: Options) -> Replayer.Options {
        var replayer = Replayer.Options(strict: options.strict, trace: options.trace, settle: options.settle,
                                        explain: options.explain)
        replayer.summary = options.summary
        replayer.ignoresUnknownEvents = options.ignoresUnknownEvents
        return replayer
    }

    /// The logs named: files (and `-`) as given, folders replaced by every `*.jsonl` file
    /// under them, sorted; a folder without one is a problem to report.
    static func expandFolders(_ paths: [String], in context: InputFile.Context) -> (logs: [String], problems: [(path: String, message: String)]) {
        var logs: [String] = []
        var problems: [(path: String, message: String)] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard path != InputFile.standardInput, FileManager.default.fileExists(atPath: context.resolve(path), isDirectory: &isDirectory),
                  isDirectory.boolValue else {
                logs.append(path)  // (a missing file is reported when it is opened)
                continue
            }
            let collected = SpecFiles.collect([path], suffix: ".jsonl", in: context)
            problems += collected.problems
            if collected.files.isEmpty && collected.problems.isEmpty {
                problems.append((path, "no *.jsonl log under folder '\(path)'"))
            }
            logs += collected.files
        }
        return (logs, problems)
    }

    static func parse(_ arguments: [String]) -> Result<Options, UsageError> {
        spec.parse(arguments).flatMap { parsed in
            parsed.choice("--format", default: Format.text).flatMap { format in
            parsed.choice("--unknown-events", default: UnknownEvents.error).flatMap { unknownEvents in
                // A JUnit report is one XML document: trace lines have no place in it.
                if format == .junit && parsed.flags.contains("--trace") {
                    return .failure(UsageError("--trace cannot be used with --format junit"))
                }
                var options = Options()
                options.format = format
                options.strict = parsed.flags.contains("--strict")
                options.ignoresUnknownEvents = unknownEvents == .ignore
                options.trace = parsed.flags.contains("--trace")
                options.settle = parsed.flags.contains("--settle")
                options.explain = parsed.flags.contains("--explain")
                // The HTML page is a summary's.
                options.summary = parsed.flags.contains("--summary") || format == .html
                if options.summary && format != .text && format != .json && format != .html {
                    return .failure(UsageError("--summary prints text, JSON or HTML, not --format \(format.rawValue)"))
                }
                if options.summary && options.trace {
                    return .failure(UsageError("--summary and --format html cannot be used with --trace (trace one log without them)"))
                }
                options.output = parsed.values["-o"]
                if options.output != nil && format != .html {
                    return .failure(UsageError("-o writes the HTML page: use it with --format html"))
                }
                options.help = parsed.wantsHelp
                options.spec = parsed.positionals.first
                options.logs = Array(parsed.positionals.dropFirst())
                if let word = parsed.values["--jobs"] {
                    guard let n = Int(word), n > 0 else {
                        return .failure(UsageError("--jobs takes a positive whole number, not '\(word)'"))
                    }
                    options.jobs = n
                }
                return .success(options)
            }
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
        switch SpecFiles.read(path, in: console.files) {
        case .success(let f): return f
        case .failure(let problem):
            console.err("error: \(problem.message)\n")
            return nil
        }
    }

    /// Reads, checks and compiles the spec.
    static func loadProgram(_ path: String, in context: InputFile.Context) -> Result<Program, SpecFailure> {
        let file: SourceFile
        switch SpecFiles.read(path, in: context) {
        case .success(let f): file = f
        case .failure(let problem): return .failure(.unreadable(problem.message))
        }
        let result = Statecraft.check(file, bounds: nil)
        // Only a spec that does not parse or resolve cannot run: what the analyses find
        // (an unreachable state, say) is for `check` to report (the Semantics article,
        // "Replaying a log").
        guard let machine = result.machine else { return .failure(.errors(result)) }
        return .success(Program(machine))
    }

    /// When the spec (which did not parse) looks like an event log and the first log like a
    /// spec, the message that says so and gives the command with the two swapped; nil
    /// otherwise. A log looks like one by its extension (`.jsonl`, `.json`, `.ndjson`) or
    /// its first character (`{`); a spec by its extension (`.machine`) or by parsing as one.
    static func swappedArguments(spec: String, logs: [String], in context: InputFile.Context) -> String? {
        guard spec != InputFile.standardInput, let log = logs.first, log != InputFile.standardInput,
              case .success(let specFile) = SpecFiles.read(spec, in: context) else { return nil }
        let logLike = ["jsonl", "json", "ndjson"].contains(spec.split(separator: ".").last.map(String.init) ?? "")
            || specFile.bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) == UInt8(ascii: "{")
        guard logLike else { return nil }
        let specLike: Bool
        if log.hasSuffix(".machine") {
            specLike = true
        } else if case .success(let file) = SpecFiles.read(log, in: context) {
            specLike = Statecraft.check(file, bounds: nil).machine != nil
        } else {
            specLike = false
        }
        guard specLike else { return nil }
        let rest = logs.dropFirst().map { " " + $0 }.joined()
        return "'\(spec)' looks like an event log and '\(log)' like a spec: the spec comes first, "
            + "as in 'statecraft replay \(log) \(spec)\(rest)'"
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
        case .html: break  // (no page without a replay: the error is on standard error)
        case .github:
            console.out(GitHubAnnotations.check(CheckReport(files: check.files))
                        + GitHubAnnotations.Annotation(level: "error", title: "replay", message: message).command)
        }
    }
}
