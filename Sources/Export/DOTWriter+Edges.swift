import StatecraftModel

extension DOTDocument {
    /// A label's parts share a line while it stays this short; a part that does not fit
    /// starts a new line, so long guards do not stretch the graph sideways.
    private static let lineLimit = 30

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
    /// loop on its state like an external self transition, but dotted and ending in a small
    /// circle instead of an arrow (and below the state when both kinds meet). It stays an edge, not
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
        // A state with loops of both kinds gets them on fixed sides, external above and
        // internal below, so they never tangle. Otherwise Graphviz places the loops itself:
        // it reserves room for the labels of loops without ports, but not for those with.
        let port = tail != head || !hasBothKindsOfLoops(tail) ? "" : transition.target == nil ? ":s" : ":n"
        line(nodeID(tail) + port + " -> " + nodeID(head) + port + " [" + attributes(attrs) + "]")
    }

    /// `event [guard] / outputs`, on one line or one part per line, with `×N` appended when
    /// coverage says the transition was taken.
    private func labelLines(_ transition: Transition) -> [String] {
        let label = TransitionLabel(transition, in: machine)
        var lines: [String] = []
        for part in label.parts {
            if let last = lines.last, last.count + 1 + part.count <= Self.lineLimit {
                lines[lines.count - 1] = last + " " + part
            } else {
                lines.append(part)
            }
        }
        if let coverage = overlay.coverage, coverage.count(transition.id) > 0, let last = lines.popLast() {
            lines.append(last + " ×\(coverage.count(transition.id))")
        }
        return lines
    }

    /// Whether the node `id` carries an external self transition and an internal one.
    private func hasBothKindsOfLoops(_ id: StateID) -> Bool {
        var external = false
        var stays = false
        for t in machine.transitions where isDrawn(t.source) && anchor(t.source) == id {
            if let target = t.target {
                if isDrawn(target) && anchor(target) == id { external = true }
            } else {
                stays = true
            }
        }
        return external && stays
    }
}
