import StatecraftDiagnostics
import StatecraftModel

// Eventless (`always`) transitions are taken until none is enabled. When some are certain
// to be enabled again after they are taken, a macrostep never settles: the runtime stops
// it after its bound and rejects the line. That is a mistake in the spec, reported here.
//
// "Certain" is decided without running anything: a transition is certain when it has no
// guard (or one that folds to `true`). After `always -> t` is taken, t's entry set is
// active (t, its ancestors below the transition's domain, their default descendants), and
// for each atomic state of it, the first `always` found walking up from it is the one its
// selection takes; if that one is certain, it fires next. A cycle of such steps, or a
// certain `always` with no target, never settles. Targets that are history states are not
// followed: what they enter depends on the run.

extension Resolver {
    /// Reports each loop of certain eventless transitions once.
    mutating func checkEventlessCycles() {
        let constants = machine.constantValues
        let certain = machine.transitions.map { t in
            t.trigger == .always && !t.isBroken && t.alwaysTaken(constants: constants)
        }
        for t in machine.transitions where certain[t.id.index] && t.target == nil {
            report(.eventlessCycle,
                   "eventless transition in '\(machine[t.source].name)' has no target and no guard, so it is taken forever",
                   at: t.keywordRange)
        }
        var successors: [TransitionID: [TransitionID]] = [:]
        for t in machine.transitions where certain[t.id.index] {
            guard let target = t.target, !machine[target].isHistory else { continue }
            let entered = machine.entrySet([t.shape], historyValue: { _ in nil })
            successors[t.id] = nextEventless(after: entered, certain: certain)
        }
        for loop in eventlessLoops(successors) { reportLoop(loop) }
    }

    /// The certain eventless transitions selected next when `entered` has just been entered.
    private func nextEventless(after entered: [StateID], certain: [Bool]) -> [TransitionID] {
        var result: [TransitionID] = []
        for leaf in entered where machine.isAtomic(leaf) {
            for s in machine.selfAndAncestors(leaf) {
                guard let first = machine[s].transitions.first(where: { machine[$0].trigger == .always }) else { continue }
                if certain[first.index] && machine[first].target != nil && !result.contains(first) { result.append(first) }
                break
            }
        }
        return result
    }

    /// One loop (in order, starting from its first transition in document order) for each
    /// strongly connected group of the graph that has a cycle.
    private func eventlessLoops(_ successors: [TransitionID: [TransitionID]]) -> [[TransitionID]] {
        let components = StronglyConnected.components(nodes: successors.keys.sorted(), successors: { successors[$0] ?? [] })
        var loops: [[TransitionID]] = []
        for component in components {
            let members = Set(component)
            guard let start = component.min() else { continue }
            if component.count == 1 && !(successors[start] ?? []).contains(start) { continue }
            loops.append(shortestLoop(from: start, within: members, successors))
        }
        return loops.sorted { $0[0] < $1[0] }
    }

    /// The shortest path from `start` back to itself inside one strongly connected group.
    private func shortestLoop(from start: TransitionID, within members: Set<TransitionID>,
                              _ successors: [TransitionID: [TransitionID]]) -> [TransitionID] {
        var previous: [TransitionID: TransitionID] = [:]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for next in successors[node] ?? [] where members.contains(next) {
                if next == start {
                    var path = [node]
                    while let p = previous[path[0]] { path.insert(p, at: 0) }
                    return path
                }
                if previous[next] == nil && next != start {
                    previous[next] = node
                    queue.append(next)
                }
            }
        }
        return [start]
    }

    private mutating func reportLoop(_ loop: [TransitionID]) {
        let steps = loop.map { id -> String in
            let t = machine[id]
            return "'\(machine[t.source].name)' -> '\(t.target.map { machine[$0].name } ?? "")'"
        }
        let message = loop.count == 1
            ? "eventless transition \(steps[0]) is taken forever: it has no guard, and the states it enters take it again"
            : "eventless transitions with no guard loop forever: \(steps.joined(separator: ", then "))"
        let notes = zip(loop, steps).dropFirst().map { id, step in
            DiagnosticNote("then \(step) is taken here", at: machine[id].keywordRange)
        }
        report(.eventlessCycle, message, at: machine[loop[0]].keywordRange, notes: notes)
    }
}

extension Transition {
    /// Whether the guard is absent or folds to `true`.
    func alwaysTaken(constants: [Value]) -> Bool {
        guard let g = guardExpr else { return true }
        return g.folded(constants: constants) == .bool(true)
    }
}

/// Tarjan's strongly connected components, iterative so that a long chain cannot exhaust
/// the stack.
enum StronglyConnected {
    static func components<Node: Hashable>(nodes: [Node], successors: (Node) -> [Node]) -> [[Node]] {
        var index: [Node: Int] = [:]
        var lowLink: [Node: Int] = [:]
        var onStack = Set<Node>()
        var stack: [Node] = []
        var result: [[Node]] = []
        var counter = 0
        for root in nodes where index[root] == nil {
            // Each frame: a node and how many of its successors have been looked at.
            var frames: [(node: Node, next: Int, successors: [Node])] = []
            func open(_ n: Node) {
                index[n] = counter
                lowLink[n] = counter
                counter += 1
                stack.append(n)
                onStack.insert(n)
                frames.append((n, 0, successors(n)))
            }
            open(root)
            while let frame = frames.last {
                let top = frames.count - 1
                if frame.next < frame.successors.count {
                    let w = frame.successors[frame.next]
                    frames[top].next += 1
                    if index[w] == nil {
                        open(w)
                    } else if onStack.contains(w), let wIndex = index[w], let low = lowLink[frame.node] {
                        lowLink[frame.node] = min(low, wIndex)
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last, let low = lowLink[frame.node], let parentLow = lowLink[parent.node] {
                    lowLink[parent.node] = min(parentLow, low)
                }
                if lowLink[frame.node] == index[frame.node] {
                    var component: [Node] = []
                    while let w = stack.popLast() {
                        onStack.remove(w)
                        component.append(w)
                        if w == frame.node { break }
                    }
                    result.append(component)
                }
            }
        }
        return result
    }
}
