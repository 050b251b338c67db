import StatecraftModel

/// Compiles a statechart's blocks and tables (see `ChartProgram`) while the program's code
/// is being generated; `ChartProgram.init` freezes them once registers are relocated.
struct ChartBuilder {
    /// A candidate whose guard register is not relocated yet.
    struct Pending {
        var transition: Int32
        var guardPC: Int32
        var guardRegister: Register
        var actionsPC: Int32
    }

    /// Whether `machine` needs statechart steps: it uses a form the straight-line blocks of
    /// `Program.dispatch` cannot express (more than one active leaf, history, completion,
    /// eventless transitions, the internal queue, `in(x)`, internal transitions).
    static func isNeeded(for machine: Machine) -> Bool { machine.firstStatechartConstruct != nil }

    let stateCount: Int
    let eventCount: Int
    var kind: [ChartProgram.Kind] = []
    var parent: [Int32] = []
    var last: [Int32] = []
    var initialChild: [Int32] = []
    /// Each compound state's `initial ->` targets (none: its initial child):
    /// `initialTargets[initialTargetStart[s] ..< initialTargetStart[s + 1]]`.
    var initialTargetStart: [Int32] = [0]
    var initialTargets: [Int32] = []
    var isLeaf: [Bool] = []
    var childStart: [Int32] = [0], children: [Int32] = []
    var historyStart: [Int32] = [0], histories: [Int32] = []
    var historySlot: [Int32] = []
    var historyStoreSize = 0
    var defaultStart: [Int32] = [0], historyDefaults: [Int32] = []
    var isDeep: [Bool] = []
    var entryPC: [Int32] = []
    var exitPC: [Int32] = []
    var initialPC: [Int32] = []
    var historyPC: [Int32] = []
    var startDefaultInitial: [Int32] = []
    var startDefaultHistory: [Int32] = []
    var hasTimers: [Bool] = []
    var eventActions: [Int32] = []
    var hasCandidates: [Bool] = []
    var eventlessStart: [Int32] = [0], eventless: [Pending] = []
    var hasEventlessChain: [Bool] = []
    var eventlessReads: [Bool] = []
    var completionStart: [Int32] = [0], completion: [Pending] = [], completionOf: [Int32] = []
    /// The values each final state gives its parent's completion (`final state f(code: 200)`):
    /// a block per value and the register holding it once the block has run,
    /// `doneValuePC/doneValueRegister[doneValueStart[s] ..< doneValueStart[s + 1]]`.
    var doneValueStart: [Int32] = [0], doneValuePC: [Int32] = [], doneValueRegister: [Register] = []
    /// Where a `done(x)` transition reads the fields of `x`'s completion (its payload
    /// registers, in field order): `completionRegisters[completionPayloadStart[x] ..< …]`.
    var completionPayloadStart: [Int32] = [0], completionRegisters: [Register] = []
    /// The type of each of `completionRegisters` (a `Bool` is held as a number).
    var completionTypes: [ValueType] = []
    var timers: [Pending] = []
    var source: [Int32] = []
    var target: [Int32] = []
    var isInternal: [Bool] = []
    var staticDomain: [Int32] = []
    var entryStart: [Int32] = [], entryEnd: [Int32] = [], entryLists: [Int32] = []
    var startEntry: [Int32] = []
    var hasEventless = false

    /// Compiles the blocks into `g`. `groups` are the event candidates of each (state,
    /// event) in the order `Program.transitions` lists them; timers in `Program.timers`
    /// order.
    init(machine: Machine, groups: [[Program.CompiledTransition]], timerOrder: [TransitionID], _ g: inout CodeGenerator) {
        let n = machine.states.count
        stateCount = n
        eventCount = machine.events.count
        kind = machine.states.map { s in
            switch s.kind {
            case .atomic: .atomic
            case .compound: .compound
            case .parallel: .parallel
            case .final: .final
            case .history: .history
            }
        }
        parent = machine.states.map { Int32($0.parent?.index ?? -1) }
        last = machine.states.map { Int32(machine.lastDescendant($0.id).index) }
        initialChild = machine.states.map { s in
            Int32(machine.defaultChild(s.id)?.index ?? -1)
        }
        isLeaf = machine.states.map { machine.isAtomic($0.id) }
        for s in machine.states {
            initialTargets += s.initialTargets.map { Int32($0.index) }
            initialTargetStart.append(Int32(initialTargets.count))
        }
        for s in machine.states {
            children += machine.childStates(s.id).map { Int32($0.index) }
            childStart.append(Int32(children.count))
            histories += machine.historyStates(s.id).map { Int32($0.index) }
            historyStart.append(Int32(histories.count))
            historySlot.append(Int32(historyStoreSize))
            if s.isHistory, let p = s.parent {
                historyStoreSize += machine.lastDescendant(p).index - p.index
                historyDefaults += machine.historyDefaultTargets(s.id).map { Int32($0.index) }
            }
            defaultStart.append(Int32(historyDefaults.count))
        }
        isDeep = machine.states.map(\.isDeepHistory)
        entryPC = machine.states.map { g.journalledBlock($0.entry, fields: []) }
        exitPC = machine.states.map { g.journalledBlock($0.exit, fields: []) }
        initialPC = machine.states.map { g.journalledBlock($0.initialActions, fields: []) }
        historyPC = machine.states.map { g.journalledBlock($0.historyActions, fields: []) }
        hasTimers = Array(repeating: false, count: n)
        for t in machine.transitions { if case .after = t.trigger { hasTimers[t.source.index] = true } }

        // Selection.
        for (k, list) in groups.enumerated() {
            let fields = eventCount > 0 ? machine.events[k % eventCount].fields.map(\.name) : []
            for c in list { eventActions.append(g.journalledBlock(machine[c.id].actions, fields: fields)) }
        }
        hasCandidates = Array(repeating: false, count: n * eventCount)
        for s in machine.states where s.id != machine.root {
            for e in 0..<eventCount {
                hasCandidates[s.id.index * eventCount + e] =
                    machine.selfAndAncestors(s.id).contains { !groups[$0.index * eventCount + e].isEmpty }
            }
        }
        // A `done(x)` transition reads `x`'s completion fields as an event transition reads
        // its payload: from the payload registers, where the completion's values are loaded
        // when it is taken off the internal queue.
        func pending(_ t: Transition) -> Pending {
            var fields: [String] = []
            if case .done(let x) = t.trigger { fields = machine.completionFields(x).map(\.name) }
            g.fields = fields
            let guardBlock = t.guardExpr.map { g.block($0) }
            return Pending(transition: Int32(t.id.index), guardPC: guardBlock?.pc ?? -1,
                           guardRegister: guardBlock?.result ?? Register(file: .number, index: 0),
                           actionsPC: g.journalledBlock(t.actions, fields: fields))
        }
        for s in machine.states {
            g.fields = []
            for field in s.doneData {
                let b = g.block(field.value)
                doneValuePC.append(b.pc)
                doneValueRegister.append(b.result)
            }
            doneValueStart.append(Int32(doneValuePC.count))
            for (k, field) in machine.completionFields(s.id).enumerated() {
                completionRegisters.append(Register(file: field.type == .string ? .string : .number, index: g.payloadBase + Int32(k)))
                completionTypes.append(field.type)
            }
            completionPayloadStart.append(Int32(completionRegisters.count))
        }
        for s in machine.states {
            for id in s.transitions {
                switch machine[id].trigger {
                case .always: eventless.append(pending(machine[id]))
                case .done(let x):
                    completion.append(pending(machine[id]))
                    completionOf.append(Int32(x.index))
                case .events, .after: break
                }
            }
            eventlessStart.append(Int32(eventless.count))
            completionStart.append(Int32(completion.count))
        }
        hasEventless = !eventless.isEmpty || !completion.isEmpty
        eventlessReads = Array(repeating: false, count: machine.variables.count)
        for t in machine.transitions where t.trigger == .always {
            t.guardExpr?.visit { if case .variable(let v) = $0.kind { eventlessReads[v.index] = true } }
        }
        hasEventlessChain = machine.states.map { s in
            machine.selfAndAncestors(s.id).contains { eventlessStart[$0.index + 1] > eventlessStart[$0.index] }
        }
        timers = timerOrder.map { pending(machine[$0]) }

        // Where transitions go.
        let never: (StateID) -> [StateID]? = { _ in nil }
        for t in machine.transitions {
            source.append(Int32(t.source.index))
            target.append(Int32(t.target?.index ?? -1))
            isInternal.append(t.isInternal)
            guard let to = t.target else {
                staticDomain.append(-1)
                entryStart.append(0)
                entryEnd.append(0)
                continue
            }
            if machine[to].isHistory {
                staticDomain.append(-2)
                entryStart.append(-1)
                entryEnd.append(-1)
                continue
            }
            staticDomain.append(Int32(machine.transitionDomain(t.shape, historyValue: never)?.index ?? -1))
            // A default entry may pass through a history state (`initial -> h`): then what
            // it enters depends on what was recorded, and is worked out when it is taken.
            var readsHistory = false
            var defaults = DefaultEntries()
            let entry = machine.entrySet([t.shape], historyValue: { _ in
                readsHistory = true
                return nil
            }, defaults: &defaults)
            // A default entry with actions is marked while the entry set is worked out.
            let hasDefaultActions = defaults.initial.contains { !machine[$0].initialActions.isEmpty }
                || defaults.history.values.contains { !machine[$0].historyActions.isEmpty }
            if readsHistory || hasDefaultActions {
                entryStart.append(-1)
                entryEnd.append(-1)
                continue
            }
            entryStart.append(Int32(entryLists.count))
            entryLists += entry.map { Int32($0.index) }
            entryEnd.append(Int32(entryLists.count))
        }
        let start = machine.initialEntry
        startEntry = start.states.map { Int32($0.index) }
        startDefaultInitial = start.defaults.initial.filter { !machine[$0].initialActions.isEmpty }.map { Int32($0.index) }
        for (parent, h) in start.defaults.history where !machine[h].historyActions.isEmpty {
            startDefaultHistory += [Int32(parent.index), Int32(h.index)]
        }
    }
}
