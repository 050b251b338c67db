import Statecraft
import StatecraftModel

/// The generated Swift of the bundled machines (Machines/*.swift, which
/// `swift package generate-machines` writes beside the specs' links, and CI and `CodegenTests`
/// keep current), compiled in this module as an app compiles its own, over the same
/// pre-decoded events as the hand-written machines: typed events built before the clock
/// starts, then `advance(to:)` and `send(_:emit:)` per event, outputs dropped. A log with
/// cases steps one machine per case, each event sent to its case's machine, as replay does.
enum GeneratedRun {
    static func make(_ machine: String, _ decoded: DecodedLog, _ program: Program)
        -> (run: () -> Int, check: () -> String)? {
        switch machine {
        case "Drawer": run(Drawer.self, decoded, program)
        case "VibrantButton": run(VibrantButton.self, decoded, program)
        case "PullToRefresh": run(PullToRefresh.self, decoded, program)
        case "PeekRating": run(PeekRating.self, decoded, program)
        case "SwipeToDismiss": run(SwipeToDismiss.self, decoded, program)
        case "CheckoutScreen": run(CheckoutScreen.self, decoded, program)
        case "MediaPlayer": run(MediaPlayer.self, decoded, program)
        default: nil
        }
    }

    /// One machine type's run; its end (states and variables, in each case) is compared with
    /// `Instance`'s, by names.
    private static func run<M: GeneratedStepping>(_ type: M.Type, _ decoded: DecodedLog, _ program: Program)
        -> (run: () -> Int, check: () -> String)? {
        let count = max(1, decoded.runCount)
        var events: [M.Event] = []
        var times: [Double] = []
        var runs: [Int32] = []
        var latest = Array(repeating: 0.0, count: count)
        for e in decoded.events {
            latest[e.run] = e.time ?? latest[e.run]
            guard let typed = M.Event(name: program.machine[e.id].name, fields: e.payload.map(M.Value.init)) else { return nil }
            events.append(typed)
            times.append(latest[e.run])
            runs.append(Int32(e.run))
        }
        let last = Box([M]())
        let limit = min(decoded.stepLimit ?? events.count, events.count)
        let run = {
            let taken: Int
            if count == 1 {
                var m = M()
                taken = events.withUnsafeBufferPointer { events in
                    times.withUnsafeBufferPointer { times in
                        stepAll(&m, UnsafeBufferPointer(rebasing: events[..<limit]), UnsafeBufferPointer(rebasing: times[..<limit]))
                    }
                }
                last.value = [m]
            } else {
                var machines = Array(repeating: M(), count: count)
                taken = machines.withUnsafeMutableBufferPointer { machines in
                    events.withUnsafeBufferPointer { events in
                        times.withUnsafeBufferPointer { times in
                            runs.withUnsafeBufferPointer { runs in
                                stepAll(machines, UnsafeBufferPointer(rebasing: events[..<limit]),
                                        UnsafeBufferPointer(rebasing: times[..<limit]), UnsafeBufferPointer(rebasing: runs[..<limit]))
                            }
                        }
                    }
                }
                last.value = machines
            }
            return taken
        }
        return (run, {
            // (Worked out here, not ahead: the allocation probe runs `run` alone.)
            let machines = last.value
            return FinalStates(decoded, program).verdict(machines.count) { k in
                (machines[k].configurationNames, machines[k].variableValues.map { ($0.name, $0.value.model) })
            }
        })
    }
}

/// Advances `m` to each event's time and sends it, as an app's loop would: the outcomes are
/// dropped, and nothing is counted per event, as the hand-written machines count nothing (a
/// counter carried in memory from event to event is a cost of the loop, not of the machine;
/// the end state is compared after the run). A function of its own, as the hand-written
/// machines' `run` is, so the machine lives in registers and on this frame rather than in the
/// closures' captures.
@inline(never)
private func stepAll<M: GeneratedStepping>(_ m: inout M, _ events: UnsafeBufferPointer<M.Event>,
                                           _ times: UnsafeBufferPointer<Double>) -> Int {
    for k in 0..<events.count {
        m.advanceQuietly(to: times[k])
        _ = m.sendQuietly(events[k])
    }
    return events.count
}

/// The same for a log with cases: each event goes to its case's machine, as the hand-written
/// machines of such logs (SwipeToDismiss, CheckoutScreen) do.
@inline(never)
private func stepAll<M: GeneratedStepping>(_ machines: UnsafeMutableBufferPointer<M>, _ events: UnsafeBufferPointer<M.Event>,
                                           _ times: UnsafeBufferPointer<Double>, _ runs: UnsafeBufferPointer<Int32>) -> Int {
    for k in 0..<events.count {
        let run = Int(runs[k])
        machines[run].advanceQuietly(to: times[k])
        _ = machines[run].sendQuietly(events[k])
    }
    return events.count
}

/// What the benchmark needs of a generated type: the members every generated type has, and
/// the two quiet calls below.
protocol GeneratedStepping {
    associatedtype Value: GeneratedValue
    associatedtype Event: GeneratedEvent where Event.Value == Value
    init()
    var configurationNames: [String] { get }
    var variableValues: [(name: String, value: Value)] { get }
    mutating func advanceQuietly(to time: Double)
    mutating func sendQuietly(_ event: Event) -> Bool
}

/// A generated type's `Value`, converted from and to the model's.
protocol GeneratedValue {
    static func number(_ n: Double) -> Self
    static func bool(_ b: Bool) -> Self
    static func string(_ s: String) -> Self
    var numberValue: Double? { get }
    var boolValue: Bool? { get }
    var stringValue: String? { get }
}

extension GeneratedValue {
    init(_ v: StatecraftModel.Value) {
        switch v {
        case .number(let n): self = .number(n)
        case .bool(let b): self = .bool(b)
        case .string(let s): self = .string(s)
        }
    }

    var model: StatecraftModel.Value {
        if let n = numberValue { return .number(n) }
        if let b = boolValue { return .bool(b) }
        return .string(stringValue ?? "")
    }
}

/// A generated type's `Event`, made from a log line's name and fields.
protocol GeneratedEvent {
    associatedtype Value
    init?(name: String, fields: [Value])
}

extension Drawer.Value: GeneratedValue {}
extension Drawer.Event: GeneratedEvent {}
extension Drawer: GeneratedStepping {
    mutating func advanceQuietly(to time: Double) { advance(to: time, emit: { _ in }, onStep: { _ in }) }
    mutating func sendQuietly(_ event: Event) -> Bool { send(event, emit: { _ in }).transition != nil }
}

extension VibrantButton.Value: GeneratedValue {}
extension VibrantButton.Event: GeneratedEvent {}
extension VibrantButton: GeneratedStepping {
    mutating func advanceQuietly(to time: Double) { advance(to: time, emit: { _ in }, onStep: { _ in }) }
    mutating func sendQuietly(_ event: Event) -> Bool { send(event, emit: { _ in }).transition != nil }
}

extension PullToRefresh.Value: GeneratedValue {}
extension PullToRefresh.Event: GeneratedEvent {}
extension PullToRefresh: GeneratedStepping {
    mutating func advanceQuietly(to time: Double) { advance(to: time, emit: { _ in }, onStep: { _ in }) }
    mutating func sendQuietly(_ event: Event) -> Bool { send(event, emit: { _ in }).transition != nil }
}

extension PeekRating.Value: GeneratedValue {}
extension PeekRating.Event: GeneratedEvent {}
extension PeekRating: GeneratedStepping {
    mutating func advanceQuietly(to time: Double) { advance(to: time, emit: { _ in }, onStep: { _ in }) }
    mutating func sendQuietly(_ event: Event) -> Bool { send(event, emit: { _ in }).transition != nil }
}

extension SwipeToDismiss.Value: GeneratedValue {}
extension SwipeToDismiss.Event: GeneratedEvent {}
extension SwipeToDismiss: GeneratedStepping {
    mutating func advanceQuietly(to time: Double) { advance(to: time, emit: { _ in }, onStep: { _ in }) }
    mutating func sendQuietly(_ event: Event) -> Bool { send(event, emit: { _ in }).transition != nil }
}

extension CheckoutScreen.Value: GeneratedValue {}
extension CheckoutScreen.Event: GeneratedEvent {}
extension CheckoutScreen: GeneratedStepping {
    mutating func advanceQuietly(to time: Double) { advance(to: time, emit: { _ in }, onStep: { _ in }) }
    mutating func sendQuietly(_ event: Event) -> Bool { send(event, emit: { _ in }).transition != nil }
}

extension MediaPlayer.Value: GeneratedValue {}
extension MediaPlayer.Event: GeneratedEvent {}
extension MediaPlayer: GeneratedStepping {
    mutating func advanceQuietly(to time: Double) { advance(to: time, emit: { _ in }, onStep: { _ in }) }
    mutating func sendQuietly(_ event: Event) -> Bool { send(event, emit: { _ in }).transition != nil }
}
