import StatecraftModel

/// What distinguishes one instance from another for exploring the state space: the active
/// configuration, the variables, what history states recorded and the armed timers (as time
/// left, so snapshots taken at different times compare equal when they behave the same from
/// then on).
public struct Snapshot: Hashable, Sendable {
    /// The active states, in document order.
    public var configuration: Configuration
    /// What each history state recorded (nil where its parent was never exited), for a
    /// statechart; empty for a flat machine.
    public var history: [[StateID]?]
    /// The variables' values, indexed by ``VariableID``.
    public var variables: [Value]
    /// Each armed timer: its state, its index among that state's timers, the time left.
    public var timers: [Timer]
    /// Each pending event the machine sent itself, in the order it comes due.
    public var sent: [Sent]
    /// Whether the run has ended in a top-level final state.
    public var isFinished: Bool

    /// An armed timer in a snapshot.
    public struct Timer: Hashable, Sendable {
        /// The state that armed the timer.
        public var state: StateID
        /// Which of that state's `after` transitions it is, counting from 0 in source order.
        public var index: Int
        /// The time left until it fires, in seconds.
        public var remaining: Double
    }

    /// A pending sent event in a snapshot.
    public struct Sent: Hashable, Sendable {
        /// The event that will be delivered.
        public var event: EventID
        /// Its payload values, in the order of the event's fields.
        public var payload: [Value]
        /// The time left until it is delivered, in seconds.
        public var remaining: Double
    }
}

/// Numbers for the strings in snapshot keys (`Instance.writeSnapshotKey`), shared by every
/// key one search compares.
package struct SnapshotStrings: Sendable {
    private var numbers: [String: UInt64] = [:]

    /// Creates an empty table, for one search.
    package init() {}

    /// The string's number, if it has one.
    func existingNumber(of string: String) -> UInt64? { numbers[string] }

    /// The string's number, given the first time it is asked for.
    mutating func number(of string: String) -> UInt64 {
        if let n = numbers[string] { return n }
        let n = UInt64(numbers.count)
        numbers[string] = n
        return n
    }
}

extension Program {
    /// The `after` transition of timer `k`, an index in `timers` as
    /// `Instance.armedDeadlines` gives it.
    package func timerTransition(_ k: Int32) -> TransitionID { timers[Int(k)].transition }

    /// Whether the program steps as a statechart (SCXML macrosteps over a configuration):
    /// the machine uses parallel or history states, completion, eventless transitions,
    /// `raise`, `in(x)` or internal transitions.
    public var isStatechart: Bool { chart != nil }
}

extension Instance {
    /// What each history state recorded, by state index (nil for states that are not
    /// history states, or whose parent was never exited); empty for a flat machine.
    package var historyValues: [[StateID]?] {
        guard let run = chartRun, let chart = program.chart else { return [] }
        return (0..<chart.stateCount).map { h -> [StateID]? in
            guard run.historyCount[h] >= 0 else { return nil }
            let slot = Int(chart.historySlot[h])
            return (0..<Int(run.historyCount[h])).map { StateID(Int(run.history[slot + $0])) }
        }
    }

    /// Everything armed to come due: each `after` timer (its state, and its index in
    /// `Program.timers`) and each pending sent event (state and timer -1), with its absolute
    /// deadline, as `advance(to:)` compares it with the clock, and the number it was armed
    /// with (a timer armed again, even for the same deadline, gets a new one).
    package var armedDeadlines: [(deadline: Double, state: Int32, timer: Int32, armed: Int)] {
        pending.elements.map { ($0.deadline, $0.state, $0.event < 0 ? $0.timer : -1, $0.sequence) }
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

    /// Writes the words that identify the instance's `snapshot` into `key` (replacing what
    /// it held): two instances of one program write equal words exactly when their snapshots
    /// are equal. The search keys the configurations it has seen on these words because
    /// building a `Snapshot` allocates a dozen arrays per step tried; `snapshot` stays the
    /// plain reference the tests compare the words with.
    ///
    /// Numbers are written as their bits with -0 made 0 (they compare equal); they are never
    /// NaN at run time (a non-finite result is a fault). Strings are written as their number
    /// in `strings`, so canonically equivalent strings, which are equal, share one.
    ///
    /// `ignoring`, by variable index, leaves variables out of the key, and `ignoringFields`,
    /// by field (every event's fields in a row, as `payloadStart` lays them out), the fields
    /// of pending sent events (a search that knows they never decide anything merges
    /// configurations that differ only in them); empty leaves none out.
    package func writeSnapshotKey(into key: inout [UInt64], strings: inout SnapshotStrings, ignoring: [Bool] = [],
                                 ignoringFields: [Bool] = []) {
        writeKey(into: &key, ignoring: ignoring, ignoringFields: ignoringFields) { strings.number(of: $0) }
    }

    /// `writeSnapshotKey` for a thread that may only read `strings`: false (and `key` not
    /// finished) when the instance holds a string that has no number yet.
    package func writeSnapshotKey(into key: inout [UInt64], knownStrings strings: SnapshotStrings,
                                 ignoring: [Bool] = [], ignoringFields: [Bool] = []) -> Bool {
        var complete = true
        writeKey(into: &key, ignoring: ignoring, ignoringFields: ignoringFields) { string in
            if let n = strings.existingNumber(of: string) { return n }
            complete = false
            return 0
        }
        return complete
    }

    private func writeKey(into key: inout [UInt64], ignoring: [Bool], ignoringFields: [Bool],
                          string stringNumber: (String) -> UInt64) {
        key.removeAll(keepingCapacity: true)
        @inline(__always) func number(_ n: Double) -> UInt64 { n == 0 ? 0 : n.bitPattern }
        // The configuration: a flat machine's follows from its one active state.
        if let run = chartRun, let chart = program.chart {
            key.append(UInt64(run.list.count))
            for k in 0..<run.list.count { key.append(UInt64(UInt32(bitPattern: run.list[k]))) }
            for h in 0..<chart.stateCount {
                let count = run.historyCount[h]
                guard count >= 0 else { continue }
                let slot = Int(chart.historySlot[h])
                key.append(UInt64(h) << 32 | UInt64(count))
                for k in 0..<Int(count) { key.append(UInt64(UInt32(bitPattern: run.history[slot + k]))) }
            }
            key.append(UInt64.max)  // (no history entry has this value: it ends the list)
        } else {
            key.append(UInt64(state.index))
        }
        for (i, type) in program.variableTypes.enumerated() where ignoring.isEmpty || !ignoring[i] {
            key.append(type == .string ? stringNumber(registers.strings[i]) : number(registers.numbers[i]))
        }
        // The timers, then the sent events, each in the order they come due, as `snapshot`
        // lists them: the next is the least (deadline, sequence) after the last written
        // (there are a few at most).
        for sentEvents in [false, true] {
            var last: (Double, Int)?
            while true {
                var next = -1
                for k in 0..<pending.count where (pending[k].event >= 0) == sentEvents {
                    let p = pending[k]
                    if let last, (p.deadline, p.sequence) <= last { continue }
                    if next < 0 || (p.deadline, p.sequence) < (pending[next].deadline, pending[next].sequence) { next = k }
                }
                guard next >= 0 else { break }
                let p = pending[next]
                last = (p.deadline, p.sequence)
                if sentEvents {
                    let event = Int(p.event)
                    key.append(1 << 63 | UInt64(event))
                    let first = Int(program.payloadStart[event])
                    for k in first..<Int(program.payloadStart[event + 1]) where ignoringFields.isEmpty || !ignoringFields[k] {
                        let slot = sentNumbers[Int(p.payload) + k - first]
                        key.append(program.fieldTypes[k] == .string ? stringNumber(sentStrings[Int(slot)]) : number(slot))
                    }
                } else {
                    key.append(UInt64(UInt32(bitPattern: p.state)) << 32
                        | UInt64(UInt32(bitPattern: p.timer - program.timerGroups[Int(p.state)])))
                }
                key.append(number(p.deadline - now))
            }
        }
        key.append(isFinished ? 1 : 0)
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
    package func enabledChains(_ event: EventID, payload: [Value]) -> [[TransitionID]] {
        guard !isFinished else { return [] }
        let machine = program.machine
        var copy = self
        copy.loadPayload(event.index, payload)  // copies the registers: this instance stays as it is
        // A flat machine's one leaf is `state`, and `activeStates`, innermost first, its chain.
        guard chartRun != nil else { return [copy.enabledChain(activeStates.reversed(), event)] }
        return configuration.atomicStates(in: machine).map { leaf in
            copy.enabledChain(machine.selfAndAncestors(leaf, upTo: machine.root), event)
        }
    }

    /// The transitions whose guards hold for `event` with `payload` in the active states, in
    /// the order they would be tried (the first is the one `send` would fire). A guard that
    /// fails to evaluate ends the list: the runtime rejects the event there, so the
    /// transitions after it are never tried. Nothing changes.
    package func enabledTransitions(_ event: EventID, payload: [Value]) -> [TransitionID] {
        guard !isFinished else { return [] }
        var copy = self
        copy.loadPayload(event.index, payload)  // copies the registers: this instance stays as it is
        return copy.enabledChain(activeStates.reversed(), event)
    }

    /// `enabledChains` without a copy: the payload and the guards' temporaries are written
    /// into this instance's own registers (made its own first), which leaves everything
    /// that makes up its `snapshot` as it was. `faulted` says whether some guard failed to
    /// evaluate. With no chain and no fault, `send` would ignore the event: the search asks
    /// this first, and copies the instance to send only when something happens.
    package mutating func probe(_ event: EventID, payload: [Value]) -> (chains: [[TransitionID]], faulted: Bool) {
        guard !isFinished else { return ([], false) }
        loadPayload(event.index, payload)
        var faulted = false
        guard chartRun != nil else {
            let chain = enabledChain(activeStates.reversed(), event, faulted: &faulted)
            return ([chain], faulted)
        }
        let machine = program.machine
        let chains = configuration.atomicStates(in: machine).map { leaf in
            enabledChain(machine.selfAndAncestors(leaf, upTo: machine.root), event, faulted: &faulted)
        }
        return (chains, faulted)
    }

    /// The transitions of `states` (innermost first) on `event` whose guards hold, with the
    /// payload already in the registers; a guard that fails ends the chain (and sets `faulted`).
    private mutating func enabledChain(_ states: some Sequence<StateID>, _ event: EventID) -> [TransitionID] {
        var faulted = false
        return enabledChain(states, event, faulted: &faulted)
    }

    private mutating func enabledChain(_ states: some Sequence<StateID>, _ event: EventID, faulted: inout Bool) -> [TransitionID] {
        var enabled: [TransitionID] = []
        for source in states {
            for k in program.group(source.index, event.index) {
                let t = program.transitions[k]
                if t.guardPC >= 0 {
                    guard (try? execute(t.guardPC)) != nil else {
                        faulted = true
                        return enabled
                    }
                    guard registers.numbers[Int(t.guardRegister)] != 0 else { continue }
                }
                enabled.append(t.id)
            }
        }
        return enabled
    }
}
