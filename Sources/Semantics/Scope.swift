import StatecraftDiagnostics
import StatecraftModel

/// What names an expression can see.
struct Scope {
    /// Where the expression is.
    enum Kind {
        /// A constant's value or a variable's initial value: only literals, `pi` and the
        /// first `visibleConstants` constants.
        case constantValue(visibleConstants: Int)
        /// A guard, duration or action: variables, constants, payload fields of `events`
        /// and locals.
        case behaviour
        /// A property's expression: variables, constants and `in(state)`; no payload field
        /// (a property looks at the machine at rest) and no locals.
        case property
    }

    /// A `let` value in scope.
    struct Local {
        var name: String
        var slot: Int
        var type: ValueType
        var range: SourceRange
    }

    var kind: Kind
    /// The events whose payload is in scope (empty for entry/exit actions and timers).
    var events: [EventID] = []
    /// In a `done` / `done(x)` transition: the state whose completion it takes, whose
    /// fields (`Machine.completionFields`) are in scope like payload fields.
    var completion: StateID? = nil
    var locals: [Local] = []
}
