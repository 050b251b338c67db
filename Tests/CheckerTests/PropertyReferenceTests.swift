import Foundation
import Statecraft
@testable import StatecraftAnalysis
import Testing
import TestSupport

/// A brute-force reference for `check`'s property verdicts on small machines: every run up
/// to `depth` steps, where a step is an event (each payload from a small set) sent now or
/// half-way to the next timer, or time passing to the next timer's deadline, to half-way
/// there, or to the next whole second. Those times include every deadline and times between
/// them that the search never tries. Each run is watched by `PropertyMonitor`, with a last
/// line that lets every pending deadline pass.
///
/// The reference and `check` must agree: nothing `check` proves is broken by any run, and
/// every property `check` refutes with a counterexample no longer than `depth` is broken by
/// some run.
@Suite struct PropertyReferenceTests {
    static let depth = 3
    static let specCount = 24

    @Test func checkAgreesWithEveryRunUpToASmallDepth() throws {
        var problems: [String] = []
        var compared = (proven: 0, violated: 0, analysis: 0)
        for seed in 0..<UInt64(Self.specCount) {
            var generator = SpecGenerator(seed: seed &* 104_729 &+ 5)
            var text = generator.spec(name: "Small\(seed)")
            guard let bare = Statecraft.check(source: text, bounds: nil).machine,
                  bare.events.count <= 4, bare.events.allSatisfy({ $0.fields.count <= 1 }) else { continue }
            var rng = SplitMix64(seed: seed &+ 7)
            text = PropertySoundnessTests.withProperties(text, bare, rng: &rng)
            let result = Statecraft.check(source: text)
            guard let machine = result.machine, let report = result.exploration else { continue }
            let program = Program(machine)
            // The payloads: a few numbers, and every value a counterexample uses.
            var numbers: Set<Double> = [0, 1, 3, 100, -1]
            for case .violated(let c) in report.properties {
                for case .event(_, let payload, _) in c.witness { for case .number(let n) in payload { numbers.insert(n) } }
            }
            let broken = Self.everyRun(program, numbers: numbers.sorted())
            // The interval analysis's proofs on their own (the search's verdict hides them where it decides).
            for (k, proof) in PropertyVerdicts.analysisProofs(
                machine, program, intervals: IntervalAnalysis(machine, isStatechart: program.isStatechart)).enumerated() {
                guard let proof else { continue }
                compared.analysis += 1
                if let run = broken[k] {
                    problems.append("seed \(seed): the interval analysis proves \(machine.properties[k].name) (\(proof)), but \(run) breaks it\n\(text)")
                }
            }
            for (k, verdict) in report.properties.enumerated() {
                if case .reachable = machine.properties[k].form { continue }
                let name = machine.properties[k].name
                switch verdict {
                case .proven(let reason):
                    compared.proven += 1
                    if let run = broken[k] { problems.append("seed \(seed): \(name) is proven (\(reason)), but \(run) breaks it\n\(text)") }
                case .violated(let c) where c.witness.count <= Self.depth:
                    compared.violated += 1
                    if broken[k] == nil {
                        problems.append("seed \(seed): \(name) is violated by \(WitnessText.describe(c.witness, machine)), "
                            + "but no run of \(Self.depth) steps breaks it\n\(text)")
                    }
                default:
                    break
                }
            }
        }
        #expect(compared.proven > 10 && compared.violated > 10 && compared.analysis > 10, "both directions are compared: \(compared)")
        for problem in problems.prefix(5) { Issue.record(Comment(rawValue: problem)) }
        #expect(problems.isEmpty)
    }

    /// By property index: a run of at most `depth` steps that breaks it, in words.
    static func everyRun(_ program: Program, numbers: [Double]) -> [Int: String] {
        var broken: [Int: String] = [:]
        var start = PropertySoundnessTests.Run(program)
        guard start.start() else { return broken }
        let machine = program.machine
        func payloads(_ event: Event) -> [[Value]] {
            guard let field = event.fields.first else { return [[]] }
            switch field.type {
            case .bool: return [[.bool(false)], [.bool(true)]]
            case .string: return [[.string("")], [.string("a")]]
            default: return numbers.map { [.number($0)] }
            }
        }
        func note(_ run: PropertySoundnessTests.Run, _ steps: [String]) {
            // A last line past every pending deadline.
            var end = run
            if let d = end.monitor.nextDeadline(program) { end.move(to: d.nextUp) }
            for v in end.found where broken[v.property] == nil {
                broken[v.property] = steps.isEmpty ? "the start" : steps.joined(separator: ", ")
            }
        }
        func explore(_ run: PropertySoundnessTests.Run, _ steps: [String]) {
            note(run, steps)
            guard steps.count < depth, !run.looping else { return }
            let now = run.instance.now
            var times = [now]
            if let d = run.instance.nextDeadline, d > now { times.append(now + (d - now) / 2) }
            for time in times {
                for event in machine.events {
                    for payload in payloads(event) {
                        var next = run
                        next.send(event.id, payload, at: time)
                        explore(next, steps + ["\(event.name)\(payload.isEmpty ? "" : "\(payload)") at \(time)"])
                    }
                }
            }
            var waits: [Double] = [(now + 1).rounded(.down)]
            if let d = run.instance.nextDeadline { waits += [d, now + (d - now) / 2] }
            if let d = run.monitor.nextDeadline(program) { waits.append(d) }
            for until in Set(waits) where until > now {
                var next = run
                next.move(to: until)
                explore(next, steps + ["wait until \(until)"])
            }
        }
        explore(start, [])
        return broken
    }
}
