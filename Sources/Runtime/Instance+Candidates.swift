import StatecraftDiagnostics
import StatecraftModel

extension Instance {
    /// Why `event` was not taken, as data: the transitions of the active states that it
    /// could have fired, innermost state first, each with its guard's verdict, every name
    /// its guard reads and, for a false guard, the sub-expressions that made it false with
    /// the values they read. Empty when no active state has a transition on `event`.
    /// `--explain` shows it as it is; `--strict`, traces and apps render it as a sentence
    /// with `WhyNotTaken` (in `StatecraftReplay`).
    ///
    /// Call it as the event arrived: right after a step that fired nothing or failed (a
    /// failed step is undone), with the event's payload still in the registers. Guards are
    /// evaluated by the reference evaluator, the plain meaning the compiled code is held to.
    public func candidates(for event: EventID) -> [TransitionCandidate] {
        let machine = program.machine
        var evaluator = ReferenceEvaluator(machine: machine)
        evaluator.variables = variables
        for field in machine[event].fields {
            if let value = payloadValue(event, field: field.name) { evaluator.payload[field.name] = value }
        }
        evaluator.isActive = { [self] s in isActive(s) }
        var result: [TransitionCandidate] = []
        for source in activeStates.reversed() {  // innermost first, as selection tries them
            for k in program.group(source.index, event.index) {
                let transition = machine[program.transitions[k].id]
                let head = Self.head(of: transition, in: machine)
                result.append(TransitionCandidate(
                    transition: transition.id, source: machine[source].name, state: source, range: head.range,
                    text: head.text, verdict: Self.verdict(of: transition.guardExpr, evaluator, machine),
                    guardReads: transition.guardExpr.map { Self.reads(of: $0, evaluator, machine) } ?? []))
            }
        }
        return result
    }

    /// Why a property's expression `e` has `value` in this stable configuration, in the
    /// words of a false guard (`--explain` of a broken `never` or `always`): the
    /// sub-expressions that decide it, each with every variable, constant and `in(state)`
    /// it read. A property reads no payload, so none is loaded.
    package func culprits(ofProperty e: Expr, whichIs value: Bool) -> [Culprit] {
        let machine = program.machine
        let evaluator = propertyEvaluator()
        return Self.culprits(of: e, whichIs: value, evaluator).map { d in
            Culprit(range: d.expr.range, text: machine.text(d.expr.range), value: d.value,
                    reads: Self.reads(of: d.expr, evaluator, machine))
        }
    }

    /// Every name a property's expression `e` reads, with its value in this stable
    /// configuration (for one that failed to evaluate, whose culprits cannot be worked out).
    package func reads(ofProperty e: Expr) -> [Culprit.Read] {
        Self.reads(of: e, propertyEvaluator(), program.machine)
    }

    private func propertyEvaluator() -> ReferenceEvaluator {
        var evaluator = ReferenceEvaluator(machine: program.machine)
        evaluator.variables = variables
        evaluator.isActive = { [self] s in isActive(s) }
        return evaluator
    }

    /// The value of payload field `name` of `event`, as loaded in the registers.
    func payloadValue(_ event: EventID, field name: String) -> Value? {
        guard let index = program.machine[event].fieldIndex(name) else { return nil }
        let slot = Int(program.payloadStart[event.index]) + index
        let register = program.payloadRegisters[slot]
        let type = program.machine[event].fields[index].type
        return Program.value(type, number: type == .string ? 0 : registers.numbers[Int(register.index)],
                             string: type == .string ? registers.strings[Int(register.index)] : "")
    }

    private static func verdict(of guardExpr: Expr?, _ evaluator: ReferenceEvaluator,
                                _ machine: Machine) -> TransitionCandidate.Verdict {
        guard let guardExpr else { return .unguarded }
        do {
            guard try evaluator.evaluate(guardExpr) == .bool(false) else { return .holds }
        } catch {
            return .fault(error)
        }
        return .isFalse(culprits(of: guardExpr, whichIs: false, evaluator).map { e in
            Culprit(range: e.expr.range, text: machine.text(e.expr.range), value: e.value,
                    reads: reads(of: e.expr, evaluator, machine))
        })
    }

    /// The sub-expressions of `e`, which evaluates to `value`, that decide it. `&&` and `||`
    /// are each other's mirror under `!`: a false `&&` (a true `||`) is decided by its first
    /// false (true) operand, a false `||` (a true `&&`) by both.
    private static func culprits(of e: Expr, whichIs value: Bool,
                                 _ evaluator: ReferenceEvaluator) -> [(expr: Expr, value: Bool)] {
        switch e.kind {
        case .unary(.not, let operand):
            return culprits(of: operand, whichIs: !value, evaluator)
        case .binary(let op, let l, let r) where op == .and || op == .or:
            // A false `&&` or a true `||`: the left operand decides when it has that value;
            // otherwise the right one does (short-circuit order, as the runtime evaluates).
            if (op == .and) != value {
                let left = try? evaluator.evaluate(l)
                return culprits(of: left == .bool(value) ? l : r, whichIs: value, evaluator)
            }
            return culprits(of: l, whichIs: value, evaluator) + culprits(of: r, whichIs: value, evaluator)
        default:
            return [(e, value)]
        }
    }

    /// The variables, payload fields, constants and states `e` reads, in source order, each once.
    static func reads(of e: Expr, _ evaluator: ReferenceEvaluator, _ machine: Machine) -> [Culprit.Read] {
        var reads: [Culprit.Read] = []
        e.visit { node in
            let kind: Culprit.Read.Kind
            let name: String
            switch node.kind {
            case .variable(let id): (kind, name) = (.variable, machine[id].name)
            case .field(let field): (kind, name) = (.field, field)
            case .constant(let id): (kind, name) = (.constant, machine[id].name)
            case .inState(let s): (kind, name) = (.state, machine[s].name)
            default: return
            }
            guard !reads.contains(where: { $0.kind == kind && $0.name == name }),
                  let value = try? evaluator.evaluate(node) else { return }
            reads.append(Culprit.Read(kind: kind, name: name, value: value))
        }
        return reads
    }

    /// A transition's head as written, on one line: from its `on` up to its action block, a
    /// comment or the end of the line (`on touchEnded, touchCancelled if y < 100 -> closed`).
    static func head(of t: Transition, in machine: Machine) -> (text: String, range: SourceRange) {
        let bytes = machine.source.bytes
        let start = t.range.start
        // The guard may hold strings with any character: stop signs are looked for after it.
        var i = max(start, t.guardExpr?.range.end ?? t.keywordRange.end)
        let limit = min(t.range.end, bytes.count)
        while i < limit {
            let b = bytes[i]
            if b == UInt8(ascii: "{") || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") { break }
            if b == UInt8(ascii: "/") && i + 1 < limit && (bytes[i + 1] == UInt8(ascii: "/") || bytes[i + 1] == UInt8(ascii: "*")) {
                break
            }
            i += 1
        }
        var end = max(start, i)
        while end > start && (bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t")) { end -= 1 }
        let range = SourceRange(start, end)
        return (machine.text(range), range)
    }
}
