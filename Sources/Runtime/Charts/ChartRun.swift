import StatecraftModel

/// The part of a running statechart that a flat machine keeps in one `StateID`: the active
/// states, what history states recorded, the internal queue, and the storage a step works
/// in (kept between steps, so a step allocates nothing once the lists have grown).
///
/// A class so that copying an `Instance` (exploration branches on copies) is cheap;
/// `Instance.makeChartUnique` copies it before a shared one would change, as
/// `RegisterFile` is copied.
final class ChartRun: @unchecked Sendable {
    /// Whether each state is active (what `in(x)` reads).
    @exclusivity(unchecked) var active: [Bool]
    /// The active states in document order.
    @exclusivity(unchecked) var list = ReusableList<Int32>()
    /// History store (see `ChartProgram.historySlot`) and, per history state, how many
    /// states it recorded (-1: its parent was never exited).
    @exclusivity(unchecked) var history: [Int32]
    @exclusivity(unchecked) var historyCount: [Int32]

    /// The internal queue: an event index, or `-1 - s` for the completion of state `s`;
    /// a raised event's payload is `queueNumbers/queueStrings[queueStart[k] ...]`, one slot
    /// per field.
    @exclusivity(unchecked) var queue = ReusableList<Int32>()
    @exclusivity(unchecked) var queueStart = ReusableList<Int32>()
    @exclusivity(unchecked) var queueNumbers = ReusableList<Double>()
    @exclusivity(unchecked) var queueStrings = ReusableList<String>()
    var queueHead = 0

    /// The transitions of the microstep being taken, with the action block each runs.
    @exclusivity(unchecked) var enabled = ReusableList<Int32>()
    @exclusivity(unchecked) var enabledActions = ReusableList<Int32>()
    /// Their transition domains, as the exit set is computed.
    @exclusivity(unchecked) var domains = ReusableList<Int32>()
    /// Scratch lists: the exit set, the entry set, and the merged configuration.
    @exclusivity(unchecked) var exits = ReusableList<Int32>()
    @exclusivity(unchecked) var entering = ReusableList<Int32>()
    @exclusivity(unchecked) var merged = ReusableList<Int32>()
    /// Marks of states in `entering`, while an entry set is computed.
    @exclusivity(unchecked) var marked: [Bool]
    /// How many microsteps the current step has taken.
    var microsteps = 0

    /// What a failed step restores: the configuration and the history as they were before
    /// the step first changed them.
    @exclusivity(unchecked) var savedList = ReusableList<Int32>()
    var listSaved = false
    @exclusivity(unchecked) var savedHistory: [Int32] = []
    @exclusivity(unchecked) var savedHistoryCount: [Int32] = []
    var historySaved = false

    init(_ chart: ChartProgram) {
        active = Array(repeating: false, count: chart.stateCount)
        marked = Array(repeating: false, count: chart.stateCount)
        history = Array(repeating: 0, count: chart.historyStoreSize)
        historyCount = Array(repeating: -1, count: chart.stateCount)
    }

    private init(copying other: ChartRun) {
        active = other.active
        list = other.list
        history = other.history
        historyCount = other.historyCount
        queue = other.queue
        queueStart = other.queueStart
        queueNumbers = other.queueNumbers
        queueStrings = other.queueStrings
        queueHead = other.queueHead
        marked = other.marked
    }

    /// A copy with the same configuration, history and queue.
    func copy() -> ChartRun { ChartRun(copying: self) }

    /// Forgets the previous step's queue and saved state.
    @inline(__always)
    func beginStep() {
        queue.removeAll()
        queueStart.removeAll()
        queueNumbers.removeAll()
        queueStrings.removeAll()
        queueHead = 0
        microsteps = 0
        listSaved = false
        historySaved = false
    }

    /// Saves the configuration before the step first changes it.
    @inline(__always)
    func saveList() {
        guard !listSaved else { return }
        savedList.replace(with: list)
        listSaved = true
    }

    /// Saves the history before the step first records into it.
    func saveHistory() {
        guard !historySaved else { return }
        savedHistory = history
        savedHistoryCount = historyCount
        historySaved = true
    }

    /// Undoes the current step's changes to the configuration, history and queue.
    func rollBack() {
        if listSaved {
            for k in 0..<list.count { active[Int(list[k])] = false }
            list.replace(with: savedList)
            for k in 0..<list.count { active[Int(list[k])] = true }
            listSaved = false
        }
        if historySaved {
            swap(&history, &savedHistory)
            swap(&historyCount, &savedHistoryCount)
            historySaved = false
        }
        queue.removeAll()
        queueHead = 0
    }

    /// The active states, in document order.
    var configuration: [StateID] { (0..<list.count).map { StateID(Int(list[$0])) } }
}
