import StatecraftModel

/// The questions both writers ask of the state tree beyond the model's tree rules
/// (`StateTree.swift` in the model): which states are drawn as containers, and which child
/// an initial arrow points at.
extension Machine {
    /// Whether `s` is drawn as a container (a DOT cluster, a Mermaid composite): a compound
    /// or parallel state with children. The root is one, but it is the whole drawing.
    func isCluster(_ s: StateID) -> Bool {
        s != root && (isCompound(s) || isParallel(s)) && !self[s].children.isEmpty
    }

    /// The child of compound state `s` an initial arrow points at: its initial child, or
    /// its first child state when none is marked (the model's default entry does the same).
    func initialChildToDraw(of s: StateID) -> StateID? {
        guard isCompound(s) else { return nil }
        return self[s].initialChild ?? childStates(s).first
    }

    /// The innermost proper ancestor of `a` that holds `b` strictly inside it (the root
    /// when nothing smaller does): the container whose block a drawing writes an edge from
    /// `a` to `b` in, outside both ends. For an edge to an ancestor of `a` that is the
    /// ancestor's parent: drawn inside the ancestor's own block, the edge would name a
    /// composite from within itself.
    func innermostContainer(_ a: StateID, _ b: StateID) -> StateID {
        properAncestors(a).first { isDescendant(b, of: $0) } ?? root
    }
}
