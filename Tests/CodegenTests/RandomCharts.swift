import Foundation
import TestSupport

/// Random statecharts (`ChartGenerator`) whose generated Swift is a golden beside the specs':
/// `random-chart:SEED` stands for the chart of that seed, as the generator writes it today.
/// The seeds are chosen for their mix of parallel states, history, completion, raised events
/// and (5, 20, 38) events the chart sends itself.
enum RandomCharts {
    static let prefix = "random-chart:"

    /// The seed of a `random-chart:SEED` spec, or nil for a spec file. `random-chart:0` is
    /// `wideChart`.
    static func seed(of spec: String) -> UInt64? {
        spec.hasPrefix(prefix) ? UInt64(spec.dropFirst(prefix.count)) : nil
    }

    static func typeName(seed: UInt64) -> String { seed == 0 ? "WideChart" : "RandomChart_\(seed)" }

    /// The chart's text, named as its golden type.
    static func text(seed: UInt64) -> String {
        if seed == 0 { return wideChart }
        var generator = ChartGenerator(seed: seed)
        return generator.spec(name: typeName(seed: seed))
    }

    /// A chart of more than 64 states (a configuration of two words): three regions of 25
    /// states in a ring, under a deep history, with guards on other regions and raised events.
    static var wideChart: String {
        var lines = ["machine WideChart {",
                     "    public var n: Number = 0",
                     "    event next",
                     "    event back",
                     "    event skip(k: Number)",
                     "    event leave",
                     "    event resume",
                     "    event bump",
                     "    output moved(region: Number, n: Number)",
                     "    initial state top {",
                     "        on leave -> away",
                     "        initial parallel state regions {"]
        for r in 0..<3 {
            lines.append("            state r\(r) {")
            for k in 0..<25 {
                let name = "r\(r)s\(k)", next = "r\(r)s\((k + 1) % 25)", back = "r\(r)s\((k + 24) % 25)"
                lines.append("                \(k == 0 ? "initial " : "")state \(name) {")
                lines.append("                    on next -> \(next) { n += 1 }")
                if k % 3 == r { lines.append("                    on back if in(r\((r + 1) % 3)s\(k)) -> \(back) { emit moved(\(r), n) }") }
                if k % 5 == 0 { lines.append("                    on skip if k > \(k) -> r\(r)s\((k + 7) % 25) { raise bump }") }
                if k == 24 { lines.append("                    entry { n = n - 24 }") }
                lines.append("                }")
            }
            lines.append("                on bump { n += \(r + 1) }")
            lines.append("            }")
        }
        lines += ["        }",
                  "        deep history state resumePoint",
                  "    }",
                  "    state away {",
                  "        on resume -> resumePoint",
                  "        after 2s -> top",
                  "    }",
                  "}"]
        return lines.joined(separator: "\n") + "\n"
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
