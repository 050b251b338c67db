import StatecraftDiagnostics

/// The built-in functions.
public enum BuiltinFunction: String, Sendable, CaseIterable {
    /// `min(a, b, ...)`: the smallest of two or more numbers.
    case min
    /// `max(a, b, ...)`: the largest of two or more numbers.
    case max
    /// `abs(x)`: the magnitude of a number.
    case abs
    /// `atan2(y, x)`: the angle of the point (x, y) from the x axis, in radians.
    case atan2
    /// `sqrt(x)`: the square root (a negative argument is a run-time fault).
    case sqrt
    /// `floor(x)`: the largest integer not above the number.
    case floor
    /// `ceil(x)`: the smallest integer not below the number.
    case ceil
    /// `round(x)`: the nearest integer, halves rounded away from zero.
    case round

    /// How many arguments it takes: exactly this many, or at least this many for `min`/`max`.
    public var arity: Int {
        switch self {
        case .min, .max, .atan2: 2
        default: 1
        }
    }

    /// Whether it takes `arity` or more arguments.
    public var isVariadic: Bool { self == .min || self == .max }
}

/// A unary operator of the resolved model.
public enum UnaryOp: String, Sendable {
    /// `!`: logical not of a `Bool`.
    case not = "!"
    /// `-`: the negation of a `Number`.
    case negate = "-"
}

/// A binary operator of the resolved model.
public enum BinaryOp: String, Sendable {
    /// `||`: either `Bool` operand true; the right one is evaluated only when the left is false.
    case or = "||"
    /// `&&`: both `Bool` operands true; the right one is evaluated only when the left is true.
    case and = "&&"
    /// `==`: whether two values of the same type are equal.
    case equal = "=="
    /// `!=`: whether two values of the same type differ.
    case notEqual = "!="
    /// `<`: whether the left number is smaller.
    case less = "<"
    /// `<=`: whether the left number is smaller or equal.
    case lessEqual = "<="
    /// `>`: whether the left number is larger.
    case greater = ">"
    /// `>=`: whether the left number is larger or equal.
    case greaterEqual = ">="
    /// `+`: the sum of two numbers, or two strings joined.
    case add = "+"
    /// `-`: the difference of two numbers.
    case subtract = "-"
    /// `*`: the product of two numbers.
    case multiply = "*"
    /// `/`: the quotient of two numbers (dividing by zero is a run-time fault).
    case divide = "/"
    /// `%`: the remainder of a division truncated toward zero, with the sign of the left number.
    case remainder = "%"
}

/// A resolved, typed expression: names are ids, every node knows its type and source range.
public struct Expr: Equatable, Sendable {
    /// What the expression is.
    public indirect enum Kind: Equatable, Sendable {
        /// A literal number, string or `true`/`false`, as written.
        case literal(Value)
        /// The built-in constant `pi`.
        case pi
        /// A named constant, by id (its value is in ``Machine/constants``).
        case constant(ConstantID)
        /// A variable's current value, by id.
        case variable(VariableID)
        /// A payload field of the triggering event, by name (its slot can differ between
        /// the events of a multi-event transition, so a runtime resolves it per event).
        case field(String)
        /// A `let` value of the enclosing action list, by slot.
        case local(Int)
        /// A unary operator applied to its operand.
        case unary(UnaryOp, Expr)
        /// A binary operator with its left and right operands.
        case binary(BinaryOp, Expr, Expr)
        /// `condition ? then : else`: only the chosen branch is evaluated.
        case conditional(Expr, Expr, Expr)
        /// A call of a built-in function with its arguments in order.
        case call(BuiltinFunction, [Expr])
        /// `in(x)`: whether state `x` is active now.
        case inState(StateID)
        /// A value as text (`String`), for string interpolation: numbers as traces and
        /// reports print them (`3`, `0.5`, `-617`), bools as `true` or `false`.
        case text(Expr)
        /// An expression that did not resolve or type-check (already reported).
        case invalid
    }

    /// What the expression is, with its sub-expressions.
    public var kind: Kind
    /// The type; meaningless for `.invalid`.
    public var type: ValueType
    /// Where the expression is in the source.
    public var range: SourceRange

    /// Creates a node.
    public init(_ kind: Kind, type: ValueType, range: SourceRange) {
        self.kind = kind
        self.type = type
        self.range = range
    }

    /// Calls `body` on this node and every node below it, parents first.
    public func visit(_ body: (Expr) -> Void) {
        body(self)
        switch kind {
        case .literal, .pi, .constant, .variable, .field, .local, .inState, .invalid: break
        case .unary(_, let e), .text(let e): e.visit(body)
        case .binary(_, let l, let r):
            l.visit(body)
            r.visit(body)
        case .conditional(let c, let t, let e):
            c.visit(body)
            t.visit(body)
            e.visit(body)
        case .call(_, let args):
            for a in args { a.visit(body) }
        }
    }
}
