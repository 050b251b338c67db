import StatecraftDiagnostics
import StatecraftModel
import StatecraftRuntime

/// `check --reach`: the witness search spent on one target, a state or the transitions of
/// one line of the spec. The search is `Explorer.runTargeted`: best first, nearest to the
/// target first, leaving out the configurations from which no sequence of transitions
/// leads there; it stops at the target's first witness.
package enum TargetedSearch {
    /// What the search is for.
    package enum Target: Sendable, Equatable {
        /// A state: reached when it is active, or entered by a step.
        case state(StateID)
        /// The transitions written on one line (usually one).
        case transitions([TransitionID])
    }

    /// The verdicts, as `Exploration.run` gives them, for the targets only (every other item
    /// is `notReached`), and how many configurations were left out as leading nowhere near.
    package struct Report: Sendable {
        /// The verdicts (the targets' only), the configurations visited and the limits hit.
        package var exploration: ExplorationReport
        /// Configurations left out because no sequence of transitions leads from them to the target.
        package var pruned: Int
    }

    /// Why a `--reach` word names no target, in words.
    package struct TargetError: Error, Sendable {
        /// Lowercase, no final period; it follows the spec's quoted path (`'x.machine' has no …`).
        package var message: String
    }

    /// The target a `--reach` word names: a line number (the transitions written on that
    /// line), a state's name, or a state's path of parents (`form.payment.card`: each name
    /// the parent of the next; names are unique, so the path only checks where it is).
    package static func target(_ word: String, in machine: Machine) -> Result<Target, TargetError> {
        if !word.isEmpty, word.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            let line = Int(word) ?? -1
            let onLine = machine.transitions.filter { machine.source.location(of: $0.keywordRange.start).line == line }
            guard !onLine.isEmpty else { return .failure(TargetError(message: "has no transition on line \(word)")) }
            return .success(.transitions(onLine.map(\.id)))
        }
        let names = word.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let states = machine.states.dropFirst()
        var found: [StateID] = []
        for name in names {
            guard let state = states.first(where: { $0.name == name }) else {
                var message = "has no state named '\(name)'"
                if let close = EditDistance.closest(to: name, among: states.map(\.name), limit: max(2, name.count / 3)) { message += "; did you mean '\(close)'?" }
                return .failure(TargetError(message: message))
            }
            if let outer = found.last, state.parent != outer {
                let parent = state.parent.flatMap { $0 == machine.root ? nil : machine[$0].name }
                return .failure(TargetError(message: "has no state '\(name)' directly inside '\(machine[outer].name)'; "
                    + (parent.map { "its parent is '\($0)'" } ?? "it is at the top level")))
            }
            found.append(state.id)
        }
        guard let last = found.last else { return .failure(TargetError(message: "has no state named ''")) }
        if machine[last].isHistory {
            return .failure(TargetError(message: "'\(machine[last].name)' is a history state, which is never active; "
                + "give the line of a transition into it"))
        }
        return .success(.state(last))
    }

    /// Searches `machine` (resolved without errors) for `target` within `bounds`.
    package static func run(_ machine: Machine, target: Target, bounds: ExplorationBounds = ExplorationBounds()) -> Report {
        let program = Program(machine)
        let proofs = Exploration.proven(machine, isStatechart: program.isStatechart)
        var states = [ExplorationReport.Finding](repeating: .notReached, count: machine.states.count)
        var transitions = [ExplorationReport.Finding](repeating: .notReached, count: machine.transitions.count)
        let goals: [(isState: Bool, index: Int)] = switch target {
        case .state(let s): [(true, s.index)]
        case .transitions(let ts): ts.map { (false, $0.index) }
        }
        func proof(_ goal: (isState: Bool, index: Int)) -> String? {
            goal.isState ? proofs.states[goal.index] : proofs.transitions[goal.index]
        }
        var explorer = Explorer(program: program, bounds: bounds)
        let open = goals.filter { proof($0) == nil }
        if !open.isEmpty {
            let sources: [StateID] = open.map { $0.isState ? StateID($0.index) : machine.transitions[$0.index].source }
            let toTarget = distances(to: sources, machine)
            explorer.runTargeted(distance: { instance in
                var best: Int?
                for s in instance.activeStates {
                    if let d = toTarget[s.index], best.map({ d < $0 }) ?? true { best = d }
                }
                return best
            }, stopWhen: { e in
                open.allSatisfy { goal in
                    let node = goal.isState ? e.stateWitness[goal.index] : e.transitionWitness[goal.index]
                    return node.map { e.nodes[$0].clean } ?? false
                }
            })
        }
        let proves = explorer.startFault == nil && explorer.exhausted && !explorer.payloadsSampled
            && !explorer.deadlinesRefused && Exploration.timerOrderIsFixed(machine)
        let searched = "the search visited every configuration from which it can be reached (\(explorer.nodes.count)) "
            + "and tried every distinct input in each"
        for goal in goals {
            let finding: ExplorationReport.Finding
            let node = goal.isState ? explorer.stateWitness[goal.index] : explorer.transitionWitness[goal.index]
            if let node {
                finding = .reached(explorer.path(to: node))
            } else if let reason = proof(goal) {
                finding = .unreachable(reason)
            } else if proves {
                finding = .unreachable(searched)
            } else {
                finding = .notReached
            }
            if goal.isState { states[goal.index] = finding } else { transitions[goal.index] = finding }
        }
        var report = ExplorationReport(states: states, transitions: transitions, overlaps: [],
                                       configurations: explorer.nodes.count, bounds: bounds)
        report.limits.depthBoundHit = explorer.depthBoundHit
        report.limits.configurationBoundHit = explorer.configurationBoundHit
        report.limits.payloadsSampled = explorer.payloadsSampled
        report.limits.deadlinesRefused = explorer.deadlinesRefused
        report.limits.timerOrderVaries = !Exploration.timerOrderIsFixed(machine)
        report.limits.timedStatesOverlap = Exploration.timedStatesOverlap(machine)
        if explorer.payloadsSampled { report.limits.untriedNumbers = PayloadCandidates(machine).untriedGeneral }
        report.limits.sampledGuards = explorer.cuts.sorted { $0.guardLine < $1.guardLine }
            .map { (line: $0.guardLine, tried: $0.tried, of: $0.of) }
        report.startFault = explorer.startFault
        return Report(exploration: report, pruned: explorer.pruned)
    }

    /// By state index: the fewest transitions from a configuration holding that state to one
    /// holding one of `targets`, in a graph that over-approximates every step (guards
    /// ignored; a transition leads from its source to every state of its entry set; one into
    /// a history state to every state under that history's parent, whatever it recorded);
    /// nil where no path leads. A step can only enter what this graph says it may, so a
    /// configuration none of whose states has a distance never leads to a target.
    static func distances(to targets: [StateID], _ machine: Machine) -> [Int?] {
        var into = [[Int]](repeating: [], count: machine.states.count)
        for t in machine.transitions where t.target != nil {
            var entered = machine.entrySet([t.shape], historyValue: { _ in nil })
            if let h = t.target, machine[h].isHistory, let parent = machine[h].parent {
                entered += machine.states.filter { machine.isDescendant($0.id, of: parent) && !$0.isHistory }.map(\.id)
            }
            for e in entered { into[e.index].append(t.source.index) }
        }
        var distance = [Int?](repeating: nil, count: machine.states.count)
        var frontier: [Int] = []
        for s in targets where distance[s.index] == nil {
            distance[s.index] = 0
            frontier.append(s.index)
        }
        var d = 0
        while !frontier.isEmpty {
            d += 1
            var next: [Int] = []
            for s in frontier {
                for source in into[s] where distance[source] == nil {
                    distance[source] = d
                    next.append(source)
                }
            }
            frontier = next
        }
        return distance
    }
}
