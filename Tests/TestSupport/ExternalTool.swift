import Foundation

/// A program the cross-checks run (xmllint, python3, pytest): found on `PATH`, run with pipes.
public struct ExternalTool: Sendable {
    /// Where the program is.
    public let path: String

    /// The executable `name` on `PATH` (the one a shell would run), else in the usual
    /// places; nil when it is not installed.
    public static func find(_ name: String) -> ExternalTool? {
        var candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { $0 + "/" + name }
        candidates += ["/usr/bin/", "/usr/local/bin/", "/opt/homebrew/bin/"].map { $0 + name }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map(ExternalTool.init)
    }

    /// Whether the environment variable `name` is set (to anything but an empty string):
    /// CI sets it so that a missing tool fails instead of skipping.
    public static func isRequired(_ name: String) -> Bool {
        !(ProcessInfo.processInfo.environment[name] ?? "").isEmpty
    }

    /// How a run ended and what it wrote.
    public struct Run: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs the tool with `arguments` (in `directory`, with `environment` when given), nothing
    /// on standard input, both outputs read while it runs.
    public func run(_ arguments: [String], environment: [String: String]? = nil,
                    directory: URL? = nil) throws -> Run {
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

/// A file in a fresh temporary folder, removed by `remove()`.
public struct TemporaryFile {
    /// The file.
    public let url: URL

    /// Writes `contents` to a file called `name` in a new folder.
    public init(name: String, contents: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-scxml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        url = folder.appendingPathComponent(name)
        try contents.write(to: url, atomically: true, encoding: .utf8)
    }

    /// Removes the file and its folder.
    public func remove() { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
}
