import StatecraftModel

/// Writes a machine as a Mermaid `stateDiagram-v2`, which GitHub draws inside Markdown.
///
/// States keep their names as ids where Mermaid allows; other names (keywords, odd
/// characters, duplicates) get a generated id and `state "name" as id`. Internal
/// transitions and the outputs of entry and exit actions are state descriptions, the
/// lines UML lists inside a state's box, since Mermaid cannot style a loop differently
/// from an external self transition. The output depends only on the machine, in array order.
public enum MermaidWriter {
    /// The Mermaid text for `machine`.
    public static func write(_ machine: Machine) -> String {
        var document = MermaidDocument(machine)
        document.write()
        return document.text
    }
}

/// One Mermaid rendering in progress.
struct MermaidDocument {
    let machine: Machine
    let tree: StateTree
    /// The Mermaid id of each state, by index (empty for states not drawn).
    private let ids: [String]
    /// Each drawn state's transitions grouped by the block that writes them: the innermost
    /// state holding both ends (Mermaid draws an edge inside the composite it is written in).
    private let transitionsByBlock: [Int: [Transition]]
    private(set) var text = ""
    private var indent = 1

    init(_ machine: Machine) {
        self.machine = machine
        tree = StateTree(machine)
        ids = Self.assignIDs(machine, tree)
        var byBlock: [Int: [Transition]] = [:]
        for t in machine.transitions where tree.isDrawn(t.source) {
            if let target = t.target, !tree.isDrawn(target) { continue }
            byBlock[tree.commonAncestor(t.source, t.target ?? t.source).index, default: []].append(t)
        }
        transitionsByBlock = byBlock
    }

    /// Names that are plain ids keep them (the first of duplicates wins); the rest get
    /// `s<index>`, lengthened with `_` until it clashes with no name in use.
    private static func assignIDs(_ machine: Machine, _ tree: StateTree) -> [String] {
        var ids = Array(repeating: "", count: machine.states.count)
        var used: Set<String> = []
        for (i, state) in machine.states.enumerated() where tree.isDrawn(StateID(i)) {
            if MermaidText.isPlainID(state.name), used.insert(state.name.lowercased()).inserted {
                ids[i] = state.name
            }
        }
        for i in machine.states.indices where tree.isDrawn(StateID(i)) && ids[i].isEmpty {
            var id = "s\(i)"
            while used.contains(id.lowercased()) { id += "_" }
            used.insert(id.lowercased())
            ids[i] = id
        }
        return ids
    }

    mutating func write() {
        text = "stateDiagram-v2\n"
        writeBlock(machine.root)
    }

    /// The contents of the root or of a compound state: aliases, the entry arrow, composite
    /// children, the transitions written at this level, the children's descriptions, and
    /// the exits of its final children.
    private mutating func writeBlock(_ parent: StateID) {
        let children = tree.children(of: parent)
        for child in children { writeAlias(child) }
        if let initial = tree.initialChild(of: parent) { line("[*] --> " + ids[initial.index]) }
        for child in children { writeComposite(child) }
        for transition in transitionsByBlock[parent.index] ?? [] { writeTransition(transition) }
        for child in children { writeDescriptions(child) }
        for child in children where machine.states[child.index].isFinal { line(ids[child.index] + " --> [*]") }
    }

    /// A parallel state's children as regions separated by `--`, each written as a
    /// one-child block (regions have no entry arrow: they are all entered at once).
    private mutating func writeRegions(_ parallel: StateID) {
        let regions = tree.children(of: parallel)
        for (i, region) in regions.enumerated() {
            if i > 0 { line("--") }
            writeAlias(region)
            writeComposite(region)
            for transition in transitionsByBlock[parallel.index] ?? [] where tree.isInside(transition.source, region) {
                writeTransition(transition)
            }
            writeDescriptions(region)
        }
    }

    /// `state "name" as id` for a state whose name is not its id.
    private mutating func writeAlias(_ id: StateID) {
        let name = machine.states[id.index].name
        if ids[id.index] != name { line("state \"" + MermaidText.escaped(name) + "\" as " + ids[id.index]) }
    }

    /// `state id { … }` for a state with children.
    private mutating func writeComposite(_ id: StateID) {
        guard tree.isContainer(id) else { return }
        line("state " + ids[id.index] + " {")
        indent += 1
        if machine.states[id.index].kind == .parallel { writeRegions(id) } else { writeBlock(id) }
        indent -= 1
        line("}")
    }

    /// The state's descriptions, or a bare mention when nothing else would make Mermaid
    /// draw it (a state no arrow names).
    private mutating func writeDescriptions(_ id: StateID) {
        let descriptions = self.descriptions(id)
        for description in descriptions { line(ids[id.index] + " : " + MermaidText.escaped(description)) }
        if descriptions.isEmpty && !tree.isContainer(id) && ids[id.index] == machine.states[id.index].name
            && !isMentioned(id) {
            line(ids[id.index])
        }
    }

    /// `entry / outputs`, `exit / outputs` and the state's internal transitions.
    private func descriptions(_ id: StateID) -> [String] {
        let state = machine.states[id.index]
        var result: [String] = []
        let entry = TransitionLabel.outputs(of: state.entry, in: machine)
        if !entry.isEmpty { result.append("entry / " + entry.joined(separator: ", ")) }
        let exit = TransitionLabel.outputs(of: state.exit, in: machine)
        if !exit.isEmpty { result.append("exit / " + exit.joined(separator: ", ")) }
        for t in state.transitions where machine.transitions.indices.contains(t.index) {
            let transition = machine.transitions[t.index]
            if transition.target == nil { result.append(TransitionLabel(transition, in: machine).singleLine) }
        }
        return result
    }

    /// Whether an arrow will name the state: an external transition, an entry or exit arrow.
    private func isMentioned(_ id: StateID) -> Bool {
        if machine.states[id.index].isFinal { return true }
        if let parent = machine.states[id.index].parent, machine.states.indices.contains(parent.index),
           machine.states[parent.index].kind != .parallel, tree.initialChild(of: parent) == id {
            return true
        }
        return machine.transitions.contains { t in
            t.target != nil && tree.isDrawn(t.source) && (t.source == id || t.target == id)
                && t.target.map(tree.isDrawn) == true
        }
    }

    /// An external transition as an arrow; internal ones are descriptions of their state.
    private mutating func writeTransition(_ transition: Transition) {
        guard let target = transition.target else { return }
        let label = MermaidText.escaped(TransitionLabel(transition, in: machine).singleLine)
        line(ids[transition.source.index] + " --> " + ids[target.index] + " : " + label)
    }

    private mutating func line(_ s: String) {
        text += String(repeating: "    ", count: indent) + s + "\n"
    }
}
