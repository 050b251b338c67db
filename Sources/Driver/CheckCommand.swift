import Statecraft

/// `statecraft check [--format text|json] [--warnings-as-errors] [PATH ...]`
enum CheckCommand {
    static let help = """
        USAGE: statecraft check [--format text|json] [--warnings-as-errors] [PATH ...]

        Parses and checks each spec: each file, or each *.machine file under each folder.
        With no PATH, checks the current folder.

        OPTIONS:
          --format text|json     Output format (default: text)
          --warnings-as-errors   Treat warnings as errors
          -h, --help             Show this help

        EXIT STATUS: 0 no errors, 1 errors found, 2 usage error or unreadable file.

        """

    enum Format: String, CaseIterable { case text, json }

    static func run(_ arguments: [String], console: Console) -> Int32 {
        let parsed: ParsedArguments
        let format: Format
        switch ParsedArguments.parse(arguments, flags: ["--warnings-as-errors"], options: ["--format"]).flatMap({ p in
            p.choice("--format", default: Format.text).map { (p, $0) }
        }) {
        case .success(let (p, f)):
            parsed = p
            format = f
        case .failure(let error):
            return usageError(error.message, console)
        }
        if parsed.wantsHelp {
            console.out(help)
            return ExitStatus.success
        }
        let strict = parsed.flags.contains("--warnings-as-errors")
        var paths = parsed.positionals
        if paths.isEmpty { paths = ["."] }

        let collected = SpecFiles.collect(paths)
        for problem in collected.problems { console.err("error: \(problem)\n") }
        if collected.files.isEmpty && collected.problems.isEmpty {
            console.err("error: no .machine files found in \(paths.map { "'\($0)'" }.joined(separator: ", "))\n")
            return ExitStatus.usage
        }
        var results: [CheckResult] = []
        var readFailures = collected.problems.count
        for path in collected.files {
            switch SpecFiles.read(path) {
            case .success(let file):
                var result = Statecraft.check(file)
                if strict {
                    result.diagnostics = result.diagnostics.map { d in
                        var d = d
                        if d.severity == .warning { d.severity = .error }
                        return d
                    }
                }
                results.append(result)
                if format == .text { console.out(renderText(result, colour: console.colour)) }
            case .failure(let problem):
                readFailures += 1
                console.err("error: \(problem.message)\n")
            }
        }
        let errors = results.reduce(0) { $0 + $1.errorCount }
        let warnings = results.reduce(0) { $0 + $1.warningCount }
        switch format {
        case .text:
            console.out(summary(files: results.count, errors: errors, warnings: warnings))
        case .json:
            console.out(DiagnosticJSON.render(results, errors: errors, warnings: warnings))
        }
        if readFailures > 0 { return ExitStatus.usage }
        return errors > 0 ? ExitStatus.failure : ExitStatus.success
    }

    static func renderText(_ result: CheckResult, colour: Bool) -> String {
        let renderer = DiagnosticRenderer(colour: colour)
        return result.diagnostics.map { renderer.render($0, in: result.file) }.joined()
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
