import StatecraftDiagnostics
import StatecraftModel

/// Which states a path of transitions can reach from the initial configuration, ignoring
/// guards except those that fold to constant `false` (and `done` for states that never
/// complete).
///
/// A state is reached when some reachable configuration holds it, at any depth: the search
/// starts from the initial configuration (every region of a parallel state) and follows
/// every kind of transition (events, timers, `done`, `always`) through the model's entry
/// sets. History pseudo-states are never active and never reached; a transition to one
/// enters what it may have recorded (for a shallow one, any reached child of its parent, or
/// every region of a parallel parent; a deep one only restores states that were active, so
/// reached, before) or its default.
public enum Reachability {
    /// The states reachable from the initial configuration, with every transition except
    /// those in `excluded` (and those whose guard folds to `false`).
    public static func reachableStates(_ machine: Machine, excluding excluded: Set<TransitionID> = []) -> Set<StateID> {
        let start = machine.initialEntrySet
        guard !start.isEmpty else { return [] }
        let constants = machine.constantValues
        let live = machine.transitions.filter {
            $0.target != nil && !excluded.contains($0.id) && !$0.neverFires(constants: constants) && !machine.waitsInVain($0)
        }
        var seen = Set(start)
        // A shallow history state may restore any reached child of its parent, so a pass can
        // open ways that earlier passes did not have: repeat until nothing new is reached.
        var changed = true
        while changed {
            changed = false
            for t in live where seen.contains(t.source) {
                for states in entries(t, machine, reached: seen) {
                    for s in states where seen.insert(s).inserted { changed = true }
                }
            }
        }
        return seen
    }

    /// The entry sets transition `t` may have, given the states reached so far: one, or one
    /// per thing its history target may have recorded.
    static func entries(_ t: Transition, _ machine: Machine, reached: Set<StateID>) -> [[StateID]] {
        let shape = t.shape
        var result = [machine.entrySet([shape], historyValue: { _ in nil })]
        guard let h = t.target, machine[h].isHistory, !machine[h].isDeepHistory,
              let parent = machine[h].parent else { return result }
        if machine.isParallel(parent) {
            // It recorded every region, each entered by its default.
            let regions = machine.childStates(parent)
            result.append(machine.entrySet([shape], historyValue: { $0 == h ? regions : nil }))
            return result
        }
        for child in machine.childStates(parent) where reached.contains(child) {
            result.append(machine.entrySet([shape], historyValue: { $0 == h ? [child] : nil }))
        }
        return result
    }

    static func diagnostics(_ machine: Machine) -> [Diagnostic] {
        // A transition whose target did not resolve may be the way into some state; stay
        // quiet rather than report a consequence of that error.
        guard let start = machine.initialState,
              !machine.transitions.contains(where: { $0.isBroken && $0.target == nil }) else { return [] }
        let reachable = reachableStates(machine)
        let constants = machine.constantValues
        // The transitions the search leaves out although their state is reached: they are
        // proven never to fire, and may be the only way into a state.
        let dead = machine.transitions.filter { t in
            t.target != nil && reachable.contains(t.source) && (t.neverFires(constants: constants) || machine.waitsInVain(t))
        }
        return machine.states.dropFirst().filter { !$0.isHistory && !reachable.contains($0.id) }.map { state in
            // Say which of them would have entered it, and why they never fire, rather than
            // "no transition" (a history target: whatever its parent holds).
            let stopped = dead.filter { t in
                entries(t, machine, reached: reachable.union([state.id])).contains { $0.contains(state.id) }
            }
            guard let first = stopped.first else {
                return Diagnostic(.unreachableState,
                                  "state '\(state.name)' is unreachable: no transition leads to it from the initial state '\(machine[start].name)'",
                                  at: state.range)
            }
            let notes = stopped.map { t in
                DiagnosticNote(stopped.count == 1 ? whyNeverFires(t, machine)
                                   : "\(describe(t, machine)) never fires: \(whyNeverFires(t, machine))", at: t.keywordRange)
            }
            let message = stopped.count == 1
                ? "state '\(state.name)' is unreachable: the transition that leads to it, \(describe(first, machine)), never fires"
                : "state '\(state.name)' is unreachable: the \(stopped.count) transitions that lead to it never fire"
            return Diagnostic(.unreachableState, message, at: state.range, notes: notes)
        }
    }

    /// A transition in words: its trigger as written, and where: `'done' in 'loading'`.
    static func describe(_ t: Transition, _ machine: Machine) -> String {
        let trigger: String
        switch t.trigger {
        case .events(let events): trigger = "on " + events.map { machine[$0].name }.joined(separator: ", ")
        case .after(let delay): trigger = "after " + machine.text(delay.range)
        case .done(let x): trigger = x == t.source ? "done" : "done(\(machine[x].name))"
        case .always: trigger = "always"
        }
        return "'\(trigger)' in '\(machine[t.source].name)'"
    }

    /// Why a transition the reachability search leaves out never fires: its guard folds to
    /// `false`, or it waits for a completion that never comes.
    static func whyNeverFires(_ t: Transition, _ machine: Machine) -> String {
        if case .done(let x) = t.trigger, machine.neverCompletes(x) {
            return machine.whyNeverCompletes(x)
        }
        if let g = t.guardExpr { return "its guard '\(machine.text(g.range))' is always false" }
        return "it is never enabled"
    }
}
