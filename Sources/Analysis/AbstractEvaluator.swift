#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import StatecraftModel

/// Evaluates expressions and runs actions over `AbstractValue`s: every concrete run is
/// covered by the abstract result, so "the guard cannot be true" here is a proof.
struct AbstractEvaluator {
    let machine: Machine
    let constants: [Value]
    /// Payload fields in scope, by name (every value of their type).
    var fields: [String: AbstractValue] = [:]
    var locals: [AbstractValue] = []
    /// What `in(s)` is known to be where the expression is evaluated (nil: not known, so
    /// either). Unset, `in(s)` is always either.
    var inState: ((StateID) -> Bool?)?

    /// The names a send by name looks events up by.
    let logNames: LogNameTable

    init(machine: Machine) {
        self.machine = machine
        self.constants = machine.constantValues
        logNames = LogNameTable(machine)
    }

    /// Whether a send by name of `name` gets through: it names an event without fields.
    func sendsByName(_ name: String) -> Bool {
        logNames.event(name).map { machine[$0].fields.isEmpty } ?? false
    }

    /// The payload of a transition's events: each field may be any value of its type.
    mutating func setPayload(of trigger: Trigger) {
        fields = [:]
        // A completion's fields (a final state's values) are taken as any value of their type.
        if case .done(let x) = trigger {
            for f in machine.completionFields(x) { fields[f.name] = .any(f.type) }
        }
        guard case .events(let events) = trigger else { return }
        for e in events {
            for f in machine[e].fields { fields[f.name] = .any(f.type) }
        }
    }

    func evaluate(_ e: Expr, _ vars: [AbstractValue]) -> AbstractValue {
        if let v = e.folded(constants: constants) { return AbstractValue(v) }
        switch e.kind {
        case .literal(let v): return AbstractValue(v)
        case .pi: return AbstractValue(.number(Double.pi))
        case .constant(let id): return AbstractValue(constants[id.index])
        case .variable(let id): return vars[id.index]
        case .field(let name): return fields[name] ?? .any(e.type)
        case .local(let slot): return slot < locals.count ? locals[slot] : .any(e.type)
        case .inState(let s):
            guard let known = inState?(s) else { return .anyBool }
            return AbstractValue(.bool(known))
        case .invalid: return .any(e.type)
        case .unary(.not, let x):
            let v = evaluate(x, vars)
            return .bool(canBeFalse: v.canBeTrue, canBeTrue: v.canBeFalse)
        case .unary(.negate, let x):
            let v = evaluate(x, vars)
            if v.isEmpty { return v }
            guard case .number(let lo, let hi) = v else { return .anyNumber }
            return .number(lo: -hi, hi: -lo)
        case .binary(let op, let l, let r):
            let a = evaluate(l, vars)
            if a.isEmpty { return .empty(e.type) }
            let b = evaluate(r, vars)
            if b.isEmpty {
                // `&&` and `||` do not evaluate their right side when the left decides.
                switch op {
                case .and where a.canBeFalse: return .bool(canBeFalse: true, canBeTrue: false)
                case .or where a.canBeTrue: return .bool(canBeFalse: false, canBeTrue: true)
                default: return .empty(e.type)
                }
            }
            return binary(op, a, b)
        case .conditional(let c, let t, let f):
            let condition = evaluate(c, vars)
            switch (condition.canBeTrue, condition.canBeFalse) {
            case (true, false): return evaluate(t, vars)
            case (false, true): return evaluate(f, vars)
            case (false, false): return evaluate(t, vars)
            case (true, true): return evaluate(t, vars).joined(with: evaluate(f, vars))
            }
        case .text(let x):
            // The text of one known value is known; of a range of values, any string.
            let v = evaluate(x, vars)
            if v.isEmpty { return .empty(.string) }
            switch v {
            case .number(let lo, let hi) where lo == hi: return .string([Value.number(lo).text])
            case .bool(let f, let t) where f != t: return .string([t ? "true" : "false"])
            case .bool: return .string(["true", "false"])
            case .string: return v
            default: return .string(nil)
            }
        case .call(let f, let args):
            let values = args.map { evaluate($0, vars) }
            if values.contains(where: \.isEmpty) { return .empty(e.type) }
            return call(f, values)
        }
    }

    /// The innermost part of `e` that fails in every run that evaluates it, when `e` itself
    /// always fails (its abstract value is empty); nil when `e` can succeed.
    func failingPart(_ e: Expr, _ vars: [AbstractValue]) -> Expr? {
        guard evaluate(e, vars).isEmpty else { return nil }
        var children: [Expr] = []
        if case .conditional(let c, let t, let f) = e.kind {
            // Only the branches that can be taken are evaluated.
            let condition = evaluate(c, vars)
            children = [c] + (condition.canBeTrue ? [t] : []) + (condition.canBeFalse ? [f] : [])
        } else {
            e.forEachChild { children.append($0) }
        }
        for child in children {
            if let part = failingPart(child, vars) { return part }
        }
        return e
    }

    private func interval(_ v: AbstractValue) -> (Double, Double) {
        if case .number(let lo, let hi) = v { return (lo, hi) }
        return (-.infinity, .infinity)
    }

    private func binary(_ op: BinaryOp, _ a: AbstractValue, _ b: AbstractValue) -> AbstractValue {
        switch op {
        case .and:
            return .bool(canBeFalse: a.canBeFalse || b.canBeFalse, canBeTrue: a.canBeTrue && b.canBeTrue)
        case .or:
            return .bool(canBeFalse: a.canBeFalse && b.canBeFalse, canBeTrue: a.canBeTrue || b.canBeTrue)
        case .equal, .notEqual:
            let (canEqual, mustEqual) = equality(a, b)
            return op == .equal ? .bool(canBeFalse: !mustEqual, canBeTrue: canEqual)
                : .bool(canBeFalse: canEqual, canBeTrue: !mustEqual)
        case .less, .lessEqual, .greater, .greaterEqual:
            let (alo, ahi) = interval(a)
            let (blo, bhi) = interval(b)
            switch op {
            case .less: return .bool(canBeFalse: ahi >= blo, canBeTrue: alo < bhi)
            case .lessEqual: return .bool(canBeFalse: ahi > blo, canBeTrue: alo <= bhi)
            case .greater: return .bool(canBeFalse: alo <= bhi, canBeTrue: ahi > blo)
            default: return .bool(canBeFalse: alo < bhi, canBeTrue: ahi >= blo)
            }
        case .add where { if case .string = a { return true } else { return false } }():
            guard case .string(let x?) = a, case .string(let y?) = b, x.count * y.count <= AbstractValue.maxStrings else {
                return .string(nil)
            }
            return .string(Set(x.flatMap { s in y.map { s + $0 } }))
        case .add, .subtract, .multiply, .divide, .remainder:
            return arithmetic(op, interval(a), interval(b))
        }
    }

    /// (can the two be equal, must they be equal)
    private func equality(_ a: AbstractValue, _ b: AbstractValue) -> (Bool, Bool) {
        switch (a, b) {
        case (.number(let alo, let ahi), .number(let blo, let bhi)):
            return (alo <= bhi && blo <= ahi, alo == ahi && blo == bhi && alo == blo)
        case (.bool(let af, let at), .bool(let bf, let bt)):
            return ((af && bf) || (at && bt), (af != at) && (bf != bt) && af == bf)
        case (.string(let x?), .string(let y?)):
            return (!x.isDisjoint(with: y), x.count == 1 && x == y)
        default:
            return (true, false)
        }
    }

    /// An interval as the runtime sees it: every value a run computes is finite (a step
    /// whose result is not fails), so bounds beyond the finite numbers only say "unbounded",
    /// and an interval with no finite number in it means every run fails there. No bound is
    /// ever NaN: where one would be, nothing is known.
    private func finite(_ lo: Double, _ hi: Double) -> AbstractValue {
        if lo.isNaN || hi.isNaN { return .anyNumber }
        if lo == .infinity || hi == -.infinity || lo > hi { return .empty(.number) }
        return .number(lo: lo, hi: hi)
    }

    private func arithmetic(_ op: BinaryOp, _ a: (Double, Double), _ b: (Double, Double)) -> AbstractValue {
        guard case .number(let lo, let hi) = rawArithmetic(op, a, b) else { return .anyNumber }
        return finite(lo, hi)
    }

    private func rawArithmetic(_ op: BinaryOp, _ a: (Double, Double), _ b: (Double, Double)) -> AbstractValue {
        let (alo, ahi) = a
        let (blo, bhi) = b
        switch op {
        case .add: return .number(lo: alo + blo, hi: ahi + bhi)
        case .subtract: return .number(lo: alo - bhi, hi: ahi - blo)
        case .multiply:
            let products = [alo * blo, alo * bhi, ahi * blo, ahi * bhi].filter { !$0.isNaN }
            guard products.count == 4 else { return .anyNumber }
            return .number(lo: products.min() ?? -.infinity, hi: products.max() ?? .infinity)
        case .divide:
            // A run that divides by zero fails, so only non-zero divisors matter; an interval
            // that straddles zero can give any quotient.
            if blo == 0 && bhi == 0 { return .empty(.number) }
            guard blo > 0 || bhi < 0 else { return .anyNumber }
            let quotients = [alo / blo, alo / bhi, ahi / blo, ahi / bhi].filter { !$0.isNaN }
            guard quotients.count == 4 else { return .anyNumber }
            return .number(lo: quotients.min() ?? -.infinity, hi: quotients.max() ?? .infinity)
        default:
            if blo == 0 && bhi == 0 { return .empty(.number) }
            // x % y has the sign of x and a magnitude below |y|.
            let bound = Swift.max(Swift.abs(blo), Swift.abs(bhi))
            return .number(lo: alo >= 0 ? 0 : -bound, hi: ahi <= 0 ? 0 : bound)
        }
    }

    private func call(_ f: BuiltinFunction, _ args: [AbstractValue]) -> AbstractValue {
        guard case .number(let lo, let hi) = rawCall(f, args) else { return .anyNumber }
        return finite(lo, hi)
    }

    private func rawCall(_ f: BuiltinFunction, _ args: [AbstractValue]) -> AbstractValue {
        let intervals = args.map(interval)
        guard let (lo, hi) = intervals.first else { return .anyNumber }
        switch f {
        case .min:
            return .number(lo: intervals.map(\.0).min() ?? lo, hi: intervals.map(\.1).min() ?? hi)
        case .max:
            return .number(lo: intervals.map(\.0).max() ?? lo, hi: intervals.map(\.1).max() ?? hi)
        case .abs:
            if lo >= 0 { return .number(lo: lo, hi: hi) }
            if hi <= 0 { return .number(lo: -hi, hi: -lo) }
            return .number(lo: 0, hi: Swift.max(-lo, hi))
        case .sqrt:
            return hi < 0 ? .number(lo: 1, hi: 0) : .number(lo: Swift.max(lo, 0).squareRoot(), hi: hi.squareRoot())
        case .floor: return .number(lo: lo.rounded(.down), hi: hi.rounded(.down))
        case .ceil: return .number(lo: lo.rounded(.up), hi: hi.rounded(.up))
        case .round: return .number(lo: lo.rounded(.toNearestOrAwayFromZero), hi: hi.rounded(.toNearestOrAwayFromZero))
        case .atan2: return .number(lo: -Double.pi, hi: Double.pi)
        }
    }

    /// Narrows `vars` and the payload fields to what a guard `g` that held allows: each
    /// conjunct comparing a variable or field with a constant number bounds it (closed at
    /// the constant: intervals have no open ends, and a wider interval is still sound).
    /// Anything else in the guard narrows nothing.
    mutating func narrow(by g: Expr, _ vars: inout [AbstractValue]) {
        if case .binary(.and, let l, let r) = g.kind {
            narrow(by: l, &vars)
            narrow(by: r, &vars)
            return
        }
        guard case .binary(let op, let l, let r) = g.kind, [.less, .lessEqual, .greater, .greaterEqual, .equal].contains(op)
        else { return }
        func bound(_ side: Expr, _ other: Expr, _ op: BinaryOp) {
            guard case .number(let c)? = other.folded(constants: constants), c.isFinite else { return }
            let (lo, hi): (Double, Double) = switch op {
            case .less, .lessEqual: (-.infinity, c)
            case .greater, .greaterEqual: (c, .infinity)
            default: (c, c)
            }
            func met(_ v: AbstractValue) -> AbstractValue {
                guard case .number(let a, let b) = v else { return v }
                return .number(lo: Swift.max(a, lo), hi: Swift.min(b, hi))
            }
            switch side.kind {
            case .variable(let v): vars[v.index] = met(vars[v.index])
            case .field(let name): if let f = fields[name] { fields[name] = met(f) }
            default: break
            }
        }
        // `x < c` bounds x above; `c < x` bounds x below.
        let mirrored: BinaryOp = switch op {
        case .less: .greater
        case .lessEqual: .greaterEqual
        case .greater: .less
        case .greaterEqual: .lessEqual
        default: op
        }
        bound(l, r, op)
        bound(r, l, mirrored)
    }

    /// Runs actions abstractly: assignments update `vars`; an `if` whose condition can go
    /// either way runs both branches and joins the results. Returns the expression at which
    /// every run of the actions fails (then `vars` is meaningless), or nil when some run
    /// can get through.
    @discardableResult
    mutating func run(_ actions: [Action], _ vars: inout [AbstractValue]) -> Expr? {
        for action in actions {
            switch action {
            case .assign(let v, let op, let e, _):
                let value = evaluate(e, vars)
                if value.isEmpty { return failingPart(e, vars) ?? e }
                let result = op.map { binary($0, vars[v.index], value) } ?? value
                if result.isEmpty { return e }
                vars[v.index] = result
            case .emit(_, let args, _), .raise(_, let args, _):
                for a in args where evaluate(a, vars).isEmpty { return failingPart(a, vars) ?? a }
            case .send(_, let args, let delay, _):
                for a in args + (delay.map { [$0] } ?? []) where evaluate(a, vars).isEmpty { return failingPart(a, vars) ?? a }
            case .sendNamed(let name, let delay, let range):
                let value = evaluate(name, vars)
                if value.isEmpty { return failingPart(name, vars) ?? name }
                if let delay, evaluate(delay, vars).isEmpty { return failingPart(delay, vars) ?? delay }
                // Every string it can be is known, and none names an event it can send.
                // (Reported at the whole `send`, which is what fails.)
                if case .string(let names?) = value, !names.contains(where: sendsByName) {
                    return Expr(name.kind, type: name.type, range: range)
                }
            case .cancel:
                break
            case .setLocal(let slot, let e, _):
                if slot >= locals.count {
                    locals.append(contentsOf: Array(repeating: AbstractValue.anyNumber, count: slot + 1 - locals.count))
                }
                let value = evaluate(e, vars)
                if value.isEmpty { return failingPart(e, vars) ?? e }
                locals[slot] = value
            case .ifAction(let c, let then, let otherwise, _):
                let condition = evaluate(c, vars)
                if condition.isEmpty { return failingPart(c, vars) ?? c }
                var thenVars = vars
                var elseVars = vars
                let thenFails = condition.canBeTrue ? run(then, &thenVars) : nil
                let elseFails = condition.canBeFalse ? run(otherwise, &elseVars) : nil
                switch (condition.canBeTrue, condition.canBeFalse, thenFails, elseFails) {
                case (true, false, let failure?, _), (false, true, _, let failure?), (true, true, let failure?, _?):
                    return failure
                case (true, false, _, _), (true, true, nil, _?): vars = thenVars
                case (false, true, _, _), (true, true, _?, nil): vars = elseVars
                default: vars = zip(thenVars, elseVars).map { $0.joined(with: $1) }
                }
            }
        }
        return nil
    }
}
