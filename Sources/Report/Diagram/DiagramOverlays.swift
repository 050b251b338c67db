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

/// The heat map of `replay --format html`, drawn at a size Graphviz lays out in moments.
///
/// Graphviz's layout time grows far faster than the chart: a 200-region chart (601 states)
/// takes it about 25 s of CPU, so drawing every state would make the page cost a hundred
/// replays. Past `stateLimit` states, the page draws the chart to the deepest level that
/// keeps it within the limit, each compound state below drawn as one bold box (as
/// `dot --depth` does); the tables of the page still list every state and transition.
package struct HeatDrawing {
    /// What is drawn (the whole machine, or its tree cut below `depth`).
    package var machine: Machine
    package var overlay: DiagramOverlay
    /// The level the tree was cut below; nil when the whole chart is drawn.
    package var depth: Int?
    /// How many states the whole chart has (the root not counted).
    package var states: Int

    /// Most states drawn on the page before compound states are collapsed.
    package static let stateLimit = 250

    package init(_ summary: ConformanceSummary, _ machine: Machine) {
        self.machine = machine
        overlay = .heat(summary)
        states = machine.states.count - 1
        guard states > HeatDrawing.stateLimit else { return }
        // States at depth d or above are drawn when the tree is cut below d.
        var perLevel: [Int] = []
        for s in machine.states.dropFirst() {
            let d = machine.depth(s.id)
            while perLevel.count < d { perLevel.append(0) }
            perLevel[d - 1] += 1
        }
        var level = 1, drawn = perLevel.first ?? 0
        while level < perLevel.count && drawn + perLevel[level] <= HeatDrawing.stateLimit {
            drawn += perLevel[level]
            level += 1
        }
        let cut = machine.collapsed(belowDepth: level)
        self.machine = cut.machine
        overlay.collapsed = cut.collapsed
        depth = level
    }

    /// What the page says under a cut drawing.
    package var note: String? {
        guard let depth else { return nil }
        return "The chart has \(states) states, more than the \(HeatDrawing.stateLimit) drawn here: it is drawn to depth \(depth), "
            + "each compound state below drawn as one bold box (statecraft dot --coverage LOG --depth N, or --state NAME, draws more)."
    }
}
