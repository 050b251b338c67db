import StatecraftModel

/// The part of a running statechart that a flat machine keeps in one `StateID`: the active
/// states, what history states recorded, the internal queue, and the storage a step works
/// in. Everything is raw storage (`RawList`) sized once, so a step allocates nothing and an
/// element access retains nothing.
///
/// A class so that copying an `Instance` (exploration branches on copies) is cheap;
/// `Instance.makeChartUnique` copies it before a shared one would change, as
/// `RegisterFile` is copied.
final class ChartRun: @unchecked Sendable {  // only ever mutated while uniquely referenced
    /// Whether each state is active (what `in(x)` reads).
    @exclusivity(unchecked) var active: RawList<Bool>
    /// The active states in document order, and the atomic ones among them (where
    /// selection starts).
    @exclusivity(unchecked) var list: IntList
    @exclusivity(unchecked) var leaves: IntList
    /// Where microsteps are recorded, if anyone reads them; owned by the instance
    /// (`Instance.microstepLog`), which outlives this reference.
    unowned(unsafe) var log: MicrostepLog?
    /// History store (see `ChartProgram.historySlot`) and, per history state, how many
    /// states it recorded (-1: its parent was never exited).
    @exclusivity(unchecked) var history: IntList
    @exclusivity(unchecked) var historyCount: IntList

    /// The internal queue: an event index, or `-1 - s` for the completion of state `s`;
    /// a raised event's payload is `queueNumbers/queueStrings[queueStart[k] ...]`, one slot
    /// per field (strings only for string fields, so that list stays empty for most charts).
    @exclusivity(unchecked) var queue: IntList
    @exclusivity(unchecked) var queueStart: IntList
    @exclusivity(unchecked) var queueNumbers: RawList<Double>
    @exclusivity(unchecked) var queueStrings = ReusableList<String>()
    @exclusivity(unchecked) var queueHead = 0

    /// The transitions of the microstep being taken, with the action block each runs and
    /// their domains.
    @exclusivity(unchecked) var enabled: IntList
    @exclusivity(unchecked) var enabledActions: IntList
    @exclusivity(unchecked) var domains: IntList
    /// Scratch lists: the exit set, the entry set, and the merged configuration.
    @exclusivity(unchecked) var exits: IntList
    @exclusivity(unchecked) var entering: IntList
    @exclusivity(unchecked) var merged: IntList
    /// Marks of states in `entering`, while an entry set is computed.
    @exclusivity(unchecked) var marked: RawList<Bool>
    /// The default entries with actions of the entry set (SCXML's `statesForDefaultEntry`
    /// and `defaultHistoryContent`): whether a compound state's `initial -> … { }` runs
    /// after its entry actions, and the history state whose default actions run after a
    /// parent's (-1: none). `defaultsMarked` counts the marks not yet taken, so that a
    /// step that failed halfway leaves none behind.
    @exclusivity(unchecked) var defaultInitial: RawList<Bool>
    @exclusivity(unchecked) var defaultHistory: IntList
    @exclusivity(unchecked) var defaultsMarked = 0
    /// Whether the last microstep may have enabled an eventless transition (it changed the
    /// configuration, or wrote a variable an `always` guard reads).
    @exclusivity(unchecked) var eventlessMayHold = false
    /// How many microsteps the current step has taken.
    @exclusivity(unchecked) var microsteps = 0

    /// What a failed step restores: the configuration and the history as they were before
    /// the step first changed them.
    @exclusivity(unchecked) var savedList: IntList
    @exclusivity(unchecked) var savedLeaves: IntList
    @exclusivity(unchecked) var listSaved = false
    @exclusivity(unchecked) var savedHistory: IntList
    @exclusivity(unchecked) var savedHistoryCount: IntList
    @exclusivity(unchecked) var historySaved = false

    init(_ chart: ChartProgram) {
        let n = chart.stateCount
        active = RawList(repeating: false, count: n)
        marked = RawList(repeating: false, count: n)
        defaultInitial = RawList(repeating: false, count: n)
        defaultHistory = IntList(repeating: -1, count: n)
        list = IntList(capacity: n)
        leaves = IntList(capacity: n)
        history = IntList(repeating: 0, count: chart.historyStoreSize)
        historyCount = IntList(repeating: -1, count: n)
        queue = IntList(capacity: 8)
        queueStart = IntList(capacity: 8)
        queueNumbers = RawList(capacity: 8)
        enabled = IntList(capacity: 8)
        enabledActions = IntList(capacity: 8)
        domains = IntList(capacity: 8)
        exits = IntList(capacity: n)
        entering = IntList(capacity: n)
        merged = IntList(capacity: n)
        savedList = IntList(capacity: n)
        savedLeaves = IntList(capacity: n)
        savedHistory = IntList(repeating: 0, count: chart.historyStoreSize)
        savedHistoryCount = IntList(repeating: -1, count: n)
    }

    private init(copying other: ChartRun) {
        active = other.active.copy()
        marked = other.marked.copy()
        defaultInitial = other.defaultInitial.copy()
        defaultHistory = other.defaultHistory.copy()
        defaultsMarked = other.defaultsMarked
        list = other.list.copy()
        leaves = other.leaves.copy()
        log = other.log
        history = other.history.copy()
        historyCount = other.historyCount.copy()
        queue = other.queue.copy()
        queueStart = other.queueStart.copy()
        queueNumbers = other.queueNumbers.copy()
        queueStrings = other.queueStrings
        queueHead = other.queueHead
        enabled = other.enabled.copy()
        enabledActions = other.enabledActions.copy()
        domains = other.domains.copy()
        exits = other.exits.copy()
        entering = other.entering.copy()
        merged = other.merged.copy()
        savedList = other.savedList.copy()
        savedLeaves = other.savedLeaves.copy()
        savedHistory = other.savedHistory.copy()
        savedHistoryCount = other.savedHistoryCount.copy()
    }

    deinit {
        for list in [list, leaves, history, historyCount, queue, queueStart, enabled, enabledActions, domains, exits, entering,
                     merged, savedList, savedLeaves, savedHistory, savedHistoryCount, defaultHistory] {
            list.free()
        }
        active.free()
        marked.free()
        defaultInitial.free()
        queueNumbers.free()
    }

    /// Takes back the marks of default entries a failed step left (see `defaultsMarked`).
    func clearDefaultEntries() {
        guard defaultsMarked > 0 else { return }
        for k in 0..<defaultInitial.count { defaultInitial[k] = false }
        for k in 0..<defaultHistory.count { defaultHistory[k] = -1 }
        defaultsMarked = 0
    }

    /// A copy with the same configuration, history and queue.
    func copy() -> ChartRun { ChartRun(copying: self) }

    /// Forgets the previous step's queue and saved state.
    @inline(__always)
    func beginStep() {
        queue.removeAll()
        queueStart.removeAll()
        queueNumbers.removeAll()
        if !queueStrings.isEmpty { queueStrings.removeAll() }
        queueHead = 0
        microsteps = 0
        eventlessMayHold = false
        listSaved = false
        historySaved = false
    }

    /// Saves the configuration before the step first changes it.
    @inline(__always)
    func saveList() {
        guard !listSaved else { return }
        savedList.replace(with: list)
        savedLeaves.replace(with: leaves)
        listSaved = true
    }

    /// Saves the history before the step first records into it.
    func saveHistory() {
        guard !historySaved else { return }
        savedHistory.replace(with: history)
        savedHistoryCount.replace(with: historyCount)
        historySaved = true
    }

    /// Undoes the current step's changes to the configuration, history and queue.
    func rollBack() {
        if listSaved {
            // A failure during entries leaves states flagged active that the list does not
            // hold yet (it is merged once every entry has run).
            for k in 0..<entering.count { active[Int(entering[k])] = false }
            for k in 0..<list.count { active[Int(list[k])] = false }
            list.replace(with: savedList)
            for k in 0..<list.count { active[Int(list[k])] = true }
            listSaved = false
            leaves.removeAll()
            for k in 0..<savedLeaves.count { leaves.append(savedLeaves[k]) }
        }
        if historySaved {
            history.replace(with: savedHistory)
            historyCount.replace(with: savedHistoryCount)
            historySaved = false
        }
        queue.removeAll()
        queueHead = 0
    }

    /// The active states, in document order.
    var configuration: [StateID] { (0..<list.count).map { StateID(Int(list[$0])) } }
}
