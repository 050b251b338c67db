import Foundation
import Statecraft
import Testing
import TestSupport

/// Compiles a spec from `Specs/`, or source text.
func program(spec name: String) throws -> Program {
    let url = Repository.specs.appendingPathComponent(name + ".machine")
    let result = Statecraft.check(SourceFile(path: name, bytes: Repository.bytes(url)), bounds: nil)
    return Program(try #require(result.machine))
}

func program(source: String) throws -> Program {
    let result = Statecraft.check(source: source, bounds: nil)
    let rendered = result.diagnostics.map { DiagnosticRenderer().render($0, in: result.file) }.joined()
    return Program(try #require(result.machine, "\(rendered)"))
}

extension Instance {
    var stateName: String { program.machine[state].name }

    mutating func send(_ name: String, _ payload: [String: Value] = [:], outputs: inout [String]) -> Step? {
        let machine = program.machine
        return send(name, payload) { output, args in
            outputs.append(machine[output].name + (args.isEmpty ? "" : "(" + args.map(\.description).joined(separator: ", ") + ")"))
        }
    }
}

@Suite struct InstanceTests {
    @Test func startEntersTheInitialStateAndRunsItsEntryActions() throws {
        var drawer = Instance(try program(spec: "Drawer"))
        #expect(drawer.value(of: "originY") == .number(-617))
        #expect(drawer.start().result == .started)
        #expect(drawer.stateName == "open")
        #expect(drawer.value(of: "originY") == .number(0))
        #expect(drawer.value(of: "directionTop") == .bool(true))
    }

    @Test func guardsAreTriedInOrderAndUnhandledEventsAreIgnored() throws {
        var d = Instance(try program(spec: "Drawer"))
        _ = d.start()
        #expect(d.send("touchBegan", ["y": .number(300), "onContent": .bool(false)])?.result == .ignored)
        #expect(d.stateName == "open")
        #expect(d.send("touchMoved", ["y": .number(300)])?.result == .ignored)
        guard case .applied? = d.send("touchBegan", ["y": .number(300), "onContent": .bool(true)])?.result else {
            Issue.record("touchBegan on the content should start a drag")
            return
        }
        #expect(d.stateName == "dragging")
        _ = d.send("touchMoved", ["y": .number(400)])
        #expect(d.value(of: "originY") == .number(0), "clamped at the bottom rest position")
        _ = d.send("touchMoved", ["y": .number(100)])
        #expect(d.value(of: "originY") == .number(-200))
        _ = d.send("touchEnded", ["y": .number(99.5)])
        #expect(d.stateName == "closed", "the first release uses the top boundary (100)")
        #expect(d.value(of: "originY") == .number(-617))
        #expect(d.value(of: "directionTop") == .bool(true))
    }

    @Test func sendByNameRejectsUnknownEventsAndBadPayloads() throws {
        var d = Instance(try program(spec: "Drawer"))
        _ = d.start()
        #expect(d.send("nope") == nil)
        #expect(d.send("touchMoved", ["y": .string("1")]) == nil)
        #expect(d.send("touchMoved", [:]) == nil)
        #expect(d.send("touchMoved", ["y": .number(1), "x": .number(2)]) == nil)
    }

    @Test func outputsAreDeliveredInOrder() throws {
        var b = Instance(try program(spec: "VibrantButton"))
        var outputs: [String] = []
        _ = b.start()
        _ = b.send("tap", outputs: &outputs)
        _ = b.send("select", outputs: &outputs)
        #expect(b.value(of: "alpha") == .number(0.7))
        _ = b.send("tap", outputs: &outputs)
        #expect(outputs == ["didTap(0)", "didTap(0)"])
        #expect(b.stateName == "selected")
        #expect(b.send("select")?.result == .ignored, "setting the state it already has changes nothing")
    }

    @Test func timersFireAtTheirDeadlineAndAreCancelledWhenTheStateIsLeft() throws {
        var p = Instance(try program(spec: "PullToRefresh"))
        var outputs: [String] = []
        _ = p.start()
        _ = p.send("scroll", ["offsetY": .number(-120)], outputs: &outputs)
        #expect(p.stateName == "pulling")
        #expect(p.value(of: "progress") == .number(1))
        p.advance(to: 10)
        _ = p.send("endDragging", outputs: &outputs)
        #expect(p.stateName == "refreshing")
        #expect(outputs == ["didRefresh"])
        #expect(p.value(of: "insetTop") == .number(110))
        #expect(p.nextDeadline == 12)
        p.advance(to: 11.999)
        #expect(p.stateName == "refreshing")
        var steps: [Step] = []
        p.advance(to: 12, onStep: { steps.append($0) })
        #expect(p.stateName == "idle", "due at or before the line's time")
        #expect(steps.count == 1)
        #expect(p.value(of: "insetTop") == .number(0))
        // A second refresh ended early: the timer is cancelled, the inset restored once.
        _ = p.send("endDragging", outputs: &outputs)
        #expect(p.stateName == "refreshing")
        _ = p.send("endRefreshing", outputs: &outputs)
        #expect(p.stateName == "idle")
        #expect(p.nextDeadline == nil)
        p.advance(to: 100)
        #expect(p.value(of: "insetTop") == .number(0))
    }

    @Test func aFinalStateEndsTheRun() throws {
        var s = Instance(try program(spec: "SwipeToDismiss"))
        var outputs: [String] = []
        _ = s.start()
        _ = s.send("panBegan", ["x": .number(10), "y": .number(20)], outputs: &outputs)
        #expect(s.value(of: "anchorX") == .number(10))
        _ = s.send("panEnded", ["vx": .number(500), "vy": .number(500)], outputs: &outputs)
        #expect(s.stateName == "flinging", "exactly 45° flings")
        _ = s.send("leftScreen", outputs: &outputs)
        #expect(s.stateName == "dismissed" && s.isFinished)
        #expect(outputs == ["dismissed"])
        #expect(s.send("panBegan", ["x": .number(1), "y": .number(1)])?.result == .afterFinal)
    }

    @Test func exitTransitionAndEntryActionsRunInThatOrder() throws {
        var i = Instance(try program(source: """
            machine Order {
                public var log: String = ""
                event go
                event again
                initial state a {
                    entry { log += "+a" }
                    exit { log += "-a" }
                    on go -> b { log += "/t" }
                }
                state b {
                    entry { log += "+b" }
                    exit { log += "-b" }
                    on again -> b { log += "/self" }
                    on go { log += "/internal" }
                }
            }
            """))
        _ = i.start()
        _ = i.send("go")
        _ = i.send("again")
        _ = i.send("go")
        #expect(i.value(of: "log") == .string("+a-a/t+b-b/self+b/internal"))
    }

    /// Guards and `if` conditions compile to branches (a comparison and its jump in one,
    /// `&&` as a branch per side, `!` as the opposite jump); every shape decides as the
    /// expression does, for values on both sides of and on each boundary.
    @Test func conditionsBranchAsTheyEvaluate() throws {
        let ops: [(String, (Double, Double) -> Bool)] = [("<", { $0 < $1 }), ("<=", { $0 <= $1 }), (">", { $0 > $1 }),
                                                         (">=", { $0 >= $1 }), ("==", { $0 == $1 }), ("!=", { $0 != $1 })]
        for (op, holds) in ops {
            var i = Instance(try program(source: """
                machine Branches {
                    public var taken: Number = 0
                    public var other: Number = 0
                    event plain(a: Number, b: Number)
                    event both(a: Number, b: Number, flag: Bool)
                    event inIf(a: Number, b: Number, flag: Bool)
                    initial state s {
                        on plain if a \(op) b { taken += 1 }
                        on plain { other += 1 }
                        on both if a \(op) b && !flag { taken += 1 }
                        on both if flag || (a \(op) b ? false : true) { other += 1 }
                        on inIf { if !(a \(op) b) && flag { other += 1 } else { taken += 1 } }
                    }
                }
                """))
            _ = i.start()
            var taken = 0.0, other = 0.0
            for a in [-1.0, 0, 1] {
                for b in [-1.0, 0, 1] {
                    _ = i.send("plain", ["a": .number(a), "b": .number(b)])
                    if holds(a, b) { taken += 1 } else { other += 1 }
                    for flag in [false, true] {
                        _ = i.send("both", ["a": .number(a), "b": .number(b), "flag": .bool(flag)])
                        if holds(a, b) && !flag { taken += 1 } else if flag || !holds(a, b) { other += 1 }
                        _ = i.send("inIf", ["a": .number(a), "b": .number(b), "flag": .bool(flag)])
                        if !holds(a, b) && flag { other += 1 } else { taken += 1 }
                    }
                }
            }
            #expect(i.value(of: "taken") == .number(taken), "\(op)")
            #expect(i.value(of: "other") == .number(other), "\(op)")
        }
    }

    @Test func aFailingExpressionUndoesTheWholeStep() throws {
        var i = Instance(try program(source: """
            machine Faulty {
                public var n: Number = 1
                public var seen: Number = 0
                event divide(by: Number)
                event root(of: Number)
                output said(value: Number)
                initial state a {
                    on divide -> b { seen = seen + 1; emit said(n); n = n / by }
                    on root if sqrt(of) > 1 -> b
                }
                state b { on divide -> a }
            }
            """))
        _ = i.start()
        var outputs: [String] = []
        let step = try #require(i.send("divide", ["by": .number(0)], outputs: &outputs))
        guard case .failed(let fault) = step.result else {
            Issue.record("expected a failed step, got \(step.result)")
            return
        }
        #expect(fault.message == "division by zero (1 / 0)")
        #expect(i.program.machine.text(fault.range) == "n / by")
        #expect(i.stateName == "a")
        #expect(i.value(of: "seen") == .number(0))
        #expect(outputs.isEmpty)
        guard case .failed(let rootFault)? = i.send("root", ["of": .number(-4)])?.result else {
            Issue.record("sqrt of a negative number should fail")
            return
        }
        #expect(rootFault.message == "'sqrt' of -4 is not a finite number")
        _ = i.send("divide", ["by": .number(4)], outputs: &outputs)
        #expect(i.value(of: "n") == .number(0.25))
        #expect(outputs == ["said(1)"])
    }

    @Test func timersFiringWithoutTimePassingAreStopped() throws {
        var i = Instance(try program(source: """
            machine Spin {
                public var n: Number = 0
                initial state a { after 0s -> a { n += 1 } }
            }
            """))
        _ = i.start()
        var failures = 0
        i.advance(to: 1, onStep: { if case .failed = $0.result { failures += 1 } })
        #expect(failures == 1)
        #expect(i.value(of: "n") == .number(10_000))
        #expect(i.nextDeadline == nil)
    }

    @Test func timersFireInDeadlineOrderAndTimeIsVirtual() throws {
        var i = Instance(try program(source: """
            machine Timers {
                public var log: String = ""
                event go
                initial state a {
                    after 3s -> c { log += "3" }
                    after 1s { log += "1" }
                    after 2s -> b { log += "2" }
                }
                state b { after 0.5s -> a { log += "b" } }
                state c { on go -> a }
            }
            """))
        _ = i.start()
        i.advance(to: 2.4)
        #expect(i.value(of: "log") == .string("12"))
        #expect(i.stateName == "b")
        i.advance(to: 2.5)
        #expect(i.stateName == "a")
        #expect(i.nextDeadline == 3.5)
        // Re-entering 'a' at 2.5 re-armed its timers from that instant.
        i.advance(to: 3.6)
        #expect(i.value(of: "log") == .string("12b1"))
        #expect(i.stateName == "a")
        i.advance(to: 4.5)
        #expect(i.value(of: "log") == .string("12b12"))
        #expect(i.stateName == "b")
        #expect(i.now == 4.5)
    }
}
