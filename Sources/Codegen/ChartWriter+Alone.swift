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
    /// The `after` transitions of `s` whose timers its entry arms and its exit cancels.
    func armsTimers(_ s: State) -> Bool {
        let slots = Set(timers.map(\.id))
        return s.transitions.contains { slots.contains($0) }
    }

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

    /// The states below `domain` that a transition may exit, with what exiting them takes:
    /// history is recorded for the ones exited, each state with exit work still in the
    /// configuration (with the states after it gone) runs it, then all leave.
    mutating func exitLines(below domain: StateID) {
        let below = states.filter { !$0.isHistory && machine.isDescendant($0.id, of: domain) }
        guard !below.isEmpty else { return }
        let mask = bits(below.map(\.id))
        let recorded = historyStates.contains { h in h.parent.map { $0 == domain || machine.isDescendant($0, of: domain) } ?? false }
        if recorded { out.line("recordHistory(exiting: core.active & \(mask))") }
        var gone: [StateID] = []
        for s in below.reversed() {
            if hasExitWork(s) {
                // An exit action may ask `in(...)` of the states exited before it.
                if !s.exit.isEmpty && !gone.isEmpty {
                    out.line("core.active = core.active & ~\(bits(gone))  // " + names(gone, below: nil))
                    gone = []
                }
                out.line("if core.active.contains(\(s.id.index)) { try exit(\(s.id.index)) }  // \(s.name)")
            }
            gone.append(s.id)
        }
        let name = domain == machine.root ? machine.name : machine[domain].name
        out.line("core.active = core.active & ~\(mask)  // " + names(below.map(\.id), below: name))
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
            if entryWork { out.line("try enter(\(id.index))  // \(s.name)") }
            if defaultWork { out.line("try enterByDefault(\(id.index), \(marks))") }
        }
        join()
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
                if let domain = known.domain {
                    out.line("eventlessMayHold = true")
                    exitLines(below: domain)
                } else if hasAlways && waking.contains(t.id) {
                    // A targetless transition changes no state: only a variable an `always`
                    // guard reads can enable one.
                    out.line("eventlessMayHold = true")
                }
                if !t.actions.isEmpty { out.line("try runActions(\(t.id.index), event)") }
                entryLines(known.entry, known.defaults)
                if known.domain == nil && t.actions.isEmpty && !(hasAlways && waking.contains(t.id)) { out.line("break") }
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
