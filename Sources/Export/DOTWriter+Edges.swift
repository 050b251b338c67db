import StatecraftModel

extension DOTDocument {
    /// Labels up to this many characters stay on one line; longer ones put the guard and
    /// the outputs on lines of their own, so long guards do not stretch the graph sideways.
    private static let oneLineLimit = 30

    /// Every transition as its own edge, in source order, so several transitions between
    /// the same pair of states stay separate and keep their own labels and overlay styles.
    mutating func writeTransitions() {
        for transition in machine.transitions {
            guard isDrawn(transition.source) else { continue }
            if let target = transition.target, !isDrawn(target) { continue }
            writeTransition(transition)
        }
    }

    /// One edge. An internal transition (no target: actions only, no exit or entry) is a
    /// loop on its state like an external self transition, but below the state instead of
    /// above, dotted, and ending in a small circle instead of an arrow. It stays an edge, not
    /// a line in the state's box, so the overlay can colour it, count it and dash it like
    /// any other transition; the circle still marks it when coverage dashes it.
    private mutating func writeTransition(_ transition: Transition) {
        let target = transition.target ?? transition.source
        let tail = anchor(transition.source)
        let head = anchor(target)
        var attrs = [("label", DOTString.label(labelLines(transition)))]
        var style: String?
        if transition.target == nil {
            style = "dotted"
            attrs.append(("arrowhead", "odot"))
        }
        var color: String?
        if let coverage = overlay.coverage, coverage.count(transition.id) == 0 {
            style = "dashed"
            color = "grey55"
        }
        if overlay.deadTransitions.contains(transition.id) { color = "red" }
        if let style { attrs.insert(("style", style), at: 1) }
        if let color { attrs += [("color", color), ("fontcolor", color)] }
        // Clip at a cluster's border only when the other end lies outside it; Graphviz
        // cannot clip an edge at a cluster that holds both of its ends.
        if isCluster(transition.source), !isInside(head, transition.source) {
            attrs.append(("ltail", "cluster_" + nodeID(transition.source)))
        }
        if isCluster(target), !isInside(tail, target) {
            attrs.append(("lhead", "cluster_" + nodeID(target)))
        }
        // Loops sit on fixed sides so the two kinds never tangle: external self transitions
        // above the state, internal ones below it.
        let port = tail != head ? "" : transition.target == nil ? ":s" : ":n"
        line(nodeID(tail) + port + " -> " + nodeID(head) + port + " [" + attributes(attrs) + "]")
    }

    /// `event [guard] / outputs`, on one line or one part per line, with `×N` appended when
    /// coverage says the transition was taken.
    private func labelLines(_ transition: Transition) -> [String] {
        let label = TransitionLabel(transition, in: machine)
        var lines = label.singleLine.count <= Self.oneLineLimit ? [label.singleLine] : label.parts
        if let coverage = overlay.coverage, coverage.count(transition.id) > 0, let last = lines.popLast() {
            lines.append(last + " ×\(coverage.count(transition.id))")
        }
        return lines
    }
}
