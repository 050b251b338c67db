import Foundation
import Statecraft

/// `statecraft merge REPORT.json ... [--format text|json]`
enum MergeCommand {
    enum Format: String, CaseIterable { case text, json }

    static let spec = CommandSpec(
        name: "merge", positionals: "REPORT.json ...", positionalsFirst: false,
        about: """
            Adds up summaries written by 'statecraft replay --summary --format json' over
            disjoint sets of logs (the parts of a distributed run): the result is what one
            replay over all the logs prints. The summaries must be of one machine.
            """,
        options: [
            .choice("--format", Format.self, "Output format (default: text)"),
        ],
        footer: """
            EXIT STATUS: 0 merged, 2 usage error, a report that cannot be read, or reports of
            different machines.
            """)

    static var help: String { spec.help }

    static func run(_ arguments: [String], console: Console) -> Int32 {
        let parsed: ParsedArguments
        let format: Format
        switch spec.start(arguments, console: console, reading: { $0.choice("--format", default: Format.text) }) {
        case .run(let p, let f): (parsed, format) = (p, f)
        case .exit(let status): return status
        }
        guard !parsed.positionals.isEmpty else {
            return spec.usageError("missing the REPORT.json arguments", console)
        }
        var merged: SummaryDocument?
        for path in parsed.positionals {
            let bytes: [UInt8]
            switch InputFile.read(path, in: console.files) {
            case .success(let b): bytes = b
            case .failure(let problem):
                console.err("error: \(problem.message)\n")
                return ExitStatus.usage
            }
            let document: SummaryDocument
            switch ReplaySummaryJSON.read(bytes) {
            case .success(let d): document = d
            case .failure(let error):
                console.err("error: \(path): \(error.message)\n")
                return ExitStatus.usage
            }
            guard let sum = merged else {
                merged = document
                continue
            }
            if let mismatch = sum.mismatch(document) {
                console.err("error: \(path): \(mismatch)\n")
                return ExitStatus.usage
            }
            merged?.summary = sum.summary + document.summary
        }
        guard let merged else { return ExitStatus.usage }
        switch format {
        case .text: console.out(ReplaySummaryText.render(merged))
        case .json: console.out(ReplaySummaryJSON.render(merged))
        }
        return ExitStatus.success
    }
}
