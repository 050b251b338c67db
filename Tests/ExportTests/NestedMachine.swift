import Statecraft

/// A machine with nested and parallel states, which the language does not accept yet:
/// Drawer, edited by hand so that `dragging` sits inside a compound state `active` and a
/// parallel state `both` holds a compound region `left` (with `l1`, `l2`) and a leaf `right`.
enum NestedMachine {
    /// The edited machine, or nil when Drawer no longer checks clean.
    static func make() -> Machine? {
        guard var m = ExportFixtures.spec("Drawer"),
              let dragging = m.states.firstIndex(where: { $0.name == "dragging" }).map(StateID.init),
              let closed = m.states.firstIndex(where: { $0.name == "closed" }).map(StateID.init) else { return nil }
        let active = add("active", .compound, parent: m.root, to: &m)
        m.states[m.root.index].children.removeAll { $0 == dragging }
        m.states[dragging.index].parent = active
        m.states[active.index].children = [dragging]
        m.states[active.index].initialChild = dragging

        let both = add("both", .parallel, parent: m.root, to: &m)
        let left = add("left", .compound, parent: both, to: &m)
        let l1 = add("l1", .atomic, parent: left, to: &m)
        let l2 = add("l2", .atomic, parent: left, to: &m)
        m.states[left.index].initialChild = l1
        _ = add("right", .atomic, parent: both, to: &m)

        // closed's drag now enters `active`; a new transition leaves `active` for `both`,
        // and one moves inside the `left` region.
        if let t = m.transitions.firstIndex(where: { $0.source == closed }) { m.transitions[t].target = active }
        let template = m.transitions[0]
        append(template, from: active, to: both, in: &m)
        append(template, from: l1, to: l2, in: &m)
        return m
    }

    private static func add(_ name: String, _ kind: State.Kind, parent: StateID, to m: inout Machine) -> StateID {
        let id = StateID(m.states.count)
        m.states.append(State(id: id, name: name, kind: kind, parent: parent, range: m.nameRange))
        m.states[parent.index].children.append(id)
        return id
    }

    private static func append(_ template: Transition, from source: StateID, to target: StateID, in m: inout Machine) {
        var t = template
        t.id = TransitionID(m.transitions.count)
        t.source = source
        t.target = target
        t.guardExpr = nil
        t.actions = []
        m.transitions.append(t)
        m.states[source.index].transitions.append(t.id)
    }
}
