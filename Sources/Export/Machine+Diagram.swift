import StatecraftModel

/// The question both writers ask of the state tree beyond the model's tree rules: which
/// states are drawn as containers. The model's rules (`StateTree.swift`) say the rest: the
/// child an initial arrow points at (`defaultChild`), and the container whose block an edge
/// is written in (`innermostContainer`), outside both ends, so that an edge to an ancestor
/// is drawn in the ancestor's parent and never names a composite from within itself.
extension Machine {
    /// Whether `s` is drawn as a container (a DOT cluster, a Mermaid composite): a compound
    /// or parallel state with children. The root is one, but it is the whole drawing.
    func isCluster(_ s: StateID) -> Bool {
        s != root && (isCompound(s) || isParallel(s)) && !self[s].children.isEmpty
    }
}
