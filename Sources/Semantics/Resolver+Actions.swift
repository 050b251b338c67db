import StatecraftDiagnostics
import StatecraftModel
import StatecraftSyntax

extension Resolver {
    /// Resolves a block's actions. `let` values are visible to the actions after them in the
    /// same block and in blocks nested inside; `slots` counts the local slots used.
    mutating func resolveBlock(_ block: BlockSyntax, _ outer: Scope, slots: inout Int) -> [Action] {
        var scope = outer
        var actions: [Action] = []
        for action in block.actions {
            if let resolved = resolveAction(action, &scope, slots: &slots) { actions.append(resolved) }
        }
        return actions
    }

    private mutating func resolveAction(_ action: ActionSyntax, _ scope: inout Scope, slots: inout Int) -> Action? {
        switch action {
        case .assign(let target, let op, let valueSyntax, let range):
            let value = resolveExpr(valueSyntax, scope)
            guard let variable = assignableVariable(target, scope) else { return nil }
            // Its type is unknown (reported at the declaration): nothing to check against.
            if untypedVariables.contains(variable.index) { return nil }
            let type = machine.variables[variable.index].type
            let binary: BinaryOp? = switch op {
            case .assign: nil
            case .add: .add
            case .subtract: .subtract
            case .multiply: .multiply
            case .divide: .divide
            }
            if let binary, !(type == .number || (type == .string && binary == .add)) {
                report(.typeMismatch, "'\(op.rawValue)' needs a 'Number' variable, but '\(target.name)' is '\(type.rawValue)'",
                       at: target.range)
                return nil
            }
            if !value.isInvalid && value.type != type {
                report(.typeMismatch, "cannot assign '\(value.type.rawValue)' to '\(target.name)' of type '\(type.rawValue)'",
                       at: valueSyntax.range)
                return nil
            }
            return .assign(variable, op: binary, value, range: range)
        case .emit(let name, let argumentSyntax, let range):
            let arguments = argumentSyntax.map { resolveExpr($0, scope) }
            guard let id = outputIDs[name.name] else {
                report(.unknownOutput, "unknown output '\(name.name)'", at: name.range,
                       notes: suggestion(for: name.name, among: outputIDs.keys, at: name.range))
                return nil
            }
            let output = machine.outputs[id.index]
            guard argumentsFit(arguments, argumentSyntax, of: name, kind: "output", fields: output.fields, declaredAt: output.range,
                               untyped: Set(output.fields.map(\.name).filter {
                                   untypedOutputFields.contains(UntypedField(owner: id.index, name: $0))
                               }),
                               statementRange: range) else { return nil }
            return .emit(id, arguments, range: range)
        case .raise(let name, let argumentSyntax, let range):
            guard let (id, arguments) = resolveEventArguments(name, argumentSyntax, scope, statementRange: range) else { return nil }
            return .raise(id, arguments, range: range)
        case .send(let name, let argumentSyntax, let delaySyntax, let range):
            guard let delay = resolveSendDelay(delaySyntax, scope) else { return nil }
            guard let (id, arguments) = resolveEventArguments(name, argumentSyntax, scope, statementRange: range) else { return nil }
            return .send(id, arguments, delay: delay, range: range)
        case .sendNamed(let nameSyntax, let delaySyntax, let range):
            guard let delay = resolveSendDelay(delaySyntax, scope) else { return nil }
            let name = resolveExpr(nameSyntax, scope)
            if name.isInvalid { return nil }
            // The parser only takes a string literal here, and interpolation turns any value
            // into text; kept for a model built another way.
            guard name.type == .string else {
                report(.typeMismatch, "the event of a send by name must be a 'String', found '\(name.type.rawValue)'",
                       at: nameSyntax.range)
                return nil
            }
            // A plain literal is known now: it must name an event a send by name can send.
            if case .literal(.string(let text)) = name.kind, !namedSendFits(text, at: nameSyntax.range) { return nil }
            return .sendNamed(name, delay: delay, range: range)
        case .cancel(let name, let range):
            guard let id = knownEvent(name) else { return nil }
            return .cancel(id, range: range)
        case .letValue(let name, let valueSyntax, let range):
            let value = resolveExpr(valueSyntax, scope)
            if let clash = clashingName(name.name, scope) {
                report(.shadowedName, "'\(name.name)' is already \(clash.0)", at: name.range,
                       notes: clash.1.map { [DiagnosticNote("'\(name.name)' is declared here", at: $0)] } ?? [])
                return nil
            }
            let slot = slots
            slots += 1
            scope.locals.append(Scope.Local(name: name.name, slot: slot, type: value.type, range: name.range))
            if value.isInvalid {
                // Keep the name declared (so later uses do not cascade) but typed as invalid.
                scope.locals[scope.locals.count - 1].slot = -1
            }
            return .setLocal(slot, value, range: range)
        case .ifAction(let conditionSyntax, let then, let otherwise, let range):
            var condition = resolveExpr(conditionSyntax, scope)
            if !condition.isInvalid && condition.type != .bool {
                report(.typeMismatch, "an 'if' condition must be 'Bool', found '\(condition.type.rawValue)'",
                       at: conditionSyntax.range)
                condition = invalid(conditionSyntax.range)
            }
            let thenActions = resolveBlock(then, scope, slots: &slots)
            let elseActions = otherwise.map { resolveBlock($0, scope, slots: &slots) } ?? []
            return .ifAction(condition, then: thenActions, otherwise: elseActions, range: range)
        }
    }

    /// The event a `raise` or `send` names, with its arguments resolved and checked
    /// against the event's fields; nil after reporting what is wrong.
    private mutating func resolveEventArguments(_ name: Identifier, _ argumentSyntax: [ExprSyntax], _ scope: Scope,
                                                statementRange range: SourceRange) -> (EventID, [Expr])? {
        let arguments = argumentSyntax.map { resolveExpr($0, scope) }
        guard let id = knownEvent(name) else { return nil }
        let event = machine.events[id.index]
        guard argumentsFit(arguments, argumentSyntax, of: name, kind: "event", fields: event.fields, declaredAt: event.range,
                           untyped: Set(event.fields.map(\.name).filter {
                               untypedEventFields.contains(UntypedField(owner: id.index, name: $0))
                           }),
                           statementRange: range) else { return nil }
        return (id, arguments)
    }

    /// A send's `after d`, which must be a Number of seconds: `.some(nil)` without one, nil
    /// after reporting one of another type.
    private mutating func resolveSendDelay(_ syntax: ExprSyntax?, _ scope: Scope) -> Expr?? {
        guard let syntax else { return .some(nil) }
        let expr = resolveExpr(syntax, scope)
        if !expr.isInvalid && expr.type != .number {
            report(.typeMismatch, "a delay must be a 'Number' of seconds, found '\(expr.type.rawValue)'", at: syntax.range)
            return nil
        }
        return .some(expr)
    }

    /// Whether `send "text"` sends an event: `text` is a name a log may give an event
    /// (its name, its external name, or an extension of an `as "x.*"` name) and that event
    /// has no payload fields; false after reporting why not.
    private mutating func namedSendFits(_ text: String, at range: SourceRange) -> Bool {
        guard let id = LogNameTable(machine).event(text) else {
            report(.unknownEvent, "send \"\(text)\": '\(text)' is not an event of this machine", at: range,
                   notes: suggestion(for: text, among: machine.logNames.map(\.name), at: range))
            return false
        }
        let event = machine.events[id.index]
        guard event.fields.isEmpty else {
            report(.argumentCount, "send \"\(text)\": event '\(event.name)' has fields, and a send by name carries none",
                   at: range, notes: [DiagnosticNote("'\(event.name)' is declared here", at: event.range)])
            return false
        }
        return true
    }

    /// The declared event `name`, or nil after reporting it unknown.
    private mutating func knownEvent(_ name: Identifier) -> EventID? {
        guard let id = eventIDs[name.name] else {
            report(.unknownEvent, "unknown event '\(name.name)'", at: name.range,
                   notes: suggestion(for: name.name, among: eventIDs.keys, at: name.range))
            return nil
        }
        return id
    }

    /// The variable an assignment writes, or nil after reporting why it cannot be written.
    private mutating func assignableVariable(_ target: Identifier, _ scope: Scope) -> VariableID? {
        if let local = scope.locals.last(where: { $0.name == target.name }) {
            report(.assignToPayload, "cannot assign to '\(target.name)': 'let' values cannot change", at: target.range,
                   notes: [DiagnosticNote("'\(target.name)' is declared here", at: local.range)])
            return nil
        }
        if let event = scope.events.first(where: { machine.events[$0.index].fieldIndex(target.name) != nil }) {
            report(.assignToPayload,
                   "cannot assign to '\(target.name)': it is a payload field of event '\(machine.events[event.index].name)'",
                   at: target.range)
            return nil
        }
        if let x = scope.completion, machine.completionFields(x).contains(where: { $0.name == target.name }) {
            report(.assignToPayload,
                   "cannot assign to '\(target.name)': it is a field of the completion of '\(machine[x].name)'",
                   at: target.range)
            return nil
        }
        switch values[target.name] {
        case .variable(let id):
            return id
        case .constant(let id):
            report(.assignToConstant, "cannot assign to constant '\(target.name)'", at: target.range,
                   notes: [DiagnosticNote("'\(target.name)' is declared here", at: machine.constants[id.index].range)])
        case .pi:
            report(.assignToConstant, "cannot assign to the built-in constant 'pi'", at: target.range)
        case nil:
            report(.unknownName, "unknown variable '\(target.name)'", at: target.range,
                   notes: suggestion(for: target.name, among: machine.variables.map(\.name), at: target.range))
        }
        return nil
    }

    /// What a new `let` name would collide with, and where that is declared.
    private func clashingName(_ name: String, _ scope: Scope) -> (String, SourceRange?)? {
        if let local = scope.locals.last(where: { $0.name == name }) { return ("declared with 'let'", local.range) }
        for event in scope.events {
            if let i = machine.events[event.index].fieldIndex(name) {
                return ("a payload field of event '\(machine.events[event.index].name)'",
                        machine.events[event.index].fields[i].range)
            }
        }
        if let x = scope.completion, let field = machine.completionFields(x).first(where: { $0.name == name }) {
            return ("a field of the completion of '\(machine[x].name)'", field.range)
        }
        switch values[name] {
        case .variable(let id): return ("a variable", machine.variables[id.index].range)
        case .constant(let id): return ("a constant", machine.constants[id.index].range)
        case .pi: return ("the built-in constant", nil)
        case nil: return nil
        }
    }

    func plural(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }

    /// Whether `arguments` fit `fields` (an `emit`'s output, a `raise`'s event): as many,
    /// each of its field's type; reports the first mismatch. A field of unknown type
    /// (already reported) takes anything.
    private mutating func argumentsFit(_ arguments: [Expr], _ syntax: [ExprSyntax], of name: Identifier, kind: String,
                                       fields: [Field], declaredAt declaration: SourceRange,
                                       untyped: Set<String>, statementRange range: SourceRange) -> Bool {
        guard fields.count == arguments.count else {
            report(.argumentCount,
                   "\(kind) '\(name.name)' takes \(plural(fields.count, "argument")), found \(arguments.count)",
                   at: syntax.isEmpty ? name.range : SourceRange(syntax[0].range.start, range.end),
                   notes: [DiagnosticNote("'\(name.name)' is declared here", at: declaration)])
            return false
        }
        for (argument, field) in zip(arguments, fields) where !argument.isInvalid && argument.type != field.type
            && !untyped.contains(field.name) {
            report(.typeMismatch,
                   "argument '\(field.name)' of '\(name.name)' must be '\(field.type.rawValue)', found '\(argument.type.rawValue)'",
                   at: argument.range)
            return false
        }
        return true
    }
}
