import StatecraftAnalysis
import StatecraftExport
import StatecraftModel
import StatecraftReplay
import StatecraftRuntime

// What `check` and `replay` found, drawn on a diagram: `dot --check`, `dot --coverage` and
// the heat map of `replay --format html`.

extension DiagramOverlay {
    /// `dot --check`: the states and transitions found unreachable or dead, structurally and
    /// by the guard-aware search (what it proves, not what it merely did not reach).
    public static func findings(_ machine: Machine, bounds: ExplorationBounds = ExplorationBounds()) -> DiagramOverlay {
        var overlay = DiagramOverlay()
        overlay.unreachableStates = Checker.unreachableStates(machine)
        overlay.deadTransitions = Checker.deadTransitions(machine)
        let report = Exploration.run(machine, bounds: bounds)
        for s in machine.states.dropFirst() {
            if case .unreachable = report.states[s.id.index] { overlay.unreachableStates.insert(s.id) }
        }
        for t in machine.transitions {
            if case .unreachable = report.transitions[t.id.index] { overlay.deadTransitions.insert(t.id) }
        }
        return overlay
    }
}

extension Coverage {
    /// What a replay exercised, over all its cases: how often each transition fired and
    /// which states were active at some point.
    public init(_ report: ReplayReport) {
        var counts: [TransitionID: Int] = [:]
        for (index, count) in report.transitionCounts.enumerated() { counts[TransitionID(index)] = count }
        let visited = Set(report.visitedStates.enumerated().filter { $0.element }.map { StateID($0.offset) })
        self.init(transitionCounts: counts, visitedStates: visited)
    }
}

extension DiagramOverlay {
    /// `replay --format html`: the coverage of a summary drawn as heat, each transition
    /// coloured by how often the logs took it, and the states some case visited marked.
    package static func heat(_ summary: ConformanceSummary) -> DiagramOverlay {
        var counts: [TransitionID: Int] = [:]
        for (t, n) in summary.transitionCounts.enumerated() { counts[TransitionID(t)] = n }
        let visited = Set(summary.dwell.indices.filter { summary.dwell[$0].visits > 0 }.map(StateID.init))
        var overlay = DiagramOverlay(coverage: Coverage(transitionCounts: counts, visitedStates: visited))
        overlay.heat = true
        return overlay
    }
}
