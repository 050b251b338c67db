import Foundation
import Statecraft

/// `statecraft fmt [--check] [PATH ...]`
enum FormatCommand {
    static let spec = CommandSpec(
        name: "fmt", positionals: "[PATH ...]", positionalsFirst: false,
        about: """
            Rewrites each spec in the canonical layout: each file, or each *.machine file under
            each folder. With no PATH, formats the current folder. A file with syntax errors is
            left as it is and its errors are printed. With PATH '-', reads standard input and
            writes the formatted spec to standard output.
            """,
        options: [
            OptionSpec("--check", .flag, """
                Change nothing: print a unified diff for each file that is
                not formatted, then the list of those files
                """),
        ],
        footer: """
            EXIT STATUS: 0 every file is formatted (or, with --check, already was), 1 a file has
            syntax errors or (with --check) is not formatted, 2 usage error or a file that cannot
            be read or written.
            """)

    static var help: String { spec.help }

    /// What happened to the files, for the summary and the exit status.
    private struct Tally {
        var files = 0
        var changed: [String] = []
        var refused = 0
        var unreadable = 0
    }

    static func run(_ arguments: [String], console: Console) -> Int32 {
        let parsed: ParsedArguments
        switch spec.start(arguments, console: console) {
        case .run(let p, _): parsed = p
        case .exit(let status): return status
        }
        let checkOnly = parsed.flags.contains("--check")
        var paths = parsed.positionals
        if paths.contains(InputFile.standardInput) {
            guard paths.count == 1 else { return spec.usageError("'-' (standard input) cannot be given with other paths", console) }
            return formatStandardInput(checkOnly: checkOnly, console: console)
        }
        if paths.isEmpty { paths = ["."] }
        let collected = SpecFiles.collect(paths, in: console.files)
        var tally = Tally()
        for problem in collected.problems {
            console.err("error: \(problem.message)\n")
            tally.unreadable += 1
        }
        if collected.files.isEmpty && collected.problems.isEmpty {
            console.err("error: no .machine files found in \(paths.map { "'\($0)'" }.joined(separator: ", "))\n")
            return ExitStatus.usage
        }
        for path in collected.files {
            let file: SourceFile
            switch SpecFiles.read(path, in: console.files) {
            case .success(let read): file = read
            case .failure(let problem):
                console.err("error: \(problem.message)\n")
                tally.unreadable += 1
                continue
            }
            tally.files += 1
            let result = SpecFormatter.format(file)
            guard let output = result.output else {
                report(result, console: console)
                tally.refused += 1
                continue
            }
            guard result.changed else { continue }
            if checkOnly {
                console.out(diff(result, output))
                tally.changed.append(path)
            } else if write(output, to: path, console: console) {
                tally.changed.append(path)
            } else {
                tally.unreadable += 1
            }
        }
        for path in tally.changed { console.out((checkOnly ? "would reformat " : "reformatted ") + path + "\n") }
        console.out(summary(tally, checkOnly: checkOnly))
        if tally.unreadable > 0 { return ExitStatus.usage }
        return tally.refused > 0 || (checkOnly && !tally.changed.isEmpty) ? ExitStatus.failure : ExitStatus.success
    }

    /// `fmt -`: the formatted spec (or, with `--check`, the diff) on standard output.
    private static func formatStandardInput(checkOnly: Bool, console: Console) -> Int32 {
        let file: SourceFile
        switch SpecFiles.read(InputFile.standardInput, in: console.files) {
        case .success(let read): file = read
        case .failure(let problem):
            console.err("error: \(problem.message)\n")
            return ExitStatus.usage
        }
        let result = SpecFormatter.format(file)
        guard let output = result.output else {
            report(result, console: console)
            return ExitStatus.failure
        }
        if !checkOnly {
            console.write(Data(output))
            return ExitStatus.success
        }
        guard result.changed else { return ExitStatus.success }
        console.out(diff(result, output))
        return ExitStatus.failure
    }

    /// The syntax errors of a file that was not formatted, or the formatter's own failure.
    private static func report(_ result: SpecFormatter.FormatResult, console: Console) {
        switch result.outcome {
        case .syntaxErrors(let diagnostics):
            let renderer = DiagnosticRenderer(colour: false)
            console.err(diagnostics.map { renderer.render($0, in: result.source) }.joined())
        case .failed(let offset, let message):
            let at = result.source.location(of: offset)
            console.err("error: cannot format '\(result.source.path)' (at \(at.line):\(at.column)): \(message); "
                        + "the file is left as it is (this is a bug in statecraft fmt)\n")
        case .formatted:
            break
        }
    }

    private static func diff(_ result: SpecFormatter.FormatResult, _ output: [UInt8]) -> String {
        let path = result.source.path
        return UnifiedDiff.diff(String(decoding: result.input, as: UTF8.self), String(decoding: output, as: UTF8.self),
                                oldName: path, newName: path + " (formatted)")
    }

    /// Replaces the file's contents: written beside it first, then renamed over it, so the
    /// file is never half written; the new file keeps the old one's permissions.
    private static func write(_ bytes: [UInt8], to path: String, console: Console) -> Bool {
        let target = URL(fileURLWithPath: console.resolve(path)).resolvingSymlinksInPath()
        let folder = target.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(target.lastPathComponent).fmt-\(ProcessInfo.processInfo.processIdentifier)")
        let fm = FileManager.default
        do {
            try Data(bytes).write(to: temporary)
            if let permissions = try? fm.attributesOfItem(atPath: target.path)[.posixPermissions] {
                try fm.setAttributes([.posixPermissions: permissions], ofItemAtPath: temporary.path)
            }
            guard rename(temporary.path, target.path) == 0 else {
                let reason = InputFile.describe(errno)
                try? fm.removeItem(at: temporary)
                console.err("error: cannot write '\(path)': \(reason)\n")
                return false
            }
            return true
        } catch {
            try? fm.removeItem(at: temporary)
            console.err("error: cannot write '\(path)': \(describe(error))\n")
            return false
        }
    }

    /// A write error in the words of the other messages (`permission denied`).
    private static func describe(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return InputFile.describe(Int32(underlying.code))
        }
        if nsError.domain == NSCocoaErrorDomain && nsError.code == NSFileWriteNoPermissionError {
            return InputFile.describe(EACCES)
        }
        return nsError.localizedDescription
    }

    private static func summary(_ tally: Tally, checkOnly: Bool) -> String {
        func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
        var parts = [checkOnly ? "\(tally.changed.count) would be reformatted" : "\(tally.changed.count) reformatted"]
        parts.append("\(tally.files - tally.changed.count - tally.refused) already formatted")
        if tally.refused > 0 { parts.append("\(tally.refused) with syntax errors") }
        return "\(count(tally.files, "file")): " + parts.joined(separator: ", ") + "\n"
    }
}
