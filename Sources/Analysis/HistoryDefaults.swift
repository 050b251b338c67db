import StatecraftDiagnostics
import StatecraftModel

/// History states that always enter their default, so `-> h` is only a longer way to write
/// the default.
///
/// A history state records when its parent is exited, and only then: a transition into it
/// from inside its parent does not leave the parent, so it finds whatever the last exit
/// recorded, or the default when there was none. It is reported, for a history state that
/// some transition (or an `initial ->`) targets and whose parent is reachable, when:
///
/// - its parent is never exited: no transition that may fire while the parent is active
///   has the parent inside its domain (for a history target, the domain taken is the
///   largest its recorded value allows), so it never records anything (a transition to a
///   top-level final state does not count: the run ends there);
/// - it is shallow, its parent is parallel and it has no default of its own: it records
///   every region, and each is entered at its initial state, as the default does;
/// - it is shallow, its parent is compound, and the parent is only ever exited from inside
///   the child the default enters (or has no other child): that child is all it can record.
///
/// Every claim is over the transitions that may fire (`LiveTransitions`), guards aside.
enum HistoryDefaults {
    static func diagnostics(_ machine: Machine, _ live: LiveTransitions) -> [Diagnostic] {
        guard !machine.transitions.contains(where: \.isBroken) else { return [] }
        var findings: [Diagnostic] = []
        for h in machine.states where h.isHistory {
            guard let parent = h.parent, parent != machine.root, machine.isCompound(parent) || machine.isParallel(parent),
                  live.reachable.contains(parent) else { continue }
            let users = live.transitions.filter { $0.target == h.id }
            let initialUse = machine.states.contains { $0.initialTargets.contains(h.id) }
            guard !users.isEmpty || initialUse, let found = reason(h.id, parent, machine, live) else { continue }
            let defaults = machine.historyDefaultTargets(h.id).map { "'\(machine[$0].name)'" }.joined(separator: ", ")
            // Where the parent is never left, the transitions into the history state from
            // inside it are usually the mistake: they were meant to come back to something.
            let inside = !found.neverLeft ? [] : users.filter { machine.isDescendant($0.source, of: parent) }
            findings.append(Diagnostic(
                .historyAlwaysDefault,
                "history state '\(h.name)' always enters its default (\(defaults)): \(found.why)", at: h.range,
                notes: inside.prefix(3).map {
                    DiagnosticNote("this transition enters it from inside '\(machine[parent].name)', which it does not leave",
                                   at: $0.keywordRange)
                }))
        }
        return findings
    }

    /// Why history state `h` of `parent` can only ever enter its default, or nil when it
    /// may enter something else.
    /// `neverLeft` tells the first reason from the others.
    static func reason(_ h: StateID, _ parent: StateID, _ machine: Machine,
                       _ live: LiveTransitions) -> (why: String, neverLeft: Bool)? {
        let name = machine[parent].name
        let coActive = Set(machine.coActiveStates(parent))
        // A transition to a top-level final state ends the run: what it records is never used.
        let exits = live.transitions.filter { t in
            guard let domain = largestDomain(t, machine), !endsTheRun(t, machine) else { return false }
            return machine.isDescendant(parent, of: domain) && coActive.contains(t.source)
        }
        if exits.isEmpty {
            return ("'\(name)' is never left while it is active, so it never records anything", true)
        }
        guard let why = shallowReason(h, parent, exits, machine) else { return nil }
        return (why, false)
    }

    /// Why shallow history state `h` of `parent`, which `exits` may leave, records only what
    /// its default enters anyway.
    private static func shallowReason(_ h: StateID, _ parent: StateID, _ exits: [Transition], _ machine: Machine) -> String? {
        let name = machine[parent].name
        guard !machine[h].isDeepHistory else { return nil }
        let defaults = machine.historyDefaultTargets(h)
        if machine.isParallel(parent) {
            guard machine[h].historyDefaults.isEmpty else { return nil }
            return "a shallow history state of parallel state '\(name)' records its regions, which are entered at their "
                + "initial states anyway; make it 'deep history' to restore where each region was"
        }
        guard defaults.count == 1, let child = defaults.first, machine[child].parent == parent else { return nil }
        let children = machine.childStates(parent)
        if children == [child] {
            return "'\(child.name(machine))' is the only state of '\(name)' it can record"
        }
        // The child of `parent` active when each exit fires: known when the exit is written
        // inside a child; written in the parent, above it or in another region, any child.
        let recorded = exits.map { t in
            machine.selfAndAncestors(t.source, upTo: parent).first { machine[$0].parent == parent }
        }
        guard recorded.allSatisfy({ $0 == child }) else { return nil }
        return "'\(name)' is only ever left from '\(child.name(machine))', so that is all it records"
    }

    private static func endsTheRun(_ t: Transition, _ machine: Machine) -> Bool {
        guard let target = t.target else { return false }
        return machine[target].isFinal && machine[target].parent == machine.root
    }

    /// The largest domain transition `t` can have: its domain, or for a history target
    /// (which enters something strictly inside the history state's parent `q`), `q` when `t`
    /// is written inside a compound `q`, else the domain of a transition to `q` itself.
    /// Nil for a targetless transition, which exits nothing.
    static func largestDomain(_ t: Transition, _ machine: Machine) -> StateID? {
        guard let target = t.target else { return nil }
        guard machine[target].isHistory, let q = machine[target].parent else {
            return machine.transitionDomain(t.shape, historyValue: { _ in nil })
        }
        if machine.isCompound(q) && machine.isDescendant(t.source, of: q) { return q }
        return machine.findLCCA([t.source, q])
    }
}

extension StateID {
    fileprivate func name(_ machine: Machine) -> String { machine[self].name }
}
