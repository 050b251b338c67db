#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Arithmetic shared by constant folding and evaluation, so both agree on every result.
package enum Arithmetic {
    /// Applies a built-in function to number arguments; nil when the result is not a
    /// finite number (a domain error such as `sqrt(-1)`).
    package static func call(_ f: BuiltinFunction, _ args: [Double]) -> Double? {
        guard args.count >= f.arity else { return nil }
        let result: Double
        switch f {
        case .min: result = args.dropFirst().reduce(args[0]) { Swift.min($0, $1) }
        case .max: result = args.dropFirst().reduce(args[0]) { Swift.max($0, $1) }
        case .abs: result = Swift.abs(args[0])
        case .atan2: result = atan2(args[0], args[1])
        case .sqrt: result = args[0].squareRoot()
        case .floor: result = args[0].rounded(.down)
        case .ceil: result = args[0].rounded(.up)
        case .round: result = args[0].rounded(.toNearestOrAwayFromZero)
        }
        return result.isFinite ? result : nil
    }

    /// Applies an arithmetic operator; nil for division by zero or a non-finite result.
    package static func arithmetic(_ op: BinaryOp, _ a: Double, _ b: Double) -> Double? {
        let result: Double
        switch op {
        case .add: result = a + b
        case .subtract: result = a - b
        case .multiply: result = a * b
        case .divide:
            guard b != 0 else { return nil }
            result = a / b
        case .remainder:
            guard b != 0 else { return nil }
            result = a.truncatingRemainder(dividingBy: b)
        default: return nil
        }
        return result.isFinite ? result : nil
    }

    /// Compares two numbers with `op`.
    package static func compare(_ op: BinaryOp, _ a: Double, _ b: Double) -> Bool {
        switch op {
        case .less: a < b
        case .lessEqual: a <= b
        case .greater: a > b
        case .greaterEqual: a >= b
        case .equal: a == b
        default: a != b
        }
    }
}

extension Expr {
    /// The expression's value if it is the same in every run (it depends only on literals,
    /// constants and `pi`, or short-circuits around what does not), else nil. Expressions
    /// that fail (division by zero) are not folded.
    package func folded(constants: [Value]) -> Value? {
        switch kind {
        case .literal(let v): return v
        case .pi: return .number(Double.pi)
        case .constant(let id): return id.index < constants.count ? constants[id.index] : nil
        case .variable, .field, .local, .inState, .invalid: return nil
        case .unary(let op, let e):
            switch (op, e.folded(constants: constants)) {
            case (.not, .bool(let b)?): return .bool(!b)
            case (.negate, .number(let n)?): return .number(-n)
            default: return nil
            }
        case .binary(let op, let l, let r):
            let a = l.folded(constants: constants)
            let b = r.folded(constants: constants)
            switch op {
            // The left operand is evaluated first, so a constant right operand decides
            // only when the left one cannot fail: `n / d > 1 || true` fails when d is 0.
            case .and:
                if a == .bool(false) || (b == .bool(false) && !l.canFail) { return .bool(false) }
                if case .bool(true)? = a, case .bool(true)? = b { return .bool(true) }
                return nil
            case .or:
                if a == .bool(true) || (b == .bool(true) && !l.canFail) { return .bool(true) }
                if case .bool(false)? = a, case .bool(false)? = b { return .bool(false) }
                return nil
            default:
                guard let a, let b else { return nil }
                return Expr.apply(op, a, b)
            }
        case .conditional(let c, let t, let e):
            guard case .bool(let flag)? = c.folded(constants: constants) else { return nil }
            return flag ? t.folded(constants: constants) : e.folded(constants: constants)
        case .text(let e):
            return e.folded(constants: constants).map { .string($0.text) }
        case .call(let f, let args):
            var numbers: [Double] = []
            for a in args {
                guard case .number(let n)? = a.folded(constants: constants) else { return nil }
                numbers.append(n)
            }
            return Arithmetic.call(f, numbers).map(Value.number)
        }
    }

    /// Whether evaluating the expression can fail at run time: arithmetic on numbers (a
    /// result that is not finite, a division by zero) or a built-in function. String
    /// concatenation, comparisons, logic, interpolation and conditionals themselves cannot.
    package var canFail: Bool {
        var fails = false
        visit { sub in
            switch sub.kind {
            case .binary(let op, _, _):
                switch op {
                case .add: if sub.type != .string { fails = true }
                case .subtract, .multiply, .divide, .remainder: fails = true
                default: break
                }
            case .call: fails = true
            default: break
            }
        }
        return fails
    }

    /// Applies a binary operator to two values of matching types; nil on a run-time error.
    package static func apply(_ op: BinaryOp, _ a: Value, _ b: Value) -> Value? {
        switch (op, a, b) {
        case (.equal, _, _): return .bool(a == b)
        case (.notEqual, _, _): return .bool(a != b)
        case (.add, .string(let x), .string(let y)): return .string(x + y)
        case (.less, .number(let x), .number(let y)), (.lessEqual, .number(let x), .number(let y)),
             (.greater, .number(let x), .number(let y)), (.greaterEqual, .number(let x), .number(let y)):
            guard !x.isNaN && !y.isNaN else { return nil }
            return .bool(Arithmetic.compare(op, x, y))
        case (_, .number(let x), .number(let y)):
            return Arithmetic.arithmetic(op, x, y).map(Value.number)
        case (.and, .bool(let x), .bool(let y)): return .bool(x && y)
        case (.or, .bool(let x), .bool(let y)): return .bool(x || y)
        default: return nil
        }
    }
}
