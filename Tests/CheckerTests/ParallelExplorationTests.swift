import Foundation
import Statecraft
@testable import StatecraftAnalysis
import StatecraftRuntime
import Testing
import TestSupport

/// The search expands configurations on every core and takes what they found in queue
/// order; one node at a time is the plain reference. Both must give the same report, to
/// the witness and the number of configurations, or a verdict would depend on the machine
/// `check` ran on.
@Suite struct ParallelExplorationTests {
    /// Under a sanitizer (several times slower), what the threads do is checked on a fifth
    /// of the specs and generated machines; the plain run checks them all.
    static let share = ProcessInfo.processInfo.environment["STATECRAFT_SANITIZER"] == nil ? 1 : 5

    /// The bundled specs and every checker fixture that resolves.
    static func specs() -> [(name: String, source: String)] {
        var result = Repository.specFiles().map { ($0.lastPathComponent, String(decoding: Repository.bytes($0), as: UTF8.self)) }
        let found = (try? FileManager.default.contentsOfDirectory(atPath: GoldenTests.fixtures.path)) ?? []
        for (k, name) in found.filter({ $0.hasSuffix(".machine") }).sorted().enumerated() where k % share == 0 {
            let url = GoldenTests.fixtures.appendingPathComponent(name)
            result.append((name, String(decoding: Repository.bytes(url), as: UTF8.self)))
        }
        return result
    }

    static func sameReport(_ name: String, _ source: String, bounds: ExplorationBounds = ExplorationBounds()) {
        guard let machine = Statecraft.check(source: source, path: name, bounds: nil).machine else { return }
        let parallel = Exploration.run(machine, bounds: bounds)
        let reference = Exploration.run(machine, bounds: bounds, reference: true)
        #expect(parallel == reference, "\(name): the parallel search found something else")
        #expect(parallel.configurations == reference.configurations, "\(name)")
    }

    @Test func specsAndFixturesGiveTheSameReport() {
        let specs = Self.specs()
        #expect(specs.count > 40 / Self.share)
        for (name, source) in specs { Self.sameReport(name, source) }
    }

    /// Small bounds stop the search in the middle of a batch: the depth bound, and the
    /// configuration bound, which ends the search at once.
    @Test func boundsStopBothAtTheSameNode() {
        for (name, source) in Self.specs().prefix(12) {
            Self.sameReport(name, source, bounds: ExplorationBounds(maxDepth: 3, maxConfigurations: 40))
        }
    }

    /// How many seeds of generated machines: 10 on every submission, more in the scheduled
    /// deep run (`STATECRAFT_PARALLEL_SEEDS`, set by `.ci/deep`).
    static let seeds = ProcessInfo.processInfo.environment["STATECRAFT_PARALLEL_SEEDS"].flatMap(UInt64.init) ?? 10

    @Test(arguments: Array(stride(from: 0, to: seeds, by: share)))
    func generatedMachinesGiveTheSameReport(seed: UInt64) {
        // (Bounds a little smaller than check's: a few of these machines fill them.)
        let bounds = ExplorationBounds(maxDepth: 10, maxConfigurations: 1_500)
        var flat = SpecGenerator(seed: seed)
        Self.sameReport("random-\(seed)", flat.spec(), bounds: bounds)
        var chart = ChartGenerator(seed: seed)
        Self.sameReport("chart-\(seed)", chart.spec(), bounds: bounds)
        var reduced = SpecGenerator(seed: seed, searchReductions: true)
        Self.sameReport("reduced-\(seed)", reduced.spec(), bounds: bounds)
    }

    /// The templates give each configuration exactly the payloads, in the same order, and
    /// the same cuts, that building the list from scratch gives: checked on every
    /// configuration the reference search visits in every spec and fixture.
    @Test func templatesGiveTheReferenceCandidates() {
        var compared = 0
        for (name, source) in Self.specs() {
            guard let machine = Statecraft.check(source: source, path: name, bounds: nil).machine else { continue }
            let program = Program(machine)
            var explorer = Explorer(program: program, bounds: ExplorationBounds(maxDepth: 6, maxConfigurations: 300), reference: true)
            explorer.run { _ in false }
            let payloads = PayloadCandidates(machine)
            let numberVariables = machine.variables.filter { $0.type == .number }.count
            for node in explorer.nodes {
                let instance = node.instance
                let templates = payloads.templates(state: instance.state, variableNumbers: numberVariables)
                let pool = payloads.pool(for: instance)
                let dynamic = Array(pool.numbers.dropFirst(payloads.general.count))
                for event in machine.events {
                    guard let template = templates[event.id.index] else { continue }
                    var referenceCuts: Set<PayloadCandidates.Cut> = []
                    var templateCuts: Set<PayloadCandidates.Cut> = []
                    let expected = payloads.candidates(for: event, in: instance, from: pool, cuts: &referenceCuts)
                    let actual = payloads.candidates(from: template, dynamic: dynamic, cuts: &templateCuts)
                    compared += 1
                    guard expected == actual, referenceCuts == templateCuts else {
                        Issue.record("\(name), event \(event.name): \(actual.count) payloads from the template, \(expected.count) from scratch")
                        return
                    }
                }
            }
        }
        #expect(compared > 1_000 / Self.share)
    }
}
