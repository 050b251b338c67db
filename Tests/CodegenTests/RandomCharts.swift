import Foundation
import TestSupport

/// Random statecharts (`ChartGenerator`) whose generated Swift is a golden beside the specs':
/// `random-chart:SEED` stands for the chart of that seed, as the generator writes it today.
/// The seeds are charts with no delayed `send` or `cancel` (which `statecraft swift` does not
/// write yet), chosen for their mix of parallel states, history, completion and raised events.
enum RandomCharts {
    static let prefix = "random-chart:"

    /// The seed of a `random-chart:SEED` spec, or nil for a spec file.
    static func seed(of spec: String) -> UInt64? {
        spec.hasPrefix(prefix) ? UInt64(spec.dropFirst(prefix.count)) : nil
    }

    static func typeName(seed: UInt64) -> String { "RandomChart_\(seed)" }

    /// The chart's text, named as its golden type.
    static func text(seed: UInt64) -> String {
        var generator = ChartGenerator(seed: seed)
        return generator.spec(name: typeName(seed: seed))
    }

    /// The chart written to `RandomChart_SEED.machine` in a folder of its own (the generated
    /// file's header names the spec file), for the command line.
    static func file(seed: UInt64) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-random-charts")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(typeName(seed: seed) + ".machine")
        try text(seed: seed).write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
