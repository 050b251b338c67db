import StatecraftModel

/// Writes a machine as a Graphviz DOT digraph, for people who review interactions as pictures.
///
/// The output depends only on the machine and the overlay, in array order, so the same
/// input always gives the same bytes. Node ids are generated (`s1`, `s2`, … by state index;
/// `init` points; `cluster_s3` for the children of state 3), so no state name can clash
/// with DOT syntax: names only appear inside escaped labels.
///
/// Compound and parallel states are clusters. An edge to or from one ends at an invisible
/// point inside it (`sN` for initial arrows and history defaults, `tNa`/`tNb` for the two
/// ends of transition N) and is clipped at the cluster's border with `lhead`/`ltail`
/// (`compound=true`), so it meets the box and not one of its children. A transition at a
/// cluster, across a cluster's border or parallel to another runs through its label, a
/// text node `tN` (see `writeRoutedTransition`).
public enum DOTWriter {
    /// The DOT text for `machine`, with `overlay`'s findings and coverage drawn on it.
    public static func write(_ machine: Machine, overlay: DiagramOverlay = DiagramOverlay()) -> String {
        var document = DOTDocument(machine: machine, overlay: overlay)
        document.write()
        return document.text
    }
}

/// One DOT rendering in progress: the state tree written top down, then the edges.
struct DOTDocument {
    let machine: Machine
    let overlay: DiagramOverlay
    /// The clusters some edge (a transition, a history default, an initial arrow) starts or
    /// ends at, which therefore need their anchor point.
    private let anchoredClusters: Set<StateID>
    /// The transitions drawn through a label node (see `writeRoutedTransition`), by the
    /// state whose block declares that node: the innermost one holding both ends, outside
    /// both (the root is the top level).
    let labelNodesByScope: [StateID: [TransitionID]]
    /// The transitions drawn through a label node.
    let routedTransitions: Set<TransitionID>
    /// The anchor points of routed transitions' ends, by the cluster holding them.
    private let transitionEnds: [StateID: [String]]
    private(set) var text = ""
    private var indent = 1
    /// Every node id written so far, in order: a parallel state laid out as a grid reads
    /// the nodes of each region from it.
    private var declared: [String] = []

    init(machine: Machine, overlay: DiagramOverlay) {
        self.machine = machine
        self.overlay = overlay
        let routed = Set(machine.transitions.filter { Self.isRouted($0, in: machine) }.map(\.id))
        var anchored = Set<StateID>()
        var scopes: [StateID: [TransitionID]] = [:]
        var ends: [StateID: [String]] = [:]
        for t in machine.transitions where t.source != machine.root && t.target != machine.root {
            let head = t.target ?? t.source
            guard routed.contains(t.id) else {
                anchored.insert(t.source)
                anchored.insert(head)
                continue
            }
            let scope = machine.innermostContainer([t.source, head])
            scopes[scope, default: []].append(t.id)
            if machine.isCluster(t.source) { ends[t.source, default: []].append(Self.endID(t.id, .tail)) }
            if machine.isCluster(head) { ends[head, default: []].append(Self.endID(t.id, .head)) }
        }
        for s in machine.states {
            anchored.formUnion(s.historyDefaults)
            if let initial = machine.defaultChild(s.id) { anchored.insert(initial) }
        }
        anchoredClusters = anchored.filter { machine.isCluster($0) }
        labelNodesByScope = scopes
        routedTransitions = routed
        transitionEnds = ends
    }

    /// Whether a transition is drawn through a label node (see `writeRoutedTransition`):
    /// when a cluster is at one of its ends; when it crosses a cluster's border (its ends
    /// have different parents); or when another transition joins the same two states
    /// (either way). Graphviz places the labels of the last two kinds on top of each other
    /// when their states share a rank, which it cannot avoid across clusters.
    static func isRouted(_ t: Transition, in machine: Machine) -> Bool {
        let head = t.target ?? t.source
        if machine.isCluster(t.source) || machine.isCluster(head) { return true }
        guard head != t.source else { return false }
        if machine[t.source].parent != machine[head].parent { return true }
        return machine[t.source].transitions.contains { $0 != t.id && machine[$0].target == head }
            || machine[head].transitions.contains { machine[$0].target == t.source }
    }

    /// Which end of a routed transition an anchor point serves.
    enum End: String { case tail = "a", head = "b" }

    /// The anchor point inside a cluster for one end of a routed transition: each end has
    /// its own, so edges meet the cluster's border at points of their own instead of all
    /// converging on one.
    static func endID(_ t: TransitionID, _ end: End) -> String { "t\(t.index)" + end.rawValue }

    mutating func write() {
        text += "digraph " + DOTString.quoted(machine.name) + " {\n"
        // With coverage, the title says how much of the machine the logs exercised.
        let title = overlay.coverage.map { machine.name + " — covered: " + $0.summary(machine) } ?? machine.name
        line("graph [label=\(DOTString.quoted(title)), labelloc=t, rankdir=LR, nodesep=0.4]")
        line("node [shape=box, style=rounded]")
        line("edge [fontsize=10]")
        if machine.states.contains(where: { machine.isCluster($0.id) }) {
            line("compound=true")
            // Graphviz's default ranking of clusters fails on some statecharts ("trouble in
            // init_rank", no drawing at all); its newer ranking draws them.
            line("newrank=true")
        }
        writeDeclarations()
        let initial = overlay.focus == nil ? machine.defaultChild(machine.root) : nil
        if initial != nil { line("init [shape=point, width=0.15]") }
        blank()
        writeChildren(of: machine.root)
        writeLabelNodes(in: machine.root)
        blank()
        if let initial { writeEntryArrow(from: "init", to: initial) }
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

    /// Writes the children of `parent`: leaves and history states as nodes, states with
    /// children as clusters.
    private mutating func writeChildren(of parent: StateID) {
        for child in machine[parent].children {
            if machine.isCluster(child) {
                writeCluster(child)
            } else {
                declare(nodeID(child), attributes(nodeAttributes(child)))
            }
        }
    }

    /// A parallel state with at least this many regions has them laid out in a grid, not
    /// one above the other (fifty regions stacked make a strip ten thousand pixels tall).
    static let gridRegions = 5

    /// The regions of a big parallel state in columns of about the square root of their
    /// number: every node of a column comes before an invisible gate node, which comes
    /// before every node of the next column, so Graphviz ranks the columns one after the
    /// other (it stacks unconnected clusters otherwise). History states of the parallel
    /// state itself are written first, outside the grid.
    private mutating func writeRegionGrid(_ parallel: StateID) {
        let regions = machine.childStates(parallel)
        for history in machine.historyStates(parallel) {
            declare(nodeID(history), attributes(nodeAttributes(history)))
        }
        var columns = 1
        while columns * columns < regions.count { columns += 1 }
        let rows = (regions.count + columns - 1) / columns
        var nodesByColumn: [[String]] = Array(repeating: [], count: columns)
        for (i, region) in regions.enumerated() {
            let start = declared.count
            if machine.isCluster(region) {
                writeCluster(region)
            } else {
                declare(nodeID(region), attributes(nodeAttributes(region)))
            }
            nodesByColumn[i / rows] += declared[start...]
        }
        for column in 0..<(columns - 1) where !nodesByColumn[column + 1].isEmpty {
            let gate = "grid_\(nodeID(parallel))_\(column + 1)"
            declare(gate, "shape=point, style=invis, width=0.01, height=0.01, label=\"\"")
            for node in nodesByColumn[column] { line(node + " -> " + gate + " [style=invis]") }
            for node in nodesByColumn[column + 1] { line(gate + " -> " + node + " [style=invis]") }
        }
    }

    /// Writes a node statement and remembers its id.
    mutating func declare(_ id: String, _ attributes: String) {
        declared.append(id)
        line(id + " [" + attributes + "]")
    }

    /// A compound or parallel state as `subgraph cluster_sN`, holding its anchor point when
    /// an edge needs it, its children and, for a compound state, the entry arrow to its
    /// initial child.
    private mutating func writeCluster(_ id: StateID) {
        line("subgraph cluster_\(nodeID(id)) {")
        indent += 1
        line("graph [" + attributes(clusterAttributes(id)) + "]")
        if anchoredClusters.contains(id) {
            declare(nodeID(id), "shape=point, style=invis, width=0.01, height=0.01, label=\"\"")
        }
        for end in transitionEnds[id] ?? [] {
            declare(end, "shape=point, style=invis, width=0.01, height=0.01, label=\"\"")
        }
        let initial = machine.isParallel(id) ? nil : machine.defaultChild(id)
        if initial != nil { declare("init_\(nodeID(id))", "shape=point, width=0.1") }
        if machine.isParallel(id) && machine.childStates(id).count >= Self.gridRegions {
            writeRegionGrid(id)
        } else {
            writeChildren(of: id)
        }
        writeLabelNodes(in: id)
        if let initial { writeEntryArrow(from: "init_\(nodeID(id))", to: initial) }
        indent -= 1
        line("}")
    }

    /// The name, then the outputs of entry and exit actions, one line each.
    private func stateLines(_ id: StateID) -> [String] {
        let state = machine[id]
        var lines = [state.name]
        let entry = TransitionLabel.outputs(of: state.entry, in: machine)
        if !entry.isEmpty { lines.append("entry / " + entry.joined(separator: ", ")) }
        let exit = TransitionLabel.outputs(of: state.exit, in: machine)
        if !exit.isEmpty { lines.append("exit / " + exit.joined(separator: ", ")) }
        return lines
    }

    private func nodeAttributes(_ id: StateID) -> [(String, String)] {
        let state = machine[id]
        if state.isHistory { return historyAttributes(id) }
        var attrs = [("label", DOTString.label(stateLines(id)))]
        // Final states drop the default rounded box for a double circle; `style` is written
        // only where it differs from the default (the empty style resets it).
        if state.isFinal { attrs.append(("shape", "doublecircle")) }
        var style = state.isFinal ? [] : ["rounded"]
        let collapsed = overlay.collapsed.contains(id)
        if collapsed { style.append("bold") }
        let unvisited = isUnvisited(id)
        if unvisited { style.append("filled") }
        if state.isFinal || unvisited || collapsed { attrs.append(("style", DOTString.quoted(style.joined(separator: ",")))) }
        if unvisited { attrs += [("fillcolor", "grey92"), ("color", "grey60"), ("fontcolor", "grey45")] }
        return markedUnreachable(id, attrs)
    }

    /// A history state is UML's small circle, `H` (shallow) or `H*` (deep); its name is the
    /// tooltip. It is never active, so coverage never greys it.
    private func historyAttributes(_ id: StateID) -> [(String, String)] {
        let state = machine[id]
        let attrs = [("label", DOTString.quoted(state.isDeepHistory ? "H*" : "H")), ("shape", "circle"),
                     ("width", "0.3"), ("fixedsize", "true"), ("fontsize", "10"),
                     ("tooltip", DOTString.quoted(state.name))]
        return markedUnreachable(id, attrs)
    }

    /// A parallel state's regions have dashed borders, like UML's regions separated by
    /// dashed lines; every other cluster is solid.
    private func clusterAttributes(_ id: StateID) -> [(String, String)] {
        let isRegion = machine[id].parent.map(machine.isParallel) ?? false
        var style = isRegion ? ["rounded", "dashed"] : ["rounded"]
        var attrs = [("label", DOTString.label(stateLines(id)))]
        if isUnvisited(id) {
            style.append("filled")
            attrs += [("fillcolor", "grey96"), ("color", "grey60"), ("fontcolor", "grey45")]
        }
        attrs.insert(("style", DOTString.quoted(style.joined(separator: ","))), at: 1)
        return markedUnreachable(id, attrs)
    }

    private func markedUnreachable(_ id: StateID, _ attrs: [(String, String)]) -> [(String, String)] {
        guard overlay.unreachableStates.contains(id) else { return attrs }
        return attrs.filter { $0.0 != "color" && $0.0 != "fontcolor" } + [("color", "red"), ("fontcolor", "red")]
    }

    private mutating func writeEntryArrow(from point: String, to target: StateID) {
        let clip = machine.isCluster(target) ? [("lhead", "cluster_" + nodeID(target))] : []
        line(point + " -> " + nodeID(target) + (clip.isEmpty ? "" : " [" + attributes(clip) + "]"))
    }

    // MARK: - Helpers

    /// Whether `id` is `ancestor` or lies inside it.
    func isInside(_ id: StateID, _ ancestor: StateID) -> Bool {
        id == ancestor || machine.isDescendant(id, of: ancestor)
    }

    /// Whether coverage says the state was never active (history states never are, and are
    /// not counted).
    func isUnvisited(_ id: StateID) -> Bool {
        guard let coverage = overlay.coverage, !machine[id].isHistory else { return false }
        return !coverage.visitedStates.contains(id)
    }

    /// The node of a state; for a cluster, its anchor point.
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
