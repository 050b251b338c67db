import StatecraftModel
import StatecraftRuntime

/// What the guard-aware analysis found for each state and transition of a machine.
public struct ExplorationReport: Sendable, Equatable {
    /// The verdict on one state or transition.
    public enum Finding: Sendable, Equatable {
        /// Reached: the shortest witness found (events with payloads and times) gets there.
        case reached([WitnessStep])
        /// Proven never to happen, with the reason in words.
        case unreachable(String)
        /// Neither reached within the bounds nor proven unreachable: not a proof.
        case notReached
    }

    /// Two guarded transitions of one state that can both take one event, and where.
    public struct Overlap: Sendable, Equatable {
        /// One transition of the pair: the one written first, or the one in the ancestor state.
        public var first: TransitionID
        /// The other transition (the diagnostic points at it): written later, or in the inner state.
        public var second: TransitionID
        /// The event both transitions can take.
        public var event: EventID
        /// The time the event is sent: where the path leaves the clock.
        public var time: Double
        /// How to get to the configuration where both guards hold.
        public var path: [WitnessStep]
        /// The event's payload values, in the order of its fields, under which both guards hold.
        public var payload: [Value]
        /// The variables' values, indexed by ``VariableID``, when the event arrives.
        public var variables: [Value]

        /// The whole witness: the path, then the event that both transitions can take.
        public var witness: [WitnessStep] { path + [.event(event, payload, time: time)] }
    }

    /// Why the search stopped short of a proof: what a `notReached` verdict rests on.
    public struct SearchLimits: Sendable, Equatable {
        /// Some configuration was left unexpanded: its witness would exceed `maxDepth`.
        public var depthBoundHit = false
        /// The search stopped at `maxConfigurations`.
        public var configurationBoundHit = false
        /// Some event was tried with a sample of payloads rather than one per region of
        /// every field (its fields feed arithmetic or variables, or are compared with
        /// something that is not a constant): even a finished search is then no proof.
        public var payloadsSampled = false
        /// Numbers the spec uses that the sampled payloads did not try (only the smallest
        /// magnitudes are tried for every number field).
        public var untriedNumbers: [Double] = []
        /// Guards reading several fields, for which only some combinations were tried:
        /// the guard's line, how many were tried, and of how many.
        public var sampledGuards: [(line: Int, tried: Int, of: Int)] = []
        /// Some state's timers may fire in another order depending on when it is entered
        /// (delays not constant, or a shorter one written after a longer one), and the
        /// search only enters states at the times its witnesses reach.
        public var timerOrderVaries = false
        /// Part of `timerOrderVaries`: states with timers can be active together (a state and
        /// its ancestor, or two regions), entered at different times.
        public var timedStatesOverlap = false
        /// Some step armed a timer at a time so large that its deadline does not mean its
        /// delay: a replay refuses such a log line, so the search did not go on from there.
        public var deadlinesRefused = false

        public static func == (a: SearchLimits, b: SearchLimits) -> Bool {
            a.depthBoundHit == b.depthBoundHit && a.configurationBoundHit == b.configurationBoundHit
                && a.payloadsSampled == b.payloadsSampled && a.untriedNumbers == b.untriedNumbers
                && a.sampledGuards.map(\.line) == b.sampledGuards.map(\.line) && a.timerOrderVaries == b.timerOrderVaries
                && a.timedStatesOverlap == b.timedStatesOverlap && a.deadlinesRefused == b.deadlinesRefused
        }
    }

    /// An expression the search saw fail at run time, with the steps that make it fail
    /// (the last step is the one that failed and was undone).
    public struct Fault: Sendable, Equatable {
        /// What failed, and where in the spec.
        public var fault: ExpressionFault
        /// The events and waits that lead to the failure, the failing step last.
        public var witness: [WitnessStep]
    }

    /// The verdict on one property (`Machine.properties`).
    public enum PropertyVerdict: Sendable, Equatable {
        /// No run violates it; the reason in words.
        case proven(String)
        /// A run violates it: the shortest the search found.
        case violated(PropertyCounterexample)
        /// The search stopped first; which bound, in words. Not a proof either way.
        case notDecided(String)
    }

    /// A run that violates a property.
    public struct PropertyCounterexample: Sendable, Equatable {
        /// The steps from the start; the violation is certain at the last one (at the start
        /// itself when there are none).
        public var witness: [WitnessStep]
        /// What happened, in words: the configuration that breaks it, or the deadline passed.
        public var reason: String
        /// The time the violation became certain.
        public var time: Double
    }

    /// By `StateID` (the root, index 0, is always reached).
    public var states: [Finding]
    /// By `TransitionID`.
    public var transitions: [Finding]
    /// Pairs of guarded transitions the search saw both able to take one event, with a witness each.
    public var overlaps: [Overlap]
    /// Configurations the search visited.
    public var configurations: Int
    /// The bounds used.
    public var bounds: ExplorationBounds
    /// What kept the search from settling everything (all false and empty when it did).
    public var limits = SearchLimits()
    /// The initial state's entry actions fail: the machine cannot start.
    public var startFault: ExpressionFault?
    /// Steps the search saw fail at run time, one per faulting expression.
    public var faults: [Fault] = []
    /// By property index, one verdict each (empty for a machine without properties).
    public var properties: [PropertyVerdict] = []
}

/// Guard-aware reachability: proofs from structure and interval analysis, witnesses from a
/// breadth-first search with the runtime's step function, and overlapping guards.
public enum Exploration {
    /// After every state and transition is settled, the search goes on for this many
    /// configurations more, looking for overlapping guards.
    static let overlapSearch = 300

    /// Analyses `machine` (which must have resolved without errors). The search expands
    /// configurations on every core and skips the work its results never depend on;
    /// `reference` runs the plain search instead, one step at a time (the tests check that
    /// both give the same report). `merging: false` tells configurations apart by every
    /// variable, even those that decide nothing (`VariableRelevance`), for the tests.
    public static func run(_ machine: Machine, bounds: ExplorationBounds = ExplorationBounds(),
                           reference: Bool = false) -> ExplorationReport {
        run(machine, bounds: bounds, reference: reference, merging: true)
    }

    package static func run(_ machine: Machine, bounds: ExplorationBounds, reference: Bool,
                            merging: Bool) -> ExplorationReport {
        let program = Program(machine)
        // One interval analysis serves the proofs about states and transitions and those about properties.
        let intervals = IntervalAnalysis(machine, isStatechart: program.isStatechart)
        let proofs = proven(machine, intervals: intervals)
        var explorer = Explorer(program: program, bounds: bounds, reference: reference, merging: merging)
        let analysisProofs = PropertyVerdicts.analysisProofs(machine, program, intervals: intervals)
        var settledAt: Int?
        // History states are never active: what is to settle about them is the transitions into them.
        let toSettle = machine.states.dropFirst().filter { !$0.isHistory }.map(\.id.index)
        explorer.run { e in
            // A property not yet violated is decided only by a search that runs out.
            if !e.propertiesSettled(proven: analysisProofs) { return false }
            let settled = toSettle.allSatisfy { e.stateWitness[$0] != nil || proofs.states[$0] != nil }
                && machine.transitions.indices.allSatisfy { e.transitionWitness[$0] != nil || proofs.transitions[$0] != nil }
            guard settled else { return false }
            if settledAt == nil { settledAt = e.nodes.count }
            return e.nodes.count >= (settledAt ?? 0) + overlapSearch
        }
        var states: [ExplorationReport.Finding] = [explorer.startFault == nil ? .reached([]) : .notReached]
        for i in 1..<max(1, machine.states.count) {
            if let node = explorer.stateWitness[i] {
                states.append(.reached(explorer.path(to: node)))
            } else if let reason = proofs.states[i] {
                states.append(.unreachable(reason))
            } else {
                states.append(.notReached)
            }
        }
        var transitions = machine.transitions.indices.map { i -> ExplorationReport.Finding in
            if let node = explorer.transitionWitness[i] { return .reached(explorer.path(to: node)) }
            if let reason = proofs.transitions[i] { return .unreachable(reason) }
            return .notReached
        }
        // The search saw everything: every reachable configuration, each input, each order of timers.
        let searchedEverything = explorer.exhausted && !explorer.payloadsSampled && !explorer.deadlinesRefused
            && timerOrderIsFixed(machine)
        if let fault = explorer.startFault {
            // Nothing runs, so nothing is reached; the start's failure is the one reason.
            let reason = "the machine cannot start: entering '\(machine.initialState.map { machine[$0].name } ?? "")' fails "
                + "at run time (\(fault.message) in '\(machine.text(fault.range))')"
            states = states.indices.map { $0 == 0 ? .reached([]) : .unreachable(reason) }
            transitions = transitions.map { _ in .unreachable(reason) }
        } else if searchedEverything {
            // Every configuration the machine can reach was visited, each event tried with
            // one payload per region of its fields, and time let pass to every deadline:
            // what the search did not reach cannot happen.
            let reason = "the search visited every reachable configuration (\(explorer.nodes.count)) and tried every "
                + "distinct input in each"
            states = states.map { $0 == .notReached ? .unreachable(reason) : $0 }
            transitions = transitions.map { $0 == .notReached ? .unreachable(reason) : $0 }
        }
        for h in machine.states where h.isHistory {
            states[h.id.index] = historyFinding(h.id, machine, transitions)
        }
        let overlaps = explorer.overlaps.map { o in
            ExplorationReport.Overlap(first: o.first, second: o.second, event: o.event, time: o.time, path: o.path,
                                      payload: o.payload, variables: o.variables)
        }
        var limits = ExplorationReport.SearchLimits()
        limits.depthBoundHit = explorer.depthBoundHit
        limits.configurationBoundHit = explorer.configurationBoundHit
        limits.payloadsSampled = explorer.payloadsSampled
        limits.deadlinesRefused = explorer.deadlinesRefused
        limits.timerOrderVaries = !timerOrderIsFixed(machine)
        limits.timedStatesOverlap = timedStatesOverlap(machine)
        if explorer.payloadsSampled { limits.untriedNumbers = PayloadCandidates(machine).untriedGeneral }
        limits.sampledGuards = explorer.cuts.sorted { $0.guardLine < $1.guardLine }
            .map { (line: $0.guardLine, tried: $0.tried, of: $0.of) }
        var report = ExplorationReport(states: states, transitions: transitions, overlaps: overlaps,
                                       configurations: explorer.nodes.count, bounds: bounds)
        report.limits = limits
        report.startFault = explorer.startFault
        report.faults = explorer.faults.map { ExplorationReport.Fault(fault: $0.fault, witness: $0.path) }
        report.properties = PropertyVerdicts.verdicts(machine, explorer, report,
                                                      complete: explorer.startFault == nil && searchedEverything,
                                                      proofs: analysisProofs)
        return report
    }

    /// Whether the order in which each state's timers fire is the same whenever the state
    /// is entered. Deadlines are `now + delay`, rounded; rounding keeps their order but can
    /// make two of them equal at some `now`, and then the timer armed first fires first. So
    /// the order is fixed when every state's timers have constant delays written in
    /// non-decreasing order (or it has at most one timer). Otherwise the time an event
    /// arrives can matter, and a search that sends events at a few times proves nothing.
    ///
    /// States with timers that can be active together (a state and its ancestor, or two
    /// regions) can be entered at different times, so when an event arrives decides which of
    /// their timers fires first: then the order is not fixed either.
    static func timerOrderIsFixed(_ machine: Machine) -> Bool {
        let constants = machine.constantValues
        if timedStatesOverlap(machine) { return false }
        return machine.states.allSatisfy { state in
            let delays = state.transitions.compactMap { id -> Expr? in
                if case .after(let d) = machine[id].trigger { return d }
                return nil
            }
            if delays.count <= 1 { return true }
            let values = delays.map { $0.folded(constants: constants)?.number.map { Swift.max(0, $0) } }
            guard values.allSatisfy({ $0 != nil }) else { return false }
            let numbers = values.compactMap { $0 }
            return zip(numbers, numbers.dropFirst()).allSatisfy { $0 <= $1 }
        }
    }

    /// Whether two different states with timers can be active together.
    static func timedStatesOverlap(_ machine: Machine) -> Bool {
        let timed = Set(machine.states.filter { state in
            state.transitions.contains { if case .after = machine[$0].trigger { return true } else { return false } }
        }.map(\.id))
        return timed.contains { s in machine.coActiveStates(s).contains { $0 != s && timed.contains($0) } }
    }

    /// What can be proven without running: unreachable states and transitions that can
    /// never fire, each with its reason.
    static func proven(_ machine: Machine, isStatechart: Bool) -> (states: [String?], transitions: [String?]) {
        proven(machine, intervals: IntervalAnalysis(machine, isStatechart: isStatechart))
    }

    /// `proven`, on an interval analysis already made.
    static func proven(_ machine: Machine, intervals: IntervalAnalysis) -> (states: [String?], transitions: [String?]) {
        let constants = machine.constantValues
        let graph = Reachability.reachableStates(machine)
        var states: [String?] = Array(repeating: nil, count: machine.states.count)
        func failure(_ expr: Expr) -> String {
            "'\(machine.text(expr.range))' (line \(machine.source.location(of: expr.range.start).line)) always fails"
        }
        for s in machine.states.dropFirst()
        where !s.isHistory && !graph.contains(s.id) || (intervals.converged && intervals.environments[s.id.index] == nil) {
            // A way in that fires but always fails at run time is the reason to give: the
            // user sees the arrow and needs to know why it never arrives.
            let failing = machine.transitions.first { $0.target == s.id && intervals.alwaysFailing[$0.id] != nil }
            if let t = failing, let expr = intervals.alwaysFailing[t.id] {
                states[s.id.index] = "every way into it fails at run time: \(failure(expr))"
            } else {
                states[s.id.index] = graph.contains(s.id)
                    ? "no transition into it can ever fire"
                    : "no transition leads to it from the initial state"
            }
        }
        var transitions: [String?] = Array(repeating: nil, count: machine.transitions.count)
        var shadowedBy: [TransitionID: Transition] = [:]
        for pair in ShadowedTransitions.pairs(machine) { shadowedBy[pair.shadowed.id] = pair.winner }
        for t in machine.transitions {
            if states[t.source.index] != nil {
                transitions[t.id.index] = "its state '\(machine[t.source].name)' is unreachable"
            } else if t.neverFires(constants: constants) {
                transitions[t.id.index] = "its guard is always false"
            } else if case .done(let x) = t.trigger, machine.neverCompletes(x) {
                transitions[t.id.index] = "'\(machine[x].name)' never completes"
            } else if shadowedBy[t.id] != nil {
                transitions[t.id.index] = "an earlier transition of '\(machine[t.source].name)' always takes "
                    + ShadowedTransitions.trigger(of: t, machine)
            } else if let reason = intervals.deadTransitions[t.id] {
                transitions[t.id.index] = reason
            } else if let expr = intervals.alwaysFailing[t.id] {
                transitions[t.id.index] = "its step fails at run time every time: \(failure(expr))"
            }
        }
        return (states, transitions)
    }

    /// The verdict on a history pseudo-state, which is never active itself: reached with the
    /// first witness of a transition into it, proven unreachable when every transition into
    /// it is (or none targets it), and otherwise not reached.
    static func historyFinding(_ h: StateID, _ machine: Machine,
                               _ transitions: [ExplorationReport.Finding]) -> ExplorationReport.Finding {
        let into = machine.transitions.filter { $0.target == h }.map { transitions[$0.id.index] }
        var best: [WitnessStep]?
        for case .reached(let witness) in into where best.map({ witness.count < $0.count }) ?? true { best = witness }
        if let best { return .reached(best) }
        if into.contains(.notReached) { return .notReached }
        if into.isEmpty { return .unreachable("no transition enters it") }
        return .unreachable("no transition into it can ever fire")
    }
}
