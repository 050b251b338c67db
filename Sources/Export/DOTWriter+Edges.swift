#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import StatecraftModel

extension DOTDocument {
    /// A label's parts share a line while it stays this short; a part that does not fit
    /// starts a new line, so long guards do not stretch the graph sideways.
    private static let lineLimit = 30

    /// Every transition as its own edge, in source order, so several transitions between
    /// the same pair of states stay separate and keep their own labels and overlay styles;
    /// then the defaults of each history state that has them.
    mutating func writeTransitions() {
        for transition in machine.transitions where transition.source != machine.root
            && transition.target != machine.root {
            writeTransition(transition)
        }
        for state in machine.states where state.isHistory {
            for target in state.historyDefaults {
                let clip = clipping(from: state.id, to: target)
                line(nodeID(state.id) + " -> " + nodeID(target) + (clip.isEmpty ? "" : " [" + attributes(clip) + "]"))
            }
        }
    }

    /// How one transition is drawn, whichever way its edge is routed.
    private struct EdgeLook {
        var label: [String]
        /// `dotted` for a targetless transition, `dashed` for one coverage never saw.
        var style: String?
        var color: String?
        var penwidth: String?
        var targetless: Bool

        /// `style`, `color` and `penwidth`, for every segment of the edge.
        var lineAttributes: [(String, String)] {
            var attrs: [(String, String)] = []
            if let style { attrs.append(("style", style)) }
            if let color { attrs.append(("color", color)) }
            if let penwidth { attrs.append(("penwidth", penwidth)) }
            return attrs
        }
    }

    /// One edge. A targetless transition (actions only, no exit or entry) is a loop on its
    /// state like an external self transition, but dotted and ending in a small circle
    /// instead of an arrow (and below the state when both kinds meet). It stays an edge, not
    /// a line in the state's box, so the overlay can colour it, count it and dash it like
    /// any other transition; the circle still marks it when coverage dashes it.
    private mutating func writeTransition(_ transition: Transition) {
        let tail = transition.source
        let head = transition.target ?? transition.source
        let look = self.look(transition)
        if routedTransitions.contains(transition.id) {
            writeRoutedTransition(transition, look)
            return
        }
        var attrs = [("label", DOTString.label(look.label))]
        if let style = look.style { attrs.append(("style", style)) }
        if look.targetless { attrs.append(("arrowhead", "odot")) }
        if let penwidth = look.penwidth { attrs.append(("penwidth", penwidth)) }
        if let color = look.color { attrs += [("color", color), ("fontcolor", color)] }
        // A state with loops of both kinds gets them on fixed sides, external above and
        // internal below, so they never tangle. Otherwise Graphviz places the loops itself:
        // it reserves room for the labels of loops without ports, but not for those with.
        let port = tail != head || !hasBothKindsOfLoops(tail) ? "" : transition.target == nil ? ":s" : ":n"
        line(nodeID(tail) + port + " -> " + nodeID(head) + port + " [" + attributes(attrs) + "]")
    }

    /// A transition drawn in two segments that meet at its label, a text node `tN`:
    /// `tail -> tN` without an arrowhead, then `tN -> head`.
    ///
    /// For a cluster at an end: an edge label belongs to the whole spline, which runs to a
    /// point inside the cluster, so once Graphviz clips the edge at the border the label
    /// floats where the unclipped spline went, over a cluster's title or another label. A
    /// node is never overlapped, so the label is laid out with the states, outside every
    /// cluster at an end. Each segment then has a node outside the cluster it is clipped
    /// at, so every end can be clipped, even where one end holds the other (Graphviz cannot
    /// clip an edge at a cluster holding both its ends): an edge to an ancestor leaves its
    /// state, passes its label outside the ancestor and comes back to meet the ancestor's
    /// border from outside, where UML draws it; a loop on a compound state leaves and
    /// meets its border. Each end has an anchor point of its own inside the cluster
    /// (`tNa`, `tNb`), so the edges of one cluster meet its border at separate points, and
    /// a loop's two ends are apart.
    ///
    /// For parallel edges between leaves (see `isRouted`): the label nodes keep their
    /// labels apart.
    private mutating func writeRoutedTransition(_ transition: Transition, _ look: EdgeLook) {
        let tail = transition.source
        let head = transition.target ?? transition.source
        let label = labelNodeID(transition.id)
        let tailNode = machine.isCluster(tail) ? Self.endID(transition.id, .tail) : nodeID(tail)
        let headNode = machine.isCluster(head) ? Self.endID(transition.id, .head) : nodeID(head)
        var first = [("arrowhead", "none")] + look.lineAttributes
        if machine.isCluster(tail) { first.append(("ltail", "cluster_" + nodeID(tail))) }
        line(tailNode + " -> " + label + " [" + attributes(first) + "]")
        var second = look.lineAttributes
        if look.targetless { second.insert(("arrowhead", "odot"), at: 0) }
        if machine.isCluster(head) { second.append(("lhead", "cluster_" + nodeID(head))) }
        line(label + " -> " + headNode + (second.isEmpty ? "" : " [" + attributes(second) + "]"))
    }

    /// The label node of each transition drawn through one, in the block that declares it.
    mutating func writeLabelNodes(in scope: StateID) {
        for id in labelNodesByScope[scope] ?? [] {
            let look = self.look(machine[id])
            var attrs = [("shape", "plaintext"), ("fontsize", "10"), ("width", "0"), ("height", "0"),
                         ("margin", "0.04"), ("label", DOTString.label(look.label))]
            if let color = look.color { attrs.append(("fontcolor", color)) }
            declare(labelNodeID(id), attributes(attrs))
        }
    }

    /// The id of a transition's label node.
    func labelNodeID(_ id: TransitionID) -> String { "t\(id.index)" }

    /// Label, style and colours of a transition, from the overlay.
    private func look(_ transition: Transition) -> EdgeLook {
        var look = EdgeLook(label: labelLines(transition), targetless: transition.target == nil)
        if look.targetless { look.style = "dotted" }
        if let coverage = overlay.coverage, coverage.count(transition.id) == 0 {
            look.style = "dashed"
            look.color = "grey55"
        }
        if overlay.heat, let coverage = overlay.coverage, coverage.count(transition.id) > 0 {
            // On a logarithmic scale, from a pale blue (taken once) to a deep red (the most taken).
            let most = max(1, coverage.transitionCounts.values.max() ?? 1)
            let share = most == 1 ? 1 : log(Double(coverage.count(transition.id))) / log(Double(most))
            look.color = "\"" + DOTDocument.heatColour(share) + "\""
            look.penwidth = String(Double((10 + 30 * share).rounded()) / 10)
        }
        if overlay.deadTransitions.contains(transition.id) { look.color = "red" }
        return look
    }

    /// `ltail`/`lhead` for an edge whose ends are clusters. An end is clipped at its
    /// cluster's border only when the other end lies outside that cluster: Graphviz cannot
    /// clip an edge at a cluster that holds both of its ends (it warns and draws it unclipped).
    func clipping(from tail: StateID, to head: StateID) -> [(String, String)] {
        var attrs: [(String, String)] = []
        if machine.isCluster(tail), !isInside(head, tail) { attrs.append(("ltail", "cluster_" + nodeID(tail))) }
        if machine.isCluster(head), !isInside(tail, head) { attrs.append(("lhead", "cluster_" + nodeID(head))) }
        return attrs
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

    /// Whether state `id` carries an external self transition and a targetless one.
    private func hasBothKindsOfLoops(_ id: StateID) -> Bool {
        var external = false
        var stays = false
        for t in machine[id].transitions.map({ machine[$0] }) {
            if let target = t.target {
                if target == id { external = true }
            } else {
                stays = true
            }
        }
        return external && stays
    }
}

extension DOTDocument {
    /// `#rrggbb` from a pale blue (0) through violet to a deep red (1).
    static func heatColour(_ share: Double) -> String {
        let t = min(1, max(0, share))
        let from = (0x7f, 0xa7, 0xd9), to = (0xc0, 0x1c, 0x28)
        func mix(_ a: Int, _ b: Int) -> Int { Int((Double(a) + (Double(b) - Double(a)) * t).rounded()) }
        let hex = [mix(from.0, to.0), mix(from.1, to.1), mix(from.2, to.2)].map { n -> String in
            let digits = String(n, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "#" + hex.joined()
    }
}
