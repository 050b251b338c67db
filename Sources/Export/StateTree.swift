import StatecraftModel

/// The machine's states as both writers walk them: the tree under the root, with the
/// questions a drawing asks of it. Every lookup checks its id, so a model built by hand
/// with states outside the tree, ids out of range or a cycle of parents cannot crash a
/// writer; such states are simply not drawn.
struct StateTree {
    let machine: Machine
    /// Whether each state is reached by walking `children` from the root.
    private var inTree: [Bool]

    init(_ machine: Machine) {
        self.machine = machine
        inTree = Array(repeating: false, count: machine.states.count)
        var stack = [machine.root]
        while let id = stack.popLast() {
            guard machine.states.indices.contains(id.index), !inTree[id.index] else { continue }
            inTree[id.index] = true
            stack.append(contentsOf: machine.states[id.index].children.reversed())
        }
    }

    /// Whether the state is drawn: in the tree and not the root (the machine itself).
    func isDrawn(_ id: StateID) -> Bool {
        machine.states.indices.contains(id.index) && inTree[id.index] && id != machine.root
    }

    /// The drawn children of `id`, in order.
    func children(of id: StateID) -> [StateID] {
        guard machine.states.indices.contains(id.index) else { return [] }
        return machine.states[id.index].children.filter(isDrawn)
    }

    /// Whether the state is drawn as a container: it can hold children and has some.
    func isContainer(_ id: StateID) -> Bool {
        guard machine.states.indices.contains(id.index) else { return false }
        let kind = machine.states[id.index].kind
        return (kind == .compound || kind == .parallel) && !children(of: id).isEmpty
    }

    /// Whether any drawn state is a container.
    var hasContainers: Bool { machine.states.indices.contains { isDrawn(StateID($0)) && isContainer(StateID($0)) } }

    /// The child entered first: the initial child if it is drawn, else the first child.
    func initialChild(of id: StateID) -> StateID? {
        let drawn = children(of: id)
        guard !drawn.isEmpty else { return nil }
        if let initial = machine.states[id.index].initialChild, drawn.contains(initial) { return initial }
        return drawn.first
    }

    /// The leaf reached by following initial children down from `id` (`id` itself for a leaf).
    func initialLeaf(_ id: StateID) -> StateID {
        var current = id
        var steps = 0
        while isContainer(current), let child = initialChild(of: current), steps < machine.states.count {
            current = child
            steps += 1
        }
        return current
    }

    /// Whether `id` is `ancestor` or lies inside it.
    func isInside(_ id: StateID, _ ancestor: StateID) -> Bool {
        var current: StateID? = id
        var steps = 0
        while let s = current, machine.states.indices.contains(s.index), steps <= machine.states.count {
            if s == ancestor { return true }
            current = machine.states[s.index].parent
            steps += 1
        }
        return false
    }

    /// The innermost state holding both `a` and `b` (the root when nothing smaller does).
    func commonAncestor(_ a: StateID, _ b: StateID) -> StateID {
        var current: StateID? = machine.states.indices.contains(a.index) ? machine.states[a.index].parent : nil
        var steps = 0
        while let s = current, machine.states.indices.contains(s.index), steps <= machine.states.count {
            if isInside(b, s) { return s }
            current = machine.states[s.index].parent
            steps += 1
        }
        return machine.root
    }
}
