import Foundation
import Statecraft
import TestSupport

/// The machines the export tests draw: the specs in `Specs/` and the fixtures in `Golden/`.
enum ExportFixtures {
    /// `Tests/ExportTests/Golden/`, where golden files and fixture specs live.
    static let golden = Repository.root.appendingPathComponent("Tests/ExportTests/Golden")

    /// The spec names in `Specs/` (file names without `.machine`), sorted.
    static let specNames: [String] = Repository.specFiles().map { $0.deletingPathExtension().lastPathComponent }

    /// The fixture spec with odd names and strings.
    static let oddName = "odd-names"

    /// The fixture spec with every statechart form: nesting, regions, history, completion.
    static let statechartName = "statechart"

    /// The fixture specs in `Golden/`; `video-call` and `checkout` reproduce the layout
    /// problems of issue 31 (edges to ancestors, loops on compound states, parallel labels),
    /// `dashboard` a parallel state with enough regions to be drawn as a grid.
    static let fixtureNames = [oddName, statechartName, "video-call", "checkout", "dashboard"]

    /// Reads and checks a spec; nil (and the test fails on it) when it does not resolve.
    static func machine(at url: URL) -> Machine? {
        let text = String(decoding: Repository.bytes(url), as: UTF8.self)
        return Statecraft.check(source: text, path: url.path, bounds: nil).machine
    }

    /// A spec from `Specs/` by name.
    static func spec(_ name: String) -> Machine? {
        machine(at: Repository.specs.appendingPathComponent(name + ".machine"))
    }

    /// A fixture from `Golden/` by name. Analysis findings do not matter: the diagrams draw
    /// every machine that resolves.
    static func fixture(_ name: String) -> Machine? {
        machine(at: golden.appendingPathComponent(name + ".machine"))
    }

    /// A flat version of a bundled spec (every state at the top level), as the specs were
    /// before parent states held their shared transitions: the writer tests that name
    /// states and edges by id draw these, so they do not change when a spec is reorganised.
    static func flat(_ name: String) -> Machine? {
        machine(at: golden.appendingPathComponent("Flat/" + name + ".machine"))
    }

    /// The odd-names fixture.
    static func odd() -> Machine? { fixture(oddName) }

    /// The statechart fixture.
    static func statechart() -> Machine? { fixture(statechartName) }

    /// Every machine the Graphviz and golden tests cover: the specs, then the fixtures.
    static var allNames: [String] { specNames + fixtureNames }

    /// A machine from `allNames`.
    static func named(_ name: String) -> Machine? { fixtureNames.contains(name) ? fixture(name) : spec(name) }

    /// A random statechart from `ChartGenerator`; nil when it does not resolve.
    static func randomChart(seed: UInt64) -> Machine? {
        var generator = ChartGenerator(seed: seed)
        return Statecraft.check(source: generator.spec(), path: "chart-\(seed).machine", bounds: nil).machine
    }
}
