import StatecraftModel

/// Writes a machine as a Mermaid `stateDiagram-v2`, which GitHub draws inside Markdown.
///
/// States keep their names as ids where Mermaid allows; other names (keywords, odd
/// characters, duplicates) get a generated id and `state "name" as id`. Targetless
/// transitions and the outputs of entry and exit actions are state descriptions, the
/// lines UML lists inside a state's box, since Mermaid cannot style a loop differently
/// from an external self transition. Compound states are composites with their own
/// `[*] -->`; a parallel state's regions are separated by `--`; a history state, which
/// Mermaid has no shape for, is a state shown as `H` or `H*`. The output depends only on
/// the machine, in array order.
public enum MermaidWriter {
    /// The Mermaid text for `machine`.
    public static func write(_ machine: Machine) -> String { write(machine, focus: nil) }

    /// The Mermaid text for `machine`; with `focus` (the one state a subtree drawing
    /// shows, `Machine.subtree(_:)`), no initial arrow points at that state.
    package static func write(_ machine: Machine, focus: StateID?) -> String {
        var document = MermaidDocument(machine, focus: focus)
        document.write()
        return document.text
    }
}

/// One Mermaid rendering in progress.
struct MermaidDocument {
    /// One arrow between two states: a transition with a target, or a history default.
    private struct Arrow {
        var source: StateID
        var target: StateID
        /// nil for a history default, drawn without a label.
        var label: String?
    }

    let machine: Machine
    /// The Mermaid id of each state, by index (empty for the root).
    private let ids: [String]
    /// The arrows grouped by the block that writes them: the innermost container holding
    /// both ends (Mermaid draws an edge inside the composite it is written in).
    private let arrowsByBlock: [StateID: [Arrow]]
    private(set) var text = ""
    private var indent = 1

    /// The state drawn alone, which gets no initial arrow.
    private let focus: StateID?

    init(_ machine: Machine, focus: StateID? = nil) {
        self.machine = machine
        self.focus = focus
        ids = Self.assignIDs(machine)
        var arrows: [Arrow] = []
        for t in machine.transitions where t.source != machine.root {
            guard let target = t.target, target != machine.root else { continue }
            arrows.append(Arrow(source: t.source, target: target,
                                label: MermaidText.escaped(TransitionLabel(t, in: machine).singleLine)))
        }
        for s in machine.states where s.isHistory {
            for target in s.historyDefaults { arrows.append(Arrow(source: s.id, target: target, label: nil)) }
        }
        arrowsByBlock = Dictionary(grouping: arrows) { machine.innermostContainer([$0.source, $0.target]) }
    }

    /// Names that are plain ids keep them (the first of duplicates wins); the rest get
    /// `s<index>`, lengthened with `_` until it clashes with no name in use.
    private static func assignIDs(_ machine: Machine) -> [String] {
        var ids = Array(repeating: "", count: machine.states.count)
        var used: Set<String> = []
        for (i, state) in machine.states.enumerated().dropFirst() {
            if MermaidText.isPlainID(state.name), used.insert(state.name.lowercased()).inserted {
                ids[i] = state.name
            }
        }
        for i in machine.states.indices.dropFirst() where ids[i].isEmpty {
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
    /// children, the arrows written at this level, the children's descriptions, and the
    /// exits of its final children.
    private mutating func writeBlock(_ parent: StateID) {
        let children = machine[parent].children
        for child in children { writeAlias(child) }
        if let initial = machine.defaultChild(parent), initial != focus { line("[*] --> " + ids[initial.index]) }
        for child in children { writeComposite(child) }
        for arrow in arrowsByBlock[parent] ?? [] { writeArrow(arrow) }
        for child in children { writeDescriptions(child) }
        for child in children where machine[child].isFinal { line(ids[child.index] + " --> [*]") }
    }

    /// A parallel state's regions separated by `--`, each written as a one-child block
    /// (regions have no entry arrow: they are all entered at once). History states of the
    /// parallel state itself go with the first region, before any `--`.
    private mutating func writeRegions(_ parallel: StateID) {
        let arrows = arrowsByBlock[parallel] ?? []
        let histories = machine.historyStates(parallel)
        for (i, region) in machine.childStates(parallel).enumerated() {
            if i > 0 { line("--") }
            let members = i == 0 ? [region] + histories : [region]
            for member in members { writeAlias(member) }
            writeComposite(region)
            for arrow in arrows where members.contains(where: { machine.isDescendant(arrow.source, of: $0) || arrow.source == $0 }) {
                writeArrow(arrow)
            }
            writeDescriptions(region)
        }
    }

    /// `state "name" as id` for a state whose name is not its id; `state "H*" as id` for a
    /// history state.
    private mutating func writeAlias(_ id: StateID) {
        let state = machine[id]
        if state.isHistory {
            line("state \"" + (state.isDeepHistory ? "H*" : "H") + "\" as " + ids[id.index])
        } else if ids[id.index] != state.name {
            line("state \"" + MermaidText.escaped(state.name) + "\" as " + ids[id.index])
        }
    }

    /// `state id { … }` for a state with children.
    private mutating func writeComposite(_ id: StateID) {
        guard machine.isCluster(id) else { return }
        line("state " + ids[id.index] + " {")
        indent += 1
        if machine.isParallel(id) { writeRegions(id) } else { writeBlock(id) }
        indent -= 1
        line("}")
    }

    /// The state's descriptions, or a bare mention when nothing else would make Mermaid
    /// draw it (a state no arrow names).
    private mutating func writeDescriptions(_ id: StateID) {
        let descriptions = self.descriptions(id)
        for description in descriptions { line(ids[id.index] + " : " + MermaidText.escaped(description)) }
        if descriptions.isEmpty && !machine.isCluster(id) && ids[id.index] == machine[id].name
            && !machine[id].isHistory && !isMentioned(id) {
            line(ids[id.index])
        }
    }

    /// `entry / outputs`, `exit / outputs` and the state's targetless transitions.
    private func descriptions(_ id: StateID) -> [String] {
        let state = machine[id]
        var result: [String] = []
        let entry = TransitionLabel.outputs(of: state.entry, in: machine)
        if !entry.isEmpty { result.append("entry / " + entry.joined(separator: ", ")) }
        let exit = TransitionLabel.outputs(of: state.exit, in: machine)
        if !exit.isEmpty { result.append("exit / " + exit.joined(separator: ", ")) }
        for t in state.transitions where machine[t].target == nil {
            result.append(TransitionLabel(machine[t], in: machine).singleLine)
        }
        return result
    }

    /// Whether a line inside the state's own container will name it: a transition or a
    /// history default written there, the entry arrow, an exit arrow. An arrow written
    /// further out does not count: Mermaid would make the state it first meets there a
    /// state of that outer level.
    private func isMentioned(_ id: StateID) -> Bool {
        if machine[id].isFinal { return true }
        guard let parent = machine[id].parent else { return false }
        if machine.defaultChild(parent) == id && id != focus { return true }
        return (arrowsByBlock[parent] ?? []).contains { $0.source == id || $0.target == id }
    }

    private mutating func writeArrow(_ arrow: Arrow) {
        line(ids[arrow.source.index] + " --> " + ids[arrow.target.index] + (arrow.label.map { " : " + $0 } ?? ""))
    }

    private mutating func line(_ s: String) {
        text += String(repeating: "    ", count: indent) + s + "\n"
    }
}
