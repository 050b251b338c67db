import Statecraft

/// `statecraft check [--format text|json] [--warnings-as-errors] [PATH ...]`
enum CheckCommand {
    static let help = """
        USAGE: statecraft check [--format text|json] [--warnings-as-errors] [--witnesses]
                                [--max-depth N] [--max-configurations N] [PATH ...]

        Parses and checks each spec: each file, or each *.machine file under each folder.
        With no PATH, checks the current folder.

        OPTIONS:
          --format text|json     Output format (default: text)
          --warnings-as-errors   Treat warnings as errors
          --witnesses            Also list every state and transition: reached (with the
                                 shortest event sequence that gets there), or why not
          --max-depth N          Longest witness the search tries (default 12)
          --max-configurations N Most configurations the search visits (default 5000)
          -h, --help             Show this help

        EXIT STATUS: 0 no errors, 1 errors found, 2 usage error or unreadable file.

        """

    enum Format: String, CaseIterable { case text, json }

    static func run(_ arguments: [String], console: Console) -> Int32 {
        let parsed: ParsedArguments
        let format: Format
        let bounds: ExplorationBounds
        switch ParsedArguments.parse(arguments, flags: ["--warnings-as-errors", "--witnesses"],
                                     options: ["--format", "--max-depth", "--max-configurations"])
            .flatMap({ p in p.choice("--format", default: Format.text).map { (p, $0) } })
            .flatMap({ p, f in p.bounds().map { (p, f, $0) } }) {
        case .success(let (p, f, b)):
            parsed = p
            format = f
            bounds = b
        case .failure(let error):
            return usageError(error.message, console)
        }
        if parsed.wantsHelp {
            console.out(help)
            return ExitStatus.success
        }
        let strict = parsed.flags.contains("--warnings-as-errors")
        let witnesses = parsed.flags.contains("--witnesses")
        var paths = parsed.positionals
        if paths.isEmpty { paths = ["."] }

        let collected = SpecFiles.collect(paths)
        var unreadable = collected.problems
        for problem in unreadable { console.err("error: \(problem.message)\n") }
        if collected.files.isEmpty && collected.problems.isEmpty {
            console.err("error: no .machine files found in \(paths.map { "'\($0)'" }.joined(separator: ", "))\n")
            return ExitStatus.usage
        }
        var results: [CheckResult] = []
        for path in collected.files {
            switch SpecFiles.read(path) {
            case .success(let file):
                var result = Statecraft.check(file, bounds: bounds)
                if strict {
                    result.diagnostics = result.diagnostics.map { d in
                        var d = d
                        if d.severity == .warning { d.severity = .error }
                        return d
                    }
                }
                results.append(result)
                if format == .text {
                    console.out(renderText(result, colour: console.colour))
                    if witnesses { console.out(renderWitnesses(result)) }
                }
            case .failure(let problem):
                unreadable.append((problem.path, problem.message))
                console.err("error: \(problem.message)\n")
            }
        }
        let errors = results.reduce(0) { $0 + $1.errorCount }
        let warnings = results.reduce(0) { $0 + $1.warningCount }
        switch format {
        case .text:
            console.out(summary(files: results.count, errors: errors, warnings: warnings))
        case .json:
            console.out(DiagnosticJSON.render(results, errors: errors, warnings: warnings, unreadable: unreadable))
        }
        if !unreadable.isEmpty { return ExitStatus.usage }
        return errors > 0 ? ExitStatus.failure : ExitStatus.success
    }

    static func renderText(_ result: CheckResult, colour: Bool) -> String {
        let renderer = DiagnosticRenderer(colour: colour)
        return result.diagnostics.map { renderer.render($0, in: result.file) }.joined()
    }

    /// The reachability table of `--witnesses`.
    static func renderWitnesses(_ result: CheckResult) -> String {
        guard let machine = result.machine, let report = result.exploration else { return "" }
        var rows: [(String, ExplorationReport.Finding)] = []
        for s in machine.states.dropFirst() {
            // A history state is reached when a transition enters through it.
            rows.append(((s.isHistory ? "history " : "state ") + s.name, report.states[s.id.index]))
        }
        for t in machine.transitions {
            rows.append(("transition " + TestGeneration.describe(t, machine), report.transitions[t.id.index]))
        }
        let width = min(70, rows.map(\.0.count).max() ?? 0)
        let searched = report.configurations == 1 ? "1 configuration" : "\(report.configurations) configurations"
        var out = "\(result.file.path): reachability (\(searched) searched)\n"
        for (name, finding) in rows {
            let padded = name.count < width ? name + String(repeating: " ", count: width - name.count) : name
            switch finding {
            case .reached(let steps):
                out += "  \(padded)  reached" + (steps.isEmpty ? " at the start" : " by " + WitnessText.describe(steps, machine)) + "\n"
            case .unreachable(let reason):
                out += "  \(padded)  unreachable: \(reason)\n"
            case .notReached:
                out += "  \(padded)  not reached: \(ExplorationReport.notReachedReason(report))\n"
            }
        }
        return out
    }

    static func summary(files: Int, errors: Int, warnings: Int) -> String {
        func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
        return "checked \(count(files, "file")): \(count(errors, "error")), \(count(warnings, "warning"))\n"
    }

    static func usageError(_ message: String, _ console: Console) -> Int32 {
        console.err("Error: \(message)\n\n" + help)
        return ExitStatus.usage
    }
}
