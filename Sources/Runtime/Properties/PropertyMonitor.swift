import StatecraftDiagnostics
import StatecraftModel

/// A property's expressions compiled into the program's bytecode: each is a block that
/// leaves its Bool in a register, run against an instance at rest.
package struct CompiledProperty: Sendable {
    /// One expression's block and the register its value ends in.
    package struct Block: Sendable {
        package var pc: Int32
        package var register: Int32
        /// The block as one or two tests, when that is all it is (see `QuickCondition`):
        /// `holds` then decides it without entering the interpreter, which is what replay
        /// does on every line for a property like `always 0 <= progress && progress <= 1`.
        var quick: QuickCondition?

        /// Whether `holds` decides this block without the interpreter.
        package var isQuick: Bool { quick != nil }

        /// The same block, always run by the interpreter: the reference `holds` is tested against.
        package var interpreted: Block {
            var block = self
            block.quick = nil
            return block
        }
    }

    /// A condition made of one test, or two joined by `&&` or `||`, each test a comparison
    /// of two numbers or two strings, an `in(s)` or a Bool, maybe negated; none can fail.
    /// Most properties are written so (`originY <= 0`, `in(closed)`, `!in(refreshing)`,
    /// `0 <= progress && progress <= 1`, `alpha == 0.7 && textColor == "black"`).
    struct QuickCondition: Sendable {
        var first: QuickTest
        var second: QuickTest
        /// Whether `second` is there, and what joins it.
        var join: Join

        enum Join: UInt8, Sendable { case none, and, or }

        // (The instance is `inout` only so that it is read where it is: passed by value,
        // it would be copied, a retain for each of its references, on every line.)
        @inline(__always)
        func holds(_ instance: inout Instance) -> Bool {
            var tests = (first, second)
            return withUnsafeMutablePointer(to: &tests) { pair in
                pair.withMemoryRebound(to: QuickTest.self, capacity: 2) { QuickTest.holds($0, join, &instance) }
            }
        }
    }

    /// One test of a `QuickCondition`: 12 bytes, read in place on every replay line.
    struct QuickTest: Sendable {
        enum Op: UInt8, Sendable {
            /// Numbers `b` and `c` compared.
            case less, lessEqual, greater, greaterEqual, equal, notEqual
            /// Strings `b` and `c` compared.
            case equalStrings, notEqualStrings
            /// `in(b)` / `!in(b)` in any machine.
            case active, inactive
            /// `in(b)` / `!in(b)` for a leaf `b` of a machine without statechart steps: its
            /// active leaf is `b` (is not).
            case leaf, notLeaf
            /// The Bool in number register `b` / its negation.
            case truthy, falsy
        }
        var op: Op
        var b: Int32
        var c: Int32

        /// The condition of the test at `t`, and of the one after it as `join` says. The
        /// tests are read in place: replay's hot loop hands out pointers into the watch's
        /// table (a copy of the tests, packed into registers, cost more than the tests).
        @inline(__always)
        static func holds(_ t: UnsafeMutablePointer<QuickTest>, _ join: QuickCondition.Join, _ instance: inout Instance) -> Bool {
            holds(t, join, instance.registers.numbers, leaf: instance.state.index, &instance)
        }

        /// `holds`, with the number registers and the active leaf (of a flat machine) read
        /// once by the caller, for a loop over many conditions.
        @inline(__always)
        static func holds(_ t: UnsafeMutablePointer<QuickTest>, _ join: QuickCondition.Join,
                          _ n: UnsafeMutablePointer<Double>, leaf: Int, _ instance: inout Instance) -> Bool {
            let a = holds(t, n, leaf: leaf, &instance)
            switch join {
            case .none: return a
            case .and: return a && holds(t + 1, n, leaf: leaf, &instance)
            case .or: return a || holds(t + 1, n, leaf: leaf, &instance)
            }
        }

        @inline(__always)
        static func holds(_ t: UnsafeMutablePointer<QuickTest>, _ n: UnsafeMutablePointer<Double>, leaf: Int,
                          _ instance: inout Instance) -> Bool {
            let b = Int(t.pointee.b), c = Int(t.pointee.c)
            switch t.pointee.op {
            case .less: return n[b] < n[c]
            case .lessEqual: return n[b] <= n[c]
            case .greater: return n[b] > n[c]
            case .greaterEqual: return n[b] >= n[c]
            case .equal: return n[b] == n[c]
            case .notEqual: return n[b] != n[c]
            case .leaf: return leaf == b
            case .notLeaf: return leaf != b
            case .truthy: return n[b] != 0
            case .falsy: return n[b] == 0
            case .equalStrings, .notEqualStrings, .active, .inactive: return holdsOutOfLine(t, &instance)
            }
        }

        /// The tests that call out (string equality, a statechart's `in(s)`): kept out of
        /// `holds` so that the numbers' and leaves' tests stay small enough to inline.
        @inline(never)
        static func holdsOutOfLine(_ t: UnsafeMutablePointer<QuickTest>, _ instance: inout Instance) -> Bool {
            let b = Int(t.pointee.b), c = Int(t.pointee.c)
            switch t.pointee.op {
            case .equalStrings: return instance.registers.strings[b] == instance.registers.strings[c]
            case .notEqualStrings: return instance.registers.strings[b] != instance.registers.strings[c]
            case .active: return instance.isActive(b)
            case .inactive: return !instance.isActive(b)
            default: return false  // `holds` tests every other op itself.
            }
        }
    }

    /// A `never X` or `always X [while G]` whose `X` and `G` are quick: what replay judges
    /// inline. Its tests are in the watch's test table (`PropertyWatch.quickTests`), from
    /// `4 * k`: `X`'s two, then `G`'s two.
    struct QuickJudgement: Sendable {
        var x: QuickCondition.Join
        var g: QuickCondition.Join
        var hasGuard: Bool
        /// `X` breaks the property where it is this (true for `never`, false for `always`).
        var breaksWhen: Bool
    }

    package enum Kind: Sendable, Equatable {
        case never, always, response, precedence, reachable
    }

    /// The property's index in `Machine.properties`.
    package var property: Int
    package var kind: Kind
    /// `X` of every form.
    package var x: Block
    /// `G` of `never`/`always … while G`, `Y` of `X only after Y`; nil otherwise.
    package var other: Block?
    /// A response's trigger: the event whose taking starts it, or the state whose entering
    /// does (-1 where the other is used, and for the other forms).
    package var triggerEvent: Int32 = -1
    package var triggerState: Int32 = -1
    /// A response's deadline, in seconds after its trigger.
    package var deadline: Double = 0
    /// Whether evaluating `X` / the other expression can fail (an operation with a fault
    /// site in its code). One that cannot fail need not be evaluated where its value does
    /// not matter (`PropertyMonitor.observe(…, cache:)`).
    package var xCanFail = true
    package var otherCanFail = true
}

/// How a property failed in one run.
package struct PropertyViolation: Sendable, Equatable {
    package enum Reason: Sendable, Equatable {
        /// A stable configuration where `never`'s `X` (and `G`) held, or `always`'s `X` did
        /// not (where `G` held).
        case stateBreaksIt
        /// `X only after Y`: `X` held, and `Y` had not held in this run.
        case beforePrecondition
        /// `after … within D`: the clock passed the deadline of the trigger at `triggerTime`
        /// with no stable configuration satisfying `X` in between. `triggerTag` is the
        /// caller's `PropertyMonitor.tag` when the trigger's step was observed (replay: its
        /// log line), so a report can point at the step that started the wait.
        case deadlinePassed(triggerTime: Double, deadline: Double, triggerTag: Int)
        /// The property's expression failed to evaluate in a stable configuration.
        case fault(ExpressionFault)
    }

    /// The property's index in `Machine.properties`.
    package var property: Int
    package var reason: Reason
    /// The time the violation became certain: the stable configuration's, or for a
    /// deadline, the time the clock reached past it.
    package var time: Double
}

/// Watches one run's stable configurations for the properties a run can break: everything
/// but `always reachable`, which is about the runs a configuration could still have, not
/// the one it is in. `replay` keeps one per case; the search keeps one per configuration
/// and tells configurations apart by it (`writeKey`), so two runs that reach the same
/// configuration with different histories stay two.
///
/// The caller reports each stable configuration in order with `observe`, after moving the
/// clock with `clockMoves(to:)`. A property is reported violated once per run: after that
/// its monitor is spent (the run is already a counterexample).
package struct PropertyMonitor: Sendable, Hashable {
    /// By compiled property: whether `Y` of `X only after Y` has held in this run.
    private var seen: [Bool]
    /// By compiled property: the time of the oldest trigger of a response not yet answered
    /// (nil: none pending). Only the oldest matters: every trigger has the same `D`, so its
    /// deadline comes first, and a stable configuration satisfying `X` answers them all.
    package private(set) var pending: [Double?]
    /// By compiled property: `tag` as it was when `pending` was set (meaningless while
    /// `pending` is nil). Beside `pending` rather than in it, so the hot path's test of
    /// `pending` stays what it was.
    package private(set) var pendingTag: [Int]
    /// The caller's name for the step it is about to observe, remembered by a response that
    /// step triggers and handed back in `Reason.deadlinePassed`: replay sets the log line, the
    /// search leaves -1. It decides nothing, and `writeKey` leaves it out.
    package var tag = -1
    /// By compiled property: whether an `after entering s` response's state was active in
    /// the last stable configuration (entering is becoming active, not staying).
    private var wasActive: [Bool]
    /// By compiled property: whether it was already reported violated.
    package private(set) var violated: [Bool]
    /// The earliest deadline of a pending response (infinity: none), kept so that the clock
    /// moving, on every line of a replay, costs one comparison while nothing is due.
    private var nextDue = Double.infinity

    /// A monitor of `program`'s properties for a run that has not started.
    package init(_ program: Program) {
        let count = program.properties.count
        seen = Array(repeating: false, count: count)
        pending = Array(repeating: nil, count: count)
        pendingTag = Array(repeating: -1, count: count)
        wasActive = Array(repeating: false, count: count)
        violated = Array(repeating: false, count: count)
    }

    /// Whether the program has any property a run can break.
    package static func watches(_ program: Program) -> Bool {
        program.properties.contains { $0.kind != .reachable }
    }

    /// The earliest deadline of a pending response, if any.
    package func nextDeadline(_ program: Program) -> Double? {
        nextDue < .infinity ? nextDue : nil
    }

    /// Works `nextDue` out again after a pending response was answered or broken. (Only the
    /// deadline of each pending response is read: a whole `CompiledProperty` is not copied.)
    private mutating func recomputeNextDue(_ program: Program) {
        var earliest = Double.infinity
        for k in pending.indices where !violated[k] {
            if let t = pending[k] { earliest = min(earliest, t + program.properties[k].deadline) }
        }
        nextDue = earliest
    }

    /// Appends what tells this run's monitor apart from another's in the same configuration
    /// at time `now`: which `only after` conditions have held, and how long each pending
    /// response has left. (Whether an entered state was active is the configuration's own;
    /// a property already violated is settled, and what its monitor holds no longer matters.)
    package func writeKey(into key: inout [UInt64], now: Double) {
        for word in stride(from: 0, to: seen.count, by: 64) {
            var bits: UInt64 = 0
            for k in word..<min(seen.count, word + 64) where seen[k] && !violated[k] { bits |= 1 << UInt64(k - word) }
            key.append(bits)
        }
        for k in pending.indices where !violated[k] {
            if let trigger = pending[k] { key.append(UInt64(k) << 1 | 1); key.append((now - trigger).bitPattern) }
        }
    }

    /// The clock moves to `time`, before any step at that time: every response whose
    /// deadline is strictly earlier is violated.
    @inline(__always)
    package mutating func clockMoves(to time: Double, _ program: Program, violations: inout [PropertyViolation]) {
        if time > nextDue { deadlinesPass(at: time, program, &violations) }
    }

    /// `clockMoves` past the earliest deadline: the responses whose deadlines are passed break.
    @inline(never)
    private mutating func deadlinesPass(at time: Double, _ program: Program, _ violations: inout [PropertyViolation]) {
        defer { recomputeNextDue(program) }
        for (k, p) in program.properties.enumerated() where p.kind == .response && !violated[k] {
            guard let trigger = pending[k], time > trigger + p.deadline else { continue }
            violated[k] = true
            pending[k] = nil
            violations.append(PropertyViolation(property: p.property,
                                                reason: .deadlinePassed(triggerTime: trigger, deadline: trigger + p.deadline,
                                                                        triggerTag: pendingTag[k]),
                                                time: time))
        }
    }

    /// A stable configuration of `instance` at `time`, left by a step that took event
    /// `event` (-1: a timer's step, the start, or an event ignored or rejected).
    package mutating func observe(_ instance: inout Instance, at time: Double, took event: Int32,
                                  violations: inout [PropertyViolation]) {
        observe(&instance, instance.program, at: time, took: event, violations: &violations)
    }

    /// `observe`, with the instance's program passed in (a caller that has it at hand saves
    /// a retain and a release per step).
    package mutating func observe(_ instance: inout Instance, _ program: Program, at time: Double, took event: Int32,
                                  violations: inout [PropertyViolation]) {
        let properties = program.properties
        for k in properties.indices where !violated[k] && properties[k].kind != .reachable {
            judge(k, properties[k], &instance, program, at: time, took: event, violations: &violations)
        }
    }

    /// `observe`, judging only the properties whose inputs may have changed since the last
    /// stable configuration (`PropertyWatch` says how that is found without reading the
    /// values), and the responses the step's event triggers. The others hold the values they
    /// held then, so `never`, `always` and `only after` cannot break now if they did not
    /// then, and a response takes its `X` from the cache. A replay line mostly changes one or
    /// two variables, and many change none a property reads, so most properties are not
    /// judged at all. Quick properties (see `QuickJudgement`) are judged inline; on a flat
    /// machine, only those the active leaf leaves to judge. `fired` is the transition the
    /// step fired (-1: the start, or not known: everything is judged on a flat machine).
    /// `observe` is the plain reference the tests compare this with.
    package mutating func observe(_ instance: inout Instance, _ program: Program, at time: Double, took event: Int32,
                                  fired: Int32, cache: PropertyInputCache, violations: inout [PropertyViolation]) {
        guard let flat = cache.flat else {
            chartObserve(&instance, program, at: time, took: event, cache: cache, violations: &violations)
            return
        }
        // The common line of a flat machine, kept small (few values live across it, so few
        // registers to save): nothing a property reads changed, or only what quick
        // properties read and none breaks.
        let leaf = instance.state.index
        let (changed, due) = cache.flatDue(flat, leaf: Int32(truncatingIfNeeded: leaf), fired: fired, took: event)
        if due == 0 { return }
        let quick = due & flat.quickMask
        let inLeaf = flat.quickIn[leaf]
        let judged = quick & inLeaf.judged
        let broken = judged == 0 ? 0
            : quickBreaks(.init(judged: judged, guardsTested: inLeaf.guardsTested), flat.quick, flat.quickTests, &instance)
        let rest = due & ~flat.quickMask
        if broken == 0 && rest == 0 { return }
        report(broken: broken, judge: rest, changed: changed, &instance, program, at: time, took: event, cache: cache,
               violations: &violations)
    }

    /// `observe(…, cache:)` without the step's transition: on a flat machine, every property
    /// is judged (what the step wrote is not known).
    package mutating func observe(_ instance: inout Instance, _ program: Program, at time: Double, took event: Int32,
                                  cache: PropertyInputCache, violations: inout [PropertyViolation]) {
        observe(&instance, program, at: time, took: event, fired: -1, cache: cache, violations: &violations)
    }

    /// `observe(…, cache:)` on a statechart (or without a watch).
    @inline(never)
    private mutating func chartObserve(_ instance: inout Instance, _ program: Program, at time: Double, took event: Int32,
                                       cache: PropertyInputCache, violations: inout [PropertyViolation]) {
        guard let watch = cache.watch else {
            observe(&instance, program, at: time, took: event, violations: &violations)
            return
        }
        // Borrowed, not loaded: loading the watch would retain and release it on every line.
        let (changed, due) = watch._withUnsafeGuaranteedRef { watch in
            let changed = cache.chartChanged(instance, watch)
            return (changed, watch.due(changed, took: event))
        }
        if due == 0 { return }
        let (quickMask, judgements, tests) = watch._withUnsafeGuaranteedRef { ($0.quickMask, $0.quick.base, $0.quickTests.base) }
        let quick = due & quickMask
        let broken = quick == 0 ? 0 : quickBreaks(.init(judged: quick, guardsTested: quick), judgements, tests, &instance)
        let rest = due & ~quickMask
        if broken == 0 && rest == 0 { return }
        report(broken: broken, judge: rest, changed: changed, &instance, program, at: time, took: event, cache: cache,
               violations: &violations)
    }

    /// Reports the quick properties in `broken`, and judges the others in `judge` (see
    /// `judge(_:changed:…)`), keeping the violations in property order as `observe` finds them.
    @inline(never)
    private mutating func report(broken: UInt64, judge rest: UInt64, changed: UInt64, _ instance: inout Instance,
                                 _ program: Program, at time: Double, took event: Int32, cache: PropertyInputCache,
                                 violations: inout [PropertyViolation]) {
        let found = violations.count
        if broken != 0 { reportBroken(broken, program, at: time, &violations) }
        if rest != 0 { judge(rest, changed: changed, &instance, program, at: time, took: event, cache: cache, violations: &violations) }
        if violations.count - found > 1 { violations[found...].sort { $0.property < $1.property } }
    }

    /// Of the quick properties `candidates` judges (see `QuickJudgement`), those this
    /// configuration breaks (including ones already reported, which `reportBroken` leaves
    /// out). Their conditions cannot fail, so `X` is read only where `G` holds; nothing is
    /// written, so the loop keeps everything in registers.
    @inline(__always)
    private func quickBreaks(_ candidates: PropertyWatch.QuickInLeaf,
                             _ judgements: UnsafeMutablePointer<CompiledProperty.QuickJudgement>,
                             _ quickTests: UnsafeMutablePointer<CompiledProperty.QuickTest>,
                             _ instance: inout Instance) -> UInt64 {
        var quick = candidates.judged, broken: UInt64 = 0
        let n = instance.registers.numbers, leaf = instance.state.index
        while quick != 0 {
            let k = quick.trailingZeroBitCount
            quick &= quick - 1
            let q = judgements[k], tests = quickTests + 4 &* k
            if q.hasGuard && candidates.guardsTested & (UInt64(1) << UInt64(k)) != 0
                && !CompiledProperty.QuickTest.holds(tests + 2, q.g, n, leaf: leaf, &instance) { continue }
            if CompiledProperty.QuickTest.holds(tests, q.x, n, leaf: leaf, &instance) == q.breaksWhen {
                broken |= UInt64(1) << UInt64(k)
            }
        }
        return broken
    }

    @inline(never)
    private mutating func reportBroken(_ broken: UInt64, _ program: Program, at time: Double,
                                       _ violations: inout [PropertyViolation]) {
        var broken = broken
        while broken != 0 {
            let k = broken.trailingZeroBitCount
            broken &= broken - 1
            if !violated[k] { report(k, program.properties[k], .stateBreaksIt, time, &violations) }
        }
    }

    /// The properties in `due` that are not quick: those whose inputs changed (in
    /// `changed`), and the responses the step's event triggers.
    @inline(never)
    private mutating func judge(_ due: UInt64, changed: UInt64, _ instance: inout Instance, _ program: Program,
                                at time: Double, took event: Int32, cache: PropertyInputCache,
                                violations: inout [PropertyViolation]) {
        var due = due
        while due != 0 {
            let k = due.trailingZeroBitCount
            due &= due - 1
            guard !violated[k] else { continue }
            let p = program.properties[k]
            if changed & (UInt64(1) << UInt64(k)) != 0 {
                judgeChanged(k, p, &instance, program, at: time, took: event, cache: cache, violations: &violations)
            } else if p.kind == .response, !cache.lastX[k] {
                // Only the event that triggers this response was taken, and its `X` is still
                // false: the wait starts. (A state trigger is among the inputs: unchanged, it
                // was not entered now.)
                startWait(k, p, at: time)
            }
        }
    }

    /// `judge`, for a property whose inputs changed, evaluating only what decides it: with
    /// `while G`, `X` is not needed where `G` is false, nor are `X` and `Y` of `X only after
    /// Y` once `Y` has held. An expression is skipped only if it cannot fail, since one that
    /// fails breaks its property wherever it is evaluated.
    @inline(__always)
    private mutating func judgeChanged(_ k: Int, _ p: CompiledProperty, _ instance: inout Instance, _ program: Program,
                                       at time: Double, took event: Int32, cache: PropertyInputCache,
                                       violations: inout [PropertyViolation]) {
        switch p.kind {
        case .never, .always:
            guard let g = p.other, !p.xCanFail else { break }
            do throws(ExpressionFault) {
                guard try instance.holds(g) else { return }
                if try instance.holds(p.x) == (p.kind == .never) { report(k, p, .stateBreaksIt, time, &violations) }
            } catch {
                report(k, p, .fault(error), time, &violations)
            }
            return
        case .precedence:
            if seen[k] && !p.xCanFail && !p.otherCanFail { return }
        case .response:
            // A quick `X` (`!in(refreshing)`) cannot fail and needs no interpreter: what
            // `judge` does for a response, without its general machinery.
            if let x = p.x.quick {
                let holds = x.holds(&instance)
                cache.lastX[k] = holds
                respond(k, p, instance, program, at: time, took: event, x: holds)
                return
            }
        case .reachable:
            break
        }
        judge(k, p, &instance, program, at: time, took: event, violations: &violations, remember: &cache.lastX[k])
    }

    /// Judges property `k` in the stable configuration of `instance`, evaluating its
    /// expressions; `remember` receives `X`'s value.
    private mutating func judge(_ k: Int, _ p: CompiledProperty, _ instance: inout Instance, _ program: Program,
                                at time: Double, took event: Int32, violations: inout [PropertyViolation]) {
        var x = false
        judge(k, p, &instance, program, at: time, took: event, violations: &violations, remember: &x)
    }

    private mutating func judge(_ k: Int, _ p: CompiledProperty, _ instance: inout Instance, _ program: Program,
                                at time: Double, took event: Int32, violations: inout [PropertyViolation],
                                remember: inout Bool) {
        // Every expression is evaluated in every stable configuration, needed or not:
        // one that fails to evaluate violates its property wherever it fails.
        do throws(ExpressionFault) {
            let x = try instance.holds(p.x)
            let other = try p.other.map { b throws(ExpressionFault) in try instance.holds(b) }
            remember = x
            switch p.kind {
            case .never, .always:
                if other ?? true, x == (p.kind == .never) { report(k, p, .stateBreaksIt, time, &violations) }
            case .precedence:
                if other == true { seen[k] = true }
                if x && !seen[k] { report(k, p, .beforePrecondition, time, &violations) }
            case .response:
                respond(k, p, instance, program, at: time, took: event, x: x)
            case .reachable:
                break
            }
        } catch {
            report(k, p, .fault(error), time, &violations)
            endWait(k, program)
        }
    }

    /// A response in a stable configuration where its `X` is `x`: a trigger starts the
    /// wait (the oldest pending one counts), and `X` answers every pending trigger.
    @inline(__always)
    private mutating func respond(_ k: Int, _ p: CompiledProperty, _ instance: Instance, _ program: Program,
                                  at time: Double, took event: Int32, x: Bool) {
        var triggered = p.triggerEvent >= 0 && p.triggerEvent == event
        if p.triggerState >= 0 {
            let active = instance.isActive(Int(p.triggerState))
            triggered = active && !wasActive[k]
            if wasActive[k] != active { wasActive[k] = active }
        }
        if x {
            endWait(k, program)
        } else if triggered {
            startWait(k, p, at: time)
        }
    }

    /// A trigger of response `k` at `time`: its wait starts, unless an older one is pending
    /// (whose deadline comes first).
    private mutating func startWait(_ k: Int, _ p: CompiledProperty, at time: Double) {
        guard pending[k] == nil else { return }
        pending[k] = time
        pendingTag[k] = tag
        nextDue = min(nextDue, time + p.deadline)
    }

    /// Response `k` no longer waits: answered, or broken by a fault.
    private mutating func endWait(_ k: Int, _ program: Program) {
        guard pending[k] != nil else { return }
        pending[k] = nil
        recomputeNextDue(program)
    }

    /// Lets time pass on `instance` to `time` as replay does, watching it: the timers due
    /// fire in turn, the clock passes each one's time before its step (a deadline passed
    /// before it is broken there), and each step that did not fail leaves a stable
    /// configuration to judge. `onStep` sees every timer's step, failed ones too.
    package mutating func advance(_ instance: inout Instance, to time: Double, violations: inout [PropertyViolation],
                                  onStep: (Step) -> Void = { _ in }) {
        let program = instance.program
        var firedAtOnce = 0
        while let step = instance.fireNextTimer(dueBy: time, firedAtOnce: &firedAtOnce) {
            onStep(step)
            clockMoves(to: step.time, program, violations: &violations)
            if case .failed = step.result { continue }
            let took: Int32 = if case .applied = step.result, let sent = step.sent { Int32(sent.index) } else { -1 }
            observe(&instance, program, at: step.time, took: took, violations: &violations)
        }
        clockMoves(to: time, program, violations: &violations)
        instance.advance(to: time)
    }

    private mutating func report(_ k: Int, _ p: CompiledProperty, _ reason: PropertyViolation.Reason, _ time: Double,
                                 _ violations: inout [PropertyViolation]) {
        violated[k] = true
        violations.append(PropertyViolation(property: p.property, reason: reason, time: time))
    }
}

extension Instance {
    /// Whether a property's expression holds in this configuration. Only temporaries are
    /// written, so the configuration and its variables stay as they are.
    package mutating func holds(_ block: CompiledProperty.Block) throws(ExpressionFault) -> Bool {
        if let quick = block.quick { return quick.holds(&self) }
        makeUnique()
        _ = try execute(block.pc)
        return registers.numbers[Int(block.register)] != 0
    }
}
