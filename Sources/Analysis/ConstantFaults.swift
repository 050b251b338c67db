import StatecraftDiagnostics
import StatecraftModel

/// Expressions that fail every time they run, whatever the variables and payload: `1 / 0`,
/// `sqrt(-1)`, `1e300 * 1e300`. The runtime would reject every step that reaches one, so
/// it is an error where it is written (the analysis explains the states it cuts off).
enum ConstantFaults {
    /// One finding per faulting expression (the innermost), in guards, delays and actions.
    static func diagnostics(_ machine: Machine) -> [Diagnostic] {
        let constants = machine.constantValues
        return sites(machine).map { expr in
            Diagnostic(.constantFault, "'\(machine.text(expr.range))' always fails at run time: \(reason(expr, constants))",
                       at: expr.range)
        }
    }

    /// The faulting expressions of the machine.
    static func sites(_ machine: Machine) -> [Expr] {
        let constants = machine.constantValues
        var found: [Expr] = []
        func scan(_ e: Expr) { innermostFaults(e, constants, into: &found) }
        func scan(_ actions: [Action]) {
            for action in actions {
                switch action {
                case .assign(_, _, let e, _), .setLocal(_, let e, _): scan(e)
                case .emit(_, let args, _), .raise(_, let args, _): args.forEach(scan)
                case .send(_, let args, let delay, _):
                    args.forEach(scan)
                    delay.map(scan)
                case .sendNamed(let name, let delay, _):
                    scan(name)
                    delay.map(scan)
                case .cancel: break
                case .ifAction(let c, let then, let otherwise, _):
                    scan(c)
                    // A branch that a constant condition rules out never runs.
                    let folded = c.folded(constants: constants)
                    if folded != .bool(false) { scan(then) }
                    if folded != .bool(true) { scan(otherwise) }
                }
            }
        }
        for t in machine.transitions {
            t.guardExpr.map(scan)
            if case .after(let d) = t.trigger { scan(d) }
            scan(t.actions)
        }
        for s in machine.states {
            scan(s.entry)
            scan(s.exit)
            scan(s.defaultEntryActions)
            for field in s.doneData { scan(field.value) }
        }
        return found
    }

    /// Adds the parts of `e` that are evaluated in every run of `e` and always fail.
    private static func innermostFaults(_ e: Expr, _ constants: [Value], into found: inout [Expr]) {
        let before = found.count
        switch e.kind {
        case .binary(let op, let l, let r) where op == .and || op == .or:
            innermostFaults(l, constants, into: &found)
            // The right side runs only when the left does not decide.
            let decided: Value = .bool(op == .or)
            if l.folded(constants: constants) != decided { innermostFaults(r, constants, into: &found) }
        case .conditional(let c, let t, let f):
            innermostFaults(c, constants, into: &found)
            let folded = c.folded(constants: constants)
            if folded != .bool(false) { innermostFaults(t, constants, into: &found) }
            if folded != .bool(true) { innermostFaults(f, constants, into: &found) }
        default:
            e.forEachChild { innermostFaults($0, constants, into: &found) }
        }
        if found.count == before && isFault(e, constants) { found.append(e) }
    }

    /// Whether `e` applies an operator or function to constant operands and fails.
    private static func isFault(_ e: Expr, _ constants: [Value]) -> Bool {
        switch e.kind {
        case .binary(let op, let l, let r) where op != .and && op != .or:
            guard let a = l.folded(constants: constants), let b = r.folded(constants: constants) else { return false }
            return Expr.apply(op, a, b) == nil
        case .call(let f, let args):
            let numbers = args.compactMap { $0.folded(constants: constants)?.number }
            return numbers.count == args.count && Arithmetic.call(f, numbers) == nil
        default:
            return false
        }
    }

    private static func reason(_ e: Expr, _ constants: [Value]) -> String {
        switch e.kind {
        case .binary(let op, _, let r) where (op == .divide || op == .remainder) && r.folded(constants: constants) == .number(0):
            return op == .divide ? "division by zero" : "remainder by zero"
        case .call(let f, let args):
            let values = args.compactMap { $0.folded(constants: constants)?.description }.joined(separator: ", ")
            return "'\(f.rawValue)' of \(values) is not a finite number"
        default:
            return "the result is not a finite number"
        }
    }
}
