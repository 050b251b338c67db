import StatecraftDiagnostics
import StatecraftModel
import StatecraftSyntax

extension Resolver {
    /// Resolves a state's entry and exit actions, the actions of its default entry
    /// (`initial -> a { … }`) and its transitions; for a history state, the actions of its
    /// default (`history state h -> c { … }`). A history state's body was reported
    /// (`checkStateTree`) and is not resolved: it is never active, so nothing in it could run.
    /// None of these blocks runs on one particular event, so none has a payload in scope.
    mutating func resolveStateBody(_ id: StateID) {
        guard let s = stateDecls[id.index] else { return }
        var slots = 0
        let plain = Scope(kind: .behaviour)
        if machine[id].isHistory {
            if let block = s.historyActions { machine.states[id.index].historyActions = resolveBlock(block, plain, slots: &slots) }
            return
        }
        machine.states[id.index].entry = s.entry.flatMap { resolveBlock($0.block, plain, slots: &slots) }
        machine.states[id.index].exit = s.exit.flatMap { resolveBlock($0.block, plain, slots: &slots) }
        if let block = s.initialTargets.first?.actions {
            machine.states[id.index].initialActions = resolveBlock(block, plain, slots: &slots)
        }
        // A nested final state is exited with its parent; only a top-level one ends the run.
        if machine.states[id.index].isFinal, machine[id].parent == machine.root, let exit = s.exit.first {
            report(.finalStateTransition, "final state '\(s.name.name)' is never left, so it cannot have exit actions",
                   at: exit.keywordRange,
                   notes: [DiagnosticNote("'\(s.name.name)' is declared final here", at: s.modifier(.final)?.range)])
        }
        for t in s.transitions {
            resolveTransition(t, from: id, decl: s)
        }
    }

    /// Resolves the values of every final state (`final state f(code: 200)`) and checks
    /// where they are written and that a state's final children agree on them. Done before
    /// any transition, so that a `done` anywhere in the machine sees its completion's fields.
    /// A value reads no payload: it is computed on entering the final state, on no event.
    mutating func resolveDoneData() {
        for index in 1..<max(1, machine.states.count) {
            guard let s = stateDecls[index], let data = s.doneData else { continue }
            let id = StateID(index)
            if !machine[id].isFinal {
                report(.doneDataMisplaced,
                       "only a final state carries values (its parent's completion does); '\(s.name.name)' is not final",
                       at: data.range)
                continue
            }
            if machine[id].parent == machine.root {
                report(.doneDataMisplaced,
                       "a top-level final state ends the run; nothing reads the values of '\(s.name.name)'",
                       at: data.range,
                       notes: [DiagnosticNote("'\(s.name.name)' is declared final here", at: s.modifier(.final)?.range)])
                continue
            }
            var fields: [DoneField] = []
            for field in data.fields {
                if let first = fields.first(where: { $0.name == field.name.name }) {
                    report(.duplicateDeclaration, "field '\(field.name.name)' is given twice in final state '\(s.name.name)'",
                           at: field.name.range, notes: [DiagnosticNote("first given here", at: first.range)])
                    continue
                }
                if let symbol = values[field.name.name] {
                    let (kind, range): (String, SourceRange?) = switch symbol {
                    case .pi: ("the built-in constant", nil)
                    case .constant(let c): ("constant", machine.constants[c.index].range)
                    case .variable(let v): ("variable", machine.variables[v.index].range)
                    }
                    report(.shadowedName,
                           "field '\(field.name.name)' of final state '\(s.name.name)' has the name of \(kind) '\(field.name.name)'",
                           at: field.name.range,
                           notes: range.map { [DiagnosticNote("'\(field.name.name)' is declared here", at: $0)] } ?? [])
                }
                let value = resolveExpr(field.value, Scope(kind: .behaviour))
                fields.append(DoneField(name: field.name.name, value: value, range: field.name.range))
            }
            machine.states[index].doneData = fields
        }
        checkDoneDataAgreement()
    }

    /// The final children of each compound state carry the same fields, in the same order,
    /// with the same types, or none of them carries any: a `done` reads one layout.
    private mutating func checkDoneDataAgreement() {
        for parent in machine.states where parent.kind == .compound && parent.id != machine.root {
            let finals = machine.childStates(parent.id).filter { machine[$0].isFinal }
            guard let first = finals.first else { continue }
            let expected = machine[first].doneData
            for f in finals.dropFirst() {
                let given = machine[f].doneData
                guard let problem = doneDataDifference(expected, given) else { continue }
                let at = problem.field?.range ?? stateDecls[f.index]?.doneData?.range ?? machine[f].range
                report(.doneDataMismatch,
                       "final state '\(machine[f].name)' \(problem.message), but '\(machine[first].name)' (the first final child of '\(parent.name)') \(problem.expected)",
                       at: at,
                       notes: [DiagnosticNote("'\(machine[first].name)' is declared here", at: machine[first].range)])
                break
            }
        }
    }

    /// How `given` differs from `expected`, if it does, at the first field that differs.
    private func doneDataDifference(_ expected: [DoneField], _ given: [DoneField])
        -> (field: DoneField?, message: String, expected: String)? {
        func type(_ f: DoneField) -> String? { f.value.isInvalid ? nil : f.value.type.rawValue }
        for k in 0..<max(expected.count, given.count) {
            guard k < given.count else {
                return (nil, given.isEmpty ? "carries no values" : "does not give field '\(expected[k].name)'",
                        "gives '\(expected[k].name)'")
            }
            guard k < expected.count else {
                return (given[k], "gives field '\(given[k].name)'",
                        expected.isEmpty ? "carries no values" : "does not")
            }
            if given[k].name != expected[k].name {
                return (given[k], "gives field '\(given[k].name)' in position \(k + 1)", "gives '\(expected[k].name)' there")
            }
            if let a = type(expected[k]), let b = type(given[k]), a != b {
                return (given[k], "gives field '\(given[k].name)' as '\(b)'", "gives it as '\(a)'")
            }
        }
        return nil
    }

    private mutating func resolveTransition(_ t: TransitionDecl, from source: StateID, decl: StateDecl) {
        var broken = false
        var scope = Scope(kind: .behaviour)
        let trigger = resolveTrigger(t, from: source, scope: &scope, broken: &broken)
        var guardExpr: Expr?
        if let g = t.guardExpr {
            var expr = resolveExpr(g, scope)
            if !expr.isInvalid && expr.type != .bool {
                report(.typeMismatch, "a guard must be 'Bool', found '\(expr.type.rawValue)'", at: g.range)
                expr = invalid(g.range)
            }
            guardExpr = expr
        }
        var target: StateID?
        if let name = t.target {
            if let id = stateIDs[name.name] {
                target = id
            } else {
                report(.unknownState, "unknown state '\(name.name)'", at: name.range,
                       notes: suggestion(for: name.name, among: stateIDs.keys, at: name.range))
                broken = true
            }
        }
        var slots = 0
        let actions = t.actions.map { resolveBlock($0, scope, slots: &slots) } ?? []
        if machine.states[source.index].isFinal {
            report(.finalStateTransition, "final state '\(decl.name.name)' cannot have transitions",
                   at: t.keywordRange,
                   notes: [DiagnosticNote("'\(decl.name.name)' is declared final here", at: decl.modifier(.final)?.range)])
        }
        let id = TransitionID(machine.transitions.count)
        var transition = Transition(
            id: id, source: source, trigger: trigger, guardExpr: guardExpr, target: target, actions: actions,
            localCount: slots, isBroken: broken, keywordRange: t.keywordRange, range: t.range)
        transition.isInternal = t.isInternal
        machine.transitions.append(transition)
        machine.states[source.index].transitions.append(id)
    }

    /// The trigger of `t`: its events (whose payload joins `scope`), delay, completion or
    /// nothing (eventless). A name that does not resolve marks the transition `broken`.
    private mutating func resolveTrigger(_ t: TransitionDecl, from source: StateID, scope: inout Scope,
                                         broken: inout Bool) -> Trigger {
        switch t.trigger {
        case .events(let names):
            var ids: [EventID] = []
            for name in names {
                if let id = eventIDs[name.name] {
                    if !ids.contains(id) { ids.append(id) }
                } else {
                    report(.unknownEvent, "unknown event '\(name.name)'", at: name.range,
                           notes: suggestion(for: name.name, among: eventIDs.keys, at: name.range))
                    broken = true
                }
            }
            scope.events = ids
            return .events(ids)
        case .after(let duration):
            var expr = resolveExpr(duration, scope)
            if !expr.isInvalid && expr.type != .number {
                report(.typeMismatch, "a delay must be a 'Number' of seconds, found '\(expr.type.rawValue)'",
                       at: duration.range)
                expr = invalid(duration.range)
            }
            return .after(expr)
        case .done(nil):
            // In a final state any transition is already an error.
            if !machine[source].isFinal, let problem = completionProblem(source) {
                report(.neverCompletes, "'done' is never taken: \(problem)", at: t.keywordRange)
            }
            scope.completion = source
            return .done(source)
        case .done(let name?):
            guard let id = stateIDs[name.name] else {
                report(.unknownState, "unknown state '\(name.name)'", at: name.range,
                       notes: suggestion(for: name.name, among: stateIDs.keys, at: name.range))
                broken = true
                return .done(source)
            }
            if let problem = completionProblem(id) {
                report(.neverCompletes, "'done(\(name.name))' is never taken: \(problem)", at: name.range,
                       notes: [DiagnosticNote("'\(name.name)' is declared here", at: machine[id].range)])
            }
            scope.completion = id
            return .done(id)
        case .always:
            return .always
        }
    }
}
