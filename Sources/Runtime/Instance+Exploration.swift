import StatecraftModel

/// What distinguishes one instance from another for exploring the state space: the active
/// configuration, the variables, what history states recorded and the armed timers (as time
/// left, so snapshots taken at different times compare equal when they behave the same from
/// then on).
public struct Snapshot: Hashable, Sendable {
    public var configuration: Configuration
    /// What each history state recorded (nil where its parent was never exited), for a
    /// statechart; empty for a flat machine.
    public var history: [[StateID]?]
    public var variables: [Value]
    /// Each armed timer: its state, its index among that state's timers, the time left.
    public var timers: [Timer]
    /// Each pending event the machine sent itself, in the order it comes due.
    public var sent: [Sent]
    public var isFinished: Bool

    /// An armed timer in a snapshot.
    public struct Timer: Hashable, Sendable {
        public var state: StateID
        public var index: Int
        public var remaining: Double
    }

    /// A pending sent event in a snapshot.
    public struct Sent: Hashable, Sendable {
        public var event: EventID
        public var payload: [Value]
        public var remaining: Double
    }
}

extension Program {
    /// Whether the program steps as a statechart (SCXML macrosteps over a configuration):
    /// the machine uses parallel or history states, completion, eventless transitions,
    /// `raise`, `in(x)` or internal transitions.
    public var isStatechart: Bool { chart != nil }
}

extension Instance {
    /// What each history state recorded, by state index (nil for states that are not
    /// history states, or whose parent was never exited); empty for a flat machine.
    public var historyValues: [[StateID]?] {
        guard let run = chartRun, let chart = program.chart else { return [] }
        return (0..<chart.stateCount).map { h -> [StateID]? in
            guard run.historyCount[h] >= 0 else { return nil }
            let slot = Int(chart.historySlot[h])
            return (0..<Int(run.historyCount[h])).map { StateID(Int(run.history[slot + $0])) }
        }
    }

    /// The instance as exploration tells instances apart.
    public var snapshot: Snapshot {
        let timers = pending.elements.filter { $0.event < 0 }
            .sorted { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
            .map { Snapshot.Timer(state: StateID(Int($0.state)), index: Int($0.timer - program.timerGroups[Int($0.state)]),
                                       remaining: $0.deadline - now) }
        return Snapshot(configuration: configuration, history: historyValues, variables: variables, timers: timers,
                        sent: pendingSent.map { Snapshot.Sent(event: $0.event, payload: $0.payload, remaining: $0.remaining) },
                        isFinished: isFinished)
    }

    /// Where this instance's statechart steps record their microsteps (every transition
    /// taken, every state entered, including eventless transitions, completions and raised
    /// events); nil records nothing. Copies of the instance share the log, which holds only
    /// the last step: read it right after each step. A flat machine's steps record nothing.
    public var microsteps: MicrostepLog? {
        get { microstepLog }
        set { microstepLog = newValue }
    }

    /// For each active atomic state (in document order), the transitions of it and its
    /// ancestors, innermost first, whose guards hold for `event` with `payload`: the first of
    /// each chain is what SCXML's selection picks for that state. A guard that fails to
    /// evaluate ends its chain (the runtime rejects the event there). Nothing changes.
    public func enabledChains(_ event: EventID, payload: [Value]) -> [[TransitionID]] {
        guard !isFinished else { return [] }
        let machine = program.machine
        var copy = self
        copy.loadPayload(event.index, payload)  // copies the registers: this instance stays as it is
        // A flat machine's one leaf is `state`, and `activeStates` its chain.
        guard chartRun != nil else { return [copy.enabledChain(activeStates, event)] }
        return configuration.atomicStates(in: machine).map { leaf in
            copy.enabledChain([leaf] + machine.properAncestors(leaf, upTo: machine.root), event)
        }
    }

    /// The transitions whose guards hold for `event` with `payload` in the active states, in
    /// the order they would be tried (the first is the one `send` would fire). A guard that
    /// fails to evaluate ends the list: the runtime rejects the event there, so the
    /// transitions after it are never tried. Nothing changes.
    public func enabledTransitions(_ event: EventID, payload: [Value]) -> [TransitionID] {
        guard !isFinished else { return [] }
        var copy = self
        copy.loadPayload(event.index, payload)  // copies the registers: this instance stays as it is
        return copy.enabledChain(activeStates, event)
    }

    /// The transitions of `states` (innermost first) on `event` whose guards hold, with the
    /// payload already in the registers; a guard that fails ends the chain.
    private mutating func enabledChain(_ states: [StateID], _ event: EventID) -> [TransitionID] {
        var enabled: [TransitionID] = []
        for source in states {
            for k in program.group(source.index, event.index) {
                let t = program.transitions[k]
                if t.guardPC >= 0 {
                    guard (try? execute(t.guardPC)) != nil else { return enabled }
                    guard registers.numbers[Int(t.guardRegister)] != 0 else { continue }
                }
                enabled.append(t.id)
            }
        }
        return enabled
    }
}
