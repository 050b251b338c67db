import StatecraftDiagnostics
import StatecraftModel

// The members every generated type has in the same words, flat or chart: the next deadline,
// `send(_:at:)` (advance, then send, collecting what happened) and its recording form.
extension FlatMachineWriter {
    /// The clock's move at the end of `advance(to:)`: never back, and a NaN time leaves it where
    /// it is. Written as a select rather than an `if`, so the compiler makes it one `maxsd` and a
    /// store instead of a compare and a branch on every event (a ±0 tie keeps `now`, as `if` did).
    static let moveClock = "core.now = time > core.now ? time : core.now"

    mutating func timeAndRecordingAPI() {
        let a = access
        out.doc("The earliest deadline of an armed timer, or nil.")
        out.open("\(a)var nextDeadline: Double?")
            if timers.isEmpty && !sendsEvents {
                out.line("nil")
            } else {
                out.line("guard !core.isFinished else { return nil }")
                out.line("var earliest = Double.nan")
                for k in timers.indices {
                    out.line("if core.deadline\(k) < earliest || earliest.isNaN { earliest = core.deadline\(k) }")
                }
                if sendsEvents {
                    out.line("for s in core.sent where s.deadline < earliest || earliest.isNaN { earliest = s.deadline }")
                }
                out.line("return earliest.isNaN ? nil : earliest")
            }
        out.close()
        out.line()
        out.doc("Sends `event` at `time` (nil: at `now`): the timers due by then fire first, each its own step.")
        out.open("\(a)mutating func send(_ event: Event, at time: Double? = nil) -> StepResult")
            if machine.outputs.isEmpty {
                out.line("var timerOutcomes: [Outcome] = []")
                out.line("if let time { advance(to: time, emit: { _ in }, onStep: { timerOutcomes.append($0) }) }")
                out.line("let outcome = send(event, emit: { _ in })")
                out.line("return StepResult(outcome: outcome, outputs: [], timers: timerOutcomes)")
            } else {
                out.line("var outputs: [Output] = []")
                out.line("var timerOutcomes: [Outcome] = []")
                out.line("if let time { advance(to: time, emit: { outputs.append($0) }, onStep: { timerOutcomes.append($0) }) }")
                out.line("let outcome = send(event, emit: { outputs.append($0) })")
                out.line("return StepResult(outcome: outcome, outputs: outputs, timers: timerOutcomes)")
            }
        out.close()
        out.line()
        out.doc("`send(_:at:)`, handing the event to `record` first, as a log line would hold it: with every\n`private` payload field emptied, so its value never reaches the recording.")
        out.open("\(a)mutating func send(_ event: Event, at time: Double? = nil, recordingTo record: (Recorded) -> Void) -> StepResult")
            out.line("record(Recorded(event: event, time: Swift.max(time ?? core.now, core.now)))")
            out.line("return send(event, at: time)")
        out.close()
        out.line()
    }
}

extension FlatMachineWriter {
    /// The doc and signature of `fireNext(dueBy:firedAtOnce:emit:)`, the one step of `advance`
    /// that both kinds of type write their own way (the body follows; the caller closes it).
    /// `advance` itself loops over it: the two cannot drift apart.
    mutating func fireNextHeader() {
        out.doc("""
            One step of `advance(to:)`: fires the timer (or takes the event the machine sent itself) due
            first by `time`, handing its outputs to `emit`; returns its outcome and, for a sent event,
            that event's name, or nil when nothing is due by `time` (the clock then stays where it is:
            `advance(to:)` moves it). For tools that look at the machine between the steps of one
            advance (a log harness watching properties). `firedAtOnce` counts the steps at one
            instant, as `advance` does: 0 before the first call for a time.
            """)
        out.line("@inline(__always)")
        out.open("\(access)mutating func fireNext(dueBy time: Double, firedAtOnce: inout Int, emit: (Output) -> Void) -> (outcome: Outcome, sentEvent: String?)?")
    }
}
