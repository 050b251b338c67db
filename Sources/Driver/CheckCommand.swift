import Foundation
import Statecraft

/// `statecraft check [--format text|json|sarif|github] [--warnings-as-errors] [--counterexamples DIR] [PATH ...]`
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
                shortest event sequence that gets there), or why not; and
                every property's verdict, the proven ones with their proof
                """),
            OptionSpec("--counterexamples", .value("DIR"), """
                Write each violated property's counterexample to
                DIR/NAME.jsonl, a log that replay reproduces (DIR: a new
                or empty folder, or one an earlier run wrote)
                """),
            OptionSpec("--max-depth", .value("N"), "Longest witness the search tries (default 12)"),
            OptionSpec("--max-configurations", .value("N"), "Most configurations the search visits (default 5000)"),
            OptionSpec("--reach", .value("STATE|LINE"), """
                Search only for a way to one state (its name, or a path
                of parents such as form.payment) or to the transitions
                on one line of the spec, and print it; one spec only
                """),
        ],
        footer: """
            EXIT STATUS: 0 no errors, 1 errors found, 2 usage error or unreadable file.
            With --reach: 0 reached, 1 proven unreachable, 2 usage error, unreadable
            file or a spec with errors, 3 not reached within the search's limits.
            """)

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
        if let target = parsed.values["--reach"] {
            guard format == .text else { return spec.usageError("--reach prints text; it takes no --format \(format.rawValue)", console) }
            return reach(target, paths: parsed.positionals, bounds: bounds, console: console)
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
                    console.out(CheckText.diagnostics(result, colour: console.colour, proofs: witnesses))
                    if witnesses { console.out(CheckText.witnesses(result)) }
                }
            case .failure(let problem):
                report.unreadable.append(UnreadableFile(path: problem.path, message: problem.message))
                console.err("error: \(problem.message)\n")
            }
        }
        if let dir = parsed.values["--counterexamples"] {
            // One folder for every spec checked: two specs' properties of one name collide.
            var files: [(name: String, text: String)] = []
            var owner: [String: String] = [:]
            for result in report.files {
                guard let machine = result.machine, let exploration = result.exploration else { continue }
                for log in Counterexamples.logs(machine, exploration) {
                    if let other = owner[log.file] {
                        console.err("error: two specs have a violated property '\(log.property)' ('\(other)' and "
                            + "'\(result.file.path)'); check them one at a time to write their counterexamples\n")
                        return ExitStatus.usage
                    }
                    owner[log.file] = result.file.path
                    files.append((log.file, log.text))
                }
            }
            let folder = LogFolder(writer: "check", manifestName: ".statecraft-counterexamples",
                                   advice: "write counterexamples into a new or empty folder")
            if let problem = folder.write(files, into: dir, in: console.files) {
                console.err("error: \(problem)\n")
                return ExitStatus.usage
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

    /// `check --reach TARGET SPEC`: the whole search budget spent on one target; prints its
    /// witness, the proof that it is unreachable, or why the search stopped short.
    static func reach(_ word: String, paths: [String], bounds: ExplorationBounds, console: Console) -> Int32 {
        let collected = SpecFiles.collect(paths.isEmpty ? ["."] : paths, in: console.files)
        for problem in collected.problems { console.err("error: \(problem.message)\n") }
        if !collected.problems.isEmpty { return ExitStatus.usage }
        guard collected.files.count == 1, let path = collected.files.first else {
            return spec.usageError("--reach searches one spec; found \(collected.files.count)", console)
        }
        let file: SourceFile
        switch SpecFiles.read(path, in: console.files) {
        case .success(let read): file = read
        case .failure(let problem):
            console.err("error: \(problem.message)\n")
            return ExitStatus.usage
        }
        let checked = Statecraft.check(file, bounds: nil)
        guard let machine = checked.machine, checked.errorCount == 0 else {
            console.out(CheckText.diagnostics(checked, colour: console.colour))
            console.err("error: '\(path)' has errors; --reach searches only a spec without them\n")
            return ExitStatus.usage
        }
        let target: TargetedSearch.Target
        switch TargetedSearch.target(word, in: machine) {
        case .success(let t): target = t
        case .failure(let problem):
            console.err("error: '\(path)' \(problem.message)\n")
            return ExitStatus.usage
        }
        let report = TargetedSearch.run(machine, target: target, bounds: bounds)
        console.out(CheckText.reach(report, target: target, machine: machine, path: path))
        let findings: [ExplorationReport.Finding] = switch target {
        case .state(let s): [report.exploration.states[s.index]]
        case .transitions(let ts): ts.map { report.exploration.transitions[$0.index] }
        }
        if findings.allSatisfy({ if case .reached = $0 { true } else { false } }) { return ExitStatus.success }
        if findings.contains(.notReached) { return 3 }
        return ExitStatus.failure
    }
}
