import Foundation
import Statecraft
import Testing
import TestSupport

/// The claims of `history-always-default`, `unhandled-raise` and `cross-region-transition`
/// held against the runtime on random statecharts (`ChartGenerator`), microstep by
/// microstep (`MicrostepLog`):
///
/// - a history state reported as always entering its default, when a transition into it
///   fires alone in its microstep, enters inside its parent exactly what its default does;
/// - an event whose every `raise` is reported as never handled is never taken as a raised
///   event (a microstep triggered by it would have found a transition);
/// - a transition reported as leaving and re-entering a parallel state does exit and enter
///   a parallel state that is a proper ancestor of its source, whenever it fires.
///
/// Each lint must also be reported on some of the charts, so the test can fail.
@Suite struct StatechartLintTests {
    /// 200 charts in a normal run; `STATECRAFT_LINT_CHARTS=N` checks N and prints how many
    /// of each claim were made.
    static var charts: Int {
        ProcessInfo.processInfo.environment["STATECRAFT_LINT_CHARTS"].flatMap(Int.init) ?? 200
    }

    /// How often a run put a claim to the test: a reported history state entered, a step
    /// taking a transition that raises a reported event, a reported transition taken.
    struct Checked {
        var histories = 0
        var raises = 0
        var restarts = 0
    }

    struct Claims {
        var histories: Set<StateID> = []
        var unhandled: Set<EventID> = []
        var restarting: Set<TransitionID> = []
    }

    /// What the lints claim about a machine, as model ids.
    static func claims(_ machine: Machine) -> Claims {
        var claims = Claims()
        let findings = Checker.check(machine)
        let ranges = { (id: DiagnosticID) in Set(findings.filter { $0.id == id }.map(\.range)) }
        let history = ranges(.historyAlwaysDefault), raises = ranges(.unhandledRaise), cross = ranges(.crossRegionTransition)
        claims.histories = Set(machine.states.filter { $0.isHistory && history.contains($0.range) }.map(\.id))
        claims.restarting = Set(machine.transitions.filter { cross.contains($0.keywordRange) }.map(\.id))
        // Every raise of the event, wherever written, must be reported for the run to prove
        // anything: another raise of it may well be handled.
        var sites: [EventID: [SourceRange]] = [:]
        let actions = machine.states.flatMap { $0.entry + $0.exit } + machine.transitions.flatMap(\.actions)
        for action in actions {
            action.visit { if case .raise(let e, _, let range) = $0 { sites[e, default: []].append(range) } }
        }
        claims.unhandled = Set(sites.filter { $0.value.allSatisfy(raises.contains) }.keys)
        return claims
    }

    /// What is wrong with the last step's microsteps, given the claims.
    static func problems(_ log: MicrostepLog, _ claims: Claims, _ machine: Machine, _ checked: inout Checked) -> [String] {
        var problems: [String] = []
        for k in 0..<log.count {
            // A raised event nothing took is logged too, as a microstep without transitions.
            if case .raised(let e) = log.trigger(k), claims.unhandled.contains(e), !log.transitions(k).isEmpty {
                problems.append("raised '\(machine[e].name)' was taken by \(log.transitions(k).map { machine[machine[$0].source].name })")
            }
            let taken = log.transitions(k)
            let actions = taken.flatMap { machine[$0].actions } + log.entered(k).flatMap { machine[$0].entry }
            for action in actions {
                action.visit { if case .raise(let e, _, _) = $0, claims.unhandled.contains(e) { checked.raises += 1 } }
            }
            for t in taken where claims.restarting.contains(t) {
                checked.restarts += 1
                let restarted = log.exited(k).filter { s in
                    machine.isParallel(s) && machine.isDescendant(machine[t].source, of: s) && log.entered(k).contains(s)
                }
                if restarted.isEmpty { problems.append("transition \(t.index) fired without restarting a parallel state") }
            }
            guard taken.count == 1, let t = taken.first, let h = machine[t].target, claims.histories.contains(h),
                  let parent = machine[h].parent else { continue }
            checked.histories += 1
            let inside = { (states: [StateID]) in Set(states.filter { machine.isDescendant($0, of: parent) }) }
            let expected = inside(machine.entrySet([machine[t].shape], historyValue: { _ in nil }))
            if inside(log.entered(k)) != expected {
                problems.append("history state '\(machine[h].name)' entered \(inside(log.entered(k)).map { machine[$0].name }), "
                    + "not its default \(expected.map { machine[$0].name })")
            }
        }
        return problems
    }

    @Test func theLintsHoldAgainstTheRuntime() throws {
        var reported = Claims()
        var checked = Checked()
        var failures: [String] = []
        for seed in 0..<UInt64(StatechartLintTests.charts) {
            var generator = ChartGenerator(seed: seed &* 6007 &+ 3)
            let text = generator.spec(name: "Chart\(seed)")
            let file = SourceFile(path: "chart\(seed).machine", text: text)
            let (syntax, parsed) = Parser.parse(file)
            let resolution = Resolver.resolve(syntax, in: file)
            guard let machine = resolution.machine, !parsed.hasErrors, !resolution.diagnostics.hasErrors else { continue }
            let claims = StatechartLintTests.claims(machine)
            reported.histories.formUnion(claims.histories.map { StateID($0.index + Int(seed) * 1000) })
            reported.unhandled.formUnion(claims.unhandled.map { EventID($0.index + Int(seed) * 1000) })
            reported.restarting.formUnion(claims.restarting.map { TransitionID($0.index + Int(seed) * 1000) })
            guard !claims.histories.isEmpty || !claims.unhandled.isEmpty || !claims.restarting.isEmpty else { continue }
            var problems = Set<String>()
            StatechartLintTests.run(Program(machine), seed: seed) { log in
                problems.formUnion(StatechartLintTests.problems(log, claims, machine, &checked))
            }
            if !problems.isEmpty { failures.append("seed \(seed): \(problems.sorted())\n\(text)") }
        }
        for failure in failures.prefix(3) { Issue.record(Comment(rawValue: failure)) }
        #expect(failures.isEmpty)
        let exercised = "\(StatechartLintTests.charts) random charts: \(reported.histories.count) history states, "
            + "\(reported.unhandled.count) raised events and \(reported.restarting.count) transitions reported; "
            + "checked at run time \(checked.histories) times, \(checked.raises) times and \(checked.restarts) times"
        if StatechartLintTests.charts != 200 { print(exercised) }
        #expect(!reported.histories.isEmpty && !reported.unhandled.isEmpty && !reported.restarting.isEmpty
                    && checked.histories > 0 && checked.raises > 0 && checked.restarts > 0, Comment(rawValue: exercised))
    }

    /// Random runs of a chart, handing each step's microsteps to `inspect`.
    static func run(_ program: Program, seed: UInt64, inspect: (MicrostepLog) -> Void) {
        var rng = SplitMix64(seed: seed)
        let machine = program.machine
        guard !machine.events.isEmpty else { return }
        for _ in 0..<60 {
            var instance = Instance(program)
            let log = MicrostepLog()
            instance.microsteps = log
            guard case .started = instance.start().result else { return }
            inspect(log)
            var now = 0.0
            for _ in 0..<30 {
                now += [0, 0.5, 1, 2][Int(rng.next() % 4)]
                var looping = false
                instance.advance(to: now, onStep: { step in
                    inspect(log)
                    if case .failed(let fault) = step.result, fault.isLoop { looping = true }
                })
                if looping { return }
                let event = machine.events[Int(rng.next() % UInt64(machine.events.count))]
                let payload = event.fields.map { f -> Value in
                    switch f.type {
                    case .bool: return .bool(rng.next() % 2 == 0)
                    case .string: return .string("a")
                    default: return .number(Double(rng.next() % 4))
                    }
                }
                let step = instance.send(event.id, payload: payload)
                inspect(log)
                if case .failed(let fault) = step.result, fault.isLoop { return }
                if instance.isFinished { break }
            }
        }
    }
}
