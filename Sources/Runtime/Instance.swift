import StatecraftDiagnostics
import StatecraftModel

/// What one step of an instance did: the one answer of `Instance` and of `ReferenceStepper`
/// (so the differential tests compare the two with `==`).
public struct Step: Sendable, Equatable {
    /// What became of the step's event or timer: the machine started, the event (or timer)
    /// was applied, ignored, came after the end, or the step failed.
    public enum Result: Sendable, Equatable {
        /// The machine entered its initial state.
        case started
        /// A transition took the event (or the timer's transition fired): the first one of
        /// the step.
        case applied(TransitionID)
        /// No transition of the active states takes the event (or every guard was false).
        case ignored
        /// The run already ended in a final state; the event was not looked at.
        case afterFinal
        /// An expression failed (division by zero, …); the step was undone.
        case failed(ExpressionFault)
    }

    /// Whether the machine started, or the event was applied, ignored, arrived after the end
    /// or failed.
    public var result: Result
    /// The active state before the step.
    public var from: StateID
    /// The active state after it (equal to `from` unless a transition changed it).
    public var to: StateID
    /// The virtual time of the step: a timer's deadline, or the time the event arrived.
    public var time: Double = 0
    /// For a timer's step, the timer (its `after` transition) whose deadline it was, whether
    /// its transition fired, was used up (its guard false) or failed.
    public var timer: TransitionID?
    /// For the step of an event the machine sent itself (`send`), that event.
    public var sent: EventID?
}

/// One running copy of a machine: the active state, variables, armed timers and virtual time.
///
/// Steps are transactions: an event either applies completely (exit actions, transition
/// actions, entry actions, in that order) or, when an expression fails, not at all.
/// Outputs are delivered only for steps that succeed.
public struct Instance: Sendable {
    /// The compiled machine the instance runs.
    public let program: Program
    /// `program.chart`, borrowed: `program` keeps it alive, and reading it here retains
    /// nothing on the step path.
    package unowned(unsafe) let chart: ChartProgram?
    /// The active leaf state; in a statechart with several active leaves, the first in
    /// document order (`configuration` has them all).
    public internal(set) var state: StateID
    /// Virtual time, in seconds: the latest time the instance was advanced to.
    @inlinable public var now: Double { clock }
    /// Where `now` is kept: written by `moveClock(to:)`, which the replayer (another module)
    /// inlines, as no public property's setter can be.
    @usableFromInline package var clock: Double = 0
    /// Whether the run ended in a final state.
    public internal(set) var isFinished = false

    /// An armed `after` timer, or an event the machine sent itself (`send`), due at
    /// `deadline`: both wait in one list so that they come due in one order (deadline, then
    /// the order they were made in).
    struct PendingTimer: Sendable {
        var deadline: Double
        var sequence: Int
        /// The state that armed it, and the timer's index in `Program.timers`; both -1 for
        /// a sent event.
        var state: Int32
        var timer: Int32
        /// A sent event: its index, and where its payload starts in `sentNumbers` (-1: not
        /// a sent event).
        var event: Int32 = -1
        var payload: Int32 = 0
    }

    /// Variables, payload, locals, constants and temporaries, and the step's journal and
    /// outputs. Shared between copies of an instance until one of them steps.
    package var registers: RegisterFile
    /// The armed timers, in the order they were armed (kept storage: arming and cancelling
    /// step after step allocates nothing).
    var pending = ReusableList<PendingTimer>()
    var sequence = 0
    /// The armed timers as they were before the current step, saved when the step first
    /// changes them (so a failed step can be undone).
    var pendingBefore = ReusableList<PendingTimer>()
    var pendingSaved = false
    /// The payloads of the pending sent events, one slot per field (a string field's slot
    /// holds its index in `sentStrings`); emptied whenever no sent event is pending.
    var sentNumbers = ReusableList<Double>()
    var sentStrings = ReusableList<String>()
    /// The earliest deadline of the armed timers; NaN when none is armed or the run has
    /// ended. Kept up to date wherever `pending` or `isFinished` changes
    /// (`updateEarliestDeadline`), so whether a timer is due is one comparison, false for NaN
    /// (`hasTimerDue(by:)`); the tape loop makes it per event.
    @usableFromInline private(set) var earliestDeadline = Double.nan
    /// The fault of the last step that failed.
    package var lastFault: ExpressionFault?
    /// The first timer or delayed send armed with a deadline that does not mean its delay
    /// (`Instance.deadlineHolds`): the time it was armed at and the delay. The instance still
    /// arms it; a replay refuses the log line at which it was armed, and the search does not
    /// go on from there. Nil while every deadline held.
    package private(set) var unrepresentableDeadline: (time: Double, delay: Double)?
    /// A statechart's active states, history and internal queue; nil for a flat program,
    /// whose configuration is `state` and its ancestors.
    var chartRun: ChartRun?
    /// Where a statechart's steps record their microsteps, when someone reads them (the
    /// replayer, for coverage and traces); nil records nothing. A log belongs to one run:
    /// copies of an instance share it.
    package var microstepLog: MicrostepLog? {
        didSet {
            // The run may be shared with copies of this instance, which keep their own log.
            makeChartUnique()
            chartRun?.log = microstepLog
        }
    }

    /// How many timers may fire at one instant before the instance reports a timer loop.
    static let timerLoopLimit = 10_000

    /// Creates an instance that has not started: call `start` to enter the initial state.
    public init(_ program: Program) {
        self.program = program
        state = program.machine.root
        registers = RegisterFile(numbers: program.initialNumbers, strings: program.initialStrings)
        chart = program.chart
        chartRun = program.chart.map(ChartRun.init)
    }

    /// Gives this instance its own registers before it changes them (value semantics).
    @inline(__always)
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&registers) { registers = registers.copy() }
    }

    /// The current variable values, indexed by `VariableID`.
    public var variables: [Value] {
        program.variableTypes.enumerated().map { i, type in
            Program.value(type, number: registers.numbers[i], string: type == .string ? registers.strings[i] : "")
        }
    }

    /// The value of a variable by name.
    public func value(of name: String) -> Value? {
        program.machine.variables.firstIndex { $0.name == name }.map { variables[$0] }
    }

    /// The active states (not the root), in document order (outermost first), as
    /// `ReferenceStepper.activeStates` and `configuration` give them: for a flat machine,
    /// the active state's ancestors and the state itself; for a statechart, the
    /// configuration. Selection walks them innermost first: `activeStates.reversed()`.
    public var activeStates: [StateID] {
        if let run = chartRun { return run.configuration }
        var states = program.selfAndAncestors(state.index, upTo: 0).map(StateID.init)
        states.reverse()
        return states
    }

    /// Enters the initial state, running its entry actions. If they fail, the step is
    /// undone and the instance is finished without ever having started (`state` stays the
    /// root): it takes no events.
    public mutating func start(emit: (OutputID, [Value]) -> Void = { _, _ in }) -> Step {
        let from = state
        guard chart != nil || program.startPC >= 0 else { return Step(result: .ignored, from: from, to: from, time: now) }
        makeUnique()
        if chart != nil { makeChartUnique() }
        beginStep()
        let finishedBefore = isFinished
        do {
            if let chart { try chartStart(chart) } else { _ = try execute(program.startPC) }
        } catch {
            // The start is undone, and the run is over before it began: a machine that
            // cannot enter its initial state takes no events and fires no timers.
            chartRun?.rollBack()
            rollBack(to: from, finished: finishedBefore)
            isFinished = true
            updateEarliestDeadline()
            return Step(result: .failed(error), from: from, to: from, time: now)
        }
        deliverOutputs(emit)
        return Step(result: .started, from: from, to: state, time: now)
    }

    /// Sends an event with its payload (values in the event's field order).
    public mutating func send(_ event: EventID, payload: [Value], emit: (OutputID, [Value]) -> Void = { _, _ in }) -> Step {
        if isFinished { return Step(result: .afterFinal, from: state, to: state, time: now) }
        loadPayload(event.index, payload)
        let step = apply(reporting: event.index)
        if !registers.outputs.isEmpty { deliverOutputs(emit) }
        return step
    }

    /// Sends an event by name with its payload by field name; nil if the event is unknown
    /// or the payload does not match its declared fields.
    public mutating func send(_ name: String, _ payload: [String: Value] = [:],
                              emit: (OutputID, [Value]) -> Void = { _, _ in }) -> Step? {
        guard let (id, values) = program.resolve(name, payload) else { return nil }
        return send(id, payload: values, emit: emit)
    }

    /// Moves virtual time forward to `time`, firing every timer due at or before it in
    /// deadline order; `onStep` sees each timer's step and `emit` its outputs. Earlier times
    /// are ignored (time never goes back).
    @inline(__always)  // the usual case, no timer due, is a comparison where it is called
    public mutating func advance(to time: Double, emit: (OutputID, [Value]) -> Void = { _, _ in },
                                 onStep: (Step) -> Void = { _ in }) {
        guard hasTimerDue(by: time) else {
            moveClock(to: time)
            return
        }
        fireTimers(dueBy: time, emit: emit, onStep: onStep)
    }

    /// `advance(to:)` when no timer is due by `time` (`hasTimerDue(by:)` is false): only the
    /// clock moves. Inlinable: the replayer (another module) calls it for almost every line.
    @inlinable @inline(__always)
    package mutating func moveClock(to time: Double) {
        if time > clock { clock = time }
    }

    /// `advance(to:)` when a timer is due.
    private mutating func fireTimers(dueBy time: Double, emit: (OutputID, [Value]) -> Void, onStep: (Step) -> Void) {
        var firedAtOnce = 0
        while let step = fireNextTimer(dueBy: time, firedAtOnce: &firedAtOnce) {
            deliverOutputs(emit)
            onStep(step)
        }
        clock = max(clock, time)
    }

    /// Whether an armed timer is due at or before `time` (and the run goes on).
    @inlinable @inline(__always)
    package func hasTimerDue(by time: Double) -> Bool {
        earliestDeadline <= time
    }

    /// Recomputes `earliestDeadline` after `pending` or `isFinished` changed. The minimum
    /// skips NaN deadlines (which `<=` never finds due) unless all are NaN, so
    /// `earliestDeadline <= time` holds exactly when some deadline is `<= time`.
    mutating func updateEarliestDeadline() {
        var earliest = Double.nan
        if !isFinished {
            for k in 0..<pending.count {
                let deadline = pending[k].deadline
                if earliest.isNaN || deadline < earliest { earliest = deadline }
            }
        }
        earliestDeadline = earliest
    }

    /// The deadline of the earliest armed timer, if any.
    public var nextDeadline: Double? {
        var earliest: Double?
        for t in pending.elements where earliest.map({ t.deadline < $0 }) ?? true { earliest = t.deadline }
        return earliest
    }

    // MARK: - Steps (the replayer's fast path uses these directly)

    /// Writes an event's payload into its registers, which it first makes this instance's
    /// own: `apply(_:)` counts on that.
    @inline(__always)
    package mutating func loadPayload(_ event: Int, _ payload: [Value]) {
        makeUnique()
        let first = Int(program.payloadStart[event])
        let count = Swift.min(Int(program.payloadStart[event + 1]) - first, payload.count)
        for i in 0..<count {
            let r = Int(program.payloadRegisters[first + i].index)
            switch payload[i] {
            case .number(let n): registers.numbers[r] = n
            case .bool(let b): registers.numbers[r] = b ? 1 : 0
            case .string(let s): registers.strings[r] = s
            }
        }
    }

    /// Writes an event's payload, staged by field slot (numbers and bools as 0/1 in
    /// `numbers`, strings in `strings`), into its registers.
    @inline(__always)
    package mutating func loadPayload(_ event: Int, _ payload: StagedPayload) {
        makeUnique()
        loadUniquePayload(event, payload)
    }

    /// `loadPayload` then `apply`, in one call: the replayer's fast path, in another module,
    /// where each call into the runtime per line costs.
    @inline(__always)
    package mutating func apply(_ event: Int, loading payload: StagedPayload) -> RawStep {
        loadPayload(event, payload)
        return apply(event)
    }

    /// `loadPayload` for registers known to be this instance's own.
    @inline(__always)
    mutating func loadUniquePayload(_ event: Int, _ payload: StagedPayload) {
        let first = Int(program.payloadStart[event])
        let end = Int(program.payloadStart[event &+ 1])
        if !program.hasStringFields {
            if let fields = payload.numbers.baseAddress { loadNumberPayload(fields, count: end &- first) }
            return
        }
        var k = first
        while k < end {
            let register = program.payloadRegisters[k]
            if register.file == .number {
                registers.numbers[Int(register.index)] = payload.numbers[k - first]
            } else {
                registers.strings[Int(register.index)] = payload.strings[k - first]
            }
            k += 1
        }
    }

    /// Writes a payload of numbers only (no event of the program has a string field): field
    /// `k`'s register is `payloadBase + k` (see `Program`).
    @inline(__always)
    mutating func loadNumberPayload(_ fields: UnsafePointer<Double>, count: Int) {
        Instance.copyNumberPayload(fields, count: count, to: registers.numbers + program.payloadBase)
    }

    /// Copies `count` payload numbers to the payload registers at `registers`.
    @inline(__always)
    static func copyNumberPayload(_ fields: UnsafePointer<Double>, count: Int, to registers: UnsafeMutablePointer<Double>) {
        // One field is the usual case: a plain copy, not the set-up of a vector loop.
        if count == 1 {
            registers[0] = fields[0]
        } else {
            for k in 0..<count { registers[k] = fields[k] }
        }
    }

    /// What a step did, `Step` in integers only (no fault payload to copy on the hot path; a
    /// failure's fault is in `lastFault`): what the replayer's fast path reads.
    package struct RawStep {
        package enum Result: UInt8 { case applied, ignored, afterFinal, failed }
        package var result: Result
        package var transition: Int32
        package var from: Int32
        package var to: Int32
    }

    /// `apply(_:)`, answered as a `Step`.
    @inline(__always)
    mutating func apply(reporting event: Int) -> Step {
        let outcome = apply(event)  // first: `step` reads `lastFault`, which the step sets
        return step(outcome)
    }

    /// The public form of an outcome.
    @inline(__always)
    private func step(_ outcome: RawStep) -> Step {
        let from = StateID(Int(outcome.from)), to = StateID(Int(outcome.to))
        switch outcome.result {
        case .applied: return Step(result: .applied(TransitionID(Int(outcome.transition))), from: from, to: to, time: now)
        case .ignored: return Step(result: .ignored, from: from, to: to, time: now)
        case .afterFinal: return Step(result: .afterFinal, from: from, to: to, time: now)
        case .failed: return Step(result: .failed(lastFault ?? ExpressionFault(.internalError(instruction: -1), range: SourceRange(0, 0))),
                                  from: from, to: to, time: now)
        }
    }

    /// Applies an event whose payload is already in its registers (`loadPayload`, which
    /// also made the registers this instance's own): its whole macrostep. For a flat
    /// machine that is the event's block for the active state, where the first enabled
    /// transition of the active states, innermost first, fires. Outputs stay in
    /// `registers.outputs` until the next step.
    @inline(__always)
    package mutating func apply(_ event: Int) -> RawStep {
        if let chart { return apply(event, chart) }
        let from = Int32(truncatingIfNeeded: state.index)
        if isFinished { return RawStep(result: .afterFinal, transition: -1, from: from, to: from) }
        beginStep()
        let block = program.dispatch[state.index &* program.eventCount &+ event]  // indices of this program's tables
        do {
            let fired = try execute(block)
            if fired < 0 { return RawStep(result: .ignored, transition: -1, from: from, to: from) }
            return RawStep(result: .applied, transition: fired, from: from, to: Int32(truncatingIfNeeded: state.index))
        } catch {
            fail(error, from: from)
            return RawStep(result: .failed, transition: -1, from: from, to: from)
        }
    }

    /// Undoes the step that failed with `fault`, which started in state `from` (not final).
    @inline(never)
    mutating func fail(_ fault: ExpressionFault, from: Int32) {
        rollBack(to: StateID(Int(from)), finished: false)
        lastFault = fault
    }

    /// Fires the earliest timer due by `time`, if any; its outputs stay in
    /// `registers.outputs`. Time moves to the timer's deadline. `firedAtOnce` counts the
    /// timers fired at the current instant by this advance (start it at 0); past
    /// `timerLoopLimit` the timers are stopped.
    package mutating func fireNextTimer(dueBy time: Double, firedAtOnce: inout Int) -> Step? {
        let from = state
        switch fireNextTimerQuietly(dueBy: time, firedAtOnce: &firedAtOnce) {
        case nil: return nil
        case .applied(let t)?:
            return Step(result: .applied(TransitionID(Int(t))), from: from, to: state, time: now, timer: TransitionID(Int(t)))
        case .ignored(let t)?:
            return Step(result: .ignored, from: from, to: from, time: now, timer: TransitionID(Int(t)))
        case .failed(let fault, let t)?:
            return Step(result: .failed(fault), from: from, to: from, time: now, timer: TransitionID(Int(t)))
        case .sent(let event, let outcome)?:
            var step = step(outcome)
            step.sent = EventID(Int(event))
            return step
        case .sendLoop(let fault, let event)?:
            return Step(result: .failed(fault), from: from, to: from, time: now, sent: EventID(Int(event)))
        }
    }

    /// What firing a timer did (`fireNextTimerQuietly`), with the timer's transition: a
    /// `Step` before it is made, for a caller that reports steps (the tape loop does not).
    enum TimerFiring {
        case applied(Int32)
        case ignored(Int32)
        case failed(ExpressionFault, Int32)
        /// A sent event was taken: the event and what its step did.
        case sent(Int32, RawStep)
        /// Too many steps at one instant, stopped at a sent event.
        case sendLoop(ExpressionFault, Int32)
    }

    /// `advance(to:)` when a timer is due, for a caller that wants neither the steps nor
    /// the outputs (the tape loop): no `Step` is made, nothing is called per timer.
    mutating func fireTimersQuietly(dueBy time: Double) {
        var firedAtOnce = 0
        while case .some = fireNextTimerQuietly(dueBy: time, firedAtOnce: &firedAtOnce) {}
        clock = max(clock, time)
    }

    /// `fireNextTimer` up to the step: nil when no timer is due.
    @inline(__always)
    private mutating func fireNextTimerQuietly(dueBy time: Double, firedAtOnce: inout Int) -> TimerFiring? {
        guard !isFinished, let next = nextTimer(dueBy: time) else { return nil }
        makeUnique()
        let timer = pending.remove(at: next)
        updateEarliestDeadline()
        let instant = now
        clock = max(clock, timer.deadline)
        firedAtOnce = now == instant ? firedAtOnce + 1 : 1
        let from = state
        if firedAtOnce > Instance.timerLoopLimit {
            pending.removeAll()
            sentNumbers.removeAll()
            sentStrings.removeAll()
            updateEarliestDeadline()
            registers.outputs.removeAll()
            if timer.event >= 0 {
                return .sendLoop(ExpressionFault(.sendLoop(limit: Instance.timerLoopLimit, time: now),
                                                 range: program.sendRanges[Int(timer.timer)]), timer.event)
            }
            let t = program.timers[Int(timer.timer)].transition
            return .failed(ExpressionFault(.timerLoop(limit: Instance.timerLoopLimit, time: now), range: program.machine[t].keywordRange),
                           Int32(truncatingIfNeeded: t.index))
        }
        if timer.event >= 0 { return .sent(timer.event, applySent(timer)) }
        if let chart { return chartFireTimer(Int(timer.timer), chart) }
        beginStep()
        do {
            let fired = try execute(program.timerDispatch[Int(timer.timer) * program.stateCount + from.index])
            return fired < 0 ? .ignored(Int32(truncatingIfNeeded: program.timers[Int(timer.timer)].transition.index)) : .applied(fired)
        } catch {
            fail(error, from: Int32(truncatingIfNeeded: from.index))
            return .failed(error, Int32(truncatingIfNeeded: program.timers[Int(timer.timer)].transition.index))
        }
    }

    private func nextTimer(dueBy time: Double) -> Int? {
        var best: Int?
        for i in 0..<pending.count where pending[i].deadline <= time {
            let t = pending[i]
            if let b = best, (pending[b].deadline, pending[b].sequence) <= (t.deadline, t.sequence) { continue }
            best = i
        }
        return best
    }

    @inline(__always)
    mutating func beginStep() {
        registers.beginStep()
        pendingSaved = false
    }

    /// Undoes the current step: variables, timers, state, outputs.
    mutating func rollBack(to from: StateID, finished: Bool) {
        registers.rollBack()
        if pendingSaved {
            swap(&pending, &pendingBefore)
            pendingSaved = false
        }
        state = from
        isFinished = finished
        updateEarliestDeadline()
    }

    /// Hands the step's outputs to `emit`, in order (for a caller of `fireNextTimer`, as
    /// `advance` does after each timer's step).
    package func deliverOutputs(_ emit: (OutputID, [Value]) -> Void) {
        guard !registers.outputs.isEmpty else { return }
        for k in 0..<registers.outputs.count {
            let o = registers.outputs[k]
            emit(o.output, registers.outputArguments.copy(Int(o.start)..<Int(o.start + o.count)))
        }
    }

    // MARK: - What step code does besides registers (see `execute`)

    /// Cancels the armed timers of state `s`, which is being exited.
    @inline(never)
    mutating func cancelTimers(of s: Int32) {
        guard !pending.isEmpty else { return }
        savePendingTimers()
        pending.removeAll { $0.state == s }
        updateEarliestDeadline()
    }

    /// Arms the timers of state `s`, just entered: each delay is evaluated now.
    @inline(never)
    mutating func armTimers(of s: Int) throws(ExpressionFault) {
        var k = Int(program.timerGroups[s])
        let end = Int(program.timerGroups[s + 1])
        while k < end {
            let timer = program.timers[k]
            if timer.delayPC >= 0 { _ = try execute(timer.delayPC) }
            let delay = registers.numbers[Int(timer.delayRegister)]
            sequence += 1
            savePendingTimers()
            if delay > 0 && !Instance.deadlineHolds(at: now, after: delay) { noteUnrepresentable(delay) }
            pending.append(PendingTimer(deadline: now + max(0, delay), sequence: sequence, state: Int32(s), timer: Int32(k)))
            updateEarliestDeadline()
            k += 1
        }
    }

    /// Whether a timer armed at `now` with `delay` (> 0) seconds gets a deadline that means
    /// its delay. The deadline is `now + delay` rounded to a double, and near the largest
    /// double that is coarse: at 1.8e308, `now + 10` is `now` again, and the timer would fire
    /// at once. So it holds when the sum is finite and rounding moved it by at most a
    /// millisecond, or by at most a thousandth of the delay. The first clause keeps every
    /// delay below a millisecond (the language can write delays down to the smallest double,
    /// `after 1e-300s`, which no time but 0 can add exactly) and every delay at a time below
    /// 2^43 s (about 278,000 years, where a double's spacing is under 2 ms); the second keeps
    /// every delay at least as long as the time it is armed at (unless the sum passes the
    /// largest double). Only a short delay at an absurdly large time fails: a replay refuses
    /// the log line that armed it (the event-log reference says so).
    @inline(__always)
    package static func deadlineHolds(at now: Double, after delay: Double) -> Bool {
        let sum = now + delay
        // Below 2^32 the sum rounds by at most 2^-21 s: the common case needs no more.
        if Swift.abs(sum) < 4_294_967_296 { return true }
        guard sum.isFinite else { return false }
        // Knuth's two-sum: the exact error of the rounded sum, in doubles.
        let delayPart = sum - now
        let nowPart = sum - delayPart
        let error = Swift.abs((now - nowPart) + (delay - delayPart))
        return error <= 0.001 || error <= delay / 1000
    }

    /// Records the first deadline that does not hold (see `unrepresentableDeadline`).
    @inline(never)
    mutating func noteUnrepresentable(_ delay: Double) {
        if unrepresentableDeadline == nil { unrepresentableDeadline = (now, delay) }
    }

    /// A transition fired: `target` (unless -1) becomes the active state, and the run ends
    /// when `endingRun` (a final state directly under the machine).
    @inline(__always)
    mutating func enter(_ target: Int32, endingRun: Bool) {
        if target >= 0 { state = StateID(Int(target)) }
        if endingRun { endRun() }
    }

    @inline(never)
    mutating func endRun() {
        isFinished = true
        savePendingTimers()
        pending.removeAll()
        updateEarliestDeadline()
    }

    /// Saves the armed timers before the step first changes them.
    mutating func savePendingTimers() {
        guard !pendingSaved else { return }
        pendingBefore.replace(with: pending)
        pendingSaved = true
    }
}
