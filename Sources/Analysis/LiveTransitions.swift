import StatecraftModel

/// The transitions that may fire, for the lints that claim something never happens
/// (`history-always-default`, `unhandled-raise`): every transition written in a reachable
/// state, except those proven never to fire (a guard that folds to `false`, a `done` for a
/// state that never completes, a transition shadowed by an earlier unguarded one). Guards
/// are otherwise ignored, so "never" claimed over these transitions holds whatever the
/// variables and payloads are.
struct LiveTransitions {
    /// The states some path of transitions reaches.
    let reachable: Set<StateID>
    /// The transitions that may fire, in source order.
    let transitions: [Transition]

    init(_ machine: Machine) {
        reachable = Reachability.reachableStates(machine)
        let dead = Checker.deadTransitions(machine)
        transitions = machine.transitions.filter { [reachable] t in reachable.contains(t.source) && !dead.contains(t.id) }
    }
}
