import Foundation
import Statecraft

/// `statecraft dot SPEC [-o FILE] [-T svg|png] [--check] [--coverage LOG ...] [--state NAME]
/// [--depth N]` and `statecraft mermaid SPEC [-o FILE] [--state NAME] [--depth N]`.
enum DiagramCommand {
    enum Kind: String { case dot, mermaid }
    enum RenderFormat: String, CaseIterable { case svg, png }

    /// The options that draw part of a big chart, shared by both commands.
    static let scopeOptions = [
        OptionSpec("--state", .value("NAME"), """
            Draw only state NAME and what it holds (transitions to or from
            states outside it are left out)
            """),
        OptionSpec("--depth", .value("N"), """
            Draw the compound and parallel states N levels down (1: the top
            level) as boxes, without what they hold
            """),
    ]

    static func spec(_ kind: Kind) -> CommandSpec {
        switch kind {
        case .dot:
            return CommandSpec(
                name: "dot", positionals: "SPEC", positionalsFirst: true,
                about: """
                    Prints the machine as a Graphviz DOT diagram: states as nodes (the initial one
                    marked by an arrow, final ones as double circles), transitions labelled
                    'event [guard] / outputs', timers as 'after 2s', constants and variables in a note.
                    """,
                options: [
                    OptionSpec("-o", .value("FILE"), "Write to FILE instead of standard output"),
                    .choice("-T", RenderFormat.self, "Render through Graphviz's 'dot' (must be installed)"),
                    OptionSpec("--check", .flag, "Draw unreachable states and dead transitions in red"),
                    OptionSpec("--coverage", .value("LOG"), """
                        Replay LOG and draw what it exercised: taken transitions with
                        their counts, never-taken ones dashed grey, unvisited states grey
                        (repeat it to draw what several logs exercised together)
                        """),
                ] + scopeOptions,
                footer: "EXIT STATUS: 0 written, 2 the spec or log cannot be read, or rendering failed.")
        case .mermaid:
            return CommandSpec(
                name: "mermaid", positionals: "SPEC", positionalsFirst: true,
                about: "Prints the machine as a Mermaid stateDiagram-v2, which GitHub renders in Markdown.",
                options: [OptionSpec("-o", .value("FILE"), "Write to FILE instead of standard output")] + scopeOptions,
                footer: "EXIT STATUS: 0 written, 2 the spec cannot be read.")
        }
    }

    static func help(_ kind: Kind) -> String { spec(kind).help }

    static func run(_ kind: Kind, _ arguments: [String], console: Console) -> Int32 {
        let parsed: ParsedArguments
        let render: RenderFormat?
        switch spec(kind).start(arguments, console: console) {
        case .run(let p, _): parsed = p
        case .exit(let status): return status
        }
        // The parser has refused any word but a RenderFormat's.
        render = parsed.values["-T"].flatMap(RenderFormat.init(rawValue:))
        let specPath: String
        switch parsed.onlyPositional("SPEC") {
        case .success(let path): specPath = path
        case .failure(let error): return spec(kind).usageError(error.message, console)
        }
        var depth: Int?
        if let text = parsed.values["--depth"] {
            guard let n = Int(text), n >= 1 else {
                return spec(kind).usageError("--depth takes a number of levels, 1 or more, not '\(text)'", console)
            }
            depth = n
        }
        guard let whole = loadMachine(specPath, console: console) else { return ExitStatus.usage }
        var overlay = parsed.flags.contains("--check") ? DiagramOverlay.findings(whole) : DiagramOverlay()
        // The findings are those of the whole machine; the ids stay valid in the part drawn.
        var machine = whole
        if let name = parsed.values["--state"] {
            guard let state = whole.states.dropFirst().first(where: { $0.name == name }) else {
                console.err("error: '\(specPath)' has no state named '\(name)'\n")
                return ExitStatus.usage
            }
            machine = machine.subtree(state.id)
            overlay.focus = state.id
        }
        if let depth {
            let cut = machine.collapsed(belowDepth: depth)
            machine = cut.machine
            overlay.collapsed = cut.collapsed
        }
        if let logs = parsed.allValues["--coverage"] {
            // Several logs draw the union of what they exercised, with counts summed.
            var union = Coverage()
            for log in logs {
                guard let coverage = replayCoverage(whole, log: log, console: console) else { return ExitStatus.usage }
                union.merge(coverage)
            }
            overlay.coverage = union
        }
        let text = kind == .dot ? DOTWriter.write(machine, overlay: overlay) : MermaidWriter.write(machine, focus: overlay.focus)
        var bytes = Data(text.utf8)
        if let render {
            switch Graphviz.render(bytes, format: render.rawValue, environment: console.environment) {
            case .success(let rendered): bytes = rendered
            case .failure(let problem):
                console.err("error: \(problem.message)\n")
                return ExitStatus.usage
            }
        }
        if let output = parsed.values["-o"] {
            guard console.write(bytes, toFile: output) else { return ExitStatus.usage }
        } else if render == .png {
            console.write(bytes)
        } else {
            console.out(String(decoding: bytes, as: UTF8.self))
        }
        return ExitStatus.success
    }

    /// Reads and resolves the spec; analysis findings (such as unreachable states) do not stop
    /// a diagram, since drawing them is what `--check` is for, nor an export. `purpose` ends
    /// the error message ("drawing", "exporting").
    static func loadMachine(_ path: String, purpose: String = "drawing", console: Console) -> Machine? {
        guard let file = ReplayCommand.readSpec(path, console: console) else { return nil }
        let result = Statecraft.check(file, bounds: nil)
        guard let machine = result.machine else {
            console.err(CheckText.diagnostics(result, colour: false))
            console.err("error: '\(path)' has errors; fix them with 'statecraft check' before \(purpose) it\n")
            return nil
        }
        return machine
    }

    /// Replays a log to learn which transitions and states it exercised.
    static func replayCoverage(_ machine: Machine, log: String, console: Console) -> Coverage? {
        var reader: EventLogReader
        do {
            reader = try EventLogReader.open(path: log, in: console.files)
        } catch {
            console.err("error: \(error.message)\n")
            return nil
        }
        switch ManyLogs.replay(&reader, program: Program(machine), options: Replayer.Options()) {
        case .replayed(let report, failure: nil):
            return Coverage(report)
        case .replayed(_, failure: let error?):
            let d = Diagnostic(.malformedLogLine, error.message, at: ReplayFinding.byteRange(error.text, column: error.column))
            console.err(DiagnosticRenderer().render(d, in: SourceFile(path: log, bytes: error.text, firstLine: error.line)))
            console.err("error: cannot draw the coverage of '\(log)': replay stopped at line \(error.line)\n")
            return nil
        case .unreadable(let message):
            console.err("error: \(message)\n")
            return nil
        }
    }
}

/// Running Graphviz's `dot` to turn DOT into SVG or PNG.
enum Graphviz {
    struct Problem: Error { var message: String }

    static let installHint = "install Graphviz ('apt-get install graphviz' on Debian and Ubuntu, "
        + "'brew install graphviz' on macOS), or leave out -T to print DOT"

    /// The `dot` executable on PATH.
    static func executable(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let path = environment["PATH"] ?? "/usr/bin:/usr/local/bin"
        for dir in path.split(separator: ":").map(String.init) {
            let candidate = URL(fileURLWithPath: dir).appendingPathComponent("dot")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// How long a render may take, in seconds: `STATECRAFT_RENDER_TIMEOUT`, or a minute.
    static func timeLimit(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Double {
        if let text = environment["STATECRAFT_RENDER_TIMEOUT"], let seconds = Double(text), seconds > 0 { return seconds }
        return 60
    }

    /// Renders DOT text; the failure says what went wrong in words a user can act on.
    ///
    /// While `dot` runs, this process forwards SIGTERM, SIGINT and SIGHUP to it and waits for
    /// it before exiting, so killing `statecraft dot -T svg` never leaves Graphviz running;
    /// a render that takes longer than `timeLimit()` is stopped the same way.
    static func render(_ dot: Data, format: String,
                       environment: [String: String] = ProcessInfo.processInfo.environment) -> Result<Data, Problem> {
        guard let executable = executable(environment) else {
            return .failure(Problem(message: "rendering \(format.uppercased()) needs Graphviz's 'dot', which is not on PATH; " + installHint))
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["-T\(format)"]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let signals = [SIGTERM, SIGINT, SIGHUP]
        // Signals are caught by dispatch sources while the child runs, instead of killing
        // this process at once and orphaning the child.
        for sig in signals { signal(sig, SIG_IGN) }
        defer { for sig in signals { signal(sig, SIG_DFL) } }
        do {
            try process.run()
        } catch {
            return .failure(Problem(message: "cannot run '\(executable.path)': \(error.localizedDescription)"))
        }
        let child = process
        let queue = DispatchQueue(label: "statecraft.graphviz")
        let sources = signals.map { sig -> DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler {
                stop(child)
                exit(128 + sig)
            }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }
        nonisolated(unsafe) var timedOut = false
        let limit = timeLimit(environment)
        let timer = DispatchWorkItem {
            timedOut = true
            stop(child)
        }
        queue.asyncAfter(deadline: .now() + limit, execute: timer)
        let writer = input.fileHandleForWriting
        DispatchQueue.global().async {
            writer.write(dot)
            try? writer.close()
        }
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let rendered = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        timer.cancel()
        if queue.sync(execute: { timedOut }) {
            return .failure(Problem(message: "Graphviz's 'dot' did not finish within \(Value.number(limit)) s and was stopped; "
                + "set STATECRAFT_RENDER_TIMEOUT (seconds) to allow longer"))
        }
        guard process.terminationStatus == 0 else {
            let detail = String(decoding: errorData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return .failure(Problem(message: "Graphviz's 'dot' failed (exit \(process.terminationStatus)): \(detail)"))
        }
        return .success(rendered)
    }

    /// Ends the child: SIGTERM, then SIGKILL if it is still running after two seconds; it
    /// is reaped before this returns.
    private static func stop(_ child: Process) {
        guard child.isRunning else { return }
        child.terminate()
        let deadline = Date().addingTimeInterval(2)
        while child.isRunning && Date() < deadline { usleep(10_000) }
        if child.isRunning { kill(child.processIdentifier, SIGKILL) }
        child.waitUntilExit()
    }
}
