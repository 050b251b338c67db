import StatecraftDiagnostics
import StatecraftModel

// Eventless (`always`) transitions are taken until none is enabled. When some are certain
// to be enabled again after they are taken, a macrostep never settles: the runtime stops
// it after its bound and rejects the line. That is a mistake in the spec, reported here.
//
// A refusal must be certain, since the spec (or the SCXML document it came from) is not
// run at all: a loop is reported only when no order of selection can leave it. Loops that
// only may go on (a guard that the loop's own actions may make true, another region that
// may leave) are left to the runtime's bound, and `check` shows one with a witness when its
// search reaches it (`run-time-fault`).
//
// "Certain" is decided without running anything: a transition is certain when it has no
// guard (or one that folds to `true`), and possible unless its guard folds to `false`.
// Selection takes, in each state, the first possible `always` whose guard holds, so a
// certain one is selected only when no possible one comes before it. After `always -> t`
// is taken, t's entry set is active (t, its ancestors below the transition's domain, their
// default descendants), and for each atomic state of it, the first possible `always` found
// walking up from it is the one its selection takes; if that one is certain, it fires
// next. A cycle of such steps never settles, and so does a certain targetless `always`
// that is the first possible one of its state when no descendant has one of its own (it
// changes nothing but variables, so it is selected again). Either way, a state in another
// region of a parallel state (or an ancestor such a region's states reach) may hold an
// eventless transition that leaves the loop's states; when one may, the loop is not
// certain. Targets that are history states are not followed: what they enter depends on
// the run.

extension Resolver {
    /// Reports each loop of certain eventless transitions once.
    mutating func checkEventlessCycles() {
        for loop in machine.certainEventlessLoops() {
            if loop.count == 1, machine[loop[0]].target == nil {
                let t = machine[loop[0]]
                report(.eventlessCycle,
                       "eventless transition in '\(machine[t.source].name)' has no target and no guard, so it is taken forever",
                       at: t.keywordRange)
            } else {
                reportLoop(loop)
            }
        }
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

extension Machine {
    /// The loops of eventless transitions that are certain never to settle, each in the
    /// order taken from its first transition in document order, sorted by that transition:
    /// a certain targetless transition taken forever is a loop of one. (The resolver
    /// reports them; the SCXML importer refuses a document that has one, at its elements.)
    package func certainEventlessLoops() -> [[TransitionID]] {
        let constants = constantValues
        let possible = transitions.map { t in
            t.trigger == .always && !t.isBroken && t.guardExpr?.folded(constants: constants) != .bool(false)
        }
        // A certain transition whose state another region may leave is no part of a
        // certain loop.
        let certain = transitions.map { t in
            possible[t.id.index] && t.alwaysTaken(constants: constants) && !mayBeLeftAlongside(t.source, possible)
        }
        var loops: [[TransitionID]] = []
        for t in transitions where certain[t.id.index] && t.target == nil {
            let s = t.source
            guard self[s].transitions.first(where: { possible[$0.index] }) == t.id else { continue }
            let inner = transitions.contains { possible[$0.id.index] && $0.source != s && isDescendant($0.source, of: s) }
            if !inner { loops.append([t.id]) }
        }
        var successors: [TransitionID: [TransitionID]] = [:]
        for t in transitions where certain[t.id.index] {
            guard let target = t.target, !self[target].isHistory else { continue }
            let entered = entrySet([t.shape], historyValue: { _ in nil })
            successors[t.id] = nextEventless(after: entered, possible: possible, certain: certain)
        }
        loops += eventlessLoops(successors)
        return loops.sorted { $0[0] < $1[0] }
    }

    /// Whether an eventless transition that may be selected while `s` is active, from an
    /// atomic state outside `s` (in another region of a parallel ancestor, or walking up
    /// from one), may exit `s`: then a loop through `s` may end.
    private func mayBeLeftAlongside(_ s: StateID, _ possible: [Bool]) -> Bool {
        transitions.contains { u in
            guard possible[u.id.index], let target = u.target, activeAlongside(u.source, s) else { return false }
            if self[target].isHistory { return true }
            guard let domain = transitionDomain(u.shape, historyValue: { _ in nil }) else { return false }
            return isDescendant(s, of: domain)
        }
    }

    /// Whether the transitions of `o` may be selected from an atomic state outside `s`
    /// while `s` is active: `o` is in another region of a parallel state that holds `s`,
    /// or an ancestor of `s` at or above a parallel state that holds `s` (reached walking
    /// up from the other regions).
    private func activeAlongside(_ o: StateID, _ s: StateID) -> Bool {
        if o == s || isDescendant(o, of: s) { return false }
        if isDescendant(s, of: o) {
            return properAncestors(s).contains { isParallel($0) && ($0 == o || isDescendant($0, of: o)) }
        }
        return isParallel(innermostContainer([s, o]))
    }

    /// The certain eventless transitions selected next when `entered` has just been entered.
    private func nextEventless(after entered: [StateID], possible: [Bool], certain: [Bool]) -> [TransitionID] {
        var result: [TransitionID] = []
        for leaf in entered where isAtomic(leaf) {
            for s in selfAndAncestors(leaf) {
                guard let first = self[s].transitions.first(where: { possible[$0.index] }) else { continue }
                if certain[first.index] && self[first].target != nil && !result.contains(first) { result.append(first) }
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
        return loops
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
