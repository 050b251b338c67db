import Foundation
import PackagePlugin

/// `swift package generate-machines [--target NAME ...] [--access public|internal]`
///
/// Regenerates, in place, the Swift of every spec in a package's targets: each
/// `Name.machine` under a target's folder gets `Name.swift` beside it, written by
/// `statecraft swift Name.machine -o Name.swift`. Without `--target`, every Swift target of
/// the package is searched. The generated files are ordinary sources: commit them, and let CI
/// run `statecraft swift Name.machine -o Name.swift --check` to catch a stale one.
///
/// A command plugin and not a build-tool plugin or a macro: the generated file is a file you
/// read, review and commit, an app's build needs nothing of ours, and a spec's errors are
/// reported once, when you regenerate, not on every build.
@main struct GenerateMachines: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let access = extractor.extractOption(named: "access")
        guard extractor.remainingArguments.isEmpty, access.count <= 1 else {
            throw PluginFailure("usage: swift package generate-machines [--target NAME ...] [--access public|internal]")
        }
        let targets: [Target] = names.isEmpty
            ? context.package.targets.filter { $0 is SwiftSourceModuleTarget }
            : try context.package.targets(named: names)
        let statecraft = try context.tool(named: "GenerateMachinesTool").url
        var generated = 0
        var failed = 0
        for target in targets {
            for spec in Self.specs(under: target.directoryURL) {
                let output = spec.deletingPathExtension().appendingPathExtension("swift")
                var command = [spec.path, "-o", output.path]
                if let access = access.first { command += ["--access", access] }
                let status = try Self.run(statecraft, command)
                if status == 0 {
                    generated += 1
                    print("generated \(Self.relative(output, to: context.package.directoryURL))")
                } else {
                    failed += 1
                }
            }
        }
        print("generate-machines: \(generated) generated" + (failed > 0 ? ", \(failed) failed" : ""))
        if failed > 0 { throw PluginFailure("\(failed) spec(s) have errors; their Swift files were left as they were") }
    }

    /// The `.machine` files under `folder`, in path order (so the output is the same on every run).
    static func specs(under folder: URL) -> [URL] {
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return walk.compactMap { $0 as? URL }.filter { $0.pathExtension == "machine" }.sorted { $0.path < $1.path }
    }

    /// Runs `tool` with `arguments`; its output and errors go to ours.
    static func run(_ tool: URL, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    static func relative(_ url: URL, to root: URL) -> String {
        let path = url.standardizedFileURL.path
        let prefix = root.standardizedFileURL.path + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

struct PluginFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
