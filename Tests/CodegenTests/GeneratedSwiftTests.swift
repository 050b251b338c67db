import Foundation
import GeneratedMachines
import Statecraft
import Testing
import TestSupport

/// `statecraft swift`: the goldens in Tests/GeneratedMachines are what the specs generate
/// today, and each runs exactly as the runtime does. That they compile warning-free in Swift 6
/// on their own is the build's business: their target depends on nothing and treats warnings
/// as errors (Package.swift), so a golden that warns fails the build.
@Suite struct GeneratedSwiftTests {
    /// The type name a fixture's golden has (`guard-clamp` gives `Fixture_guard_clamp`).
    static func typeName(_ spec: String) -> String {
        if let seed = RandomCharts.seed(of: spec) { return RandomCharts.typeName(seed: seed) }
        let base = URL(fileURLWithPath: spec).deletingPathExtension().lastPathComponent
        return spec.hasPrefix("Specs/") ? base : "Fixture_" + String(base.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    static let goldens = Repository.root.appendingPathComponent("Tests/GeneratedMachines")

    @Test(arguments: generatedMachines.map(\.spec))
    func theGoldenIsWhatTheSpecGenerates(spec: String) throws {
        let name = Self.typeName(spec)
        let spec = try RandomCharts.seed(of: spec).map(RandomCharts.file(seed:)) ?? spec
        let run = try CLI.run(["swift", spec, "--type-name", name, "--access", "public"])
        #expect(run.status == 0, "\(run.stderr)")
        if let difference = Golden.compare(run.stdout, to: Self.goldens.appendingPathComponent(name + ".swift")) {
            Issue.record("\(difference)")
        }
        // --check agrees: the golden is up to date.
        let check = try CLI.run(["swift", spec, "--type-name", name, "--access", "public", "--check",
                                 "-o", "Tests/GeneratedMachines/\(name).swift"])
        #expect(check.status == 0, "\(check.stderr)")
    }

    /// The benchmark compiles the bundled machines' generated Swift in its own module, as an app
    /// compiles its own: `swift package generate-machines` writes them beside the specs' links
    /// (CI runs the plugin and fails on a difference); they are what the specs generate today.
    @Test(arguments: ["CheckoutScreen", "Drawer", "MediaPlayer", "PeekRating", "PullToRefresh", "SwipeToDismiss", "VibrantButton"])
    func theBenchmarksMachinesAreCurrent(machine: String) throws {
        let spec = "Sources/Benchmarks/Machines/\(machine).machine"
        let run = try CLI.run(["swift", spec, "-o", "Sources/Benchmarks/Machines/\(machine).swift", "--check"])
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// Every bundled spec and fixture that resolves has a golden, unless the generator refuses
    /// it for a name that clashes with a member of the generated type; and every golden comes from one of them.
    @Test func everySpecThatResolvesIsGeneratedOrRefusedByName() throws {
        let fixtures = try FileManager.default.contentsOfDirectory(
            atPath: Repository.root.appendingPathComponent("Tests/CheckerTests/Fixtures").path)
            .filter { $0.hasSuffix(".machine") }.map { "Tests/CheckerTests/Fixtures/" + $0 }
        let bundled = try FileManager.default.contentsOfDirectory(atPath: Repository.specs.path)
            .filter { $0.hasSuffix(".machine") }.map { "Specs/" + $0 }
        let listed = Set(generatedMachines.map(\.spec))
        for spec in (bundled + fixtures).sorted() {
            let run = try CLI.run(["swift", spec, "--type-name", Self.typeName(spec)])
            if listed.contains(spec) {
                #expect(run.status == 0, "\(spec): \(run.stderr)")
            } else if run.status == 0 {
                Issue.record("\(spec) generates Swift but has no golden in Tests/GeneratedMachines")
            } else if !run.stderr.contains("has errors") {
                #expect(run.stderr.contains("has the name of a member of the generated type"), "\(spec): \(run.stderr)")
            }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.goldens.path).filter { $0.hasSuffix(".swift") }
        #expect(Set(files) == Set(generatedMachines.map { Self.typeName($0.spec) + ".swift" }))
    }

    @Test func checkSaysWhenTheFileIsStale() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Drawer.swift").path
        #expect(try CLI.run(["swift", "Specs/Drawer.machine", "-o", file, "--check"]).status == 1)
        #expect(try CLI.run(["swift", "Specs/Drawer.machine", "-o", file]).status == 0)
        #expect(try CLI.run(["swift", "Specs/Drawer.machine", "-o", file, "--check"]).status == 0)
        try (String(contentsOfFile: file, encoding: .utf8) + "// edited\n").write(toFile: file, atomically: true, encoding: .utf8)
        let stale = try CLI.run(["swift", "Specs/Drawer.machine", "-o", file, "--check"])
        #expect(stale.status == 1)
        #expect(stale.stderr.contains("is not what 'Specs/Drawer.machine' generates"), "\(stale.stderr)")
    }
}
