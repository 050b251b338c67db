import Foundation
import Statecraft
import Testing
import TestSupport

/// The Swift that `statecraft swift` writes for random statecharts compiles warning-free in
/// Swift 6 mode, as an app built with warnings as errors compiles it. The goldens hold this
/// for the specs and charts the differential tests run; this sweep holds it for shapes no
/// golden has (a guard behind a transition without one, steps that cannot fail beside steps
/// that can, eventless phases that settle and phases that loop). Each chart is a `swiftc` run
/// of its own, a second or two, so the sweep runs on a schedule (`.ci/deep`), not with every
/// submission: `STATECRAFT_SWIFT_SWEEP=N swift test --filter GeneratedCompileSweepTests`.
@Suite struct GeneratedCompileSweepTests {
    static var count: Int? { ProcessInfo.processInfo.environment["STATECRAFT_SWIFT_SWEEP"].flatMap(Int.init) }

    @Test(.enabled(if: count != nil && ExternalTool.find("swiftc") != nil,
                   "set STATECRAFT_SWIFT_SWEEP=N to compile the Swift of N random charts (needs swiftc)"))
    func randomChartsCompileWithoutWarnings() throws {
        let swiftc = try #require(ExternalTool.find("swiftc"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-swift-sweep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for seed in 1...UInt64(Swift.max(1, Self.count ?? 1)) {
            var generator = ChartGenerator(seed: seed)
            let name = "Sweep_\(seed)"
            let program = try Program(specText: generator.spec(name: name), path: name + ".machine")
            let swift = try SwiftGenerator.generate(program.machine, options: .init(specName: name + ".machine", fingerprint: "0"))
            let file = folder.appendingPathComponent(name + ".swift")
            try swift.write(to: file, atomically: true, encoding: .utf8)
            let compile = try swiftc.run(["-swift-version", "6", "-warnings-as-errors", "-typecheck", file.path])
            #expect(compile.status == 0, "seed \(seed): \(compile.stdout)\(compile.stderr)")
        }
    }
}
