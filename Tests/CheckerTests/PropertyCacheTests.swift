import Statecraft
import StatecraftRuntime
import Testing
import TestSupport

/// `replay` judges only the properties whose inputs changed (`PropertyMonitor.observe(…,
/// cache:)`); the plain `observe` judges every property in every configuration. On random
/// specs and statecharts with random properties of every form, the two watch the same runs
/// and must agree after every stable configuration: the same violations in the same order,
/// and the same monitor state (pending responses and the tags of their triggers, `only
/// after` conditions seen).
@Suite struct PropertyCacheTests {
    @Test func theCachedMonitorAgreesWithThePlainOneOnRandomRuns() throws {
        var compared = 0
        var broken = 0
        var readingStrings = 0
        var quickResponses = 0
        var settling = 0
        var singles = 0
        for seed in UInt64(0)..<40 {
            guard let text = PropertySoundnessTests.randomSpec(seed, chart: seed >= 25,
                                                               seeds: (chart: seed &* 4001 &+ 9, spec: seed &* 7727 &+ 5,
                                                                       properties: seed &+ 77))
            else { continue }
            var rng = SplitMix64(seed: seed &+ 78)
            guard let withProperties = Statecraft.check(source: text, bounds: nil).machine, !withProperties.events.isEmpty else {
                continue
            }
            let program = Program(withProperties)
            if program.propertyWatch?.strings.count ?? 0 > 0 { readingStrings += 1 }
            if program.properties.contains(where: { $0.kind == .response && $0.x.isQuick }) { quickResponses += 1 }
            if let w = program.propertyWatch, (0..<w.settledBy.count).contains(where: { w.settledBy[$0] != 0 }) { settling += 1 }
            for _ in 0..<20 {
                let difference = Self.compare(program, rng: &rng, broken: &broken, singles: &singles)
                compared += 1
                if let difference {
                    Issue.record("seed \(seed): \(difference)\n\(text)")
                    return
                }
            }
        }
        #expect(compared > 400)
        #expect(broken > 50, "the runs break properties, so the violations are compared too")
        #expect(readingStrings > 5, "properties read strings, whose changes the step's journal tells")
        #expect(quickResponses > 5, "responses whose X is quick are judged without the interpreter")
        #expect(settling >= 2, "steps settle properties (more in stepRangesHoldOnRandomAssignments)")
        #expect(singles > 1_000, "one-instruction blocks are held against the interpreter")
    }

    /// A string that changes with nothing else: the store in the step's code tells the
    /// cached monitor that `mode` may have moved.
    @Test func aStringThatAloneChangesIsJudgedAgain() throws {
        let machine = try #require(Statecraft.check(source: """
            machine Mode {
                var mode: String = "a"
                event set(to: String)
                initial state idle {
                    on set { mode = to }
                }
                property notB: always mode != "b"
                property onlyAB: never mode != "a" && mode != "b"
            }
            """, bounds: nil).machine)
        let program = Program(machine)
        var instance = Instance(program)
        _ = instance.start()
        var monitor = PropertyMonitor(program)
        let cache = PropertyInputCache(program)
        var found: [PropertyViolation] = []
        monitor.observe(&instance, program, at: 0, took: -1, cache: cache, violations: &found)
        let set = try #require(program.event(named: "set"))
        for (time, value) in [(1.0, "a"), (2.0, "b"), (3.0, "c")] {
            instance.advance(to: time)
            let step = instance.send(set, payload: [.string(value)])
            guard case .applied(let fired) = step.result else { Issue.record("set was not taken"); return }
            monitor.observe(&instance, program, at: time, took: Int32(set.index), fired: Int32(fired.index), cache: cache,
                            violations: &found)
        }
        #expect(found.map { "\(machine.properties[$0.property].name)@\($0.time)" } == ["notB@2.0", "onlyAB@3.0"])
    }

    /// On a flat machine the active leaf decides each `in(s)`, so `observe(…, cache:)` leaves
    /// out the quick properties a leaf makes harmless and skips the guards it makes true,
    /// `in(parent)` of a nested state included. The shortcut must still see every break:
    /// the same runs, judged by both monitors, agree, and the breaks inside and outside the
    /// parent are found.
    @Test func theActiveLeafDecidesInOfNestedStatesLikeThePlainMonitor() throws {
        let machine = try #require(Statecraft.check(source: """
            machine Nested {
                var x: Number = 0
                var held: Bool = false
                event bump(by: Number)
                event hold
                event leave
                event back
                initial state ready {
                    on leave -> away
                    on hold { held = !held }
                    initial state idle {
                        on bump { x = x + by }
                        on hold -> busy
                    }
                    state busy {
                        on bump { x = x - by }
                    }
                }
                state away {
                    on bump { x = by }
                    on back -> idle
                }
                property smallInReady: always x <= 2 && x >= -2 while in(ready)
                property notHeldAway: never held && in(away)
                property zeroInBusy: always x == 0 while !in(idle) && in(ready)
                property awayIsAway: always in(away) while !in(ready)
            }
            """, bounds: nil).machine)
        let program = Program(machine)
        #expect(program.properties.allSatisfy { $0.x.isQuick && ($0.other?.isQuick ?? true) }, "all four are quick")
        var rng = SplitMix64(seed: 7)
        var broken = 0, singles = 0
        for _ in 0..<300 {
            if let difference = Self.compare(program, rng: &rng, broken: &broken, singles: &singles) {
                Issue.record("\(difference)")
                return
            }
        }
        #expect(broken > 30, "the runs break the properties in and out of `ready`")
    }

    /// The same nested machine with properties that are not quick (arithmetic), so the input
    /// cache decides when they are judged: leaving or entering a leaf changes `in(s)` of every
    /// state around it, not only of the leaf (`never in(ready) && x + 1 > 3` breaks when `back`
    /// re-enters `ready` from `away`, where `bump` set `x`).
    @Test func theInputCacheSeesInOfNestedStatesChange() throws {
        let machine = try #require(Statecraft.check(source: """
            machine Nested {
                var x: Number = 0
                var held: Bool = false
                event bump(by: Number)
                event hold
                event leave
                event back
                initial state ready {
                    on leave -> away
                    on hold { held = !held }
                    initial state idle {
                        on bump { x = x + by }
                        on hold -> busy
                    }
                    state busy {
                        on bump { x = x - by }
                    }
                }
                state away {
                    on bump { x = by }
                    on back -> idle
                }
                property smallInReady: never in(ready) && x + 1 > 3
                property heldAway: always held || x * 2 < 4 while !in(ready)
            }
            """, bounds: nil).machine)
        let program = Program(machine)
        #expect(program.properties.allSatisfy { !$0.x.isQuick }, "neither is quick")
        var rng = SplitMix64(seed: 11)
        var broken = 0, singles = 0
        for _ in 0..<300 {
            if let difference = Self.compare(program, rng: &rng, broken: &broken, singles: &singles) {
                Issue.record("\(difference)")
                return
            }
        }
        #expect(broken > 30, "the runs break the properties in and out of `ready`")
    }

    /// On a flat machine the cached monitor judges a property again only after a step whose
    /// code may write what it reads, found in the code when the program is compiled: the
    /// writes in exit and entry actions, in both branches of an `if`, in a timer's step, of a
    /// string, in a candidate tried after another, and the `in(s)` of the states around a new
    /// leaf must all count, and a step
    /// that writes nothing a property reads (`tick`) must not hide a change made before it.
    @Test func theWritesOfEachTransitionDecideWhichPropertiesAreJudgedAgain() throws {
        let machine = try #require(Statecraft.check(source: """
            machine Writes {
                var x: Number = 0
                var y: Number = 0
                var label: String = "a"
                event go
                event back
                event tick
                event name(to: String)
                event grow(by: Number)
                initial state outer {
                    on tick { y = y + 1 }
                    initial state a {
                        exit { x = x + 1 }
                        on go -> b
                        on name { if to != "" { label = to } }
                        on grow if by > 4 -> b
                        on grow { if by > 1 { x = x + by } else { y = y + 1 } }
                    }
                    state b {
                        entry { y = 0 }
                        after 1s -> a { x = 0 }
                        on back -> a
                    }
                }
                property small: always x <= 2
                property named: never label == "b"
                property yInB: always y <= 1 while in(b)
                property slow: never x * 3 > 9 && in(a)
            }
            """, bounds: nil).machine)
        let program = Program(machine)
        var rng = SplitMix64(seed: 21)
        var broken = 0, singles = 0
        for _ in 0..<400 {
            if let difference = Self.compare(program, rng: &rng, broken: &broken, singles: &singles) {
                Issue.record("\(difference)")
                return
            }
        }
        #expect(broken > 100, "the runs break every property")
    }

    /// A step whose writes settle a quick property (`p = min(max(v / 100, 0), 1)` under
    /// `always p >= 0 && p <= 1`) leaves it unjudged, whatever the payload; a step through
    /// which NaN or an unbounded value can reach what the property reads does not. NaN and
    /// the infinities are sent too, as the library's API can send them: `max(0, v)` is 0 for
    /// a NaN `v`, but `max(v, 0)` and `min(max(v, 0), 1)` are NaN (a division that is not
    /// finite fails the step instead), and the cached monitor must agree with the plain one
    /// on every step.
    @Test func aStepWhoseWritesSettleAPropertyLeavesItUnjudged() throws {
        let machine = try #require(Statecraft.check(source: """
            machine Settle {
                var p: Number = 0
                var q: Number = 0
                event clamped(v: Number)
                event clampedNaN(v: Number)
                event raw(v: Number)
                event floored(v: Number)
                event nanIn(v: Number)
                event scaled(v: Number)
                event half
                initial state s {
                    on clamped { p = min(max(v / 100, 0), 1) }
                    on clampedNaN { p = min(max(v, 0), 1) }
                    on raw { p = v }
                    on floored { q = max(0, v) }
                    on nanIn { q = max(v, 0) }
                    on scaled { if v > 0 { p = v / 1000 } else { p = 0.5 } }
                    on half { p = 0.5 }
                }
                property inRange: always p >= 0 && p <= 1
                property nonNegative: never q < 0 || q != q
            }
            """, bounds: nil).machine)
        let program = Program(machine)
        let watch = try #require(program.propertyWatch)
        func bit(_ name: String) -> UInt64 {
            let k = program.properties.firstIndex { machine.properties[$0.property].name == name } ?? 63
            return UInt64(1) << UInt64(k)
        }
        func settled(_ event: String) -> UInt64 {
            guard let t = machine.transitions.firstIndex(where: {
                if case .events(let ids) = $0.trigger { ids.map { machine[$0].name } == [event] } else { false }
            }) else { return 0 }
            return watch.settledBy[t]
        }
        #expect(settled("clamped") == bit("inRange"))
        #expect(settled("half") == bit("inRange"))
        #expect(settled("floored") == bit("nonNegative"))
        #expect(settled("raw") == 0)
        #expect(settled("clampedNaN") == 0, "a NaN payload passes through min and max")
        #expect(settled("nanIn") == 0, "a NaN payload makes q NaN, which breaks the property")
        #expect(settled("scaled") == 0, "v / 1000 is any finite number")

        var pair = MonitorPair(program)
        let values: [Double] = [.nan, .infinity, -.infinity, -5, 0, 0.5, 1, 5, 2000]
        var steps: [String] = []
        for _ in 0..<3 {
            for event in machine.events {
                for v in event.fields.isEmpty ? [0] : values {
                    guard pair.send(event.id, event.fields.isEmpty ? [] : [.number(v)], at: 0) != nil else { continue }
                    steps.append("\(event.name)(\(v))")
                    #expect(pair.agree, "after \(steps.joined(separator: ", "))")
                    if !pair.agree { return }
                }
            }
            // Each property is reported once per run: a fresh pair of monitors for the next round.
            pair.renewMonitors()
        }
    }

    /// Random assignments of `min`, `max`, arithmetic, `abs` and `floor` over a payload,
    /// the variables and constants, under random bounds on the variables: wherever the
    /// step ranges say a step settles a property, the plain monitor, judging every
    /// property after every step, must find it unbroken. Payloads include NaN, the
    /// infinities and values far out of every bound.
    @Test func stepRangesHoldOnRandomAssignments() throws {
        var rng = SplitMix64(seed: 2026)
        func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
        func expr(_ depth: Int) -> String {
            let leaves = ["v", "x", "y", "0", "1", "-2", "0.5", "100"]
            guard depth > 0, rng.next() % 4 != 0 else { return pick(leaves) }
            let a = expr(depth - 1), b = expr(depth - 1)
            return pick(["min(\(a), \(b))", "max(\(a), \(b))", "(\(a) + \(b))", "(\(a) - \(b))", "(\(a) / 4)",
                         "-(\(a))", "abs(\(a))", "floor(\(a))", "(\(a) * 2)", "min(max(\(a), 0), 1)",
                         "min(max(\(a) / 4, -1), 1)", "min(max(\(a) - 1, 0), 2)"])
        }
        let bounds = ["x >= 0", "x <= 1", "x >= 0 && x <= 1", "y > -3", "y == y", "x != 100", "y <= 100 || y >= 1000",
                      "x < 2.5", "y >= -1.5", "x > -2 && y <= 3", "y != 0.75"]
        var settled = 0, programs = 0
        for _ in 0..<80 {
            var actions: [String] = []
            for e in 0..<4 {
                let v = pick(["x", "y"])
                actions.append(rng.next() % 3 == 0
                    ? "on e\(e) { if v > 0 { \(v) = \(expr(3)) } else { \(v) = \(expr(2)) } }"
                    : "on e\(e) { \(v) = \(expr(3)) }")
            }
            let properties = (0..<3).map { k in
                rng.next() % 2 == 0 ? "property p\(k): always \(pick(bounds))" : "property p\(k): never !(\(pick(bounds)))"
            }
            let text = """
                machine R {
                    var x: Number = 0
                    var y: Number = 0
                \((0..<4).map { "    event e\($0)(v: Number)" }.joined(separator: "\n"))
                    initial state s {
                \(actions.map { "        " + $0 }.joined(separator: "\n"))
                    }
                \(properties.map { "    " + $0 }.joined(separator: "\n"))
                }
                """
            guard let machine = Statecraft.check(source: text, bounds: nil).machine else { continue }
            let program = Program(machine)
            guard let watch = program.propertyWatch else { continue }
            programs += 1
            var pair = MonitorPair(program)
            let values: [Double] = [.nan, .infinity, -.infinity, -1e300, -5, -0.5, 0, 0.25, 1, 3, 100, 1e300]
            for step in 0..<60 {
                let event = machine.events[Int(rng.next() % 4)]
                let before = pair.plainFound.count
                guard let t = pair.send(event.id, [.number(pick(values))], at: Double(step)) else { continue }
                let settles = watch.settledBy[t]
                settled += settles.nonzeroBitCount
                for v in pair.plainFound[before...] {
                    let k = program.properties.firstIndex { $0.property == v.property } ?? 63
                    #expect(settles & (UInt64(1) << UInt64(k)) == 0, "a step said to settle \(machine.properties[v.property].name) broke it\n\(text)")
                }
                if !pair.agree {
                    Issue.record("the monitors differ after step \(step)\n\(text)")
                    return
                }
            }
        }
        #expect(programs > 60)
        #expect(settled > 200, "steps settle properties")
    }

    /// One run watched by the plain monitor and the cached one side by side, from its start.
    struct MonitorPair {
        let program: Program
        var instance: Instance
        var plain: PropertyMonitor
        var cached: PropertyMonitor
        let cache: PropertyInputCache
        var plainFound: [PropertyViolation] = []
        var cachedFound: [PropertyViolation] = []

        init(_ program: Program) {
            self.program = program
            instance = Instance(program)
            _ = instance.start()
            plain = PropertyMonitor(program)
            cached = PropertyMonitor(program)
            cache = PropertyInputCache(program)
            plain.observe(&instance, program, at: 0, took: -1, violations: &plainFound)
            cached.observe(&instance, program, at: 0, took: -1, fired: -1, cache: cache, violations: &cachedFound)
        }

        /// Whether the two found the same violations and hold the same state.
        var agree: Bool { plainFound == cachedFound && plain == cached }

        /// Sends `event` at `time` and has both monitors judge what it left; the transition it
        /// fired, or nil when it was not applied (nothing to judge).
        mutating func send(_ event: EventID, _ payload: [Value], at time: Double) -> Int? {
            guard case .applied(let t) = instance.send(event, payload: payload).result else { return nil }
            plain.observe(&instance, program, at: time, took: Int32(event.index), violations: &plainFound)
            cached.observe(&instance, program, at: time, took: Int32(event.index), fired: Int32(t.index), cache: cache,
                           violations: &cachedFound)
            return t.index
        }

        /// Fresh monitors for the run as it stands (each reports a property once).
        mutating func renewMonitors() {
            plain = PropertyMonitor(program)
            cached = PropertyMonitor(program)
            plainFound = []
            cachedFound = []
        }
    }

    /// One random run watched by both monitors; the first difference, if any.
    static func compare(_ program: Program, rng: inout SplitMix64, broken: inout Int, singles: inout Int) -> String? {
        var instance = Instance(program)
        guard case .started = instance.start().result else { return nil }
        var plain = PropertyMonitor(program)
        var cached = PropertyMonitor(program)
        let cache = PropertyInputCache(program)
        var plainFound: [PropertyViolation] = []
        var cachedFound: [PropertyViolation] = []
        var steps: [String] = []
        func observe(took event: Int32, fired: Int32, at time: Double) -> String? {
            // A one-instruction block is decided without the interpreter: the same value.
            for p in program.properties {
                for block in [p.x] + (p.other.map { [$0] } ?? []) where block.isQuick {
                    singles += 1
                    let quick = try? instance.holds(block), interpreted = try? instance.holds(block.interpreted)
                    if quick != interpreted { return "a quick block gave \(String(describing: quick)), the interpreter \(String(describing: interpreted))" }
                }
            }
            // Each step its own tag: the pending responses' tags are compared too.
            plain.tag = steps.count
            cached.tag = steps.count
            plain.observe(&instance, program, at: time, took: event, violations: &plainFound)
            cached.observe(&instance, program, at: time, took: event, fired: fired, cache: cache, violations: &cachedFound)
            guard plainFound == cachedFound, plain == cached else {
                return "after \(steps.joined(separator: ", ")): plain \(plainFound), cached \(cachedFound)"
            }
            return nil
        }
        func clock(to time: Double) -> String? {
            plain.clockMoves(to: time, program, violations: &plainFound)
            cached.clockMoves(to: time, program, violations: &cachedFound)
            return plainFound == cachedFound && plain == cached ? nil : "clock at \(time) after \(steps.joined(separator: ", "))"
        }
        // Timers due by `time` fire one by one, as replay fires them. A timer of a millisecond
        // fires a thousand times a second: past a few hundred steps, the run has shown enough.
        var fired = 0
        func move(to time: Double) -> String? {
            var firedAtOnce = 0
            while fired < 1_000, let step = instance.fireNextTimer(dueBy: time, firedAtOnce: &firedAtOnce) {
                fired += 1
                if let d = clock(to: step.time) { return d }
                if case .failed = step.result { continue }
                let took: Int32 = if case .applied = step.result, let sent = step.sent { Int32(sent.index) } else { -1 }
                let firedTransition: Int32 = if case .applied(let t) = step.result { Int32(t.index) } else { -1 }
                steps.append("timer at \(step.time)")
                if let d = observe(took: took, fired: firedTransition, at: step.time) { return d }
            }
            guard fired < 1_000 else { return nil }  // the run stops here
            if let d = clock(to: time) { return d }
            instance.advance(to: time)
            return nil
        }
        if let d = observe(took: -1, fired: -1, at: 0) { return d }
        var now = 0.0
        let events = program.machine.events
        for _ in 0..<40 {
            switch rng.next() % 5 {
            case 0: if let d = plain.nextDeadline(program) { now = max(now, rng.next() % 2 == 0 ? d : d.nextUp) }
            case 1: if let d = instance.nextDeadline { now = max(now, d) }
            default: now += PropertySoundnessTests.gaps[Int(rng.next() % UInt64(PropertySoundnessTests.gaps.count))]
            }
            if let d = move(to: now) { return d }
            if fired > 300 { break }
            let event = events[Int(rng.next() % UInt64(events.count))]
            let payload = PropertySoundnessTests.payload(event, rng: &rng)
            steps.append("\(event.name)\(payload) at \(now)")
            let step = instance.send(event.id, payload: payload)
            if case .failed(let fault) = step.result {
                if fault.isLoop { break }
                continue
            }
            if case .applied(let t) = step.result, let d = observe(took: Int32(event.id.index), fired: Int32(t.index), at: now) {
                return d
            }
            if instance.isFinished && rng.next() % 3 == 0 { break }
        }
        broken += plainFound.count
        return nil
    }
}
