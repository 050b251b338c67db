import StatecraftModel

/// Which variables can change what a machine does: the search tells configurations apart
/// by these only, so configurations that differ in a variable nothing ever decides with (a
/// keystroke counter the app reads, a copy of the last payload that is only emitted) are one
/// configuration, explored once.
///
/// A variable is **relevant** when its value can reach a decision: a guard, an `if`, the
/// delay of an `after` or a `send`, a property's expression, the arguments of a `send` or
/// `raise` (the payload of an event is what its guards read), a `let` (conservatively, wherever the local goes), the
/// value of a relevant variable (`a = b + 1` with `a` relevant makes `b` relevant), or an
/// expression that can fail at run time (arithmetic or a function on numbers can give a
/// result that is not finite: a failing step is undone, so whether it fails decides what
/// happens). Everything else a variable's value can reach is an `emit` argument that cannot
/// fail, or another irrelevant variable.
///
/// Why merging on the rest is sound: from two configurations that differ only in irrelevant
/// variables, the same events and waits take the same transitions, enter the same states,
/// fail at the same steps and leave configurations that again differ only in irrelevant
/// variables, since no decision and no failure ever reads them. So exploring one of them
/// finds every state and transition the other could reach, at the same depth, and a search
/// that runs out of configurations has still seen everything. Witnesses stay real runs:
/// every node is a concrete configuration reached by its path.
///
/// One kind of update is safe though it is arithmetic: a **counter**, a number variable only
/// ever set to constants or stepped by a constant (`n += 1`, `n = n - 2`) of magnitude at
/// most 1e290, from constants of magnitude at most 1e300. Stepping by `c` stops changing the
/// value once it is about 2^55 times `c` (the step rounds away), so the counter stays far below
/// the largest finite number and its update never fails: it reads no other variable and
/// decides nothing by itself.
///
/// The payload fields of events are weighed the same way, for the events the machine sends
/// itself: a pending `send` is part of a configuration, and a field of it that decides
/// nothing when the event is taken (only emitted, or copied into irrelevant variables) is
/// left out of the key too, so pending sends that differ only there are one. A `send`
/// argument then matters only as much as the field it becomes.
struct VariableRelevance: Sendable {
    /// By `VariableID` index: whether the search must tell two values of it apart.
    let relevant: [Bool]
    /// By field, all events' fields in a row (event order, then field order, as the
    /// program lays out payloads): whether a pending sent event's value of it matters.
    let relevantFields: [Bool]

    /// Whether some variable or field is irrelevant (the search then leaves it out of its keys).
    var mergesAnything: Bool { relevant.contains(false) || relevantFields.contains(false) }

    init(_ machine: Machine) {
        let count = machine.variables.count
        let constants = machine.constantValues
        // Nodes: the variables, then every event's fields in a row.
        var fieldStart: [Int] = []
        var nodes = count
        for e in machine.events {
            fieldStart.append(nodes)
            nodes += e.fields.count
        }
        let fieldIndex = machine.events.map { e in
            Dictionary(e.fields.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        }
        // The variables and fields `e` reads, in a transition triggered by `events`.
        func reads(_ e: Expr, _ events: [Int]) -> Set<Int> {
            var read: Set<Int> = []
            e.visit { sub in
                switch sub.kind {
                case .variable(let v): read.insert(v.index)
                case .field(let name):
                    for ev in events { if let k = fieldIndex[ev][name] { read.insert(fieldStart[ev] + k) } }
                default: break
                }
            }
            return read
        }
        var direct = Array(repeating: false, count: nodes)
        // dependsOn[n]: the nodes whose values flow into n through copies that cannot fail.
        var dependsOn = Array(repeating: Set<Int>(), count: nodes)
        var actions: [([Action], [Int])] = []
        for s in machine.states { actions.append((s.allActions, [])) }
        for t in machine.transitions {
            var events: [Int] = []
            if case .events(let list) = t.trigger { events = list.map(\.index) }
            actions.append((t.actions, events))
            t.guardExpr.map { reads($0, events).forEach { direct[$0] = true } }
            if case .after(let delay) = t.trigger { reads(delay, []).forEach { direct[$0] = true } }
        }
        // A property decides its verdict on what it reads, in every stable configuration.
        for p in machine.properties { for e in p.form.expressions { reads(e, []).forEach { direct[$0] = true } } }
        // A final state's values become its parent's completion fields, which `done` guards and
        // actions read: what they read is relevant (conservatively, as a `raise` argument
        // that can fail is).
        for s in machine.states { for field in s.doneData { reads(field.value, []).forEach { direct[$0] = true } } }
        let counters = VariableRelevance.counters(machine, actions.flatMap { $0.0 }, constants: constants)
        func visit(_ action: Action, _ events: [Int]) {
            func decides(_ e: Expr) { reads(e, events).forEach { direct[$0] = true } }
            switch action {
            case .assign(let v, let op, let e, _):
                if counters[v.index] { return }  // reads only itself, never fails
                var read = reads(e, events)
                if op != nil { read.insert(v.index) }
                let fails = e.canFail || (op.map { $0 != .add || e.type != .string } ?? false)
                if fails {
                    read.forEach { direct[$0] = true }
                } else {
                    dependsOn[v.index].formUnion(read)
                }
            case .emit(_, let args, _):
                for a in args where a.canFail { decides(a) }
            case .setLocal(_, let e, _):
                decides(e)
            case .raise(let target, let args, _), .send(let target, let args, _, _):
                // An argument becomes the sent event's field: it matters as much as that field.
                for (k, a) in args.enumerated() {
                    if a.canFail || k >= machine[target].fields.count {
                        decides(a)
                    } else {
                        dependsOn[fieldStart[target.index] + k].formUnion(reads(a, events))
                    }
                }
                if case .send(_, _, let delay?, _) = action { decides(delay) }
            case .sendNamed(let name, let delay, _):
                // The name decides which event is sent, or whether the step fails.
                decides(name)
                delay.map(decides)
            case .cancel:
                break
            case .ifAction(let c, let then, let otherwise, _):
                decides(c)
                for a in then + otherwise { visit(a, events) }
            }
        }
        for (list, events) in actions { for a in list { visit(a, events) } }
        // What flows into something relevant is relevant.
        var relevant = direct
        var work = relevant.indices.filter { relevant[$0] }
        while let n = work.popLast() {
            for m in dependsOn[n] where !relevant[m] {
                relevant[m] = true
                work.append(m)
            }
        }
        self.relevant = Array(relevant[0..<count])
        relevantFields = Array(relevant[count...])
    }

    /// By variable index: whether it is a counter (see the type's comment).
    static func counters(_ machine: Machine, _ actions: [Action], constants: [Value]) -> [Bool] {
        func small(_ e: Expr, _ limit: Double) -> Bool {
            guard case .number(let n)? = e.folded(constants: constants) else { return false }
            return abs(n) <= limit
        }
        var counter = machine.variables.map { v -> Bool in
            guard v.type == .number, case .number(let n) = v.initialValue else { return false }
            return abs(n) <= 1e300
        }
        for action in actions {
            action.visit { a in
                guard case .assign(let v, let op, let e, _) = a, counter[v.index] else { return }
                switch op {
                case nil:
                    if small(e, 1e300) { return }
                    if case .binary(let b, let l, let r) = e.kind {
                        let isSelf = { (x: Expr) -> Bool in if case .variable(v) = x.kind { return true } else { return false } }
                        if (b == .add || b == .subtract) && isSelf(l) && small(r, 1e290) { return }
                        if b == .add && isSelf(r) && small(l, 1e290) { return }
                    }
                    counter[v.index] = false
                case .add?, .subtract?:
                    if !small(e, 1e290) { counter[v.index] = false }
                default:
                    counter[v.index] = false
                }
            }
        }
        return counter
    }
}
