import StatecraftDiagnostics
import StatecraftModel

/// Events no transition handles (nor property watches), variables never read, outputs never emitted and constants
/// never used: usually a typo or a forgotten piece of the interaction.
enum UnusedDeclarations {
    static func diagnostics(_ machine: Machine) -> [Diagnostic] {
        var handled = Set<EventID>()
        var read = Set<VariableID>()
        var emitted = Set<OutputID>()
        var usedConstants = Set<ConstantID>()
        let noteReads: (Expr) -> Void = { e in
            switch e.kind {
            case .variable(let id): read.insert(id)
            case .constant(let id): usedConstants.insert(id)
            default: break
            }
        }
        func scan(_ actions: [Action]) {
            for action in actions {
                action.visitExpressions(noteReads)
                action.visit { if case .emit(let id, _, _) = $0 { emitted.insert(id) } }
            }
        }
        for c in machine.constants { c.definition.visit(noteReads) }
        for v in machine.variables { v.initializer.visit(noteReads) }
        for state in machine.states {
            scan(state.entry)
            scan(state.exit)
            scan(state.defaultEntryActions)
            for field in state.doneData { field.value.visit(noteReads) }
        }
        for t in machine.transitions {
            switch t.trigger {
            case .events(let ids): handled.formUnion(ids)
            case .after(let duration): duration.visit(noteReads)
            case .done, .always: break
            }
            t.guardExpr?.visit(noteReads)
            scan(t.actions)
        }
        // A name a property watches is in use: the property would lose its meaning without it.
        for p in machine.properties {
            for e in p.form.expressions { e.visit(noteReads) }
            p.deadlineExpr?.visit(noteReads)
            if case .response(.event(let id), _, _) = p.form, !p.isBroken { handled.insert(id) }
        }
        var findings: [Diagnostic] = []
        for e in machine.events where !handled.contains(e.id) {
            findings.append(Diagnostic(.unusedEvent, "event '\(e.name)' is never handled: no transition is triggered by it",
                                       at: e.range))
        }
        for v in machine.variables where !read.contains(v.id) && !v.isPublic {
            findings.append(Diagnostic(.unusedVariable, "variable '\(v.name)' is never read", at: v.range,
                                       notes: [DiagnosticNote("mark it 'public var' if the app reads it", at: v.range)]))
        }
        for o in machine.outputs where !emitted.contains(o.id) {
            findings.append(Diagnostic(.unusedOutput, "output '\(o.name)' is never emitted", at: o.range))
        }
        for c in machine.constants where !usedConstants.contains(c.id) {
            findings.append(Diagnostic(.unusedConstant, "constant '\(c.name)' is never used", at: c.range))
        }
        return findings
    }
}
