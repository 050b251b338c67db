import Foundation
import Statecraft
@testable import StatecraftAnalysis
import Testing
import TestSupport

/// `check`'s verdicts against the real runtime, on random specs made to trip an analysis up
/// (`SpecGenerator`) and on random statecharts (`ChartGenerator`: nesting, parallel
/// regions, history, `done`, `always`, `raise`, `in(x)`): nothing proven unreachable is ever
/// entered or fired by a random replay; every witness reaches its item; every log `paths`
/// writes replays under `--strict`; every overlap witness fires the first transition of its
/// pair. A statechart's runs are recorded microstep by microstep (`MicrostepLog`): every
/// transition a step takes and every state it enters counts, and a history state is hit
/// when a transition into it fires.
///
/// A normal run (every submission's CI) checks `quickRun` specs and `quickCharts` charts;
/// the scheduled deep run (`.ci/deep`) checks thousands;
/// `STATECRAFT_SOUNDNESS_SPECS=N STATECRAFT_SOUNDNESS_CHARTS=M swift test --filter
/// SoundnessTests` checks N and M and prints how many items were proven, reached and not
/// reached, and how many of the not-reached ones random replay then reached (how complete
/// the search is).
@Suite struct SoundnessTests {
    static let quickRun = 100
    static let quickCharts = 40
    static var specCount: Int {
        ProcessInfo.processInfo.environment["STATECRAFT_SOUNDNESS_SPECS"].flatMap(Int.init) ?? quickRun
    }
    static var chartCount: Int {
        ProcessInfo.processInfo.environment["STATECRAFT_SOUNDNESS_CHARTS"].flatMap(Int.init) ?? quickCharts
    }

    /// What random replays of a machine did.
    struct Hits {
        var states: Set<Int> = []
        var transitions: Set<Int> = []
    }

    struct Tally {
        var specs = 0
        var proven = 0
        var reached = 0
        var notReached = 0
        var notReachedButHit = 0
        var unresolved = 0
    }

    @Test func verdictsHoldAgainstTheRuntime() throws {
        var tally = Tally()
        var problems: [String] = []
        for seed in 0..<UInt64(SoundnessTests.specCount) {
            var generator = SpecGenerator(seed: seed &* 7919 &+ 17)
            let text = generator.spec(name: "Random\(seed)")
            guard let findings = SoundnessTests.judge(text, seed: seed, tally: &tally) else {
                problems.append("seed \(seed): the generated spec does not resolve\n\(text)")
                continue
            }
            if !findings.isEmpty {
                problems.append("seed \(seed):\n  " + findings.joined(separator: "\n  ") + "\n" + text)
            }
        }
        if SoundnessTests.specCount != SoundnessTests.quickRun {
            print("soundness: \(tally.specs) specs; items proven unreachable \(tally.proven), reached \(tally.reached), "
                + "not reached \(tally.notReached), of which random replay reached \(tally.notReachedButHit)")
        }
        #expect(tally.specs == SoundnessTests.specCount)
        #expect(tally.proven > 0 && tally.reached > 0, "the generator exercises every verdict")
        for problem in problems.prefix(5) { Issue.record(Comment(rawValue: problem)) }
        #expect(problems.count == 0)
    }

    /// The same on specs made for the search's reductions (`SpecGenerator` with
    /// `searchReductions`): strings copied into variables, variables that decide nothing
    /// beside ones that do, and sends with payloads after delays. A reduction that merged
    /// configurations a guard can tell apart would prove unreachable what a replay reaches.
    @Test func reductionVerdictsHoldAgainstTheRuntime() throws {
        var tally = Tally()
        var problems: [String] = []
        var merged = 0
        for seed in 0..<UInt64(SoundnessTests.specCount / 2) {
            var generator = SpecGenerator(seed: seed &* 104_729 &+ 5, searchReductions: true)
            let text = generator.spec(name: "Reduced\(seed)")
            guard let findings = SoundnessTests.judge(text, seed: seed, tally: &tally) else {
                problems.append("seed \(seed): the generated spec does not resolve\n\(text)")
                continue
            }
            if let machine = Statecraft.check(source: text, bounds: nil).machine, VariableRelevance(machine).mergesAnything {
                merged += 1
            }
            if !findings.isEmpty {
                problems.append("seed \(seed):\n  " + findings.joined(separator: "\n  ") + "\n" + text)
            }
        }
        #expect(tally.proven > 0 && tally.reached > 0, "the generator exercises every verdict")
        #expect(merged > tally.specs / 2, "most specs have variables the search merges on")
        for problem in problems.prefix(5) { Issue.record(Comment(rawValue: problem)) }
        #expect(problems.count == 0)
    }

    /// `check --reach`'s search (`TargetedSearch`: best first, leaving out configurations
    /// from which no transition leads to the target) on random specs and charts, one target
    /// per state and per transition: every witness reaches its target, nothing it proves
    /// unreachable is hit by a random replay, and it never contradicts the whole-spec search
    /// (one reaches what the other proves unreachable).
    @Test func targetedVerdictsHoldAgainstTheRuntime() throws {
        var problems: [String] = []
        var counts = (reached: 0, proven: 0, pruned: 0)
        let bounds = ExplorationBounds(maxDepth: 8, maxConfigurations: 300)
        let texts = (0..<UInt64(SoundnessTests.specCount / 10)).map { seed -> String in
            var generator = SpecGenerator(seed: seed &* 7919 &+ 17)
            return generator.spec(name: "Random\(seed)")
        } + (0..<UInt64(SoundnessTests.chartCount / 4)).map { seed -> String in
            var generator = ChartGenerator(seed: seed &* 6007 &+ 3)
            return generator.spec(name: "Chart\(seed)")
        }
        for (n, text) in texts.enumerated() {
            let whole = Statecraft.check(source: text, path: "random.machine", bounds: bounds)
            guard let machine = whole.machine, let report = whole.exploration else { continue }
            let program = Program(machine)
            var rng = SplitMix64(seed: UInt64(n))
            let hits = SoundnessTests.randomReplays(program, rng: &rng)
            var targets: [(TargetedSearch.Target, ExplorationReport.Finding, Bool, String)] = []
            for s in machine.states.dropFirst() where !s.isHistory {
                targets.append((.state(s.id), report.states[s.id.index], hits.states.contains(s.id.index), "state '\(s.name)'"))
            }
            for t in machine.transitions {
                targets.append((.transitions([t.id]), report.transitions[t.id.index], hits.transitions.contains(t.id.index),
                                "transition " + TestGeneration.describe(t, machine)))
            }
            for (target, wholeFinding, hit, what) in targets {
                let targeted = TargetedSearch.run(machine, target: target, bounds: bounds)
                counts.pruned += targeted.pruned
                let finding: ExplorationReport.Finding
                let reaches: (Hits) -> Bool
                switch target {
                case .state(let s):
                    finding = targeted.exploration.states[s.index]
                    reaches = { $0.states.contains(s.index) }
                case .transitions(let ts):
                    finding = targeted.exploration.transitions[ts[0].index]
                    reaches = { $0.transitions.contains(ts[0].index) }
                }
                switch (finding, wholeFinding) {
                case (.reached, .unreachable(let reason)):
                    problems.append("\(what): --reach reaches it but check proves it unreachable (\(reason))\n\(text)")
                case (.unreachable(let reason), .reached):
                    problems.append("\(what): --reach proves it unreachable (\(reason)) but check reaches it\n\(text)")
                default:
                    break
                }
                switch finding {
                case .reached(let witness):
                    counts.reached += 1
                    if !reaches(SoundnessTests.follow(witness, program)) {
                        problems.append("\(what): the --reach witness does not reach it\n\(text)")
                    }
                case .unreachable(let reason):
                    counts.proven += 1
                    if hit { problems.append("\(what): --reach proves it unreachable (\(reason)) but a random replay reached it\n\(text)") }
                case .notReached:
                    break
                }
            }
        }
        #expect(counts.reached > 0 && counts.proven > 0 && counts.pruned > 0, "\(counts)")
        for problem in problems.prefix(5) { Issue.record(Comment(rawValue: problem)) }
        #expect(problems.count == 0)
    }

    @Test func chartVerdictsHoldAgainstTheRuntime() throws {
        var tally = Tally()
        var problems: [String] = []
        for seed in 0..<UInt64(SoundnessTests.chartCount) {
            var generator = ChartGenerator(seed: seed &* 6007 &+ 3)
            let text = generator.spec(name: "Chart\(seed)")
            // A chart the front end refuses (an eventless cycle it can prove) is not the analysis' business.
            guard let findings = SoundnessTests.judge(text, seed: seed, tally: &tally) else {
                tally.unresolved += 1
                continue
            }
            if !findings.isEmpty {
                problems.append("chart seed \(seed):\n  " + findings.joined(separator: "\n  ") + "\n" + text)
            }
        }
        if SoundnessTests.chartCount != SoundnessTests.quickCharts {
            print("soundness: \(tally.specs) charts (\(tally.unresolved) more did not resolve); items proven unreachable "
                + "\(tally.proven), reached \(tally.reached), not reached \(tally.notReached), of which random replay "
                + "reached \(tally.notReachedButHit)")
        }
        #expect(tally.specs >= SoundnessTests.chartCount * 3 / 4, "most random charts resolve")
        #expect(tally.proven > 0 && tally.reached > 0, "the generator exercises every verdict")
        for problem in problems.prefix(5) { Issue.record(Comment(rawValue: problem)) }
        #expect(problems.count == 0)
    }

    /// Checks one spec and holds every verdict against random replays; the problems found,
    /// or nil when the spec does not resolve.
    static func judge(_ text: String, seed: UInt64, tally: inout Tally) -> [String]? {
        let result = Statecraft.check(source: text, path: "random-\(seed).machine",
                                      bounds: ExplorationBounds(maxDepth: 8, maxConfigurations: 1_500))
        guard let machine = result.machine, let report = result.exploration else { return nil }
        tally.specs += 1
        let program = Program(machine)
        var rng = SplitMix64(seed: seed)
        let hits = SoundnessTests.randomReplays(program, rng: &rng)
        func name(state i: Int) -> String { "state '\(machine.states[i].name)'" }
        func name(transition i: Int) -> String { "transition " + TestGeneration.describe(machine.transitions[i], machine) }
        var findings: [String] = []
        for (i, finding) in report.states.enumerated() where i > 0 {
            findings += SoundnessTests.judge(finding, hit: hits.states.contains(i), what: name(state: i),
                                             program: program, reaches: { $0.states.contains(i) }, tally: &tally)
        }
        for (i, finding) in report.transitions.enumerated() {
            findings += SoundnessTests.judge(finding, hit: hits.transitions.contains(i), what: name(transition: i),
                                             program: program, reaches: { $0.transitions.contains(i) }, tally: &tally)
        }
        for overlap in report.overlaps where !SoundnessTests.fires(overlap.first, after: overlap.witness, program) {
            findings.append("the overlap witness of \(name(transition: overlap.first.index)) and "
                + "\(name(transition: overlap.second.index)) does not fire the first")
        }
        for cover in TestGeneration.Cover.allCases {
            let generated = TestGeneration.generate(machine, report, cover: cover)
            let reference = TestGeneration.generateReference(machine, report, cover: cover)
            if generated.logs != reference.logs || generated.targets != reference.targets {
                findings.append("paths (\(cover)) differs from its reference: \(generated.logs.map(\.file)) "
                    + "vs \(reference.logs.map(\.file))")
            }
            for log in generated.logs {
                var replayer = Replayer(program: program, options: .init(strict: true))
                var reader = EventLogReader(bytes: Array(log.text.utf8))
                do {
                    while let record = try reader.next() { try replayer.consume(record) }
                } catch {
                    findings.append("paths log \(log.file) is malformed at line \(error.line): \(error.message)")
                }
                if !replayer.report.passed {
                    let c = replayer.report.cases.first
                    findings.append("paths log \(log.file) does not replay under --strict: "
                        + "\(c?.rejections.first?.message ?? c?.failures.first.map { "\($0.subject): expected \($0.expected), found \($0.actual)" } ?? "")")
                }
            }
        }
        return findings
    }

    /// The problems with one verdict, and its count in the tally.
    static func judge(_ finding: ExplorationReport.Finding, hit: Bool, what: String, program: Program,
                      reaches: (Hits) -> Bool, tally: inout Tally) -> [String] {
        switch finding {
        case .unreachable(let reason):
            tally.proven += 1
            return hit ? ["\(what) is proven unreachable (\(reason)) but a random replay reached it"] : []
        case .reached(let witness):
            tally.reached += 1
            return reaches(follow(witness, program)) ? [] : ["the witness of \(what) does not reach it"]
        case .notReached:
            tally.notReached += 1
            if hit { tally.notReachedButHit += 1 }
            return []
        }
    }

    /// Every state entered and transition fired by a run: for a statechart, every
    /// microstep of the step (`log`); a history state counts when a transition into it fires.
    static func record(_ step: Step, into hits: inout Hits, _ program: Program, _ log: MicrostepLog) {
        if case .applied = step.result, log.count > 0 {
            recordMicrosteps(log, into: &hits, program)
        } else if case .applied(let t) = step.result {
            hits.transitions.insert(t.index)
            var s: StateID? = step.to
            while let state = s, state != program.machine.root {
                hits.states.insert(state.index)
                s = program.machine[state].parent
            }
        }
    }

    /// Every transition a statechart's last step took and every state it entered.
    static func recordMicrosteps(_ log: MicrostepLog, into hits: inout Hits, _ program: Program) {
        for t in log.takenTransitions {
            hits.transitions.insert(t.index)
            if let target = program.machine[t].target, program.machine[target].isHistory { hits.states.insert(target.index) }
        }
        for s in log.enteredStates { hits.states.insert(s.index) }
    }

    /// What following a witness does, exactly as a log would: events at their times,
    /// timers due before each.
    static func follow(_ witness: [WitnessStep], _ program: Program) -> Hits {
        var hits = Hits()
        var instance = Instance(program)
        let log = MicrostepLog()
        instance.microsteps = log
        guard case .started = instance.start().result else { return hits }
        for s in instance.activeStates { hits.states.insert(s.index) }
        recordMicrosteps(log, into: &hits, program)
        for step in witness {
            switch step {
            case .event(let e, let payload, let time):
                instance.advance(to: time, onStep: { record($0, into: &hits, program, log) })
                record(instance.send(e, payload: payload), into: &hits, program, log)
            case .wait(let until):
                instance.advance(to: until, onStep: { record($0, into: &hits, program, log) })
            }
        }
        return hits
    }

    /// Whether the last step of `witness` (an event) fires `first` (for a statechart: among
    /// the transitions its first microstep takes).
    static func fires(_ first: TransitionID, after witness: [WitnessStep], _ program: Program) -> Bool {
        var instance = Instance(program)
        let log = MicrostepLog()
        instance.microsteps = log
        guard case .started = instance.start().result, case .event(let e, let payload, let time)? = witness.last else { return false }
        for step in witness.dropLast() {
            switch step {
            case .event(let e, let payload, let time):
                instance.advance(to: time)
                _ = instance.send(e, payload: payload)
            case .wait(let until):
                instance.advance(to: until)
            }
        }
        instance.advance(to: time)
        let step = instance.send(e, payload: payload)
        if case .applied = step.result, log.count > 0 { return log.transitions(0).contains(first) }
        return step.result == .applied(first)
    }

    /// Random runs: events with payloads drawn from the spec's kind of numbers, at times
    /// that land before, on and after timer deadlines.
    static func randomReplays(_ program: Program, rng: inout SplitMix64) -> Hits {
        var hits = Hits()
        let machine = program.machine
        let numbers: [Double] = [0, 1, -1, 2, 3, 0.1, 0.3, 0.5, 5, 12, 13, 14, 15, 100, 101, 250, 251, -5, 1e300, 0.30000000000000004]
        let texts = ["a", "", "b", "s1"]
        let gaps: [Double] = [0, 0, 0.1, 0.2, 0.3, 0.5, 1, 1, 2, 3, 0.001]
        var loops = 0
        // A machine that loops on a few runs loops on most, and each loop costs 10,000 steps
        // (half of this suite's time when flat specs kept going): three loops end its runs.
        for _ in 0..<120 where loops < 3 {
            var instance = Instance(program)
            let log = MicrostepLog()
            instance.microsteps = log
            guard case .started = instance.start().result else { return hits }
            for s in instance.activeStates { hits.states.insert(s.index) }
            recordMicrosteps(log, into: &hits, program)
            var now = Double(rng.next() % 3)  // start at 0, 1 or 2: deadlines round differently
            var looping = false
            for _ in 0..<40 {
                // Sometimes exactly to the next deadline (a line at a timer's instant), else a gap.
                if let deadline = instance.nextDeadline, rng.next() % 4 == 0 {
                    now = max(now, deadline)
                } else {
                    now += gaps[Int(rng.next() % UInt64(gaps.count))]
                }
                instance.advance(to: now, onStep: { step in
                    record(step, into: &hits, program, log)
                    if case .failed(let fault) = step.result, fault.isLoop { looping = true }
                })
                // A timer loop costs 10,000 steps each time: once is enough to see it.
                if looping {
                    loops += 1
                    break
                }
                let event = machine.events[Int(rng.next() % UInt64(machine.events.count))]
                let payload = event.fields.map { f -> Value in
                    switch f.type {
                    case .bool: return .bool(rng.next() % 2 == 0)
                    case .string: return .string(texts[Int(rng.next() % UInt64(texts.count))])
                    default: return .number(numbers[Int(rng.next() % UInt64(numbers.count))])
                    }
                }
                let step = instance.send(event.id, payload: payload)
                record(step, into: &hits, program, log)
                // So does an eventless or raise loop, stopped after 10,000 microsteps.
                if case .failed(let fault) = step.result, fault.isLoop {
                    loops += 1
                    break
                }
                if instance.isFinished { break }
            }
        }
        return hits
    }
}

extension ExpressionFault {
    /// Whether the step was stopped as a loop (timers at one instant, or a macrostep's
    /// microsteps): costly to run, and once is enough to see it.
    var isLoop: Bool {
        switch reason {
        case .timerLoop, .microstepLimit: return true
        default: return false
        }
    }
}
