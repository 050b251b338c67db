import StatecraftDiagnostics
import StatecraftModel

/// What one step of an instance did.
public struct Step: Sendable, Equatable {
    /// The kinds of step.
    public enum Kind: Sendable, Equatable {
        /// The machine entered its initial state.
        case started
        /// A transition fired (an event's, or a timer's).
        case fired(TransitionID)
        /// No transition of the active states takes the event (or every guard was false).
        case ignored
        /// The run already ended in a final state; the event was not looked at.
        case afterFinal
        /// An expression failed (division by zero, …); the step was undone.
        case failed(ExpressionFault)
    }

    public var kind: Kind
    /// The active state before the step.
    public var from: StateID
    /// The active state after it (equal to `from` unless a transition changed it).
    public var to: StateID
    /// The virtual time of the step: a timer's deadline, or the time the event arrived.
    public var time: Double = 0
}

/// One running copy of a machine: the active state, variables, armed timers and virtual time.
///
/// Steps are transactions: an event either applies completely (exit actions, transition
/// actions, entry actions, in that order) or, when an expression fails, not at all.
/// Outputs are delivered only for steps that succeed.
public struct Instance: Sendable {
    /// The compiled machine.
    public let program: Program
    /// The active leaf state.
    public private(set) var state: StateID
    /// Virtual time, in seconds: the latest time the instance was advanced to.
    public private(set) var now: Double = 0
    /// Whether the run ended in a final state.
    public private(set) var isFinished = false

    struct PendingTimer: Sendable {
        var deadline: Double
        var sequence: Int
        var state: StateID
        var index: Int
    }

    var frame: Frame
    var pending: [PendingTimer] = []
    var sequence = 0
    /// Variables as they were before the current step (for undo and for traces).
    /// The armed timers as they were before the current step, saved when the step first
    /// changes them (so a failed step can be undone).
    var pendingBefore: [PendingTimer] = []
    var pendingSaved = false
    var outputs: [(OutputID, [Value])] = []

    /// How many timers may fire at one instant before the instance reports a timer loop.
    static let timerLoopLimit = 10_000

    /// Creates an instance that has not started: call `start` to enter the initial state.
    public init(_ program: Program) {
        self.program = program
        let machine = program.machine
        state = machine.root
        frame = Frame(variables: machine.variables.map(\.initialValue), payload: [],
                      locals: Array(repeating: .number(0), count: program.localSlots))
    }

    /// The current variable values, indexed by `VariableID`.
    public var variables: [Value] { frame.variables }

    /// The value of a variable by name.
    public func value(of name: String) -> Value? {
        program.machine.variables.firstIndex { $0.name == name }.map { frame.variables[$0] }
    }

    /// The variables as they were before the last step.
    public var variablesBeforeLastStep: [Value] {
        var values = frame.variables
        for entry in frame.journal.reversed() { values[entry.slot] = entry.old }
        return values
    }

    /// The active state and its ancestors (not the root), innermost first.
    public var activeStates: [StateID] {
        var result: [StateID] = []
        var current: StateID? = state
        while let s = current, s != program.machine.root {
            result.append(s)
            current = program.machine[s].parent
        }
        return result
    }

    /// Enters the initial state, running its entry actions.
    public mutating func start(emit: (OutputID, [Value]) -> Void = { _, _ in }) -> Step {
        let from = state
        guard !program.initialPath.isEmpty else { return Step(kind: .ignored, from: from, to: from) }
        let path = program.initialPath
        return transaction(from: from, kind: .started, emit: emit) { me throws(ExpressionFault) in
            try me.enter(path: path)
        }
    }

    /// Sends an event with its payload (values in the event's field order).
    public mutating func send(_ event: EventID, payload: [Value], emit: (OutputID, [Value]) -> Void = { _, _ in }) -> Step {
        let from = state
        if isFinished { return Step(kind: .afterFinal, from: from, to: from) }
        frame.payload = payload
        // Let go of the caller's payload afterwards, so the caller can refill its buffer in place.
        defer { frame.payload = Instance.noPayload }
        snapshot()
        var source = state.index
        while source > 0 {
            for t in program.transitions(of: StateID(source), on: event) {
                do {
                    if let g = t.guardCode, try g.evaluate(&frame).bool != true { continue }
                } catch {
                    undo()
                    return Step(kind: .failed(error), from: from, to: from, time: now)
                }
                let owner = StateID(source)
                return transaction(from: from, kind: .fired(t.id), emit: emit, snapshotTaken: true) { me throws(ExpressionFault) in
                    try me.fire(t, source: owner)
                }
            }
            source = program.parents[source]
        }
        return Step(kind: .ignored, from: from, to: from, time: now)
    }

    /// Sends an event by name with its payload by field name; nil if the event is unknown
    /// or the payload does not match its declared fields.
    public mutating func send(_ name: String, _ payload: [String: Value] = [:],
                              emit: (OutputID, [Value]) -> Void = { _, _ in }) -> Step? {
        guard let id = program.event(named: name) else { return nil }
        let fields = program.machine[id].fields
        guard payload.count == fields.count else { return nil }
        var values: [Value] = []
        for field in fields {
            guard let v = payload[field.name], v.type == field.type else { return nil }
            values.append(v)
        }
        return send(id, payload: values, emit: emit)
    }

    /// Moves virtual time forward to `time`, firing every timer due at or before it in
    /// deadline order; `onStep` sees each timer's step and `emit` its outputs. Earlier times
    /// are ignored (time never goes back).
    public mutating func advance(to time: Double, emit: (OutputID, [Value]) -> Void = { _, _ in },
                                 onStep: (Step) -> Void = { _ in }) {
        var firedAtOnce = 0
        var lastInstant = now
        while !isFinished, let next = nextTimer(dueBy: time) {
            let timer = pending.remove(at: next)
            now = max(now, timer.deadline)
            if now == lastInstant {
                firedAtOnce += 1
            } else {
                lastInstant = now
                firedAtOnce = 1
            }
            let from = state
            if firedAtOnce > Instance.timerLoopLimit {
                let range = program.machine[program.timers[timer.state.index][timer.index].transition.id].keywordRange
                pending.removeAll()
                onStep(Step(kind: .failed(ExpressionFault(
                    message: "timers fired \(Instance.timerLoopLimit) times at t=\(Value.number(now)) without time passing; stopped them",
                    range: range)), from: from, to: from, time: now))
                break
            }
            let t = program.timers[timer.state.index][timer.index].transition
            frame.payload = []
            snapshot()
            do {
                if let g = t.guardCode, try g.evaluate(&frame).bool != true {
                    onStep(Step(kind: .ignored, from: from, to: from, time: now))
                    continue
                }
            } catch {
                undo()
                onStep(Step(kind: .failed(error), from: from, to: from, time: now))
                continue
            }
            var step = transaction(from: from, kind: .fired(t.id), emit: emit, snapshotTaken: true) { me throws(ExpressionFault) in
                try me.fire(t, source: timer.state)
            }
            step.time = now
            onStep(step)
        }
        now = max(now, time)
    }

    /// The deadline of the earliest armed timer, if any.
    public var nextDeadline: Double? {
        var earliest: Double?
        for t in pending where earliest.map({ t.deadline < $0 }) ?? true { earliest = t.deadline }
        return earliest
    }

    static let noPayload: [Value] = []

    // MARK: - Steps

    private func nextTimer(dueBy time: Double) -> Int? {
        var best: Int?
        for (i, t) in pending.enumerated() where t.deadline <= time {
            if let b = best, (pending[b].deadline, pending[b].sequence) <= (t.deadline, t.sequence) { continue }
            best = i
        }
        return best
    }

    private mutating func snapshot() {
        frame.journal.removeAll(keepingCapacity: true)
        pendingSaved = false
        outputs.removeAll(keepingCapacity: true)
    }

    /// Saves the armed timers before the step first changes them.
    private mutating func savePending() {
        guard !pendingSaved else { return }
        pendingBefore.removeAll(keepingCapacity: true)
        pendingBefore.append(contentsOf: pending)
        pendingSaved = true
    }

    private mutating func undo() {
        while let entry = frame.journal.popLast() { frame.variables[entry.slot] = entry.old }
        if pendingSaved {
            swap(&pending, &pendingBefore)
            pendingSaved = false
        }
        outputs.removeAll(keepingCapacity: true)
    }

    /// Runs `body` as one step: on success delivers the outputs; on failure restores the
    /// state, variables and timers as they were.
    private mutating func transaction(from: StateID, kind: Step.Kind, emit: (OutputID, [Value]) -> Void,
                                      snapshotTaken: Bool = false,
                                      _ body: (inout Instance) throws(ExpressionFault) -> Void) -> Step {
        if !snapshotTaken { snapshot() }
        let finishedBefore = isFinished
        do {
            try body(&self)
        } catch {
            undo()
            state = from
            isFinished = finishedBefore
            return Step(kind: .failed(error), from: from, to: from)
        }
        for (output, values) in outputs { emit(output, values) }
        outputs.removeAll(keepingCapacity: true)
        return Step(kind: kind, from: from, to: state, time: now)
    }

    private mutating func fire(_ t: Program.CompiledTransition, source: StateID) throws(ExpressionFault) {
        guard t.target != nil else {
            try run(t.actions)
            return
        }
        try exitStates(upTo: t.domain)
        try run(t.actions)
        try enter(path: t.entryPath)
    }

    private mutating func run(_ actions: [CodeAction]) throws(ExpressionFault) {
        var collected = outputs
        outputs = []
        defer { outputs = collected }
        for action in actions {
            try action.run(&frame) { collected.append(($0, $1)) }
        }
    }

    /// Exits the active states below `domain`, innermost first: exit actions run and the
    /// state's timers are cancelled.
    private mutating func exitStates(upTo domain: StateID) throws(ExpressionFault) {
        var s = state.index
        while s > 0 && s != domain.index {
            try run(program.exit[s])
            if !pending.isEmpty {
                savePending()
                pending.removeAll { $0.state.index == s }
            }
            s = program.parents[s]
            state = StateID(max(0, s))
        }
    }

    /// Enters each state of `path` in order: entry actions, then its timers are armed
    /// (their delays are evaluated after the entry actions).
    private mutating func enter(path: [StateID]) throws(ExpressionFault) {
        for s in path {
            state = s
            try run(program.entry[s.index])
            for (index, timer) in program.timers[s.index].enumerated() {
                frame.payload = []
                let delay = try timer.delay.evaluate(&frame).number ?? 0
                sequence += 1
                savePending()
                pending.append(PendingTimer(deadline: now + max(0, delay), sequence: sequence, state: s, index: index))
            }
        }
        if program.endsRun[state.index] {
            isFinished = true
            savePending()
            pending.removeAll()
        }
    }
}
