import StatecraftDiagnostics
import StatecraftModel
import StatecraftSyntax

extension Resolver {
    /// Resolves every `property` in the order written. Their expressions see variables,
    /// constants and `in(state)` (`Scope.Kind.property`); a deadline is a constant number of
    /// seconds, written as a timer's delay is (`10s`, `300ms`, a constant).
    mutating func resolveProperties() {
        var seen: [String: SourceRange] = [:]
        for decl in propertyDecls {
            if let earlier = seen[decl.name.name] {
                duplicate(decl.name, kind: "property", earlier: earlier)
                continue
            }
            seen[decl.name.name] = decl.name.range
            var broken = false
            var deadlineExpr: Expr?
            let form: Property.Form
            switch decl.form {
            case .invariant(let isAlways, _, let condition, _, let guardSyntax):
                let x = resolvePropertyCondition(condition, broken: &broken)
                let g = guardSyntax.map { resolvePropertyCondition($0, broken: &broken) }
                form = isAlways ? .always(x, while: g) : .never(x, while: g)
            case .response(_, let entering, let trigger, _, let deadlineSyntax, let response):
                let resolvedTrigger = resolveResponseTrigger(trigger, entering: entering != nil, broken: &broken)
                let (seconds, expr) = resolveDeadline(deadlineSyntax, broken: &broken)
                deadlineExpr = expr
                form = .response(resolvedTrigger, deadline: seconds, resolvePropertyCondition(response, broken: &broken))
            case .precedence(let x, _, _, let y):
                form = .precedence(resolvePropertyCondition(x, broken: &broken),
                                   onlyAfter: resolvePropertyCondition(y, broken: &broken))
            case .reachable(_, _, let x):
                form = .reachable(resolvePropertyCondition(x, broken: &broken))
            }
            machine.properties.append(Property(
                name: decl.name.name, form: form, deadlineExpr: deadlineExpr,
                isBroken: broken, nameRange: decl.name.range, range: decl.range))
        }
    }

    /// One of a property's conditions: a `Bool` expression in the property scope.
    private mutating func resolvePropertyCondition(_ syntax: ExprSyntax, broken: inout Bool) -> Expr {
        let expr = resolveExpr(syntax, Scope(kind: .property))
        if expr.isInvalid {
            broken = true
            return expr
        }
        guard expr.type == .bool else {
            report(.typeMismatch, "a property's condition must be 'Bool', found '\(expr.type.rawValue)'", at: syntax.range)
            broken = true
            return invalid(syntax.range)
        }
        return expr
    }

    /// The event after `after`, or the state after `after entering`. An unknown name is
    /// reported as in a transition, with the same "did you mean".
    private mutating func resolveResponseTrigger(_ name: Identifier, entering: Bool,
                                                 broken: inout Bool) -> Property.Trigger {
        if entering {
            guard let id = stateIDs[name.name] else {
                report(.unknownState, "unknown state '\(name.name)'", at: name.range,
                       notes: suggestion(for: name.name, among: stateIDs.keys, at: name.range))
                broken = true
                return .entering(machine.root)
            }
            if machine[id].isHistory {
                report(.historyNeverActive, "'after entering \(name.name)' never starts: history state '\(name.name)' is never active",
                       at: name.range, notes: [DiagnosticNote("'\(name.name)' is declared here", at: machine[id].range)])
                broken = true
            }
            return .entering(id)
        }
        guard let id = eventIDs[name.name] else {
            report(.unknownEvent, "unknown event '\(name.name)'", at: name.range,
                   notes: suggestion(for: name.name, among: eventIDs.keys, at: name.range))
            broken = true
            return .event(EventID(0))
        }
        return .event(id)
    }

    /// A response's deadline in seconds: a constant `Number` expression, as a timer's delay
    /// is written (`10s`, `300ms`, a constant), zero or more.
    private mutating func resolveDeadline(_ syntax: ExprSyntax, broken: inout Bool) -> (Double, Expr) {
        var expr = resolveExpr(syntax, Scope(kind: .constantValue(visibleConstants: machine.constants.count)))
        if !expr.isInvalid && expr.type != .number {
            report(.typeMismatch, "a deadline must be a 'Number' of seconds, found '\(expr.type.rawValue)'",
                   at: syntax.range)
            expr = invalid(syntax.range)
        }
        if expr.isInvalid {
            broken = true
            return (0, expr)
        }
        guard case .number(let seconds)? = expr.folded(constants: machine.constantValues) else {
            _ = foldedValue(expr, what: "the deadline")  // says why it cannot be computed
            broken = true
            return (0, expr)
        }
        guard seconds.isFinite && seconds >= 0 else {
            report(.invalidDeadline, "a deadline must be zero or more seconds, found \(Value.number(seconds).description)",
                   at: syntax.range)
            broken = true
            return (0, expr)
        }
        return (seconds, expr)
    }
}
