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
    package func isActive(_ s: Int) -> Bool {
        if let run = chartRun { return run.active[s] }
        return program.selfAndAncestors(state.index).contains(s)
    }

    /// Whether state `s` is active now.
    public func isActive(_ s: StateID) -> Bool { isActive(s.index) }

    /// The active states, in document order.
    public var configuration: Configuration {
        if let run = chartRun { return Configuration(sorted: run.configuration) }
        return Configuration(sorted: state == program.machine.root ? [] : activeStates)
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
            queueValue(program.raiseArguments[k], run)
        }
    }

    /// Appends the value in register `r` to the payload of the event last queued.
    @inline(__always)
    func queueValue(_ r: Register, _ run: ChartRun) {
        if r.file == .number {
            run.queueNumbers.append(registers.numbers[Int(r.index)])
        } else {
            // A string field's slot holds where the string is in `queueStrings`.
            run.queueNumbers.append(Double(run.queueStrings.count))
            run.queueStrings.append(registers.strings[Int(r.index)])
        }
    }

    // MARK: - Macrosteps

    /// Enters the initial configuration and completes the start's macrostep.
    mutating func chartStart(_ chart: ChartProgram) throws(ExpressionFault) {
        guard let run = chartRun else { return }
        run.beginStep()
        run.saveList()
        run.entering.removeAll()
        for s in chart.startEntry { run.entering.append(s) }
        run.clearDefaultEntries()
        for s in chart.startDefaultInitial {
            run.defaultInitial[Int(s)] = true
            run.defaultsMarked += 1
        }
        for k in stride(from: 0, to: chart.startDefaultHistory.count, by: 2) {
            run.defaultHistory[Int(chart.startDefaultHistory[k])] = chart.startDefaultHistory[k + 1]
            run.defaultsMarked += 1
        }
        if let log = run.log {
            log.removeAll()
            run.enabled.removeAll()
            run.exits.removeAll()
            log.record(kind: .start, subject: -1, transitions: run.enabled, exited: run.exits, entered: run.entering)
        }
        try enterStates(chart, run)
        collectLeaves(chart, run)
        run.eventlessMayHold = true
        try completeMacrostep(chart, run)
        updateLeaf(run)
    }

    /// Applies external event `event`, whose payload is in its registers: the chart form of
    /// `apply(_:)`.
    mutating func apply(_ event: Int, _ chart: ChartProgram) -> RawStep {
        let from = Int32(truncatingIfNeeded: state.index)
        if isFinished { return RawStep(result: .afterFinal, transition: -1, from: from, to: from) }
        makeChartUnique()
        guard let run = chartRun else { return RawStep(result: .ignored, transition: -1, from: from, to: from) }
        beginStep()
        run.beginStep()
        run.log?.removeAll()
        do {
            guard try selectTransitions(event: event, chart, run) else {
                return RawStep(result: .ignored, transition: -1, from: from, to: from)
            }
            let first = run.enabled[0]
            try microstep(chart, run, kind: .event, subject: Int32(truncatingIfNeeded: event))
            try completeMacrostep(chart, run)
            updateLeaf(run)
            return RawStep(result: .applied, transition: first, from: from, to: Int32(truncatingIfNeeded: state.index))
        } catch {
            run.rollBack()
            run.log?.removeAll()
            fail(error, from: from)
            return RawStep(result: .failed, transition: -1, from: from, to: from)
        }
    }

    /// Fires timer `k` (an index of `Program.timers`): its guard, then its transition as a
    /// macrostep. The chart form of a timer block.
    mutating func chartFireTimer(_ k: Int, _ chart: ChartProgram) -> TimerFiring {
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
            try microstep(chart, run, kind: .timer, subject: candidate.transition)
            try completeMacrostep(chart, run)
            updateLeaf(run)
            return .applied(candidate.transition)
        } catch {
            run.rollBack()
            run.log?.removeAll()
            fail(error, from: from)
            return .failed(error, candidate.transition)
        }
    }

    /// Whether a block run since journal positions `since` and `stringsSince` wrote a
    /// variable that an `always` guard reads (every chart block saves what it writes).
    func wroteEventlessRead(since: Int, stringsSince: Int, _ chart: ChartProgram) -> Bool {
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
    private mutating func completeMacrostep(_ chart: ChartProgram, _ run: ChartRun) throws(ExpressionFault) {
        while !isFinished {
            var found = false
            if chart.hasEventless && run.eventlessMayHold {
                run.eventlessMayHold = false
                found = try selectEventlessTransitions(chart, run)
            }
            var kind = MicrostepLog.Kind.eventless, subject: Int32 = -1
            if !found {
                guard run.queueHead < run.queue.count else { return }
                let item = run.queue[run.queueHead]
                let payload = Int(run.queueStart[run.queueHead])
                run.queueHead += 1
                if item >= 0 {
                    loadQueuedPayload(Int(item), at: payload, run)
                    found = try selectTransitions(event: Int(item), chart, run)
                    (kind, subject) = (.raised, item)
                } else {
                    loadCompletionPayload(Int(-1 - item), at: payload, chart, run)
                    if let log = run.log { noteCompletionValues(Int(-1 - item), chart, log) }
                    found = try selectCompletionTransitions(of: -1 - item, chart, run)
                    (kind, subject) = (.completion, -1 - item)
                }
            }
            if found {
                try microstep(chart, run, kind: kind, subject: subject)
            } else {
                // A raised event or a `done` that nothing takes is dropped (SCXML); a trace says so.
                run.log?.recordLost(kind: kind, subject: subject)
            }
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

    /// Writes the values a completion carries (its final state's, see `ChartProgram.doneValueStart`)
    /// into the payload registers its `done` transitions read.
    private mutating func loadCompletionPayload(_ x: Int, at start: Int, _ chart: ChartProgram, _ run: ChartRun) {
        let first = Int(chart.completionPayloadStart[x])
        for k in first..<Int(chart.completionPayloadStart[x + 1]) {
            let r = chart.completionRegisters[k]
            let slot = run.queueNumbers[start + k - first]
            if r.file == .number {
                registers.numbers[Int(r.index)] = slot
            } else {
                registers.strings[Int(r.index)] = run.queueStrings[Int(slot)]
            }
        }
    }

    /// Hands `log` the values completion `x` carries, now in its payload registers, for the
    /// microstep it starts (a trace shows them).
    private func noteCompletionValues(_ x: Int, _ chart: ChartProgram, _ log: MicrostepLog) {
        for k in Int(chart.completionPayloadStart[x])..<Int(chart.completionPayloadStart[x + 1]) {
            let r = Int(chart.completionRegisters[k].index), type = chart.completionTypes[k]
            log.noteValue(Program.value(type, number: registers.numbers[r], string: type == .string ? registers.strings[r] : ""))
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
                if d1 >= 0 && d2 >= 0 && (d1 == d2 || chart.isDescendant(d1, of: d2) || chart.isDescendant(d2, of: d1)) {
                    if chart.isDescendant(chart.source[Int(t1)], of: chart.source[Int(t2)]) {
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

}
