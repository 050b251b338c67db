import StatecraftDiagnostics
import StatecraftModel

/// Transitions that start and end inside a parallel state but leave it and enter it again.
///
/// SCXML exits everything below a transition's domain, the innermost *compound* state that
/// holds its source and its targets (`findLCCA` skips parallel states). A transition from
/// one region to a state of another region therefore has its domain above the parallel
/// state: the whole parallel state is exited (every region, exit actions, timers, history
/// recorded) and entered again, and the regions other than the target's restart at their
/// initial states. The same happens to an external transition written in a region itself
/// (`state sound { on reset -> unmuted }`), whose proper ancestors start at the parallel
/// state. Both are correct SCXML and rarely meant, so they are warnings.
///
/// A transition to the parallel state itself, or to one of its own history states, asks
/// for the restart in so many words and is not reported.
enum CrossRegionTransitions {
    static func diagnostics(_ machine: Machine) -> [Diagnostic] {
        machine.transitions.compactMap { t in
            guard !t.isBroken, let restart = restart(t, machine) else { return nil }
            return diagnostic(t, restart, machine)
        }
    }

    /// What transition `t` restarts: `parallel`, the outermost state it exits (the child of
    /// its domain on the way to its source), with the regions of it that hold the source and
    /// the target.
    struct Restart {
        var parallel: StateID
        var sourceRegion: StateID
        var targetRegion: StateID
    }

    /// The restart `t` causes, or nil when it exits no parallel state that holds both its
    /// ends. Only certain restarts are returned: for a history target the domain is worked
    /// out from its parent, which holds whatever it enters.
    static func restart(_ t: Transition, _ machine: Machine) -> Restart? {
        guard let target = t.target else { return nil }
        let source = t.source
        let position = machine[target].isHistory ? machine[target].parent ?? machine.root : target
        // From strictly inside a history state's parent, the domain depends on what was
        // recorded (it may stay inside the parent): not certain, not reported.
        if machine[target].isHistory && machine.isDescendant(source, of: position) { return nil }
        guard let domain = machine.transitionDomain(t.shape, historyValue: { _ in nil }),
              let parallel = machine.selfAndAncestors(source).first(where: { machine[$0].parent == domain }),
              parallel != source, machine.isParallel(parallel),
              // A target outside it, the parallel state itself or its own history state: a
              // restart asked for in so many words.
              machine.isDescendant(position, of: parallel),
              let sourceRegion = region(of: source, in: parallel, machine),
              let targetRegion = region(of: position, in: parallel, machine)
        else { return nil }
        return Restart(parallel: parallel, sourceRegion: sourceRegion, targetRegion: targetRegion)
    }

    /// The child of `parallel` that holds `s` (or is `s`).
    private static func region(of s: StateID, in parallel: StateID, _ machine: Machine) -> StateID? {
        machine.selfAndAncestors(s).first { machine[$0].parent == parallel }
    }

    private static func diagnostic(_ t: Transition, _ restart: Restart, _ machine: Machine) -> Diagnostic {
        let name = { (s: StateID) in "'\(machine[s].name)'" }
        let target = t.target ?? t.source
        let parallel = name(restart.parallel)
        var message: String
        var notes: [DiagnosticNote] = []
        if restart.sourceRegion != restart.targetRegion {
            message = "transition from \(name(t.source)) in region \(name(restart.sourceRegion)) to \(name(target)) in "
                + "region \(name(restart.targetRegion)) leaves parallel state \(parallel) and enters it again"
            notes.append(DiagnosticNote("to move region \(name(restart.targetRegion)) alone, raise an event that it "
                                        + "handles", at: t.keywordRange))
        } else {
            let written = t.source == restart.sourceRegion ? "written in region \(name(t.source))"
                : "from \(name(t.source)) to \(name(target)) in region \(name(restart.sourceRegion))"
            message = "transition \(written) leaves parallel state \(parallel) and enters it again"
            notes.append(DiagnosticNote("its domain, the innermost compound state that is a proper ancestor of its source "
                                        + "and holds its target, is outside \(parallel)", at: t.keywordRange))
            if machine.isCompound(t.source) && entersOnlyInside(t.source, target, machine) {
                notes.append(DiagnosticNote("write it 'internal' to stay inside \(name(t.source))", at: t.keywordRange))
            }
        }
        // What the other regions restart at: the leaves the transition enters in them.
        let entered = machine.entrySet([t.shape], historyValue: { _ in nil })
        let restarted = machine.childStates(restart.parallel).filter { $0 != restart.targetRegion }.map { region in
            let leaves = entered.filter { machine.isAtomic($0) && machine.isDescendant($0, of: region) }
            let at = leaves.isEmpty ? "" : " at " + leaves.map(name).joined(separator: " and ")
            return name(region) + at
        }
        if let last = restarted.last {
            let head = restarted.dropLast().joined(separator: ", ")
            message += ", restarting " + (restarted.count == 1 ? "region " : "regions ") + (head.isEmpty ? "" : head + " and ") + last
        }
        return Diagnostic(.crossRegionTransition, message, at: t.keywordRange, notes: notes)
    }

    /// Whether everything `target` enters lies strictly inside `source`, as `internal` needs.
    private static func entersOnlyInside(_ source: StateID, _ target: StateID, _ machine: Machine) -> Bool {
        guard machine[target].isHistory, let parent = machine[target].parent else {
            return machine.isDescendant(target, of: source)
        }
        return parent == source || machine.isDescendant(parent, of: source)
    }
}
