import StatecraftModel

// What can fail in a statechart's step, decided once before any of it is written.
//
// A failing step is undone: `send` copies `core` before it changes anything and puts the copy
// back when something throws. Most steps of most charts cannot fail (no checked arithmetic,
// no `send`, no guard that divides), and the copy is then pure cost: a few dozen instructions
// an event, more than the rest of a small step. So each of the step's functions (`enter`,
// `exit`, a transition's actions, the default entries, `completeMacrostep`) is written with
// `throws` only when something in it can fail, callers write `try` only then, and a step
// made only of parts that cannot fail is taken with no copy and no `catch`. The compiler
// holds the plan to the code: a function written without `throws` whose body can throw does
// not compile, and a `try` or `catch` with nothing to catch is a warning (an error for the
// goldens, which compile with warnings as errors).
//
// The eventless phase can also fail by looping: the 10,000-microstep bound. It cannot when
// every `always` transition settles the phase (`settles`): after it, no `always` transition
// can be enabled, so a phase takes at most one.
//
// The plan also keeps which events, and whether the `always` transitions, are taken in place
// (`loneCandidates`): the send cases, the eventless loop, the output bound and the choice to
// inline `send` all ask, and the answer looks at every pair of source states.
struct ChartPlan {
    /// For each event, in the machine's order, its lone transitions by source
    /// (`loneCandidates`), or nil when it takes the general path.
    var loneEvents: [[(StateID, [Transition])]?] = []
    /// The same for the `always` transitions, when nothing is ever queued (else nil).
    var loneAlways: [(StateID, [Transition])]?
    /// Whether `enter(_:)` (`exit(_:)`, `enterByDefault(_:_:)`) throws: some state's entry
    /// (exit, default entry) can fail.
    var enterThrows = true
    var exitThrows = true
    var defaultsThrow = true
    /// The transitions whose actions can fail (their function throws).
    var throwingActions: Set<TransitionID> = []
    /// Whether `completeMacrostep` throws.
    var completeThrows = true
    /// The `always` transitions after which the eventless phase ends (see `settles`).
    var settling: Set<TransitionID> = []
    /// Whether every `always` transition is lone and settles the phase: a phase then takes one
    /// at most, and `completeMacrostep` is an `if`, not a loop.
    var phaseTakesOne = false

    /// Whether `runActions(_:_:)` throws: some transition's actions can fail.
    var runActionsThrows: Bool { !throwingActions.isEmpty }
}

extension FlatMachineWriter {
    /// `try ` when `throwing`: the prefix of a call of a function the plan says throws.
    static func tryIf(_ throwing: Bool) -> String { throwing ? "try " : "" }

    /// ` throws(Failure)` when `throwing`: the effect of a function the plan says throws.
    static func throwsIf(_ throwing: Bool) -> String { throwing ? " throws(Failure)" : "" }

    func chartPlanned() -> ChartPlan {
        var plan = ChartPlan()
        func mayFail(_ list: [Action]) -> Bool {
            var effects = StepEffects()
            actionEffects(list, &effects)
            return effects.mayFail
        }
        plan.enterThrows = states.contains { s in
            guard !s.isHistory else { return false }
            var effects = StepEffects()
            enterEffects(s, &effects)
            // A completion's values are computed on entering the final state.
            let values = s.isFinal && s.parent != machine.root && s.doneData.contains { expression($0.value, fields: []).1 }
            return effects.mayFail || values
        }
        plan.exitThrows = states.contains { s in
            guard !s.isHistory else { return false }
            var effects = StepEffects()
            exitEffects(s, &effects)
            return effects.mayFail
        }
        plan.defaultsThrow = hasDefaultActions && machine.states.contains { mayFail($0.initialActions) || mayFail($0.historyActions) }
        plan.throwingActions = Set(machine.transitions.filter { !$0.isBroken && mayFail($0.actions) }.map(\.id))
        plan.loneEvents = machine.events.map { loneCandidates($0) }
        guard !usesInternalQueue else { return plan }
        guard hasAlways else {
            plan.completeThrows = false
            return plan
        }
        // The eventless phase as `loneEventlessLoop` writes it, the only one that can be
        // written without `throws`: one `always` transition a round, taken in place.
        plan.loneAlways = loneCandidates { $0.trigger == .always }
        guard let sources = plan.loneAlways else { return plan }
        let candidates = sources.flatMap(\.1)
        for t in candidates where settles(t, sources) { plan.settling.insert(t.id) }
        plan.phaseTakesOne = !candidates.isEmpty && plan.settling.count == candidates.count
        let guardsThrow = candidates.contains { t in t.guardExpr.map { expression($0, fields: []).1 } ?? false }
        plan.completeThrows = guardsThrow || candidates.contains { !plan.settling.contains($0.id) || aloneThrows($0, plan) }
        return plan
    }

    /// Whether transition `t`'s microstep taken alone (`aloneLines`) calls something that
    /// throws: an exit, its actions, an entry or a default entry.
    func aloneThrows(_ t: Transition, _ plan: ChartPlan) -> Bool {
        guard let known = knownSteps(t) else { return true }
        // The exits `exitLines` calls: states below the domain, with exit work, that can be
        // active beside the source.
        if let domain = known.domain, plan.exitThrows, states.contains(where: {
            machine.isDescendant($0.id, of: domain) && hasExitWork($0) && machine.canBeActiveTogether($0.id, t.source)
        }) { return true }
        if !t.actions.isEmpty && plan.throwingActions.contains(t.id) { return true }
        if plan.enterThrows && known.entry.contains(where: { hasEntryWork(machine[$0]) }) { return true }
        if plan.defaultsThrow && known.entry.contains(where: { hasDefaultEntryWork(machine[$0]) }) { return true }
        return false
    }

    /// Whether no `always` transition can be enabled right after the lone `always` transition
    /// `t` (`sources`: the lone `always` transitions by source). Nothing `t` runs writes a
    /// variable (its actions, the exits and entries of its microstep), so every guard reads
    /// what it read when `t` was selected. `t` leaves its source, and sources are never
    /// active together, so the only sources that can be active after it are those it
    /// enters: each of their transitions must have a guard that cannot hold beside `t`'s
    /// (and that evaluates without failing, as the round that finds it false would).
    func settles(_ t: Transition, _ sources: [(StateID, [Transition])]) -> Bool {
        guard let known = knownSteps(t), let domain = known.domain, machine.isDescendant(t.source, of: domain) else { return false }
        var run = t.actions
        for s in states where !s.isHistory && machine.isDescendant(s.id, of: domain) { run += s.exit }
        for id in known.entry { run += machine[id].entry + known.defaults.actions(after: id, in: machine) }
        var writes = false
        for a in run { a.visit { if case .assign = $0 { writes = true } } }
        guard !writes else { return false }
        let entered = Set(known.entry)
        for (source, list) in sources where entered.contains(source) {
            for next in list {
                guard let g = t.guardExpr, let h = next.guardExpr, !expression(h, fields: []).1,
                      GuardLogic.cannotBothHold(g, h) else { return false }
            }
        }
        return true
    }
}

/// Guards that cannot hold together, told from their text: `x == ""` and `x != ""`,
/// `n < 3` and `3 <= n`, `ok` and `!ok`. Sound and incomplete: a pair it does not recognise
/// is one that may both hold.
enum GuardLogic {
    /// Whether `a` and `b` cannot both be true for any values of the variables: some conjunct
    /// of one contradicts some conjunct of the other.
    static func cannotBothHold(_ a: Expr, _ b: Expr) -> Bool {
        let left = conjuncts(a).compactMap(Atom.init), right = conjuncts(b).compactMap(Atom.init)
        return left.contains { x in right.contains { y in x.contradicts(y) } }
    }

    /// `a && b && c` as `[a, b, c]`.
    static func conjuncts(_ e: Expr) -> [Expr] {
        if case .binary(.and, let l, let r) = e.kind { return conjuncts(l) + conjuncts(r) }
        return [e]
    }

    /// A condition as what it says of one pair of values: which of their orders
    /// (less, equal, greater, unordered: a NaN) make it true. A condition on one value
    /// (a Bool) compares it with `true`.
    struct Atom {
        enum Order: CaseIterable { case less, equal, greater, unordered }
        var left: Expr
        var right: Expr?
        var holds: Set<Order>

        init?(_ e: Expr) {
            switch e.kind {
            case .unary(.not, let inner):
                guard let atom = Atom(inner) else { return nil }
                self = atom
                holds = Set(Order.allCases).subtracting(atom.holds)
            case .binary(let op, let l, let r):
                let orders: Set<Order>
                switch op {
                case .equal: orders = [.equal]
                case .notEqual: orders = [.less, .greater, .unordered]
                case .less: orders = [.less]
                case .lessEqual: orders = [.less, .equal]
                case .greater: orders = [.greater]
                case .greaterEqual: orders = [.greater, .equal]
                default:
                    guard e.type == .bool, GuardLogic.isPure(e) else { return nil }
                    (left, right, holds) = (e, nil, [.equal])
                    return
                }
                guard GuardLogic.isPure(l), GuardLogic.isPure(r) else { return nil }
                (left, right, holds) = (l, r, orders)
            default:
                guard e.type == .bool, GuardLogic.isPure(e) else { return nil }
                (left, right, holds) = (e, nil, [.equal])
            }
        }

        /// Whether this and `other` cannot both hold: they speak of the same pair (either way
        /// round) and no order makes both true.
        func contradicts(_ other: Atom) -> Bool {
            switch (right, other.right) {
            case (nil, nil):
                return GuardLogic.same(left, other.left) && holds.isDisjoint(with: other.holds)
            case (let r?, let s?):
                if GuardLogic.same(left, other.left) && GuardLogic.same(r, s) { return holds.isDisjoint(with: other.holds) }
                if GuardLogic.same(left, s) && GuardLogic.same(r, other.left) { return holds.isDisjoint(with: other.swapped) }
                return false
            default:
                return false
            }
        }

        /// `holds` with the pair read the other way round (`a < b` is `b > a`).
        var swapped: Set<Order> {
            Set(holds.map { $0 == .less ? .greater : $0 == .greater ? .less : $0 })
        }
    }

    /// Whether `e`'s value depends only on variables and constants: not on the configuration
    /// (`in(...)`), an event's payload or a `let` value, which differ from one evaluation
    /// to the next.
    static func isPure(_ e: Expr) -> Bool {
        var pure = true
        e.visit { node in
            switch node.kind {
            case .inState, .field, .local, .invalid: pure = false
            default: break
            }
        }
        return pure
    }

    /// Whether `a` and `b` are the same expression, wherever they are written.
    static func same(_ a: Expr, _ b: Expr) -> Bool {
        switch (a.kind, b.kind) {
        case (.literal(let x), .literal(let y)): return x == y
        case (.pi, .pi): return true
        case (.constant(let x), .constant(let y)): return x == y
        case (.variable(let x), .variable(let y)): return x == y
        case (.unary(let o, let x), .unary(let p, let y)): return o == p && same(x, y)
        case (.binary(let o, let x1, let x2), .binary(let p, let y1, let y2)): return o == p && same(x1, y1) && same(x2, y2)
        case (.conditional(let x1, let x2, let x3), .conditional(let y1, let y2, let y3)):
            return same(x1, y1) && same(x2, y2) && same(x3, y3)
        case (.call(let f, let xs), .call(let g, let ys)):
            return f == g && xs.count == ys.count && zip(xs, ys).allSatisfy { same($0, $1) }
        case (.text(let x), .text(let y)): return same(x, y)
        default: return false
        }
    }
}
