import Statecraft
import StatecraftRuntime
import Testing

/// The run-time meaning of properties (`../shared/properties.md`): what one run's stable
/// configurations violate, and when. `replay` and the search both watch runs through
/// `PropertyMonitor`, so these are the rules they share.
@Suite struct PropertyMonitorTests {
    static let checkout = """
        machine Checkout {
            var attempts: Number = 0
            var divisor: Number = 1
            event tapPay
            event paid
            event failed
            event zero
            initial state reviewing {
                on tapPay -> paying
                on zero { divisor = 0 }
            }
            state paying {
                on paid -> receipt
                on failed -> errorBanner { attempts += 1 }
                after 4s -> errorBanner
            }
            final state receipt
            state errorBanner {
                on tapPay if attempts < 3 -> paying
            }
            property oneScreen:  never in(paying) && in(errorBanner)
            property fewTries:   always attempts < 2 while in(errorBanner)
            property settles:    after tapPay within 3s: in(receipt) || in(errorBanner)
            property leaves:     after entering paying within 5s: !in(paying)
            property paidFirst:  in(receipt) only after in(paying)
            property triedFirst: in(errorBanner) only after attempts > 0
            property answered:   after failed within 0s: in(errorBanner)
            property finite:     never 1 / divisor > 100
            property noTrap:     always reachable in(receipt)
        }
        """

    /// One run: `(time, event)` lines, with timers fired before each line as replay does.
    /// Returns the violations as `name@time` in the order they became certain.
    func run(_ lines: [(Double, String)], until end: Double? = nil) throws -> [String] {
        let program = try program(source: Self.checkout)
        var instance = Instance(program)
        var monitor = PropertyMonitor(program)
        var found: [PropertyViolation] = []
        _ = instance.start()
        monitor.observe(&instance, at: 0, took: -1, violations: &found)
        func moveTo(_ time: Double) { monitor.advance(&instance, to: time, violations: &found) }
        for (time, event) in lines {
            moveTo(time)
            let step = instance.send(event)
            let took: Int32 = if case .applied? = step?.result { Int32(program.event(named: event)!.index) } else { -1 }
            monitor.observe(&instance, at: time, took: took, violations: &found)
        }
        if let end { moveTo(end) }
        return found.map { "\(program.machine.properties[$0.property].name)@\($0.time)" }
    }

    @Test func aQuietRunViolatesNothing() throws {
        #expect(try run([(1, "tapPay"), (2, "paid")], until: 100) == [])
    }

    @Test func aResponseIsViolatedWhenTheClockPassesItsDeadline() throws {
        // tapPay at 1: its deadline is 4, and the line at 4 is not yet past it.
        #expect(try run([(1, "tapPay")], until: 4) == [])
        #expect(try run([(1, "tapPay")], until: 4.5) == ["settles@4.5"])
        // The timer answers at 5, a second late; it leaves paying 4 s after entering, in time.
        #expect(try run([(1, "tapPay")], until: 100) == ["settles@5.0", "triedFirst@5.0"])
    }

    @Test func theTriggeringStepItselfMayAnswer() throws {
        // `failed` enters errorBanner at once, so a deadline of 0 s is met.
        #expect(try run([(0, "tapPay"), (1, "failed")], until: 10) == [])
    }

    @Test func alwaysIsCheckedWhereItsConditionHolds() throws {
        #expect(try run([(0, "tapPay"), (1, "failed"), (1, "tapPay"), (2, "failed")], until: 50) == ["fewTries@2.0"])
    }

    @Test func precedenceNeedsTheEarlierState() throws {
        #expect(try run([(0, "tapPay"), (0, "paid")]) == [])
        #expect(try run([(0, "tapPay")], until: 10) == ["settles@4.0", "triedFirst@4.0"])
    }

    @Test func anExpressionThatFailsViolatesItsProperty() throws {
        #expect(try run([(0, "zero"), (1, "zero")]) == ["finite@0.0"])
    }

    @Test func eachEntryHasItsOwnDeadline() throws {
        // paying is entered at 0 and left at 1, entered again at 2: the timer leaves it at 6,
        // 4 s after the second entry (in time), 4 s after the second tapPay (late).
        #expect(try run([(0, "tapPay"), (1, "failed"), (2, "tapPay")], until: 6.5) == ["settles@6.0"])
    }

    /// A missed deadline hands back the caller's tag of the step that started the wait,
    /// whichever path judged it (the plain one or the one that skips unchanged inputs); a
    /// wait started after an answer has its own step's tag, not the first trigger's.
    @Test func aMissedDeadlineNamesTheTagOfItsTrigger() throws {
        let program = try program(source: Self.checkout)
        let settles = try #require(program.machine.properties.firstIndex { $0.name == "settles" })
        for cached in [false, true] {
            var instance = Instance(program)
            var monitor = PropertyMonitor(program)
            let cache = PropertyInputCache(program)
            var found: [PropertyViolation] = []
            func observe(_ tag: Int, at time: Double, took event: Int32) {
                monitor.tag = tag
                if cached {
                    monitor.observe(&instance, program, at: time, took: event, cache: cache, violations: &found)
                } else {
                    monitor.observe(&instance, program, at: time, took: event, violations: &found)
                }
            }
            func send(_ event: String, tag: Int, at time: Double) throws {
                monitor.advance(&instance, to: time, violations: &found)
                let step = instance.send(event)
                guard case .applied? = step?.result else { return }  // (replay judges only a step taken)
                observe(tag, at: time, took: Int32(try #require(program.event(named: event)).index))
            }
            _ = instance.start()
            observe(1, at: 0, took: -1)
            // tapPay (tag 2) starts a wait that `failed` (tag 3) answers in errorBanner; tapPay
            // again (tag 4) starts another, which paying's 4 s timer answers at 6, a second
            // after its deadline: the clock passes it on the way to the line at 9.
            try send("tapPay", tag: 2, at: 0)
            try send("failed", tag: 3, at: 1)
            try send("tapPay", tag: 4, at: 2)
            try send("paid", tag: 5, at: 9)
            let missed = found.filter { $0.property == settles }
            #expect(missed.map(\.reason) == [.deadlinePassed(triggerTime: 2, deadline: 5, triggerTag: 4)], "cached: \(cached): \(found)")
            #expect(missed.map(\.time) == [6])
        }
    }
}

/// A quick condition decides a comparison of numbers without the interpreter: it must give
/// what the interpreter's comparison gives for every pair, infinities, signed zeros and NaN
/// included (values a replay's variables never hold today, set here in the registers
/// directly, so the shortcut stays right if they ever can).
@Suite struct QuickComparisonTests {
    @Test func everyComparisonAgreesWithTheInterpreter() throws {
        let machine = try #require(Statecraft.check(source: """
            machine Compare {
                var a: Number = 0
                var b: Number = 0
                event tick
                initial state idle {
                    on tick { a = a + 1 }
                }
                property lt: always a < b
                property le: always a <= b
                property gt: always a > b
                property ge: always a >= b
                property eq: always a == b
                property ne: always a != b
            }
            """, bounds: nil).machine)
        let program = Program(machine)
        #expect(program.properties.count == 6 && program.properties.allSatisfy { $0.x.isQuick })
        var instance = Instance(program)
        _ = instance.start()
        let values: [Double] = [-.infinity, -1, -0.0, 0, 0.5, 1, .infinity, .nan]
        var compared = 0
        for x in values {
            for y in values {
                instance.registers.numbers[0] = x
                instance.registers.numbers[1] = y
                for p in program.properties {
                    let quick = try instance.holds(p.x), interpreted = try instance.holds(p.x.interpreted)
                    #expect(quick == interpreted, "\(machine.properties[p.property].name) on \(x), \(y)")
                    compared += 1
                }
            }
        }
        #expect(compared == 6 * 64)
    }
}
