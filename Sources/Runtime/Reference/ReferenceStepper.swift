import StatecraftDiagnostics
import StatecraftModel

/// A slow, plain interpreter of a checked machine that follows SCXML 1.0's Appendix D
/// ("Algorithm for SCXML Interpretation") step by step, over the model itself: sets of
/// states, the tree rules of `StateTree.swift`, expressions walked as trees.
///
/// It is the meaning of a statechart that `Instance` (compiled, fast) must reproduce: the
/// differential tests run both on the same event tapes and compare configuration,
/// variables, outputs and failures after every step. Keep it obviously correct rather
/// than fast; each function names the procedure of Appendix D it follows.
package struct ReferenceStepper {
    /// An event on the internal queue: a raised event with its payload, or a completion.
    enum InternalEvent {
        case raised(EventID, [Value])
        /// The completion of a state, with the values its final state gave (by field name).
        case done(StateID, [String: Value])
    }

    /// An armed `after` timer, or (with `sent`) an event the machine sent itself: both come
    /// due in one order, deadline then sequence.
    struct PendingTimer {
        var deadline: Double
        var sequence: Int
        var what: What

        enum What {
            /// State `state`'s `after` transition.
            case timer(state: StateID, transition: TransitionID)
            /// An event the machine sent itself.
            case sent(event: EventID, payload: [Value], range: SourceRange)
        }

        var state: StateID? { if case .timer(let s, _) = what { s } else { nil } }
        var sent: (event: EventID, payload: [Value], range: SourceRange)? {
            if case .sent(let e, let p, let r) = what { (e, p, r) } else { nil }
        }
    }

    /// Everything a failed macrostep restores.
    struct Snapshot {
        var configuration: Set<StateID>
        var variables: [Value]
        var history: [StateID: [StateID]]
        var timers: [PendingTimer]
        var sequence: Int
        var isFinished: Bool
    }

    /// How many microsteps one macrostep may take (the Semantics article, "Failures at run time").
    package static let microstepLimit = 10_000
    /// How many timers may fire at one instant (as `Instance`).
    package static let timerLoopLimit = 10_000

    /// The machine it runs.
    package let machine: Machine
    /// The active states.
    package private(set) var configuration: Set<StateID> = []
    /// Whether the run has ended in a top-level final state.
    package private(set) var isFinished = false
    /// The virtual clock, in seconds since the start.
    package private(set) var now: Double = 0
    /// What each history state recorded when its parent was last exited.
    package private(set) var history: [StateID: [StateID]] = [:]
    /// The outputs of the last macrostep, in order.
    package private(set) var outputs: [(OutputID, [Value])] = []
    /// The transitions of the last macrostep, one list per microstep.
    package private(set) var microsteps: [[TransitionID]] = []
    var evaluator: ReferenceEvaluator
    var timers: [PendingTimer] = []
    var sequence = 0
    var internalQueue: [InternalEvent] = []

    /// Creates a stepper that has not started.
    package init(_ machine: Machine) {
        self.machine = machine
        evaluator = ReferenceEvaluator(machine: machine)
    }

    /// The variables, by `VariableID` index.
    package var variables: [Value] { evaluator.variables }

    /// The active states in document order.
    package var activeStates: [StateID] { configuration.sorted() }

    /// The first active atomic state in document order (the root before the start): what
    /// `Step.from` and `Step.to` name, as `Instance.state` does.
    package var leaf: StateID { configuration.sorted().first(where: machine.isAtomic) ?? machine.root }

    // MARK: - Macrosteps

    /// Enters the initial configuration and runs to a stable one (the Semantics article, "Starting").
    package mutating func start() -> Step {
        let step = apply(firstMicrostep: { s throws(ExpressionFault) in
            let initial = s.machine.initialEntry
            try s.enterStates(initial.states, defaults: initial.defaults)
            return .started
        })
        // A machine that cannot enter its initial configuration takes no events (as replay
        // reports it: a rejection at each case's first line).
        if case .failed = step.result { isFinished = true }
        return step
    }

    /// Sends an external event with its payload in field order.
    package mutating func send(_ event: EventID, payload: [Value]) -> Step {
        if isFinished {
            outputs = []
            microsteps = []
            return Step(result: .afterFinal, from: leaf, to: leaf, time: now)
        }
        return apply(event, payload: payload)
    }

    /// The macrostep of an event, from the log or sent by the machine to itself.
    private mutating func apply(_ event: EventID, payload: [Value]) -> Step {
        apply(firstMicrostep: { s throws(ExpressionFault) in
            s.setPayload(event, payload)
            let enabled = try s.selectTransitions { t in t.events.contains(event) }
            guard let first = enabled.first else { return .ignored }
            try s.microstep(enabled)
            return .applied(first)
        })
    }

    /// Fires the earliest timer due at or before `time`, if any, as a macrostep of its
    /// own; nil when none is due. Time moves to its deadline. The step names the timer's
    /// transition (`Step.timer`), or the sent event it took (`Step.sent`).
    package mutating func fireNextTimer(dueBy time: Double, firedAtOnce: inout Int) -> Step? {
        guard !isFinished else { return nil }
        let due = timers.indices.filter { timers[$0].deadline <= time }
        guard let next = due.min(by: { (timers[$0].deadline, timers[$0].sequence) < (timers[$1].deadline, timers[$1].sequence) })
        else { return nil }
        let timer = timers.remove(at: next)
        let instant = now
        now = max(now, timer.deadline)
        firedAtOnce = now == instant ? firedAtOnce + 1 : 1
        var step: Step
        if firedAtOnce > Self.timerLoopLimit {
            timers.removeAll()
            outputs = []
            let fault = switch timer.what {
            case .sent(_, _, let range): ExpressionFault(.sendLoop(limit: Self.timerLoopLimit, time: now), range: range)
            case .timer(_, let transition):
                ExpressionFault(.timerLoop(limit: Self.timerLoopLimit, time: now), range: machine[transition].keywordRange)
            }
            step = Step(result: .failed(fault), from: leaf, to: leaf, time: now)
        } else {
            switch timer.what {
            case .sent(let event, let payload, _):
                // A sent event is taken as an event from the log is.
                step = apply(event, payload: payload)
            case .timer(_, let transition):
                step = apply(firstMicrostep: { s throws(ExpressionFault) in
                    s.evaluator.payload = [:]
                    let t = s.machine[transition]
                    guard try s.guardHolds(t) else { return .ignored }
                    try s.microstep([t.id])
                    return .applied(t.id)
                })
            }
        }
        switch timer.what {
        case .sent(let event, _, _): step.sent = event
        case .timer(_, let transition): step.timer = transition
        }
        return step
    }

    /// Fires every timer due at or before `time`, in deadline order: `onStep` sees each
    /// timer's step and `emit` its outputs first (as `Instance.advance(to:emit:onStep:)`).
    package mutating func advance(to time: Double, emit: (OutputID, [Value]) -> Void = { _, _ in },
                                 onStep: (Step) -> Void = { _ in }) {
        var firedAtOnce = 0
        while let step = fireNextTimer(dueBy: time, firedAtOnce: &firedAtOnce) {
            for (output, arguments) in outputs { emit(output, arguments) }
            onStep(step)
        }
        now = max(now, time)
    }

    /// Applies one macrostep: runs `body` (its first microstep), then completes it
    /// (`completeMacrostep`); a failure anywhere restores everything.
    private mutating func apply(firstMicrostep body: (inout ReferenceStepper) throws(ExpressionFault) -> Step.Result) -> Step {
        let from = leaf
        let before = Snapshot(configuration: configuration, variables: evaluator.variables, history: history,
                              timers: timers, sequence: sequence, isFinished: isFinished)
        outputs = []
        microsteps = []
        internalQueue = []
        evaluator.emitted = []
        evaluator.raised = []
        evaluator.sendEffects = []
        do {
            let result = try body(&self)
            try completeMacrostep()
            outputs = evaluator.emitted
            return Step(result: result, from: from, to: leaf, time: now)
        } catch {
            configuration = before.configuration
            evaluator.variables = before.variables
            history = before.history
            timers = before.timers
            sequence = before.sequence
            isFinished = before.isFinished
            internalQueue = []
            outputs = []
            return Step(result: .failed(error), from: from, to: from, time: now)
        }
    }

    /// Takes eventless transitions, then internal events one at a time, until neither
    /// applies or the run has ended (the inner loop of Appendix D `mainEventLoop`).
    private mutating func completeMacrostep() throws(ExpressionFault) {
        while !isFinished {
            evaluator.payload = [:]
            var enabled = try selectTransitions { t in t.trigger == .always }
            if enabled.isEmpty {
                guard !internalQueue.isEmpty else { return }
                switch internalQueue.removeFirst() {
                case .raised(let event, let payload):
                    setPayload(event, payload)
                    enabled = try selectTransitions { t in t.events.contains(event) }
                case .done(let state, let fields):
                    evaluator.payload = fields
                    enabled = try selectTransitions { t in t.trigger == .done(state) }
                }
            }
            if !enabled.isEmpty { try microstep(enabled) }
        }
    }

    private mutating func setPayload(_ event: EventID, _ payload: [Value]) {
        var fields: [String: Value] = [:]
        for (k, f) in machine[event].fields.enumerated() where k < payload.count { fields[f.name] = payload[k] }
        evaluator.payload = fields
    }

    // MARK: - Selection

    /// Appendix D `selectTransitions` / `selectEventlessTransitions`: for each active
    /// atomic state in document order, the first transition (innermost state first, in the
    /// order written) that `matches` and whose guard holds; then conflicts removed.
    private mutating func selectTransitions(_ matches: (Transition) -> Bool) throws(ExpressionFault) -> [TransitionID] {
        var enabled: [TransitionID] = []
        for atomic in configuration.sorted() where machine.isAtomic(atomic) {
            search: for s in machine.selfAndAncestors(atomic) {
                for id in machine[s].transitions {
                    let t = machine[id]
                    if matches(t), try guardHolds(t) {
                        if !enabled.contains(id) { enabled.append(id) }
                        break search
                    }
                }
            }
        }
        return removeConflictingTransitions(enabled)
    }

    private mutating func guardHolds(_ t: Transition) throws(ExpressionFault) -> Bool {
        evaluator.isActive = { [configuration] s in configuration.contains(s) }
        guard let g = t.guardExpr else { return true }
        return try evaluator.evaluate(g) == .bool(true)
    }

    /// Appendix D `removeConflictingTransitions`: two transitions conflict when their exit
    /// sets intersect; the later one wins only if its source is a descendant of the
    /// earlier one's.
    private func removeConflictingTransitions(_ enabled: [TransitionID]) -> [TransitionID] {
        var filtered: [TransitionID] = []
        for t1 in enabled {
            var preempted = false
            var toRemove: [TransitionID] = []
            let exit1 = Set(exitSet([t1]))
            for t2 in filtered where !exit1.isDisjoint(with: exitSet([t2])) {
                if machine.isDescendant(machine[t1].source, of: machine[t2].source) {
                    toRemove.append(t2)
                } else {
                    preempted = true
                    break
                }
            }
            if !preempted {
                filtered.removeAll { toRemove.contains($0) }
                filtered.append(t1)
            }
        }
        return filtered
    }

    private func exitSet(_ transitions: [TransitionID]) -> [StateID] {
        machine.exitSet(transitions.map { machine[$0].shape }, configuration: configuration,
                        historyValue: { [history] in history[$0] })
    }

    // MARK: - Microsteps

    /// Appendix D `microstep`: exit, the transitions' actions in order, enter.
    private mutating func microstep(_ transitions: [TransitionID]) throws(ExpressionFault) {
        microsteps.append(transitions)
        if microsteps.count > Self.microstepLimit {
            let last = transitions.last.map { machine[$0].keywordRange } ?? machine.nameRange
            throw ExpressionFault(.microstepLimit(limit: Self.microstepLimit), range: last)
        }
        try exitStates(exitSet(transitions))
        for id in transitions { try run(machine[id].actions) }
        // After the exits: a transition to a history state of a state it exits enters
        // what that exit just recorded.
        let recorded = history
        var defaults = DefaultEntries()
        let entering = machine.entrySet(transitions.map { machine[$0].shape }, historyValue: { recorded[$0] }, defaults: &defaults)
        try enterStates(entering, defaults: defaults)
    }

    /// Appendix D `exitStates`: history is recorded for every exited state first, then
    /// each state's exit actions run and its timers are cancelled, children first.
    private mutating func exitStates(_ exits: [StateID]) throws(ExpressionFault) {
        for s in exits {
            for h in machine.historyStates(s) { history[h] = machine.historyToRecord(h, configuration: configuration) }
        }
        for s in exits {
            try run(machine[s].exit)
            timers.removeAll { $0.state == s }
            configuration.remove(s)
        }
    }

    /// Appendix D `enterStates` over the entry set: each state is added, its entry actions run, its timers armed; a final state completes its parent
    /// (and a parallel grandparent whose regions are all complete), or ends the run at the
    /// top level.
    /// The actions of a default entry (`initial -> a { … }`, a history state's default) run
    /// right after the entry actions of the state they belong to.
    private mutating func enterStates(_ entering: [StateID], defaults: DefaultEntries) throws(ExpressionFault) {
        for s in entering {
            configuration.insert(s)
            try run(machine[s].entry)
            try run(defaults.actions(after: s, in: machine))
            try armTimers(of: s)
            guard machine[s].isFinal else { continue }
            if machine[s].parent == machine.root {
                isFinished = true
                timers.removeAll()
            } else {
                for done in machine.completions(enteringFinal: s, configuration: configuration) {
                    // The parent's completion carries the final state's values, computed
                    // now (after its entry actions); a parallel state's carries none.
                    var fields: [String: Value] = [:]
                    if done == machine[s].parent {
                        evaluator.isActive = { [configuration] s in configuration.contains(s) }
                        for field in machine[s].doneData { fields[field.name] = try evaluator.evaluate(field.value) }
                    }
                    internalQueue.append(.done(done, fields))
                }
            }
        }
    }

    private mutating func armTimers(of s: StateID) throws(ExpressionFault) {
        for id in machine[s].transitions {
            guard case .after(let delay) = machine[id].trigger else { continue }
            let saved = evaluator.payload
            evaluator.payload = [:]
            let value = try evaluator.evaluate(delay)
            evaluator.payload = saved
            guard case .number(let seconds) = value else { continue }
            sequence += 1
            timers.append(PendingTimer(deadline: now + max(0, seconds), sequence: sequence, what: .timer(state: s, transition: id)))
        }
    }

    private mutating func run(_ actions: [Action]) throws(ExpressionFault) {
        evaluator.isActive = { [configuration] s in configuration.contains(s) }
        evaluator.pendingSent = timers.compactMap { $0.sent?.event }
        try evaluator.run(actions)
        for (event, payload) in evaluator.raised { internalQueue.append(.raised(event, payload)) }
        evaluator.raised = []
        for effect in evaluator.sendEffects {
            switch effect {
            case .send(let event, let payload, let delay, let range):
                sequence += 1
                timers.append(PendingTimer(deadline: now + max(0, delay ?? 0), sequence: sequence,
                                           what: .sent(event: event, payload: payload, range: range)))
            case .cancel(let event):
                timers.removeAll { $0.sent?.event == event }
            }
        }
        evaluator.sendEffects = []
    }
}
