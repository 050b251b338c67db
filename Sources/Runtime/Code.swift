#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import StatecraftDiagnostics
import StatecraftModel

/// An expression compiled for one event: payload fields are slots, constants are values.
///
/// This is what the runtime walks per event; it never looks a name up.
indirect enum Code: Sendable {
    case value(Value)
    case variable(Int)
    case field(Int)
    case local(Int)
    case not(Code)
    case negate(Code, SourceRange)
    case and(Code, Code)
    case or(Code, Code)
    /// Any other binary operator; the range is the whole expression, for run-time errors.
    case binary(BinaryOp, Code, Code, SourceRange)
    case conditional(Code, Code, Code)
    case call(BuiltinFunction, [Code], SourceRange)
}

/// An action compiled for one event.
indirect enum CodeAction: Sendable {
    case assign(Int, BinaryOp?, Code, SourceRange)
    case emit(OutputID, [Code])
    case setLocal(Int, Code)
    case branch(Code, [CodeAction], [CodeAction])
}

/// Where an expression may read from while it runs.
struct Frame {
    var variables: [Value]
    var payload: [Value]
    var locals: [Value]
    /// Each assignment of the current step: the slot and the value it replaced, in order,
    /// so a failed step can be undone and a trace can say what changed, without copying
    /// every variable on every event.
    var journal: [(slot: Int, old: Value)] = []
}

/// A run-time failure inside an expression: what went wrong and where in the spec.
public struct ExpressionFault: Error, Sendable, Equatable {
    /// Lowercase description, e.g. "division by zero".
    public var message: String
    /// The expression that failed, in the spec.
    public var range: SourceRange
}

extension Code {
    /// Evaluates the code. Type errors cannot happen (the checker proved types); the only
    /// failures are arithmetic ones, reported with the failing expression's range.
    func evaluate(_ frame: inout Frame) throws(ExpressionFault) -> Value {
        switch self {
        case .value(let v): return v
        case .variable(let i): return frame.variables[i]
        case .field(let i): return frame.payload[i]
        case .local(let i): return frame.locals[i]
        case .not(let c):
            return .bool(!(try c.evaluate(&frame).bool ?? false))
        case .negate(let c, _):
            return .number(-(try c.evaluate(&frame).number ?? 0))
        case .and(let l, let r):
            guard try l.evaluate(&frame).bool == true else { return .bool(false) }
            return .bool(try r.evaluate(&frame).bool == true)
        case .or(let l, let r):
            if try l.evaluate(&frame).bool == true { return .bool(true) }
            return .bool(try r.evaluate(&frame).bool == true)
        case .binary(let op, let l, let r, let range):
            let a = try l.evaluate(&frame)
            let b = try r.evaluate(&frame)
            if let result = Expr.apply(op, a, b) { return result }
            throw ExpressionFault(message: Code.describeFailure(op, a, b), range: range)
        case .conditional(let c, let t, let e):
            return try c.evaluate(&frame).bool == true ? t.evaluate(&frame) : e.evaluate(&frame)
        case .call(let f, let args, let range):
            // No argument array on the hot path: the built-ins take one or two numbers, and
            // min/max fold over theirs.
            guard let first = args.first else { return .number(0) }
            let x = try first.evaluate(&frame).number ?? .nan
            var result: Double
            switch f {
            case .min, .max:
                result = x
                for a in args.dropFirst() {
                    let y = try a.evaluate(&frame).number ?? .nan
                    result = f == .min ? Swift.min(result, y) : Swift.max(result, y)
                }
            case .atan2:
                let y = args.count > 1 ? try args[1].evaluate(&frame).number ?? .nan : .nan
                result = atan2(x, y)
                if !result.isFinite {
                    throw ExpressionFault(message: "'atan2' of \(Value.number(x)), \(Value.number(y)) is not a finite number", range: range)
                }
                return .number(result)
            case .abs: result = Swift.abs(x)
            case .sqrt: result = x.squareRoot()
            case .floor: result = x.rounded(.down)
            case .ceil: result = x.rounded(.up)
            case .round: result = x.rounded(.toNearestOrAwayFromZero)
            }
            if result.isFinite { return .number(result) }
            throw ExpressionFault(message: "'\(f.rawValue)' of \(Value.number(x)) is not a finite number", range: range)
        }
    }

    private static func describeFailure(_ op: BinaryOp, _ a: Value, _ b: Value) -> String {
        if b == .number(0) && op == .divide { return "division by zero (\(a) / 0)" }
        if b == .number(0) && op == .remainder { return "remainder by zero (\(a) % 0)" }
        return "\(a) \(op.rawValue) \(b) is not a finite number"
    }
}

extension CodeAction {
    /// Runs the action; `emit` is called for each output in order.
    func run(_ frame: inout Frame, emit: (OutputID, [Value]) -> Void) throws(ExpressionFault) {
        switch self {
        case .assign(let slot, let op, let code, let range):
            let value = try code.evaluate(&frame)
            let old = frame.variables[slot]
            guard let op else {
                frame.journal.append((slot, old))
                frame.variables[slot] = value
                return
            }
            guard let result = Expr.apply(op, old, value) else {
                throw ExpressionFault(message: "\(old) \(op.rawValue) \(value) is not a finite number", range: range)
            }
            frame.journal.append((slot, old))
            frame.variables[slot] = result
        case .emit(let output, let args):
            var values: [Value] = []
            values.reserveCapacity(args.count)
            for a in args { values.append(try a.evaluate(&frame)) }
            emit(output, values)
        case .setLocal(let slot, let code):
            frame.locals[slot] = try code.evaluate(&frame)
        case .branch(let condition, let then, let otherwise):
            let body = try condition.evaluate(&frame).bool == true ? then : otherwise
            for action in body { try action.run(&frame, emit: emit) }
        }
    }
}
