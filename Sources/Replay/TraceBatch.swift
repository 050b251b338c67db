import StatecraftModel
import StatecraftRuntime

/// What a replay made of one step, in the report's words: the runtime's `Step.Result`, with
/// a failed step (or, under `--strict`, an ignored event) rejected. `TraceStep.Result` is
/// the same verdict with a rejection's message attached.
public enum StepVerdict: UInt8, Sendable {
    /// A transition took the event, or the timer's transition fired.
    case applied
    /// No transition took the event: the machine stayed as it was.
    case ignored
    /// The run had already ended in a final state.
    case afterFinal
    /// The step failed at run time and was undone, or `--strict` refused an ignored event.
    case rejected
}

/// Steps of a replay, recorded in flat storage: ids, numbers and ranges, no `String` or
/// array per step. The replayer appends to one batch and hands it to its trace sink when it
/// is full (or the replay ends); a writer formats it with names it looked up once per
/// machine, and empties it (`removeAll`) for the next round, so tracing a long log allocates
/// nothing per step unless a step carries strings (string fields or variables, case keys
/// longer than a small string, rejection messages).
///
/// `step(_:)` gives a step in its public form, `TraceStep`, for callers that want values and
/// names rather than speed.
public struct TraceBatch: Sendable {
    /// One step, as ids, numbers and offsets into the batch's storage.
    public struct Entry: Sendable {
        /// The log line that caused it (for a timer: the line whose time fired it).
        public var line: Int
        /// The virtual clock at the step, in seconds.
        public var time: Double
        /// The event, or -1 for a timer's step.
        @usableFromInline var event: Int32
        /// For a timer's step, its `after` transition (-1 when not known).
        @usableFromInline var timer: Int32
        @usableFromInline var from: Int32
        @usableFromInline var to: Int32
        /// Whether the step was applied, ignored, after the end, or rejected.
        public var result: StepVerdict
        /// Index in `strings` of the case key and of a rejection's message; -1 for none.
        @usableFromInline var caseKey: Int32
        @usableFromInline var message: Int32
        /// The payload's values in field order are `numbers[payloadStart ..< payloadStart +
        /// fieldCount]` (a string field holds its index in `strings`).
        @usableFromInline var payloadStart: Int32
        /// The changed variables are `changes[changesStart ..< changesEnd]`.
        @usableFromInline var changesStart: Int32
        @usableFromInline var changesEnd: Int32
        /// The outputs are `outputs[outputsStart ..< outputsEnd]`.
        @usableFromInline var outputsStart: Int32
        @usableFromInline var outputsEnd: Int32
        /// The transition the step took first (-1 when it took none).
        @usableFromInline var transition: Int32
        /// A statechart's step: its microsteps are `microsteps[microstepsStart ..< microstepsEnd]`,
        /// the configurations before and after it `configurations[configuration]` and
        /// `configurations[configuration + 1]` (-1 for a flat machine's step).
        @usableFromInline var microstepsStart: Int32
        @usableFromInline var microstepsEnd: Int32
        @usableFromInline var configuration: Int32

        /// The event, nil for a timer's step.
        @inlinable public var eventID: EventID? { event >= 0 ? EventID(Int(event)) : nil }
        /// The `after` transition of a timer's step; nil when it is not known (a timer's
        /// step that failed).
        @inlinable public var timerTransition: TransitionID? { event < 0 && timer >= 0 ? TransitionID(Int(timer)) : nil }
        /// Whether the step was a timer firing rather than an event.
        @inlinable public var isTimer: Bool { event < 0 }
        /// Whether the step took an event the machine sent itself (`send`), not a line's.
        @inlinable public var isSent: Bool { event >= 0 && timer == TraceBatch.sentMarker }
        /// The active state before the step.
        @inlinable public var fromState: StateID { StateID(Int(from)) }
        /// The active state after the step.
        @inlinable public var toState: StateID { StateID(Int(to)) }
        /// The transition the step took (the first, in a statechart's step); nil when none.
        @inlinable public var transitionID: TransitionID? { transition >= 0 ? TransitionID(Int(transition)) : nil }
    }

    /// A variable the step changed and its new value: a number or a bool (0 or 1) in
    /// `number`, or a string's index in `strings` (`string` ≥ 0).
    @usableFromInline struct Change: Sendable {
        @usableFromInline var variable: Int32
        @usableFromInline var string: Int32
        @usableFromInline var number: Double
    }

    /// How many steps the replayer collects before it hands a batch over, when it may
    /// (`Replayer.replay(_:concurrently:traceBatches:)`).
    public static let preferredCount = 1024

    /// The program the ids index.
    public let program: Program
    // The readers below are inlined into writers in other modules, so they read the
    // program's field and variable types from these copies (made once per batch).
    /// Event `e`'s fields are `fieldTypes[fieldStart[e] ..< fieldStart[e + 1]]`.
    @usableFromInline let fieldStart: [Int]
    @usableFromInline let fieldTypes: [ValueType]
    /// By `VariableID` index.
    @usableFromInline let variableTypes: [ValueType]
    @usableFromInline private(set) var entries: [Entry] = []
    @usableFromInline private(set) var numbers: [Double] = []
    @usableFromInline private(set) var changes: [Change] = []
    @usableFromInline private(set) var strings: [String] = []
    /// Output `o`: its id, and its arguments `outputArguments[argumentsStart ..< argumentsEnd]`.
    @usableFromInline struct Output: Sendable {
        @usableFromInline var output: Int32
        @usableFromInline var argumentsStart: Int32
        @usableFromInline var argumentsEnd: Int32
    }

    @usableFromInline private(set) var outputs: [Output] = []
    /// The microsteps and configurations of a statechart's steps (see `Entry`).
    @usableFromInline private(set) var microsteps: [TraceMicrostep] = []
    @usableFromInline private(set) var configurations: [[StateID]] = []
    @usableFromInline private(set) var outputArguments: [Value] = []

    /// An empty batch for steps of `program`.
    public init(program: Program) {
        self.program = program
        let machine = program.machine
        var start = [0]
        for e in machine.events { start.append(start[start.count - 1] + e.fields.count) }
        fieldStart = start
        fieldTypes = machine.events.flatMap { $0.fields.map(\.type) }
        variableTypes = machine.variables.map(\.type)
    }

    /// How many steps the batch holds.
    @inlinable public var count: Int { entries.count }
    /// Whether the batch holds no step.
    @inlinable public var isEmpty: Bool { entries.isEmpty }

    /// Forgets every step, keeping the storage for the next ones.
    public mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        numbers.removeAll(keepingCapacity: true)
        changes.removeAll(keepingCapacity: true)
        if !strings.isEmpty { strings.removeAll(keepingCapacity: true) }
        if !outputs.isEmpty {
            outputs.removeAll(keepingCapacity: true)
            outputArguments.removeAll(keepingCapacity: true)
        }
        if !configurations.isEmpty {
            microsteps.removeAll(keepingCapacity: true)
            configurations.removeAll(keepingCapacity: true)
        }
    }

    // MARK: - Reading

    /// The `k`th step recorded, counting from 0.
    @inlinable public subscript(_ k: Int) -> Entry { entries[k] }

    /// The case key of step `k`; nil for the lines without a case.
    @inlinable public func caseKey(_ k: Int) -> String? {
        let i = entries[k].caseKey
        return i >= 0 ? strings[Int(i)] : nil
    }

    /// The message of a rejected step `k`; nil otherwise.
    @inlinable public func message(_ k: Int) -> String? {
        let i = entries[k].message
        return i >= 0 ? strings[Int(i)] : nil
    }

    /// How many payload fields step `k` has (0 for a timer's step).
    @inlinable public func payloadCount(_ k: Int) -> Int {
        let e = Int(entries[k].event)
        return e >= 0 ? fieldStart[e + 1] - fieldStart[e] : 0
    }

    /// Field `i` of step `k`'s payload, in the event's field order.
    @inlinable public func payload(_ k: Int, _ i: Int) -> Value {
        let entry = entries[k]
        return value(fieldTypes[fieldStart[Int(entry.event)] + i], numbers[Int(entry.payloadStart) + i])
    }

    /// The variables step `k` changed, as positions for `changedVariable` and `changedValue`.
    @inlinable public func changedRange(_ k: Int) -> Range<Int> {
        Int(entries[k].changesStart)..<Int(entries[k].changesEnd)
    }

    /// The variable of change `c` (a position in `changedRange`).
    @inlinable public func changedVariable(_ c: Int) -> VariableID { VariableID(Int(changes[c].variable)) }

    /// The new value of change `c`.
    @inlinable public func changedValue(_ c: Int) -> Value {
        let change = changes[c]
        if change.string >= 0 { return .string(strings[Int(change.string)]) }
        return value(variableTypes[Int(change.variable)], change.number)
    }

    /// A value of `type` as stored: a number, a bool as 0 or 1, a string's index in `strings`.
    @inlinable func value(_ type: ValueType, _ stored: Double) -> Value {
        switch type {
        case .number: .number(stored)
        case .bool: .bool(stored != 0)
        case .string: .string(strings[Int(stored)])
        }
    }

    /// The outputs step `k` emitted, in order, as positions for `output(_:)` and
    /// `outputArguments(_:)`.
    @inlinable public func outputRange(_ k: Int) -> Range<Int> {
        Int(entries[k].outputsStart)..<Int(entries[k].outputsEnd)
    }

    /// Output `o` (a position in `outputRange`).
    @inlinable public func output(_ o: Int) -> OutputID { OutputID(Int(outputs[o].output)) }

    /// The arguments of output `o`, in order.
    @inlinable public func outputArguments(_ o: Int) -> ArraySlice<Value> {
        outputArguments[Int(outputs[o].argumentsStart)..<Int(outputs[o].argumentsEnd)]
    }

    /// The outputs step `k` emitted, with names (allocates; a writer in a hurry reads
    /// `outputRange` instead).
    public func emittedOutputs(_ k: Int) -> [EmittedOutput] {
        outputRange(k).map { o in
            EmittedOutput(name: program.outputNames[output(o).index], arguments: Array(outputArguments(o)))
        }
    }

    /// The microsteps of statechart step `k`, in order (empty for a flat machine's step, and
    /// for a step that was ignored or undone).
    public func microsteps(_ k: Int) -> ArraySlice<TraceMicrostep> {
        microsteps[Int(entries[k].microstepsStart)..<Int(entries[k].microstepsEnd)]
    }

    /// The active configuration before and after statechart step `k`, in document order;
    /// nil for a flat machine's step.
    public func configurations(_ k: Int) -> (before: [StateID], after: [StateID])? {
        let c = Int(entries[k].configuration)
        return c >= 0 ? (configurations[c], configurations[c + 1]) : nil
    }

    /// The name a trace gives step `k`'s event: the event's, or `after 2s` for a timer
    /// (`after` for a timer's step that failed).
    public func eventName(_ k: Int) -> String {
        let entry = entries[k]
        if let event = entry.eventID { return program.eventNames[event.index] }
        return TraceBatch.timerName(program.machine, entry.timerTransition)
    }

    /// How a trace names the step of timer transition `t`: `after` and its delay as written.
    public static func timerName(_ machine: Machine, _ t: TransitionID?) -> String {
        if let t, case .after(let delay) = machine[t].trigger { return "after " + machine.text(delay.range) }
        return "after"
    }

    /// `Entry.timer` of a sent event's step.
    public static let sentMarker: Int32 = -2

    /// Step `k` in its public form.
    public func step(_ k: Int) -> TraceStep {
        let entry = entries[k]
        let result: TraceStep.Result = switch entry.result {
        case .applied: .applied
        case .ignored: .ignored
        case .afterFinal: .afterFinal
        case .rejected: .rejected(message(k) ?? "")
        }
        var payload: [NamedValue] = []
        if let event = entry.eventID {
            let names = program.fieldNames[event.index]
            payload = (0..<payloadCount(k)).map { NamedValue(name: names[$0], value: self.payload(k, $0)) }
        }
        let changed = changedRange(k).map { c in
            NamedValue(name: program.variableNames[changedVariable(c).index], value: changedValue(c))
        }
        return TraceStep(line: entry.line, caseKey: caseKey(k), time: entry.time, event: eventName(k), isTimer: entry.isTimer,
                         isSent: entry.isSent,
                         payload: payload, from: program.stateNames[Int(entry.from)], to: program.stateNames[Int(entry.to)],
                         result: result, outputs: emittedOutputs(k), changed: changed, eventID: entry.eventID,
                         fromState: entry.fromState, toState: entry.toState,
                         isTargetless: entry.transitionID.map { program.machine[$0].target == nil } ?? false,
                         microsteps: Array(microsteps(k)),
                         configuration: configurations(k).map { $0.after.map { program.stateNames[$0.index] } })
    }

    // MARK: - Recording (the replayer)

    /// Begins a step: the entry, without payload, changes or outputs yet (`addPayload`,
    /// `addOutput` and `addChange` add them to this last step).
    @inline(__always)
    mutating func beginStep(line: Int, time: Double, event: Int32, timer: Int32, from: Int32, to: Int32,
                            result: StepVerdict, caseKey: String?, message: String?, transition: Int32 = -1) {
        let changesStart = Int32(truncatingIfNeeded: changes.count)
        let outputsStart = Int32(truncatingIfNeeded: outputs.count)
        var key = Int32(-1), text = Int32(-1)
        if let caseKey { key = addString(caseKey) }
        if let message { text = addString(message) }
        entries.append(Entry(line: line, time: time, event: event, timer: timer, from: from, to: to, result: result,
                             caseKey: key, message: text,
                             payloadStart: Int32(truncatingIfNeeded: numbers.count),
                             changesStart: changesStart, changesEnd: changesStart,
                             outputsStart: outputsStart, outputsEnd: outputsStart, transition: transition,
                             microstepsStart: Int32(truncatingIfNeeded: microsteps.count),
                             microstepsEnd: Int32(truncatingIfNeeded: microsteps.count), configuration: -1))
    }

    /// Adds a statechart step's configurations before and after it, and the microsteps
    /// `log` recorded (when the step took effect), to the step being recorded.
    mutating func addMicrosteps(_ log: MicrostepLog?, before: [StateID], after: [StateID]) {
        entries[entries.count - 1].configuration = Int32(truncatingIfNeeded: configurations.count)
        configurations.append(before)
        configurations.append(after)
        guard let log else { return }
        for k in 0..<log.count {
            microsteps.append(TraceMicrostep(trigger: log.trigger(k), transitions: log.transitions(k),
                                             exited: log.exited(k), entered: log.entered(k), values: Array(log.values(k))))
        }
        entries[entries.count - 1].microstepsEnd = Int32(truncatingIfNeeded: microsteps.count)
    }

    /// Appends a payload value of the step being recorded: a number or bool (0 or 1).
    @inline(__always)
    mutating func addPayload(_ number: Double) {
        numbers.append(number)
    }

    /// Appends a string payload value of the step being recorded.
    mutating func addPayload(_ string: String) {
        numbers.append(Double(addString(string)))
    }

    /// Appends a changed number or bool variable of the step being recorded.
    @inline(__always)
    mutating func addChange(_ variable: Int, number: Double) {
        changes.append(Change(variable: Int32(truncatingIfNeeded: variable), string: -1, number: number))
        entries[entries.count - 1].changesEnd += 1
    }

    /// Appends a changed string variable of the step being recorded.
    mutating func addChange(_ variable: Int, string: String) {
        changes.append(Change(variable: Int32(truncatingIfNeeded: variable), string: addString(string), number: 0))
        entries[entries.count - 1].changesEnd += 1
    }

    /// Appends an output of the step being recorded.
    mutating func addOutput(_ output: OutputID, arguments: some Collection<Value>) {
        let start = Int32(truncatingIfNeeded: outputArguments.count)
        outputArguments.append(contentsOf: arguments)
        outputs.append(Output(output: Int32(truncatingIfNeeded: output.index), argumentsStart: start,
                              argumentsEnd: Int32(truncatingIfNeeded: outputArguments.count)))
        entries[entries.count - 1].outputsEnd += 1
    }

    private mutating func addString(_ s: String) -> Int32 {
        strings.append(s)
        return Int32(truncatingIfNeeded: strings.count - 1)
    }
}
