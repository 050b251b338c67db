import Statecraft
import StatecraftModel

/// The generated Swift of the two machines with hand-written twins, and of MediaPlayer (a
/// statechart, measured against the runtime's chart path) (Machines/*.swift, which
/// `swift package generate-machines` writes beside the specs' links, and CI and `CodegenTests`
/// keep current), compiled in this module as an app compiles its own, over the same
/// pre-decoded events as the hand-written machines: typed events built before the clock
/// starts, then `advance(to:)` and `send(_:emit:)` per event, outputs dropped.
enum GeneratedRun {
    static func make(_ machine: String, _ decoded: DecodedLog, _ program: Program)
        -> (run: () -> Int, check: () -> String)? {
        switch machine {
        case "Drawer": run(Drawer.self, decoded, program)
        case "PullToRefresh": run(PullToRefresh.self, decoded, program)
        case "MediaPlayer": run(MediaPlayer.self, decoded, program)
        default: nil
        }
    }

    /// One machine type's run; its end state is compared with `Instance`'s, by names.
    private static func run<M: GeneratedStepping>(_ type: M.Type, _ decoded: DecodedLog, _ program: Program)
        -> (run: () -> Int, check: () -> String)? {
        guard decoded.runCount <= 1 else { return nil }
        var events: [M.Event] = []
        var times: [Double] = []
        var time = 0.0
        for e in decoded.events {
            time = e.time ?? time
            guard let typed = M.event(program.machine[e.id].name, e.payload) else { return nil }
            events.append(typed)
            times.append(time)
        }
        let last = Box(M())
        let limit = min(decoded.stepLimit ?? events.count, events.count)
        let run = {
            var m = M()
            let taken = events.withUnsafeBufferPointer { events in
                times.withUnsafeBufferPointer { times in
                    stepAll(&m, UnsafeBufferPointer(rebasing: events[..<limit]), UnsafeBufferPointer(rebasing: times[..<limit]))
                }
            }
            last.value = m
            return taken
        }
        return (run, {
            // (Worked out here, not ahead: the allocation probe runs `run` alone.)
            let expected = decoded.step(program).first.map { i in i.activeStates.map { program.machine[$0].name } } ?? []
            return last.value.configurationNames == expected ? "same end state" : "DIFFERS: \(last.value.configurationNames)"
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

/// What the benchmark needs of a generated type: the members every golden has, and the two
/// quiet calls below.
protocol GeneratedStepping {
    associatedtype Event
    init()
    var configurationNames: [String] { get }
    static func event(_ name: String, _ payload: [StatecraftModel.Value]) -> Event?
    mutating func advanceQuietly(to time: Double)
    mutating func sendQuietly(_ event: Event) -> Bool
}

extension Drawer: GeneratedStepping {
    static func event(_ name: String, _ payload: [StatecraftModel.Value]) -> Event? { Event(name: name, fields: payload.map(value)) }
    static func value(_ v: StatecraftModel.Value) -> Value {
        switch v {
        case .number(let n): .number(n)
        case .bool(let b): .bool(b)
        case .string(let s): .string(s)
        }
    }
    mutating func advanceQuietly(to time: Double) { advance(to: time, emit: { _ in }, onStep: { _ in }) }
    mutating func sendQuietly(_ event: Event) -> Bool { send(event, emit: { _ in }).transition != nil }
}


extension PullToRefresh: GeneratedStepping {
    static func event(_ name: String, _ payload: [StatecraftModel.Value]) -> Event? { Event(name: name, fields: payload.map(value)) }
    static func value(_ v: StatecraftModel.Value) -> Value {
        switch v {
        case .number(let n): .number(n)
        case .bool(let b): .bool(b)
        case .string(let s): .string(s)
        }
    }
    mutating func advanceQuietly(to time: Double) { advance(to: time, emit: { _ in }, onStep: { _ in }) }
    mutating func sendQuietly(_ event: Event) -> Bool { send(event, emit: { _ in }).transition != nil }
}

extension MediaPlayer: GeneratedStepping {
    static func event(_ name: String, _ payload: [StatecraftModel.Value]) -> Event? { Event(name: name, fields: payload.map(value)) }
    static func value(_ v: StatecraftModel.Value) -> Value {
        switch v {
        case .number(let n): .number(n)
        case .bool(let b): .bool(b)
        case .string(let s): .string(s)
        }
    }
    mutating func advanceQuietly(to time: Double) { advance(to: time, emit: { _ in }, onStep: { _ in }) }
    mutating func sendQuietly(_ event: Event) -> Bool { send(event, emit: { _ in }).transition != nil }
}
