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
            return .done(id)
        case .always:
            return .always
        }
    }
}
