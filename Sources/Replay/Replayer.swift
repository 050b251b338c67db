import StatecraftDiagnostics
@_spi(RawLines) import StatecraftEventLog
import StatecraftModel
@_spi(ReplayHotPath) import StatecraftRuntime

/// Replays log records against a machine: one `Instance` per case, payloads checked against
/// the events' declared fields, timers fired by the log's time, expectations compared.
///
/// Feed it records in order with `consume`; a record that breaks the log's contract throws
/// a `LogError` naming its line and column, and everything before it stays in `report`.
public struct Replayer {
    /// How many outputs, failures and rejections each case keeps for its report (the counts
    /// are always exact); memory stays flat however long the log.
    public static let keptOutputs = 100
    /// How many failed expectations and how many rejections each case keeps for its report.
    public static let keptFailures = 100
    /// How many outputs an `outputs` expectation can compare since the previous expectation.
    public static let outputWindow = 100_000

    /// Options of a replay.
    public struct Options: Sendable {
        /// Treat ignored events as rejected.
        public var strict = false
        /// Build `TraceStep`s (costs time; off for plain replays).
        public var trace = false
        /// After the last line, let virtual time pass from timer to timer until each case
        /// comes to rest (`Replayer.settle(afterLine:)`).
        public var settle = false
        /// Collect what a summary of many logs needs: the events not taken, grouped by the
        /// states they arrived in (`Deviation.configuration`), event and kind
        /// (`ReplayReport.deviations`), and the visits of each
        /// state and how long they lasted (`ReplayReport.dwell`).
        public var summary = false
        /// Say why each ignored or rejected event was not taken and where the subject of each
        /// failed expectation last changed (`CaseReport.explanations`; costs time per step).
        public var explain = false
        /// Count an event the spec does not declare (`CaseReport.unknownEvents`) and go on, as
        /// an SCXML engine ignores it, instead of refusing the line. Its time still moves the
        /// case's clock.
        public var ignoresUnknownEvents = false

        /// Creates options.
        public init(strict: Bool = false, trace: Bool = false, settle: Bool = false, explain: Bool = false) {
            self.strict = strict
            self.trace = trace
            self.settle = settle
            self.explain = explain
        }
    }

    /// Fired transitions and visited states, counted in place: a class over raw storage, so
    /// counting a step costs no uniqueness check.
    final class Coverage {
        let transitionCounts: UnsafeMutableBufferPointer<Int>
        let visitedStates: UnsafeMutableBufferPointer<Bool>

        init(transitions: Int, states: Int) {
            transitionCounts = .allocate(capacity: transitions)
            transitionCounts.initialize(repeating: 0)
            visitedStates = .allocate(capacity: states)
            visitedStates.initialize(repeating: false)
        }

        deinit {
            transitionCounts.deallocate()
            visitedStates.deallocate()
        }
    }

    /// One case's run. A class, so a step mutates it in place: copying a struct out of the
    /// array and back would copy its growing output window on every event.
    final class Run {
        // Only the replayer touches a run, one access at a time: no run-time exclusivity checks.
        @exclusivity(unchecked) var instance: Instance
        @exclusivity(unchecked) var report: CaseReport
        /// Outputs since the previous expectation line of this case.
        @exclusivity(unchecked) var window: [OutputID]
        /// The arguments of the outputs in `window`, one after another (each output's count
        /// is its declaration's), for expectations that compare them.
        @exclusivity(unchecked) var windowArguments: [Value] = []
        @exclusivity(unchecked) var windowOverflowed = false
        /// The number variables as the last traced step (or the start) left them: what a
        /// trace line's `changed` compares with. Only kept when tracing.
        @exclusivity(unchecked) var numbersBefore: [Double] = []
        /// The last step that changed each variable and state; only kept when explaining.
        @exclusivity(unchecked) var history: ChangeHistory?

        /// With `Options.summary`: when each active state was entered (by state index).
        @exclusivity(unchecked) var enteredAt: [Double] = []
        /// The spec's properties watched on this run; nil when the spec has none a run can
        /// break, so a spec without properties pays one nil test per step.
        @exclusivity(unchecked) var monitor: PropertyMonitor?
        /// What `monitor` found at the last step: reused, so watching allocates nothing per
        /// event (it only grows when a property is violated, once per property).
        @exclusivity(unchecked) var violations: [PropertyViolation] = []
        /// What each property read when `monitor` last judged it (empty without properties).
        let inputs: PropertyInputCache

        init(instance: Instance, report: CaseReport, window: [OutputID]) {
            inputs = PropertyInputCache(instance.program)
            self.instance = instance
            self.report = report
            self.window = window
        }
    }

    let program: Program
    let options: Options
    /// Whether the spec has properties a run can break: every case then keeps a monitor.
    let watchesProperties: Bool
    var runs: [Run] = []
    /// `runs` again, unretained, for the hot paths to borrow a run without retaining it.
    var runHandles: [Unmanaged<Run>] = []
    /// The keys of the cases opened so far, looked up by their bytes (no `String` per line);
    /// key `i` is the case of run `caseRuns[i]`.
    var caseKeys = ByteNameTable([])
    var caseRuns: [Int] = []
    /// The run of the lines without a case.
    var defaultRun: Int?
    var records = 0
    /// Coverage over all cases: fired transitions and visited states.
    let coverage: Coverage
    /// With `Options.deviations`: the groups of events not taken, and each group's index by
    /// its active states, event and kind.
    var deviations: [Deviation] = []
    var deviationIndex: [DeviationKey: Int] = [:]
    /// With `Options.summary`: by state index, its visits and their durations; and, for a
    /// flat machine, the states a transition leaves and enters from each leaf it fires in.
    var dwell: [StateDwell] = []
    /// By `transition * states + leaf`: where in `flatStepStates` that step's exited states
    /// start, then its entered ones, and where they end (`start == -1`: not worked out yet).
    /// Flat storage, so that a step reads it without retaining an array.
    var flatSteps: [FlatStep] = []
    var flatStepStates: [Int32] = []

    struct FlatStep {
        var start: Int32 = -1
        var entered: Int32 = 0
        var end: Int32 = 0
    }

    struct DeviationKey: Hashable {
        /// A flat machine's active leaf (its configuration follows from it), or -1 for a
        /// statechart, whose group is `states`: the active states with a transition on the
        /// event (empty for a flat machine: no array per event not taken). Not the whole
        /// configuration: in a chart of many regions it almost never repeats, and a group per
        /// event made the summary cost seconds and print one group per line of the log.
        var leaf: Int
        var states: [StateID]
        var event: Int
        var kind: Deviation.Kind
    }
    /// Names and types the in-place path looks up, and its staging buffers.
    let lookup: RawLookup
    /// The traced steps not yet handed to the trace sink (only filled when tracing).
    var traceBatch: TraceBatch
    /// How many steps `traceBatch` collects before the sink gets them: 1 for the entry
    /// points that report each step as it happens, more for `replay(_:concurrently:traceBatches:)`.
    var traceFlushLimit = 1

    /// Creates a replayer for a compiled machine.
    public init(program: Program, options: Options = Options()) {
        self.program = program
        self.options = options
        watchesProperties = PropertyMonitor.watches(program)
        coverage = Coverage(transitions: program.machine.transitions.count, states: program.machine.states.count)
        lookup = RawLookup(program)
        traceBatch = TraceBatch(program: program)
    }

    /// Where traced steps go: a function that takes a batch of them (see `TraceBatch`). It may
    /// keep the batch's contents by swapping it with an empty batch of the same program;
    /// whatever it leaves in the batch is removed after it returns (a batch of another
    /// program is replaced).
    public typealias TraceSink = (inout TraceBatch) -> Void

    /// Hands each step of `batch` to `trace` in its public form: the sink of the entry
    /// points that take a function of one step.
    static func deliver(_ batch: TraceBatch, to trace: (consuming TraceStep) -> Void) {
        for k in 0..<batch.count { trace(batch.step(k)) }
    }

    /// Hands the steps recorded so far to `sink` and empties the batch.
    mutating func flushTrace(_ sink: TraceSink) {
        guard !traceBatch.isEmpty else { return }
        sink(&traceBatch)
        if traceBatch.program === program {
            traceBatch.removeAll()
        } else {
            traceBatch = TraceBatch(program: program)
        }
    }

    /// Hands the batch over when it holds `traceFlushLimit` steps.
    @inline(__always)
    mutating func tracedStep(_ sink: TraceSink) {
        if traceBatch.count >= traceFlushLimit { flushTrace(sink) }
    }

    /// What the replay found so far: every case of the lines consumed, and the counts.
    public var report: ReplayReport {
        ReplayReport(cases: runs.map { run in
            var report = run.report
            let machine = program.machine
            // A case whose machine could not start has no active state.
            let configuration = run.instance.configuration
            report.state = configuration.atomicStates(in: machine).map { machine[$0].name }.joined(separator: ", ")
            report.configuration = configuration.names(in: machine)
            report.finished = run.instance.isFinished
            report.variables = zip(machine.variables, run.instance.variables).map { NamedValue(name: $0.name, value: $1) }
            report.time = run.instance.now
            return report
        }, error: nil, records: records, transitionCounts: Array(coverage.transitionCounts),
           visitedStates: Array(coverage.visitedStates), deviations: deviations, dwell: dwell)
    }

    /// Applies one record. `trace` is called for every step when tracing is on.
    public mutating func consume(_ record: LogRecord, trace: (consuming TraceStep) -> Void = { _ in }) throws(LogError) {
        traceFlushLimit = 1
        try consume(record, sink: { Replayer.deliver($0, to: trace) })
    }

    /// Applies one record; traced steps go to `sink` when `traceBatch` is full.
    mutating func consume(_ record: LogRecord, sink: TraceSink) throws(LogError) {
        records += 1
        // Check the line against the machine, and its time, before it can open a case.
        var resolved: (EventID, [Value])?
        var unknown: String?
        switch record.body {
        case .event(let name, _, _) where options.ignoresUnknownEvents && program.event(loggedAs: name) == nil:
            unknown = name
        case .event(let name, let nameOffset, let payload):
            resolved = try resolve(event: name, at: nameOffset, payload: payload, record: record)
        case .expect(let expectation):
            try validate(expectation, record: record)
        }
        let existing = existingRun(for: record.caseKey)
        let time = try checkedTime(record.time, offset: record.timeOffset, caseKey: record.caseKey, run: existing, record)
        let index = existing ?? openRun(for: record.caseKey, source: record)
        advance(index, to: time, record, sink: sink)
        switch record.body {
        case .event(_, let nameOffset, _):
            if let (event, values) = resolved {
                runs[index].instance.loadPayload(event.index, values)
                apply(event, runIndex: index, nameOffset: nameOffset, record, sink: sink)
            } else if let unknown {
                runs[index].report.unknownEvents[unknown, default: 0] += 1
            }
        case .expect(let expectation):
            check(expectation, runIndex: index, record: record)
        }
        let nameOffset: Int? = if case .event(_, let offset, _) = record.body { offset } else { nil }
        try checkDeadlines(index, timeOffset: record.timeOffset, nameOffset: nameOffset, record)
    }

    /// Refuses the line if a step on the way to it (a timer's) or its own armed a timer or a
    /// delayed send whose deadline does not mean its delay (`Instance.deadlineHolds`): at a
    /// time that large it would fire at once, or never. The error points at the line's time,
    /// or at its event when it has none; the run keeps what the line did (`LogError.applied`).
    @inline(__always)
    func checkDeadlines<L: ReplayLine>(_ index: Int, timeOffset: Int?, nameOffset: Int?, _ source: L) throws(LogError) {
        guard let refused = runHandles[index]._withUnsafeGuaranteedRef({ $0.instance.unrepresentableDeadline }) else { return }
        throw deadlineError(refused, source, at: timeOffset ?? nameOffset ?? 0)
    }

    @inline(never)
    func deadlineError<L: ReplayLine>(_ refused: (time: Double, delay: Double), _ source: L, at offset: Int) -> LogError {
        let (time, delay) = (Value.number(refused.time), Value.number(refused.delay))
        let sum = refused.time + refused.delay
        let why = sum.isFinite ? "\(time) + \(delay) rounds to \(Value.number(sum))"
            : "\(time) + \(delay) is beyond the largest number"
        var refusal = error(source, at: offset, "time \(time) is too large for a timer armed at it to be due \(delay) s later: \(why)")
        refusal.applied = true
        return refusal
    }

    // MARK: - Cases and time

    /// The run a case already has, if any.
    func existingRun(for caseKey: String?) -> Int? {
        guard var key = caseKey else { return defaultRun }
        return key.withUTF8 { existingRun(forKey: $0) }
    }

    /// The run of the case whose key has these bytes, if it has one.
    func existingRun(forKey key: UnsafeBufferPointer<UInt8>) -> Int? {
        caseKeys.index(of: key).map { caseRuns[$0] }
    }

    /// Starts the run of a case seen for the first time, at its first line `source`. The
    /// start is a step like any other: if the initial state's entry fails, that is a
    /// rejection at the case's first line, and the case's run ends there (its later events
    /// are counted as arriving after the run ended).
    mutating func openRun<L: ReplayLine>(for caseKey: String?, source: L) -> Int {
        var instance = Instance(program)
        // A statechart's steps say what they did microstep by microstep: coverage counts
        // every transition they took, and traces show them.
        if program.chart != nil { instance.microstepLog = MicrostepLog() }
        var report = CaseReport(key: caseKey, firstLine: source.lineNumber, state: "", finished: false,
                                variables: [], outputs: [], outputCount: 0)
        var window: [OutputID] = []
        var windowArguments: [Value] = []
        let start = instance.start { output, args in
            report.outputCount += 1
            report.outputs.append(EmittedOutput(name: program.machine[output].name, arguments: args))
            window.append(output)
            windowArguments += args
        }
        if case .failed(let fault) = start.result {
            let initial = program.machine.initialState.map { program.machine[$0].name } ?? ""
            let message = "the machine could not start: entering '\(initial)' failed: \(fault.message)"
            report.rejected += 1
            report.startFailure = message
            report.rejections.append(Rejection(line: source.lineNumber, column: 1, message: message,
                                               specRange: fault.range, text: source.lineText()))
        }
        for s in instance.activeStates { coverage.visitedStates[s.index] = true }
        if case .started = start.result, let log = instance.microstepLog { cover(log) }
        let run = Run(instance: instance, report: report, window: window)
        run.windowArguments = windowArguments
        if options.summary { startVisits(run) }
        if watchesProperties {
            run.monitor = PropertyMonitor(program)
            // A machine that could not start has no stable configuration to judge.
            if case .started = start.result { observe(run, took: -1, fired: -1, line: source.lineNumber) }
        }
        if options.trace {
            run.numbersBefore = Array(UnsafeBufferPointer(start: instance.registers.numbers, count: program.variableTypes.count))
        }
        if options.explain {
            run.history = ChangeHistory(instance)
            run.report.explanations = []
        }
        runs.append(run)
        runHandles.append(Unmanaged.passUnretained(run))
        let index = runs.count - 1
        if var key = caseKey {
            key.withUTF8 { _ = caseKeys.insert($0) }
            caseRuns.append(index)
        } else {
            defaultRun = index
        }
        return index
    }

    /// The line's time, checked against the latest time of its case (0 for a new case).
    func checkedTime<L: ReplayLine>(_ time: Double?, offset: Int?, caseKey: @autoclosure () -> String?, run: Int?,
                                    _ source: L) throws(LogError) -> Double {
        let now = run.map { runs[$0].instance.now } ?? 0
        guard let time else { return now }
        if time < now {
            throw error(source, at: offset ?? 0,
                        "time goes backwards: \(Value.number(time)) is before \(Value.number(now)), the latest time of \(caseName(caseKey()))")
        }
        return time
    }

    private func caseName(_ key: String?) -> String {
        key.map { "case '\($0)'" } ?? "the lines without a case"
    }

    mutating func advance<L: ReplayLine>(_ index: Int, to time: Double, _ source: L, sink: TraceSink) {
        // Borrowed, not loaded from `runs`: that would retain and release the run on every
        // line. `runs` keeps every run alive for as long as the replayer lives.
        runHandles[index]._withUnsafeGuaranteedRef { run in
            if run.instance.hasTimerDue(by: time) {
                fireTimers(run, to: time, source, sink: sink)
            } else {
                // Timers first: one of them may answer a response whose deadline the line passes.
                if watchesProperties { clockMoves(run, to: time, line: source.lineNumber) }
                run.instance.moveClock(to: time)
            }
        }
    }

    /// Fires the timers of `run` that are due by `time`, then moves its clock there.
    mutating func fireTimers<L: ReplayLine>(_ run: Run, to time: Double, _ source: L, sink: TraceSink) {
        var firedAtOnce = 0
        let tracesChart = options.trace && program.chart != nil
        var before = tracesChart ? run.instance.configuration.states : []
        while true {
            // A statechart's step may write the sent event's payload registers again: the
            // trace takes the payload from the event still pending, before the step.
            let nextSent = tracesChart ? run.instance.pendingSent.first : nil
            guard let step = run.instance.fireNextTimer(dueBy: time, firedAtOnce: &firedAtOnce) else { break }
            collectOutputs(run)
            if watchesProperties {
                // A deadline passed before the timer fired is certain at the timer's time; the
                // configuration it left is judged after it (a failed step left none: undone).
                clockMoves(run, to: step.time, line: source.lineNumber)
            }
            var failed = false
            if case .failed = step.result { failed = true }
            if watchesProperties, !failed {
                var took: Int32 = -1, fired: Int32 = -1
                if case .applied(let t) = step.result {
                    fired = Int32(truncatingIfNeeded: t.index)
                    if let sent = step.sent { took = Int32(truncatingIfNeeded: sent.index) }
                }
                observe(run, took: took, fired: fired, line: source.lineNumber)
            }
            var result = StepVerdict.applied
            var message: String?
            // The timer is named in the trace whatever its step did (`after 2s`, used up or failed).
            let timer = step.sent != nil ? TraceBatch.sentMarker : step.timer.map { Int32(truncatingIfNeeded: $0.index) } ?? -1
            switch step.result {
            case .applied(let t):
                if step.sent != nil { run.report.sentTaken += 1 } else { run.report.timersFired += 1 }
                noteFired(run, transition: t.index, from: step.from.index, to: step.to.index, line: source.lineNumber,
                          time: step.time, trigger: step.sent.map { .event($0) } ?? .timer(t))
            case .failed(let fault):
                run.report.rejected += 1
                let text = step.sent.map { "step of sent event '\(program.machine[$0].name)' failed: \(fault.message)" }
                    ?? "timer step failed: \(fault.message)"
                result = .rejected
                message = text
                if run.report.rejections.count < Replayer.keptFailures {
                    run.report.rejections.append(Rejection(line: source.lineNumber, column: 1, message: text,
                                                           specRange: fault.range, text: source.lineText()))
                }
            default:
                result = .ignored
            }
            if options.trace {
                var fired: Int32 = -1
                if case .applied(let t) = step.result { fired = Int32(truncatingIfNeeded: t.index) }
                trace(run, line: source.lineNumber, time: step.time,
                      event: step.sent.map { Int32(truncatingIfNeeded: $0.index) } ?? -1, timer: timer,
                      from: Int32(step.from.index), to: Int32(step.to.index), result: result, message: message,
                      transition: fired, payloadOf: step.sent?.index,
                      payload: step.sent != nil && nextSent?.event == step.sent ? nextSent?.payload : nil, before: before, sink: sink)
                if tracesChart { before = run.instance.configuration.states }
            }
        }
        if watchesProperties { clockMoves(run, to: time, line: source.lineNumber) }
        run.instance.advance(to: time)
    }

    // The methods called on every line are `mutating`, even where they only read: a
    // non-mutating method that is not inlined, called from a mutating one, is handed a
    // copy of the whole replayer (256 bytes, and a retain of each reference in it).

    /// The case's clock moves to `time` (line `line`): responses whose deadline it passes fail.
    @inline(__always)
    mutating func clockMoves(_ run: Run, to time: Double, line: Int) {
        // (In place: copying the monitor out of the run, even to test it for nil, retains
        // and releases its arrays on every line.)
        run.monitor?.clockMoves(to: time, program, violations: &run.violations)
        if !run.violations.isEmpty { recordViolations(run, line: line) }
    }

    /// Judges the run's stable configuration, left by line `line`'s step (or its timers),
    /// which took `event` and fired transition `fired` (-1: none, or the start).
    mutating func observe(_ run: Run, took event: Int32, fired: Int32, line: Int) {
        // A response this step triggers remembers the line, for `--explain`.
        run.monitor?.tag = line
        // The time is read first: read while the instance is passed inout, it is read from a copy.
        let now = run.instance.now
        run.monitor?.observe(&run.instance, program, at: now, took: event, fired: fired, cache: run.inputs,
                             violations: &run.violations)
        if !run.violations.isEmpty { recordViolations(run, line: line) }
    }

    /// Moves what the monitor found into the case's report, and empties the buffer for reuse.
    private mutating func recordViolations(_ run: Run, line: Int) {
        let machine = program.machine
        for v in run.violations {
            let property = machine.properties[v.property]
            let record = PropertyViolationRecord(
                property: property.name, index: v.property, specRange: property.range,
                specLine: machine.source.location(of: property.range.start).line, line: line, time: v.time,
                message: v.describe(property, in: run.instance.configuration, of: machine))
            run.report.propertyViolations.append(record)
            if options.explain { explain(v, record, in: run) }
        }
        run.violations.removeAll(keepingCapacity: true)
    }

    /// Counts the outputs of the step just taken, appends them to the case's window and
    /// keeps the first ones for the report.
    @inline(__always)
    private mutating func collectOutputs(_ run: Run) {
        if run.instance.registers.hasOutputs { collectPendingOutputs(run) }
    }

    private mutating func collectPendingOutputs(_ run: Run) {
        let (outputs, arguments) = run.instance.registers.stepOutputs
        for k in 0..<outputs.count {
            let o = outputs[k]
            run.window.append(o.output)
            if o.count > 0 { run.windowArguments.append(contentsOf: arguments.elements[Int(o.start)..<Int(o.start + o.count)]) }
            run.report.outputCount += 1
            // Names and arguments are built only where someone will read them.
            if run.report.outputs.count < Replayer.keptOutputs {
                run.report.outputs.append(EmittedOutput(name: program.outputNames[o.output.index],
                                                        arguments: arguments.copy(Int(o.start)..<Int(o.start + o.count))))
            }
        }
        trimWindow(run)
    }

    /// Records the outputs of the step just taken, which fired, in the trace.
    @inline(__always)
    private mutating func recordOutputs(of run: Run) {
        let (outputs, arguments) = run.instance.registers.stepOutputs
        for k in 0..<outputs.count {
            let o = outputs[k]
            traceBatch.addOutput(o.output, arguments: arguments.elements[Int(o.start)..<Int(o.start + o.count)])
        }
    }

    // MARK: - Events

    private func resolve(event name: String, at offset: Int, payload: [JSONMember],
                         record: LogRecord) throws(LogError) -> (EventID, [Value]) {
        let machine = program.machine
        guard let id = program.event(loggedAs: name) else {
            var message = "unknown event '\(name)'"
            if let close = EditDistance.closest(to: name, among: machine.logNames.map(\.name)) { message += "; did you mean '\(close)'?" }
            throw error(record, at: offset, message)
        }
        let event = machine[id]
        // Messages name the event as the spec declares it, and the log's name beside it when
        // the log calls it otherwise (`event 'DIGIT' (logged as 'DIGIT.5')`).
        let called = name == event.name ? "event '\(name)'" : "event '\(event.name)' (logged as '\(name)')"
        var values = Array(repeating: Value.number(0), count: event.fields.count)
        var seen = Array(repeating: false, count: event.fields.count)
        for member in payload {
            guard let slot = event.fieldIndex(member.key) else {
                let declared = event.fields.isEmpty ? "it has no payload"
                    : "its fields are " + event.fields.map { "'\($0.name)'" }.joined(separator: ", ")
                throw error(record, at: member.keyOffset, "\(called) has no field '\(member.key)'; \(declared)")
            }
            let field = event.fields[slot]
            guard let value = Replayer.value(member.value, as: field.type) else {
                throw error(record, at: member.valueOffset,
                            "field '\(field.name)' of \(called) must be \(article(field.type)), found \(describe(member.value))")
            }
            values[slot] = value
            seen[slot] = true
        }
        if let missing = seen.firstIndex(of: false) {
            throw error(record, at: offset, "\(called) is missing its field '\(event.fields[missing].name)'")
        }
        return (id, values)
    }

    /// Sends the event, whose payload is already in the run's registers or else is `payload`
    /// (loaded first), and records what happened.
    mutating func apply<L: ReplayLine>(_ event: EventID, runIndex: Int, loading payload: StagedPayload? = nil,
                                       nameOffset: Int, _ source: L, sink: TraceSink) {
        runHandles[runIndex]._withUnsafeGuaranteedRef { run in
            apply(event, to: run, loading: payload, nameOffset: nameOffset, source, sink: sink)
        }
    }

    private mutating func apply<L: ReplayLine>(_ event: EventID, to run: Run, loading payload: StagedPayload?,
                                               nameOffset: Int, _ source: L, sink: TraceSink) {
        let before = options.trace && program.chart != nil ? run.instance.configuration.states : nil
        let step: Instance.RawStep
        var payloadBefore: [Value]?
        if before != nil {
            // A statechart's step may write the event's payload registers again (a raised
            // event's payload, a completion's values): the trace reads them before the step.
            if let payload { run.instance.loadPayload(event.index, payload) }
            payloadBefore = payloadValues(of: event.index, in: run)
            step = run.instance.apply(event.index)
        } else {
            step = if let payload { run.instance.apply(event.index, loading: payload) } else { run.instance.apply(event.index) }
        }
        var result = StepVerdict.applied
        var message: String?
        switch step.result {
        case .applied:
            run.report.applied += 1
            collectOutputs(run)
            noteFired(run, transition: Int(step.transition), from: Int(step.from), to: Int(step.to),
                      line: source.lineNumber, time: run.instance.now, trigger: .event(event))
        case .ignored, .afterFinal:
            // Which guards were false, and on what values: worked out only when a message
            // needs it (strict or traced), never for a plain replay.
            // A flat machine is in one state (and its ancestors), which the message names
            // once; a statechart's message names the state of each guard (`WhyNotTaken`).
            let isChart = program.chart != nil
            let guards = step.result == .ignored && (options.strict || options.trace) ? WhyNotTaken.sentence(for: event, in: run.instance) : nil
            if options.strict {
                let state = program.stateNames[Int(step.from)]
                let leaves = run.instance.configuration.atomicStates(in: program.machine)
                    .map { program.machine[$0].name }.joined(separator: ", ")
                let none = isChart
                    ? "no transition of the active states (\(leaves)) takes it"
                    : "no transition of state '\(state)' takes it"
                let why = step.result == .afterFinal ? "the run already ended in final state '\(state)'"
                    : guards.map { isChart ? $0 : "in state '\(state)', \($0)" } ?? none
                let text = "event '\(program.eventNames[event.index])' was ignored: \(why) (--strict)"
                reject(run, source, at: nameOffset, message: text, specRange: nil)
                result = .rejected
                message = text
            } else {
                run.report.ignored += 1
                result = step.result == .afterFinal ? .afterFinal : .ignored
                message = guards
            }
            if options.explain {
                explain(event, in: run, afterFinal: step.result == .afterFinal, rejected: options.strict,
                        nameOffset: nameOffset, source)
            }
        case .failed:
            let fault = run.instance.lastFault ?? ExpressionFault(.internalError(instruction: -1), range: SourceRange(0, 0))
            let text = "event '\(program.eventNames[event.index])' was rejected: \(fault.message)"
            reject(run, source, at: nameOffset, message: text, specRange: fault.range)
            result = .rejected
            message = text
            if options.explain { explain(event, in: run, afterFinal: false, rejected: true, nameOffset: nameOffset, source) }
        }
        // An ignored event changes nothing, so its configuration was judged already.
        if watchesProperties && result == .applied {
            observe(run, took: Int32(truncatingIfNeeded: event.index), fired: step.transition, line: source.lineNumber)
        }
        if options.summary && result != .applied {
            noteDeviation(event, result == .rejected ? .rejected : .ignored, in: run, line: source.lineNumber)
        }
        if options.trace {
            trace(run, line: source.lineNumber, time: run.instance.now, event: Int32(event.index), timer: -1,
                  from: step.from, to: step.to, result: result, message: message,
                  transition: step.result == .applied ? step.transition : -1, payloadOf: event.index,
                  payload: payloadBefore, before: before ?? [], sink: sink)
        }
    }

    /// What every step that fired adds up to, whatever triggered it (a log line, a timer, an
    /// event the machine sent itself): coverage, the states' visits (`--summary`) and what
    /// it changed (`--explain`). One place, so the event path and the timer path never
    /// count differently.
    @inline(__always)
    private mutating func noteFired(_ run: Run, transition: Int, from: Int, to: Int, line: Int, time: Double,
                                    trigger: ChangeHistory.Trigger) {
        if let log = run.instance.microstepLog {
            cover(log)
            if options.summary { noteVisits(run, log) }
        } else {
            cover(TransitionID(transition), reaching: StateID(to))
            if options.summary { noteVisits(run, transition, from: from) }
        }
        if options.explain { noteChanges(of: run, line: line, time: time, trigger: trigger) }
    }

    /// Records a step in the trace, whatever triggered it: its line, trigger and result, a
    /// statechart's microsteps and configurations (`before` the step and now), the payload
    /// of the event it took (`payloadOf`, none for a timer), its outputs (only a step that
    /// fired has any: an event after the final state leaves the last step's in the
    /// registers) and the variables it changed. `payload`, where given, is that payload as it
    /// was before the step (a statechart's step may write its registers again).
    private mutating func trace(_ run: Run, line: Int, time: Double, event: Int32, timer: Int32, from: Int32, to: Int32,
                                result: StepVerdict, message: String?, transition: Int32, payloadOf: Int?,
                                payload: [Value]? = nil, before: [StateID], sink: TraceSink) {
        traceBatch.beginStep(line: line, time: time, event: event, timer: timer, from: from, to: to, result: result,
                             caseKey: run.report.key, message: message, transition: transition)
        if program.chart != nil {
            traceBatch.addMicrosteps(result == .applied ? run.instance.microstepLog : nil, before: before,
                                     after: run.instance.configuration.states)
        }
        if let payload {
            for value in payload {
                switch value {
                case .string(let text): traceBatch.addPayload(text)
                case .number(let n): traceBatch.addPayload(n)
                case .bool(let b): traceBatch.addPayload(b ? 1 : 0)  // as the registers hold it
                }
            }
        } else if let payloadOf {
            recordPayload(of: payloadOf, in: run)
        }
        if result == .applied { recordOutputs(of: run) }
        recordChanges(of: run)
        tracedStep(sink)
    }

    /// The payload of `event` in the run's registers, as `recordPayload` records it (a Bool as
    /// its number).
    private func payloadValues(of event: Int, in run: Run) -> [Value] {
        let registers = run.instance.registers
        return (Int(program.payloadStart[event])..<Int(program.payloadStart[event + 1])).map { k in
            let register = program.payloadRegisters[k]
            return register.file == .string ? .string(registers.string(at: Int(register.index)))
                : .number(registers.numbers[Int(register.index)])
        }
    }

    /// Records the payload of the event just applied, from its registers.
    @inline(__always)
    private mutating func recordPayload(of event: Int, in run: Run) {
        let registers = run.instance.registers
        var k = Int(program.payloadStart[event])
        let end = Int(program.payloadStart[event + 1])
        while k < end {
            let register = program.payloadRegisters[k]
            if register.file == .string {
                traceBatch.addPayload(registers.string(at: Int(register.index)))
            } else {
                traceBatch.addPayload(registers.numbers[Int(register.index)])
            }
            k += 1
        }
    }

    /// Counts a fired transition and marks the state it led to, with its ancestors, visited.
    @inline(__always)
    private func cover(_ transition: TransitionID, reaching state: StateID) {
        coverage.transitionCounts[transition.index] += 1
        markVisited(state.index)
    }

    /// Marks state `s` and its ancestors visited.
    @inline(__always)
    private func markVisited(_ state: Int) {
        // A visited state's ancestors are visited too: stop at the first one already marked.
        // (`MicrostepLog.cover` does the same for a statechart's step.)
        for s in ParentChain(parents: program.parents, from: state, upTo: 0) {
            if coverage.visitedStates[s] { break }
            coverage.visitedStates[s] = true
        }
    }

    /// Counts every transition a statechart's step took and marks every state it entered,
    /// with its ancestors, visited (as `markVisited` does).
    ///
    /// One call into the runtime per step, which loops over the log itself: `MicrostepLog`
    /// is in another module, where closures handed to its `forEach` methods stay real
    /// closures, called once per id.
    private func cover(_ log: MicrostepLog) {
        log.cover(transitionCounts: coverage.transitionCounts, visited: coverage.visitedStates,
                  parents: program.parents)
    }

    /// Starts the visits of a new case's active states (a statechart's start may also have
    /// left states again: its log says which).
    private mutating func startVisits(_ run: Run) {
        if dwell.isEmpty { dwell = Array(repeating: StateDwell(), count: program.machine.states.count) }
        run.enteredAt = Array(repeating: run.instance.now, count: program.machine.states.count)
        if let log = run.instance.microstepLog, log.count > 0 {
            noteVisits(run, log)
        } else {
            for s in run.instance.activeStates { dwell[s.index].visits += 1 }
        }
    }

    /// Ends the visits of the states a statechart's step left and starts those of the states
    /// it entered, microstep by microstep, at the step's time.
    private mutating func noteVisits(_ run: Run, _ log: MicrostepLog) {
        let now = run.instance.now
        log.forEachMicrostep { exited, entered in
            for s in exited { dwell[s].durations.add(now - run.enteredAt[s]) }
            for s in entered {
                dwell[s].visits += 1
                run.enteredAt[s] = now
            }
        }
    }

    /// The same for a flat machine's transition `t` fired in leaf `leaf`: the states it leaves
    /// and enters, worked out once per transition and leaf with the model's exit and entry
    /// sets (SCXML's, as the step compiler uses them).
    private mutating func noteVisits(_ run: Run, _ t: Int, from leaf: Int) {
        // (`dwell` has a slot per state; the machine is only read the first time.)
        let key = t * dwell.count + leaf
        if flatSteps.isEmpty { flatSteps = Array(repeating: FlatStep(), count: program.machine.transitions.count * dwell.count) }
        if flatSteps[key].start < 0 {
            let machine = program.machine
            let shape = machine.transitions[t].shape
            let active = Set(machine.selfAndAncestors(StateID(leaf), upTo: machine.root))
            let start = Int32(flatStepStates.count)
            flatStepStates += machine.exitSet([shape], configuration: active, historyValue: { _ in nil }).map { Int32($0.index) }
            let entered = Int32(flatStepStates.count)
            flatStepStates += machine.entrySet([shape], historyValue: { _ in nil }).map { Int32($0.index) }
            flatSteps[key] = FlatStep(start: start, entered: entered, end: Int32(flatStepStates.count))
        }
        let step = flatSteps[key]
        guard step.start < step.end else { return }  // (a transition without a target leaves nothing)
        let now = run.instance.now
        for k in Int(step.start)..<Int(step.entered) {
            let s = Int(flatStepStates[k])
            dwell[s].durations.add(now - run.enteredAt[s])
        }
        for k in Int(step.entered)..<Int(step.end) {
            let s = Int(flatStepStates[k])
            dwell[s].visits += 1
            run.enteredAt[s] = now
        }
    }

    /// Counts an event not taken in its group (the run's configuration is the one it
    /// arrived in: an ignored or failed step changes nothing).
    private mutating func noteDeviation(_ event: EventID, _ kind: Deviation.Kind, in run: Run, line: Int) {
        let flat = program.chart == nil
        let candidateStates = flat ? [] : run.instance.configuration.states.filter { !program.group($0.index, event.index).isEmpty }
        let key = DeviationKey(leaf: flat ? run.instance.state.index : -1, states: candidateStates,
                               event: event.index, kind: kind)
        if let k = deviationIndex[key] {
            deviations[k].count += 1
            if deviations[k].lines.count < Deviation.keptLines { deviations[k].lines.append(line) }
        } else {
            deviationIndex[key] = deviations.count
            let states = flat ? run.instance.configuration.states : candidateStates
            var deviation = Deviation(configuration: states.map { program.machine[$0].name },
                                      event: program.eventNames[event.index], kind: kind, count: 1, lines: [line])
            // Why, once per group: the instance is as the event found it, payload included.
            let candidates = run.instance.candidates(for: event)
            deviation.why = run.instance.isFinished ? ["the run had already ended"]
                : candidates.isEmpty ? ["no transition of the active states takes it"] : candidates.map(\.summary)
            deviations.append(deviation)
        }
    }

    private func reject<L: ReplayLine>(_ run: Run, _ source: L, at offset: Int, message: String, specRange: SourceRange?) {
        run.report.rejected += 1
        guard run.report.rejections.count < Replayer.keptFailures else { return }
        run.report.rejections.append(Rejection(line: source.lineNumber, column: source.lineColumn(ofByte: offset),
                                               message: message, specRange: specRange, text: source.lineText()))
    }

    private func trimWindow(_ run: Run) {
        if run.window.count > Replayer.outputWindow {
            run.window.removeAll(keepingCapacity: true)
            run.windowArguments.removeAll(keepingCapacity: true)
            run.windowOverflowed = true
        }
    }

    /// Records the variables the last step of `run` changed, in declaration order, with
    /// their new values: number variables against their values after the previous traced
    /// step (a step that failed was undone, so it changed nothing), string variables by the
    /// step's journal of string stores.
    private mutating func recordChanges(of run: Run) {
        let registers = run.instance.registers
        for slot in run.numbersBefore.indices {
            if program.variableTypes[slot] == .string {
                if let changed = registers.changedString(at: slot) { traceBatch.addChange(slot, string: changed) }
            } else {
                // Compared as numbers, as `Value`s compare: bools are 0 or 1.
                let number = registers.numbers[slot]
                if number == run.numbersBefore[slot] { continue }
                run.numbersBefore[slot] = number
                traceBatch.addChange(slot, number: number)
            }
        }
    }

    // MARK: - Helpers

    /// Converts a JSON value to a value of `type`, or nil if it is not one.
    static func value(_ json: JSONValue, as type: ValueType) -> Value? {
        switch (json, type) {
        case (.number(let n), .number): .number(n)
        case (.bool(let b), .bool): .bool(b)
        case (.string(let s), .string): .string(s)
        default: nil
        }
    }

    func error<L: ReplayLine>(_ source: L, at offset: Int, _ message: String) -> LogError {
        LogError(line: source.lineNumber, column: source.lineColumn(ofByte: offset), message: message, text: source.lineText())
    }

    func article(_ type: ValueType) -> String {
        switch type {
        case .number: "a Number"
        case .bool: "a Bool"
        case .string: "a String"
        }
    }

    func describe(_ json: JSONValue) -> String {
        switch json {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let n): "the number \(Value.number(n))"
        case .string(let s): "the string \(StringEscaping.quoted(s, style: .json))"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
