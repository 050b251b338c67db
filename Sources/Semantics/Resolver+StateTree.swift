import StatecraftDiagnostics
import StatecraftModel
import StatecraftSyntax

// The shape rules of the state tree: which child a compound state starts in, what a
// parallel state, a final state and a history state may hold. Run once every state has
// an id, before any body is resolved, so that `initialChild` and `historyDefaults` are set
// when transitions and `in(x)` are checked.

extension Resolver {
    /// Checks every state's shape, in document order, and sets `initialChild` (compound
    /// states, the root included) and `historyDefaults` (history states).
    mutating func checkStateTree() {
        for index in machine.states.indices {
            let id = StateID(index)
            switch machine.states[index].kind {
            case .compound: chooseInitialChild(of: id)
            case .parallel: checkRegions(of: id)
            case .history: checkHistory(id)
            case .final: checkFinal(id)
            case .atomic: break
            }
            if machine.states[index].kind != .compound, let written = stateDecls[index]?.initialTargets.first {
                let why = machine.states[index].kind == .parallel ? "every region of a parallel state is entered with it"
                    : "it has no child states"
                report(.invalidInitialTarget, "'initial ->' in state '\(machine.states[index].name)': \(why)",
                       at: written.keywordRange)
            }
        }
    }

    /// The child marked `initial`; exactly one must be (history states never count), unless
    /// there is only one child. With none or several, the first child (or the first marked)
    /// stands in after the report, so the rest of the machine still resolves.
    private mutating func chooseInitialChild(of parent: StateID) {
        let children = machine.childStates(parent)
        let marked = children.filter { stateDecls[$0.index]?.modifier(.initial) != nil }
        let written = parent == machine.root ? rootInitialTargets : stateDecls[parent.index]?.initialTargets ?? []
        if let targets = written.first {
            for extra in written.dropFirst() {
                report(.multipleInitialStates, "'initial ->' is written twice in '\(machine[parent].name)'", at: extra.keywordRange,
                       notes: [DiagnosticNote("the first is here", at: targets.keywordRange)])
            }
            for child in marked {
                guard let modifier = stateDecls[child.index]?.modifier(.initial) else { continue }
                report(.multipleInitialStates,
                       "state '\(machine[child].name)' is marked initial, but 'initial ->' already says where "
                       + "'\(machine[parent].name)' starts", at: modifier.range,
                       notes: [DiagnosticNote("'initial ->' is here", at: targets.keywordRange)])
            }
            if parent == machine.root, let actions = targets.actions {
                // The machine is entered once, at the start, by no transition SCXML could
                // hold content on (its `initial` is an attribute).
                report(.invalidInitialTarget, "the machine's 'initial ->' cannot have actions; write them in the entry actions "
                       + "of the state it starts in", at: actions.range)
            }
            resolveInitialTargets(targets, of: parent)
            if machine.states[parent.index].initialChild == nil { machine.states[parent.index].initialChild = children.first }
            return
        }
        if let first = marked.first {
            machine.states[parent.index].initialChild = first
            for extra in marked.dropFirst() {
                guard let modifier = stateDecls[extra.index]?.modifier(.initial) else { continue }
                report(.multipleInitialStates,
                       "state '\(machine[extra].name)' is marked initial, but '\(machine[first].name)' already is",
                       at: modifier.range,
                       notes: [DiagnosticNote("'\(machine[first].name)' is marked initial here",
                                              at: stateDecls[first.index]?.modifier(.initial)?.range)])
            }
            return
        }
        // A sole child is where its parent starts, marked or not (SCXML's default is the
        // first child): only a choice among several must be written.
        if children.count == 1 {
            machine.states[parent.index].initialChild = children.first
            return
        }
        if parent == machine.root {
            report(.noInitialState, "machine '\(machine.name)' has no initial state; mark one state 'initial'",
                   at: machine.nameRange)
        } else {
            report(.noInitialState,
                   "state '\(machine[parent].name)' has no initial child; mark one of its states 'initial'",
                   at: machine[parent].range)
        }
        machine.states[parent.index].initialChild = children.first
    }

    /// `initial -> a, b`: each target lies inside `parent` (a history state too), and the
    /// targets can be active together (any two meet in a parallel state, in different
    /// regions). The child on the way to the first target is the initial child.
    private mutating func resolveInitialTargets(_ decl: InitialTargetsDecl, of parent: StateID) {
        var targets: [StateID] = []
        for written in decl.targets {
            guard let target = stateIDs[written.name] else {
                report(.unknownState, "unknown state '\(written.name)'", at: written.range,
                       notes: suggestion(for: written.name, among: stateIDs.keys, at: written.range))
                return
            }
            guard machine.isDescendant(target, of: parent), target != parent else {
                report(.invalidInitialTarget,
                       "'\(written.name)' is not inside '\(machine[parent].name)', so it cannot be where it starts",
                       at: written.range, notes: [DiagnosticNote("'\(written.name)' is declared here", at: machine[target].range)])
                return
            }
            for earlier in targets {
                // Two states can be active together when the innermost state holding both
                // is parallel (they are in different regions of it).
                if earlier == target || machine.isDescendant(target, of: earlier) || machine.isDescendant(earlier, of: target)
                    || !machine.isParallel(machine.innermostContainer([target, earlier])) {
                    report(.invalidInitialTarget,
                           "'\(machine[earlier].name)' and '\(written.name)' cannot be active together: only states in different "
                           + "regions of a parallel state can", at: written.range)
                    return
                }
            }
            targets.append(target)
        }
        guard let first = targets.first else { return }
        machine.states[parent.index].initialTargets = targets
        // The initial child is what a history state's default falls back to, so it is
        // never a history state itself: for `initial -> h`, the way to h's default.
        let way = machine[first].isHistory ? machine[first].historyDefaults.first : first
        machine.states[parent.index].initialChild = way.flatMap { w in machine.selfAndAncestors(w).first { machine[$0].parent == parent } }
            ?? machine.childStates(parent).first { !machine[$0].isHistory }
    }

    /// Every region of a parallel state is entered with it, so none is marked `initial`;
    /// and a parallel state with one region is a compound state written the long way.
    private mutating func checkRegions(of p: StateID) {
        let regions = machine.childStates(p)
        for region in regions {
            guard let modifier = stateDecls[region.index]?.modifier(.initial) else { continue }
            report(.initialInParallel,
                   "region '\(machine[region].name)' of parallel state '\(machine[p].name)' cannot be marked initial: "
                   + "every region is entered with '\(machine[p].name)'", at: modifier.range)
        }
        if regions.count < 2 {
            let count = regions.isEmpty ? "no regions" : "only one region"
            report(.singleRegion,
                   "parallel state '\(machine[p].name)' has \(count); its regions are the states declared in it, "
                   + "all active at once", at: machine[p].range)
        }
    }

    /// A final state is a leaf.
    private mutating func checkFinal(_ f: StateID) {
        guard let decl = stateDecls[f.index], let child = decl.children.first else { return }
        report(.finalStateChildren, "final state '\(decl.name.name)' cannot have child states", at: child.name.range,
               notes: [DiagnosticNote("'\(decl.name.name)' is declared final here", at: decl.modifier(.final)?.range)])
    }

    /// A history state sits in a compound or parallel state, has no body and no other
    /// modifier, and its defaults (if written) are states inside its parent that can be
    /// active together.
    private mutating func checkHistory(_ h: StateID) {
        guard let decl = stateDecls[h.index], let parent = machine[h].parent else { return }
        let name = decl.name.name
        if parent == machine.root {
            report(.misplacedHistory,
                   "history state '\(name)' is at the top level of the machine; declare it inside the compound or "
                   + "parallel state whose configuration it remembers", at: decl.name.range)
        } else if !machine.isCompound(parent) && !machine.isParallel(parent) {
            report(.misplacedHistory,
                   "history state '\(name)' is in '\(machine[parent].name)', which has no child states to remember",
                   at: decl.name.range)
        }
        for modifier in decl.modifiers where [.initial, .final, .parallel].contains(modifier.kind) {
            report(.invalidHistoryState, "a history state cannot be marked '\(modifier.kind.rawValue)'",
                   at: modifier.range)
        }
        let body: [(String, SourceRange?)] = [
            ("child states", decl.children.first?.name.range),
            ("entry actions", decl.entry.first?.keywordRange),
            ("exit actions", decl.exit.first?.keywordRange),
            ("transitions", decl.transitions.first?.keywordRange),
        ]
        for case let (what, range?) in body {
            report(.invalidHistoryState,
                   "history state '\(name)' cannot have \(what): it is never active, only a way back in", at: range)
        }
        resolveHistoryDefaults(h, decl.historyDefaults, parent: parent)
    }

    /// `history state h -> a, b`: each default is a state (not a history state) inside h's
    /// parent, and they can be active together (any two meet in a parallel state, in
    /// different regions), as SCXML's default transition of a history state may name one
    /// state per region. Set only when every one is right; else the parent's default entry
    /// stands in after the report.
    private mutating func resolveHistoryDefaults(_ h: StateID, _ written: [Identifier], parent: StateID) {
        let name = machine[h].name
        var targets: [StateID] = []
        for w in written {
            guard let target = stateIDs[w.name] else {
                report(.unknownState, "unknown state '\(w.name)'", at: w.range,
                       notes: suggestion(for: w.name, among: stateIDs.keys, at: w.range))
                return
            }
            if machine[target].isHistory {
                report(.invalidHistoryState,
                       "the default of history state '\(name)' must be a state, but '\(w.name)' is a history state",
                       at: w.range,
                       notes: [DiagnosticNote("'\(w.name)' is declared here", at: machine[target].range)])
                return
            }
            if !machine.isDescendant(target, of: parent) {
                report(.historyDefaultOutside,
                       "the default of history state '\(name)' must be inside '\(machine[parent].name)', "
                       + "but '\(w.name)' is not", at: w.range,
                       notes: [DiagnosticNote("'\(w.name)' is declared here", at: machine[target].range)])
                return
            }
            for earlier in targets where earlier == target || machine.isDescendant(target, of: earlier)
                || machine.isDescendant(earlier, of: target) || !machine.isParallel(machine.innermostContainer([target, earlier])) {
                report(.invalidHistoryState,
                       "the defaults of history state '\(name)' cannot be '\(machine[earlier].name)' and '\(w.name)': "
                       + "they cannot be active together (only states in different regions of a parallel state can)",
                       at: w.range)
                return
            }
            targets.append(target)
        }
        machine.states[h.index].historyDefaults = targets
    }

    /// Why state `x` can never complete, or nil when it can: a compound state completes
    /// when a final child is entered, a parallel state when every region has completed.
    func completionProblem(_ x: StateID) -> String? {
        let name = machine[x].name
        switch machine[x].kind {
        case .atomic, .final:
            return "'\(name)' has no child states, so it never completes"
        case .history:
            return "'\(name)' is a history state, which is never active"
        case .compound:
            let hasFinal = machine.childStates(x).contains { machine[$0].isFinal }
            return hasFinal ? nil : "'\(name)' has no final child state, so it never completes"
        case .parallel:
            for region in machine.childStates(x) where completionProblem(region) != nil {
                return "region '\(machine[region].name)' of '\(name)' never completes, so '\(name)' never does"
            }
            return machine.childStates(x).isEmpty ? "'\(name)' has no regions, so it never completes" : nil
        }
    }
}
