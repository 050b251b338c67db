import StatecraftDiagnostics
import StatecraftModel

/// Which states a path of transitions can reach from the initial state, ignoring guards
/// except those that fold to constant `false`.
public enum Reachability {
    /// The states reachable from the initial state (with their ancestors), breadth first.
    public static func reachableStates(_ machine: Machine) -> Set<StateID> {
        guard let start = machine.initialState else { return [] }
        let constants = machine.constantValues
        var seen: Set<StateID> = []
        var queue = [StateID]()
        func enter(_ id: StateID) {
            // Entering a state enters its ancestors and, for compound states, its initial child.
            var leaf = id
            while let child = machine[leaf].initialChild { leaf = child }
            var current: StateID? = leaf
            while let s = current, s != machine.root {
                if seen.insert(s).inserted { queue.append(s) }
                current = machine[s].parent
            }
        }
        enter(start)
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            for t in machine[state].transitions {
                let transition = machine[t]
                guard let target = transition.target, !transition.neverFires(constants: constants) else { continue }
                enter(target)
            }
        }
        return seen
    }

    static func diagnostics(_ machine: Machine) -> [Diagnostic] {
        // A transition whose target did not resolve may be the way into some state; stay
        // quiet rather than report a consequence of that error.
        guard let start = machine.initialState,
              !machine.transitions.contains(where: { $0.isBroken && $0.target == nil }) else { return [] }
        let reachable = reachableStates(machine)
        return machine.states.dropFirst().filter { !reachable.contains($0.id) }.map { state in
            Diagnostic(.unreachableState,
                       "state '\(state.name)' is unreachable: no transition leads to it from the initial state '\(machine[start].name)'",
                       at: state.range)
        }
    }
}
