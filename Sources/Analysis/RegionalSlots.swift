import StatecraftModel

/// Payload fields that are decided by regions **across steps**: a field copied, as it is,
/// into variables and into the payloads of sent or raised events, where every copy is only
/// ever compared with constants (or copied on again, or emitted), in the machine and in its
/// properties. The debounce pattern is
/// the common case: `on typed { send validate(length) after 300ms }` and
/// `on validate { valid = length >= 3 }`.
///
/// The field's value and its copies then only meet constants: two values in the same region
/// of those constants (equal to the same constant, or strictly between the same two) take
/// every comparison the same way, now and in every later step. So trying one value per
/// region of the field stands for every value, as it does for a field a guard compares with
/// constants (`PayloadCandidates`), and the search can still prove what it did not reach
/// unreachable. A copy's uses are checked everywhere in the machine, since it outlives the
/// step: in guards, `if` conditions, assignments, delays, arguments.
///
/// Slots (variables and event fields) that copy into each other form one class; the class
/// is regional when every read of every slot in it is a comparison with a constant, a
/// verbatim copy into a slot (`v = slot`, `send e(slot)`, `raise e(slot)`), or an `emit`
/// argument that cannot fail, and every write to a variable in it is a verbatim copy of a
/// slot of the class or a constant.
struct RegionalSlots {
    /// Per event index, per field: the constants the field's class is compared with, or nil
    /// when the field is not regional (or nothing copies it: then the per-state analysis
    /// decides alone).
    let constants: [[Set<Value>?]]

    private enum Slot: Hashable {
        case variable(Int)
        case field(event: Int, index: Int)
    }

    init(_ machine: Machine) {
        let folded = machine.constantValues
        var parent: [Slot: Slot] = [:]
        func find(_ s: Slot) -> Slot {
            var s = s
            while let p = parent[s], p != s { s = p }
            return s
        }
        func union(_ a: Slot, _ b: Slot) { let (ra, rb) = (find(a), find(b)); if ra != rb { parent[ra] = rb } }
        var broken: Set<Slot> = []  // slots used some way that is not regional (classes resolved at the end)
        var compared: [Slot: Set<Value>] = [:]
        var copied: Set<Slot> = []  // slots that take part in some copy
        let fieldIndex = machine.events.map { e in
            Dictionary(e.fields.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        }

        // The slot an expression is, when it is exactly a variable or a field of the trigger.
        func slots(_ e: Expr, _ events: [Int]) -> [Slot]? {
            switch e.kind {
            case .variable(let v): return [.variable(v.index)]
            case .field(let name): return events.compactMap { ev in fieldIndex[ev][name].map { Slot.field(event: ev, index: $0) } }
            default: return nil
            }
        }
        // Marks every slot `e` reads as used some other way, except where it is compared
        // with a constant (recorded) or, at the top, copied.
        func read(_ e: Expr, _ events: [Int]) {
            if case .binary(let op, let l, let r) = e.kind, op.isComparison {
                for (side, other) in [(l, r), (r, l)] {
                    if let s = slots(side, events), let c = other.folded(constants: folded) {
                        for slot in s { compared[slot, default: []].insert(c) }
                        return
                    }
                }
            }
            if let s = slots(e, events) {
                broken.formUnion(s)
                return
            }
            e.forEachChild { read($0, events) }
        }
        func copy(_ e: Expr, into target: Slot, _ events: [Int]) {
            if let s = slots(e, events) {
                for slot in s {
                    union(slot, target)
                    copied.insert(slot)
                }
                copied.insert(target)
            } else if e.folded(constants: folded) != nil {
                // A constant written into the slot: any value is fine.
            } else {
                broken.insert(target)
                read(e, events)
            }
        }
        // An emit argument that cannot fail decides nothing, but a slot inside an
        // interpolation or a conditional still must not be compared with other slots there:
        // only comparisons matter, and those are read as usual.
        func readInsideEmit(_ e: Expr, _ events: [Int]) {
            e.visit { sub in
                if case .binary(let op, _, _) = sub.kind, op.isComparison { read(sub, events) }
                if case .conditional(let c, _, _) = sub.kind { read(c, events) }
            }
        }
        func visit(_ action: Action, _ events: [Int]) {
            switch action {
            case .assign(let v, let op, let e, _):
                if op != nil {
                    broken.insert(.variable(v.index))
                    read(e, events)
                } else {
                    copy(e, into: .variable(v.index), events)
                }
            case .emit(_, let args, _):
                for a in args where slots(a, events) == nil {
                    if a.canFail { read(a, events) } else { readInsideEmit(a, events) }
                }
            case .raise(let ev, let args, _), .send(let ev, let args, _, _):
                for (k, a) in args.enumerated() { copy(a, into: .field(event: ev.index, index: k), events) }
                if case .send(_, _, let delay?, _) = action { read(delay, events) }
            case .sendNamed(let name, let delay, _):
                // The name decides which event is sent, or whether the step fails.
                read(name, events)
                delay.map { read($0, events) }
            case .setLocal(_, let e, _):
                read(e, events)
            case .cancel:
                break
            case .ifAction(let c, let then, let otherwise, _):
                read(c, events)
                for a in then + otherwise { visit(a, events) }
            }
        }
        for t in machine.transitions {
            let events: [Int]
            if case .events(let list) = t.trigger { events = list.map(\.index) } else { events = [] }
            t.guardExpr.map { read($0, events) }
            if case .after(let d) = t.trigger { read(d, []) }
            for a in t.actions { visit(a, events) }
        }
        for s in machine.states { for a in s.allActions { visit(a, []) } }
        // A property is decided by the values it compares too: `never trail == "b"` needs a
        // value of `trail`'s class equal to "b", as a guard would.
        for p in machine.properties { for e in p.form.expressions { read(e, []) } }
        // A final state's values become completion fields, which `done` transitions read in
        // any way: what a value reads is used, not only compared or copied.
        for s in machine.states { for field in s.doneData { read(field.value, []) } }

        var classBroken: Set<Slot> = []
        var classConstants: [Slot: Set<Value>] = [:]
        for s in broken { classBroken.insert(find(s)) }
        for (s, cs) in compared { classConstants[find(s), default: []].formUnion(cs) }
        constants = machine.events.map { event in
            event.fields.indices.map { i -> Set<Value>? in
                let slot = Slot.field(event: event.id.index, index: i)
                guard copied.contains(slot), event.fields[i].type != .bool else { return nil }
                let root = find(slot)
                return classBroken.contains(root) ? nil : classConstants[root] ?? []
            }
        }
    }
}
