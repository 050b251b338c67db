import Foundation
import Statecraft

/// `statecraft paths SPEC [--emit DIR] [--cover transitions|states] [--max-depth N] [--max-configurations N]`
enum PathsCommand {
    static let spec = CommandSpec(
        name: "paths", positionals: "SPEC", positionalsFirst: true,
        about: """
            Generates tests from the model: for every transition (or state), an event log that
            reaches it, with an expectation line after each step. Logs whose steps are a prefix of
            another's are merged into it, so the set stays small. Without --emit, prints a table
            of the targets and the log that reaches each.
            """,
        options: [
            OptionSpec("--emit", .value("DIR"), """
                Write one .jsonl file per log into DIR: a new or empty
                folder, or one an earlier 'paths' wrote (its logs are replaced)
                """),
            .choice("--cover", TestGeneration.Cover.self, "What the logs must reach (default: transitions)"),
            OptionSpec("--max-depth", .value("N"), "Longest witness searched (default 12)"),
            OptionSpec("--max-configurations", .value("N"), "Most configurations searched (default 5000)"),
        ],
        footer: """
            Every log replays cleanly: statecraft replay SPEC DIR/01-….jsonl

            EXIT STATUS: 0 every target has a log, 1 some target has none (each is named, with why),
            2 usage error, a spec with errors, or a folder that cannot be written.
            """)

    static var help: String { spec.help }

    static func run(_ arguments: [String], console: Console) -> Int32 {
        let parsed: ParsedArguments
        let cover: TestGeneration.Cover
        let bounds: ExplorationBounds
        switch spec.start(arguments, console: console, reading: { p in
            p.choice("--cover", default: TestGeneration.Cover.transitions).flatMap { c in p.bounds().map { (c, $0) } }
        }) {
        case .run(let p, let (c, b)): (parsed, cover, bounds) = (p, c, b)
        case .exit(let status): return status
        }
        guard parsed.positionals.count == 1, let specPath = parsed.positionals.first else {
            return spec.usageError("expected one SPEC", console)
        }
        guard let file = ReplayCommand.readSpec(specPath, console: console) else { return ExitStatus.usage }
        let result = Statecraft.check(file, bounds: bounds)
        guard let machine = result.machine, let report = result.exploration else {
            console.err(CheckText.diagnostics(result, colour: false))
            console.err("error: '\(specPath)' has errors; fix them with 'statecraft check' first\n")
            return ExitStatus.usage
        }
        let (logs, targets) = TestGeneration.generate(machine, report, cover: cover)
        if let dir = parsed.values["--emit"] {
            if let problem = emit(logs, into: dir, in: console.files) {
                console.err("error: \(problem)\n")
                return ExitStatus.usage
            }
        }
        console.out(PathsText.table(targets, logs: logs, emittedTo: parsed.values["--emit"]))
        if let missed = PathsText.missed(targets) {
            console.err(missed)
            return ExitStatus.failure
        }
        return ExitStatus.success
    }

    /// Writes the logs into `dir`: a new or empty folder, or one that holds only what an
    /// earlier `paths` wrote (which is replaced). Returns what went wrong, if anything.
    static func emit(_ logs: [TestGeneration.Log], into dir: String, in context: InputFile.Context) -> String? {
        LogFolder(writer: "paths", manifestName: ".statecraft-paths", advice: "emit into a new or empty folder")
            .write(logs.map { ($0.file, $0.text) }, into: dir, in: context)
    }
}

/// A folder a command writes logs into (`paths --emit`, `check --counterexamples`): a new
/// or empty one, or one that holds only what an earlier run of the same command wrote,
/// which is replaced. A manifest lists what was written, so that a later run replaces
/// exactly those files and never leaves a stale log beside the new ones, and never
/// deletes a file of the user's.
struct LogFolder {
    /// The command, as the refusal names it.
    var writer: String
    /// The manifest's file name in the folder.
    var manifestName: String
    /// What to do instead when the folder holds other files.
    var advice: String

    /// Writes `files` (name, text) into `dir`; returns what went wrong, if anything.
    func write(_ files: [(name: String, text: String)], into dir: String, in context: InputFile.Context) -> String? {
        let fm = FileManager.default
        let url = URL(fileURLWithPath: context.resolve(dir))
        let manifest = url.appendingPathComponent(manifestName)
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { return "cannot write into '\(dir)': it is a file, not a folder" }
            let previous = Set(((try? String(contentsOf: manifest, encoding: .utf8)) ?? "")
                .split(separator: "\n").map(String.init))
            let present = ((try? fm.contentsOfDirectory(atPath: url.path)) ?? []).filter { $0 != manifestName }
            let foreign = present.filter { !previous.contains($0) }.sorted()
            guard foreign.isEmpty else {
                let shown = foreign.prefix(3).map { "'\($0)'" }.joined(separator: ", ") + (foreign.count > 3 ? ", …" : "")
                return "'\(dir)' holds files that '\(writer)' did not write (\(shown)); \(advice)"
            }
            for name in present { try? fm.removeItem(at: url.appendingPathComponent(name)) }
        }
        do {
            try fm.createDirectory(at: url, withIntermediateDirectories: true)
            for file in files { try Data(file.text.utf8).write(to: url.appendingPathComponent(file.name)) }
            try Data((files.map(\.name).joined(separator: "\n") + "\n").utf8).write(to: manifest)
        } catch {
            return "cannot write into '\(dir)': \(error.localizedDescription)"
        }
        return nil
    }
}

extension ParsedArguments {
    /// The exploration bounds from `--max-depth` and `--max-configurations`.
    func bounds() -> Result<ExplorationBounds, UsageError> {
        var bounds = ExplorationBounds()
        for (option, apply) in [("--max-depth", { (b: inout ExplorationBounds, n: Int) in b.maxDepth = n }),
                                ("--max-configurations", { (b: inout ExplorationBounds, n: Int) in b.maxConfigurations = n })] {
            guard let word = values[option] else { continue }
            guard let n = Int(word), n > 0 else { return .failure(UsageError("\(option) takes a positive whole number, not '\(word)'")) }
            apply(&bounds, n)
        }
        return .success(bounds)
    }
}
