import Foundation
import Statecraft

/// `statecraft check [--format text|json|sarif|github] [--warnings-as-errors] [PATH ...]`
enum CheckCommand {
    enum Format: String, CaseIterable { case text, json, sarif, github }

    static let spec = CommandSpec(
        name: "check", positionals: "[PATH ...]", positionalsFirst: false,
        about: """
            Parses and checks each spec: each file, or each *.machine file under each folder.
            With no PATH, checks the current folder.
            """,
        options: [
            .choice("--format", Format.self, """
                Output format (default: text); sarif writes SARIF 2.1.0
                for code scanning (paths relative to the current folder);
                github prints workflow commands that annotate the pull request
                """),
            OptionSpec("--warnings-as-errors", .flag, "Treat warnings as errors"),
            OptionSpec("--witnesses", .flag, """
                Also list every state and transition: reached (with the
                shortest event sequence that gets there), or why not
                """),
            OptionSpec("--max-depth", .value("N"), "Longest witness the search tries (default 12)"),
            OptionSpec("--max-configurations", .value("N"), "Most configurations the search visits (default 5000)"),
        ],
        footer: "EXIT STATUS: 0 no errors, 1 errors found, 2 usage error or unreadable file.")

    static var help: String { spec.help }

    static func run(_ arguments: [String], console: Console) -> Int32 {
        let parsed: ParsedArguments
        let format: Format
        let bounds: ExplorationBounds
        switch spec.start(arguments, console: console, reading: { p in
            p.choice("--format", default: Format.text).flatMap { f in p.bounds().map { (f, $0) } }
        }) {
        case .run(let p, let (f, b)): (parsed, format, bounds) = (p, f, b)
        case .exit(let status): return status
        }
        let strict = parsed.flags.contains("--warnings-as-errors")
        let witnesses = parsed.flags.contains("--witnesses")
        var paths = parsed.positionals
        if paths.isEmpty { paths = ["."] }

        let collected = SpecFiles.collect(paths, in: console.files)
        var report = CheckReport(files: [], unreadable: collected.problems.map { UnreadableFile(path: $0.path, message: $0.message) })
        for problem in collected.problems { console.err("error: \(problem.message)\n") }
        if collected.files.isEmpty && collected.problems.isEmpty {
            console.err("error: no .machine files found in \(paths.map { "'\($0)'" }.joined(separator: ", "))\n")
            return ExitStatus.usage
        }
        for path in collected.files {
            switch SpecFiles.read(path, in: console.files) {
            case .success(let file):
                var result = Statecraft.check(file, bounds: bounds)
                if strict {
                    result.diagnostics = result.diagnostics.map { d in
                        var d = d
                        if d.severity == .warning { d.severity = .error }
                        return d
                    }
                }
                report.files.append(result)
                // Text is written file by file, so a long run shows its findings as it goes.
                if format == .text {
                    console.out(CheckText.diagnostics(result, colour: console.colour))
                    if witnesses { console.out(CheckText.witnesses(result)) }
                }
            case .failure(let problem):
                report.unreadable.append(UnreadableFile(path: problem.path, message: problem.message))
                console.err("error: \(problem.message)\n")
            }
        }
        switch format {
        case .text: console.out(CheckText.summary(report))
        case .json: console.out(CheckJSON.rendered(report))
        case .sarif:
            console.out(CheckSARIF.rendered(report, root: console.directory, toolVersion: Driver.version))
        case .github: console.out(GitHubAnnotations.check(report) + CheckText.summary(report))
        }
        if !report.unreadable.isEmpty { return ExitStatus.usage }
        return report.errorCount > 0 ? ExitStatus.failure : ExitStatus.success
    }
}
