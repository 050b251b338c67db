import Foundation
import Statecraft
import Testing
import TestSupport

/// `send "\(kind)"`: the event sent is the one a log line with the string's value would name;
/// a string that names none, or names an event with fields, fails the step (rejected and
/// undone) with a message naming the string, at the `send`.
@Suite struct SendByNameTests {
    static let spec = """
        machine Watch {
            event reset as "watch.reset"
            event lap
            event digit as "DIGIT.*"
            event key(code: Number)
            event pick(name: String)
            event next
            event stop
            var kind: String = "lap"
            var laps: Number = 0
            var resets: Number = 0
            var digits: Number = 0
            initial state running {
                on pick { kind = name }
                on next { laps += 100; send "\\(kind)" after 1s }
                on stop { cancel lap }
                on lap { laps += 1 }
                on reset { resets += 1 }
                on digit { digits += 1 }
            }
        }
        """

    static func started() throws -> Instance {
        var instance = Instance(try program(source: spec))
        _ = instance.start()
        return instance
    }

    static func number(_ instance: Instance, _ name: String) -> Double? {
        if case .number(let n)? = instance.value(of: name) { return n }
        return nil
    }

    @Test func theStringNamesTheEventByItsNameItsExternalNameOrAnExtension() throws {
        var instance = try Self.started()
        _ = instance.send("next")
        instance.advance(to: 1)
        #expect(Self.number(instance, "laps") == 101)
        for name in ["watch.reset", "reset"] {
            _ = instance.send("pick", ["name": .string(name)])
            _ = instance.send("next")
        }
        instance.advance(to: 2)
        #expect(Self.number(instance, "resets") == 2)
        // `as "DIGIT.*"` answers to DIGIT.5 (and to DIGIT itself), as in a log.
        for name in ["DIGIT.5", "DIGIT", "DIGIT.5.x"] {
            _ = instance.send("pick", ["name": .string(name)])
            _ = instance.send("next")
        }
        instance.advance(to: 3)
        #expect(Self.number(instance, "digits") == 3)
    }

    /// A failure at the `send`: the whole step is undone (the `laps += 100` before it too).
    private func expectRejected(_ name: String, message: String) throws {
        var instance = try Self.started()
        _ = instance.send("pick", ["name": .string(name)])
        let sent = instance.send("next")
        let step = try #require(sent)
        guard case .failed(let fault) = step.result else {
            Issue.record("the step was not rejected: \(step.result)")
            return
        }
        #expect(fault.message == message)
        let program = try program(source: Self.spec)
        let at = program.machine.source.location(of: fault.range.start)
        #expect((at.line, at.column) == (15, 32))
        #expect(program.machine.text(fault.range) == "send \"\\(kind)\" after 1s")
        #expect(Self.number(instance, "laps") == 0)
        instance.advance(to: 5)
        #expect(Self.number(instance, "laps") == 0)
    }

    @Test func aNameNoEventHasFailsTheStep() throws {
        try expectRejected("lapp", message: "send by name: 'lapp' is not an event of this machine")
        // Only an `as "x.*"` name takes extensions.
        try expectRejected("lap.5", message: "send by name: 'lap.5' is not an event of this machine")
    }

    @Test func anEventWithFieldsFailsTheStep() throws {
        try expectRejected("key", message: "send by name: event 'key' has fields, and a send by name carries none")
    }

    @Test func aLongNameIsCutInTheMessage() throws {
        let long = String(repeating: "é", count: 20)  // 40 bytes of UTF-8
        try expectRejected(long, message: "send by name: '\(String(repeating: "é", count: 16))…' is not an event of this machine")
    }

    @Test func cancelDropsADelayedSendByNameOfThatEvent() throws {
        var instance = try Self.started()
        _ = instance.send("next")  // lap, due at 1
        _ = instance.send("pick", ["name": .string("watch.reset")])
        _ = instance.send("next")  // reset, due at 1
        _ = instance.send("stop")  // cancels the lap only
        instance.advance(to: 2)
        #expect(Self.number(instance, "laps") == 200)
        #expect(Self.number(instance, "resets") == 1)
    }

    @Test func aPendingSendByNameSurvivesASnapshot() throws {
        var instance = try Self.started()
        _ = instance.send("pick", ["name": .string("DIGIT.7")])
        _ = instance.send("next")
        let json = instance.snapshotJSON()
        #expect(json.contains("{\"send\": \"digit\", \"payload\": {}, \"deadline\": 1}"), "\(json)")
        var restored = try Instance(restoring: json, program: try program(source: Self.spec))
        restored.advance(to: 1)
        #expect(Self.number(restored, "digits") == 1)
    }

    /// Any `send` is a point where the step may fail (the 101st pending one too), so the
    /// assignments before it are undone with the step.
    @Test func aSendOverTheLimitUndoesTheStep() throws {
        var instance = Instance(try program(source: """
            machine P {
                event go
                event e
                var n: Number = 0
                initial state s {
                    on go { n += 1; send e after 10s }
                    on e {}
                }
            }
            """))
        _ = instance.start()
        for _ in 0..<100 { _ = instance.send("go") }
        let last = instance.send("go")
        guard case .failed(let fault)? = last?.result else {
            Issue.record("the 101st send was not refused")
            return
        }
        #expect(fault.message == "100 sent events are pending already; this 'send' would add one more")
        #expect(Self.number(instance, "n") == 100)
    }

    /// In a statechart: regions, an entry action and a completion send by name; the compiled
    /// code and the reference interpreter agree step by step.
    @Test func theReferenceStepperAgreesOnAStatechart() throws {
        let source = """
            machine Chart {
                event tick
                event tock as "clock.tock.*"
                event pick(name: String)
                event go
                var kind: String = "tick"
                var ticks: Number = 0
                var tocks: Number = 0
                initial parallel state both {
                    state left {
                        initial state a {
                            entry { send "\\(kind)" }
                            on go -> b
                        }
                        state b {
                            on pick { kind = name }
                            on tick -> done1 { ticks += 1 }
                        }
                        final state done1
                    }
                    state right {
                        initial state c {
                            on tick { send "clock.tock.\\(ticks)" after 0.5s }
                            on tock { tocks += 1; send "\\(kind)" }
                        }
                    }
                    done(left) -> both { send "go" }
                }
            }
            """
        let differential = Differential(try program(source: source).machine)
        for seed in 0..<20 as Range<UInt64> {
            let problem = differential.compare(seed: seed, steps: 300)
            #expect(problem == nil, "seed \(seed): \(problem ?? "")")
        }
    }

    /// The compiled code and the reference interpreter agree on the fixture, failures included.
    @Test func theReferenceStepperAgrees() throws {
        let url = Repository.root.appendingPathComponent("Tests/CheckerTests/Fixtures/send-by-name.machine")
        let source = try String(contentsOf: url, encoding: .utf8)
        let differential = Differential(try program(source: source).machine)
        for seed in 0..<20 as Range<UInt64> {
            let problem = differential.compare(seed: seed, steps: 300)
            #expect(problem == nil, "seed \(seed): \(problem ?? "")")
        }
        let mine = Differential(try program(source: Self.spec).machine)
        #expect(mine.compare(seed: 7, steps: 500) == nil)
    }
}
