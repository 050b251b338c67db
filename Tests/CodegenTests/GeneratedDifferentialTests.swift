import Foundation
import GeneratedMachines
import Statecraft
import Testing
import TestSupport

/// Each generated type and the runtime's `Instance`, side by side, on the bundled session logs
/// and on 10,000 random steps per spec and per random chart: after every step (and every timer) they agree on the
/// outcome, the outputs with their arguments, the active states, the variables and the clock.
/// The first difference fails, with the step and both sides.
@Suite struct GeneratedDifferentialTests {
    /// One machine of each kind, stepped together.
    ///
    /// Every step is compared value by value (numbers to the bit), and put into words only when
    /// the two sides differ: the tests take half a million steps.
    struct Pair<M: GeneratedMachine> {
        let program: Program
        var instance: Instance
        var generated: M
        /// The latest moves (at most `Move.kept`), for the message of a difference.
        var history: [Move] = []
        /// How many times both were advanced: every other time, one step at a time.
        var advances = 0

        /// What was done to both sides, worded only for a failure's message.
        enum Move: CustomStringConvertible {
            case start, snapshot
            case send(String, [Value])
            case advance(Double)

            static var kept: Int { 12 }

            var description: String {
                switch self {
                case .start: "start"
                case .snapshot: "snapshot"
                case .send(let name, let payload): "\(name)(\(payload.map(\.description).joined(separator: ", ")))"
                case .advance(let time): "advance(to: \(time))"
                }
            }
        }

        init(_ program: Program) {
            self.program = program
            instance = Instance(program)
            generated = M()
        }

        /// The latest moves, oldest first, as a failure's message gives them.
        var recentMoves: String { history.suffix(Move.kept).map(\.description).joined(separator: "; ") }

        private mutating func note(_ move: Move) {
            if history.count >= 4 * Move.kept { history.removeFirst(3 * Move.kept) }
            history.append(move)
        }

        /// Starts both; nil when they agree, else the difference.
        mutating func start() -> String? {
            var outputs: [(OutputID, [Value])] = []
            let step = instance.start { outputs.append(($0, $1)) }
            note(.start)
            return agree(step, generated.start.outcome, outputs, generated.start.outputs, "start")
        }

        /// Advances both to `time`, then sends the event; nil when they agree.
        mutating func step(_ event: EventID, _ payload: [Value], at time: Double?) -> String? {
            if let time, let difference = advance(to: time) { return difference }
            let name = program.machine[event].name
            note(.send(name, payload))
            guard let typed = M.Event(name: name, fields: payload.map(Self.generatedValue)) else {
                return "the generated type builds no event '\(name)' from \(payload)"
            }
            var expected: [(OutputID, [Value])] = []
            let step = instance.send(event, payload: payload) { expected.append(($0, $1)) }
            var actual: [M.Output] = []
            let outcome = generated.send(typed) { actual.append($0) }
            if let difference = agree(step, outcome, expected, actual, "send \(name)") { return difference }
            // A timer armed with no delay fires right after the step, as replay does it.
            return advance(to: instance.now)
        }

        mutating func advance(to time: Double) -> String? {
            advances += 1
            if advances % 2 == 0 { return advanceStepwise(to: time) }
            var expected: [(Step, [(OutputID, [Value])])] = []
            var pending: [(OutputID, [Value])] = []
            instance.advance(to: time, emit: { pending.append(($0, $1)) }, onStep: {
                expected.append(($0, pending))
                pending = []
            })
            var actual: [(M.Outcome, [M.Output])] = []
            var outputs: [M.Output] = []
            generated.advance(to: time, emit: { outputs.append($0) }, onStep: {
                actual.append(($0, outputs))
                outputs = []
            })
            note(.advance(time))
            guard expected.count == actual.count else {
                return "advance(to: \(time)): the runtime fired \(expected.count) timer(s), the generated type \(actual.count)"
            }
            for ((step, out1), (outcome, out2)) in zip(expected, actual) {
                if let difference = agree(step, outcome, out1, out2, "timer before \(time)") { return difference }
            }
            return compareState("advance(to: \(time))")
        }

        /// `advance(to:)` one timer's (or sent event's) step at a time: the runtime's
        /// `fireNextTimer` and the generated type's `fireNext`, compared after every step (what a
        /// tool that watches each step, the log harness, sees), then both clocks moved.
        mutating func advanceStepwise(to time: Double) -> String? {
            note(.advance(time))
            var firedAtOnce = 0, firedAtOnceToo = 0
            while true {
                let step = instance.fireNextTimer(dueBy: time, firedAtOnce: &firedAtOnce)
                var expected: [(OutputID, [Value])] = []
                if step != nil { instance.deliverOutputs { expected.append(($0, $1)) } }
                var actual: [M.Output] = []
                let mine = generated.fireNext(dueBy: time, firedAtOnce: &firedAtOnceToo, emit: { actual.append($0) })
                switch (step, mine) {
                case (nil, nil):
                    instance.advance(to: time)
                    generated.advance(to: time, emit: { _ in }, onStep: { _ in })
                    return compareState("advance(to: \(time)), one step at a time")
                case (let step?, let mine?):
                    let sent = step.sent.map { program.machine[$0].name }
                    if sent != mine.sentEvent {
                        return "a step before \(time): the runtime took sent event \(sent ?? "none"), the generated type \(mine.sentEvent ?? "none")"
                    }
                    if let difference = agree(step, mine.outcome, expected, actual, "a step before \(time), one at a time") {
                        return difference
                    }
                case (nil, _?):
                    return "advance(to: \(time)), one step at a time: the generated type fires a step the runtime does not"
                case (_?, nil):
                    return "advance(to: \(time)), one step at a time: the runtime fires a step the generated type does not"
                }
            }
        }

        /// Snapshots both sides; nil when the documents are the same and each side restores from
        /// the other's (the generated type always, the instance when `restoringInstance`).
        mutating func swapThroughSnapshots(restoringInstance: Bool) -> String? {
            let mine = generated.snapshotJSON()
            let theirs = instance.snapshotJSON()
            guard mine == theirs else { return "snapshots differ:\n\(theirs)\nagainst\n\(mine)" }
            note(.snapshot)
            do {
                generated = try M(restoring: theirs)
            } catch {
                return "the generated type refuses the runtime's snapshot: \(error)\n\(theirs)"
            }
            if restoringInstance {
                do {
                    instance = try Instance(restoring: mine, program: program)
                } catch {
                    return "the runtime refuses the generated type's snapshot: \(error)\n\(mine)"
                }
            }
            return compareState("restore")
        }

        /// Whether a runtime step and a generated outcome say the same.
        func agree(_ step: Step, _ outcome: M.Outcome, _ expected: [(OutputID, [Value])], _ actual: [M.Output],
                   _ what: @autoclosure () -> String) -> String? {
            if !sameOutcome(step, outcome) {
                let runtime: String
                switch step.result {
                case .started: runtime = "started"
                case .applied(let t): runtime = "taken \(t.index)"
                case .ignored: runtime = "ignored"
                case .afterFinal: runtime = "afterFinal"
                case .failed(let fault):
                    let at = program.machine.source.location(of: fault.range.start)
                    runtime = "rejected \(fault.message) at \(at.line):\(at.column)"
                }
                return "\(what()): the runtime says \(runtime), the generated type \(Self.describe(outcome))"
            }
            let sameOutputs = expected.count == actual.count && zip(expected, actual).allSatisfy { e, a in
                program.machine[e.0].name == a.name && e.1.count == a.arguments.count
                    && zip(e.1, a.arguments).allSatisfy { Self.same($0, $1) }
            }
            if !sameOutputs {
                let runtimeOutputs = expected.map { "\(program.machine[$0.0].name)(\($0.1.map(\.description).joined(separator: ", ")))" }
                let myOutputs = actual.map { "\($0.name)(\($0.arguments.map(Self.modelValue).map(\.description).joined(separator: ", ")))" }
                return "\(what()): outputs \(runtimeOutputs) against \(myOutputs)"
            }
            return compareState(what())
        }

        /// A generated outcome as the messages word it: `taken 3`, `rejected … at 12:5`.
        static func describe(_ outcome: M.Outcome) -> String {
            var text = outcome.name
            if let t = outcome.transition { text += " \(t)" }
            if let f = outcome.failure { text += " \(f.message) at \(f.line):\(f.column)" }
            return text
        }

        /// The same outcome: the same case, transition, and failure message and position.
        func sameOutcome(_ step: Step, _ outcome: M.Outcome) -> Bool {
            switch step.result {
            case .started: return outcome.name == "started" && outcome.transition == nil && outcome.failure == nil
            case .applied(let t): return outcome.name == "taken" && outcome.transition == t.index && outcome.failure == nil
            case .ignored: return outcome.name == "ignored" && outcome.transition == nil && outcome.failure == nil
            case .afterFinal: return outcome.name == "afterFinal" && outcome.transition == nil && outcome.failure == nil
            case .failed(let fault):
                guard outcome.name == "rejected", outcome.transition == nil, let failure = outcome.failure else { return false }
                let at = program.machine.source.location(of: fault.range.start)
                return failure.message == fault.message && failure.line == at.line && failure.column == at.column
            }
        }

        /// Values equal as the runtime's and the generated type's: numbers to the bit, but
        /// any NaN equals any NaN (their payload bits mean nothing).
        static func same(_ a: Value, _ b: M.Value) -> Bool {
            switch a {
            case .number(let n):
                guard let m = b.numberValue else { return false }
                return n.isNaN ? m.isNaN : n.bitPattern == m.bitPattern
            case .bool(let x): return b.boolValue == x
            case .string(let x): return b.stringValue == x
            }
        }

        func compareState(_ what: @autoclosure () -> String) -> String? {
            let states = instance.activeStates
            let names = generated.configurationNames
            if states.count != names.count || !zip(states, names).allSatisfy({ program.machine[$0].name == $1 }) {
                return "\(what()): active states \(states.map { program.machine[$0].name }) against \(names)"
            }
            let values = instance.variables
            let mine = generated.variableValues
            let variables = program.machine.variables
            if values.count != mine.count
                || !zip(zip(variables, values), mine).allSatisfy({ $0.0.name == $1.name && Self.same($0.1, $1.value) }) {
                let theirs = zip(variables, values).map { "\($0.name)=\($1)" }
                return "\(what()): variables \(theirs) against \(mine.map { "\($0.name)=\(Self.modelValue($0.value))" })"
            }
            if instance.isFinished != generated.isFinished { return "\(what()): finished \(instance.isFinished) against \(generated.isFinished)" }
            if instance.now.bitPattern != generated.now.bitPattern { return "\(what()): now \(instance.now) against \(generated.now)" }
            return nil
        }

        static func generatedValue(_ v: Value) -> M.Value {
            switch v {
            case .number(let n): .number(n)
            case .bool(let b): .bool(b)
            case .string(let s): .string(s)
            }
        }

        static func modelValue(_ v: M.Value) -> Value {
            if let n = v.numberValue { return .number(n) }
            if let b = v.boolValue { return .bool(b) }
            return .string(v.stringValue ?? "")
        }
    }

    static func program(_ spec: String) throws -> Program {
        if let seed = RandomCharts.seed(of: spec) {
            return try Program(specText: RandomCharts.text(seed: seed), path: RandomCharts.typeName(seed: seed) + ".machine")
        }
        let url = Repository.root.appendingPathComponent(spec)
        return try Program(specText: String(contentsOf: url, encoding: .utf8), path: spec)
    }

    /// Replays `Specs/NAME.session.jsonl` through both, case by case.
    static func replaySession<M: GeneratedMachine>(_ type: M.Type, spec: String) throws {
        let program = try program(spec)
        let log = spec.replacingOccurrences(of: ".machine", with: ".session.jsonl")
        var reader = try EventLogReader.open(path: Repository.root.appendingPathComponent(log).path)
        var pairs: [String: Pair<M>] = [:]
        var lines = 0
        while let record = try reader.next() {
            guard case .event(let name, _, let members) = record.body else { continue }
            let key = record.caseKey ?? ""
            if pairs[key] == nil {
                var pair = Pair<M>(program)
                if let difference = pair.start() { Issue.record("\(log), case \(key): \(difference)"); return }
                pairs[key] = pair
            }
            guard let event = program.machine.events.first(where: { $0.name == name }) else { continue }
            let payload = event.fields.map { field -> Value in
                switch members.first(where: { $0.key == field.name })?.value {
                case .number(let n)?: .number(n)
                case .bool(let b)?: .bool(b)
                case .string(let s)?: .string(s)
                default: field.type.zero
                }
            }
            lines += 1
            if let difference = pairs[key]!.step(event.id, payload, at: record.time) {
                Issue.record("\(log):\(record.line), case \(key): \(difference)")
                return
            }
        }
        #expect(lines > 0, "\(log) has no event line")
    }

    @Test func sessionLogs() throws {
        for (spec, type) in generatedMachines where spec.hasPrefix("Specs/") {
            try Self.replaySession(type, spec: spec)
        }
    }

    /// Payload values that matter to the spec: its constants and number literals, one either
    /// side of each, zero, and random values; its string literals and random strings.
    struct Inputs {
        var numbers: [Double] = [0, -1, 1, 0.5]
        var strings: [String] = ["", "a", "❤️"]

        init(_ machine: Machine) {
            func look(_ e: Expr) {
                e.visit {
                    switch $0.kind {
                    case .literal(.number(let n)): numbers += [n, n - 1, n + 1, n.nextUp, n.nextDown]
                    case .literal(.string(let s)): strings.append(s)
                    default: break
                    }
                }
            }
            for c in machine.constants {
                if case .number(let n) = c.value { numbers += [n, n - 1, n + 1, -n] }
                if case .string(let s) = c.value { strings.append(s) }
            }
            for t in machine.transitions {
                t.guardExpr.map(look)
                if case .after(let d) = t.trigger { look(d) }
                for a in t.actions { a.visitExpressions(look) }
            }
            for s in machine.states { for a in s.entry + s.exit { a.visitExpressions(look) } }
        }

        func value(_ type: ValueType, _ rng: inout SplitMix64) -> Value {
            switch type {
            case .number:
                rng.next() % 4 == 0 ? .number(Double(Int(rng.next() % 4001)) / 2 - 1000) : .number(numbers[Int(rng.next() % UInt64(numbers.count))])
            case .bool: .bool(rng.next() & 1 == 0)
            case .string: .string(strings[Int(rng.next() % UInt64(strings.count))])
            }
        }
    }

    /// 10,000 random steps in runs of up to 200 (a fresh pair each run): random events and
    /// payloads, and time gaps that land before, on and after the next deadline.
    static func randomSteps<M: GeneratedMachine>(_ type: M.Type, spec: String, seed: UInt64) throws {
        let program = try program(spec)
        let machine = program.machine
        guard !machine.events.isEmpty else { return }
        let inputs = Inputs(machine)
        var rng = SplitMix64(seed: seed)
        var total = 0
        while total < 10_000 {
            var pair = Pair<M>(program)
            if let difference = pair.start() {
                Issue.record("\(spec), seed \(seed): \(difference)")
                return
            }
            for _ in 0..<200 {
                total += 1
                let event = machine.events[Int(rng.next() % UInt64(machine.events.count))]
                let payload = event.fields.map { inputs.value($0.type, &rng) }
                var time: Double? = nil
                switch rng.next() % 6 {
                case 0: time = pair.instance.now + Double(rng.next() % 100) / 100
                case 1: time = pair.generated.nextDeadline
                case 2: time = pair.generated.nextDeadline.map { $0.nextDown }
                case 3: time = pair.generated.nextDeadline.map { $0 + 0.25 }
                default: break
                }
                if let difference = pair.step(event.id, payload, at: time) {
                    Issue.record("\(spec), seed \(seed), step \(total): \(difference)\nafter: \(pair.recentMoves)")
                    return
                }
                // Snapshots mid-run: both sides write the same document, and a machine restored
                // from the other side's continues exactly as the original (the steps that follow
                // are compared as before).
                if rng.next() % 16 == 0, let difference = pair.swapThroughSnapshots(restoringInstance: rng.next() % 2 == 0) {
                    Issue.record("\(spec), seed \(seed), step \(total): \(difference)\nafter: \(pair.recentMoves)")
                    return
                }
            }
        }
    }

    @Test(arguments: generatedMachines.map(\.spec))
    func tenThousandRandomSteps(spec: String) throws {
        let type = try #require(generatedMachines.first { $0.spec == spec }?.type)
        try Self.randomSteps(type, spec: spec, seed: 0x5EED ^ UInt64(spec.utf8.count))
    }
}
