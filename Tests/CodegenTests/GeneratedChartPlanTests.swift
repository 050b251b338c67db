import GeneratedMachines
import Statecraft
@testable import StatecraftCodegen
import Testing

/// What `statecraft swift` decides about a statechart's step before writing it (`ChartPlan`):
/// which functions can fail, so that a step nothing in which can fail takes no copy of the
/// machine to undo it; which `always` transitions end the eventless phase (`GuardLogic`);
/// and how many outputs a step can emit. The differential tests hold the generated types to
/// the runtime (`eventless-settles.machine` among them: a phase that settles, and one that
/// only looks as if it did); these hold the shape that makes them fast and small.
@Suite struct GeneratedChartPlanTests {
    /// The guards of `on e if G -> q` for each `G`, resolved in a machine with numbers `a` and
    /// `b`, a string `s`, a flag `ok` and the payload field `x`.
    static func guards(_ texts: [String]) throws -> [Expr] {
        let transitions = texts.map { "        on e if \($0) -> q" }.joined(separator: "\n")
        let spec = """
            machine G {
                var a: Number = 0
                var b: Number = 0
                var s: String = ""
                var ok: Bool = false
                event e(x: Number)
                initial state q {
            \(transitions)
                }
            }
            """
        let program = try Program(specText: spec, path: "guards.machine")
        return program.machine.transitions.compactMap(\.guardExpr)
    }

    @Test(arguments: [
        // Each pair speaks of the same values, either way round, and no order of them makes both true.
        ("s == \"\"", "s != \"\"", true),
        ("s != \"\"", "\"\" == s", true),
        ("a < 1", "a >= 1", true),
        ("a < 1", "1 <= a", true),
        ("a >= 1", "1 > a", true),
        ("a == b", "a > b", true),
        ("ok", "!ok", true),
        ("a + 1 > b", "a + 1 <= b", true),
        ("ok && a > 2", "b == 0 && a < 2", true),
        ("!(ok || a > 2)", "ok || a > 2", true),
        // Both can hold (a NaN makes `a < 1` false and `!(a >= 1)` true, but below 1 both hold).
        ("a < 1", "!(a >= 1)", false),
        ("a < 1", "a > 0", false),
        ("a <= 1", "a >= 1", false),
        ("ok || a > 2", "!ok", false),
        // Not told apart: sound, not complete.
        ("a + 1 > b", "1 + a <= b", false),
        // A payload field is another value at each evaluation.
        ("x > 1", "x <= 1", false),
    ])
    func guardsThatCannotHoldTogether(first: String, second: String, exclusive: Bool) throws {
        let pair = try Self.guards([first, second])
        try #require(pair.count == 2)
        #expect(GuardLogic.cannotBothHold(pair[0], pair[1]) == exclusive, "\(first) / \(second)")
        #expect(GuardLogic.cannotBothHold(pair[1], pair[0]) == exclusive, "\(second) / \(first)")
    }

    /// A banner that follows a message, as CheckoutScreen's does: nothing in any step can fail.
    static let banner = """
        machine Banner {
            var message: String = ""
            var count: Number = 0
            event fail(reason: String)
            event close
            event tally
            output shown
            initial parallel state screen {
                state button {
                    initial state idle {
                        on fail -> idle { message = reason }
                        on tally { count += 1 }
                    }
                }
                state banner {
                    initial state hidden {
                        always if message != "" -> showing
                    }
                    state showing {
                        entry { emit shown }
                        always if message == "" -> hidden
                        on close { message = "" }
                    }
                }
            }
        }
        """

    @Test func aStepInWhichNothingCanFailTakesNoCopy() throws {
        let text = try GeneratedStepPlanTests.swift(Self.banner)
        let send = try #require(GeneratedStepPlanTests.function("mutating func send(_ event: Event, emit:", in: text))
        let fail = GeneratedLoneSendTests.caseLines("fail", in: send)
        #expect(fail.contains("transition0_fail(reason: reason)") && !fail.contains("try "), "\(fail)")
        #expect(!fail.contains("let before = core") && !fail.contains("catch"), "\(fail)")
        #expect(fail.contains("if eventlessMayHold { completeMacrostep() }"), "\(fail)")
        #expect(text.contains("private mutating func enter(_ s: Int) {"), "entering cannot fail")
        #expect(text.contains("private mutating func transition0_fail(reason: String) {"))
        // Starting cannot fail either: no copy, no catch.
        let start = try #require(GeneratedStepPlanTests.function("func startMachine()", in: text))
        #expect(!start.contains("before") && !start.contains("catch"), "\(start)")
    }

    @Test func aStepThatCanFailKeepsTheCopyAndTheOthersDoNot() throws {
        let text = try GeneratedStepPlanTests.swift(Self.banner)
        let send = try #require(GeneratedStepPlanTests.function("mutating func send(_ event: Event, emit:", in: text))
        // `count += 1` is checked arithmetic: a step taking it can fail after a change.
        let tally = GeneratedLoneSendTests.caseLines("tally", in: send)
        #expect(tally.contains("let before = core") && tally.contains("try transition1()"), "\(tally)")
        #expect(tally.contains("core = before"), "\(tally)")
        #expect(text.contains("private mutating func transition1() throws(Failure) {"))
        let close = GeneratedLoneSendTests.caseLines("close", in: send)
        #expect(!close.contains("before") && !close.contains("try "), "\(close)")
    }

    @Test func anExitThatCannotRunMakesNoStepFail() throws {
        // b's exit can fail (checked arithmetic), but `go` leaves a, and b is never active
        // beside a: `go` calls no exit, so its step takes no copy (and a `catch` with nothing
        // to catch would not compile). `hop` leaves c, whose exit cannot fail either.
        let spec = """
            machine Exits {
                var n: Number = 0
                event go
                event back
                initial parallel state p {
                    state r1 {
                        initial state a { on go -> c }
                        state b {
                            exit { n += 1 }
                            on back -> a
                        }
                        state c { on back -> b }
                    }
                    state r2 { initial state x }
                }
            }
            """
        let text = try GeneratedStepPlanTests.swift(spec)
        let send = try #require(GeneratedStepPlanTests.function("mutating func send(_ event: Event, emit:", in: text))
        let go = GeneratedLoneSendTests.caseLines("go", in: send)
        #expect(!go.contains("before") && !go.contains("catch") && !go.contains("exit("), "\(go)")
        // `back` may leave b, whose exit throws: that step keeps its copy.
        let back = GeneratedLoneSendTests.caseLines("back", in: send)
        #expect(back.contains("let before = core") && back.contains("try exit(4)  // b"), "\(back)")
    }

    @Test func anEventlessPhaseOfSettlingTransitionsTakesOneAtMostAndCannotFail() throws {
        let text = try GeneratedStepPlanTests.swift(Self.banner)
        let phase = try #require(GeneratedStepPlanTests.function("func completeMacrostep()", in: text))
        #expect(phase.hasPrefix("    private mutating func completeMacrostep() {"), "\(phase)")
        #expect(phase.contains("if eventlessMayHold && !core.isFinished {"), "\(phase)")
        #expect(!phase.contains("while") && !phase.contains("microstepLimit") && !phase.contains("eventlessMayHold = true"), "\(phase)")
        #expect(text.contains("@inline(__always)\n    private mutating func completeMacrostep() {"))
    }

    @Test func anEventlessPhaseThatMayNotSettleKeepsItsLoopAndItsBound() throws {
        // Both guards hold for any n above 0: the two states hand over until the bound.
        let spin = """
            machine Spin {
                var n: Number = 0
                event set(to: Number)
                initial state a {
                    on set { n = to }
                    always if n > 0 -> b
                }
                state b {
                    always if n > 0 -> a
                }
            }
            """
        let text = try GeneratedStepPlanTests.swift(spin)
        let phase = try #require(GeneratedStepPlanTests.function("func completeMacrostep()", in: text))
        #expect(phase.contains("private mutating func completeMacrostep() throws(Failure) {"), "\(phase)")
        #expect(phase.contains("while eventlessMayHold && !core.isFinished {"), "\(phase)")
        #expect(phase.contains("if microstepCount > 10_000 { throw Self.microstepLimit(taken) }"), "\(phase)")
        #expect(phase.components(separatedBy: "eventlessMayHold = true").count == 3, "each transition looks again: \(phase)")
    }

    @Test func aStepOfOneOutputAtMostKeepsItInOneSlot() throws {
        let one = try GeneratedStepPlanTests.swift(Self.banner)
        let queue = try #require(GeneratedStepPlanTests.function("private struct OutputQueue", in: one))
        #expect(queue.contains("var first: Output?") && !queue.contains("rest"), "\(queue)")
        // Two outputs in one transition: the list stays.
        let two = try GeneratedStepPlanTests.swift(Self.banner.replacingOccurrences(
            of: "on close { message = \"\" }", with: "on close { message = \"\"; emit shown; emit shown }"))
        let list = try #require(GeneratedStepPlanTests.function("private struct OutputQueue", in: two))
        #expect(list.contains("var rest: [Output] = []"), "\(list)")
    }

    /// An app may keep a machine per cell or per screen and copies it on every step it takes
    /// through a value: CheckoutScreen's carries its configuration, clock, message and timer,
    /// and no step's working lists.
    @Test func aGeneratedMachineIsSmall() {
        #expect(MemoryLayout<CheckoutScreen>.size <= 64, "\(MemoryLayout<CheckoutScreen>.size) bytes")
    }
}
