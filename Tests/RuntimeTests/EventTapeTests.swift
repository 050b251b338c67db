import Statecraft
@testable import StatecraftRuntime
import Testing
import TestSupport

/// `Instance.run(_:)` over an `EventTape` against `advance(to:)` + `send` event by event:
/// the same steps, outputs and end state, for every bundled spec.
@Suite struct EventTapeTests {
    /// A random event of `program` with a random payload of the declared types; strings
    /// from a small set so string guards sometimes hold.
    static func randomEvent(_ program: Program, _ rng: inout SeededGenerator) -> (EventID, [Value]) {
        let events = program.machine.events
        let event = events[Int.random(in: 0..<events.count, using: &rng)]
        let payload: [Value] = event.fields.map { field in
            switch field.type {
            case .number: .number([0, -1, 1, 50, 99, 100, 300, 567, 600, -120, 0.5][Int.random(in: 0..<11, using: &rng)])
            case .bool: .bool(Bool.random(using: &rng))
            case .string: .string(["", "up", "down", "a longer string than fits inline"][Int.random(in: 0..<4, using: &rng)])
            }
        }
        return (event.id, payload)
    }

    struct Recording: Equatable {
        var steps: [Step] = []
        var outputs: [String] = []
    }

    @Test(arguments: ["Drawer", "VibrantButton", "PullToRefresh", "PeekRating", "SwipeToDismiss"])
    func aTapeStepsLikeSendingEachEvent(spec: String) throws {
        try EventTapeTests.stepsLikeSendingEachEvent(try program(spec: spec))
    }

    /// Steps that fail after assigning (undone mid-tape, the tape going on), a timer whose
    /// delay fails, and a final state that ends the run part way through the tape.
    @Test func aTapeStepsLikeSendingEachEventThroughFailuresAndAFinalState() throws {
        let program = try program(source: """
            machine Hazards {
                public var total: Number = 0
                public var last: Number = 1
                public var wait: Number = 1
                public var count: Number = 0
                event add(n: Number)
                event divide(n: Number)
                event stop(n: Number)
                initial state counting {
                    on add { total = total + n; last = n; count += 1 }
                    // Fails on 0 after assigning `last`.
                    on divide if n < 300 { last = n; total = total / n }
                    // Fails on 300; the timer's delay fails on 600, after the entry action.
                    on divide -> waiting { last = n; wait = 1 / (n - 300) }
                    on stop if n == 567 && count >= 100 -> done
                }
                state waiting {
                    entry { total = total + 1 }
                    after wait * 100 / (last - 600) -> counting
                    on add -> counting { total = total - n }
                }
                final state done
            }
            """)
        try EventTapeTests.stepsLikeSendingEachEvent(program, events: 400)
    }

    /// Runs a random tape of `program` through `Instance.run` (reporting and quiet) and
    /// through `advance(to:)` + `send`, and compares steps, outputs and end state.
    static func stepsLikeSendingEachEvent(_ program: Program, events: Int = 2_000) throws {
        var rng = SeededGenerator(seed: 61)
        var tape = EventTape(program)
        var time = 0.0
        for _ in 0..<events {
            let (event, payload) = EventTapeTests.randomEvent(program, &rng)
            // Mostly small steps of time, sometimes none, sometimes past a timer's delay.
            let hasTime = Int.random(in: 0..<5, using: &rng) > 0
            if hasTime { time += [0, 0.1, 0.4, 2.5][Int.random(in: 0..<4, using: &rng)] }
            #expect(tape.append(event, payload: payload, time: hasTime ? time : nil) == true)
        }

        var sent = Instance(program), taped = Instance(program), quiet = Instance(program)
        _ = sent.start(); _ = taped.start(); _ = quiet.start()
        let names = program.machine.outputs.map(\.name)
        var expected = Recording()
        for k in 0..<tape.count {
            let (event, payload, time) = tape[k]
            let emit: (OutputID, [Value]) -> Void = { o, args in expected.outputs.append("\(names[o.index])\(args)") }
            if let time { sent.advance(to: time, emit: emit) { expected.steps.append($0) } }
            expected.steps.append(sent.send(event, payload: payload, emit: emit))
        }
        var actual = Recording()
        taped.run(tape, emit: { o, args in actual.outputs.append("\(names[o.index])\(args)") }) { actual.steps.append($0) }
        quiet.run(tape)

        #expect(actual == expected)
        #expect(expected.steps.contains { if case .applied = $0.result { true } else { false } })
        if program.machine.name == "Hazards" {
            // The tape goes through what it is meant to exercise.
            #expect(expected.steps.contains { if case .failed = $0.result { true } else { false } })
            #expect(expected.steps.contains { $0.to != $0.from && program.machine[$0.to].name == "waiting" })
            #expect(sent.isFinished)
        }
        for instance in [taped, quiet] {
            #expect(instance.state == sent.state)
            #expect(instance.variables == sent.variables)
            #expect(instance.now == sent.now)
            #expect(instance.isFinished == sent.isFinished)
            #expect(instance.nextDeadline == sent.nextDeadline)
        }
    }

    /// Timers armed (several per state, delays from variables), cancelled by leaving,
    /// fired, re-armed by a self-transition, restored by failures after cancelling (an
    /// entry action) and after arming (a timer's delay), and dropped by a final state.
    static let deadlines = """
        machine Deadlines {
            public var d: Number = 1
            public var k: Number = 0
            event set(x: Number)
            event go
            event fail
            event stop
            initial state a {
                after d -> b { k += 1 }
                after 2.5s { k += 10 }
                on set { d = x }
                on go -> p
                on stop -> done
            }
            state b {
                after d * 2 -> a
                after 0.25s { k -= 1 }
                on go -> b
                on fail -> a { k = 1 / (d - d) }
                on set if x > 0 -> p { d = x }
            }
            state p {
                // Fails (d = 3) after b's timers were cancelled.
                entry { k = k + 1 / (d - 3) }
                after 0.75s -> a
                // Fails (d = 4) after the first timer was armed.
                after 1 / (d - 4) + 1 -> a
                on go -> quiet
                on stop -> done
            }
            // Leaving p for a state without timers only cancels.
            state quiet {
                on go -> a
            }
            final state done
        }
        """

    /// `earliestDeadline`, which makes "is a timer due" one comparison, is the earliest
    /// armed deadline after every kind of step, and NaN once the run has ended.
    @Test func theCachedDeadlineIsTheEarliestArmedTimer() throws {
        let program = try program(source: EventTapeTests.deadlines)
        var rng = SeededGenerator(seed: 5)
        var checked = 0, armed = 0, failed = 0, finished = 0
        for _ in 0..<40 {
            var i = Instance(program)
            _ = i.start()
            for _ in 0..<60 {
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: i.advance(to: i.now + [0, 0.25, 0.5, 1, 3][Int.random(in: 0..<5, using: &rng)])
                case 1: _ = i.send("set", ["x": .number([1, 2, 3, 4, 0.5][Int.random(in: 0..<5, using: &rng)])])
                case 2: if case .failed = i.send("go", [:])?.result { failed += 1 }
                case 3: if case .failed = i.send("fail", [:])?.result { failed += 1 }
                case 4 where Int.random(in: 0..<30, using: &rng) == 0: _ = i.send("stop")
                default: _ = i.send("set", ["x": .number(-1)])
                }
                let deadlines = i.isFinished ? [] : i.pending.elements.map(\.deadline)
                let expected = deadlines.min()
                #expect(i.earliestDeadline.isNaN == (expected == nil))
                if let expected {
                    #expect(i.earliestDeadline == expected)
                    armed += 1
                }
                for t in [i.now, i.now + 0.3, i.now + 1, expected ?? 0, (expected ?? 0).nextDown, .infinity, .nan] {
                    #expect(i.hasTimerDue(by: t) == deadlines.contains { $0 <= t })
                }
                checked += 1
            }
            if i.isFinished { finished += 1 }
        }
        // The random steps went through what the test is about.
        #expect(armed > checked / 2)
        #expect(failed > 20 && finished > 5)
    }

    @Test func aTapeOfTimersStepsLikeSendingEachEvent() throws {
        try EventTapeTests.stepsLikeSendingEachEvent(try program(source: EventTapeTests.deadlines), events: 600)
    }

    /// A timer due exactly at an event's time fires before the event; an event without a
    /// time neither moves time nor fires a timer that is due.
    @Test func aTimerDueAtAnEventsTimeFiresBeforeIt() throws {
        let program = try program(spec: "PullToRefresh")
        var tape = EventTape(program)
        tape.append("scroll", ["offsetY": .number(-200)], time: 1)
        tape.append("endDragging", time: 1)                         // refreshing; the timer is due at 3
        tape.append("scroll", ["offsetY": .number(-250)], time: 2.5)
        tape.append("scroll", ["offsetY": .number(-300)])           // no time: still refreshing
        var quiet = Instance(program), reporting = Instance(program)
        _ = quiet.start(); _ = reporting.start()
        quiet.run(tape)
        #expect(quiet.stateName == "refreshing" && quiet.now == 2.5 && quiet.nextDeadline == 3)
        tape.append("scroll", ["offsetY": .number(-150)], time: 3)  // the timer first (idle), then pulling
        var rest = Instance(program)
        _ = rest.start()
        rest.run(tape)
        var steps: [Step] = []
        reporting.run(tape) { steps.append($0) }
        #expect(rest.stateName == "pulling" && rest.now == 3 && rest.nextDeadline == nil)
        #expect(reporting.stateName == "pulling" && steps.count == 6)
        #expect(rest.variables == reporting.variables)
    }

    /// Timers that fire without time passing are stopped in the tape loop as in
    /// `advance(to:)`, and the tape goes on; their outputs are dropped.
    @Test func aTimerLoopInATapeIsStoppedAsByAdvance() throws {
        let program = try program(source: """
            machine Spin {
                public var n: Number = 0
                public var m: Number = 0
                event kick(x: Number)
                output spun(n: Number)
                initial state idle { on kick -> spinning { m = m + x } }
                state spinning {
                    after 0s -> spinning { n += 1; emit spun(n) }
                    on kick -> idle { m = m * x }
                }
            }
            """)
        var tape = EventTape(program)
        for (k, x) in [2.0, 3, 5, 7].enumerated() { tape.append("kick", ["x": .number(x)], time: Double(k)) }
        var quiet = Instance(program), sent = Instance(program)
        _ = quiet.start(); _ = sent.start()
        quiet.run(tape)
        var failures = 0
        for k in 0..<tape.count {
            let (event, payload, time) = tape[k]
            sent.advance(to: time ?? sent.now, onStep: { if case .failed = $0.result { failures += 1 } })
            _ = sent.send(event, payload: payload)
        }
        // Spinning from 0 and from 2, stopped at 1 and 3 after 10,000 fires each.
        #expect(failures == 2)
        #expect(quiet.variables == sent.variables && quiet.variables == [.number(20_000), .number((2 * 3 + 5) * 7)])
        #expect(quiet.state == sent.state && quiet.now == sent.now && quiet.nextDeadline == sent.nextDeadline)
    }

    @Test func aRangeOfTheTapeContinuesWhereTheLastStopped() throws {
        let program = try program(spec: "PullToRefresh")
        var tape = EventTape(program)
        var rng = SeededGenerator(seed: 7)
        for k in 0..<500 {
            let (event, payload) = EventTapeTests.randomEvent(program, &rng)
            tape.append(event, payload: payload, time: Double(k) * 0.3)
        }
        var whole = Instance(program), parts = Instance(program)
        _ = whole.start(); _ = parts.start()
        whole.run(tape)
        parts.run(tape, 0..<123)
        parts.run(tape, 123..<10_000)  // clamped to the tape
        #expect(parts.variables == whole.variables)
        #expect(parts.state == whole.state)
        #expect(parts.now == whole.now)
    }

    @Test func aTapeOfAnotherCompilationGoesByNames() throws {
        // Two compilations of one spec are different programs with the same names.
        let first = try program(spec: "Drawer"), second = try program(spec: "Drawer")
        var tape = EventTape(first)
        #expect(tape.append("touchBegan", ["y": .number(300), "onContent": .bool(true)], time: 1) == true)
        #expect(tape.append("touchMoved", ["y": .number(250)], time: 2) == true)
        #expect(tape.append("touchEnded", ["y": .number(40)], time: 3) == true)
        var own = Instance(first), other = Instance(second)
        _ = own.start(); _ = other.start()
        var ownSteps: [Step] = [], otherSteps: [Step] = []
        own.run(tape) { ownSteps.append($0) }
        other.run(tape) { otherSteps.append($0) }
        #expect(otherSteps == ownSteps)
        #expect(other.variables == own.variables)
        #expect(other.program.machine[other.state].name == "closed")
    }

    @Test func appendRefusesPayloadsThatDoNotFit() throws {
        let program = try program(spec: "Drawer")
        var tape = EventTape(program)
        let began = try #require(program.event(named: "touchBegan"))
        #expect(tape.append(began, payload: [.number(1)]) == false)                    // a field missing
        #expect(tape.append(began, payload: [.bool(true), .number(1)]) == false)        // fields swapped
        #expect(tape.append(EventID(99), payload: []) == false)                         // no such event
        #expect(tape.append("touchMoved", ["y": .number(1), "x": .number(2)]) == false) // a field too many
        #expect(tape.append("shake") == false)                                          // no such event
        #expect(tape.count == 0)
        #expect(tape.append(began, payload: [.number(12.5), .bool(true)], time: 4) == true)
        #expect(tape.append("touchMoved", ["y": .number(-3)]) == true)
        #expect(tape.count == 2)
        #expect(tape[0].event == began && tape[0].payload == [.number(12.5), .bool(true)] && tape[0].time == 4)
        #expect(tape[1].payload == [.number(-3)] && tape[1].time == nil)
    }
}
