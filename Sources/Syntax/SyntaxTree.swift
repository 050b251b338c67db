import StatecraftDiagnostics

// The syntax tree: value types named after the grammar's productions. Every node keeps
// the byte range it came from so later stages can point diagnostics at it. Parse errors
// leave `.bad` placeholders (expressions) or drop the broken member, so the tree is
// always whole.

/// A name as written, with where it was written.
public struct Identifier: Equatable, Sendable {
    /// The name's text.
    public var name: String
    /// Where it is in the source.
    public var range: SourceRange

    /// Creates an identifier.
    public init(_ name: String, _ range: SourceRange) {
        self.name = name
        self.range = range
    }
}

/// `machine = "machine" IDENT "{" { member } "}"`
public struct MachineDecl: Equatable, Sendable {
    /// The machine's name; nil when the file has none (an error was reported).
    public var name: Identifier?
    /// Declarations in source order.
    public var members: [MemberDecl]
    /// The whole machine.
    public var range: SourceRange
}

/// `member = const | var | event | output | state | initialTargets`
public enum MemberDecl: Equatable, Sendable {
    case constant(ConstDecl)
    case variable(VarDecl)
    case event(EventDecl)
    case output(OutputDecl)
    case state(StateDecl)
    /// `initial -> a, b` at the top level: the machine starts in these states.
    case initialTargets(InitialTargetsDecl)
}

/// `initialTargets = "initial" "->" IDENT { "," IDENT }`: the states a compound state (or
/// the machine) enters by default, at any depth, in place of an `initial` child (SCXML's
/// `initial="a b"` and `<initial>` transition).
public struct InitialTargetsDecl: Equatable, Sendable {
    /// The `initial` keyword.
    public var keywordRange: SourceRange
    public var targets: [Identifier]
}

/// `type = "Number" | "Bool" | "String"` (any identifier parses; semantics checks it).
public struct TypeRef: Equatable, Sendable {
    /// The type's name as written.
    public var name: Identifier
}

/// `const = "const" IDENT [ ":" type ] "=" expr`
public struct ConstDecl: Equatable, Sendable {
    public var name: Identifier
    public var type: TypeRef?
    public var value: ExprSyntax
}

/// `var = [ "public" ] "var" IDENT ":" type "=" expr`
public struct VarDecl: Equatable, Sendable {
    /// Whether the variable is marked `public`: part of the machine's interface, read by
    /// the app (and by event logs), so never reported as unused.
    public var isPublic: Bool
    public var name: Identifier
    public var type: TypeRef?
    public var initialValue: ExprSyntax
}

/// `field = IDENT ":" type`
public struct FieldDecl: Equatable, Sendable {
    public var name: Identifier
    public var type: TypeRef
}

/// `event = "event" IDENT [ "(" fields ")" ]`
public struct EventDecl: Equatable, Sendable {
    public var name: Identifier
    public var fields: [FieldDecl]
}

/// `output = "output" IDENT [ "(" fields ")" ]`
public struct OutputDecl: Equatable, Sendable {
    public var name: Identifier
    public var fields: [FieldDecl]
}

/// A state modifier as written (`initial`, `final`, `parallel`, `history`, `deep`).
/// `history` and `deep` are not reserved words: they are modifiers only before `state`.
public struct StateModifier: Equatable, Sendable {
    /// Which modifier.
    public enum Kind: String, Sendable { case initial, final, parallel, history, deep }
    public var kind: Kind
    public var range: SourceRange
}

/// `state = { "initial" | "final" | "parallel" } "state" IDENT [ "{" { stateMember } "}" ]
///        | [ "deep" ] "history" "state" IDENT [ "->" IDENT ]`
public struct StateDecl: Equatable, Sendable {
    public var modifiers: [StateModifier]
    public var name: Identifier
    /// For a history state, the default written after `->` (`history state h -> c`).
    public var historyDefault: Identifier?
    /// `entry` blocks, in order (normally at most one).
    public var entry: [EntryExitDecl]
    /// `exit` blocks, in order.
    public var exit: [EntryExitDecl]
    public var transitions: [TransitionDecl]
    /// States declared inside this one.
    public var children: [StateDecl]
    /// `initial -> a, b` written in this state (at most one is meant; each is kept so the
    /// resolver can say so).
    public var initialTargets: [InitialTargetsDecl] = []
    /// The `state` keyword through the closing brace.
    public var range: SourceRange

    /// The modifier of the given kind, if written.
    public func modifier(_ kind: StateModifier.Kind) -> StateModifier? {
        modifiers.first { $0.kind == kind }
    }
}

/// `"entry" block` or `"exit" block`
public struct EntryExitDecl: Equatable, Sendable {
    /// The `entry` or `exit` keyword.
    public var keywordRange: SourceRange
    public var block: BlockSyntax
}

/// `trigger = "on" IDENT { "," IDENT } | "after" expr | "done" [ "(" IDENT ")" ] | "always"`
public enum TriggerSyntax: Equatable, Sendable {
    case events([Identifier])
    case after(ExprSyntax)
    /// `done` (nil: the completion of the state it is written in) or `done(x)`.
    case done(Identifier?)
    /// `always`: eventless.
    case always
}

/// `transition = [ "internal" ] trigger [ "if" expr ] [ "->" IDENT ] [ block ]`
public struct TransitionDecl: Equatable, Sendable {
    public var trigger: TriggerSyntax
    /// The `on`, `after`, `done` or `always` keyword.
    public var keywordRange: SourceRange
    /// The `internal` prefix, when written.
    public var internalRange: SourceRange?
    public var guardExpr: ExprSyntax?
    public var target: Identifier?
    public var actions: BlockSyntax?
    /// The first keyword (`internal` when written) through the end of the transition.
    public var range: SourceRange

    /// Whether the transition is written `internal`.
    public var isInternal: Bool { internalRange != nil }
}

/// `block = "{" { action } "}"`
public struct BlockSyntax: Equatable, Sendable {
    public var actions: [ActionSyntax]
    public var range: SourceRange
}

/// The assignment operators.
public enum AssignOperator: String, Sendable {
    case assign = "=", add = "+=", subtract = "-=", multiply = "*=", divide = "/="
}

/// `action = assignment | emit | raise | send | cancel | let | if`
public indirect enum ActionSyntax: Equatable, Sendable {
    /// `assignment = IDENT ( "=" | "+=" | "-=" | "*=" | "/=" ) expr`
    case assign(target: Identifier, op: AssignOperator, value: ExprSyntax, range: SourceRange)
    /// `emit = "emit" IDENT [ "(" args ")" ]`
    case emit(output: Identifier, arguments: [ExprSyntax], range: SourceRange)
    /// `raise = "raise" IDENT [ "(" args ")" ]`
    case raise(event: Identifier, arguments: [ExprSyntax], range: SourceRange)
    /// `send = "send" IDENT [ "(" args ")" ] [ "after" expr ]`
    case send(event: Identifier, arguments: [ExprSyntax], delay: ExprSyntax?, range: SourceRange)
    /// `cancel = "cancel" IDENT`
    case cancel(event: Identifier, range: SourceRange)
    /// `let = "let" IDENT "=" expr`
    case letValue(name: Identifier, value: ExprSyntax, range: SourceRange)
    /// `if = "if" expr block [ "else" ( block | if ) ]`
    case ifAction(condition: ExprSyntax, then: BlockSyntax, otherwise: BlockSyntax?, range: SourceRange)
}

/// Unary operators.
public enum UnaryOperator: String, Sendable { case not = "!", negate = "-" }

/// Binary operators, loosest binding first.
public enum BinaryOperator: String, Sendable {
    case or = "||", and = "&&"
    case equal = "==", notEqual = "!="
    case less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
    case add = "+", subtract = "-"
    case multiply = "*", divide = "/", remainder = "%"

    /// How tightly the operator binds (higher binds tighter); all are left-associative. The
    /// parser and the formatter both group by it, so they agree on every expression's shape.
    public var precedence: Int {
        switch self {
        case .or: 0
        case .and: 1
        case .equal, .notEqual: 2
        case .less, .lessEqual, .greater, .greaterEqual: 3
        case .add, .subtract: 4
        case .multiply, .divide, .remainder: 5
        }
    }
}

/// An expression with its source range and tree depth (bounded by the parser).
public struct ExprSyntax: Equatable, Sendable {
    /// What the expression is.
    public indirect enum Kind: Equatable, Sendable {
        case number(Double)
        case string(String)
        case bool(Bool)
        case name(String)
        case call(Identifier, [ExprSyntax])
        case unary(UnaryOperator, ExprSyntax)
        case binary(BinaryOperator, ExprSyntax, ExprSyntax)
        case conditional(ExprSyntax, ExprSyntax, ExprSyntax)
        case paren(ExprSyntax)
        /// A string with interpolations, `"Wrong password \(attempts)"`: its pieces in order.
        case interpolation([InterpolationPiece])
        /// Placeholder for an expression that failed to parse (already reported).
        case bad
    }

    /// A piece of an interpolated string: literal text, or an interpolated expression.
    public enum InterpolationPiece: Equatable, Sendable {
        case text(String)
        case expression(ExprSyntax)
    }

    public var kind: Kind
    public var range: SourceRange
    /// 1 for a leaf; 1 + the deepest child otherwise.
    public var depth: Int

    /// Creates a node, computing its depth from its children.
    public init(_ kind: Kind, _ range: SourceRange) {
        self.kind = kind
        self.range = range
        switch kind {
        case .number, .string, .bool, .name, .bad: depth = 1
        case .call(_, let args): depth = 1 + (args.map(\.depth).max() ?? 0)
        case .unary(_, let e), .paren(let e): depth = 1 + e.depth
        case .binary(_, let l, let r): depth = 1 + max(l.depth, r.depth)
        case .conditional(let c, let t, let e): depth = 1 + max(c.depth, t.depth, e.depth)
        case .interpolation(let pieces):
            depth = 1 + pieces.map { piece in
                if case .expression(let e) = piece { return e.depth }
                return 0
            }.reduce(0, max)
        }
    }
}
