import StatecraftDiagnostics
import StatecraftModel

// Steps of a statechart (a program with a `ChartProgram`): SCXML 1.0 Appendix D on the
// integer tables of `ChartProgram`, with the state in `ChartRun`. The procedures keep the
// Appendix's names (`selectTransitions`, `microstep`, `exitStates`, `enterStates`,
// `computeEntrySet`); `ReferenceStepper` is the same algorithm written plainly over the
// model, and the differential tests hold this one to it.
//
// One step (an event, a timer, the start) is one macrostep: its first microstep, then
// eventless transitions and internal events until none applies. Everything it changes is
// saved first (registers through their journal, timers, configuration, history), so a
// failure anywhere undoes all of it.

extension Instance {
    /// Whether state `s` is active (`in(s)`).
    func isActive(_ s: Int) -> Bool {
        if let run = chartRun { return run.active[s] }
        var current = state.index
        while current >= 0 {
            if current == s { return true }
            current = Int(program.parents[current])
        }
        return false
    }

    /// Whether state `s` is active now.
    public func isActive(_ s: StateID) -> Bool { isActive(s.index) }

    /// The active states, in document order.
    public var configuration: Configuration {
        if let run = chartRun { return Configuration(sorted: run.configuration) }
        return Configuration(sorted: state == program.machine.root ? [] : activeStates.reversed())
    }

    /// Gives this instance its own `ChartRun` before it changes it.
    @inline(__always)
    mutating func makeChartUnique() {
        if !isKnownUniquelyReferenced(&chartRun) { chartRun = chartRun?.copy() }
    }

    /// Puts raise site `site`'s event and arguments on the internal queue.
    @inline(never)
    mutating func raise(site: Int) {
        guard let run = chartRun else { return }
        run.queue.append(program.raiseEvents[site])
        run.queueStart.append(Int32(run.queueNumbers.count))
        for k in Int(program.raiseStart[site])..<Int(program.raiseStart[site + 1]) {
            let r = program.raiseArguments[k]
            if r.file == .number {
                run.queueNumbers.append(registers.numbers[Int(r.index)])
            } else {
                // A string field's slot holds where the string is in `queueStrings`.
                run.queueNumbers.append(Double(run.queueStrings.count))
                run.queueStrings.append(registers.strings[Int(r.index)])
            }
        }
    }

    // MARK: - Macrosteps

    /// Enters the initial configuration and settles (the start's macrostep).
    mutating func chartStart(_ chart: ChartProgram) throws(ExpressionFault) {
        guard let run = chartRun else { return }
        run.beginStep()
        run.saveList()
        run.entering.removeAll()
        for s in chart.startEntry { run.entering.append(s) }
        if let log = run.log {
            log.removeAll()
            run.enabled.removeAll()
            run.exits.removeAll()
            log.record(kind: 5, subject: -1, transitions: run.enabled, exited: run.exits, entered: run.entering)
        }
        try enterStates(chart, run)
        collectLeaves(chart, run)
        run.eventlessMayHold = true
        try settle(chart, run)
        updateLeaf(run)
    }

    /// Takes external event `event`, whose payload is in its registers: the chart form of
    /// `outcome(of:)`.
    mutating func chartOutcome(of event: Int, _ chart: ChartProgram) -> Outcome {
        let from = Int32(truncatingIfNeeded: state.index)
        if isFinished { return Outcome(kind: .afterFinal, transition: -1, from: from, to: from) }
        makeChartUnique()
        guard let run = chartRun else { return Outcome(kind: .ignored, transition: -1, from: from, to: from) }
        beginStep()
        run.beginStep()
        run.log?.removeAll()
        do {
            guard try selectTransitions(event: event, chart, run) else {
                return Outcome(kind: .ignored, transition: -1, from: from, to: from)
            }
            let first = run.enabled[0]
            try microstep(chart, run, kind: 0, subject: Int32(truncatingIfNeeded: event))
            try settle(chart, run)
            updateLeaf(run)
            return Outcome(kind: .fired, transition: first, from: from, to: Int32(truncatingIfNeeded: state.index))
        } catch {
            run.rollBack()
            run.log?.removeAll()
            fail(error, from: from)
            return Outcome(kind: .failed, transition: -1, from: from, to: from)
        }
    }

    /// Fires timer `k` (an index of `Program.timers`): its guard, then its transition as a
    /// macrostep. The chart form of a timer block.
    mutating func chartFireTimer(_ k: Int, _ chart: ChartProgram) -> TimerStep {
        let from = Int32(truncatingIfNeeded: state.index)
        let candidate = chart.timerCandidates[k]
        makeChartUnique()
        guard let run = chartRun else { return .ignored(candidate.transition) }
        beginStep()
        run.beginStep()
        run.log?.removeAll()
        do {
            if candidate.guardPC >= 0 {
                _ = try execute(candidate.guardPC)
                if registers.numbers[Int(candidate.guardRegister)] == 0 { return .ignored(candidate.transition) }
            }
            run.enabled.removeAll()
            run.enabledActions.removeAll()
            run.enabled.append(candidate.transition)
            run.enabledActions.append(candidate.actionsPC)
            try microstep(chart, run, kind: 1, subject: candidate.transition)
            try settle(chart, run)
            updateLeaf(run)
            return .fired(candidate.transition)
        } catch {
            run.rollBack()
            run.log?.removeAll()
            fail(error, from: from)
            return .failed(error, candidate.transition)
        }
    }

    /// Whether a block run since journal positions `since` and `stringsSince` wrote a
    /// variable that an `always` guard reads (every chart block saves what it writes).
    private func wroteEventlessRead(since: Int, stringsSince: Int, _ chart: ChartProgram) -> Bool {
        for k in since..<registers.journalCount where chart.eventlessReads[Int(registers.journal[k].slot)] { return true }
        for k in stringsSince..<registers.stringJournal.count where chart.eventlessReads[Int(registers.stringJournal[k].slot)] {
            return true
        }
        return false
    }

    /// Eventless transitions, then internal events one at a time, until neither applies or
    /// the run has ended (the inner loop of Appendix D's `mainEventLoop`).
    ///
    /// A step starts from a stable configuration (no eventless transition enabled), so
    /// eventless transitions are looked for only after a microstep that may have enabled
    /// one (`ChartRun.eventlessMayHold`).
    private mutating func settle(_ chart: ChartProgram, _ run: ChartRun) throws(ExpressionFault) {
        while !isFinished {
            var found = false
            if chart.hasEventless && run.eventlessMayHold {
                run.eventlessMayHold = false
                found = try selectEventlessTransitions(chart, run)
            }
            var kind: UInt8 = 4, subject: Int32 = -1
            if !found {
                guard run.queueHead < run.queue.count else { return }
                let item = run.queue[run.queueHead]
                let payload = Int(run.queueStart[run.queueHead])
                run.queueHead += 1
                if item >= 0 {
                    loadQueuedPayload(Int(item), at: payload, run)
                    found = try selectTransitions(event: Int(item), chart, run)
                    (kind, subject) = (2, item)
                } else {
                    found = try selectCompletionTransitions(of: -1 - item, chart, run)
                    (kind, subject) = (3, -1 - item)
                }
            }
            if found { try microstep(chart, run, kind: kind, subject: subject) }
        }
    }

    /// Writes a raised event's queued payload into its registers.
    private mutating func loadQueuedPayload(_ event: Int, at start: Int, _ run: ChartRun) {
        let first = Int(program.payloadStart[event])
        for k in first..<Int(program.payloadStart[event + 1]) {
            let r = program.payloadRegisters[k]
            let slot = run.queueNumbers[start + k - first]
            if r.file == .number {
                registers.numbers[Int(r.index)] = slot
            } else {
                registers.strings[Int(r.index)] = run.queueStrings[Int(slot)]
            }
        }
    }

    /// `state` becomes the first active atomic state (what flat reports show).
    @inline(__always)
    private mutating func updateLeaf(_ run: ChartRun) {
        if run.leaves.count > 0 { state = StateID(Int(run.leaves[0])) }
    }

    // MARK: - Selection

    /// Appendix D `selectTransitions` for an event: for each active atomic state in
    /// document order, the first transition of it or an ancestor (innermost first, in the
    /// order written) on the event whose guard holds; then `removeConflictingTransitions`.
    private mutating func selectTransitions(event: Int, _ chart: ChartProgram, _ run: ChartRun) throws(ExpressionFault) -> Bool {
        run.enabled.removeAll()
        run.enabledActions.removeAll()
        for k in 0..<run.leaves.count {
            let atomic = Int(run.leaves[k])
            guard chart.hasCandidates[atomic * chart.eventCount + event] else { continue }
            var s = atomic
            search: while s > 0 {
                for j in program.group(s, event) {
                    let t = program.transitions[j]
                    if t.guardPC >= 0 {
                        _ = try execute(t.guardPC)
                        if registers.numbers[Int(t.guardRegister)] == 0 { continue }
                    }
                    addEnabled(Int32(t.id.index), actions: chart.eventActions[j], run)
                    break search
                }
                s = Int(chart.parent[s])
            }
        }
        return removeConflictingTransitions(chart, run)
    }

    /// Appendix D `selectEventlessTransitions`.
    private mutating func selectEventlessTransitions(_ chart: ChartProgram, _ run: ChartRun) throws(ExpressionFault) -> Bool {
        try selectCandidates(chart, run, start: chart.eventlessStart, table: chart.eventless, completing: -1)
    }

    /// `selectTransitions` for the completion event of state `x` (`done.state.x`).
    private mutating func selectCompletionTransitions(of x: Int32, _ chart: ChartProgram, _ run: ChartRun) throws(ExpressionFault) -> Bool {
        try selectCandidates(chart, run, start: chart.completionStart, table: chart.completion, completing: x)
    }

    /// Selection over a per-state candidate table (eventless, or completion of `completing`).
    private mutating func selectCandidates(_ chart: ChartProgram, _ run: ChartRun, start: FrozenTable<Int32>,
                                           table: FrozenTable<ChartProgram.Candidate>, completing: Int32) throws(ExpressionFault) -> Bool {
        run.enabled.removeAll()
        run.enabledActions.removeAll()
        for k in 0..<run.leaves.count {
            let atomic = Int(run.leaves[k])
            guard completing >= 0 || chart.hasEventlessChain[atomic] else { continue }
            var s = atomic
            search: while s > 0 {
                for j in Int(start[s])..<Int(start[s + 1]) {
                    if completing >= 0 && chart.completionOf[j] != completing { continue }
                    let c = table[j]
                    if c.guardPC >= 0 {
                        _ = try execute(c.guardPC)
                        if registers.numbers[Int(c.guardRegister)] == 0 { continue }
                    }
                    addEnabled(c.transition, actions: c.actionsPC, run)
                    break search
                }
                s = Int(chart.parent[s])
            }
        }
        return removeConflictingTransitions(chart, run)
    }

    private func addEnabled(_ t: Int32, actions: Int32, _ run: ChartRun) {
        for k in 0..<run.enabled.count where run.enabled[k] == t { return }
        run.enabled.append(t)
        run.enabledActions.append(actions)
    }

    /// Appendix D `removeConflictingTransitions`. Two targeted transitions' exit sets meet
    /// exactly when one domain is the other or inside it (every domain has an active
    /// descendant: the source, or for an internal transition the source's active child);
    /// the later one then wins only if its source is inside the earlier one's.
    private func removeConflictingTransitions(_ chart: ChartProgram, _ run: ChartRun) -> Bool {
        guard run.enabled.count > 1 else { return run.enabled.count == 1 }
        var kept = 0
        for k in 0..<run.enabled.count {
            let t1 = run.enabled[k]
            let d1 = transitionDomain(Int(t1), chart, run)
            var preempted = false
            var j = 0
            // `enabled[0 ..< kept]` is the filtered list so far; removing compacts it.
            while j < kept {
                let t2 = run.enabled[j]
                let d2 = transitionDomain(Int(t2), chart, run)
                if d1 >= 0 && d2 >= 0 && (d1 == d2 || isDescendant(d1, of: d2, chart) || isDescendant(d2, of: d1, chart)) {
                    if isDescendant(chart.source[Int(t1)], of: chart.source[Int(t2)], chart) {
                        for m in j..<(kept - 1) {
                            run.enabled[m] = run.enabled[m + 1]
                            run.enabledActions[m] = run.enabledActions[m + 1]
                        }
                        kept -= 1
                        continue
                    }
                    preempted = true
                    break
                }
                j += 1
            }
            if !preempted {
                let actions = run.enabledActions[k]
                run.enabled[kept] = t1
                run.enabledActions[kept] = actions
                kept += 1
            }
        }
        run.enabled.removeLast(run.enabled.count - kept)
        run.enabledActions.removeLast(run.enabledActions.count - kept)
        return kept > 0
    }

    @inline(__always)
    private func isDescendant(_ s: Int32, of a: Int32, _ chart: ChartProgram) -> Bool {
        s > a && s <= chart.last[Int(a)]
    }

    // MARK: - Where transitions go

    /// Appendix D `getTransitionDomain`: -1 for a targetless transition.
    private func transitionDomain(_ t: Int, _ chart: ChartProgram, _ run: ChartRun) -> Int32 {
        let known = chart.staticDomain[t]
        if known != -2 { return known }
        // The target is a history state: its effective targets are what it recorded, or
        // its default.
        let source = chart.source[t]
        let h = Int(chart.target[t])
        let targets = effectiveTargets(ofHistory: h, chart, run)
        if chart.kind[Int(source)] == .compound && chart.isInternal[t] {
            var inside = true
            for k in 0..<targets.count where !isDescendant(targets.state(k, chart, run), of: source, chart) { inside = false }
            if inside { return source }
        }
        var anc = chart.parent[Int(source)]
        while anc >= 0 {
            if chart.kind[Int(anc)] == .compound {
                var all = true
                for k in 0..<targets.count where !isDescendant(targets.state(k, chart, run), of: anc, chart) { all = false }
                if all { return anc }
            }
            anc = chart.parent[Int(anc)]
        }
        return 0
    }

    /// What history state `h` stands for now: its recording, or its default.
    private func effectiveTargets(ofHistory h: Int, _ chart: ChartProgram, _ run: ChartRun) -> HistoryTargets {
        let recorded = Int(run.historyCount[h])
        if recorded >= 0 { return HistoryTargets(start: Int(chart.historySlot[h]), count: recorded, recorded: true) }
        let start = Int(chart.defaultStart[h])
        return HistoryTargets(start: start, count: Int(chart.defaultStart[h + 1]) - start, recorded: false)
    }

    // MARK: - Microsteps

    /// Appendix D `microstep`: exit the exit set, run the transitions' actions in order,
    /// enter the entry set.
    private mutating func microstep(_ chart: ChartProgram, _ run: ChartRun, kind: UInt8, subject: Int32) throws(ExpressionFault) {
        run.microsteps += 1
        if run.microsteps > ReferenceStepper.microstepLimit {
            let last = program.machine.transitions[Int(run.enabled[run.enabled.count - 1])].keywordRange
            throw ExpressionFault(.microstepLimit(limit: ReferenceStepper.microstepLimit), range: last)
        }
        // A lone targetless transition (the usual way to update a variable) exits and
        // enters nothing.
        if run.enabled.count == 1 && chart.target[Int(run.enabled[0])] < 0 {
            if let log = run.log {
                run.exits.removeAll()
                run.entering.removeAll()
                log.record(kind: kind, subject: subject, transitions: run.enabled, exited: run.exits, entered: run.entering)
            }
            let pc = run.enabledActions[0]
            if pc >= 0 {
                let journalled = registers.journalCount, stringsJournalled = registers.stringJournal.count
                _ = try execute(pc)
                if chart.hasEventless && !run.eventlessMayHold {
                    run.eventlessMayHold = wroteEventlessRead(since: journalled, stringsSince: stringsJournalled, chart)
                }
            }
            return
        }
        run.eventlessMayHold = true
        run.saveList()
        try exitStates(chart, run)
        for k in 0..<run.enabled.count {
            let pc = run.enabledActions[k]
            if pc >= 0 { _ = try execute(pc) }
        }
        computeEntrySet(chart, run)
        run.log?.record(kind: kind, subject: subject, transitions: run.enabled, exited: run.exits, entered: run.entering)
        try enterStates(chart, run)
        collectLeaves(chart, run)
    }

    /// Appendix D `computeExitSet` and `exitStates`: the active descendants of each
    /// transition's domain, children first; history is recorded for all of them before
    /// any exit action runs.
    private mutating func exitStates(_ chart: ChartProgram, _ run: ChartRun) throws(ExpressionFault) {
        run.exits.removeAll()
        run.domains.removeAll()
        for j in 0..<run.enabled.count { run.domains.append(transitionDomain(Int(run.enabled[j]), chart, run)) }
        var k = run.list.count - 1
        while k >= 0 {
            let s = run.list[k]
            for j in 0..<run.domains.count {
                let d = run.domains[j]
                if d >= 0 && isDescendant(s, of: d, chart) {
                    run.exits.append(s)
                    break
                }
            }
            k -= 1
        }
        guard !run.exits.isEmpty else { return }
        for k in 0..<run.exits.count {
            let s = Int(run.exits[k])
            for j in Int(chart.historyStart[s])..<Int(chart.historyStart[s + 1]) {
                recordHistory(Int(chart.histories[j]), parent: Int32(s), chart, run)
            }
        }
        for k in 0..<run.exits.count {
            let s = Int(run.exits[k])
            if chart.exitPC[s] >= 0 { _ = try execute(chart.exitPC[s]) }
            if chart.hasTimers[s] { cancelTimers(of: Int32(s)) }
            run.active[s] = false
        }
        run.list.keep { run.active[Int($0)] }
    }

    /// Records what history state `h` of `parent` (being exited) restores.
    private func recordHistory(_ h: Int, parent: Int32, _ chart: ChartProgram, _ run: ChartRun) {
        run.saveHistory()
        let slot = Int(chart.historySlot[h])
        var n = 0
        for k in 0..<run.list.count {
            let s = run.list[k]
            let recorded = chart.isDeep[h] ? chart.isLeaf[Int(s)] && isDescendant(s, of: parent, chart) : chart.parent[Int(s)] == parent
            if recorded {
                run.history[slot + n] = s
                n += 1
            }
        }
        run.historyCount[h] = Int32(n)
    }

    /// Appendix D `computeEntrySet`, into `run.entering` in entry order: a transition's
    /// static entry set when it has one, else computed with the history as it is now.
    private func computeEntrySet(_ chart: ChartProgram, _ run: ChartRun) {
        run.entering.removeAll()
        if run.enabled.count == 1 {
            let t = Int(run.enabled[0])
            let start = chart.entryStart[t]
            if start >= 0 {
                for k in Int(start)..<Int(chart.entryEnd[t]) { run.entering.append(chart.entryLists[k]) }
                return
            }
        }
        for k in 0..<run.enabled.count {
            let t = Int(run.enabled[k])
            let target = chart.target[t]
            guard target >= 0 else { continue }
            addDescendantStatesToEnter(target, chart, run)
            let domain = transitionDomain(t, chart, run)
            if chart.kind[Int(target)] == .history {
                let targets = effectiveTargets(ofHistory: Int(target), chart, run)
                for j in 0..<targets.count { addAncestorStatesToEnter(targets.state(j, chart, run), upTo: domain, chart, run) }
            } else {
                addAncestorStatesToEnter(target, upTo: domain, chart, run)
            }
        }
        // Entry order is document order: an insertion sort of a short list.
        for k in 0..<run.entering.count {
            run.marked[Int(run.entering[k])] = false
            var j = k
            let s = run.entering[k]
            while j > 0 && run.entering[j - 1] > s {
                run.entering[j] = run.entering[j - 1]
                j -= 1
            }
            run.entering[j] = s
        }
    }

    private func mark(_ s: Int32, _ run: ChartRun) {
        guard !run.marked[Int(s)] else { return }
        run.marked[Int(s)] = true
        run.entering.append(s)
    }

    private func addDescendantStatesToEnter(_ s: Int32, _ chart: ChartProgram, _ run: ChartRun) {
        switch chart.kind[Int(s)] {
        case .history:
            let parent = chart.parent[Int(s)]
            let targets = effectiveTargets(ofHistory: Int(s), chart, run)
            for j in 0..<targets.count { addDescendantStatesToEnter(targets.state(j, chart, run), chart, run) }
            for j in 0..<targets.count { addAncestorStatesToEnter(targets.state(j, chart, run), upTo: parent, chart, run) }
        case .compound:
            mark(s, run)
            let initial = chart.initialChild[Int(s)]
            if initial >= 0 { addDescendantStatesToEnter(initial, chart, run) }
        case .parallel:
            mark(s, run)
            enterUncoveredRegions(of: s, chart, run)
        case .atomic, .final:
            mark(s, run)
        }
    }

    private func addAncestorStatesToEnter(_ s: Int32, upTo ancestor: Int32, _ chart: ChartProgram, _ run: ChartRun) {
        var anc = chart.parent[Int(s)]
        while anc >= 0 && anc != ancestor {
            mark(anc, run)
            if chart.kind[Int(anc)] == .parallel { enterUncoveredRegions(of: anc, chart, run) }
            anc = chart.parent[Int(anc)]
        }
    }

    private func enterUncoveredRegions(of p: Int32, _ chart: ChartProgram, _ run: ChartRun) {
        for k in Int(chart.childStart[Int(p)])..<Int(chart.childStart[Int(p) + 1]) {
            let child = chart.children[k]
            var covered = false
            for j in 0..<run.entering.count {
                let s = run.entering[j]
                if s == child || isDescendant(s, of: child, chart) {
                    covered = true
                    break
                }
            }
            if !covered { addDescendantStatesToEnter(child, chart, run) }
        }
    }

    /// Appendix D `enterStates` over `run.entering`: each state becomes active, runs its
    /// entry actions and arms its timers; a final state queues its parent's completion
    /// (and a parallel grandparent's, when every region is now complete), or at the top
    /// level ends the run.
    private mutating func enterStates(_ chart: ChartProgram, _ run: ChartRun) throws(ExpressionFault) {
        for k in 0..<run.entering.count {
            let s = Int(run.entering[k])
            run.active[s] = true
            if chart.entryPC[s] >= 0 { _ = try execute(chart.entryPC[s]) }
            if chart.hasTimers[s] { try armTimers(of: s) }
            guard chart.kind[s] == .final else { continue }
            let parent = chart.parent[s]
            if parent == 0 {
                endRun()
                continue
            }
            run.queue.append(-1 - parent)
            run.queueStart.append(Int32(run.queueNumbers.count))
            let grandparent = chart.parent[Int(parent)]
            if grandparent >= 0 && chart.kind[Int(grandparent)] == .parallel && isInFinalState(grandparent, chart, run) {
                run.queue.append(-1 - grandparent)
                run.queueStart.append(Int32(run.queueNumbers.count))
            }
        }
        mergeEntered(run)
    }

    /// Appendix D `isInFinalState`.
    private func isInFinalState(_ s: Int32, _ chart: ChartProgram, _ run: ChartRun) -> Bool {
        let first = Int(chart.childStart[Int(s)]), end = Int(chart.childStart[Int(s) + 1])
        switch chart.kind[Int(s)] {
        case .compound:
            for k in first..<end where chart.kind[Int(chart.children[k])] == .final && run.active[Int(chart.children[k])] {
                return true
            }
            return false
        case .parallel:
            for k in first..<end where !isInFinalState(chart.children[k], chart, run) { return false }
            return true
        default:
            return false
        }
    }

    /// Merges the entered states into the configuration list, keeping document order.
    private func mergeEntered(_ run: ChartRun) {
        guard !run.entering.isEmpty else { return }
        run.merged.removeAll()
        var i = 0, j = 0
        while i < run.list.count || j < run.entering.count {
            if j == run.entering.count || (i < run.list.count && run.list[i] < run.entering[j]) {
                run.merged.append(run.list[i])
                i += 1
            } else {
                if i < run.list.count && run.list[i] == run.entering[j] { i += 1 }
                run.merged.append(run.entering[j])
                j += 1
            }
        }
        run.list.replace(with: run.merged)
    }

    /// Rebuilds the list of active atomic states from the configuration.
    private func collectLeaves(_ chart: ChartProgram, _ run: ChartRun) {
        run.leaves.removeAll()
        for k in 0..<run.list.count where chart.isLeaf[Int(run.list[k])] { run.leaves.append(run.list[k]) }
    }
}

/// Where the states a history state stands for are: its recording in `ChartRun.history`,
/// or its default in `ChartProgram.historyDefaults`.
struct HistoryTargets {
    var start: Int
    var count: Int
    var recorded: Bool

    @inline(__always)
    func state(_ k: Int, _ chart: ChartProgram, _ run: ChartRun) -> Int32 {
        recorded ? run.history[start + k] : chart.historyDefaults[start + k]
    }
}
