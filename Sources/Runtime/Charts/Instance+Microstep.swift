import StatecraftDiagnostics
import StatecraftModel

// A statechart's microstep (SCXML 1.0 Appendix D `microstep`): which states the chosen
// transitions leave and enter, in which order, with history recorded on the way out and
// completions queued on the way in. `Instance+Chart.swift` selects the transitions and runs
// the macrostep around this.

extension Instance {
    // MARK: - Where transitions go

    /// Appendix D `getTransitionDomain`: -1 for a targetless transition.
    func transitionDomain(_ t: Int, _ chart: ChartProgram, _ run: ChartRun) -> Int32 {
        let known = chart.staticDomain[t]
        if known != -2 { return known }
        // The target is a history state: its effective targets are what it recorded, or
        // its default.
        let source = chart.source[t]
        let h = Int(chart.target[t])
        let targets = effectiveTargets(ofHistory: h, chart, run)
        if chart.kind[Int(source)] == .compound && chart.isInternal[t] {
            var inside = true
            for k in 0..<targets.count where !chart.isDescendant(targets.state(k, chart, run), of: source) { inside = false }
            if inside { return source }
        }
        var anc = chart.parent[Int(source)]
        while anc >= 0 {
            if chart.kind[Int(anc)] == .compound {
                var all = true
                for k in 0..<targets.count where !chart.isDescendant(targets.state(k, chart, run), of: anc) { all = false }
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
    mutating func microstep(_ chart: ChartProgram, _ run: ChartRun, kind: MicrostepLog.Kind, subject: Int32) throws(ExpressionFault) {
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
                if d >= 0 && chart.isDescendant(s, of: d) {
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
            let recorded = chart.isDeep[h] ? chart.isLeaf[Int(s)] && chart.isDescendant(s, of: parent) : chart.parent[Int(s)] == parent
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
        run.clearDefaultEntries()
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
            if !targets.recorded && chart.historyPC[Int(s)] >= 0 && run.defaultHistory[Int(parent)] < 0 {
                run.defaultHistory[Int(parent)] = s
                run.defaultsMarked += 1
            }
            for j in 0..<targets.count { addDescendantStatesToEnter(targets.state(j, chart, run), chart, run) }
            for j in 0..<targets.count { addAncestorStatesToEnter(targets.state(j, chart, run), upTo: parent, chart, run) }
        case .compound:
            mark(s, run)
            let first = Int(chart.initialTargetStart[Int(s)])
            let end = Int(chart.initialTargetStart[Int(s) + 1])
            if first == end {
                let initial = chart.initialChild[Int(s)]
                if initial >= 0 { addDescendantStatesToEnter(initial, chart, run) }
                return
            }
            // `initial -> a, b`: SCXML's initial transition, with `s` as its domain.
            if chart.initialPC[Int(s)] >= 0 && !run.defaultInitial[Int(s)] {
                run.defaultInitial[Int(s)] = true
                run.defaultsMarked += 1
            }
            for k in first..<end { addDescendantStatesToEnter(chart.initialTargets[k], chart, run) }
            for k in first..<end {
                let target = chart.initialTargets[k]
                if chart.kind[Int(target)] == .history {
                    let targets = effectiveTargets(ofHistory: Int(target), chart, run)
                    for j in 0..<targets.count { addAncestorStatesToEnter(targets.state(j, chart, run), upTo: s, chart, run) }
                } else {
                    addAncestorStatesToEnter(target, upTo: s, chart, run)
                }
            }
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
                if s == child || chart.isDescendant(s, of: child) {
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
    mutating func enterStates(_ chart: ChartProgram, _ run: ChartRun) throws(ExpressionFault) {
        for k in 0..<run.entering.count {
            let s = Int(run.entering[k])
            run.active[s] = true
            if chart.entryPC[s] >= 0 { _ = try execute(chart.entryPC[s]) }
            if run.defaultsMarked > 0 { try runDefaultEntries(of: s, chart, run) }
            if chart.hasTimers[s] { try armTimers(of: s) }
            guard chart.kind[s] == .final else { continue }
            let parent = chart.parent[s]
            if parent == 0 {
                endRun()
                continue
            }
            run.queue.append(-1 - parent)
            run.queueStart.append(Int32(run.queueNumbers.count))
            // The completion's values, computed now (after the entry actions), as SCXML
            // evaluates <donedata> when it generates the done event; a failure fails the step.
            for k in Int(chart.doneValueStart[s])..<Int(chart.doneValueStart[s + 1]) {
                _ = try execute(chart.doneValuePC[k])
                queueValue(chart.doneValueRegister[k], run)
            }
            let grandparent = chart.parent[Int(parent)]
            if grandparent >= 0 && chart.kind[Int(grandparent)] == .parallel && isInFinalState(grandparent, chart, run) {
                run.queue.append(-1 - grandparent)
                run.queueStart.append(Int32(run.queueNumbers.count))
            }
        }
        mergeEntered(run)
    }

    /// The actions of `s`'s default entry and of its history state's default, when the
    /// entry set took them (after `s`'s entry actions, as SCXML's `enterStates` runs them).
    private mutating func runDefaultEntries(of s: Int, _ chart: ChartProgram, _ run: ChartRun) throws(ExpressionFault) {
        if run.defaultInitial[s] {
            run.defaultInitial[s] = false
            run.defaultsMarked -= 1
            _ = try execute(chart.initialPC[s])
        }
        let h = Int(run.defaultHistory[s])
        if h >= 0 {
            run.defaultHistory[s] = -1
            run.defaultsMarked -= 1
            _ = try execute(chart.historyPC[h])
        }
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
    func collectLeaves(_ chart: ChartProgram, _ run: ChartRun) {
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
