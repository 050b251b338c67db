import Foundation
import TestSupport

/// A `console` block: commands after `$ `, each followed by the output it prints.
struct ConsoleSession {
    struct Command {
        /// The command as shown (continuation lines joined without their `\`).
        var text: String
        /// The lines shown after it, up to the next command.
        var expected: [String]
    }

    var commands: [Command] = []

    init(_ text: String) {
        let lines = outputLines(text)
        var i = 0
        while i < lines.count {
            let line = lines[i]
            if line.hasPrefix("$ ") {
                // A trailing backslash continues the command on the next line.
                var command = String(line.dropFirst(2))
                while command.hasSuffix("\\"), i + 1 < lines.count {
                    i += 1
                    command = String(command.dropLast()) + " " + lines[i].trimmingCharacters(in: .whitespaces)
                }
                commands.append(Command(text: command, expected: []))
            } else if commands.isEmpty {
                // Output before any command: kept under an empty command, which the test refuses.
                commands.append(Command(text: "", expected: [line]))
            } else {
                commands[commands.count - 1].expected.append(line)
            }
            i += 1
        }
    }

    /// Commands shown but not run: slow ones (a build, the whole suite, CI, a profiler) and
    /// ones that change the machine (installers) or need the network.
    /// (Every `swift` command but `swift run statecraft` is one of them.)
    static let notRun = ["swift", "bash .ci/run", "bash .ci/sanitizers", "Tests/Fuzz/fuzz", "Tests/Sanitizers/test",
                         "Tests/DocumentationTests/build-docs",
                         "apt-get", "sudo", "brew", "python3 -m pip", "pip", "docc", "git", "open", "xcrun",
                         "spark-submit", "valgrind"]

    static func isRun(_ command: String) -> Bool {
        // `NAME=value command` is judged by its command.
        var rest = Substring(command)
        while let space = rest.firstIndex(of: " "), rest[..<space].contains("="),
              rest.first.map({ $0.isLetter || $0 == "_" }) == true {
            rest = rest[rest.index(after: space)...].drop { $0 == " " }
        }
        let command = String(rest)
        if command.hasPrefix("swift run statecraft ") { return true }
        return !notRun.contains { command == $0 || command.hasPrefix($0 + " ") }
    }

    /// The command as the shell runs it: `swift run statecraft` is the built `statecraft`.
    static func shellText(_ command: String) -> String {
        command.hasPrefix("swift run statecraft ") ? String(command.dropFirst("swift run ".count)) : command
    }
}

/// Whether `actual` lines match `expected` lines, where a line `...` in `expected` matches any
/// number of lines (trailing spaces ignored on both sides).
func linesMatch(_ expected: [String], _ actual: [String]) -> Bool {
    let e = expected.map(trimTrailing)
    let a = actual.map(trimTrailing)
    // matches[i][j]: e[i...] matches a[j...].
    var matches = Array(repeating: Array(repeating: false, count: a.count + 1), count: e.count + 1)
    matches[e.count][a.count] = true
    for i in stride(from: e.count - 1, through: 0, by: -1) {
        for j in stride(from: a.count, through: 0, by: -1) {
            if e[i] == "..." {
                matches[i][j] = matches[i + 1][j] || (j < a.count && matches[i][j + 1])
            } else {
                matches[i][j] = j < a.count && e[i] == a[j] && matches[i + 1][j + 1]
            }
        }
    }
    return matches[0][0]
}

func trimTrailing(_ line: String) -> String {
    var s = Substring(line)
    while let last = s.last, last == " " || last == "\t" || last == "\r" { s = s.dropLast() }
    return String(s)
}

/// The lines of a command's output: split at newlines, without the empty piece after the last.
func outputLines(_ output: String) -> [String] {
    var lines = output.components(separatedBy: "\n")
    if lines.last == "" { lines.removeLast() }
    return lines
}

/// Runs shell commands as a reader of the documentation would, in one scratch folder.
struct Shell {
    let folder: URL
    /// The exit status of the last command, which `echo $?` shows.
    var lastStatus: Int32 = 0

    init(folder: URL) { self.folder = folder }

    /// Runs `command` as `/bin/sh` would, the built `statecraft` first on PATH; returns its
    /// standard output and standard error as one stream. A plain `statecraft` command (words
    /// without quotes, pipes, redirections or variables) runs in this process through the
    /// driver, which prints the same bytes as the binary; the rest goes to the shell.
    mutating func run(_ command: String, timeout: TimeInterval = 120) throws -> String {
        if command == "echo $?" { return "\(lastStatus)\n" }
        if let arguments = Self.plainStatecraftArguments(command) {
            let run = try CLI.runMerged(arguments, in: folder, environment: ["NO_COLOR": "1"])
            lastStatus = run.status
            return run.output
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", ConsoleSession.shellText(command)]
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        if let binary = CLI.executable {
            environment["PATH"] = binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        }
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: deadline)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        deadline.cancel()
        lastStatus = process.terminationStatus
        return String(decoding: data, as: UTF8.self)
    }

    /// The arguments of `statecraft ARGUMENT ...` when the shell would pass its words as they
    /// are (nothing it expands, quotes, redirects or chains); nil for any other command.
    static func plainStatecraftArguments(_ command: String) -> [String]? {
        let text = ConsoleSession.shellText(command)
        let special = Set("|&;<>()$`\\\"'*?[]{}~#\n\t")
        guard !text.contains(where: { special.contains($0) }) else { return nil }
        let words = text.split(separator: " ").map(String.init)
        guard words.first == "statecraft" else { return nil }
        return Array(words.dropFirst())
    }
}
