import StatecraftModel

/// The compiled form of a statechart: what `Instance` needs to take SCXML microsteps on
/// integers (see `Instance+Chart.swift`), built from the tree rules once.
///
/// A machine that uses none of the statechart forms (parallel or history states, `done`,
/// `always`, `raise`, `in(x)`, internal transitions) has no chart program: its steps are
/// the straight-line blocks of `Program.dispatch`, one per (active leaf, event). With those
/// forms the active states are a set and a step is a loop of microsteps, so each piece of
/// behaviour is a block of its own (a guard, a transition's actions, a state's entry or
/// exit) and the loop around them follows Appendix D with the tables below.
///
/// Every action block saves the variables it writes (`CodeGenerator.journalledBlock`): a
/// failure in any microstep undoes the whole step.
package final class ChartProgram: @unchecked Sendable {  // immutable; its tables are freed in deinit
    /// A transition as the chart loop tries it: its guard and its actions.
    struct Candidate: Sendable {
        var transition: Int32
        /// -1 when unguarded.
        var guardPC: Int32
        var guardRegister: Int32
        /// -1 when it has no actions.
        var actionsPC: Int32
    }

    /// State kinds as the loop tests them.
    enum Kind: UInt8 { case atomic, compound, parallel, final, history }

    let stateCount: Int
    let eventCount: Int
    let kind: FrozenTable<Kind>
    let parent: FrozenTable<Int32>
    /// The last state of each subtree: the descendants of `s` are `s + 1 ... last[s]`.
    let last: FrozenTable<Int32>
    let initialChild: FrozenTable<Int32>
    /// `initial ->` targets: `initialTargets[initialTargetStart[s] ..< initialTargetStart[s + 1]]`.
    let initialTargetStart: FrozenTable<Int32>
    let initialTargets: FrozenTable<Int32>
    /// Each state's children, history states left out: `children[childStart[s] ..< childStart[s + 1]]`.
    let childStart: FrozenTable<Int32>
    let children: FrozenTable<Int32>
    /// Each state's history states: `histories[historyStart[s] ..< historyStart[s + 1]]`.
    let historyStart: FrozenTable<Int32>
    let histories: FrozenTable<Int32>
    /// History state `h` records into `historyStore[historySlot[h] ..< historySlot[h] + capacity]`
    /// (the size of its parent's subtree); `historyDefaults[defaultStart[h] ..< defaultStart[h + 1]]`
    /// is what it enters when nothing is recorded.
    let historySlot: FrozenTable<Int32>
    let historyStoreSize: Int
    let defaultStart: FrozenTable<Int32>
    let historyDefaults: FrozenTable<Int32>
    let isDeep: FrozenTable<Bool>
    /// Entry and exit blocks, -1 for none.
    let entryPC: FrozenTable<Int32>
    let exitPC: FrozenTable<Int32>
    /// The actions of a compound state's default entry (`initial -> a { … }`) and of a
    /// history state's default (`history state h -> c { … }`), -1 for none.
    let initialPC: FrozenTable<Int32>
    let historyPC: FrozenTable<Int32>
    /// The default entries with actions that the start takes: states, and (parent, history)
    /// pairs.
    let startDefaultInitial: [Int32]
    let startDefaultHistory: [Int32]
    /// Whether a state arms timers when entered.
    let hasTimers: FrozenTable<Bool>

    /// The actions of the event candidate at flat index `k` of `Program.transitions`
    /// (compiled for that event's payload layout).
    let eventActions: FrozenTable<Int32>
    /// Whether state `s` or one of its ancestors has a transition on event `e`:
    /// `hasCandidates[s * eventCount + e]`.
    let hasCandidates: FrozenTable<Bool>
    /// `always` transitions of each state: `eventless[eventlessStart[s] ..< eventlessStart[s + 1]]`.
    let eventlessStart: FrozenTable<Int32>
    let eventless: FrozenTable<Candidate>
    /// Whether state `s` or one of its ancestors has an `always` transition (the loop
    /// after each microstep skips the others at once).
    let hasEventlessChain: FrozenTable<Bool>
    /// Whether an `always` guard reads each variable (by `VariableID` index): a microstep
    /// that changes no state and writes none of these cannot enable an eventless
    /// transition, so the loop does not look for one.
    let eventlessReads: FrozenTable<Bool>
    /// `done` transitions of each state, with the state whose completion they wait for:
    /// `completion[completionStart[s] ..< …]`, `completionOf` aligned with it.
    let completionStart: FrozenTable<Int32>
    let completion: FrozenTable<Candidate>
    let completionOf: FrozenTable<Int32>
    /// The values final state `s` gives its parent's completion, computed as it is entered:
    /// run `doneValuePC[k]`, then the value is in `doneValueRegister[k]`, for `k` in
    /// `doneValueStart[s] ..< doneValueStart[s + 1]` (field order).
    let doneValueStart: FrozenTable<Int32>
    let doneValuePC: FrozenTable<Int32>
    let doneValueRegister: FrozenTable<Register>
    /// The payload registers a `done(x)` transition reads `x`'s completion fields from:
    /// `completionRegisters[completionPayloadStart[x] ..< completionPayloadStart[x + 1]]`.
    let completionPayloadStart: FrozenTable<Int32>
    let completionRegisters: FrozenTable<Register>
    /// The type of each of `completionRegisters`' values, for a trace (a `Bool` is a number there).
    let completionTypes: FrozenTable<ValueType>
    /// Timer `k` (an index of `Program.timers`) as a candidate.
    let timerCandidates: FrozenTable<Candidate>

    /// Each transition's source, target (-1 for none), and whether it is internal.
    let source: FrozenTable<Int32>
    let target: FrozenTable<Int32>
    let isInternal: FrozenTable<Bool>
    /// The transition domain when it does not depend on history (its target is not a
    /// history state); -1 for a targetless transition, -2 when it must be computed.
    let staticDomain: FrozenTable<Int32>
    /// The entry set (entry order) when it does not depend on history:
    /// `entryLists[entryStart[t] ..< entryStart[t + 1]]`; `entryStart[t] == -1` when it must
    /// be computed.
    let entryStart: FrozenTable<Int32>
    let entryEnd: FrozenTable<Int32>
    let entryLists: FrozenTable<Int32>
    /// The states entered at the start, in entry order.
    let startEntry: [Int32]
    /// Whether any state has an `always` or `done` transition (otherwise the loop after a
    /// microstep only looks at the internal queue).
    let hasEventless: Bool
    /// Whether each state is atomic (a leaf of the configuration).
    let isLeaf: FrozenTable<Bool>

    init(_ b: ChartBuilder, relocate: (Register) -> Register) {
        func relocated(_ list: [ChartBuilder.Pending]) -> FrozenTable<Candidate> {
            FrozenTable(list.map { p in
                Candidate(transition: p.transition, guardPC: p.guardPC, guardRegister: relocate(p.guardRegister).index,
                          actionsPC: p.actionsPC)
            })
        }
        stateCount = b.stateCount
        eventCount = b.eventCount
        kind = FrozenTable(b.kind)
        parent = FrozenTable(b.parent)
        last = FrozenTable(b.last)
        initialChild = FrozenTable(b.initialChild)
        initialTargetStart = FrozenTable(b.initialTargetStart)
        initialTargets = FrozenTable(b.initialTargets)
        isLeaf = FrozenTable(b.isLeaf)
        childStart = FrozenTable(b.childStart)
        children = FrozenTable(b.children)
        historyStart = FrozenTable(b.historyStart)
        histories = FrozenTable(b.histories)
        historySlot = FrozenTable(b.historySlot)
        historyStoreSize = b.historyStoreSize
        defaultStart = FrozenTable(b.defaultStart)
        historyDefaults = FrozenTable(b.historyDefaults)
        isDeep = FrozenTable(b.isDeep)
        entryPC = FrozenTable(b.entryPC)
        exitPC = FrozenTable(b.exitPC)
        initialPC = FrozenTable(b.initialPC)
        historyPC = FrozenTable(b.historyPC)
        startDefaultInitial = b.startDefaultInitial
        startDefaultHistory = b.startDefaultHistory
        hasTimers = FrozenTable(b.hasTimers)
        eventActions = FrozenTable(b.eventActions)
        hasCandidates = FrozenTable(b.hasCandidates)
        eventlessStart = FrozenTable(b.eventlessStart)
        eventless = relocated(b.eventless)
        hasEventlessChain = FrozenTable(b.hasEventlessChain)
        eventlessReads = FrozenTable(b.eventlessReads)
        completionStart = FrozenTable(b.completionStart)
        completion = relocated(b.completion)
        completionOf = FrozenTable(b.completionOf)
        doneValueStart = FrozenTable(b.doneValueStart)
        doneValuePC = FrozenTable(b.doneValuePC)
        doneValueRegister = FrozenTable(b.doneValueRegister.map(relocate))
        completionPayloadStart = FrozenTable(b.completionPayloadStart)
        completionRegisters = FrozenTable(b.completionRegisters)
        completionTypes = FrozenTable(b.completionTypes)
        timerCandidates = relocated(b.timers)
        source = FrozenTable(b.source)
        target = FrozenTable(b.target)
        isInternal = FrozenTable(b.isInternal)
        staticDomain = FrozenTable(b.staticDomain)
        entryStart = FrozenTable(b.entryStart)
        entryEnd = FrozenTable(b.entryEnd)
        entryLists = FrozenTable(b.entryLists)
        startEntry = b.startEntry
        hasEventless = b.hasEventless
    }

    /// Whether state `s` is a proper descendant of state `a` (ids in document order).
    @inline(__always)
    func isDescendant(_ s: Int32, of a: Int32) -> Bool {
        s > a && s <= last[Int(a)]
    }

    deinit {
        for table in [kind.free, parent.free, last.free, initialChild.free, initialTargetStart.free, initialTargets.free,
                      childStart.free, children.free,
                      historyStart.free, histories.free, historySlot.free, defaultStart.free, historyDefaults.free,
                      isDeep.free, entryPC.free, exitPC.free, initialPC.free, historyPC.free, hasTimers.free, eventActions.free, hasCandidates.free,
                      eventlessStart.free, eventless.free, hasEventlessChain.free, eventlessReads.free, completionStart.free, completion.free, completionOf.free,
                      doneValueStart.free, doneValuePC.free, doneValueRegister.free, completionPayloadStart.free, completionRegisters.free, completionTypes.free,
                      timerCandidates.free, source.free, target.free, isInternal.free, staticDomain.free, entryStart.free, entryEnd.free,
                      entryLists.free, isLeaf.free] as [() -> Void] {
            table()
        }
    }
}
