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
    var locals: [Local] = []
}
