import Foundation
import Statecraft
import Testing
import TestSupport

/// Runs the compiled runtime (`Instance`) and the plain SCXML interpreter
/// (`ReferenceStepper`) side by side on random event tapes and compares them after every
/// step: what the step did (fired with which transition, ignored, failed with which
/// fault), the active configuration, the variables, the outputs, whether the run ended.
struct Differential {
    let program: Program
    var machine: Machine { program.machine }

    init(_ machine: Machine) { program = Program(machine) }

    /// A random payload for `event`: numbers near the spec's guard constants, bools,
    /// short strings.
    static func payload(_ event: Event, _ rng: inout SeededGenerator) -> [Value] {
        event.fields.map { field in
            switch field.type {
            case .number: .number([-2, -1, 0, 0.5, 1, 2, 3, 10, 100, 250][Int(rng.next() % 10)])
            case .bool: .bool(rng.next() % 2 == 0)
            case .string: .string(["", "a", "❤️"][Int(rng.next() % 3)])
            }
        }
    }

    /// Runs `steps` random lines; returns the first disagreement, described, or nil.
    func compare(seed: UInt64, steps: Int) -> String? {
        var rng = SeededGenerator(seed: seed)
        var instance = Instance(program)
        var reference = ReferenceStepper(machine)
        var log: [String] = []
        var emitted: [String] = []
        let started = instance.start { o, a in emitted.append(Self.describe(o, a, machine)) }
        let referenceStart = reference.start()
        if let problem = agree(instance, started, emitted, reference, referenceStart, reference.outputs, "start") {
            return problem
        }
        guard !machine.events.isEmpty else { return nil }
        var time = 0.0
        for k in 0..<steps {
            if rng.next() % 3 == 0 { time += [0.05, 0.1, 0.3, 0.5, 1, 2, 5][Int(rng.next() % 7)] }
            var timerSteps: [(Step, [String])] = []
            var pendingOutputs: [String] = []
            instance.advance(to: time, emit: { o, a in pendingOutputs.append(Self.describe(o, a, machine)) }) { step in
                timerSteps.append((step, pendingOutputs))
                pendingOutputs = []
            }
            var referenceTimers: [(Step, [String])] = []
            reference.advance(to: time, emit: { o, a in pendingOutputs.append(Self.describe(o, a, machine)) }) { step in
                referenceTimers.append((step, pendingOutputs))
                pendingOutputs = []
            }
            guard timerSteps.count == referenceTimers.count else {
                return "line \(k) at t=\(time): \(timerSteps.count) timer steps, the reference took \(referenceTimers.count)\n"
                    + log.joined(separator: "\n")
            }
            // Timers that loop fire 10,000 times at one instant in both (seconds of the
            // reference's time): once both agreed on that, the run has shown what it can.
            let looped = timerSteps.contains(where: {
                guard case .failed(let f) = $0.0.result else { return false }
                switch f.reason {
                case .timerLoop, .sendLoop: return true
                default: return false
                }
            })
            for (j, (step, outputs)) in timerSteps.enumerated() {
                let (referenceStep, referenceOutputs) = referenceTimers[j]
                // The configuration and variables after the last timer only: the reference's
                // steps have all been taken.
                if step != referenceStep || outputs != referenceOutputs {
                    return "line \(k) timer \(j) at t=\(time): the runtime \(step) \(outputs), the reference \(referenceStep) \(referenceOutputs)\n"
                        + log.joined(separator: "\n")
                }
            }
            if !timerSteps.isEmpty, let problem = agreeOnState(instance, reference, "line \(k) timers at t=\(time)") {
                return problem + "\n" + log.joined(separator: "\n")
            }
            if looped { return nil }
            let event = machine.events[Int(rng.next() % UInt64(machine.events.count))]
            let payload = Self.payload(event, &rng)
            log.append("t=\(time) \(event.name)(\(payload.map(\.description).joined(separator: ", ")))")
            emitted = []
            let step = instance.send(event.id, payload: payload) { o, a in emitted.append(Self.describe(o, a, machine)) }
            let referenceStep = reference.send(event.id, payload: payload)
            if let problem = agree(instance, step, emitted, reference, referenceStep, reference.outputs, "line \(k) (\(event.name))") {
                return problem + "\n" + log.joined(separator: "\n")
            }
            // A step that never settles takes 10,000 microsteps in both: a chart caught in
            // such a loop has shown what it can once both agreed on it.
            if case .failed(let fault) = step.result, case .microstepLimit = fault.reason { return nil }
        }
        return nil
    }

    static func describe(_ output: OutputID, _ args: [Value], _ machine: Machine) -> String {
        machine[output].name + "(" + args.map(\.description).joined(separator: ", ") + ")"
    }

    /// What the step did (one `Step` from each, compared whole), its outputs, and the state
    /// after it.
    private func agree(_ instance: Instance, _ step: Step, _ outputs: [String], _ reference: ReferenceStepper,
                       _ referenceStep: Step, _ referenceOutputs: [(OutputID, [Value])], _ at: String) -> String? {
        if step != referenceStep { return "\(at): the runtime \(step), the reference \(referenceStep)" }
        let expectedOutputs = referenceOutputs.map { Self.describe($0.0, $0.1, machine) }
        if outputs != expectedOutputs { return "\(at): outputs \(outputs), the reference \(expectedOutputs)" }
        return agreeOnState(instance, reference, at)
    }

    /// The configuration, variables, end and history of the two runs.
    private func agreeOnState(_ instance: Instance, _ reference: ReferenceStepper, _ at: String) -> String? {
        let configuration = instance.configuration.names(in: machine)
        let referenceConfiguration = reference.activeStates.map { machine[$0].name }
        if configuration != referenceConfiguration {
            return "\(at): configuration \(configuration), the reference \(referenceConfiguration)"
        }
        if instance.variables != reference.variables {
            return "\(at): variables \(instance.variables), the reference \(reference.variables)"
        }
        if instance.isFinished != reference.isFinished {
            return "\(at): finished \(instance.isFinished), the reference \(reference.isFinished)"
        }
        for (h, recorded) in instance.historyValues.enumerated() where machine.states[h].isHistory {
            if recorded != reference.history[StateID(h)] {
                return "\(at): history of '\(machine.states[h].name)' \(String(describing: recorded)), "
                    + "the reference \(String(describing: reference.history[StateID(h)]))"
            }
        }
        return nil
    }
}

/// Resolves source text into a machine, failing the test on any error.
func resolvedMachine(_ source: String) throws -> Machine {
    let result = Statecraft.check(source: source, bounds: nil)
    let rendered = result.diagnostics.filter { $0.severity == .error }
        .map { DiagnosticRenderer().render($0, in: result.file) }.joined()
    return try #require(result.machine, "\(rendered)")
}

@Suite struct ChartDifferentialTests {
    /// Every bundled spec: the flat machines' straight-line blocks agree with the reference too.
    @Test(arguments: ["Drawer", "VibrantButton", "PullToRefresh", "PeekRating", "SwipeToDismiss"])
    func bundledSpecsAgreeWithTheReference(_ name: String) throws {
        let machine = try program(spec: name).machine
        let differential = Differential(machine)
        for seed in 0..<20 as Range<UInt64> {
            let problem = differential.compare(seed: seed, steps: 300)
            #expect(problem == nil, "\(name) seed \(seed): \(problem ?? "")")
        }
    }
}

extension ChartDifferentialTests {
    /// The seeds of the random charts: 36 on every submission; `STATECRAFT_CHARTS` sets how
    /// many (the nightly `.ci/deep` runs hundreds), `STATECRAFT_CHART_SEED` runs one chart again.
    static var chartSeeds: [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let only = environment["STATECRAFT_CHART_SEED"].flatMap(UInt64.init) { return [only] }
        return Array(0..<UInt64(environment["STATECRAFT_CHARTS"].flatMap(Int.init) ?? 36))
    }

    /// Random statecharts of every form (`ChartGenerator`): the compiled steps agree with the
    /// reference, step by step, in four runs of 120 steps per chart. One test case per chart
    /// and run, so that they share the cores with the rest of the suite (a chart whose timers
    /// loop takes the reference many seconds) rather than running one after another at its end.
    @Test(arguments: chartSeeds, 0..<4 as Range<UInt64>)
    func randomChartsAgreeWithTheReference(seed: UInt64, run: UInt64) throws {
        var generator = ChartGenerator(seed: seed)
        let source = generator.spec()
        let machine = try resolvedMachine(source)
        if let problem = Differential(machine).compare(seed: seed &* 31 &+ run, steps: 120) {
            Issue.record("chart seed \(seed), run \(run): \(problem)\n\(source)")
        }
    }
}

extension ChartDifferentialTests {
    /// Every fixture that resolves (the checker's, the diagrams' statechart, the
    /// disassembly's), held against the reference like the bundled specs.
    @Test func fixturesAgreeWithTheReference() throws {
        let folders = ["Tests/CheckerTests/Fixtures", "Tests/ExportTests/Golden", "Tests/ExportTests/Golden/Flat",
                       "Tests/RuntimeTests/Golden"]
        var checked = 0
        for folder in folders {
            let url = Repository.root.appendingPathComponent(folder)
            let files = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".machine") }.sorted()
            for file in files {
                let source = String(decoding: Repository.bytes(url.appendingPathComponent(file)), as: UTF8.self)
                guard let machine = Statecraft.check(source: source, path: file, bounds: nil).machine else { continue }
                let differential = Differential(machine)
                for seed in 0..<5 as Range<UInt64> {
                    let problem = differential.compare(seed: seed, steps: 400)
                    #expect(problem == nil, "\(folder)/\(file) seed \(seed): \(problem ?? "")")
                }
                checked += 1
            }
        }
        #expect(checked >= 20, "only \(checked) fixtures resolved")
    }
}
