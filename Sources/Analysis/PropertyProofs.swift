import StatecraftModel

/// Proofs of properties from the interval analysis, for when the search cannot cover every
/// input (a payload that feeds arithmetic is sampled, so the search proves nothing there).
///
/// The analysis gives, for each reachable leaf state, intervals that hold the variables
/// whenever the leaf is active (`IntervalAnalysis.environments`). A stable configuration
/// always has some active leaf, and where a leaf is active, `in(x)` is known for many `x`:
/// true for its ancestors, false for every state that can never be active beside it
/// (`Machine.coActiveStates`), unknown only for states of other parallel regions. So an
/// expression that cannot be true under every reachable leaf's intervals and `in` facts is
/// false in every stable configuration of every run. This is the whole basis:
///
/// - `never X while G`: `X && G` cannot be true under any leaf; `always X while G`: `G &&
///   !X` cannot be. The expressions must also be unable to fail (a failure violates the
///   property), which `mayFail` checks on the same intervals.
/// - `X only after Y`: `Y` holds at the start, or no path of transitions from the initial
///   leaf reaches a leaf where `X` can hold without passing through a leaf where `Y` must
///   hold (machines that do not step as statecharts: their configuration is their leaf, and
///   a step ends where its transition leads).
/// - A response to an event no transition can take, or to entering a state never
///   entered, has nothing to answer.
/// - `after entering s within D: X`: `s` has a timer `after d` with a constant `d ≤ D`,
///   unguarded, whose step cannot fail and leaves `s`; nothing can exit and re-enter `s`
///   while it is active (which would re-arm the timer); and `X` must hold wherever `s` is
///   not active. Then every entry of `s` is followed, within `d`, by a configuration
///   without `s`, where `X` holds.
///
/// Each proof says in words what it rests on; where none applies, the verdict stays the
/// search's.
struct PropertyProofs {
    let machine: Machine
    let analysis: IntervalAnalysis
    /// Whether the machine steps as a statechart (`Program.isStatechart`): a step may then go
    /// on through eventless and completion transitions and raised events, and its
    /// configuration is not just its leaf.
    private let isStatechart: Bool
    private let constants: [Value]
    /// The leaves the analysis reaches, with their intervals (none when it did not converge:
    /// its intervals then prove nothing).
    private let contexts: [Context]

    /// Proofs on `analysis`, the interval analysis of `machine` (stepping as a statechart
    /// or not, as `isStatechart` says), which the search's own proofs use too.
    init(_ machine: Machine, isStatechart: Bool, analysis: IntervalAnalysis) {
        self.machine = machine
        self.isStatechart = isStatechart
        self.analysis = analysis
        constants = machine.constantValues
        contexts = !analysis.converged ? [] : machine.states.map(\.id).compactMap { s in
            guard s != machine.root, machine.isAtomic(s), !machine[s].isHistory, let env = analysis.environments[s.index]
            else { return nil }
            return Context(leaf: s, env: env, evaluator: PropertyProofs.evaluator(at: s, machine))
        }
    }

    /// A leaf the analysis reaches, with its intervals and an evaluator that knows what
    /// `in(x)` is where it is active.
    private struct Context {
        var leaf: StateID
        var env: [AbstractValue]
        var evaluator: AbstractEvaluator
    }

    /// An evaluator that knows what `in(x)` is where `leaf` is active.
    private static func evaluator(at leaf: StateID, _ machine: Machine) -> AbstractEvaluator {
        var evaluator = AbstractEvaluator(machine: machine)
        let ancestors = Set(machine.selfAndAncestors(leaf, upTo: nil))
        let possible = Set(machine.coActiveStates(leaf))
        evaluator.inState = { x in
            if ancestors.contains(x) { return true }
            return possible.contains(x) ? nil : false
        }
        return evaluator
    }

    /// Why `property` holds, or nil when these proofs do not reach it.
    func proof(of property: Property, startSatisfiesY: Bool) -> String? {
        guard analysis.converged, !property.isBroken else { return nil }
        switch property.form {
        case .never(let x, let g):
            return invariant(x, g, mustBe: false)
        case .always(let x, let g):
            return invariant(x, g, mustBe: true)
        case .precedence(let x, let y):
            return precedence(x, y, startSatisfiesY: startSatisfiesY)
        case .response(.entering(let s), let deadline, let x):
            if analysis.environments[s.index] == nil { return "'\(machine[s].name)' is never entered" }
            return leaves(s, within: deadline, x)
        case .response(.event(let e), let deadline, let x):
            return answers(e, within: deadline, x)
        case .reachable:
            return nil
        }
    }

    /// `X` (where `G` holds) is `mustBe` in every stable configuration, and never fails.
    ///
    /// Every configuration holds a leaf of a *covering* set of leaves: all of them; or, for
    /// a region `Q` of a parallel state `R`, the leaves inside `Q` and those outside `R`
    /// (when `R` is active, `Q` is). Under one leaf, `in` of a state in another region is
    /// unknown, so `never in(a) && in(b)` for `a` and `b` of one region is proven on that
    /// region's covering set.
    private func invariant(_ x: Expr, _ g: Expr?, mustBe: Bool) -> String? {
        for c in contexts {
            let evaluator = c.evaluator
            if mayFail(x, c.env, evaluator) || g.map({ mayFail($0, c.env, evaluator) }) == true { return nil }
        }
        func holds(_ c: Context) -> Bool {
            let evaluator = c.evaluator
            return cases(of: [x] + (g.map { [$0] } ?? []), in: c.env).allSatisfy { env in
                if let g, !evaluator.evaluate(g, env).canBeTrue { return true }
                let value = evaluator.evaluate(x, env)
                return mustBe ? !value.canBeFalse : !value.canBeTrue
            }
        }
        let verdict = mustBe ? "make it true" : "rule it out"
        // (No reachable leaf at all would make every claim vacuous: no proof then.)
        guard !contexts.isEmpty else { return nil }
        if contexts.allSatisfy(holds) {
            return "in each of the \(contexts.count) reachable leaf states, the values the variables can take there "
                + "(interval analysis) \(verdict)"
        }
        for r in machine.states where machine.isParallel(r.id) {
            for q in machine.childStates(r.id) {
                let cover = contexts.filter {
                    !machine.isDescendant($0.leaf, of: r.id) || $0.leaf == q || machine.isDescendant($0.leaf, of: q)
                }
                if !cover.isEmpty, cover.allSatisfy(holds) {
                    return "every configuration has one of \(cover.count) reachable leaf states (those of region "
                        + "'\(machine[q].name)', or outside '\(r.name)'), and in each, the values the variables can take "
                        + "there (interval analysis) \(verdict)"
                }
            }
        }
        return nil
    }

    /// `env`, split into one environment per value of each variable the expressions read
    /// whose values are a few strings or both booleans: intervals do not relate one value
    /// to another, so `s == "a" || s == "b"` with `s` in {"a", "b"} is proven value by value.
    private func cases(of exprs: [Expr], in env: [AbstractValue]) -> [[AbstractValue]] {
        var read: [VariableID] = []
        for e in exprs { e.visit { if case .variable(let v) = $0.kind, !read.contains(v) { read.append(v) } } }
        var result = [env]
        for v in read {
            let values: [AbstractValue]
            switch env[v.index] {
            case .string(let set?) where set.count > 1: values = set.sorted().map { .string([$0]) }
            case .bool(true, true): values = [.bool(canBeFalse: true, canBeTrue: false), .bool(canBeFalse: false, canBeTrue: true)]
            default: continue
            }
            guard result.count * values.count <= 256 else { break }
            result = result.flatMap { e in values.map { value in
                var split = e
                split[v.index] = value
                return split
            } }
        }
        return result
    }

    private func precedence(_ x: Expr, _ y: Expr, startSatisfiesY: Bool) -> String? {
        for c in contexts {
            let evaluator = c.evaluator
            if mayFail(x, c.env, evaluator) || mayFail(y, c.env, evaluator) { return nil }
        }
        if startSatisfiesY { return "'\(machine.text(y.range))' holds from the start" }
        // The leaf graph is the machine's steps only when a step ends where its transition leads.
        guard !isStatechart, let initial = machine.initialState else { return nil }
        var xCanHold: Set<StateID> = []
        var yMustHold: Set<StateID> = []
        for c in contexts {
            let evaluator = c.evaluator
            if evaluator.evaluate(x, c.env).canBeTrue { xCanHold.insert(c.leaf) }
            if !evaluator.evaluate(y, c.env).canBeFalse { yMustHold.insert(c.leaf) }
        }
        // The leaves reachable from the start without passing through one where Y must hold.
        let start = machine.initialEntrySet.last { machine.isAtomic($0) } ?? initial
        var seen: Set<StateID> = [start]
        var work = [start]
        while let leaf = work.popLast() {
            if yMustHold.contains(leaf) { continue }
            if xCanHold.contains(leaf) { return nil }
            for id in IntervalAnalysis.candidateTransitions(machine, from: leaf) where analysis.deadTransitions[id] == nil {
                let t = machine[id]
                let next = t.target == nil ? leaf : IntervalAnalysis.leaf(entering: t, machine)
                if seen.insert(next).inserted { work.append(next) }
            }
        }
        return "no path of transitions leads from the start to a state where '\(machine.text(x.range))' can hold "
            + "without passing through one where '\(machine.text(y.range))' holds"
    }

    /// `after entering s within deadline: X`, by a timer of `s` that always leaves it in time.
    private func leaves(_ s: StateID, within deadline: Double, _ x: Expr) -> String? {
        // X may fail wherever s is active, or after it: a failure is a violation.
        for c in contexts where mayFail(x, c.env, c.evaluator) { return nil }
        // Once s is left, X holds: wherever s is not active (a statechart, whose step may go
        // on through eventless transitions after leaving), or where each way out of it leads
        // (a machine without parallel states, whose step ends where its transition leads).
        if isStatechart || !exitsAnswer(s, x) {
            for c in contexts where !machine.coActiveStates(c.leaf).contains(s) {
                if c.evaluator.evaluate(x, c.env).canBeFalse { return nil }
            }
        }
        let subtree = Set((s.index...machine.lastDescendant(s).index).map(StateID.init))
        func related(_ a: StateID, _ b: StateID) -> Bool { a == b || machine.isDescendant(a, of: b) || machine.isDescendant(b, of: a) }
        guard let env = analysis.environments[s.index] else { return nil }
        // The timer that leaves s.
        let timer = machine[s].transitions.map { machine[$0] }.first { t in
            guard case .after(let delay) = t.trigger, case .number(let d)? = delay.folded(constants: constants),
                  Swift.max(0, d) <= deadline, t.alwaysFires(constants: constants), analysis.deadTransitions[t.id] == nil,
                  let target = t.target, !machine[target].isHistory, !related(target, s) else { return false }
            return !stepMayFail(t, env: env)
        }
        guard let timer, case .after(let delay) = timer.trigger, followUpsCannotFail() else { return nil }
        // Nothing exits and enters s again while it is active.
        let inner = Set(machine.selfAndAncestors(s, upTo: nil))
        for t in machine.transitions where !t.isBroken && !t.neverFires(constants: constants) {
            guard let target = t.target else { continue }
            let entered = machine[target].isHistory ? (machine[target].parent ?? target) : target
            guard related(entered, s) || subtree.contains(entered) else { continue }
            // It can fire while s is active only from a state that can be active beside s.
            guard machine.coActiveStates(s).contains(t.source) || inner.contains(t.source) else { continue }
            guard let domain = machine.transitionDomain(t.shape, historyValue: { _ in nil }),
                  machine.isDescendant(s, of: domain) else { continue }  // s is not exited
            // A guard that cannot hold while s is active (`if in(ended)` beside s).
            if let g = t.guardExpr {
                var evaluator = PropertyProofs.evaluator(at: s, machine)
                evaluator.setPayload(of: t.trigger)
                if !evaluator.evaluate(g, env).canBeTrue { continue }
            }
            // A transition of an ancestor on events that s itself always takes first.
            if inner.contains(t.source), t.source != s, case .events(let events) = t.trigger,
               events.allSatisfy({ e in machine[s].transitions.contains { u in
                   if case .events(let es) = machine[u].trigger { return es.contains(e) && machine[u].alwaysFires(constants: constants) }
                   return false
               } }) {
                continue
            }
            return nil
        }
        return "'\(machine[s].name)' is always left by its 'after \(machine.text(delay.range))' transition (line "
            + "\(machine.source.location(of: timer.keywordRange.start).line)) unless it is left sooner, nothing enters "
            + "it again while it is active, and '\(machine.text(x.range))' holds once it is left"
    }

    /// Whether the rest of any macrostep (a statechart's eventless and completion transitions
    /// and raised events, which run in the same step) can never fail, and no chain of raised
    /// events can go on until the runtime's bound of microsteps: a failure there undoes the
    /// whole step, the timer's transition with it.
    private func followUpsCannotFail() -> Bool {
        var raisedBy: [Int: Set<Int>] = [:]  // event (-1: any entry or exit action) → the events it raises
        var raised: Set<Int> = []
        func raises(_ actions: [Action]) -> Set<Int> {
            var found: Set<Int> = []
            for a in actions { a.visit { if case .raise(let e, _, _) = $0 { found.insert(e.index) } } }
            return found
        }
        for t in machine.transitions {
            let r = raises(t.actions)
            raised.formUnion(r)
            if case .events(let events) = t.trigger { for e in events { raisedBy[e.index, default: []].formUnion(r) } }
        }
        let fromStates = machine.states.reduce(into: Set<Int>()) { $0.formUnion(raises($1.allActions)) }
        raised.formUnion(fromStates)
        // A chain of raised events that can come back to one it started from.
        for start in raised {
            var seen: Set<Int> = []
            var work = Array(raisedBy[start, default: []].union(fromStates))
            while let e = work.popLast() {
                if e == start { return false }
                if seen.insert(e).inserted { work += raisedBy[e, default: []].union(fromStates) }
            }
        }
        for t in machine.transitions where !t.isBroken && !t.neverFires(constants: constants) {
            let followUp: Bool = switch t.trigger {
            case .always, .done: true
            case .events(let events): events.contains { raised.contains($0.index) }
            case .after: false
            }
            guard followUp else { continue }
            guard let env = analysis.environments[t.source.index] else { continue }  // never active
            if let g = t.guardExpr {
                var evaluator = AbstractEvaluator(machine: machine)
                evaluator.setPayload(of: t.trigger)
                if mayFail(g, env, evaluator) { return false }
            }
            if t.target == nil {
                var vars = env
                var evaluator = AbstractEvaluator(machine: machine)
                evaluator.setPayload(of: t.trigger)
                if actionsMayFail(t.actions, &vars, &evaluator) { return false }
            } else if stepMayFail(t, env: env) {
                return false
            }
        }
        return true
    }

    /// Whether `X` surely holds wherever a transition that leaves `s` (of a machine without
    /// parallel states) comes to rest: in every leaf it can lead to.
    private func exitsAnswer(_ s: StateID, _ x: Expr) -> Bool {
        let inner = Set(machine.selfAndAncestors(s, upTo: nil))
        let subtree = Set((s.index...machine.lastDescendant(s).index).map(StateID.init))
        for t in machine.transitions where !t.isBroken && !t.neverFires(constants: constants) && analysis.deadTransitions[t.id] == nil {
            guard let target = t.target, inner.contains(t.source) || subtree.contains(t.source),
                  let domain = machine.transitionDomain(t.shape, historyValue: { _ in nil }),
                  machine.isDescendant(s, of: domain) else { continue }
            let entered = machine[target].isHistory ? (machine[target].parent ?? target) : target
            let landing = contexts.filter { $0.leaf == entered || machine.isDescendant($0.leaf, of: entered) }
            for c in landing where c.evaluator.evaluate(x, c.env).canBeFalse { return false }
        }
        return true
    }

    /// `after e within deadline: X`: every step that takes `e` either leaves the machine
    /// where `X` surely holds (it answers itself), or enters a state that `leaves` proves is
    /// answered in time. No such step at all: nothing to answer.
    private func answers(_ e: EventID, within deadline: Double, _ x: Expr) -> String? {
        let takers = machine.transitions.filter { t in
            guard case .events(let events) = t.trigger, events.contains(e) else { return false }
            return analysis.deadTransitions[t.id] == nil && !t.neverFires(constants: constants)
                && analysis.environments[t.source.index] != nil
        }
        if takers.isEmpty { return "no step takes '\(machine[e].name)': no transition that can fire has it as its trigger" }
        for c in contexts where mayFail(x, c.env, c.evaluator) { return nil }
        // A statechart's step may go on after the transition; only the state-based rule holds there.
        var entered: [String] = []
        var answersItself = false
        for t in takers {
            let rest = t.target.map { machine[$0].isHistory ? (machine[$0].parent ?? $0) : $0 } ?? t.source
            let landing = contexts.filter { $0.leaf == rest || machine.isDescendant($0.leaf, of: rest) }
            if !isStatechart, landing.allSatisfy({ !$0.evaluator.evaluate(x, $0.env).canBeFalse }) {
                answersItself = true
                continue
            }
            guard let target = t.target, !machine[target].isHistory,
                  let domain = machine.transitionDomain(t.shape, historyValue: { _ in nil }),
                  machine.isDescendant(target, of: domain), leaves(target, within: deadline, x) != nil else { return nil }
            if !entered.contains(machine[target].name) { entered.append(machine[target].name) }
        }
        if entered.isEmpty { return "every step that takes '\(machine[e].name)' leaves the machine where it holds" }
        return "every step that takes '\(machine[e].name)' " + (answersItself ? "leaves the machine where it holds, or " : "")
            + "enters " + entered.map { "'\($0)'" }.joined(separator: " or ") + ", which is always left in time for it"
    }

    /// Whether some run of the step of timer `t` (from `s`, with the variables in `env`) can
    /// fail: its actions, the exit actions of the states it may leave and the entry actions
    /// and delays of those it may enter. The states that are surely active (`s` and its
    /// ancestors) and the ones it surely enters run in order; the others (descendants of
    /// `s`, other regions) may or may not be active, so each runs on a copy that is then
    /// joined in, which covers both.
    private func stepMayFail(_ t: Transition, env: [AbstractValue]) -> Bool {
        var evaluator = AbstractEvaluator(machine: machine)
        var vars = env
        guard let domain = machine.transitionDomain(t.shape, historyValue: { _ in nil }) else { return true }
        let sure = Set(machine.selfAndAncestors(t.source, upTo: nil))
        func run(_ actions: [Action], optional: Bool) -> Bool {
            var after = vars
            evaluator.locals = []
            if actionsMayFail(actions, &after, &evaluator) { return true }
            vars = optional ? zip(vars, after).map { $0.joined(with: $1) } : after
            return false
        }
        evaluator.setPayload(of: .events([]))
        // Exits, inner states first: the subtree of the domain, as much of it as can be active.
        let possible = Set(machine.coActiveStates(t.source)).union(sure)
        let exits = (domain.index...machine.lastDescendant(domain).index).map(StateID.init).filter {
            $0 != domain && possible.contains($0)
        }.reversed()
        for x in exits where run(machine[x].exit, optional: !sure.contains(x)) { return true }
        evaluator.setPayload(of: t.trigger)
        if run(t.actions, optional: false) { return true }
        evaluator.setPayload(of: .events([]))
        var defaults = DefaultEntries()
        for e in machine.entrySet([t.shape], historyValue: { _ in nil }, defaults: &defaults) {
            if run(machine[e].entry, optional: false) { return true }
            // A final state's values are computed as it is entered.
            if machine[e].doneData.contains(where: { mayFail($0.value, vars, evaluator) }) { return true }
            if run(defaults.actions(after: e, in: machine), optional: false) { return true }
            for timer in machine[e].transitions {
                if case .after(let d) = machine[timer].trigger, mayFail(d, vars, evaluator) { return true }
            }
        }
        return false
    }

    /// Whether running `actions` from `vars` can fail in some run; `vars` becomes what
    /// the variables can be after them.
    private func actionsMayFail(_ actions: [Action], _ vars: inout [AbstractValue], _ evaluator: inout AbstractEvaluator) -> Bool {
        for action in actions {
            switch action {
            case .assign(let v, let op, let e, _):
                if mayFail(e, vars, evaluator) { return true }
                if let op, opMayFail(op, vars[v.index], evaluator.evaluate(e, vars), isString: e.type == .string) { return true }
            case .setLocal(_, let e, _):
                if mayFail(e, vars, evaluator) { return true }
            case .emit(_, let args, _), .raise(_, let args, _):
                if args.contains(where: { mayFail($0, vars, evaluator) }) { return true }
            case .send(_, let args, let delay, _):
                if (args + (delay.map { [$0] } ?? [])).contains(where: { mayFail($0, vars, evaluator) }) { return true }
            case .sendNamed(let name, let delay, _):
                if mayFail(name, vars, evaluator) || delay.map({ mayFail($0, vars, evaluator) }) == true { return true }
                // It fails unless every string it can be names an event it can send.
                guard case .string(let names?) = evaluator.evaluate(name, vars), names.allSatisfy(evaluator.sendsByName) else {
                    return true
                }
            case .cancel:
                break
            case .ifAction(let c, let then, let otherwise, _):
                if mayFail(c, vars, evaluator) { return true }
                let condition = evaluator.evaluate(c, vars)
                var thenVars = vars, elseVars = vars
                if condition.canBeTrue && actionsMayFail(then, &thenVars, &evaluator) { return true }
                if condition.canBeFalse && actionsMayFail(otherwise, &elseVars, &evaluator) { return true }
                switch (condition.canBeTrue, condition.canBeFalse) {
                case (true, false): vars = thenVars
                case (false, true): vars = elseVars
                default: vars = zip(thenVars, elseVars).map { $0.joined(with: $1) }
                }
                continue
            }
            // The action itself, abstractly (it cannot fail in every run: it cannot fail at all).
            if evaluator.run([action], &vars) != nil { return true }
        }
        return false
    }

    /// Whether evaluating `e` can fail for some values in `vars`: an arithmetic result that
    /// is not finite, a division by zero, a function outside its domain. (The abstract
    /// evaluator leaves failing runs out, as the runtime undoes them; a property's failure
    /// is a violation, so it is looked for here.)
    func mayFail(_ e: Expr, _ vars: [AbstractValue], _ evaluator: AbstractEvaluator) -> Bool {
        if e.folded(constants: constants) != nil { return false }
        var children: [Expr] = []
        e.forEachChild { children.append($0) }
        if children.contains(where: { mayFail($0, vars, evaluator) }) { return true }
        switch e.kind {
        case .binary(let op, let l, let r):
            return opMayFail(op, evaluator.evaluate(l, vars), evaluator.evaluate(r, vars), isString: e.type == .string)
        case .call(let f, let args):
            let values = args.map { evaluator.evaluate($0, vars) }
            guard values.allSatisfy({ if case .number(let lo, let hi) = $0 { lo.isFinite && hi.isFinite } else { false } })
            else { return true }
            if f == .sqrt, case .number(let lo, _)? = values.first, lo < 0 { return true }
            return false
        default:
            return false
        }
    }

    /// Whether `a op b` can fail for values in `a` and `b` (only arithmetic on numbers can).
    private func opMayFail(_ op: BinaryOp, _ a: AbstractValue, _ b: AbstractValue, isString: Bool) -> Bool {
        guard [.add, .subtract, .multiply, .divide, .remainder].contains(op), !(op == .add && isString) else { return false }
        guard case .number(let alo, let ahi) = a, case .number(let blo, let bhi) = b,
              alo.isFinite, ahi.isFinite, blo.isFinite, bhi.isFinite else { return true }
        let corners: [Double]
        switch op {
        case .add: corners = [alo + blo, ahi + bhi]
        case .subtract: corners = [alo - bhi, ahi - blo]
        case .multiply: corners = [alo * blo, alo * bhi, ahi * blo, ahi * bhi]
        default:
            if blo <= 0 && bhi >= 0 { return true }
            corners = op == .divide ? [alo / blo, alo / bhi, ahi / blo, ahi / bhi] : [0]
        }
        return !corners.allSatisfy(\.isFinite)
    }
}
