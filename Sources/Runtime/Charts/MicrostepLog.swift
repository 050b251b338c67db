import StatecraftModel

/// What the microsteps of a statechart's step did, recorded by `Instance` when it is given a
/// log (the replayer gives one for coverage and traces): for each microstep, what triggered
/// it, the transitions it took, the states it exited (in exit order) and entered (in entry
/// order), and for a completion the values its final state gave. Flat storage, emptied per
/// step and reused, so recording allocates nothing once it has grown.
public final class MicrostepLog: @unchecked Sendable {  // owned by one replay run at a time
    /// What started a microstep.
    public enum Trigger: Sendable, Equatable {
        /// The step's own event (the log line's).
        case event(EventID)
        /// A timer: its `after` transition.
        case timer(TransitionID)
        /// An event an action raised.
        case raised(EventID)
        /// The completion of a state (`done.state.x`).
        case completion(StateID)
        /// Eventless transitions.
        case eventless
        /// Entering the initial configuration.
        case start
    }

    /// What started a microstep, without its id (`Entry.subject` holds that).
    enum Kind: UInt8 { case event, timer, raised, completion, eventless, start }

    /// One microstep, as positions in the log's flat storage.
    struct Entry {
        var kind: Kind
        var subject: Int32
        var transitionsEnd: Int32
        var exitedEnd: Int32
        var enteredEnd: Int32
        /// The end of its values in `values` (which start where the last entry's end).
        var valuesEnd: Int32
    }

    @exclusivity(unchecked) private(set) var entries = RawList<Entry>(capacity: 8)
    @exclusivity(unchecked) private(set) var ids = IntList(capacity: 32)
    /// The values of completions, in field order, microstep after microstep: noted
    /// (`noteValue`) before the microstep they start is recorded.
    private(set) var values: [Value] = []

    /// An empty log.
    public init() {}

    deinit {
        entries.free()
        ids.free()
    }

    /// How many microsteps the last step took.
    public var count: Int { entries.count }

    /// Forgets the last step's microsteps.
    func removeAll() {
        entries.removeAll()
        ids.removeAll()
        values.removeAll(keepingCapacity: true)
    }

    /// Notes a value of the completion whose microstep is recorded next (`record` or
    /// `recordLost`), in field order.
    func noteValue(_ value: Value) {
        values.append(value)
    }

    /// Records a microstep: its trigger (a kind, and the event, timer transition or state
    /// it names; -1 for none), the transitions, the exit set, the entry set.
    func record(kind: Kind, subject: Int32, transitions: IntList, exited: IntList, entered: IntList) {
        for k in 0..<transitions.count { ids.append(transitions[k]) }
        let transitionsEnd = Int32(ids.count)
        for k in 0..<exited.count { ids.append(exited[k]) }
        let exitedEnd = Int32(ids.count)
        for k in 0..<entered.count { ids.append(entered[k]) }
        entries.append(Entry(kind: kind, subject: subject, transitionsEnd: transitionsEnd, exitedEnd: exitedEnd,
                             enteredEnd: Int32(ids.count), valuesEnd: Int32(values.count)))
    }

    /// Records a raised event or a completion (`kind` `.raised` or `.completion`) that no
    /// transition took: an entry with no transitions and no states, which traces show as
    /// lost rather than leaving it out.
    func recordLost(kind: Kind, subject: Int32) {
        let end = Int32(ids.count)
        entries.append(Entry(kind: kind, subject: subject, transitionsEnd: end, exitedEnd: end, enteredEnd: end,
                             valuesEnd: Int32(values.count)))
    }

    /// Where microstep `k`'s lists start in `ids`.
    private func start(_ k: Int) -> Int { k == 0 ? 0 : Int(entries[k - 1].enteredEnd) }

    /// Microstep `k`'s trigger.
    public func trigger(_ k: Int) -> Trigger {
        let e = entries[k]
        let id = Int(e.subject)
        switch e.kind {
        case .event: return .event(EventID(id))
        case .timer: return .timer(TransitionID(id))
        case .raised: return .raised(EventID(id))
        case .completion: return .completion(StateID(id))
        case .eventless: return .eventless
        case .start: return .start
        }
    }

    /// The values microstep `k`'s completion carries (its final state's, in field order);
    /// empty for another trigger, or a completion without values.
    package func values(_ k: Int) -> ArraySlice<Value> {
        values[(k == 0 ? 0 : Int(entries[k - 1].valuesEnd))..<Int(entries[k].valuesEnd)]
    }

    /// The transitions microstep `k` took, in the order their actions ran.
    public func transitions(_ k: Int) -> [TransitionID] {
        (start(k)..<Int(entries[k].transitionsEnd)).map { TransitionID(Int(ids[$0])) }
    }

    /// The states microstep `k` exited, in exit order.
    public func exited(_ k: Int) -> [StateID] {
        (Int(entries[k].transitionsEnd)..<Int(entries[k].exitedEnd)).map { StateID(Int(ids[$0])) }
    }

    /// The states microstep `k` entered, in entry order.
    public func entered(_ k: Int) -> [StateID] {
        (Int(entries[k].exitedEnd)..<Int(entries[k].enteredEnd)).map { StateID(Int(ids[$0])) }
    }

    /// Every transition the last step took, in the order they were taken (for analyses
    /// that count `done`, `always` and raised-event transitions as reached).
    public var takenTransitions: [TransitionID] {
        var result: [TransitionID] = []
        forEachTransition { result.append(TransitionID($0)) }
        return result
    }

    /// Every state the last step entered, in the order entered (a state left again within
    /// the step still counts).
    public var enteredStates: [StateID] {
        var result: [StateID] = []
        forEachEntered { result.append(StateID($0)) }
        return result
    }

    /// Calls `body` with every transition the last step took (for coverage), without
    /// building arrays.
    package func forEachTransition(_ body: (Int) -> Void) {
        for k in 0..<entries.count {
            for j in start(k)..<Int(entries[k].transitionsEnd) { body(Int(ids[j])) }
        }
    }

    /// Calls `body` with the states each microstep of the last step exited and entered, in order.
    package func forEachMicrostep(_ body: (_ exited: [Int], _ entered: [Int]) -> Void) {
        for k in 0..<entries.count {
            let exited = (Int(entries[k].transitionsEnd)..<Int(entries[k].exitedEnd)).map { Int(ids[$0]) }
            let entered = (Int(entries[k].exitedEnd)..<Int(entries[k].enteredEnd)).map { Int(ids[$0]) }
            body(exited, entered)
        }
    }

    /// The replayer's coverage of the last step, in one call: adds one to
    /// `transitionCounts[t]` for every transition `t` it took, and marks every state it
    /// entered visited, with its ancestors (`parents`, up to the root, index 0, which is
    /// never marked; the walk stops at the first state already marked).
    ///
    /// A loop here, not `forEachTransition`/`forEachEntered` with closures from the replayer:
    /// this class is in another module than the replayer, so those calls are neither inlined
    /// nor specialized there, and cost a closure call per id at every statechart step.
    package func cover(transitionCounts: UnsafeMutableBufferPointer<Int>, visited: UnsafeMutableBufferPointer<Bool>,
                       parents: FrozenTable<Int32>) {
        for k in 0..<entries.count {
            for j in start(k)..<Int(entries[k].transitionsEnd) { transitionCounts[Int(ids[j])] += 1 }
        }
        for k in 0..<entries.count {
            for j in Int(entries[k].exitedEnd)..<Int(entries[k].enteredEnd) {
                for s in ParentChain(parents: parents, from: Int(ids[j]), upTo: 0) {
                    if visited[s] { break }
                    visited[s] = true
                }
            }
        }
    }

    /// Calls `body` with every state the last step entered.
    package func forEachEntered(_ body: (Int) -> Void) {
        for k in 0..<entries.count {
            for j in Int(entries[k].exitedEnd)..<Int(entries[k].enteredEnd) { body(Int(ids[j])) }
        }
    }
}
