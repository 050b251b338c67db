import StatecraftDiagnostics

/// A `property`: something every run of the machine must satisfy.
///
/// Its expressions are `Bool`, over variables, constants and `in(state)`, never an event's
/// payload: they are about stable configurations (the machine at rest after a macrostep),
/// where no payload exists.
public struct Property: Sendable {
    /// What a response waits after: a step that takes an event, or one that enters a state.
    public enum Trigger: Sendable, Equatable {
        /// `after e within …`: every step that takes event `e`.
        case event(EventID)
        /// `after entering s within …`: every step that enters state `s` (not one that stays in it).
        case entering(StateID)
    }

    /// What the property states.
    public enum Form: Sendable, Equatable {
        /// `never X [while G]`: no stable configuration (where `G` holds) satisfies `X`.
        case never(Expr, while: Expr?)
        /// `always X [while G]`: every stable configuration (where `G` holds) satisfies `X`.
        case always(Expr, while: Expr?)
        /// `after E within D: X`: after every trigger, `X` holds in a stable configuration
        /// no later than `deadline` seconds after it (the trigger's own included).
        case response(Trigger, deadline: Double, Expr)
        /// `X only after Y`: no stable configuration satisfies `X` unless it or an earlier
        /// one of the same run satisfied `Y`.
        case precedence(Expr, onlyAfter: Expr)
        /// `always reachable X`: from every reachable stable configuration, some
        /// continuation reaches one that satisfies `X`.
        case reachable(Expr)

        /// The form's expressions, in source order.
        package var expressions: [Expr] {
            switch self {
            case .never(let x, let g), .always(let x, let g): [x] + (g.map { [$0] } ?? [])
            case .response(_, _, let x): [x]
            case .precedence(let x, let y): [x, y]
            case .reachable(let x): [x]
            }
        }
    }

    /// The property's name, unique among the machine's properties.
    public var name: String
    /// What it states.
    public var form: Form
    /// The deadline of a response as written (a number with its unit, or a constant),
    /// resolved; nil for the other forms.
    package var deadlineExpr: Expr?
    /// True when a name, type or deadline did not resolve (an error was reported): its
    /// expressions may hold `.invalid` nodes, and nothing may be concluded from it.
    public var isBroken: Bool
    /// Where the property's name is written.
    public var nameRange: SourceRange
    /// The `property` word through the end of the declaration.
    public var range: SourceRange

    /// Creates a property.
    package init(name: String, form: Form, deadlineExpr: Expr?, isBroken: Bool,
                nameRange: SourceRange, range: SourceRange) {
        self.name = name
        self.form = form
        self.deadlineExpr = deadlineExpr
        self.isBroken = isBroken
        self.nameRange = nameRange
        self.range = range
    }
}
