import StatecraftModel

/// Smaller drawings of big charts: one state's subtree (`--state NAME`), or the tree cut at
/// a depth with the compound and parallel states there drawn as plain boxes (`--depth N`).
///
/// Both return a copy of the machine that the writers draw as they draw any machine. State
/// and transition ids stay as they are (so an overlay's findings and coverage still apply):
/// a state left out is cut from the tree (no parent lists it, and it has no children or
/// history default), and a transition left out is pointed at the root, which the
/// writers never draw an edge to or from.
extension Machine {
    /// The subtree of `state` alone, `state` as the only top-level state. Transitions with
    /// an end outside it are left out; no initial arrow is drawn (see
    /// `DiagramOverlay.focus`).
    package func subtree(_ state: StateID) -> Machine {
        var m = self
        guard state != root else { return m }
        let last = lastDescendant(state)
        func inside(_ s: StateID) -> Bool { s >= state && s <= last }
        for s in states.indices.dropFirst() where !inside(StateID(s)) { m.cut(StateID(s)) }
        m.states[root.index].children = [state]
        m.states[root.index].initialChild = state
        m.states[root.index].initialTargets = []
        m.states[state.index].parent = root
        for t in transitions.indices where !inside(transitions[t].source) || !(transitions[t].target.map(inside) ?? true) {
            m.hide(t)
        }
        return m
    }

    /// The tree cut below `depth` (top-level states are at depth 1): each compound or
    /// parallel state at that depth becomes a leaf, returned in the set so a writer can
    /// mark it. A transition from or to a state inside one is drawn from or to it; one
    /// that stays inside it (both ends in it, or targetless) is left out.
    package func collapsed(belowDepth depth: Int) -> (machine: Machine, collapsed: Set<StateID>) {
        var m = self
        var owner: [StateID?] = Array(repeating: nil, count: states.count)
        var collapsed = Set<StateID>()
        func walk(_ s: StateID, _ d: Int) {
            for child in self[s].children {
                if d == depth && !self[child].children.isEmpty && (isCompound(child) || isParallel(child)) {
                    collapsed.insert(child)
                    for hidden in (child.index + 1)...lastDescendant(child).index {
                        owner[hidden] = child
                        m.cut(StateID(hidden))
                    }
                    m.states[child.index].children = []
                    m.states[child.index].initialChild = nil
                    m.states[child.index].initialTargets = []
                } else {
                    walk(child, d + 1)
                }
            }
        }
        if depth >= 1 { walk(root, 1) }
        for (i, t) in transitions.enumerated() {
            let source = owner[t.source.index] ?? t.source
            let target = t.target.map { owner[$0.index] ?? $0 }
            let moved = source != t.source || target != t.target
            if moved && (target == nil || target == source) {
                m.hide(i)
            } else {
                m.transitions[i].source = source
                m.transitions[i].target = target
            }
        }
        return (m, collapsed)
    }

    /// Takes a state out of the drawing: no children, and for a history state no default
    /// arrow. (It keeps its kind, so coverage still counts it as the machine does.)
    private mutating func cut(_ s: StateID) {
        states[s.index].children = []
        states[s.index].historyDefaults = []
        states[s.index].initialChild = nil
        states[s.index].initialTargets = []
    }

    /// Leaves a transition out of the drawing: the writers skip transitions at the root.
    private mutating func hide(_ t: Int) {
        transitions[t].source = root
        transitions[t].target = root
    }
}
