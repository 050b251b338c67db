import StatecraftDiagnostics
import StatecraftModel

// The microstep of one transition taken alone, written out per transition. Most microsteps
// take exactly one transition, and unless its target involves a history state, its domain,
// the states it may exit and the states it enters are known here: `takeAlone` tests the
// few exited states that have exit work, clears and sets the configuration's bits with
// constants, and calls the actions and entries by number (`enter`, `exit` and `runActions`
// are inlined, so each call keeps only its own case). It does what the general `microstep`
// does for that transition, in the same order: states leave the configuration one at a
// time, innermost and last first, and join it one at a time in document order, so an
// action that asks `in(...)` sees what it would see there.
extension FlatMachineWriter {
    /// Whether `s` has `after` transitions: its entry arms their timers, its exit cancels them.
    func armsTimers(_ s: State) -> Bool { s.transitions.contains { timerSlots[$0] != nil } }

    /// Whether entering `s` does more than make it active (the cases of `enter(_:)`).
    func hasEntryWork(_ s: State) -> Bool { !s.isHistory && (!s.entry.isEmpty || armsTimers(s) || s.isFinal) }

    /// Whether exiting `s` does more than make it inactive (the cases of `exit(_:)`).
    func hasExitWork(_ s: State) -> Bool { !s.isHistory && (!s.exit.isEmpty || armsTimers(s)) }

    /// Whether `s` has a case in `enterByDefault(_:_:)`.
    func hasDefaultEntryWork(_ s: State) -> Bool {
        guard hasDefaultActions, !s.isHistory else { return false }
        return !s.initialActions.isEmpty || machine.historyStates(s.id).contains { !machine[$0].historyActions.isEmpty }
    }

    /// The exits and entries of a transition taken alone, when they do not depend on history:
    /// its domain (nil for a targetless transition), its entry set and the default entries
    /// that set takes.
    func knownSteps(_ t: Transition) -> (domain: StateID?, entry: [StateID], defaults: DefaultEntries)? {
        guard let to = t.target else { return (nil, [], DefaultEntries()) }
        guard !machine[to].isHistory else { return nil }
        var readsHistory = false
        var defaults = DefaultEntries()
        let entry = machine.entrySet([t.shape], historyValue: { _ in
            readsHistory = true
            return nil
        }, defaults: &defaults)
        guard !readsHistory, let domain = machine.transitionDomain(t.shape, historyValue: { _ in nil }) else { return nil }
        return (domain, entry, defaults)
    }

    /// A comment's list of states: their names, or how many there are when that is long.
    func names(_ ids: [StateID], below domain: String?) -> String {
        if ids.count <= 6 { return ids.map { machine[$0].name }.joined(separator: ", ") }
        return domain.map { "the \(ids.count) states below \($0)" } ?? "\(ids.count) states, \(machine[ids[0]].name) first"
    }

    /// The states below `domain` that a transition from `source` may exit, with what exiting
    /// them takes: history is recorded for the ones exited, each state with exit work still in
    /// the configuration (with the states after it gone) runs it, then all leave. Only a state
    /// that can be active while `source` is (one of its ancestors or descendants, or a state of
    /// another region of a parallel state they share) can be exited: the others are left out,
    /// which keeps a transition out of a large flat chart a few lines long, not one per state.
    /// `source` and its ancestors are active for certain: they are exited without a test.
    mutating func exitLines(below domain: StateID, from source: StateID) {
        let last = machine.lastDescendant(domain).index
        guard domain.index < last else { return }
        let below = ((domain.index + 1)...last).map(StateID.init).filter { !machine[$0].isHistory }
        guard !below.isEmpty else { return }
        let mask = bits(below)
        let recorded = historyStates.contains { h in h.parent.map { $0 == domain || machine.isDescendant($0, of: domain) } ?? false }
        if recorded { out.line("recordHistory(exiting: core.active & \(mask))") }
        var gone: [StateID] = []
        for id in below.reversed() {
            guard machine.canBeActiveTogether(id, source) else { continue }
            let onPath = id == source || machine.isDescendant(source, of: id)
            let s = machine[id]
            if hasExitWork(s) {
                // An exit action may ask `in(...)` of the states exited before it.
                if !s.exit.isEmpty && !gone.isEmpty {
                    out.line("core.active = core.active & ~\(bits(gone))  // " + names(gone, below: nil))
                    gone = []
                }
                let call = "\(Self.tryIf(chartPlan.exitThrows))exit(\(id.index))"
                out.line((onPath ? call : "if core.active.contains(\(id.index)) { \(call) }") + "  // \(s.name)")
            }
            gone.append(id)
        }
        let name = domain == machine.root ? machine.name : machine[domain].name
        out.line("core.active = core.active & ~\(mask)  // " + names(below, below: name))
    }

    /// Entering `entry` (document order): each state joins the configuration before its own
    /// entry work and its default entry's actions run.
    mutating func entryLines(_ entry: [StateID], _ defaults: DefaultEntries) {
        let marks = entryBits(entry, defaults)
        var joining: [StateID] = []
        func join() {
            guard !joining.isEmpty else { return }
            out.line("core.active = core.active | \(bits(joining))  // " + names(joining, below: nil))
            joining = []
        }
        for id in entry {
            let s = machine[id]
            joining.append(id)
            let entryWork = hasEntryWork(s)
            let defaultWork = hasDefaultEntryWork(s)
            guard entryWork || defaultWork else { continue }
            join()
            if entryWork { out.line("\(Self.tryIf(chartPlan.enterThrows))enter(\(id.index))  // \(s.name)") }
            if defaultWork { out.line("\(Self.tryIf(chartPlan.defaultsThrow))enterByDefault(\(id.index), \(marks))") }
        }
        join()
    }

    /// The body of transition `t`'s microstep taken alone: its exits, `actions` (the line that
    /// runs its actions), its entries; `break` when that is nothing. After a transition that
    /// `settles` the eventless phase, or one that ends the run, selection does not look for
    /// `always` transitions again.
    mutating func aloneLines(_ t: Transition, _ known: (domain: StateID?, entry: [StateID], defaults: DefaultEntries),
                             waking: Set<TransitionID>, settles: Bool = false, actions: String, emptyLine: String? = "break") {
        let start = out.mark
        let endsRun = known.entry.contains { machine[$0].isFinal && machine[$0].parent == machine.root }
        if let domain = known.domain {
            if hasAlways && !settles && !endsRun { out.line("eventlessMayHold = true") }
            exitLines(below: domain, from: t.source)
        } else if hasAlways && waking.contains(t.id) {
            // A targetless transition changes no state: only a variable an `always`
            // guard reads can enable one.
            out.line("eventlessMayHold = true")
        }
        if !t.actions.isEmpty { out.line(actions) }
        entryLines(known.entry, known.defaults)
        if let emptyLine, out.mark == start { out.line(emptyLine) }
    }

    /// Whether entering `entry` calls something that throws: an entry or a default entry.
    func entryThrows(_ entry: [StateID]) -> Bool {
        chartPlan.enterThrows && entry.contains { hasEntryWork(machine[$0]) }
            || chartPlan.defaultsThrow && entry.contains { hasDefaultEntryWork(machine[$0]) }
    }

    mutating func takeAloneFunction() {
        let waking = Set(wakingTransitions.map(\.id))
        out.doc("""
            Appendix D `microstep` for transition `t` alone, with its exit and entry sets worked out when
            this file was written; false when they depend on history (the general `microstep` then
            works them out).
            """)
        // One call site (`microstep`): inlined, it costs no call.
        out.line("@inline(__always)")
        out.open("private mutating func takeAlone(_ t: Int, _ event: Event?) throws(Failure) -> Bool")
            out.line("switch t {")
            for t in machine.transitions where !t.isBroken {
                guard let known = knownSteps(t) else { continue }
                out.line("case \(t.id.index):  // line \(line(t.range)): \(describe(t))")
                out.indent()
                aloneLines(t, known, waking: waking, actions: "\(Self.tryIf(chartPlan.runActionsThrows))runActions(\(t.id.index), event)")
                out.dedent()
            }
            out.line("default:")
            out.line("    return false")
            out.line("}")
            out.line("return true")
        out.close()
        out.line()
    }
}

// An event whose transitions all lie in states that are never active together (the same
// state, or states in different children of a compound state) enables at most one
// transition: the first of the active one's, in written order, whose guard holds. Selection
// then has nothing to gather and no conflicts to remove, and the microstep's exits and
// entries are known here, so `send` takes that transition in place: no `chosen` list, the
// payload bound once, the actions called with it, and the machine copied (to undo a failing
// step) only once a transition is taken.
extension FlatMachineWriter {
    /// The transitions `e` may trigger, by source state in document order (each source's in
    /// written order), when at most one can be enabled in any configuration and every one's
    /// exits and entries are known ahead; nil otherwise.
    func loneCandidates(_ e: Event) -> [(StateID, [Transition])]? {
        loneCandidates { t in
            guard case .events(let events) = t.trigger else { return false }
            return events.contains(e.id)
        }
    }

    /// The same for the transitions `accepts` keeps (an event's, or the `always` ones).
    func loneCandidates(_ accepts: (Transition) -> Bool) -> [(StateID, [Transition])]? {
        var bySource: [(StateID, [Transition])] = []
        for s in states where !s.isHistory && s.id != machine.root {
            var list = s.transitions.map { machine[$0] }.filter { !$0.isBroken && accepts($0) }
            // Selection never looks past a transition without a guard.
            if let open = list.firstIndex(where: { $0.guardExpr == nil }) { list.removeSubrange((open + 1)...) }
            if !list.isEmpty { bySource.append((s.id, list)) }
        }
        for (i, (a, _)) in bySource.enumerated() {
            for (b, _) in bySource[(i + 1)...] where machine.canBeActiveTogether(a, b) { return nil }
        }
        for (source, list) in bySource {
            // Selection finds a source's transitions from an active atomic state below it:
            // `send` asks whether the source is active, the same question only when entering
            // it always reaches an atomic state.
            for s in source.index...machine.lastDescendant(source).index {
                let id = StateID(s)
                if !machine.isAtomic(id) && !machine[id].isHistory && machine.childStates(id).isEmpty { return nil }
            }
            for t in list where knownSteps(t) == nil { return nil }
        }
        return bySource
    }

    /// The cases of `send` for the events with a lone transition (`loneCandidates`), each
    /// returning the step's outcome; true when that is every event (`send` then needs no
    /// general path).
    mutating func loneSendCases() -> Bool {
        let lone = chartPlan.loneEvents
        guard lone.contains(where: { $0 != nil }) else { return false }
        let waking = Set(wakingTransitions.map(\.id))
        out.line("// At most one transition takes each of these events: it is taken in place (see `takeAlone`).")
        out.line("switch event {")
        for (e, found) in zip(machine.events, lone) {
            guard let bySource = found else { continue }
            let candidates = bySource.flatMap(\.1)
            let used = usedFields(e, in: candidates)
            out.line("case .\(SwiftName.quoted(e.name))\(bindingPattern(e, used)):")
            out.indent()
            defer { out.dedent() }
            guard !candidates.isEmpty else {
                out.line("return .ignored")
                continue
            }
            loneSelection(bySource, fields: used)
            let throwing = candidates.contains { aloneThrows($0, chartPlan) }
            takenStep(transition: Self.selectedLocal, throwing: throwing) { writer in
                writer.out.line("microstepCount = 1")
                writer.takeLines(candidates, waking: waking) { writer, t in
                    // The actions are called on the payload the event's case bound.
                    let call = Self.tryIf(writer.chartPlan.throwingActions.contains(t.id))
                    return writer.actionFields(t).isEmpty ? "\(call)\(writer.chartFunctionName(t, nil))()"
                        : "\(call)\(writer.chartFunctionName(t, e))(\(writer.arguments(t, e)))"
                }
            }
        }
        let all = !lone.contains { $0 == nil }
        if !all {
            out.line("default:")
            out.line("    break")
        }
        out.line("}")
        return all
    }

    /// `let taken` (`selectedLocal`): the enabled transition, as `select` finds it (the active source's first whose
    /// guard holds); `.ignored` when there is none, `.rejected` when a guard fails.
    mutating func loneSelection(_ bySource: [(StateID, [Transition])], fields: Set<String>,
                                none: String = "return .ignored", catching: Bool = true) {
        var throwing = false
        var lines: [String] = []
        for (k, (source, list)) in bySource.enumerated() {
            lines.append((k == 0 ? "if " : "} else if ") + "core.active.contains(\(source.index)) /* \(machine[source].name) */ {")
            var first = true
            var settled = false
            for t in list {
                lines.append("    // line \(line(t.range)): \(describe(t))")
                if let g = t.guardExpr {
                    let (code, throwsHere) = expression(g, fields: fields)
                    throwing = throwing || throwsHere
                    lines.append("    " + (first ? "if " : "} else if ") + (throwsHere ? "try " : "") + code + " {")
                    lines.append("        \(Self.selectedLocal) = \(t.id.index)")
                    first = false
                } else {
                    lines.append(first ? "    \(Self.selectedLocal) = \(t.id.index)" : "    } else {")
                    if !first { lines.append("        \(Self.selectedLocal) = \(t.id.index)") }
                    settled = true
                    break
                }
            }
            if !settled {
                // Every guard was false: nothing takes the event.
                lines.append("    } else {")
                lines.append("        " + none)
                lines.append("    }")
            } else if !first {
                lines.append("    }")
            }
        }
        lines.append("} else {")
        lines.append("    " + none)
        lines.append("}")
        out.line("let \(Self.selectedLocal): Int")
        if throwing && catching {
            out.open("do")
            for l in lines { out.line(l) }
            out.reopen("catch")
                out.line("endStep()")
                out.line("return .rejected(error)")
            out.close()
        } else {
            for l in lines { out.line(l) }
        }
    }

    /// The local that holds the transition a lone selection chose. It sits beside the event's
    /// payload fields, bound as locals of their own names, so a field may not have this name
    /// (`localNames`), and it is not one a spec writes often (`t` is).
    static let selectedLocal = "taken"

    /// The rest of `send` once a transition is chosen: `microstep` (the lines that take it), the
    /// eventless transitions and raised events it left, its outputs, and `.taken(transition:)`
    /// with the transition named `transition`. When `throwing` (the microstep calls something
    /// that throws) or the eventless phase can fail, `core` is copied first and a failure
    /// puts the copy back; otherwise the step needs neither.
    mutating func takenStep(transition: String, throwing: Bool, _ microstep: (inout Self) -> Void) {
        let complete = Self.tryIf(chartPlan.completeThrows) + "completeMacrostep()"
        let phase = usesInternalQueue ? "if eventlessMayHold || !internalQueue.isEmpty { \(complete) }"
            : hasAlways ? "if eventlessMayHold { \(complete) }" : nil
        func rest(_ writer: inout Self) {
            microstep(&writer)
            if let phase { writer.out.line(phase) }
            writer.out.line("if !pending.isEmpty { deliver(emit) }")
            writer.out.line("return .taken(transition: \(transition))")
        }
        guard throwing || (phase != nil && chartPlan.completeThrows) else {
            rest(&self)
            return
        }
        out.line("let before = core")
        out.open("do")
            rest(&self)
        out.reopen("catch")
            out.line("core = before")
            out.line("endStep()")
            out.line("return .rejected(error)")
        out.close()
    }

    /// The microstep of whichever of `candidates` is `taken` (selected already): `takeAlone`'s case
    /// for each, in a `switch` when there are several, the last as its `default`. `actions`
    /// gives the line that runs a transition's actions.
    mutating func takeLines(_ candidates: [Transition], waking: Set<TransitionID>, settling: Set<TransitionID> = [],
                            actions: (Self, Transition) -> String) {
        func take(_ t: Transition, inSwitch: Bool) {
            guard let known = knownSteps(t) else { return }
            aloneLines(t, known, waking: waking, settles: settling.contains(t.id), actions: actions(self, t),
                       emptyLine: inSwitch ? "break" : nil)
        }
        guard candidates.count > 1 else {
            if let t = candidates.first { take(t, inSwitch: false) }
            return
        }
        out.line("switch \(Self.selectedLocal) {")
        for (k, t) in candidates.enumerated() {
            out.line((k == candidates.count - 1 ? "default" : "case \(t.id.index)") + ":  // line \(line(t.range)): \(describe(t))")
            out.indent()
            take(t, inSwitch: true)
            out.dedent()
        }
        out.line("}")
    }
}

// The same for eventless transitions: when the `always` transitions lie in states never active
// together, each round of `completeMacrostep` finds at most one, and takes it in place.
extension FlatMachineWriter {
    /// `completeMacrostep`'s loop for a machine that queues nothing, when its `always`
    /// transitions are lone (`ChartPlan.loneAlways`); false (nothing written) otherwise.
    mutating func loneEventlessLoop() -> Bool {
        guard let bySource = chartPlan.loneAlways else { return false }
        let candidates = bySource.flatMap(\.1)
        guard !candidates.isEmpty else { return false }
        let waking = Set(wakingTransitions.map(\.id))
        out.line("// At most one `always` transition is enabled at a time: it is taken in place (see `takeAlone`).")
        let once = chartPlan.phaseTakesOne
        if once { out.line("// Each one settles the phase (`ChartPlan.settling`): a phase takes one at most.") }
        out.open(once ? "if eventlessMayHold && !core.isFinished" : "while eventlessMayHold && !core.isFinished")
            out.line("eventlessMayHold = false")
            loneSelection(bySource, fields: [], none: once ? "return" : "break", catching: false)
            out.line("microstepCount += 1")
            // A phase of transitions that all settle it takes one: it cannot reach the bound.
            let settling = chartPlan.settling
            if !once {
                out.line("if microstepCount > 10_000 { throw Self.microstepLimit(\(Self.selectedLocal)) }")
            }
            takeLines(candidates, waking: waking, settling: settling) { writer, t in
                "\(Self.tryIf(writer.chartPlan.throwingActions.contains(t.id)))\(writer.chartFunctionName(t, nil))()"
            }
        out.close()
        return true
    }
}
