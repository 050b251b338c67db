import StatecraftModel

/// Abstract interpretation of a machine over intervals: for each state, an over-approximation
/// of the variables' values whenever it is active. What it says cannot happen, cannot happen:
/// a state it never reaches is unreachable, a guard that cannot be true there never holds.
struct IntervalAnalysis {
    /// Variables' abstract values per state, indexed by `StateID`; nil for a state no
    /// abstract run reaches.
    var environments: [[AbstractValue]?]
    /// Transitions that can never fire, with the reason in words.
    var deadTransitions: [TransitionID: String] = [:]
    /// Transitions whose step fails at run time every time their guard lets them fire, and
    /// the expression that fails (in the guard, the actions, or the exit, entry or delay
    /// expressions the step runs).
    var alwaysFailing: [TransitionID: Expr] = [:]

    /// After this many visits of a state its intervals are widened, so the fixpoint ends.
    static let wideningDelay = 3
    /// The most worklist steps; an analysis stopped there has not reached its fixpoint.
    static let stepLimit = 100_000
    /// Whether the fixpoint was reached. If not, the environments are not an
    /// over-approximation of every run, and nothing may be proven from them.
    var converged = true

    /// Analyses `machine`. `isStatechart` says whether it steps as a statechart (see
    /// `Program.isStatechart`): then the per-state analysis below does not apply, and one
    /// invariant for all states is computed instead (`init(invariantOf:)`).
    init(_ machine: Machine, isStatechart: Bool = false, stepLimit: Int = IntervalAnalysis.stepLimit) {
        environments = Array(repeating: nil, count: machine.states.count)
        if isStatechart {
            computeInvariant(machine, stepLimit: stepLimit)
            return
        }
        // Timers beaten by a sooner one never fire, whatever the variables: leave them out.
        findTimerRaces(machine)
        let beaten = deadTransitions
        var evaluator = AbstractEvaluator(machine: machine)
        // Environments are kept per active leaf: the leaf and its ancestors are the
        // configuration of a machine without parallel states.
        guard let initial = machine.initialState else { return }
        var vars = machine.variables.map { AbstractValue($0.initialValue) }
        evaluator.setPayload(of: .events([]))
        let start = machine.initialEntry
        for s in start.states {
            evaluator.run(machine[s].entry, &vars)
            evaluator.run(start.defaults.actions(after: s, in: machine), &vars)
        }
        var visits = Array(repeating: 0, count: machine.states.count)
        var worklist = [initial]
        environments[initial.index] = vars
        var guardSteps = 0
        var failed: [TransitionID: Expr] = [:]
        var succeeded: Set<TransitionID> = []
        while let state = worklist.popLast() {
            if guardSteps >= stepLimit {
                converged = false
                break
            }
            guardSteps += 1
            guard let env = environments[state.index] else { continue }
            for id in IntervalAnalysis.candidateTransitions(machine, from: state) where beaten[id] == nil {
                let t = machine[id]
                var after = env
                let target = t.target == nil ? state : IntervalAnalysis.leaf(entering: t, machine)
                switch IntervalAnalysis.step(t, from: state, machine, &evaluator, &after) {
                case .blocked:
                    continue
                case .fails(let failure):
                    if failed[id] == nil { failed[id] = failure }
                    continue
                case .succeeds:
                    succeeded.insert(id)
                }
                if after.contains(where: \.isEmpty) { continue }
                let old = environments[target.index]
                var merged = old.map { zip($0, after).map { $0.joined(with: $1) } } ?? after
                visits[target.index] += 1
                if let old, visits[target.index] > IntervalAnalysis.wideningDelay {
                    merged = zip(merged, old).map { $0.widened(from: $1) }
                }
                if merged != old {
                    environments[target.index] = merged
                    worklist.append(target)
                }
            }
        }
        guard converged else { return }
        // A compound state is active whenever one of its leaves is.
        for leaf in machine.states.map(\.id) where machine.isAtomic(leaf) {
            guard let env = environments[leaf.index] else { continue }
            for ancestor in machine.properAncestors(leaf) where ancestor != machine.root {
                environments[ancestor.index] = environments[ancestor.index].map { zip($0, env).map { $0.joined(with: $1) } } ?? env
            }
        }
        for (id, failure) in failed where !succeeded.contains(id) { alwaysFailing[id] = failure }
        findDeadTransitions(machine, &evaluator)
    }

    /// The statechart analysis: one over-approximation of the variables that holds in every
    /// configuration, whatever the order in which transitions, entry and exit blocks run.
    /// Every block (a transition's actions, when its guard can hold; a state's entry or exit)
    /// is run from the invariant and the result joined in, until nothing changes; every value
    /// the variables take between two blocks of a real run is then inside it. Transitions
    /// whose guard cannot hold under it are dead; the states still reachable without them
    /// get the invariant as their environment, the others none.
    private mutating func computeInvariant(_ machine: Machine, stepLimit: Int) {
        var evaluator = AbstractEvaluator(machine: machine)
        var invariant = machine.variables.map { AbstractValue($0.initialValue) }
        var rounds = 0
        var steps = 0
        while true {
            var next = invariant
            func joinRun(_ actions: [Action]) {
                guard !actions.isEmpty else { return }
                evaluator.locals = []
                var vars = invariant
                if evaluator.run(actions, &vars) == nil, !vars.contains(where: \.isEmpty) {
                    next = zip(next, vars).map { $0.joined(with: $1) }
                }
            }
            for t in machine.transitions where !t.isBroken {
                evaluator.setPayload(of: t.trigger)
                evaluator.locals = []
                if let g = t.guardExpr, !evaluator.evaluate(g, invariant).canBeTrue { continue }
                joinRun(t.actions)
                steps += 1
            }
            evaluator.setPayload(of: .events([]))
            for state in machine.states {
                joinRun(state.entry)
                joinRun(state.exit)
                joinRun(state.initialActions)
                joinRun(state.historyActions)
                steps += 1
            }
            rounds += 1
            if rounds > IntervalAnalysis.wideningDelay { next = zip(next, invariant).map { $0.widened(from: $1) } }
            if next == invariant { break }
            invariant = next
            if steps >= stepLimit {
                converged = false
                return
            }
        }
        for s in machine.states.dropFirst() { environments[s.id.index] = invariant }
        findDeadTransitions(machine, &evaluator)
        let reachable = Reachability.reachableStates(machine, excluding: Set(deadTransitions.keys))
        for s in machine.states.dropFirst() where !reachable.contains(s.id) { environments[s.id.index] = nil }
    }

    /// The leaf a transition of a machine without parallel states leaves active: its
    /// target, followed down through initial children.
    static func leaf(entering t: Transition, _ machine: Machine) -> StateID {
        machine.entrySet([t.shape], historyValue: { _ in nil }).last { machine.isAtomic($0) } ?? t.target ?? t.source
    }

    /// What running a transition abstractly found.
    enum StepOutcome {
        /// Its guard cannot hold.
        case blocked
        /// Every run of its step fails, at this expression.
        case fails(Expr)
        /// Some run gets through; the variables are updated.
        case succeeds
    }

    /// Runs transition `t` abstractly from `state` with the variables `vars`.
    static func step(_ t: Transition, from state: StateID, _ machine: Machine,
                     _ evaluator: inout AbstractEvaluator, _ vars: inout [AbstractValue]) -> StepOutcome {
        evaluator.setPayload(of: t.trigger)
        evaluator.locals = []
        if let g = t.guardExpr {
            let verdict = evaluator.evaluate(g, vars)
            if verdict.isEmpty { return .fails(evaluator.failingPart(g, vars) ?? g) }
            if !verdict.canBeTrue { return .blocked }
            // The step runs only where the guard held.
            evaluator.narrow(by: g, &vars)
            if vars.contains(where: \.isEmpty) { return .blocked }
        }
        let configuration = Set(IntervalAnalysis.path(machine, to: state))
        if t.target != nil {
            for s in machine.exitSet([t.shape], configuration: configuration, historyValue: { _ in nil }) {
                if let failure = evaluator.run(machine[s].exit, &vars) { return .fails(failure) }
            }
        }
        if let failure = evaluator.run(t.actions, &vars) { return .fails(failure) }
        guard t.target != nil else { return .succeeds }
        evaluator.setPayload(of: .events([]))
        var defaults = DefaultEntries()
        for s in machine.entrySet([t.shape], historyValue: { _ in nil }, defaults: &defaults) {
            if let failure = evaluator.run(machine[s].entry, &vars) { return .fails(failure) }
            if let failure = evaluator.run(defaults.actions(after: s, in: machine), &vars) { return .fails(failure) }
            // A final state's values are computed as it is entered; one that cannot be fails the step.
            for field in machine[s].doneData where evaluator.evaluate(field.value, vars).isEmpty {
                return .fails(evaluator.failingPart(field.value, vars) ?? field.value)
            }
            // Timers are armed after the entry actions; a delay that cannot be computed fails the step.
            for timer in machine[s].transitions {
                if case .after(let delay) = machine[timer].trigger, evaluator.evaluate(delay, vars).isEmpty {
                    return .fails(evaluator.failingPart(delay, vars) ?? delay)
                }
            }
        }
        return .succeeds
    }

    /// The transitions that leave `state` or an ancestor of it.
    static func candidateTransitions(_ machine: Machine, from state: StateID) -> [TransitionID] {
        machine.selfAndAncestors(state, upTo: machine.root).flatMap { machine[$0].transitions }
    }

    /// The states entered to reach `target` from the root, outermost first.
    static func path(_ machine: Machine, to target: StateID) -> [StateID] {
        machine.selfAndAncestors(target, upTo: machine.root).reversed()
    }

    private mutating func findDeadTransitions(_ machine: Machine, _ evaluator: inout AbstractEvaluator) {
        for t in machine.transitions where !t.isBroken {
            guard let env = environments[t.source.index], let g = t.guardExpr else { continue }
            evaluator.setPayload(of: t.trigger)
            evaluator.locals = []
            guard !evaluator.evaluate(g, env).canBeTrue else { continue }
            if g.folded(constants: machine.constantValues) != nil { continue }  // a constant guard is reported as such
            // The reason is the first operand of a chain of `&&` that can never hold: the
            // variables it reads, or the operand itself when it is constant (`x > 1 && false`).
            func conjuncts(_ e: Expr) -> [Expr] {
                if case .binary(.and, let l, let r) = e.kind { return conjuncts(l) + conjuncts(r) }
                return [e]
            }
            let decisive = conjuncts(g).first { !evaluator.evaluate($0, env).canBeTrue } ?? g
            var read: [VariableID] = []
            decisive.visit { if case .variable(let v) = $0.kind, !read.contains(v) { read.append(v) } }
            let facts = decisive.folded(constants: machine.constantValues) == .bool(false)
                ? ["'\(machine.text(decisive.range))' is always false"]
                : read.map { "'\(machine[$0].name)' is \(env[$0.index]) there" }
            let because = facts.isEmpty ? "" : ": " + facts.joined(separator: ", ")
            deadTransitions[t.id] = "its guard '\(machine.text(g.range))' can never hold in '\(machine[t.source].name)'\(because)"
        }
    }

    /// Whether any expression the step of `t` runs (its actions, the exit actions of the
    /// states it leaves, the entry actions, final states' values and timer delays of those
    /// it enters) could fail.
    /// Only arithmetic and function calls fail, and only on values that are not constant.
    static func stepCanFail(_ t: Transition, from state: StateID, _ machine: Machine) -> Bool {
        let constants = machine.constantValues
        var can = false
        func check(_ e: Expr) {
            e.visit { sub in
                guard !can, sub.folded(constants: constants) == nil else { return }
                switch sub.kind {
                case .binary(let op, _, _) where [.add, .subtract, .multiply, .divide, .remainder].contains(op):
                    if !(op == .add && sub.type == .string) { can = true }
                case .call: can = true
                default: break
                }
            }
        }
        func check(_ actions: [Action]) { for a in actions { a.visitExpressions(check) } }
        t.guardExpr.map(check)
        check(t.actions)
        guard t.target != nil else { return can }
        // Whichever descendant of `state` is active, its exit actions run too.
        let configuration = Set(path(machine, to: state) + (state.index...machine.lastDescendant(state).index).map(StateID.init))
        for s in machine.exitSet([t.shape], configuration: configuration, historyValue: { _ in nil }) { check(machine[s].exit) }
        var defaults = DefaultEntries()
        for s in machine.entrySet([t.shape], historyValue: { _ in nil }, defaults: &defaults) {
            check(machine[s].entry)
            for field in machine[s].doneData { check(field.value) }
            check(defaults.actions(after: s, in: machine))
            for timer in machine[s].transitions {
                if case .after(let d) = machine[timer].trigger { check(d) }
            }
        }
        return can
    }

    /// A timer that an unguarded timer of the same state, armed before it and due no later,
    /// always beats never fires: that timer leaves the state first.
    private mutating func findTimerRaces(_ machine: Machine) {
        for state in machine.states {
            let timers = state.transitions.map { machine[$0] }.compactMap { t -> (Transition, Double)? in
                guard case .after(let delay) = t.trigger, case .number(let d)? = delay.folded(constants: machine.constantValues)
                else { return nil }
                return (t, Swift.max(0, d))
            }
            // The winner must be armed before the loser: deadlines are `now + delay` rounded,
            // and at a large enough `now` two different delays round to one deadline, where the
            // timer armed first fires first. Its step must not be able to fail either: a failed
            // step is undone, its timer used up, and the later timer fires after all.
            for (i, (winner, d1)) in timers.enumerated()
            where winner.target != nil && winner.alwaysFires(constants: machine.constantValues)
                && !IntervalAnalysis.stepCanFail(winner, from: state.id, machine) {
                for (j, (loser, d2)) in timers.enumerated() where j > i && d2 >= d1 {
                    guard deadTransitions[loser.id] == nil, case .after(let w) = winner.trigger else { continue }
                    deadTransitions[loser.id] = "the 'after \(machine.text(w.range))' transition always leaves '\(state.name)' first"
                }
            }
        }
    }
}
