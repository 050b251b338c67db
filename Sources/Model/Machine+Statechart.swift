import StatecraftDiagnostics

extension Machine {
    /// The first construct that needs the full statechart algorithm (SCXML's microsteps over a
    /// configuration) rather than one active leaf and its ancestors: a parallel or history
    /// state, `initial ->`, the values of a final state, a `done` or `always` transition, an
    /// internal one, `raise`, or `in(...)`; with what it is and where. Nil for a machine whose steps move one leaf.
    ///
    /// The one answer to "is this a statechart?": the runtime compiles a machine that has one
    /// for its chart path, and `statecraft swift` refuses it (it writes flat machines only).
    package var firstStatechartConstruct: (what: String, range: SourceRange)? {
        for s in states {
            let name = s.id == root ? "machine '\(self.name)'" : "state '\(s.name)'"
            if s.kind == .parallel { return ("parallel state '\(s.name)'", s.range) }
            // Its values are computed when it is entered, whether or not a `done` reads them
            // (a failing one fails the step): the completion is a real queued event.
            if let field = s.doneData.first { return ("the values of final state '\(s.name)'", field.range) }
            if s.kind == .history { return ("history state '\(s.name)'", s.range) }
            if !s.initialTargets.isEmpty { return ("'initial ->' in \(name)", s.id == root ? nameRange : s.range) }
        }
        for t in transitions {
            switch t.trigger {
            case .done: return ("a 'done' transition", t.keywordRange)
            case .always: return ("an 'always' transition", t.keywordRange)
            case .events, .after: break
            }
            if t.isInternal { return ("an internal transition", t.keywordRange) }
        }
        var found: (what: String, range: SourceRange)?
        func look(_ e: Expr) {
            e.visit { if found == nil, case .inState = $0.kind { found = ("'in(...)'", $0.range) } }
        }
        func scan(_ actions: [Action]) {
            for a in actions {
                a.visit { if found == nil, case .raise(_, _, let range) = $0 { found = ("'raise'", range) } }
                a.visitExpressions(look)
            }
        }
        for t in transitions {
            t.guardExpr.map(look)
            if case .after(let d) = t.trigger { look(d) }
            scan(t.actions)
        }
        for s in states {
            scan(s.entry)
            scan(s.exit)
        }
        return found
    }
}
