import StatecraftModel

/// Events decoded once for one program, to step instances through as often as wanted: a
/// fuzzer or a property test replaying the same sequence against many instances, or an app
/// that records a session and plays it back.
///
/// Everything is in the form the runtime reads: event ids, times, and each payload in field
/// order with numbers and bools as `Double` (bools as 0 or 1), all in flat arrays. Stepping
/// through a tape (`Instance.run(_:)`) copies no array and allocates nothing per event.
public struct EventTape: Sendable {
    /// The program the events were resolved against.
    public let program: Program

    struct Entry: Sendable {
        var event: Int32
        /// How many fields the event has.
        var fieldCount: Int32
        /// The payload's fields are `numbers[payloadStart ..< payloadStart + fieldCount]`
        /// (and the same range of `strings` when the program has string fields).
        var payloadStart: Int
        /// NaN when the event has no time.
        var time: Double
    }

    var entries: [Entry] = []
    var numbers: [Double] = []
    /// Parallel to `numbers`, and only kept when some event has a string field.
    var strings: [String] = []
    var hasStrings: Bool { program.hasStringFields }

    /// An empty tape for `program`'s events.
    public init(_ program: Program) {
        self.program = program
    }

    /// How many events the tape holds.
    public var count: Int { entries.count }

    /// Appends an event with its payload in field order and, optionally, the time it arrived
    /// (time moves to it before the event is sent, firing the timers due by then). Returns
    /// false, appending nothing, when the payload does not fit the event's fields (count and
    /// types).
    @discardableResult
    public mutating func append(_ event: EventID, payload: [Value] = [], time: Double? = nil) -> Bool {
        guard event.index >= 0 && event.index < program.eventCount else { return false }
        let first = Int(program.payloadStart[event.index])
        let end = Int(program.payloadStart[event.index + 1])
        guard payload.count == end - first else { return false }
        for (k, value) in payload.enumerated() where value.type != program.fieldTypes[first + k] { return false }
        entries.append(Entry(event: Int32(event.index), fieldCount: Int32(end - first), payloadStart: numbers.count,
                             time: time ?? .nan))
        for value in payload {
            switch value {
            case .number(let n): numbers.append(n)
            case .bool(let b): numbers.append(b ? 1 : 0)
            case .string: numbers.append(0)
            }
            if hasStrings {
                if case .string(let s) = value { strings.append(s) } else { strings.append("") }
            }
        }
        return true
    }

    /// Appends an event by name with its payload by field name; false, appending nothing,
    /// when the event is unknown or the payload does not match its fields.
    @discardableResult
    public mutating func append(_ name: String, _ payload: [String: Value] = [:], time: Double? = nil) -> Bool {
        guard let (id, values) = program.resolve(name, payload) else { return false }
        return append(id, payload: values, time: time)
    }

    /// Event `k`: its id, payload in field order, and time.
    public subscript(_ k: Int) -> (event: EventID, payload: [Value], time: Double?) {
        let entry = entries[k]
        let event = Int(entry.event)
        let first = Int(program.payloadStart[event])
        let end = Int(program.payloadStart[event + 1])
        let payload = (first..<end).map { field in
            let slot = entry.payloadStart + field - first
            return Program.value(program.fieldTypes[field], number: numbers[slot], string: hasStrings ? strings[slot] : "")
        }
        return (EventID(event), payload, entry.time.isNaN ? nil : entry.time)
    }
}

extension Instance {
    /// Steps through events `range` of `tape` (all of them by default) as `advance(to:)` and
    /// `send` would, one after the other: time moves to each event's time (firing the timers
    /// due by then), then the event is sent. `onStep` sees every step, the timers' included,
    /// and `emit` every output, in order.
    ///
    /// A tape made for another program is stepped through by event and field names: events
    /// this program does not have, or whose fields differ, are ignored.
    public mutating func run(_ tape: EventTape, _ range: Range<Int>? = nil,
                             emit: (OutputID, [Value]) -> Void = { _, _ in }, onStep: (Step) -> Void) {
        runTape(tape, range, emit: emit, onStep: onStep)
    }

    /// Steps through events `range` of `tape` (all of them by default), like
    /// `run(_:_:emit:onStep:)` for a caller that only wants where the instance ends up:
    /// outputs are dropped and steps are not reported.
    ///
    /// The whole range runs in one interpreter loop: where a step's block ends, the next
    /// event's block begins (`TapeSteps`), with no call and no return per event.
    public mutating func run(_ tape: EventTape, _ range: Range<Int>? = nil) {
        let range = (range ?? 0..<tape.count).clamped(to: 0..<tape.count)
        guard tape.program === program else {
            for k in range { runForeign(tape, k, emit: { _, _ in }, onStep: { _ in }) }
            return
        }
        // A statechart's step is a loop of microsteps, not one block the loop can chain.
        if program.chart != nil {
            runTape(tape, range, emit: { _, _ in }, onStep: { _ in })
            return
        }
        makeUnique()  // once: nothing in the loop shares the registers again
        // Outputs are never recorded in the loop (`TapeSteps.dropsOutputs`), so the per-event
        // reset leaves them out; they are emptied here and after timers (which record theirs).
        registers.dropOutputs()
        tape.entries.withUnsafeBufferPointer { entries in
            tape.numbers.withUnsafeBufferPointer { numbers in
                tape.strings.withUnsafeBufferPointer { strings in
                    guard let entries = entries.baseAddress else { return }
                    if !program.hasStringFields && !program.storesStrings, let numbers = numbers.baseAddress {
                        var steps = TapeSteps(entries, range, program,
                                              NumberPayloads(numbers: numbers, registers: registers.numbers + program.payloadBase))
                        runSteps(&steps)
                    } else {
                        var steps = TapeSteps(entries, range, program,
                                              MixedPayloads(numbers: numbers, strings: strings, hasStrings: tape.hasStrings))
                        runSteps(&steps)
                    }
                }
            }
        }
    }

    /// Runs the events of `steps` quietly, a failed step undone and the run going on with
    /// the next event.
    private mutating func runSteps<Payloads>(_ steps: inout TapeSteps<Payloads>) {
        while !isFinished {  // (at the start, and after a failure, which undoes its step)
            let block = beginStep(steps: &steps)
            if block < 0 { break }
            do {
                // Returns when there is no next block: the range is done, or the run ended.
                _ = try interpret(Int32(truncatingIfNeeded: block), &steps)
                break
            } catch {
                // A block fails before its `fire`, so the active state is still the one the
                // step started from.
                fail(error, from: Int32(truncatingIfNeeded: state.index))
            }
        }
        // The run ended before the range did: the later events only move time.
        while steps.next < steps.end {
            let time = steps.next.pointee.time
            if !time.isNaN { advance(to: time) }
            steps.next += 1
        }
    }

    /// Moves `steps` to its next event and begins its step, as `advance(to:)` and `send`
    /// would: time moves to the event's (firing the timers due), the payload is loaded.
    /// Returns the event's block for the active state; -1 past the range, or when timers
    /// ended the run (the event is not looked at). The run has not ended before: the callers
    /// test that.
    ///
    /// Only what a quiet step needs: the journal is reset, not the outputs (never recorded
    /// here), and the program's tables come from `steps`, not through `program`.
    @inline(__always)
    fileprivate mutating func beginStep<Payloads>(steps: inout TapeSteps<Payloads>) -> Int {
        guard steps.next < steps.end else { return -1 }
        let entry = steps.next.pointee
        steps.next += 1
        // `advance(to:)`: both comparisons are false for an event without time (NaN), and
        // the first is false when no timer is armed (NaN).
        if earliestDeadline <= entry.time {
            fireTimersQuietly(dueBy: entry.time, &steps)
            if isFinished { return -1 }
        } else {
            clock = entry.time > clock ? entry.time : clock
        }
        let event = Int(entry.event)
        steps.payloads.load(&self, event: event, start: entry.payloadStart, count: Int(entry.fieldCount))
        registers.beginQuietStep(journalsStrings: Payloads.journalsStrings)
        pendingSaved = false
        // Blocks start at indices >= 0: widened as unsigned, the interpreter's test for -1
        // is known false here and left out.
        return Int(UInt32(bitPattern: steps.dispatch[state.index &* steps.eventCount &+ event]))
    }

    /// `advance(to:)` in the tape loop when a timer is due: the timers' outputs are dropped
    /// (the loop's steps then need not reset them), and the payload's registers found again.
    @inline(never)
    private mutating func fireTimersQuietly<Payloads>(dueBy time: Double, _ steps: inout TapeSteps<Payloads>) {
        fireTimersQuietly(dueBy: time)
        registers.dropOutputs()
        steps.payloads.registersMoved(self)
    }

    private mutating func runTape(_ tape: EventTape, _ range: Range<Int>?,
                                  emit: (OutputID, [Value]) -> Void, onStep: (Step) -> Void) {
        let range = (range ?? 0..<tape.count).clamped(to: 0..<tape.count)
        guard tape.program === program else {
            for k in range { runForeign(tape, k, emit: emit, onStep: onStep) }
            return
        }
        makeUnique()  // once: nothing in the loop shares the registers again
        let hasStrings = tape.hasStrings
        tape.entries.withUnsafeBufferPointer { entries in
            tape.numbers.withUnsafeBufferPointer { numbers in
                tape.strings.withUnsafeBufferPointer { strings in
                    for k in range {
                        let start = entries[k].payloadStart
                        let payload = StagedPayload(
                            numbers: UnsafeBufferPointer(rebasing: numbers[start...]),
                            strings: hasStrings ? UnsafeBufferPointer(rebasing: strings[start...]) : strings)
                        runEntry(entries[k], payload, emit, onStep)
                    }
                }
            }
        }
    }

    /// One event of a tape of this program.
    @inline(__always)
    private mutating func runEntry(_ entry: EventTape.Entry, _ payload: StagedPayload,
                                   _ emit: (OutputID, [Value]) -> Void, _ onStep: (Step) -> Void) {
        if !entry.time.isNaN { advance(to: entry.time, emit: emit, onStep: onStep) }
        if isFinished {
            onStep(Step(result: .afterFinal, from: state, to: state, time: now))
            return
        }
        let event = Int(entry.event)
        loadUniquePayload(event, payload)
        let step = apply(reporting: event)
        if !registers.outputs.isEmpty { deliverOutputs(emit) }
        onStep(step)
    }

    /// One event of a tape of another program, by names.
    private mutating func runForeign(_ tape: EventTape, _ k: Int, emit: (OutputID, [Value]) -> Void,
                                     onStep: (Step) -> Void) {
        let (event, payload, time) = tape[k]
        if let time { advance(to: time, emit: emit, onStep: onStep) }
        let names = tape.program.fieldNames[event.index]
        var fields: [String: Value] = [:]
        for (name, value) in zip(names, payload) { fields[name] = value }
        let step = send(tape.program.eventNames[event.index], fields, emit: emit)
        onStep(step ?? Step(result: .ignored, from: state, to: state, time: now))
    }
}

/// The events of a tape being run quietly (`Instance.run(_:_:)`): after each step's block,
/// the interpreter goes on with the next event's. What stays the same for the whole run is
/// held here, so a step reads it from one place.
struct TapeSteps<Payloads: TapePayloads>: BlockSequel {
    static var dropsOutputs: Bool { true }

    /// The next event to step, and where the range ends.
    var next: UnsafePointer<EventTape.Entry>
    let end: UnsafePointer<EventTape.Entry>
    /// `Program.dispatch` and `Program.eventCount`.
    let dispatch: UnsafeMutablePointer<Int32>
    let eventCount: Int
    var payloads: Payloads

    init(_ entries: UnsafePointer<EventTape.Entry>, _ range: Range<Int>, _ program: Program, _ payloads: Payloads) {
        next = entries + range.lowerBound
        end = entries + range.upperBound
        dispatch = program.dispatch.base
        eventCount = program.eventCount
        self.payloads = payloads
    }

    @inline(__always)
    mutating func next(_ instance: inout Instance, fired: Int32, endedRun: Bool) -> Int {
        // A block ends the run only by its `fire`: the test is the one `fire` made already.
        endedRun ? -1 : instance.beginStep(steps: &self)
    }
}

/// How the tape loop writes an event's payload into the registers.
protocol TapePayloads {
    /// Whether a step may journal strings (`storeString`), so the journal must be reset.
    static var journalsStrings: Bool { get }
    /// Writes the `count` fields at `start` in the tape, of event `event`, into the
    /// instance's payload registers.
    func load(_ instance: inout Instance, event: Int, start: Int, count: Int)
    /// The instance may have other registers now (after timers fired).
    mutating func registersMoved(_ instance: Instance)
}

/// The payloads of a program that has no string field and stores no string: numbers
/// copied from the tape to the payload registers (field `k` in `payloadBase + k`), both
/// addresses known for the whole run.
struct NumberPayloads: TapePayloads {
    static var journalsStrings: Bool { false }

    let numbers: UnsafePointer<Double>
    /// `registers.numbers + payloadBase`.
    var registers: UnsafeMutablePointer<Double>

    @inline(__always)
    func load(_ instance: inout Instance, event: Int, start: Int, count: Int) {
        Instance.copyNumberPayload(numbers + start, count: count, to: registers)
    }

    mutating func registersMoved(_ instance: Instance) {
        registers = instance.registers.numbers + instance.program.payloadBase
    }
}

/// Any other program's payloads: by field register (`Instance.loadUniquePayload`).
struct MixedPayloads: TapePayloads {
    static var journalsStrings: Bool { true }

    let numbers: UnsafeBufferPointer<Double>
    let strings: UnsafeBufferPointer<String>
    let hasStrings: Bool

    @inline(__always)
    func load(_ instance: inout Instance, event: Int, start: Int, count: Int) {
        instance.loadUniquePayload(event, StagedPayload(
            numbers: UnsafeBufferPointer(rebasing: numbers[start...]),
            strings: hasStrings ? UnsafeBufferPointer(rebasing: strings[start...]) : strings))
    }

    func registersMoved(_ instance: Instance) {}
}

/// Where a staged event's payload is, by field slot: numbers (and bools as 0/1) and strings.
/// The tape and the replayer's in-place path stage payloads this way for `loadPayload`.
package struct StagedPayload {
    package var numbers: UnsafeBufferPointer<Double>
    package var strings: UnsafeBufferPointer<String>

    package init(numbers: UnsafeBufferPointer<Double>, strings: UnsafeBufferPointer<String>) {
        self.numbers = numbers
        self.strings = strings
    }
}
