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
