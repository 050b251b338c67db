import StatecraftModel

/// Writes a machine as a Graphviz DOT digraph, for people who review interactions as pictures.
///
/// The output depends only on the machine and the overlay, in array order, so the same
/// input always gives the same bytes. Node ids are generated (`s1`, `s2`, … by state index;
/// `init` points; `cluster_s3` for the children of state 3), so no state name can clash
/// with DOT syntax: names only appear inside escaped labels.
public enum DOTWriter {
    /// The DOT text for `machine`, with `overlay`'s findings and coverage drawn on it.
    public static func write(_ machine: Machine, overlay: DiagramOverlay = DiagramOverlay()) -> String {
        var document = DOTDocument(machine: machine, overlay: overlay)
        document.write()
        return document.text
    }
}

/// One DOT rendering in progress: the state tree walked once, then written top down.
struct DOTDocument {
    let machine: Machine
    let overlay: DiagramOverlay
    let tree: StateTree
    private(set) var text = ""
    private var indent = 1

    init(machine: Machine, overlay: DiagramOverlay) {
        self.machine = machine
        self.overlay = overlay
        tree = StateTree(machine)
    }

    mutating func write() {
        text += "digraph " + DOTString.quoted(machine.name) + " {\n"
        // With coverage, the title says how much of the machine the logs exercised.
        let title = overlay.coverage.map { machine.name + " — covered: " + $0.summary(machine) } ?? machine.name
        line("graph [label=\(DOTString.quoted(title)), labelloc=t, rankdir=LR, nodesep=0.4]")
        line("node [shape=box, style=rounded]")
        line("edge [fontsize=10]")
        if tree.hasContainers { line("compound=true") }
        writeDeclarations()
        if initialChild(of: machine.root) != nil { line("init [shape=point, width=0.15]") }
        blank()
        writeChildren(of: machine.root)
        blank()
        if let initial = initialChild(of: machine.root) {
            writeEntryArrow(from: "init", to: initial)
        }
        writeTransitions()
        text += "}\n"
    }

    // MARK: - Constants and variables

    /// One note listing the constants and variables, so the picture stands alone. It is
    /// a plain node, not a graph label, so Graphviz places it beside the states instead
    /// of stretching the graph's title.
    private mutating func writeDeclarations() {
        var lines: [String] = []
        for constant in machine.constants {
            lines.append("const \(constant.name) = \(constant.value)")
        }
        for variable in machine.variables {
            let keyword = variable.isPublic ? "public var" : "var"
            lines.append("\(keyword) \(variable.name): \(variable.type.rawValue) = \(variable.initialValue)")
        }
        guard !lines.isEmpty else { return }
        line("declarations [shape=note, fontsize=10, label=\(DOTString.label(lines, .left))]")
    }

    // MARK: - States

    /// Writes the children of `parent`: leaves as nodes, states with children as clusters.
    private mutating func writeChildren(of parent: StateID) {
        for child in tree.children(of: parent) {
            if isCluster(child) {
                writeCluster(child)
            } else {
                line(nodeID(child) + " [" + attributes(nodeAttributes(child)) + "]")
            }
        }
    }

    /// A compound or parallel state as `subgraph cluster_sN`, holding its children and, for
    /// a compound state, the entry arrow to its initial child.
    private mutating func writeCluster(_ id: StateID) {
        let state = machine.states[id.index]
        line("subgraph cluster_\(nodeID(id)) {")
        indent += 1
        line("graph [" + attributes(clusterAttributes(id)) + "]")
        let initial = state.kind == .parallel ? nil : initialChild(of: id)
        if initial != nil { line("init_\(nodeID(id)) [shape=point, width=0.1]") }
        writeChildren(of: id)
        if let initial { writeEntryArrow(from: "init_\(nodeID(id))", to: initial) }
        indent -= 1
        line("}")
    }

    private func nodeAttributes(_ id: StateID) -> [(String, String)] {
        let state = machine.states[id.index]
        var lines = [state.name]
        let entry = TransitionLabel.outputs(of: state.entry, in: machine)
        if !entry.isEmpty { lines.append("entry / " + entry.joined(separator: ", ")) }
        let exit = TransitionLabel.outputs(of: state.exit, in: machine)
        if !exit.isEmpty { lines.append("exit / " + exit.joined(separator: ", ")) }
        var attrs = [("label", DOTString.label(lines))]
        // Final states drop the default rounded box for a double circle; `style` is written
        // only where it differs from the default (the empty style resets it).
        if state.isFinal { attrs.append(("shape", "doublecircle")) }
        var style = state.isFinal ? [] : ["rounded"]
        let unvisited = isUnvisited(id)
        if unvisited { style.append("filled") }
        if state.isFinal || unvisited { attrs.append(("style", DOTString.quoted(style.joined(separator: ",")))) }
        if unvisited { attrs += [("fillcolor", "grey92"), ("color", "grey60"), ("fontcolor", "grey45")] }
        if overlay.unreachableStates.contains(id) {
            attrs.removeAll { $0.0 == "color" || $0.0 == "fontcolor" }
            attrs += [("color", "red"), ("fontcolor", "red")]
        }
        return attrs
    }

    private func clusterAttributes(_ id: StateID) -> [(String, String)] {
        let state = machine.states[id.index]
        // A parallel state's children are all active at once: dashed, like UML's regions.
        var style = state.kind == .parallel ? ["rounded", "dashed"] : ["rounded"]
        var attrs = [("label", DOTString.quoted(state.name))]
        if isUnvisited(id) {
            style.append("filled")
            attrs += [("fillcolor", "grey96"), ("color", "grey60"), ("fontcolor", "grey45")]
        }
        if overlay.unreachableStates.contains(id) {
            attrs.removeAll { $0.0 == "color" || $0.0 == "fontcolor" }
            attrs += [("color", "red"), ("fontcolor", "red")]
        }
        attrs.insert(("style", DOTString.quoted(style.joined(separator: ","))), at: 1)
        return attrs
    }

    private mutating func writeEntryArrow(from point: String, to target: StateID) {
        var attrs: [(String, String)] = []
        if isCluster(target) { attrs.append(("lhead", "cluster_" + nodeID(target))) }
        line(point + " -> " + nodeID(anchor(target)) + (attrs.isEmpty ? "" : " [" + attributes(attrs) + "]"))
    }

    // MARK: - Tree helpers

    func isDrawn(_ id: StateID) -> Bool { tree.isDrawn(id) }

    func isCluster(_ id: StateID) -> Bool { tree.isContainer(id) }

    func initialChild(of id: StateID) -> StateID? { tree.initialChild(of: id) }

    /// The node an edge to or from `id` is attached to: `id` itself, or for a cluster the
    /// node its initial path leads to (the edge is then clipped at the cluster's border).
    func anchor(_ id: StateID) -> StateID { tree.initialLeaf(id) }

    func isInside(_ id: StateID, _ ancestor: StateID) -> Bool { tree.isInside(id, ancestor) }

    func isUnvisited(_ id: StateID) -> Bool {
        guard let coverage = overlay.coverage else { return false }
        return !coverage.visitedStates.contains(id)
    }

    func nodeID(_ id: StateID) -> String { "s\(id.index)" }

    // MARK: - Output

    func attributes(_ attrs: [(String, String)]) -> String {
        attrs.map { $0.0 + "=" + $0.1 }.joined(separator: ", ")
    }

    mutating func line(_ s: String) {
        text += String(repeating: "    ", count: indent) + s + "\n"
    }

    mutating func blank() { text += "\n" }
}
