import StatecraftDiagnostics
import StatecraftModel

// A statechart as Swift: the storage and the public API of a machine the runtime runs on its
// chart path (parallel or history states, `done`, `always`, `raise`, `in(...)`, internal
// transitions, `initial ->`). The declarations of events, outputs, values and results are the
// flat writer's; the step is in `ChartWriter+Steps`, the tree's tables in `ChartWriter+Tables`.
//
// The active states are a bit set (`Bits`, bit `i` is the spec's state `i`, numbered in
// document order, so ascending bits are entry order and descending bits exit order). A step
// is SCXML's macrostep (Appendix D) written for this one machine: selection is straight-line
// code per event, each transition's actions and each state's entry and exit are functions of
// their own, and the exit and entry sets are computed on bit sets. Everything a step changes
// lives in `core` (configuration, history, variables, timers, the clock), so a failing step
// restores it in one assignment.
extension FlatMachineWriter {
    /// Words of 64 bits in a `Bits`.
    var chartWords: Int { (machine.states.count * (hasDefaultActions ? 2 : 1) + 63) / 64 }

    /// Whether a default entry has actions (`initial -> a { … }`, `history state h -> c { … }`).
    /// Then an entry set also holds, above the state numbers, a mark for each default entry
    /// whose actions run: number `states.count + s` for compound state or history state `s`.
    var hasDefaultActions: Bool { machine.states.contains { !$0.initialActions.isEmpty || !$0.historyActions.isEmpty } }

    /// A `Bits` literal holding `states`.
    func bits(_ states: [StateID]) -> String { bits(numbers: states.map(\.index)) }

    /// A `Bits` literal holding the entry set `states` with the marks of its default entries
    /// that have actions.
    func entryBits(_ states: [StateID], _ defaults: DefaultEntries) -> String {
        var numbers = states.map(\.index)
        if hasDefaultActions {
            let n = machine.states.count
            numbers += defaults.initial.filter { !machine[$0].initialActions.isEmpty }.map { n + $0.index }
            numbers += defaults.history.values.filter { !machine[$0].historyActions.isEmpty }.map { n + $0.index }
        }
        return bits(numbers: numbers)
    }

    func bits(numbers: [Int]) -> String {
        var words = [UInt64](repeating: 0, count: chartWords)
        for s in numbers { words[s >> 6] |= 1 << UInt64(s & 63) }
        if words.allSatisfy({ $0 == 0 }) { return "Bits()" }
        return "Bits(" + words.map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: ", ") + ")"
    }

    // MARK: - Storage

    mutating func chartStorage() {
        if !machine.constants.isEmpty {
            for c in machine.constants {
                out.line("static let \(SwiftName.quoted(c.name)): \(Self.swiftType(c.value.type)) = \(literal(c.value))  // line \(line(c.range))")
            }
            out.line()
        }
        bitsType()
        chosenType()
        if usesInternalQueue {
            if completionsWithData.isEmpty {
                out.doc("An event on the internal queue: a raised event, or a state's completion (`done`).")
            } else {
                out.doc("An event on the internal queue: a raised event, or a state's completion (`done`), with the\nvalues its final state gave when it has some (`doneN`, N the state).")
            }
            out.open("enum Internal: Sendable, Hashable")
                out.line("case event(Event)")
                out.line("case done(Int)")
                for x in completionsWithData {
                    out.line("case done\(x.index)(\(fieldList(machine.completionFields(x))))  // \(machine[x].name)")
                }
            out.close()
            out.line()
        }
        if sendsEvents {
            out.doc("An event the machine sent itself (`send`), waiting to be taken at its deadline.")
            out.open("struct Sent: Sendable, Hashable")
                out.line("var event: Event")
                out.line("var deadline: Double")
                out.line("/// The order it was sent in, counted with the timers' (earlier first among equal deadlines).")
                out.line("var order: Int")
                out.line("/// Where its `send` is written.")
                out.line("var line: Int, column: Int")
            out.close()
            out.line()
        }
        out.doc("Everything a step changes: a failing step puts it back as it was.")
        out.open("struct Core: Sendable, Hashable")
            out.line("/// The active states (bit `i` is state `i` of the spec, in document order).")
            out.line("var active = Bits()")
            out.line("var now: Double = 0")
            for v in machine.variables {
                out.line("var \(SwiftName.quoted(v.name)): \(Self.swiftType(v.type)) = \(literal(v.initialValue))")
            }
            if !historyStates.isEmpty {
                out.line("/// What each history state recorded when its parent was last exited, and whether it has.")
                for (k, h) in historyStates.enumerated() {
                    out.line("var history\(k) = Bits(), recorded\(k) = false  // \(h.name), line \(line(h.range))")
                }
            }
            timerStorage()
            if sendsEvents {
                out.line("/// The events sent and not taken yet, in the order they were sent.")
                out.line("var sent: [Sent] = []")
            }
            if ordersTimers { out.line("var sequence = 0") }
            // Last, where a flag takes one byte rather than eight.
            out.line("var isFinished = false")
        out.close()
        out.line()
        // The step's working state comes after `core` in order of size, which keeps the
        // machine small: an app may keep one per cell or per screen, and copy it.
        out.line("private(set) var core = Core()")
        out.line("/// Whether an `always` transition may have become enabled since selection last looked.")
        out.line("private var eventlessMayHold = false")
        out.doc("Whether `start` says more than `.started` with no outputs: a machine made by `init()`, when\nits start emitted or failed.")
        out.line("private var startSaysMore = false")
        out.line("/// A step's working lists, empty between steps (kept to reuse their storage).")
        out.line("private var pending = OutputQueue()")
        out.line("private var microstepCount: Int32 = 0")
        if usesInternalQueue { out.line("private var internalQueue: [Internal] = []") }
        for x in completionsWithData {
            out.line("/// The values of the completion of `\(machine[x].name)` being taken (what its `done` transitions read).")
            for (k, f) in machine.completionFields(x).enumerated() {
                out.line("private var \(completionSlot(x, k)): \(Self.swiftType(f.type)) = \(literal(f.type.zero))  // \(f.name)")
            }
        }
        out.line()
    }

    /// `Bits`: a set of state numbers in `chartWords` words, with what the step needs of it.
    mutating func bitsType() {
        let w = chartWords
        let words = (0..<w).map { "w\($0)" }
        out.doc("A set of states by number, in \(w) word\(w == 1 ? "" : "s") of 64 bits.")
        out.open("struct Bits: Sendable, Hashable")
            out.line("var " + words.map { "\($0): UInt64 = 0" }.joined(separator: ", "))
            out.line()
            out.line("init() {}")
            out.line("init(" + words.map { "_ \($0): UInt64" }.joined(separator: ", ") + ") { " + words.map { "self.\($0) = \($0)" }.joined(separator: "; ") + " }")
            out.line()
            out.line("var isEmpty: Bool { " + words.map { "\($0) == 0" }.joined(separator: " && ") + " }")
            func perWord(_ body: (String) -> String) -> String {
                if w == 1 { return body("w0") }
                return "switch i >> 6 { " + (0..<w).map { k in (k == w - 1 ? "default" : "case \(k)") + ": " + body("w\(k)") }.joined(separator: "; ") + " }"
            }
            out.line("func contains(_ i: Int) -> Bool { " + perWord { "\($0) & (1 << UInt64(i & 63)) != 0" } + " }")
            out.line("mutating func insert(_ i: Int) { " + perWord { "\($0) |= 1 << UInt64(i & 63)" } + " }")
            out.line("mutating func remove(_ i: Int) { " + perWord { "\($0) &= ~(1 << UInt64(i & 63))" } + " }")
            out.line("static func & (a: Bits, b: Bits) -> Bits { Bits(" + words.map { "a.\($0) & b.\($0)" }.joined(separator: ", ") + ") }")
            out.line("static func | (a: Bits, b: Bits) -> Bits { Bits(" + words.map { "a.\($0) | b.\($0)" }.joined(separator: ", ") + ") }")
            out.line("static prefix func ~ (a: Bits) -> Bits { Bits(" + words.map { "~a.\($0)" }.joined(separator: ", ") + ") }")
            out.line("/// Removes and returns the lowest state number (entry order).")
            out.open("mutating func popFirst() -> Int?")
                for k in 0..<w {
                    out.line("if w\(k) != 0 { let i = w\(k).trailingZeroBitCount; w\(k) &= w\(k) - 1; return \(k * 64) + i }")
                }
                out.line("return nil")
            out.close()
            out.line("/// Removes and returns the highest state number (exit order).")
            out.open("mutating func popLast() -> Int?")
                for k in (0..<w).reversed() {
                    out.line("if w\(k) != 0 { let i = 63 - w\(k).leadingZeroBitCount; w\(k) &= ~(1 << UInt64(i)); return \(k * 64) + i }")
                }
                out.line("return nil")
            out.close()
            out.line("/// States `first ... last`.")
            out.open("static func range(_ first: Int, _ last: Int) -> Bits")
                out.line("var b = Bits()")
                out.line("guard first <= last else { return b }")
                for k in 0..<w {
                    out.line("b.w\(k) = word(first - \(k * 64), last - \(k * 64))")
                }
                out.line("return b")
            out.close()
            out.line("/// Bits `first ... last` of one word (clamped to it).")
            out.open("private static func word(_ first: Int, _ last: Int) -> UInt64")
                out.line("guard last >= 0 && first <= 63 else { return 0 }")
                out.line("let high: UInt64 = last >= 63 ? ~0 : (1 << UInt64(last + 1)) - 1")
                out.line("let low: UInt64 = first <= 0 ? 0 : (1 << UInt64(first)) - 1")
                out.line("return high & ~low")
            out.close()
        out.close()
        out.line()
    }

    /// The most atomic states active at once: a selection enables at most one transition per
    /// active atomic state, so no microstep takes more transitions than this.
    func mostActiveLeaves(_ s: StateID) -> Int {
        let state = machine[s]
        switch state.kind {
        case .atomic, .final: return 1
        case .history: return 0
        case .parallel: return machine.childStates(s).reduce(0) { $0 + mostActiveLeaves($1) }
        case .compound: return machine.childStates(s).map(mostActiveLeaves).max() ?? 1
        }
    }

    /// How many transitions `Chosen` keeps in slots of its own: all it can ever hold, up to 16,
    /// so that a step needs no list (a list's storage would be allocated by the step).
    var chosenSlots: Int { Swift.min(Swift.max(1, mostActiveLeaves(machine.root)), 16) }

    /// `Chosen`: the transitions a selection enabled, a local of the step that selects them (the
    /// machine, which an app may copy, does not carry it). They are kept in slots, and in a list
    /// only when more than 16 could be enabled at once.
    mutating func chosenType() {
        let slots = chosenSlots
        let list = mostActiveLeaves(machine.root) > slots
        let names = (0..<slots).map { "t\($0)" }
        out.doc("The transitions selected for a microstep, in selection order.")
        out.open("struct Chosen")
            // Transition numbers in 32 bits: up to 16 slots of them are a small local.
            out.line("private var n: Int32 = 0")
            out.line("private var " + names.map { "\($0): Int32 = 0" }.joined(separator: ", "))
            if list { out.line("private var more: [Int] = []") }
            out.line()
            out.line("var count: Int { Int(n) }")
            func cases(_ get: Bool) -> String {
                func slot(_ name: String) -> String { get ? "Int(\(name))" : "\(name) = Int32(truncatingIfNeeded: newValue)" }
                if slots == 1 && !list { return slot("t0") }
                var parts = (0..<slots).map { "case \($0): " + slot("t\($0)") }
                parts.append("default: " + (list ? (get ? "more[k - \(slots)]" : "more[k - \(slots)] = newValue") : slot("t\(slots - 1)")))
                return "switch k { " + parts.joined(separator: "; ") + " }"
            }
            out.open("subscript(k: Int) -> Int")
                out.line("@inline(__always) get { " + cases(true) + " }")
                out.line("@inline(__always) set { " + cases(false) + " }")
            out.close()
            out.line("@inline(__always) mutating func removeAll() { n = 0 }")
            out.line("@inline(__always) mutating func removeLast(_ k: Int) { n -= Int32(truncatingIfNeeded: k) }")
            out.open("@inline(__always) mutating func append(_ t: Int)")
                if list {
                    out.line("if count < \(slots) || count - \(slots) < more.count { self[count] = t } else { more.append(t) }")
                } else {
                    out.line("self[count] = t")
                }
                out.line("n += 1")
            out.close()
            out.open("func contains(_ t: Int) -> Bool")
                out.line("var k = 0")
                out.open("while k < count")
                    out.line("if self[k] == t { return true }")
                    out.line("k += 1")
                out.close()
                out.line("return false")
            out.close()
        out.close()
        out.line()
    }

    // MARK: - Public API

    mutating func chartAPI() {
        let a = access
        let atomics = states.filter { machine.isAtomic($0.id) }
        let firstLeaf = machine.initialEntrySet.first { machine.isAtomic($0) } ?? atomics.first?.id
        out.doc("""
            Enters the initial configuration, running its entry actions and then its eventless transitions
            and raised events until it is stable (`start` says what that did). Starting reads nothing
            from outside, so it ends the same way every time: it runs once, and each new machine is a
            copy of that one.
            """)
        out.open("\(a)init()")
            out.line("self = Self.started.machine")
        out.close()
        out.line()
        out.doc("The machine as starting left it, and what starting did.")
        out.open("private static let started: (machine: \(typeName), result: StepResult) =")
            out.line("var machine = \(typeName)(unstarted: ())")
            out.line("let outcome = machine.startMachine()")
            out.line("let result = StepResult(outcome: outcome, outputs: machine.pending.all)")
            out.line("if !machine.pending.isEmpty { machine.pending.removeAll() }")
            out.line("machine.startSaysMore = result != StepResult(outcome: .started, outputs: [])")
            out.line("return (machine, result)")
        out.close("}()")
        out.line()
        out.doc("A machine that has not entered any state yet.")
        out.line("private init(unstarted: Void) {}")
        out.line()
        out.doc("What starting did: `.started`, or `.rejected` when an entry action failed (the machine\nthen takes no events); with the outputs it emitted. A machine restored from a snapshot did\nnot start: `.started`, no outputs.")
        out.open("\(a)var start: StepResult")
            out.line("startSaysMore ? Self.started.result : StepResult(outcome: .started, outputs: [])")
        out.close()
        out.line()
        out.doc("The first active atomic state in document order (the initial one if starting failed).")
        out.open("\(a)var state: State")
            out.line("var leaves = core.active & Self.atomicStates")
            out.line("guard let s = leaves.popFirst() else { return \(firstLeaf.map { stateCase($0) } ?? "State.allCases[0]") }")
            out.line("return Self.state(s)")
        out.close()
        out.doc("The active states in document order (a parent before its children; none if starting failed).")
        out.open("\(a)var configuration: [State]")
            out.line("var states: [State] = []")
            out.line("var active = core.active")
            out.line("while let s = active.popFirst() { states.append(Self.state(s)) }")
            out.line("return states")
        out.close()
        out.doc("Whether `s` is active (a history state never is).")
        out.line("\(a)func isActive(_ s: State) -> Bool { core.active.contains(s.rawValue + 1) }")
        out.doc("Virtual time, in seconds: the latest time the machine was advanced to.")
        out.line("\(a)var now: Double { core.now }")
        out.doc("Whether the run ended in a final state.")
        out.line("\(a)var isFinished: Bool { core.isFinished }")
        for v in machine.variables {
            out.line("\(v.isPublic ? a : "")var \(SwiftName.quoted(v.name)): \(Self.swiftType(v.type)) { core.\(SwiftName.quoted(v.name)) }  // line \(line(v.range))")
        }
        out.line()
        timeAndRecordingAPI()
        out.doc("Sends `event` now as one macrostep (its transitions, then eventless transitions and raised\nevents until the configuration is stable), handing its outputs to `emit` in order.")
        // When every event is taken in place (`loneSendCases`) and there are few of them, each
        // case is a few tests and stores: written into its callers, the step costs no call, no
        // spilled registers and no outcome in memory (a third of a small step), for the size
        // of a short switch per call site.
        if machine.events.count <= 16 && chartPlan.loneEvents.allSatisfy({ $0 != nil }) {
            out.line("@inline(__always)")
        }
        out.open("\(a)mutating func send(_ event: Event, emit: (Output) -> Void) -> Outcome")
            out.line("if core.isFinished { return .afterFinal }")
            out.line("beginStep()")
            // Without a general path when every event has its case there.
            if !loneSendCases() {
                out.line("// Selection only reads (guards change nothing): an event no transition takes needs no copy.")
                out.line("var chosen = Chosen()")
                out.line("let selected: Bool")
                out.open("do")
                    out.line("selected = try select(event, &chosen)")
                out.reopen("catch")
                    out.line("endStep()")
                    out.line("return .rejected(error)")
                out.close()
                out.line("guard selected else { return .ignored }")
                takenStep(transition: "first", throwing: true) { writer in
                    writer.out.line("let first = chosen[0]")
                    writer.out.line("try microstep(chosen, event)")
                }
            }
        out.close()
        out.line()
        out.doc("Moves time to `time`, firing every timer (and taking every event the machine sent itself)\ndue by then in deadline order, each its own macrostep: `emit` gets its outputs, `onStep` its\noutcome.")
        if sendsEvents {
            out.open("\(a)mutating func advance(to time: Double, emit: (Output) -> Void = { _ in }, onStep: (Outcome) -> Void = { _ in })")
                out.line("advance(to: time, emit: emit, onEachStep: { outcome, _ in onStep(outcome) })")
            out.close()
            out.line()
            out.doc("`advance(to:emit:onStep:)`, with each step's outcome and, for the step of an event the machine\nsent itself, that event's name (nil for a timer's step).")
            out.open("\(a)mutating func advance(to time: Double, emit: (Output) -> Void, onEachStep: (Outcome, _ sentEvent: String?) -> Void)")
        } else {
            out.open("\(a)mutating func advance(to time: Double, emit: (Output) -> Void = { _ in }, onStep: (Outcome) -> Void = { _ in })")
        }
        let sends = sendsEvents
        let report = { (outcome: String, sent: String) in sends ? "onEachStep(\(outcome), \(sent))" : "onStep(\(outcome))" }
            if timers.isEmpty && !sendsEvents {
                out.line(Self.moveClock)
                out.close()
                out.line()
                return
            }
            out.line("// Most calls find nothing due: one comparison per timer (NaN, not armed, compares false).")
            let due = timers.indices.map { "core.deadline\($0) <= time" } + (sendsEvents ? ["!core.sent.isEmpty"] : [])
            out.open("guard \(due.joined(separator: " || ")) else")
                out.line(Self.moveClock)
                out.line("return")
            out.close()
            out.line("var firedAtOnce = 0")
            out.line("while let step = fireNext(dueBy: time, firedAtOnce: &firedAtOnce, emit: emit) { \(report("step.outcome", "step.sentEvent")) }")
            out.line(Self.moveClock)
        out.close()
        out.line()
    }

    /// `fireNext(dueBy:firedAtOnce:emit:)` of a statechart: the timer or sent event due first by
    /// `time` (the earlier armed or sent first among equal deadlines) as its own macrostep.
    mutating func chartFireNext() {
        fireNextHeader()
            if timers.isEmpty && !sendsEvents {
                out.line("nil")
                out.close()
                out.line()
                return
            }
            out.line("guard !core.isFinished else { return nil }")
            out.line("var found = false")
            out.line("var slot = -1")
            out.line("var deadline = 0.0")
            if ordersTimers { out.line("var order = 0") }
            for k in timers.indices {
                out.line(ordersTimers
                    ? "if core.deadline\(k) <= time && (!found || core.deadline\(k) < deadline || (core.deadline\(k) == deadline && core.armed\(k) < order)) { found = true; slot = \(k); deadline = core.deadline\(k); order = core.armed\(k) }"
                    : "if core.deadline\(k) <= time { found = true; slot = \(k); deadline = core.deadline\(k) }")
            }
            if sendsEvents {
                out.open("for (k, s) in core.sent.enumerated() where s.deadline <= time && (!found || s.deadline < deadline || (s.deadline == deadline && s.order < order))")
                    out.line("found = true; slot = -1 - k; deadline = s.deadline; order = s.order")
                out.close()
            }
            out.line("guard found else { return nil }")
            out.line("let instant = core.now")
            out.line("if deadline > core.now { core.now = deadline }")
            out.line("firedAtOnce = core.now == instant ? firedAtOnce + 1 : 1")
            if sendsEvents {
                out.open("if slot < 0")
                    out.line("// A sent event is taken as an event from the log would be.")
                    out.line("let sent = core.sent.remove(at: -1 - slot)")
                    out.open("if firedAtOnce > 10_000")
                        for k in timers.indices { out.line("core.deadline\(k) = .nan") }
                        out.line("core.sent.removeAll()")
                        out.line("return (.rejected(Failure(message: \"sent events were taken 10000 times at t=\\(Self.text(core.now)) without time passing; dropped the pending ones\", line: sent.line, column: sent.column)), sent.event.name)")
                    out.close()
                    out.line("return (send(sent.event, emit: emit), sent.event.name)")
                out.close()
            }
            if timers.isEmpty {
                out.line("return nil  // (no timers: every step due is a sent event's)")
            } else {
                out.line("let outcome = fireTimer(slot, firedAtOnce: firedAtOnce)")
                out.line("if !pending.isEmpty { deliver(emit) }")
                out.line("return (outcome, nil)")
            }
        out.close()
        out.line()
    }
}
