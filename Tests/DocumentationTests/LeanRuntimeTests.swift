import Foundation
import Statecraft
import Testing
import TestSupport

/// The `StatecraftRuntime` product is what an app links: a package of its own that depends
/// on that product alone builds `Samples/DrawerApp.swift`, runs it on the Drawer spec, and
/// compiles none of the stages an app does not need (nor links FoundationXML).
@Suite struct LeanRuntimeTests {
    /// The modules an app of the lean product may compile: the stages from spec text to a
    /// running instance, and the app itself.
    static let allowed: Set<String> = ["StatecraftDiagnostics", "StatecraftSyntax", "StatecraftModel",
                                       "StatecraftSemantics", "StatecraftRuntime", "StatecraftRecording", "DrawerApp"]
    /// The stages it must not compile (each is a module of the package).
    static let excluded = ["StatecraftAnalysis", "StatecraftEventLog", "StatecraftReplay", "StatecraftExport",
                           "StatecraftSCXML", "StatecraftFormat", "StatecraftIndex", "StatecraftReport",
                           "Statecraft", "StatecraftLanguageServer", "StatecraftDriver"]

    static let expected = [
        "open originY=0",
        "dragging originY=0",
        "dragging originY=-520",
        "closed originY=-617",
    ]

    /// The sample itself, in process (this target compiles it against the umbrella).
    @Test func theSampleRunsTheDrawer() throws {
        let spec = try String(contentsOf: Repository.specs.appendingPathComponent("Drawer.machine"), encoding: .utf8)
        #expect(try DrawerApp.run(specText: spec) == Self.expected)
    }

    /// A spec that does not resolve is refused with its diagnostics, as `check` prints them.
    @Test func aBrokenSpecSaysWhy() {
        #expect(throws: SpecError.self) { try DrawerApp.run(specText: "machine M { initial state a { on nope -> a } }") }
        do {
            _ = try Instance(specText: "machine M { initial state a { on nope -> a } }", path: "M.machine")
            Issue.record("a spec with an unknown event ran")
        } catch {
            #expect(error.description.hasPrefix("M.machine:1:34: error: "), "\(error.description)")
        }
    }

    /// One `swift build` of a package depending on this repository's `StatecraftRuntime`
    /// product, and one run of what it built. Skipped under a sanitizer run, which builds
    /// the package's own code with other flags and would compile the stages a second time.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["STATECRAFT_SANITIZER"] == nil,
                   "a sanitizer run does not build a second package"))
    func aPackageOnTheLeanProductBuildsRunsAndLinksNothingElse() throws {
        let swift = try #require(ExternalTool.find("swift"), "swift is not on PATH")
        let root = Repository.root
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("statecraft-lean-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sources = folder.appendingPathComponent("Sources/DrawerApp")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        // A path dependency is known by its folder's name.
        let identity = root.lastPathComponent.lowercased()
        try """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "DrawerApp",
                dependencies: [.package(path: \(literal(root.path)))],
                targets: [
                    .executableTarget(name: "DrawerApp",
                                      dependencies: [.product(name: "StatecraftRuntime", package: \(literal(identity)))]),
                ]
            )

            """.write(to: folder.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: root.appendingPathComponent("Tests/DocumentationTests/Samples/DrawerApp.swift"),
                                         to: sources.appendingPathComponent("DrawerApp.swift"))
        let spec = try String(contentsOf: Repository.specs.appendingPathComponent("Drawer.machine"), encoding: .utf8)
        try """
            import StatecraftRuntime

            let spec = ####\"\"\"
            \(spec)
            \"\"\"####
            do {
                for line in try DrawerApp.run(specText: spec) { print(line) }
            } catch {
                print(error)
            }

            """.write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)

        // The app's product only: a plain `swift build` would build every product of the
        // dependency too (the command-line tool among them).
        // Its own build folder, named: under `swift test` the build folder of this repository
        // would otherwise be taken.
        let place = ["--package-path", folder.path, "--scratch-path", folder.appendingPathComponent(".build").path]
        let build = try swift.run(["build"] + place + ["--product", "DrawerApp"])
        try #require(build.status == 0, "swift build failed:\n\(build.stdout)\n\(build.stderr)")
        let binPath = try swift.run(["build"] + place + ["--show-bin-path"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(binPath.hasPrefix(folder.path), "\(binPath)")
        let bin = URL(fileURLWithPath: binPath)
        let run = try ExternalTool(path: bin.appendingPathComponent("DrawerApp").path).run([])
        #expect(run.status == 0)
        #expect(run.stdout == Self.expected.map { $0 + "\n" }.joined())

        // What was compiled: a module file under Modules/, and object files in the module's
        // folder (SwiftPM makes a folder for every target of the graph, compiled or not).
        let fm = FileManager.default
        var modules = Set((try fm.contentsOfDirectory(atPath: bin.appendingPathComponent("Modules").path))
            .filter { $0.hasSuffix(".swiftmodule") }.map { String($0.dropLast(".swiftmodule".count)) })
        for folder in try fm.contentsOfDirectory(atPath: bin.path) where folder.hasSuffix(".build") {
            let objects = (fm.enumerator(atPath: bin.appendingPathComponent(folder).path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".o") }
            if !objects.isEmpty { modules.insert(String(folder.dropLast(".build".count))) }
        }
        #expect(modules.isSuperset(of: ["StatecraftRuntime", "StatecraftSemantics"]), "\(modules.sorted())")
        for module in Self.excluded {
            #expect(!modules.contains(module), "\(module) was compiled for an app of the lean product")
        }
        #expect(modules.subtracting(Self.allowed).isEmpty, "compiled beyond the lean stages: \(modules.subtracting(Self.allowed).sorted())")
        // The executable names the libraries it loads: FoundationXML is not one of them.
        let binary = try Data(contentsOf: bin.appendingPathComponent("DrawerApp"))
        #expect(binary.range(of: Data("FoundationXML".utf8)) == nil, "the app links FoundationXML")
    }

    /// `s` as a Swift string literal (JSON's escapes are Swift's for a path).
    private func literal(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
