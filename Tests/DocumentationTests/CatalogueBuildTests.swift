import Foundation
import Testing
import TestSupport

/// The DocC catalogue builds as a reader's `docc convert` would build it, with warnings as
/// errors (a broken symbol link or a missing article fails), and every public symbol of the
/// library has its summary.
///
/// The symbol graph comes from the modules this test run already built
/// (`swift-symbolgraph-extract` on the `Statecraft` module, taking in the modules it
/// re-exports), so the test costs seconds, not a second build. Set `STATECRAFT_REQUIRE_DOCC=1`
/// (CI does) to fail instead of skipping when the toolchain's `docc` cannot be found.
@Suite(.enabled(if: SymbolGraph.isWanted, "the documentation is not built under a sanitizer"))
struct CatalogueBuildTests {
    @Test func theCatalogueBuildsWithWarningsAsErrors() throws {
        let graphs = try SymbolGraph.extract()
        let docc = try ExternalTool.require(Toolchain.find("docc"), "docc is not installed",
                                            unlessRequiredBy: "STATECRAFT_REQUIRE_DOCC")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-docc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try docc.run(["convert", Documentation.catalogue.path,
                                "--additional-symbol-graph-dir", graphs.path,
                                "--output-path", output.path,
                                "--fallback-display-name", "Statecraft",
                                "--fallback-bundle-identifier", "org.statecraft.Statecraft",
                                "--warnings-as-errors"])
        #expect(run.status == 0, "docc convert failed:\n\(run.stderr)\n\(run.stdout)")
        let warnings = (run.stdout + run.stderr).components(separatedBy: "\n")
            .filter { $0.contains("warning:") || $0.contains("error:") }
        #expect(warnings.isEmpty, "docc reported:\n\(warnings.joined(separator: "\n"))")
        // The build has the landing page and the articles the landing page lists.
        let data = output.appendingPathComponent("data/documentation")
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("statecraft.json").path))
    }

    @Test func everyPublicSymbolHasASummary() throws {
        let graphs = try SymbolGraph.extract()
        let data = try Data(contentsOf: graphs.appendingPathComponent("Statecraft.symbols.json"))
        let graph = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let symbols = try #require(graph["symbols"] as? [[String: Any]])
        #expect(symbols.count > 500, "the symbol graph holds the re-exported modules' symbols")
        let sources = Repository.root.appendingPathComponent("Sources").path + "/"
        var missing: [String] = []
        for symbol in symbols {
            // Members the compiler writes (Equatable's ==, Codable) have no place in our files.
            guard let location = symbol["location"] as? [String: Any], let uri = location["uri"] as? String,
                  let path = URL(string: uri)?.path, path.hasPrefix(sources) else { continue }
            let lines = ((symbol["docComment"] as? [String: Any])?["lines"] as? [[String: Any]]) ?? []
            let summary = lines.compactMap { $0["text"] as? String }.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            if summary == nil {
                let name = (symbol["pathComponents"] as? [String])?.joined(separator: ".") ?? "?"
                let line = ((location["position"] as? [String: Any])?["line"] as? Int).map { $0 + 1 } ?? 0
                missing.append("\(path.dropFirst(sources.count - "Sources/".count)):\(line): \(name)")
            }
        }
        #expect(missing.isEmpty, "\(missing.count) public symbols without a summary:\n\(missing.prefix(40).joined(separator: "\n"))")
    }
}

/// The toolchain's own tools: on PATH beside `swift`, or through `xcrun` on macOS.
enum Toolchain {
    static func find(_ name: String) -> ExternalTool? {
        if let tool = ExternalTool.find(name) { return tool }
        if let xcrun = ExternalTool.find("xcrun"), let run = try? xcrun.run(["--find", name]), run.status == 0 {
            let path = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            if !path.isEmpty { return ExternalTool(path: path) }
        }
        return nil
    }
}

/// The `Statecraft` module's symbol graph, extracted once per test run.
enum SymbolGraph {
    /// Not under a sanitizer, whose build the documentation does not depend on (the tests
    /// that need the graph are skipped there).
    static let isWanted = ProcessInfo.processInfo.environment["STATECRAFT_SANITIZER"] == nil

    /// Whether the toolchain has the extractor (tests that only count symbols skip without it).
    static let extractorIsInstalled = Toolchain.find("swift-symbolgraph-extract") != nil

    /// The folder holding `Statecraft.symbols.json`.
    static func extract() throws -> URL {
        try cached.get()
    }

    private static let cached: Result<URL, Error> = Result { try build() }

    private struct Failure: Error, CustomStringConvertible { var description: String }

    private static func build() throws -> URL {
        guard let extractor = Toolchain.find("swift-symbolgraph-extract"), let swift = Toolchain.find("swift") else {
            throw Failure(description: "swift-symbolgraph-extract is not in the toolchain on PATH")
        }
        guard let binary = CLI.executable?.deletingLastPathComponent() else {
            throw Failure(description: "the build folder was not found")
        }
        // SwiftPM puts modules in Modules/ (Swift 6) or beside the products (earlier).
        let modules = [binary.appendingPathComponent("Modules"), binary].first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("Statecraft.swiftmodule").path)
        }
        guard let modules else { throw Failure(description: "Statecraft.swiftmodule is not in \(binary.path)") }
        let info = try swift.run(["-print-target-info"])
        let target = (try? JSONSerialization.jsonObject(with: Data(info.stdout.utf8))) as? [String: Any]
        guard let triple = (target?["target"] as? [String: Any])?["triple"] as? String else {
            throw Failure(description: "swift -print-target-info gave no triple:\n\(info.stderr)")
        }
        let umbrella = try String(contentsOf: Repository.root.appendingPathComponent("Sources/Statecraft/Statecraft.swift"),
                                  encoding: .utf8)
        let reexported = umbrella.components(separatedBy: "\n").compactMap { line -> String? in
            line.hasPrefix("@_exported import ") ? String(line.dropFirst("@_exported import ".count)) : nil
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-symbols-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var arguments = ["-module-name", "Statecraft", "-I", modules.path, "-target", triple,
                         "-output-dir", folder.path, "-minimum-access-level", "public",
                         "-experimental-allowed-reexported-modules=" + reexported.joined(separator: ",")]
        #if os(macOS)
        if let sdk = try? ExternalTool(path: "/usr/bin/xcrun").run(["--show-sdk-path"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines) { arguments += ["-sdk", sdk] }
        #endif
        let run = try extractor.run(arguments)
        guard run.status == 0,
              FileManager.default.fileExists(atPath: folder.appendingPathComponent("Statecraft.symbols.json").path) else {
            throw Failure(description: "swift-symbolgraph-extract failed:\n\(run.stderr)")
        }
        return folder
    }
}
