import StatecraftDiagnostics

// The syntax tree: value types named after the grammar's productions. Every node keeps
// the byte range it came from so later stages can point diagnostics at it. Parse errors
// leave `.bad` placeholders (expressions) or drop the broken member, so the tree is
// always whole.

/// A name as written, with where it was written.
package struct Identifier: Equatable, Sendable {
    /// The name's text.
    package var name: String
    /// Where it is in the source.
    package var range: SourceRange

    /// Creates an identifier.
    package init(_ name: String, _ range: SourceRange) {
        self.name = name
        self.range = range
    }
}

/// `machine = "machine" IDENT "{" { member } "}"`
package struct MachineDecl: Equatable, Sendable {
    /// The machine's name; nil when the file has none (an error was reported).
    package var name: Identifier?
    /// Declarations in source order.
    package var members: [MemberDecl]
    /// The whole machine.
    package var range: SourceRange
}

/// `member = const | var | event | output | state | initialTargets | property`
package enum MemberDecl: Equatable, Sendable {
    /// A `const` declaration.
    case constant(ConstDecl)
    /// A `var` declaration (with or without `public`).
    case variable(VarDecl)
    /// An `event` declaration with its payload fields.
    case event(EventDecl)
    /// An `output` declaration with its argument fields.
    case output(OutputDecl)
    /// A top-level `state` declaration, with everything nested in it.
    case state(StateDecl)
    /// `initial -> a, b` at the top level: the machine starts in these states.
    case initialTargets(InitialTargetsDecl)
    /// `property name: form`: something every run must satisfy.
    case property(PropertyDecl)
}

/// `initialTargets = "initial" "->" IDENT { "," IDENT } [ block ]`: the states a compound
/// state (or the machine) enters by default, at any depth, in place of an `initial` child
/// (SCXML's `initial="a b"` and `<initial>` transition), and the actions of that default
/// entry (SCXML's content of the `<initial>` transition).
package struct InitialTargetsDecl: Equatable, Sendable {
    /// The `initial` keyword.
    package var keywordRange: SourceRange
    /// The state names after `->`, in the order written (resolved later; unknown ones are errors then).
    package var targets: [Identifier]
    /// The actions run when the state is entered by default, after its entry actions and
    /// before its children's; nil when none is written.
    package var actions: BlockSyntax? = nil
}

/// `type = "Number" | "Bool" | "String"` (any identifier parses; semantics checks it).
package struct TypeRef: Equatable, Sendable {
    /// The type's name as written.
    package var name: Identifier
}

/// `const = "const" IDENT [ ":" type ] "=" expr`
package struct ConstDecl: Equatable, Sendable {
    /// The constant's name.
    package var name: Identifier
    /// The type written after `:`; nil when omitted (the value's type is used).
    package var type: TypeRef?
    /// The expression after `=`, computed once when the machine is resolved.
    package var value: ExprSyntax
}

/// `var = [ "public" ] "var" IDENT ":" type "=" expr`
package struct VarDecl: Equatable, Sendable {
    /// Whether the variable is marked `public`: part of the machine's interface, read by
    /// the app (and by event logs), so never reported as unused.
    package var isPublic: Bool
    /// The variable's name.
    package var name: Identifier
    /// The type written after `:`; nil only when the parser recovered from its absence.
    package var type: TypeRef?
    /// The expression after `=`: the variable's value when the machine starts.
    package var initialValue: ExprSyntax
}

/// `field = [ "private" ] IDENT ":" type`
package struct FieldDecl: Equatable, Sendable {
    /// The field's name, as payloads and expressions refer to it.
    package var name: Identifier
    /// The field's type.
    package var type: TypeRef
    /// Where `private` is written before the name (`private password: String`), or nil: a
    /// private payload field never reaches a recording.
    package var privateMark: SourceRange? = nil
}

/// `event = "event" IDENT [ "(" fields ")" ] [ "as" STRING ]`
package struct EventDecl: Equatable, Sendable {
    /// The event's name, as transitions and event logs refer to it.
    package var name: Identifier
    /// The payload fields in parentheses, in order; empty when the event has none.
    package var fields: [FieldDecl]
    /// The name an outside system gives the event, after `as` (`as "watch.reset"`,
    /// `as "DIGIT.*"`), or nil.
    package var externalName: ExternalNameSyntax? = nil
}

/// `"as" STRING` after an event's signature: the name another system (an SCXML engine, its
/// logs) uses for the event, exactly as written in the string; the resolver checks it.
package struct ExternalNameSyntax: Equatable, Sendable {
    /// The string's value (escapes decoded).
    package var text: String
    /// Where `as` is written.
    package var asRange: SourceRange
    /// Where the string literal is written, quotes included.
    package var range: SourceRange
}

/// `output = "output" IDENT [ "(" fields ")" ]`
package struct OutputDecl: Equatable, Sendable {
    /// The output's name, as `emit` refers to it.
    package var name: Identifier
    /// The argument fields in parentheses, in order; empty when the output has none.
    package var fields: [FieldDecl]
}

/// A state modifier as written (`initial`, `final`, `parallel`, `history`, `deep`).
/// `history` and `deep` are not reserved words: they are modifiers only before `state`.
package struct StateModifier: Equatable, Sendable {
    /// Which modifier.
    package enum Kind: String, Sendable {
        /// `initial`: the state its parent (or the machine) enters by default.
        case initial
        /// `final`: entering it completes its parent.
        case final
        /// `parallel`: its child states are regions, all active together.
        case parallel
        /// `history`: a pseudo-state that re-enters the parent's last active child.
        case history
        /// `deep`: before `history`, re-enters the last active leaf states at any depth.
        case deep
    }
    /// Which modifier this is.
    package var kind: Kind
    /// Where the modifier's word is in the source.
    package var range: SourceRange
}

/// `state = { "initial" | "final" | "parallel" } "state" IDENT [ doneData ] [ "{" { stateMember } "}" ]
///        | [ "deep" ] "history" "state" IDENT [ "->" IDENT { "," IDENT } [ block ] ]`
package struct StateDecl: Equatable, Sendable {
    /// The modifiers written before `state`, in source order.
    package var modifiers: [StateModifier]
    /// The state's name, unique among all the machine's states.
    package var name: Identifier
    /// `final state f(code: 200, count: n)`: the values the completion of `f`'s parent
    /// carries (SCXML's `<donedata>`), in the order written; nil when no list is written.
    /// Parsed after any state's name so that the resolver can say only a nested final state
    /// carries values.
    package var doneData: DoneDataSyntax? = nil
    /// For a history state, the defaults written after `->` (`history state h -> c`, or
    /// `-> a, b` for states in several regions); empty when none is written.
    package var historyDefaults: [Identifier] = []
    /// For a history state, the block after its defaults (`history state h -> c { … }`): the
    /// actions run when the default is taken (nothing recorded yet), after the entry actions
    /// of the history's parent. Nil when none is written.
    package var historyActions: BlockSyntax? = nil
    /// `entry` blocks, in order (normally at most one).
    package var entry: [EntryExitDecl]
    /// `exit` blocks, in order.
    package var exit: [EntryExitDecl]
    /// The transitions written in the state's body, in source order (the first that matches wins).
    package var transitions: [TransitionDecl]
    /// States declared inside this one.
    package var children: [StateDecl]
    /// `initial -> a, b` written in this state (at most one is meant; each is kept so the
    /// resolver can say so).
    package var initialTargets: [InitialTargetsDecl] = []
    /// The `state` keyword through the closing brace.
    package var range: SourceRange

    /// The modifier of the given kind, if written.
    package func modifier(_ kind: StateModifier.Kind) -> StateModifier? {
        modifiers.first { $0.kind == kind }
    }
}

/// `doneData = "(" [ IDENT ":" expr { "," IDENT ":" expr } ] ")"`
package struct DoneDataSyntax: Equatable, Sendable {
    /// One labelled value: the field's name and the expression computing it.
    package struct Field: Equatable, Sendable {
        /// The field's name, as a `done` transition reads it.
        package var name: Identifier
        /// The value, evaluated when the final state is entered (after its entry actions).
        package var value: ExprSyntax
    }
    /// The fields in the order written.
    package var fields: [Field]
    /// The parentheses and what is between them.
    package var range: SourceRange
}

/// `"entry" block` or `"exit" block`
package struct EntryExitDecl: Equatable, Sendable {
    /// The `entry` or `exit` keyword.
    package var keywordRange: SourceRange
    /// The actions run when the state is entered (`entry`) or exited (`exit`).
    package var block: BlockSyntax
}

/// `trigger = "on" IDENT { "," IDENT } | "after" expr | "done" [ "(" IDENT ")" ] | "always"`
package enum TriggerSyntax: Equatable, Sendable {
    /// `on a, b`: taken when any of the named events arrives.
    case events([Identifier])
    /// `after delay`: a timer started on entering the state; the delay expression is in seconds.
    case after(ExprSyntax)
    /// `done` (nil: the completion of the state it is written in) or `done(x)`.
    case done(Identifier?)
    /// `always`: eventless.
    case always
}

/// `transition = [ "internal" ] trigger [ "if" expr ] [ "->" IDENT ] [ block ]`
package struct TransitionDecl: Equatable, Sendable {
    /// What fires the transition: events, a timer, completion, or nothing (`always`).
    package var trigger: TriggerSyntax
    /// The `on`, `after`, `done` or `always` keyword.
    package var keywordRange: SourceRange
    /// The `internal` prefix, when written.
    package var internalRange: SourceRange?
    /// The expression after `if`; nil when the transition has no guard.
    package var guardExpr: ExprSyntax?
    /// The state after `->`; nil for a targetless transition, which runs its actions and stays.
    package var target: Identifier?
    /// The block of actions run when the transition is taken; nil when none is written.
    package var actions: BlockSyntax?
    /// The first keyword (`internal` when written) through the end of the transition.
    package var range: SourceRange

    /// Whether the transition is written `internal`.
    package var isInternal: Bool { internalRange != nil }
}

/// `block = "{" { action } "}"`
package struct BlockSyntax: Equatable, Sendable {
    /// The actions between the braces, in the order they run.
    package var actions: [ActionSyntax]
    /// The opening brace through the closing brace.
    package var range: SourceRange
}

/// The assignment operators.
package enum AssignOperator: String, Sendable {
    /// `=`: replaces the value.
    case assign = "="
    /// `+=`: adds to a number or appends to a string.
    case add = "+="
    /// `-=`: subtracts from a number.
    case subtract = "-="
    /// `*=`: multiplies a number.
    case multiply = "*="
    /// `/=`: divides a number.
    case divide = "/="
}

/// `action = assignment | emit | raise | send | cancel | let | if`
package indirect enum ActionSyntax: Equatable, Sendable {
    /// `assignment = IDENT ( "=" | "+=" | "-=" | "*=" | "/=" ) expr`
    case assign(target: Identifier, op: AssignOperator, value: ExprSyntax, range: SourceRange)
    /// `emit = "emit" IDENT [ "(" args ")" ]`
    case emit(output: Identifier, arguments: [ExprSyntax], range: SourceRange)
    /// `raise = "raise" IDENT [ "(" args ")" ]`
    case raise(event: Identifier, arguments: [ExprSyntax], range: SourceRange)
    /// `send = "send" IDENT [ "(" args ")" ] [ "after" expr ]`
    case send(event: Identifier, arguments: [ExprSyntax], delay: ExprSyntax?, range: SourceRange)
    /// `send = "send" STRING [ "after" expr ]`: the event is the one whose name the string
    /// (which may be interpolated) has when the action runs.
    case sendNamed(name: ExprSyntax, delay: ExprSyntax?, range: SourceRange)
    /// `cancel = "cancel" IDENT`
    case cancel(event: Identifier, range: SourceRange)
    /// `let = "let" IDENT "=" expr`
    case letValue(name: Identifier, value: ExprSyntax, range: SourceRange)
    /// `if = "if" expr block [ "else" ( block | if ) ]`
    case ifAction(condition: ExprSyntax, then: BlockSyntax, otherwise: BlockSyntax?, range: SourceRange)
}

/// Unary operators.
package enum UnaryOperator: String, Sendable {
    /// `!`: logical not of a `Bool`.
    case not = "!"
    /// `-`: the negation of a `Number`.
    case negate = "-"
}

/// Binary operators, loosest binding first.
package enum BinaryOperator: String, Sendable {
    /// `||`: true when either `Bool` operand is (the right one is evaluated only when needed).
    case or = "||"
    /// `&&`: true when both `Bool` operands are (the right one is evaluated only when needed).
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
    /// `/`: the quotient of two numbers.
    case divide = "/"
    /// `%`: the remainder of dividing two numbers.
    case remainder = "%"

    /// How tightly the operator binds (higher binds tighter); all are left-associative. The
    /// parser and the formatter both group by it, so they agree on every expression's shape.
    package var precedence: Int {
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
package struct ExprSyntax: Equatable, Sendable {
    /// What the expression is.
    package indirect enum Kind: Equatable, Sendable {
        /// A number literal, its unit applied: `2s` is 2, `300ms` is 0.3.
        case number(Double)
        /// A string literal without interpolation, escapes already decoded.
        case string(String)
        /// `true` or `false`.
        case bool(Bool)
        /// A name: a constant, variable, payload field or `let` value, resolved later.
        case name(String)
        /// A call of a built-in function, with its arguments in order.
        case call(Identifier, [ExprSyntax])
        /// A unary operator applied to its operand.
        case unary(UnaryOperator, ExprSyntax)
        /// A binary operator with its left and right operands.
        case binary(BinaryOperator, ExprSyntax, ExprSyntax)
        /// `condition ? then : else`.
        case conditional(ExprSyntax, ExprSyntax, ExprSyntax)
        /// An expression in parentheses, kept so the formatter can print them back.
        case paren(ExprSyntax)
        /// A string with interpolations, `"Wrong password \(attempts)"`: its pieces in order.
        case interpolation([InterpolationPiece])
        /// Placeholder for an expression that failed to parse (already reported).
        case bad
    }

    /// A piece of an interpolated string: literal text, or an interpolated expression.
    package enum InterpolationPiece: Equatable, Sendable {
        /// Literal text, escapes already decoded.
        case text(String)
        /// An expression written between `\(` and `)`.
        case expression(ExprSyntax)
    }

    /// What the expression is, with its sub-expressions.
    package var kind: Kind
    /// The expression's bytes in the source, parentheses included.
    package var range: SourceRange
    /// 1 for a leaf; 1 + the deepest child otherwise.
    package var depth: Int

    /// Creates a node, computing its depth from its children.
    package init(_ kind: Kind, _ range: SourceRange) {
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

/// `property = "property" IDENT ":" propertyForm`
///
/// `property` and the words of the forms (`never`, `always`, `while`, `within`, `only`,
/// `reachable`, `entering`) are contextual: names anywhere else.
package struct PropertyDecl: Equatable, Sendable {
    /// The `property` word.
    package var keywordRange: SourceRange
    /// The property's name, unique among the machine's properties.
    package var name: Identifier
    /// What the property states.
    package var form: PropertyFormSyntax
    /// The `property` word through the end of the last expression.
    package var range: SourceRange
}

/// A contextual keyword of a property, with where it is written.
package struct PropertyKeyword: Equatable, Sendable {
    /// The word as written (`never`, `always`, `while`, `after`, `entering`, `within`, `only`,
    /// `reachable`).
    package var word: String
    /// Where the word is.
    package var range: SourceRange

    /// Creates a keyword occurrence.
    package init(_ word: String, _ range: SourceRange) {
        self.word = word
        self.range = range
    }
}

/// `propertyForm = ( "never" | "always" ) expr [ "while" expr ]
///               | "after" ( IDENT | "entering" IDENT ) "within" expr ":" expr
///               | expr "only" "after" expr
///               | "always" "reachable" expr`
package enum PropertyFormSyntax: Equatable, Sendable {
    /// `never X [while G]` (`isAlways` false) or `always X [while G]` (true).
    case invariant(isAlways: Bool, keyword: PropertyKeyword, condition: ExprSyntax,
                   whileKeyword: PropertyKeyword?, guardExpr: ExprSyntax?)
    /// `after E within D: X` or `after entering s within D: X`.
    case response(after: PropertyKeyword, entering: PropertyKeyword?, trigger: Identifier,
                  within: PropertyKeyword, deadline: ExprSyntax, response: ExprSyntax)
    /// `X only after Y`.
    case precedence(ExprSyntax, only: PropertyKeyword, after: PropertyKeyword, ExprSyntax)
    /// `always reachable X`.
    case reachable(always: PropertyKeyword, reachable: PropertyKeyword, ExprSyntax)

    /// Every contextual keyword of the form, in source order.
    package var keywords: [PropertyKeyword] {
        switch self {
        case .invariant(_, let keyword, _, let whileKeyword, _): [keyword] + (whileKeyword.map { [$0] } ?? [])
        case .response(let after, let entering, _, let within, _, _): [after] + (entering.map { [$0] } ?? []) + [within]
        case .precedence(_, let only, let after, _): [only, after]
        case .reachable(let always, let reachable, _): [always, reachable]
        }
    }

    /// Every expression of the form, in source order (the deadline included).
    package var expressions: [ExprSyntax] {
        switch self {
        case .invariant(_, _, let condition, _, let guardExpr): [condition] + (guardExpr.map { [$0] } ?? [])
        case .response(_, _, _, _, let deadline, let response): [deadline, response]
        case .precedence(let x, _, _, let y): [x, y]
        case .reachable(_, _, let x): [x]
        }
    }
}
