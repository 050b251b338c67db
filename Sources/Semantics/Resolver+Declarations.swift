import StatecraftDiagnostics
import StatecraftModel
import StatecraftSyntax

extension Resolver {
    /// First pass: gives every declaration an id, reporting duplicates per namespace.
    mutating func declareMembers() {
        for member in decl.members {
            switch member {
            case .constant(let c):
                guard declareValue(c.name, kind: "constant") else { continue }
                let id = ConstantID(machine.constants.count)
                values[c.name.name] = .constant(id)
                machine.constants.append(Constant(id: id, name: c.name.name, value: .number(0),
                                                  definition: invalid(c.value.range), range: c.name.range))
                constantDecls.append(c)
            case .variable(let v):
                guard declareValue(v.name, kind: "variable") else { continue }
                let id = VariableID(machine.variables.count)
                values[v.name.name] = .variable(id)
                var type = ValueType.number
                if let ref = v.type, let t = resolveType(ref) { type = t } else { untypedVariables.insert(id.index) }
                machine.variables.append(Variable(id: id, name: v.name.name, type: type, isPublic: v.isPublic, initialValue: .number(0),
                                                  initializer: invalid(v.initialValue.range), range: v.name.range))
                variableDecls.append(v)
            case .event(let e):
                if let earlier = eventIDs[e.name.name] {
                    duplicate(e.name, kind: "event", earlier: machine.events[earlier.index].range)
                    continue
                }
                let id = EventID(machine.events.count)
                eventIDs[e.name.name] = id
                let (fields, untyped) = resolveFields(e.fields)
                for name in untyped { untypedEventFields.insert(UntypedField(owner: id.index, name: name)) }
                let external = e.externalName.flatMap { resolveExternalName($0) }
                machine.events.append(Event(id: id, name: e.name.name, fields: fields, range: e.name.range,
                                            externalName: external))
            case .output(let o):
                if let earlier = outputIDs[o.name.name] {
                    duplicate(o.name, kind: "output", earlier: machine.outputs[earlier.index].range)
                    continue
                }
                let id = OutputID(machine.outputs.count)
                outputIDs[o.name.name] = id
                let (fields, untyped) = resolveFields(o.fields)
                for name in untyped { untypedOutputFields.insert(UntypedField(owner: id.index, name: name)) }
                machine.outputs.append(Output(id: id, name: o.name.name, fields: fields, range: o.name.range))
            case .state(let s):
                declareState(s, parent: machine.root)
            case .initialTargets(let d):
                rootInitialTargets.append(d)
            case .property(let p):
                propertyDecls.append(p)
            }
        }
        checkExternalNames()
    }

    /// The external name after `as`, or nil (reported) when the string is not an event name.
    private mutating func resolveExternalName(_ syntax: ExternalNameSyntax) -> ExternalName? {
        switch ExternalName.parse(syntax.text, range: syntax.range) {
        case .success(let name):
            return name
        case .failure(let problem):
            report(.invalidExternalName, "\"\(syntax.text)\" is not an event name other systems can use: \(problem.reason); "
                   + "write dot-separated words such as \"watch.reset\", optionally ending in '.*'", at: syntax.range)
            return nil
        }
    }

    /// A log line names one event: no two events answer to the same name, whether it is an
    /// external name (with or without `.*`) or a declared one. An event may repeat its own
    /// name (`event DIGIT as "DIGIT.*"`).
    private mutating func checkExternalNames() {
        var owner: [String: (event: Int, range: SourceRange, external: Bool)] = [:]
        for event in machine.events { owner[event.name] = (event.id.index, event.range, false) }
        for event in machine.events {
            guard let external = event.externalName else { continue }
            if let earlier = owner[external.name], earlier.event != event.id.index {
                let other = machine.events[earlier.event].name
                let what = earlier.external ? "the external name of event '\(other)'" : "the name of event '\(other)'"
                report(.externalNameClash,
                       "event '\(event.name)' cannot be called \"\(external.name)\" in logs: that is already \(what)",
                       at: external.range,
                       notes: [DiagnosticNote(earlier.external ? "'\(other)' is called \"\(external.name)\" here"
                                                               : "'\(other)' is declared here", at: earlier.range)])
                continue
            }
            if owner[external.name] == nil { owner[external.name] = (event.id.index, external.range, true) }
        }
    }

    private mutating func declareValue(_ name: Identifier, kind: String) -> Bool {
        switch values[name.name] {
        case nil:
            return true
        case .pi:
            report(.duplicateDeclaration, "'pi' is a built-in constant and cannot be redeclared", at: name.range)
        case .constant(let id):
            duplicate(name, kind: kind, earlier: machine.constants[id.index].range)
        case .variable(let id):
            duplicate(name, kind: kind, earlier: machine.variables[id.index].range)
        }
        return false
    }

    mutating func duplicate(_ name: Identifier, kind: String, earlier: SourceRange) {
        report(.duplicateDeclaration, "\(kind) '\(name.name)' is already declared", at: name.range,
               notes: [DiagnosticNote("'\(name.name)' is first declared here", at: earlier)])
    }

    mutating func resolveType(_ type: TypeRef) -> ValueType? {
        if let t = ValueType(spelling: type.name.name) { return t }
        // Swift's numeric types all mean 'Number' here (a 64-bit floating-point value).
        let swiftNumbers: Set = ["Int", "Double", "Float", "CGFloat", "TimeInterval", "Int8", "Int16", "Int32", "Int64",
                                 "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Float32", "Float64", "Decimal"]
        let notes = swiftNumbers.contains(type.name.name)
            ? [DiagnosticNote("use 'Number': every number in a spec is a 64-bit floating-point value, as a Swift 'Double'",
                              at: type.name.range)]
            : type.name.name == "Boolean" ? [DiagnosticNote("did you mean 'Bool'?", at: type.name.range)]
            : suggestion(for: type.name.name, among: ValueType.allCases.map(\.rawValue), at: type.name.range)
        report(.unknownType, "unknown type '\(type.name.name)'; expected 'Number', 'Bool' or 'String'",
               at: type.name.range, notes: notes)
        return nil
    }

    /// The fields, and the names of those whose type is unknown.
    private mutating func resolveFields(_ fields: [FieldDecl]) -> ([Field], [String]) {
        var result: [Field] = []
        var untyped: [String] = []
        for f in fields {
            if let earlier = result.first(where: { $0.name == f.name.name }) {
                duplicate(f.name, kind: "field", earlier: earlier.range)
                continue
            }
            let type = resolveType(f.type)
            if type == nil { untyped.append(f.name.name) }
            result.append(Field(name: f.name.name, type: type ?? .number, range: f.name.range,
                                isPrivate: f.privateMark != nil))
        }
        return (result, untyped)
    }

    /// Adds a state and its children to the tree, in document order (a parent before its
    /// children), which the model's tree rules rely on. What the state is follows from its
    /// modifiers and children; whether that shape is allowed is checked afterwards
    /// (`checkStateTree`), once every name is known.
    mutating func declareState(_ s: StateDecl, parent: StateID) {
        if let earlier = stateIDs[s.name.name] {
            duplicate(s.name, kind: "state", earlier: machine.states[earlier.index].range)
            return
        }
        let id = StateID(machine.states.count)
        stateIDs[s.name.name] = id
        let kind: State.Kind
        if s.modifier(.history) != nil {
            kind = .history
        } else if s.modifier(.parallel) != nil {
            kind = .parallel
        } else if s.modifier(.final) != nil {
            kind = .final
        } else {
            kind = s.children.contains { $0.modifier(.history) == nil } ? .compound : .atomic
        }
        var state = State(id: id, name: s.name.name, kind: kind, parent: parent, range: s.name.range)
        state.isDeepHistory = kind == .history && s.modifier(.deep) != nil
        machine.states.append(state)
        machine.states[parent.index].children.append(id)
        stateDecls.append(s)
        for child in s.children { declareState(child, parent: id) }
        // Children dropped as duplicates leave a state with none: it is a leaf after all.
        if kind == .compound && machine.childStates(id).isEmpty { machine.states[id.index].kind = .atomic }
    }

    /// Reports payload fields named like a constant or variable: inside a transition on the
    /// event the field would hide it.
    mutating func checkFieldShadowing() {
        for event in machine.events {
            for field in event.fields {
                guard let symbol = values[field.name] else { continue }
                let (kind, range): (String, SourceRange?) = switch symbol {
                case .pi: ("the built-in constant", nil)
                case .constant(let id): ("constant", machine.constants[id.index].range)
                case .variable(let id): ("variable", machine.variables[id.index].range)
                }
                report(.shadowedName,
                       "payload field '\(field.name)' of event '\(event.name)' has the name of \(kind) '\(field.name)'",
                       at: field.range,
                       notes: range.map { [DiagnosticNote("'\(field.name)' is declared here", at: $0)] } ?? [])
            }
        }
    }

    /// Resolves each constant's definition in order; a constant may use those above it.
    mutating func resolveConstants() {
        for (index, c) in constantDecls.enumerated() {
            let scope = Scope(kind: .constantValue(visibleConstants: index))
            var expr = resolveExpr(c.value, scope)
            if let ref = c.type, let declared = resolveType(ref), !expr.isInvalid, expr.type != declared {
                report(.typeMismatch, "constant '\(c.name.name)' is declared '\(declared.rawValue)' but its value is '\(expr.type.rawValue)'",
                       at: c.value.range)
                expr = invalid(c.value.range)
            }
            machine.constants[index].definition = expr
            machine.constants[index].value = foldedValue(expr, what: "constant '\(c.name.name)'")
        }
    }

    /// Resolves each variable's initial value: a constant expression of the declared type.
    mutating func resolveVariables() {
        let scope = Scope(kind: .constantValue(visibleConstants: machine.constants.count))
        for (index, v) in variableDecls.enumerated() {
            var expr = resolveExpr(v.initialValue, scope)
            let type = machine.variables[index].type
            if untypedVariables.contains(index) {
                expr = invalid(v.initialValue.range)
            } else if !expr.isInvalid && expr.type != type {
                report(.typeMismatch, "initial value of '\(v.name.name)' must be '\(type.rawValue)', found '\(expr.type.rawValue)'",
                       at: v.initialValue.range)
                expr = invalid(v.initialValue.range)
            }
            machine.variables[index].initializer = expr
            let value = foldedValue(expr, what: "the initial value of '\(v.name.name)'")
            machine.variables[index].initialValue = value.type == type ? value : type.zero
        }
    }

    mutating func foldedValue(_ expr: Expr, what: String) -> Value {
        if expr.isInvalid { return expr.type.zero }
        if let value = expr.folded(constants: machine.constantValues) { return value }
        report(.nonConstantValue, "\(what) cannot be computed: it divides by zero or is not a finite number",
               at: expr.range)
        return expr.type.zero
    }

    func invalid(_ range: SourceRange) -> Expr { Expr(.invalid, type: .number, range: range) }
}

extension Expr {
    /// Whether this node itself failed to resolve.
    var isInvalid: Bool {
        if case .invalid = kind { return true }
        return false
    }
}
