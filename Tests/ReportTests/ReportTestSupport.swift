import Foundation
import Statecraft
import Testing
import TestSupport

/// What the report tests share: the specs to report on, a scratch folder, and Python with
/// the consumers that read our output back.
enum ReportTesting {
    static let schemas = Repository.root.appendingPathComponent("Tests/ReportTests/Schema")
    static let python = Repository.root.appendingPathComponent("Tests/ReportTests/python")

    /// Every spec the tests report on: the checker's fixtures (every diagnostic id has one)
    /// and the bundled specs, as paths relative to the repository's root.
    static var specPaths: [String] {
        let fixtures = Repository.root.appendingPathComponent("Tests/CheckerTests/Fixtures")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        return names.filter { $0.hasSuffix(".machine") }.sorted().map { "Tests/CheckerTests/Fixtures/" + $0 }
            + Repository.specFiles().map { "Specs/" + $0.lastPathComponent }
    }

    /// `check` of one spec, as the command runs it.
    static func check(_ path: String) -> CheckResult {
        let bytes = Repository.bytes(Repository.root.appendingPathComponent(path))
        return Statecraft.check(SourceFile(path: path, bytes: bytes))
    }

    /// A fresh folder for files the consumers read; the caller removes it.
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// python3, if it can import every one of `modules`; otherwise the test stops here,
    /// skipped, unless the environment variable `required` is set: CI sets it, so there a
    /// missing consumer fails the test instead.
    static func python(importing modules: [String], required: String) throws -> ExternalTool {
        let found = ExternalTool.find("python3")
        let usable = try found.map { try $0.run(["-c", "import " + modules.joined(separator: ", ")]).status == 0 } ?? false
        return try ExternalTool.require(usable ? found : nil, "python3 cannot import \(modules.joined(separator: ", "))",
                                        unlessRequiredBy: required)
    }

    /// Runs a script of `Tests/ReportTests/python` and decodes the JSON it prints.
    static func run<T: Decodable>(_ python: ExternalTool, _ script: String, _ arguments: [String],
                                  as: T.Type) throws -> T {
        let run = try python.run([ReportTesting.python.appendingPathComponent(script).path] + arguments)
        guard run.status == 0 else {
            throw NSError(domain: "python", code: Int(run.status), userInfo: [NSLocalizedDescriptionKey: run.stderr])
        }
        return try JSONDecoder().decode(T.self, from: Data(run.stdout.utf8))
    }
}
