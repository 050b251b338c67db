import StatecraftDiagnostics
import StatecraftModel
import StatecraftSyntax

extension Resolver {
    /// Resolves names and checks types. A node that fails becomes `.invalid` after one
    /// diagnostic; nodes above an invalid one stay quiet, so one mistake gives one error.
    mutating func resolveExpr(_ e: ExprSyntax, _ scope: Scope) -> Expr {
        switch e.kind {
        case .number(let n): return Expr(.literal(.number(n)), type: .number, range: e.range)
        case .string(let s): return Expr(.literal(.string(s)), type: .string, range: e.range)
        case .bool(let b): return Expr(.literal(.bool(b)), type: .bool, range: e.range)
        case .bad: return invalid(e.range)
        case .paren(let inner):
            var resolved = resolveExpr(inner, scope)
            resolved.range = e.range
            return resolved
        case .name(let name): return resolveName(name, e.range, scope)
        case .call(let function, let args): return resolveCall(function, args, e.range, scope)
        case .unary(let op, let operand):
            let x = resolveExpr(operand, scope)
            if x.isInvalid { return invalid(e.range) }
            let (modelOp, want): (UnaryOp, ValueType) = op == .not ? (.not, .bool) : (.negate, .number)
            guard x.type == want else {
                report(.typeMismatch, "'\(op.rawValue)' needs a '\(want.rawValue)' operand, found '\(x.type.rawValue)'",
                       at: operand.range)
                return invalid(e.range)
            }
            return Expr(.unary(modelOp, x), type: want, range: e.range)
        case .binary(let op, let lhs, let rhs):
            return resolveBinary(op, lhs, rhs, e.range, scope)
        case .conditional(let c, let t, let f):
            let condition = resolveExpr(c, scope)
            let then = resolveExpr(t, scope)
            let otherwise = resolveExpr(f, scope)
            if !condition.isInvalid && condition.type != .bool {
                report(.typeMismatch, "the condition of '?:' must be 'Bool', found '\(condition.type.rawValue)'",
                       at: c.range)
                return invalid(e.range)
            }
            if condition.isInvalid || then.isInvalid || otherwise.isInvalid { return invalid(e.range) }
            guard then.type == otherwise.type else {
                report(.typeMismatch,
                       "both branches of '?:' must have one type; found '\(then.type.rawValue)' and '\(otherwise.type.rawValue)'",
                       at: f.range)
                return invalid(e.range)
            }
            return Expr(.conditional(condition, then, otherwise), type: then.type, range: e.range)
        case .interpolation(let pieces):
            // `"a \(x) b"` is `"a " + text(x) + " b"`.
            var result: Expr?
            var failed = false
            for piece in pieces {
                let part: Expr
                switch piece {
                case .text(let s):
                    part = Expr(.literal(.string(s)), type: .string, range: e.range)
                case .expression(let syntax):
                    let value = resolveExpr(syntax, scope)
                    if value.isInvalid { failed = true }
                    part = value.type == .string ? value : Expr(.text(value), type: .string, range: syntax.range)
                }
                result = result.map { Expr(.binary(.add, $0, part), type: .string, range: e.range) } ?? part
            }
            if failed { return invalid(e.range) }
            return result ?? Expr(.literal(.string("")), type: .string, range: e.range)
        }
    }

    private mutating func resolveName(_ name: String, _ range: SourceRange, _ scope: Scope) -> Expr {
        if let local = scope.locals.last(where: { $0.name == name }) {
            if local.slot < 0 { return invalid(range) }
            return Expr(.local(local.slot), type: local.type, range: range)
        }
        if case .behaviour = scope.kind, let field = payloadField(name, range, scope) {
            return field
        }
        if case .behaviour = scope.kind, let x = scope.completion,
           let field = machine.completionFields(x).first(where: { $0.name == name }) {
            // A value that did not resolve was reported where it is written.
            if completionFieldIsUntyped(x, name) { return invalid(range) }
            return Expr(.field(name), type: field.type, range: range)
        }
        switch values[name] {
        case .pi:
            return Expr(.pi, type: .number, range: range)
        case .constant(let id):
            if case .constantValue(let visible) = scope.kind, id.index >= visible {
                report(.useBeforeDeclaration, "constant '\(name)' is used before its declaration", at: range,
                       notes: [DiagnosticNote("'\(name)' is declared here", at: machine.constants[id.index].range)])
                return invalid(range)
            }
            return Expr(.constant(id), type: machine.constants[id.index].value.type, range: range)
        case .variable(let id):
            if case .constantValue = scope.kind {
                report(.nonConstantValue, "variable '\(name)' cannot be used here: the value must be constant",
                       at: range)
                return invalid(range)
            }
            // A variable whose type is unknown was reported at its declaration; its uses
            // check as anything, so that one misspelt type is one error.
            if untypedVariables.contains(id.index) { return invalid(range) }
            return Expr(.variable(id), type: machine.variables[id.index].type, range: range)
        case nil:
            var candidates = Array(values.keys) + scope.locals.map(\.name)
            for event in scope.events { candidates += machine.events[event.index].fields.map(\.name) }
            if let x = scope.completion { candidates += machine.completionFields(x).map(\.name) }
            let notes = suggestion(for: name, among: candidates, at: range)
            if case .property = scope.kind, let (event, field) = payloadFieldNamed(name) {
                report(.propertyReadsPayload,
                       "a property reads no event payload: '\(name)' is a field of event '\(event.name)'", at: range,
                       notes: [DiagnosticNote("'\(name)' is declared here", at: field.range)])
            } else if let x = scope.completion, finalStateGiving(name) != nil || !machine.completionFields(x).isEmpty {
                // A name no declaration has, in a `done` whose completion carries values or
                // where some final state gives that name: a completion field, misread.
                let why = machine.isParallel(x)
                    ? "'\(machine[x].name)' is a parallel state, and a parallel state's completion carries no data"
                    : machine.completionFields(x).isEmpty
                        ? "no final state of '\(machine[x].name)' gives values"
                        : "its final states give \(machine.completionFields(x).map { "'\($0.name)'" }.joined(separator: ", "))"
                var notes = notes
                if let f = finalStateGiving(name) {
                    notes.append(DiagnosticNote("'\(name)' is given by final state '\(machine[f].name)'",
                                                at: machine[f].doneData.first { $0.name == name }?.range))
                }
                report(.doneFieldNotCarried, "the completion of '\(machine[x].name)' carries no field '\(name)': \(why)",
                       at: range, notes: notes)
            } else if BuiltinFunction(rawValue: name) != nil {
                report(.unknownName, "'\(name)' is a function; call it with arguments, as in '\(name)(…)'", at: range)
            } else {
                report(.unknownName, "unknown name '\(name)'", at: range, notes: notes)
            }
            return invalid(range)
        }
    }

    /// The first final state (in document order) that gives a field called `name`.
    private func finalStateGiving(_ name: String) -> StateID? {
        machine.states.first { $0.doneData.contains { $0.name == name } }?.id
    }

    /// Whether the value of field `name` of `x`'s completion did not resolve (reported there).
    private func completionFieldIsUntyped(_ x: StateID, _ name: String) -> Bool {
        guard let f = machine.childStates(x).first(where: { machine[$0].isFinal }) else { return false }
        return machine[f].doneData.first { $0.name == name }?.value.isInvalid ?? false
    }

    /// The first event (in declaration order) with a payload field called `name`, and that field.
    private func payloadFieldNamed(_ name: String) -> (Event, Field)? {
        for event in machine.events {
            if let index = event.fieldIndex(name) { return (event, event.fields[index]) }
        }
        return nil
    }

    /// A payload field visible in a transition: it must be declared, with one type, by
    /// every event of the trigger.
    private mutating func payloadField(_ name: String, _ range: SourceRange, _ scope: Scope) -> Expr? {
        let events = scope.events.map { machine.events[$0.index] }
        let having = events.filter { $0.fieldIndex(name) != nil }
        guard let first = having.first, let firstIndex = first.fieldIndex(name) else { return nil }
        let type = first.fields[firstIndex].type
        if let lacking = events.first(where: { $0.fieldIndex(name) == nil }) {
            report(.fieldNotInEvent, "payload field '\(name)' is not declared by event '\(lacking.name)'",
                   at: range, notes: [DiagnosticNote("'\(lacking.name)' is declared here", at: lacking.range)])
            return invalid(range)
        }
        if let other = events.first(where: { e in e.fieldIndex(name).map { e.fields[$0].type != type } ?? false }) {
            report(.fieldNotInEvent,
                   "payload field '\(name)' has different types in events '\(first.name)' and '\(other.name)'", at: range)
            return invalid(range)
        }
        if events.contains(where: { untypedEventFields.contains(UntypedField(owner: $0.id.index, name: name)) }) {
            return invalid(range)
        }
        return Expr(.field(name), type: type, range: range)
    }

    private mutating func resolveCall(_ function: Identifier, _ argumentSyntax: [ExprSyntax], _ range: SourceRange,
                                      _ scope: Scope) -> Expr {
        // `in(x)` parses as a call; its argument is a state name, not a value.
        if function.name == "in" { return resolveInState(argumentSyntax, range, scope) }
        let arguments = argumentSyntax.map { resolveExpr($0, scope) }
        guard let builtin = BuiltinFunction(rawValue: function.name) else {
            report(.unknownFunction, "unknown function '\(function.name)'", at: function.range,
                   notes: suggestion(for: function.name, among: BuiltinFunction.allCases.map(\.rawValue), at: function.range))
            return invalid(range)
        }
        let countOK = builtin.isVariadic ? arguments.count >= builtin.arity : arguments.count == builtin.arity
        guard countOK else {
            let wanted = builtin.isVariadic ? "\(builtin.arity) or more arguments" : plural(builtin.arity, "argument")
            report(.argumentCount, "'\(builtin.rawValue)' takes \(wanted), found \(arguments.count)", at: range)
            return invalid(range)
        }
        if arguments.contains(where: \.isInvalid) { return invalid(range) }
        if let bad = arguments.first(where: { $0.type != .number }) {
            report(.typeMismatch, "'\(builtin.rawValue)' takes 'Number' arguments, found '\(bad.type.rawValue)'", at: bad.range)
            return invalid(range)
        }
        return Expr(.call(builtin, arguments), type: .number, range: range)
    }

    /// `in(x)`: whether state `x` is active now; `x` is a state's name.
    private mutating func resolveInState(_ argumentSyntax: [ExprSyntax], _ range: SourceRange, _ scope: Scope) -> Expr {
        guard argumentSyntax.count == 1, let argument = argumentSyntax.first else {
            report(.argumentCount, "'in' takes 1 state name, found \(argumentSyntax.count) arguments", at: range)
            return invalid(range)
        }
        guard case .name(let name) = argument.kind else {
            report(.typeMismatch, "'in' takes the name of a state, found an expression", at: argument.range)
            return invalid(range)
        }
        guard let state = stateIDs[name] else {
            report(.unknownState, "unknown state '\(name)'", at: argument.range,
                   notes: suggestion(for: name, among: stateIDs.keys, at: argument.range))
            return invalid(range)
        }
        if machine[state].isHistory {
            report(.historyNeverActive, "'in(\(name))' is always false: history state '\(name)' is never active",
                   at: argument.range,
                   notes: [DiagnosticNote("'\(name)' is declared here", at: machine[state].range)])
            return invalid(range)
        }
        if case .constantValue = scope.kind {
            report(.nonConstantValue, "'in(\(name))' cannot be used here: the value must be constant", at: range)
            return invalid(range)
        }
        return Expr(.inState(state), type: .bool, range: range)
    }

    private mutating func resolveBinary(_ op: BinaryOperator, _ lhs: ExprSyntax, _ rhs: ExprSyntax,
                                        _ range: SourceRange, _ scope: Scope) -> Expr {
        let l = resolveExpr(lhs, scope)
        let r = resolveExpr(rhs, scope)
        guard let modelOp = BinaryOp(rawValue: op.rawValue) else { return invalid(range) }
        if l.isInvalid || r.isInvalid { return invalid(range) }
        let resultType: ValueType
        switch modelOp {
        case .and, .or:
            guard expectOperand(l, lhs, .bool, op), expectOperand(r, rhs, .bool, op) else { return invalid(range) }
            resultType = .bool
        case .equal, .notEqual:
            guard l.type == r.type else {
                report(.typeMismatch, "cannot compare '\(l.type.rawValue)' with '\(r.type.rawValue)' using '\(op.rawValue)'",
                       at: rhs.range)
                return invalid(range)
            }
            resultType = .bool
        case .less, .lessEqual, .greater, .greaterEqual:
            guard expectOperand(l, lhs, .number, op), expectOperand(r, rhs, .number, op) else { return invalid(range) }
            resultType = .bool
        case .add where l.type == .string && r.type == .string:
            resultType = .string
        case .add where l.type == .string:
            // `"Wrong password " + attempts`: say how to put a value into a string.
            let (other, syntax) = (r, rhs)
            let name = String(decoding: file.bytes[syntax.range.start..<syntax.range.end], as: UTF8.self)
            report(.typeMismatch, "'+' joins two 'String's, found 'String' and '\(other.type.rawValue)'", at: syntax.range,
                   notes: [DiagnosticNote("to put a value into a string, interpolate it: \"…\\(\(name))…\"", at: syntax.range)])
            return invalid(range)
        case .add, .subtract, .multiply, .divide, .remainder:
            guard expectOperand(l, lhs, .number, op), expectOperand(r, rhs, .number, op) else { return invalid(range) }
            resultType = .number
        }
        return Expr(.binary(modelOp, l, r), type: resultType, range: range)
    }

    private mutating func expectOperand(_ e: Expr, _ syntax: ExprSyntax, _ type: ValueType, _ op: BinaryOperator) -> Bool {
        guard e.type != type else { return true }
        report(.typeMismatch, "'\(op.rawValue)' needs '\(type.rawValue)' operands, found '\(e.type.rawValue)'",
               at: syntax.range)
        return false
    }
}
