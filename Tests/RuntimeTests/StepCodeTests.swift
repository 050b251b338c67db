import Statecraft
@testable import StatecraftRuntime
import Testing
import TestSupport

/// What a step's compiled code saves before it assigns: exactly the variables a failure
/// later in the step would have to restore, and the restoring itself.
@Suite struct StepCodeTests {
    /// The instructions of the block that takes `event` in `state`: up to where the next
    /// block of the program starts.
    static func block(_ program: Program, _ state: String, _ event: String) throws -> [Instruction] {
        let s = try #require(program.machine.states.first { $0.name == state }).id
        let e = try #require(program.event(named: event))
        let start = Int(program.dispatch[s.index * program.eventCount + e.index])
        var starts: [Int] = [Int(program.startPC), program.code.count]
        for k in 0..<program.stateCount * program.eventCount { starts.append(Int(program.dispatch[k])) }
        for k in 0..<program.timers.count * program.stateCount { starts.append(Int(program.timerDispatch[k])) }
        for k in 0..<program.timers.count { starts.append(Int(program.timers[k].delayPC)) }
        for k in 0..<program.transitions.count { starts.append(Int(program.transitions[k].guardPC)) }
        let end = starts.filter { $0 > start }.min() ?? program.code.count
        return (start..<end).map { program.code[$0] }
    }

    static func saved(_ code: [Instruction], _ program: Program) -> [String] {
        code.filter { $0.op == .save }.flatMap { [$0.a, $0.b, $0.c] }.filter { $0 >= 0 }
            .map { program.machine.variables[Int($0)].name }
    }

    @Test func stepsThatCannotFailAfterAnAssignmentSaveNothing() throws {
        let pull = try program(spec: "PullToRefresh")
        // progress is computed in temporaries (which may fail) and written last.
        #expect(StepCodeTests.saved(try StepCodeTests.block(pull, "pulling", "scroll"), pull) == [])
        #expect(StepCodeTests.saved(try StepCodeTests.block(pull, "idle", "scroll"), pull) == [])
        // Entering refreshing adds to insetTop, then arms the 2 s timer, whose delay is
        // evaluated (and could fail) after the assignment.
        #expect(StepCodeTests.saved(try StepCodeTests.block(pull, "pulling", "endDragging"), pull) == ["insetTop"])
        let drawer = try program(spec: "Drawer")
        for event in ["touchBegan", "touchMoved", "touchEnded"] {
            #expect(StepCodeTests.saved(try StepCodeTests.block(drawer, "dragging", event), drawer) == [], "\(event)")
        }
    }

    static let late = """
        machine Late {
            public var a: Number = 0
            public var b: Number = 0
            public var c: Number = 0
            public var delay: Number = 1
            event go(x: Number)
            initial state one {
                exit { a = a + 1 }
                on go -> two { b = b + 1; delay = x }
            }
            state two {
                entry { c = 1 / (delay - 1) }
                after 1 / delay -> one
            }
        }
        """

    @Test func aFailureLateInTheStepUndoesEveryEarlierAssignment() throws {
        let program = try program(source: StepCodeTests.late)
        // The exit, the actions and the entry assign a, b, delay and c before the timer's
        // delay is evaluated (which can fail), so all four are saved.
        #expect(StepCodeTests.saved(try StepCodeTests.block(program, "one", "go"), program).sorted() == ["a", "b", "c", "delay"])
        for (x, fails) in [(1.0, true), (0, true), (2, false)] {  // the entry fails, the delay fails, nothing fails
            var i = Instance(program)
            _ = i.start()
            let sent = i.send("go", ["x": .number(x)])
            let step = try #require(sent)
            if fails {
                guard case .failed = step.result else {
                    Issue.record("x = \(x): expected a failed step, got \(step.result)")
                    continue
                }
                #expect(i.stateName == "one")
                #expect(i.variables == [.number(0), .number(0), .number(0), .number(1)], "x = \(x)")
                #expect(i.nextDeadline == nil)
            } else {
                #expect(i.stateName == "two")
                #expect(i.variables == [.number(1), .number(1), .number(1), .number(2)])
                #expect(i.nextDeadline == 0.5)
            }
        }
    }

    /// A trace's `changed` lists the variables whose value differs from the previous step of
    /// the same case, whether or not the step saved them; a failed step changes nothing.
    @Test func aTraceReportsWhatEachStepChanged() throws {
        let program = try program(source: StepCodeTests.late)
        let log = [
            #"{"event": "go", "x": 1, "case": "p"}"#,             // the entry fails: nothing changes
            #"{"event": "go", "x": 2, "case": "p"}"#,             // a, b, c, delay
            #"{"event": "go", "x": 3, "case": "q"}"#,             // another case: a, b, c, delay
            #"{"event": "go", "x": 9, "case": "p", "time": 1}"#,  // p's timer fires first (at 0.5); then a, b, c, delay
        ].joined(separator: "\n")
        var reader = EventLogReader(bytes: Array(log.utf8))
        var replayer = Replayer(program: program, options: .init(trace: true))
        var lines: [String] = []
        while let record = try reader.next() {
            try replayer.consume(record) { step in
                lines.append("\(step.caseKey ?? "-") \(step.event) \(step.changed.map { "\($0.name)=\($0.value)" }.joined(separator: " "))")
            }
        }
        #expect(lines == [
            "p go ",
            "p go a=1 b=1 c=1 delay=2",
            "q go a=1 b=1 c=0.5 delay=3",
            "p after 1 / delay ",
            "p go a=2 b=2 c=0.125 delay=9",
        ])
    }

    @Test func aTransitionReusesWhatItsGuardComputed() throws {
        let pull = try program(spec: "PullToRefresh")
        // `offsetY + insetTop` is added once, for the guard, and the action negates that.
        #expect(try StepCodeTests.block(pull, "pulling", "scroll").filter { $0.op == .add }.count == 1)
        #expect(try StepCodeTests.block(pull, "idle", "scroll").filter { $0.op == .add }.count == 1)
    }

    @Test func aGuardsValueIsComputedAgainOnceWhatItReadChanges() throws {
        let program = try program(source: """
            machine Reuse {
                public var x: Number = 1
                public var y: Number = 2
                public var z: Number = 0
                public var w: Number = 0
                event e(n: Number)
                event f
                initial state a {
                    exit { y = y + 10 }
                    on e if x + n > 0 && y * 2 > 0 && x * 3 > 0 -> b { z = x + n; w = y * 2 }
                    // Another block: the guard above has not run.
                    on f { z = x * 3 }
                }
                state b {
                    on e if x * 2 < n { x = 100; z = x * 2 }
                    on f { let t = x + y; z = t; let u = z + 1; w = u }
                }
            }
            """)
        let ops = try StepCodeTests.block(program, "a", "e").map(\.op)
        #expect(ops.filter { $0 == .add }.count == 2)       // x + n once; y + 10 in the exit
        #expect(ops.filter { $0 == .multiply }.count == 3)  // and y * 2 again after the exit changed y
        var i = Instance(program)
        _ = i.start()
        _ = i.send("f")
        #expect(i.value(of: "z") == .number(3))
        _ = i.send("e", ["n": .number(1)])
        #expect(i.stateName == "b")
        #expect(i.variables == [.number(1), .number(12), .number(2), .number(24)])
        _ = i.send("e", ["n": .number(5)])
        #expect(i.value(of: "x") == .number(100))
        #expect(i.value(of: "z") == .number(200))
        _ = i.send("f")
        #expect(i.variables == [.number(100), .number(12), .number(112), .number(113)])
    }
}

/// The instructions that do the work of several (`clamp`, `select`) against the code they
/// replace, and the division by zero that the finiteness test catches on its own.
@Suite struct FusedCodeTests {
    static let source = """
        machine Fused {
            public var fused: Number = 0
            public var plain: Number = 0
            public var picked: Number = 0
            public var branched: Number = 0
            public var compared: Number = 0
            public var branchedOnCompare: Number = 0
            event go(x: Number, lo: Number, hi: Number, flag: Bool)
            initial state s {
                on go {
                    fused = min(max(x, lo), hi)
                    // A local is not a call, so this is the unfused max, then min.
                    let m = max(x, lo)
                    plain = min(m, hi)
                    picked = flag ? x : lo
                    if flag { branched = x } else { branched = lo }
                    compared = x < lo ? hi : 7
                    if x < lo { branchedOnCompare = hi } else { branchedOnCompare = 7 }
                }
            }
        }
        """

    static let edges: [Double] = [0, -0.0, 1, -1, 0.5, -0.25, .nan, -.nan, .infinity, -.infinity,
                                  .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                                  .leastNonzeroMagnitude, -.leastNormalMagnitude, 110, 1e300]

    @Test func fusedInstructionsGiveWhatTheCodeTheyReplaceGives() throws {
        let program = try program(source: FusedCodeTests.source)
        let code = try StepCodeTests.block(program, "s", "go")
        #expect(code.filter { $0.op == .clamp }.count == 1)
        #expect(code.filter { $0.op == .select }.count == 2)
        var rng = SeededGenerator(seed: 404)
        var values = FusedCodeTests.edges
        for _ in 0..<16 { values.append(Double.random(in: -2...2, using: &rng) * [1, 1e-300, 1e300][Int.random(in: 0..<3, using: &rng)]) }
        var instance = Instance(program)
        _ = instance.start()
        var compared = 0
        let go = try #require(program.event(named: "go"))
        for x in values {
            for lo in values {
                for hi in values {
                    let flag = Bool.random(using: &rng)
                    let step = instance.send(go, payload: [.number(x), .number(lo), .number(hi), .bool(flag)])
                    guard case .applied = step.result else {
                        Issue.record("\(x), \(lo), \(hi): \(step.result)")
                        continue
                    }
                    let v = instance.variables.map { value -> UInt64 in
                        if case .number(let n) = value { n.bitPattern } else { 0 }
                    }
                    // Bit for bit: the sign of a zero and which NaN come through unchanged.
                    #expect(v[0] == v[1], "min(max(\(x), \(lo)), \(hi))")
                    #expect(v[0] == Swift.min(Swift.max(x, lo), hi).bitPattern)
                    #expect(v[2] == v[3], "\(flag) ? \(x) : \(lo)")
                    #expect(v[4] == v[5], "\(x) < \(lo) ? \(hi) : 7")
                    compared += 1
                }
            }
        }
        #expect(compared == values.count * values.count * values.count)
    }

    /// Without a test of the divisor, `x / 0` and `x % 0` still fail as divisions by zero,
    /// whatever `x` is.
    @Test func dividingByZeroFailsForEveryDividend() throws {
        let program = try program(source: """
            machine Divide {
                public var q: Number = 0
                public var r: Number = 0
                event divide(x: Number, y: Number)
                event remainder(x: Number, y: Number)
                initial state s {
                    on divide { q = x / y }
                    on remainder { r = x % y }
                }
            }
            """)
        var instance = Instance(program)
        _ = instance.start()
        for event in ["divide", "remainder"] {
            let op: BinaryOp = event == "divide" ? .divide : .remainder
            for x in FusedCodeTests.edges {
                for y in [0.0, -0.0] {
                    let sent = instance.send(event, ["x": .number(x), "y": .number(y)])
                    let step = try #require(sent)
                    guard case .failed(let fault) = step.result, case .byZero(let faultOp, let dividend) = fault.reason else {
                        Issue.record("\(x) \(op.rawValue) \(y): \(step.result)")
                        continue
                    }
                    #expect(faultOp == op && dividend.bitPattern == x.bitPattern)
                }
            }
            // A finite divisor that gives an infinite quotient is not a division by zero.
            let sent = instance.send(event, ["x": .number(1e308), "y": .number(1e-308)])
            let step = try #require(sent)
            if event == "divide" {
                guard case .failed(let fault) = step.result, case .notFinite = fault.reason else {
                    Issue.record("1e308 / 1e-308: \(step.result)")
                    continue
                }
            }
        }
        #expect(instance.variables[0] == .number(0))  // every division failed
    }
}
