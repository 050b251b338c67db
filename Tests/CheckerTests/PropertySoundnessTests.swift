import Foundation
import Statecraft
@testable import StatecraftAnalysis
import Testing
import TestSupport

/// `check`'s property verdicts against the runtime, on random specs (`SpecGenerator`) and
/// random statecharts (`ChartGenerator`) with random properties of every form:
///
/// - nothing proven is ever broken by a random run watched by `PropertyMonitor` (the
///   monitor `replay` keeps), with lines that land exactly on deadlines and just past them;
/// - every counterexample, followed as replay follows its log, breaks its property at its
///   last step (for `always reachable`, it leads to a configuration from which random runs
///   never reach `X`).
///
/// `STATECRAFT_SOUNDNESS_SPECS=N STATECRAFT_SOUNDNESS_CHARTS=M swift test --filter
/// PropertySoundnessTests` runs more and prints the tally.
@Suite struct PropertySoundnessTests {
    struct Tally {
        var specs = 0
        var proven = 0
        var violated = 0
        var notDecided = 0
    }

    static var specCount: Int {
        ProcessInfo.processInfo.environment["STATECRAFT_SOUNDNESS_SPECS"].flatMap(Int.init) ?? 40
    }
    static var chartCount: Int {
        ProcessInfo.processInfo.environment["STATECRAFT_SOUNDNESS_CHARTS"].flatMap(Int.init) ?? 20
    }

    @Test func provenPropertiesHoldAndCounterexamplesBreakThem() throws {
        var tally = Tally()
        var problems: [String] = []
        for seed in 0..<UInt64(Self.specCount + Self.chartCount) {
            guard let text = Self.randomSpec(seed, chart: seed >= UInt64(Self.specCount),
                                             seeds: (chart: seed &* 6007 &+ 3, spec: seed &* 7919 &+ 17, properties: seed &+ 101))
            else { continue }
            let findings = Self.judge(text, seed: seed, tally: &tally)
            if !findings.isEmpty { problems.append("seed \(seed):\n  " + findings.joined(separator: "\n  ") + "\n" + text) }
        }
        if Self.specCount != 40 || Self.chartCount != 20 {
            print("property soundness: \(tally.specs) specs; properties proven \(tally.proven), violated \(tally.violated), "
                + "not decided \(tally.notDecided)")
        }
        #expect(tally.specs > (Self.specCount + Self.chartCount) / 2)
        #expect(tally.proven > 0 && tally.violated > 0 && tally.notDecided > 0, "every verdict is exercised: \(tally)")
        for problem in problems.prefix(5) { Issue.record(Comment(rawValue: problem)) }
        #expect(problems.isEmpty)
    }

    /// `text` with six random properties added before its closing brace, over its own states,
    /// events, variables and timer delays.
    /// A random spec (`SpecGenerator`) or statechart (`ChartGenerator`) with random
    /// properties added; nil when the generated machine does not resolve.
    static func randomSpec(_ seed: UInt64, chart: Bool, seeds: (chart: UInt64, spec: UInt64, properties: UInt64)) -> String? {
        var text: String
        if chart {
            var generator = ChartGenerator(seed: seeds.chart)
            text = generator.spec(name: "Chart\(seed)")
        } else {
            var generator = SpecGenerator(seed: seeds.spec)
            text = generator.spec(name: "Random\(seed)")
        }
        guard let machine = Statecraft.check(source: text, bounds: nil).machine else { return nil }
        var rng = SplitMix64(seed: seeds.properties)
        return withProperties(text, machine, rng: &rng)
    }

    static func withProperties(_ text: String, _ machine: Machine, rng: inout SplitMix64) -> String {
        let states = machine.states.dropFirst().filter { !$0.isHistory }.map(\.name)
        let events = machine.events.map(\.name)
        let numbers = machine.variables.filter { $0.type == .number }.map(\.name)
        let bools = machine.variables.filter { $0.type == .bool }.map(\.name)
        let strings = machine.variables.filter { $0.type == .string }.map(\.name)
        guard !states.isEmpty else { return text }
        func pick<T>(_ list: [T]) -> T { list[Int(rng.next() % UInt64(list.count))] }
        func atom() -> String {
            switch rng.next() % 4 {
            case 0 where !numbers.isEmpty: return "\(pick(numbers)) \(pick(["<", "<=", ">", "==", "!="])) \(pick([0, 1, 2, 3, 5, 12, 100]))"
            case 1 where !bools.isEmpty: return pick(["", "!"]) + pick(bools)
            case 2 where !strings.isEmpty:
                return "\(pick(strings)) \(pick(["==", "!="])) \(pick(["\"\"", "\"a\"", "\"b\""]))"
            default: return pick(["", "!"]) + "in(\(pick(states)))"
            }
        }
        func condition() -> String {
            rng.next() % 3 == 0 ? "\(atom()) \(pick(["&&", "||"])) \(atom())" : atom()
        }
        let deadlines = ["0s", "500ms", "1s", "2s", "3s", "10s"]
        var lines: [String] = []
        for k in 0..<6 {
            let form: String
            switch rng.next() % 6 {
            case 0: form = "never \(condition())" + (rng.next() % 3 == 0 ? " while \(atom())" : "")
            case 1: form = "always \(condition())" + (rng.next() % 3 == 0 ? " while \(atom())" : "")
            case 2: form = "\(condition()) only after \(atom())"
            case 3 where !events.isEmpty: form = "after \(pick(events)) within \(pick(deadlines)): \(condition())"
            case 4: form = "after entering \(pick(states)) within \(pick(deadlines)): \(condition())"
            default: form = "always reachable \(atom())"
            }
            lines.append("    property p\(k): \(form)")
        }
        guard let end = text.range(of: "}", options: .backwards) else { return text }
        return text[..<end.lowerBound] + lines.joined(separator: "\n") + "\n}\n"
    }

    static func judge(_ text: String, seed: UInt64, tally: inout Tally) -> [String] {
        // (Bounds that stop the search early leave more "not decided", never a wrong verdict.)
        let result = Statecraft.check(source: text, path: "random-\(seed).machine",
                                      bounds: ExplorationBounds(maxDepth: 8, maxConfigurations: 500))
        // A property the generator wrote wrong (a type error) leaves the spec unresolved.
        guard let machine = result.machine, let report = result.exploration else { return [] }
        tally.specs += 1
        let program = Program(machine)
        var findings: [String] = []
        var rng = SplitMix64(seed: seed)
        let runs = randomRuns(program, rng: &rng)
        // The interval analysis's proofs on their own: where the search also decides, its
        // verdict is the one reported, so a wrong proof would otherwise go unseen.
        for (k, proof) in PropertyVerdicts.analysisProofs(
                machine, program, intervals: IntervalAnalysis(machine, isStatechart: program.isStatechart)).enumerated() {
            guard let proof, let broken = runs[k] else { continue }
            findings.append("\(machine.properties[k].name): the interval analysis proves it (\(proof)), but a random run breaks it: \(broken)")
        }
        for (k, verdict) in report.properties.enumerated() {
            let name = machine.properties[k].name
            switch verdict {
            case .proven(let reason):
                tally.proven += 1
                if let broken = runs[k] { findings.append("\(name) is proven (\(reason)), but a random run breaks it: \(broken)") }
            case .violated(let c):
                tally.violated += 1
                if case .reachable = machine.properties[k].form {
                    if trapIsLeft(c.witness, k, program, rng: &rng) {
                        findings.append("\(name): from the end of its counterexample, a random run reaches it")
                    }
                } else if !breaks(c.witness, k, program) {
                    findings.append("\(name): its counterexample \(WitnessText.describe(c.witness, machine)) does not break it")
                }
            case .notDecided:
                tally.notDecided += 1
            }
        }
        // Under `replay` itself, each counterexample's log breaks its property at the line
        // the search names.
        for log in Counterexamples.logs(machine, report) {
            guard let k = machine.properties.firstIndex(where: { $0.name == log.property }) else { continue }
            if case .reachable = machine.properties[k].form { continue }
            var replayer = Replayer(program: program)
            var reader = EventLogReader(bytes: Array(log.text.utf8))
            do {
                while let record = try reader.next() { try replayer.consume(record) }
            } catch {
                findings.append("\(log.property): its counterexample log does not read: \(error.message)")
                continue
            }
            let seen = replayer.report.cases.first?.propertyViolations ?? []
            guard let hit = seen.first(where: { $0.property == log.property }), hit.line == log.violationLine else {
                findings.append("\(log.property): replay of its counterexample reports \(seen.map { "\($0.property)@\($0.line)" }), "
                    + "not \(log.property)@\(log.violationLine)\n\(log.text)")
                continue
            }
        }
        return findings
    }

    /// One run, as replay runs a log: the clock moves, the timers due fire one by one, each
    /// stable configuration is watched.
    struct Run {
        var instance: Instance
        var monitor: PropertyMonitor
        var found: [PropertyViolation] = []
        var looping = false
        /// Timers fired so far: a timer of a millisecond fires a thousand times a second.
        var timersFired = 0

        init(_ program: Program) {
            instance = Instance(program)
            monitor = PropertyMonitor(program)
        }

        mutating func start() -> Bool {
            guard case .started = instance.start().result else { return false }
            monitor.observe(&instance, at: 0, took: -1, violations: &found)
            return true
        }

        mutating func move(to time: Double) {
            var fired = 0
            var looped = false
            // A failed step is undone; a timer loop also drops every timer (and the run goes on).
            monitor.advance(&instance, to: time, violations: &found) { step in
                fired += 1
                if case .failed(let fault) = step.result, fault.isLoop { looped = true }
            }
            timersFired += fired
            if looped { looping = true }
        }

        mutating func send(_ event: EventID, _ payload: [Value], at time: Double) {
            move(to: time)
            let step = instance.send(event, payload: payload)
            if case .failed(let fault) = step.result {
                if fault.isLoop { looping = true }
                return
            }
            let took: Int32 = if case .applied = step.result { Int32(event.index) } else { -1 }
            monitor.observe(&instance, at: time, took: took, violations: &found)
            // A timer the step arms with no delay fires at the next step's `move`, as replay
            // fires it before the next line, at this same time.
        }
    }

    /// Whether following `witness` as replay follows its log breaks property `k`, and at its last step.
    static func breaks(_ witness: [WitnessStep], _ k: Int, _ program: Program) -> Bool {
        var run = Run(program)
        guard run.start() else { return false }
        for (i, step) in witness.enumerated() {
            if run.found.contains(where: { $0.property == k }) { return false }  // too early
            switch step {
            case .event(let e, let payload, let time): run.send(e, payload, at: time)
            case .wait(let until): run.move(to: until)
            }
            if i == witness.count - 1 { return run.found.contains { $0.property == k } }
        }
        return run.found.contains { $0.property == k }  // broken at the start
    }

    /// Whether some random run from the end of `witness` reaches a configuration where
    /// property `k`'s `X` holds (so the end of the witness is no trap).
    static func trapIsLeft(_ witness: [WitnessStep], _ k: Int, _ program: Program, rng: inout SplitMix64) -> Bool {
        guard let x = program.properties.first(where: { $0.property == k })?.x else { return false }
        for _ in 0..<30 {
            var run = Run(program)
            guard run.start() else { return false }
            for step in witness {
                switch step {
                case .event(let e, let payload, let time): run.send(e, payload, at: time)
                case .wait(let until): run.move(to: until)
                }
            }
            // What the last step left due at its instant fires, as at the end of a log.
            run.move(to: run.instance.now)
            var now = run.instance.now
            for _ in 0..<20 {
                if (try? run.instance.holds(x)) == true { return true }
                now += gaps[Int(rng.next() % UInt64(gaps.count))]
                let event = program.machine.events[Int(rng.next() % UInt64(program.machine.events.count))]
                run.send(event.id, payload(event, rng: &rng), at: now)
                if run.looping { break }
            }
            if (try? run.instance.holds(x)) == true { return true }
        }
        return false
    }

    static let numbers: [Double] = [0, 1, -1, 2, 3, 0.5, 5, 12, 13, 100, 101, 250, -5]
    static let gaps: [Double] = [0, 0, 0.1, 0.25, 0.5, 1, 1, 2, 3]

    static func payload(_ event: Event, rng: inout SplitMix64) -> [Value] {
        event.fields.map { f -> Value in
            switch f.type {
            case .bool: .bool(rng.next() % 2 == 0)
            case .string: .string(["a", "", "b", "s1"][Int(rng.next() % 4)])
            default: .number(numbers[Int(rng.next() % UInt64(numbers.count))])
            }
        }
    }

    /// Random runs watched by the monitor; by property index, the first violation seen.
    /// Lines land before deadlines, exactly on them (a timer's or a response's) and just past
    /// a response's.
    static func randomRuns(_ program: Program, rng: inout SplitMix64) -> [Int: String] {
        var broken: [Int: String] = [:]
        let machine = program.machine
        guard !machine.events.isEmpty else { return broken }
        var loops = 0
        for _ in 0..<80 where loops < 3 {
            var run = Run(program)
            guard run.start() else { return broken }
            var now = 0.0
            var steps: [String] = []
            for _ in 0..<30 {
                switch rng.next() % 6 {
                case 0: if let d = run.instance.nextDeadline { now = max(now, d) } else { fallthrough }
                case 1: if let d = run.monitor.nextDeadline(program) { now = max(now, rng.next() % 2 == 0 ? d : d.nextUp) } else { fallthrough }
                default: now += gaps[Int(rng.next() % UInt64(gaps.count))]
                }
                let event = machine.events[Int(rng.next() % UInt64(machine.events.count))]
                let values = payload(event, rng: &rng)
                steps.append("\(event.name)\(values) at \(now)")
                run.send(event.id, values, at: now)
                // Loops and fast timers cost thousands of steps a run: a few such runs are enough.
                if run.looping || run.timersFired > 2_000 { loops += 1; break }
                if run.instance.isFinished && rng.next() % 4 == 0 { break }
            }
            // The end of the log: a last line just past the pending deadlines.
            if let d = run.monitor.nextDeadline(program), !run.looping { run.move(to: max(now, d.nextUp)) }
            for v in run.found where broken[v.property] == nil {
                broken[v.property] = "\(v.reason) at t=\(v.time) after " + steps.joined(separator: ", ")
            }
        }
        return broken
    }
}
