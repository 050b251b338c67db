import StatecraftModel

/// Compiles whole steps to code blocks (see `Program`): for an event in an active state,
/// the candidate transitions' guards in the order they are tried, each followed by its
/// transition as straight-line code; for a timer in an active state; for the start.
///
/// A transition's code depends on the active state it fires from, which fixes the states
/// it exits: `save` of the number variables a failure in the step would have to restore (see
/// `CodeGenerator.variablesToSave(since:)`), then each exited state's
/// exit actions (innermost first) and timer cancelling, the transition's actions, each
/// entered state's entry actions (outermost first) and timer arming, and `fire`.
struct StepCompiler {
    let machine: Machine
    /// Whether each state has `after` transitions (timers that entering it arms and
    /// exiting it cancels).
    private let timerStates: [Bool]
    /// The event transitions of each state, in source order.
    private let bySource: [[Transition]]

    init(machine: Machine) {
        self.machine = machine
        var bySource = Array(repeating: [Transition](), count: machine.states.count)
        var timerStates = Array(repeating: false, count: machine.states.count)
        for t in machine.transitions {
            switch t.trigger {
            case .events: bySource[t.source.index].append(t)
            case .after: timerStates[t.source.index] = true
            case .done, .always: break  // statechart steps (`ChartProgram`)
            }
        }
        self.bySource = bySource
        self.timerStates = timerStates
    }

    /// The block taking event `e` in active state `active`; nil when no transition of the
    /// active states has `e` as trigger.
    func eventBlock(_ e: Event, in active: StateID, _ g: inout CodeGenerator) -> Int32? {
        var candidates: [Transition] = []
        for s in machine.selfAndAncestors(active, upTo: machine.root) {
            for t in bySource[s.index] where t.events.contains(e.id) { candidates.append(t) }
        }
        guard !candidates.isEmpty else { return nil }
        let pc = Int32(g.code.count)
        let fields = e.fields.map(\.name)
        for t in candidates {
            g.fields = fields
            let otherwise = t.guardExpr.map { g.branches(unless: $0) } ?? []
            commit(t, from: active, fields: fields, &g)
            // After a transition that always fires, the rest are never tried.
            if otherwise.isEmpty { return pc }
            g.patch(otherwise)
        }
        g.control(Instruction(.end))
        return pc
    }

    /// The block firing timer transition `t` in active state `active` (`t`'s source or
    /// below it); it ends without firing when the guard is false.
    func timerBlock(_ t: Transition, in active: StateID, _ g: inout CodeGenerator) -> Int32 {
        let pc = Int32(g.code.count)
        g.fields = []
        let otherwise = t.guardExpr.map { g.branches(unless: $0) } ?? []
        commit(t, from: active, fields: [], &g)
        if !otherwise.isEmpty {
            g.patch(otherwise)
            g.control(Instruction(.end))
        }
        return pc
    }

    /// The block entering the initial state (its `fire` names transition 0, which it is
    /// not); -1 when the machine has no initial state.
    func startBlock(_ g: inout CodeGenerator) -> Int32 {
        guard let initial = machine.initialState, initial != machine.root else { return -1 }
        let pc = Int32(g.code.count)
        let path = machine.initialEntrySet
        g.fields = []
        savingWhatAFailureUndoes(&g) { g in
            enter(path, &g)
            g.control(Instruction(.fire, 0, Int32(initial.index), endsRun(initial) ? 1 : 0))
        }
        return pc
    }

    /// Appends the code `body` appends, after the `save` of the variables it writes before
    /// an instruction that may fail (none when a failure cannot follow an assignment): the
    /// body is compiled once to find them, and again after the saves.
    private func savingWhatAFailureUndoes(_ g: inout CodeGenerator, _ body: (inout CodeGenerator) -> Void) {
        let mark = g.mark()
        body(&g)
        let slots = g.variablesToSave(since: mark)
        guard !slots.isEmpty else { return }
        g.truncate(to: mark)
        g.save(slots)
        body(&g)
    }

    /// `t` fired from active state `active`, up to and including its `fire`.
    private func commit(_ t: Transition, from active: StateID, fields: [String], _ g: inout CodeGenerator) {
        var exited: [StateID] = []
        var entered: [StateID] = []
        if t.target != nil {
            // A machine on these blocks has one active leaf, so its configuration is the
            // leaf and its ancestors.
            let configuration = Set(machine.selfAndAncestors(active, upTo: machine.root))
            let never: (StateID) -> [StateID]? = { _ in nil }
            exited = machine.exitSet([t.shape], configuration: configuration, historyValue: never)
            entered = machine.entrySet([t.shape], historyValue: never)
        }
        savingWhatAFailureUndoes(&g) { g in
            g.fields = []
            for s in exited {
                g.inline(machine[s].exit)
                if timerStates[s.index] { g.control(Instruction(.cancelTimers, Int32(s.index))) }
            }
            g.fields = fields
            g.inline(t.actions)
            g.fields = []
            enter(entered, &g)
            let leaf = entered.last
            g.control(Instruction(.fire, Int32(t.id.index), leaf.map { Int32($0.index) } ?? -1,
                                  leaf.map { endsRun($0) ? 1 : 0 } ?? 0))
        }
        g.forgetGuard()  // the guard's values are reused up to here, and no further
    }

    /// Entry actions and timers of `states`, outermost first.
    private func enter(_ states: [StateID], _ g: inout CodeGenerator) {
        for s in states {
            g.inline(machine[s].entry)
            if timerStates[s.index] { g.control(Instruction(.armTimers, Int32(s.index))) }
        }
    }

    /// Whether entering `s` ends the run: a final state directly under the machine.
    private func endsRun(_ s: StateID) -> Bool {
        machine[s].isFinal && machine[s].parent == machine.root
    }
}
