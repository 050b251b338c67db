import StatecraftDiagnostics

/// The built-in functions.
public enum BuiltinFunction: String, Sendable, CaseIterable {
    case min, max, abs, atan2, sqrt, floor, ceil, round

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
public enum UnaryOp: String, Sendable { case not = "!", negate = "-" }

/// A binary operator of the resolved model.
public enum BinaryOp: String, Sendable {
    case or = "||", and = "&&", equal = "==", notEqual = "!="
    case less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
}

/// A resolved, typed expression: names are ids, every node knows its type and source range.
public struct Expr: Equatable, Sendable {
    /// What the expression is.
    public indirect enum Kind: Equatable, Sendable {
        case literal(Value)
        /// The built-in constant `pi`.
        case pi
        case constant(ConstantID)
        case variable(VariableID)
        /// A payload field of the triggering event, by name (its slot can differ between
        /// the events of a multi-event transition, so a runtime resolves it per event).
        case field(String)
        /// A `let` value of the enclosing action list, by slot.
        case local(Int)
        case unary(UnaryOp, Expr)
        case binary(BinaryOp, Expr, Expr)
        case conditional(Expr, Expr, Expr)
        case call(BuiltinFunction, [Expr])
        /// `in(x)`: whether state `x` is active now.
        case inState(StateID)
        /// A value as text (`String`), for string interpolation: numbers as traces and
        /// reports print them (`3`, `0.5`, `-617`), bools as `true` or `false`.
        case text(Expr)
        /// An expression that did not resolve or type-check (already reported).
        case invalid
    }

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
