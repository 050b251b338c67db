import Foundation
import StatecraftAnalysis
import StatecraftDiagnostics
import StatecraftDriver
import Testing

/// Paths of the repository, found from this file's location so tests run from any folder.
package enum Repository {
    /// The repository's root folder.
    package static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Specs/`.
    package static var specs: URL { root.appendingPathComponent("Specs") }

    /// The `*.machine` files in `Specs/`, sorted.
    package static func specFiles() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: specs.path)) ?? []
        return names.filter { $0.hasSuffix(".machine") }.sorted().map { specs.appendingPathComponent($0) }
    }

    /// Reads a file's bytes (empty if it cannot be read, which the calling test then notices).
    package static func bytes(_ url: URL) -> [UInt8] {
        (try? Data(contentsOf: url)).map { [UInt8]($0) } ?? []
    }
}

/// Golden files: expected output checked into the repository next to the tests.
///
/// Set `STATECRAFT_RECORD=1` to rewrite them from the current output; the comparison still
/// fails in that run, so a recording is never mistaken for a pass.
package enum Golden {
    /// Compares `actual` with the golden file; returns nil when they match, else a message
    /// naming the first differing line.
    package static func compare(_ actual: String, to url: URL) -> String? {
        if ProcessInfo.processInfo.environment["STATECRAFT_RECORD"] == "1" {
            try? actual.write(to: url, atomically: true, encoding: .utf8)
            return "recorded \(url.lastPathComponent); run the tests again without STATECRAFT_RECORD"
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            return "missing golden file \(url.path); run with STATECRAFT_RECORD=1 to create it"
        }
        if expected == actual { return nil }
        let e = expected.components(separatedBy: "\n")
        let a = actual.components(separatedBy: "\n")
        for i in 0..<max(e.count, a.count) {
            let el = i < e.count ? e[i] : "<end of file>"
            let al = i < a.count ? a[i] : "<end of output>"
            if el != al {
                return "\(url.lastPathComponent):\(i + 1) differs\n  expected: \(el)\n  actual:   \(al)"
            }
        }
        return "\(url.lastPathComponent) differs"
    }
}

/// Runs `statecraft` commands: in this process through the driver (`run`), which is what most
/// tests want, or as the built executable a user runs (`launch`), for what only a process
/// shows: its exit on a signal, real pipes and terminals, the language server's streams.
///
/// Both give the same `Result` for the same command, byte for byte: the driver is the whole
/// program but for `main.swift`, which only hands it the standard streams. In process, a
/// command costs no process start (several hundred of them per run of the suite, each slower
/// still under a sanitizer).
package enum CLI {
    /// What a run produced.
    package struct Result: Sendable {
        package var status: Int32
        /// False when the process died from a signal (a crash). Always true in process: a
        /// crash there ends the test run.
        package var exitedNormally: Bool
        package var stdout: String
        package var stderr: String
    }

    /// The `statecraft` binary next to the test bundle in the build folder.
    package static var executable: URL? {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<5 {
            let candidate = dir.appendingPathComponent("statecraft")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        for bundle in Bundle.allBundles {
            let candidate = bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("statecraft")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Runs `statecraft arguments` in this process, as `launch` would run it in `directory`:
    /// relative paths start there, `environment` is added to this process's, `input` (or
    /// nothing, as from /dev/null) arrives through a pipe on what the command takes for
    /// standard input, and standard output and error are collected apart.
    package static func run(_ arguments: [String], in directory: URL = Repository.root,
                           environment: [String: String] = [:], input: String? = nil) throws -> Result {
        let streams = Streams()
        let status = try inProcess(arguments, in: directory, environment: environment, input: input,
                                   out: { streams.append(.out, Data($0.utf8)) },
                                   err: { streams.append(.err, Data($0.utf8)) },
                                   write: { streams.append(.out, $0) })
        return Result(status: status, exitedNormally: true, stdout: streams.text(.out), stderr: streams.text(.err))
    }

    /// Runs `statecraft arguments` in this process with both outputs in one stream, in the
    /// order they were written: what a terminal shows (the documentation's console blocks).
    package static func runMerged(_ arguments: [String], in directory: URL,
                                 environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let streams = Streams()
        let status = try inProcess(arguments, in: directory, environment: environment, input: nil,
                                   out: { streams.append(.out, Data($0.utf8)) },
                                   err: { streams.append(.out, Data($0.utf8)) },
                                   write: { streams.append(.out, $0) })
        return (status, streams.text(.out))
    }

    /// The driver with a console of the test's: the folder and the environment of the run,
    /// standard input from a pipe (or /dev/null), and no terminal anywhere, as `launch` has it.
    private static func inProcess(_ arguments: [String], in directory: URL, environment: [String: String],
                                  input: String?, out: @escaping @Sendable (String) -> Void,
                                  err: @escaping @Sendable (String) -> Void,
                                  write: @escaping @Sendable (Data) -> Void) throws -> Int32 {
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        // A command that fails before it reads its input closes nothing here, but the writer
        // below must see an error, not a SIGPIPE that ends the test process, once we close the
        // pipe's reading end.
        _ = ignoreBrokenPipes
        let reading: Int32
        var writing = false
        let done = DispatchSemaphore(value: 0)
        if let input {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw NSError(domain: "CLI", code: Int(errno)) }
            reading = ends[0]
            let end = ends[1]
            let data = [UInt8](input.utf8)
            // Written from another thread, so a large input cannot deadlock against a command
            // that reads it a piece at a time.
            let thread = Thread {
                var offset = 0
                while offset < data.count {
                    let n = data[offset...].withUnsafeBytes { systemWrite(end, $0.baseAddress, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { break }
                    offset += n
                }
                close(end)
                done.signal()
            }
            thread.start()
            writing = true
        } else {
            reading = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard reading >= 0 else { throw NSError(domain: "CLI", code: Int(errno)) }
        }
        let console = Console(out: out, err: err, write: write, colour: false, inputIsTerminal: false,
                              errorIsTerminal: false,
                              files: InputFile.Context(directory: directory.path, standardInput: reading),
                              environment: env)
        let status = Driver.run(arguments, console: console)
        // Closing the reading end ends a writer whose input was never read (it gets EPIPE).
        close(reading)
        if writing { done.wait() }
        return status
    }

    /// Standard output and error collected from any thread (a replay's trace thread writes).
    private final class Streams: @unchecked Sendable {
        enum Stream { case out, err }
        private let lock = NSLock()
        private var out = Data()
        private var err = Data()

        func append(_ stream: Stream, _ data: Data) {
            lock.lock()
            defer { lock.unlock() }
            switch stream {
            case .out: out.append(data)
            case .err: err.append(data)
            }
        }

        func text(_ stream: Stream) -> String {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: stream == .out ? out : err, as: UTF8.self)
        }
    }

    /// Runs the built `statecraft` executable as a user would: `statecraft arguments` in
    /// `directory` with stdout piped and `input` (or nothing) on standard input.
    package static func launch(_ arguments: [String], in directory: URL = Repository.root,
                              environment: [String: String] = [:], input: String? = nil) throws -> Result {
        guard let executable else {
            throw NSError(domain: "CLI", code: 1, userInfo: [NSLocalizedDescriptionKey: "statecraft binary not found"])
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        // A command that fails before it reads its input closes the pipe: writing to it
        // then must be an error for the writer, not a SIGPIPE that ends the test process.
        _ = ignoreBrokenPipes
        try process.run()
        if let input {
            // Write from another thread so a large input cannot deadlock against the output.
            let data = Data(input.utf8)
            let handle = stdin.fileHandleForWriting
            DispatchQueue.global().async {
                try? handle.write(contentsOf: data)
                try? handle.close()
            }
        }
        // Read both pipes while the process runs, so a large output cannot block it.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            outData = out.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      exitedNormally: process.terminationReason == .exit,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// `write(2)`, by a name no parameter hides.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// Set once, before the first command's input is written (see `CLI.run`).
private let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

/// The library's deterministic generator, so fuzz tests repeat exactly.
package typealias SeededGenerator = SplitMix64

/// Damage for fuzz tests: a few bytes flipped, dropped or doubled.
package enum Mutation {
    /// Applies one to three random edits to `bytes`.
    package static func damage(_ bytes: inout [UInt8], using rng: inout SeededGenerator) {
        for _ in 0..<Int.random(in: 1...3, using: &rng) where !bytes.isEmpty {
            let i = Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: bytes[i] = UInt8.random(in: 0...255, using: &rng)
            case 1: bytes.remove(at: i)
            default: bytes.insert(bytes[i], at: i)
            }
        }
    }
}

/// A program the cross-checks run (xmllint, python3, pytest): found on `PATH`, run with pipes, so a
/// test can hand our output to a real consumer.
package struct ExternalTool: Sendable {
    package let path: String

    package init(path: String) { self.path = path }

    /// The executable `name` on `PATH` (the one a shell would run), else in the usual
    /// places; nil when it is not installed.
    package static func find(_ name: String) -> ExternalTool? {
        var candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { $0 + "/" + name }
        candidates += ["/usr/bin/", "/usr/local/bin/", "/opt/homebrew/bin/"].map { $0 + name }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map(ExternalTool.init)
    }

    /// Whether the environment variable `name` is set (to anything but an empty string):
    /// CI sets it so that a missing tool fails instead of skipping.
    package static func isRequired(_ name: String) -> Bool {
        !(ProcessInfo.processInfo.environment[name] ?? "").isEmpty
    }

    /// `tool`, or else the running test stops: reported as skipped (never as passed), or as
    /// failed when the environment variable `required` is set (CI sets it: there a missing
    /// tool is an error). `what` names what is missing and how to get it.
    package static func require(_ tool: ExternalTool?, _ what: String, unlessRequiredBy required: String,
                               sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> ExternalTool {
        guard let tool else { throw try Skip.missing(what, unlessRequiredBy: required, sourceLocation: sourceLocation) }
        return tool
    }

    package struct Run: Sendable {
        package var status: Int32
        package var stdout: String
        package var stderr: String
    }

    /// Runs the tool with `arguments` (in `directory`, with `environment` in place of ours,
    /// when given), nothing on standard input, both outputs read while it runs.
    package func run(_ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// Skipping the rest of a test, so that the run reports it skipped rather than passed.
package enum Skip {
    /// Why a required tool is missing: thrown, so the test fails.
    package struct Missing: Error, CustomStringConvertible {
        package var description: String
    }

    /// Returns when `condition` holds; otherwise skips the running test (`Test.cancel`), or,
    /// when the environment variable `required` is set, fails it.
    package static func unless(_ condition: Bool, _ what: String, unlessRequiredBy required: String,
                              sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        if condition { return }
        throw try missing(what, unlessRequiredBy: required, sourceLocation: sourceLocation)
    }

    /// The error that fails the test when `required` is set; otherwise the test is skipped
    /// here (`Test.cancel` throws).
    package static func missing(_ what: String, unlessRequiredBy required: String,
                               sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Missing {
        if ExternalTool.isRequired(required) { return Missing(description: "\(what), and \(required) is set") }
        try Test.cancel("\(what); set \(required)=1 to fail instead", sourceLocation: sourceLocation)
    }
}

/// Pictures committed to the repository (the README's, the articles', the tutorials'), each
/// drawn by `statecraft dot -T svg`, so that one cannot go stale without a test failing.
package enum CommittedDrawing {
    /// Nil when the committed SVG is what the tool draws today (`fresh`): byte for byte under
    /// the Graphviz that drew it, and with the same titles and texts, in order, under another
    /// (whose layout may differ by a point); otherwise what differs.
    package static func difference(committed: String, fresh: String) -> String? {
        if graphvizVersion(committed) == graphvizVersion(fresh) {
            return committed == fresh ? nil : "the SVG differs from what statecraft dot draws now"
        }
        let (old, new) = (texts(committed), texts(fresh))
        return old == new ? nil : "the drawing's titles and texts differ: \(old) against \(new) now"
    }

    /// The comment in which Graphviz names its version.
    package static func graphvizVersion(_ svg: String) -> String? {
        svg.components(separatedBy: "\n").first { $0.contains("Generated by graphviz version") }
    }

    /// What the SVG's `<title>` and `<text>` elements say, in order (Graphviz writes one per
    /// line): the drawing's content without its coordinates.
    package static func texts(_ svg: String) -> [String] {
        svg.components(separatedBy: "\n").compactMap { line -> String? in
            guard line.hasPrefix("<title>") || line.hasPrefix("<text ") else { return nil }
            guard let open = line.firstIndex(of: ">"), let close = line.range(of: "</", options: .backwards) else { return nil }
            return String(line[line.index(after: open)..<close.lowerBound])
        }
    }
}
