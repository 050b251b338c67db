import StatecraftDiagnostics
import StatecraftModel

// The state tree as the generated step asks it: kinds as bit sets, parents and subtrees as
// `switch`es of constants, each transition's domain and entry set worked out here when they
// do not depend on history, and Appendix D's `computeEntrySet` for when they do (a history
// target, or several transitions in one microstep). The answers come from the model's tree
// rules (`Sources/Model/StateTree.swift`); nothing here walks the tree itself.
extension FlatMachineWriter {
    mutating func chartTables() {
        out.line("// MARK: - The state tree")
        out.line()
        stateTables()
        transitionTables()
        entrySetFunctions()
        if !historyStates.isEmpty { historyFunctions() }
        finalFunctions()
    }

    mutating func stateTables() {
        let all = states
        out.doc("State number `s` (1 ... \(all.count)) as a `State`.")
        out.open("static func state(_ s: Int) -> State")
            out.line("State(rawValue: s - 1) ?? \(all.first.map { stateCase($0.id) } ?? "State.allCases[0]")")
        out.close()
        out.line()
        out.line("static var atomicStates: Bits { \(bits(all.filter { machine.isAtomic($0.id) }.map(\.id))) }")
        out.line("static var compoundStates: Bits { \(bits(all.filter { machine.isCompound($0.id) }.map(\.id))) }")
        out.line("static var parallelStates: Bits { \(bits(all.filter { machine.isParallel($0.id) }.map(\.id))) }")
        out.line()
        out.doc("The state that contains `s` (0 at the top level, -1 for the machine itself).")
        out.open("static func parent(_ s: Int) -> Int")
            out.line("switch s {")
            for s in all { out.line("case \(s.id.index): \(s.parent?.index ?? 0)") }
            out.line("default: -1")
            out.line("}")
        out.close()
        out.doc("The last state of `s`'s subtree: its descendants are `s + 1 ... last(s)`.")
        out.open("static func lastDescendant(_ s: Int) -> Int")
            out.line("switch s {")
            for s in all where machine.lastDescendant(s.id) != s.id {
                out.line("case \(s.id.index): \(machine.lastDescendant(s.id).index)")
            }
            out.line("case 0: \(machine.lastDescendant(machine.root).index)")
            out.line("default: s")
            out.line("}")
        out.close()
        out.line("static func isDescendant(_ s: Int, of a: Int) -> Bool { s > a && s <= lastDescendant(a) }")
        out.line("static func descendants(_ s: Int) -> Bits { Bits.range(s + 1, lastDescendant(s)) }")
        out.line()
    }

    mutating func transitionTables() {
        let live = machine.transitions.filter { !$0.isBroken }
        out.doc("Where transition `t` is written.")
        out.open("static func sourceState(_ t: Int) -> Int")
            out.line("switch t {")
            for t in live { out.line("case \(t.id.index): \(t.source.index)") }
            out.line("default: 0")
            out.line("}")
        out.close()
        out.doc("Where transition `t` goes (-1: nowhere, a targetless transition).")
        out.open("@inline(__always) static func targetState(_ t: Int) -> Int")
            out.line("switch t {")
            for t in live { if let to = t.target { out.line("case \(t.id.index): \(to.index)") } }
            out.line("default: -1")
            out.line("}")
        out.close()
        out.line()
        out.doc("Appendix D `getTransitionDomain` (-1 for a targetless transition): the state whose active\ndescendants the transition exits.")
        out.open("private func transitionDomain(_ t: Int) -> Int")
            out.line("switch t {")
            for t in live {
                guard let to = t.target else { continue }
                if machine[to].isHistory {
                    out.line("case \(t.id.index): historyDomain(source: \(t.source.index), history: \(to.index), isInternal: \(t.isInternal))")
                } else {
                    let d = machine.transitionDomain(t.shape, historyValue: { _ in nil })
                    out.line("case \(t.id.index): \(d?.index ?? -1)")
                }
            }
            out.line("default: -1")
            out.line("}")
        out.close()
        out.line()
        out.doc("A transition's entry set when it does not depend on history (nil when it does).")
        out.open("static func staticEntry(_ t: Int) -> Bits?")
            out.line("switch t {")
            for t in live {
                guard let to = t.target, !machine[to].isHistory else { continue }
                var readsHistory = false
                var defaults = DefaultEntries()
                let entry = machine.entrySet([t.shape], historyValue: { _ in
                    readsHistory = true
                    return nil
                }, defaults: &defaults)
                if !readsHistory { out.line("case \(t.id.index): \(entryBits(entry, defaults))") }
            }
            out.line("default: nil")
            out.line("}")
        out.close()
        out.line()
        out.doc("The step that ran more than 10,000 microsteps, stopped at transition `t`.")
        out.open("static func microstepLimit(_ t: Int) -> Failure")
            out.line("let message = \"more than 10000 microsteps without settling (an 'always' or 'raise' loop); stopped the step\"")
            out.line("switch t {")
            for t in live {
                let at = machine.source.location(of: t.keywordRange.start)
                out.line("case \(t.id.index): return Failure(message: message, line: \(at.line), column: \(at.column))")
            }
            out.line("default: return Failure(message: message, line: 0, column: 0)")
            out.line("}")
        out.close()
        out.line()
    }

    /// Appendix D `computeEntrySet` with `addDescendantStatesToEnter`,
    /// `addAncestorStatesToEnter` and the regions of parallel states.
    mutating func entrySetFunctions() {
        out.doc("Appendix D `computeEntrySet` for the enabled transitions (`chosen`): the states to enter.")
        out.open("private func entrySet(_ chosen: Chosen) -> Bits")
            out.line("if chosen.count == 1, let known = Self.staticEntry(chosen[0]) { return known }")
            out.line("var toEnter = Bits()")
            out.open("for k in 0..<chosen.count")
                out.line("let t = chosen[k]")
                out.line("let target = Self.targetState(t)")
                out.line("guard target >= 0 else { continue }")
                out.line("addDescendantStatesToEnter(target, &toEnter)")
                if historyStates.isEmpty {
                    out.line("addAncestorStatesToEnter(target, upTo: transitionDomain(t), &toEnter)")
                } else {
                    out.line("let domain = transitionDomain(t)")
                    out.open("if !addAncestorsOfHistoryTargets(target, upTo: domain, &toEnter)")
                        out.line("addAncestorStatesToEnter(target, upTo: domain, &toEnter)")
                    out.close()
                }
            out.close()
            out.line("return toEnter")
        out.close()
        out.line()
        out.open("private func addDescendantStatesToEnter(_ s: Int, _ toEnter: inout Bits)")
            out.line("switch s {")
            for s in states {
                switch s.kind {
                case .history:
                    let k = historyStates.firstIndex { $0.id == s.id } ?? 0
                    let parent = s.parent?.index ?? 0
                    out.line("case \(s.id.index):  // \(s.name)")
                    out.indent()
                    out.open("if core.recorded\(k)")
                        out.line("var recorded = core.history\(k)")
                        out.line("while let x = recorded.popFirst() { addDescendantStatesToEnter(x, &toEnter) }")
                        out.line("recorded = core.history\(k)")
                        out.line("while let x = recorded.popFirst() { addAncestorStatesToEnter(x, upTo: \(parent), &toEnter) }")
                    out.reopen("else")
                        if !s.historyActions.isEmpty { out.line("toEnter.insert(\(machine.states.count + s.id.index))  // its default's actions run") }
                        let defaults = machine.historyDefaultTargets(s.id)
                        for d in defaults { out.line("addDescendantStatesToEnter(\(d.index), &toEnter)") }
                        for d in defaults { out.line("addAncestorStatesToEnter(\(d.index), upTo: \(parent), &toEnter)") }
                        if defaults.isEmpty { out.line("break") }
                    out.close()
                    out.dedent()
                case .compound:
                    out.line("case \(s.id.index):  // \(s.name)")
                    out.indent()
                    out.line("toEnter.insert(\(s.id.index))")
                    if s.initialTargets.isEmpty {
                        if let initial = machine.defaultChild(s.id) { out.line("addDescendantStatesToEnter(\(initial.index), &toEnter)") }
                    } else {
                        // `initial -> a, b`: SCXML's initial transition, with `s` as its domain.
                        if !s.initialActions.isEmpty { out.line("toEnter.insert(\(machine.states.count + s.id.index))  // its actions run") }
                        for target in s.initialTargets { out.line("addDescendantStatesToEnter(\(target.index), &toEnter)") }
                        for target in s.initialTargets {
                            if machine[target].isHistory {
                                out.line("_ = addAncestorsOfHistoryTargets(\(target.index), upTo: \(s.id.index), &toEnter)")
                            } else {
                                out.line("addAncestorStatesToEnter(\(target.index), upTo: \(s.id.index), &toEnter)")
                            }
                        }
                    }
                    out.dedent()
                case .parallel:
                    out.line("case \(s.id.index):  // \(s.name)")
                    out.line("    toEnter.insert(\(s.id.index))")
                    out.line("    enterUncoveredRegions(of: \(s.id.index), &toEnter)")
                case .atomic, .final:
                    continue
                }
            }
            out.line("default:")
            out.line("    toEnter.insert(s)")
            out.line("}")
        out.close()
        out.line()
        out.open("private func addAncestorStatesToEnter(_ s: Int, upTo ancestor: Int, _ toEnter: inout Bits)")
            out.line("var anc = Self.parent(s)")
            out.open("while anc >= 0 && anc != ancestor")
                out.line("toEnter.insert(anc)")
                out.line("if Self.parallelStates.contains(anc) { enterUncoveredRegions(of: anc, &toEnter) }")
                out.line("anc = Self.parent(anc)")
            out.close()
        out.close()
        out.line()
        out.doc("Enters each region of parallel state `p` that nothing entered so far lies in.")
        out.open("private func enterUncoveredRegions(of p: Int, _ toEnter: inout Bits)")
            out.line("var regions = Self.regionsOf(p)")
            out.open("while let region = regions.popFirst()")
                out.open("if (toEnter & Bits.range(region, Self.lastDescendant(region))).isEmpty")
                    out.line("addDescendantStatesToEnter(region, &toEnter)")
                out.close()
            out.close()
        out.close()
        out.line()
        out.doc("The regions (child states) of parallel state `p`.")
        out.open("static func regionsOf(_ p: Int) -> Bits")
            out.line("switch p {")
            for s in states where s.kind == .parallel {
                out.line("case \(s.id.index): \(bits(machine.childStates(s.id)))")
            }
            out.line("default: Bits()")
            out.line("}")
        out.close()
        out.line()
    }

    mutating func historyFunctions() {
        let histories = historyStates
        out.doc("What history state `h` stands for now: its recording, or its default.")
        out.open("private func effectiveTargets(ofHistory h: Int) -> Bits")
            out.line("switch h {")
            for (k, h) in histories.enumerated() {
                out.line("case \(h.id.index): core.recorded\(k) ? core.history\(k) : \(bits(machine.historyDefaultTargets(h.id)))")
            }
            out.line("default: Bits()")
            out.line("}")
        out.close()
        out.line()
        out.doc("`addAncestorStatesToEnter` for each state history state `target` stands for; false when\n`target` is not a history state.")
        out.open("private func addAncestorsOfHistoryTargets(_ target: Int, upTo domain: Int, _ toEnter: inout Bits) -> Bool")
            out.line("switch target {")
            for (k, h) in histories.enumerated() {
                out.line("case \(h.id.index):  // \(h.name)")
                out.indent()
                out.open("if core.recorded\(k)")
                    out.line("var recorded = core.history\(k)")
                    out.line("while let x = recorded.popFirst() { addAncestorStatesToEnter(x, upTo: domain, &toEnter) }")
                out.reopen("else")
                    for d in machine.historyDefaultTargets(h.id) { out.line("addAncestorStatesToEnter(\(d.index), upTo: domain, &toEnter)") }
                out.close()
                out.line("return true")
                out.dedent()
            }
            out.line("default:")
            out.line("    return false")
            out.line("}")
        out.close()
        out.line()
        out.doc("`getTransitionDomain` of a transition to a history state: it depends on what the history\nstands for now.")
        out.open("private func historyDomain(source: Int, history h: Int, isInternal: Bool) -> Int")
            out.line("let targets = effectiveTargets(ofHistory: h)")
            out.open("if isInternal && Self.compoundStates.contains(source) && (targets & ~Self.descendants(source)).isEmpty")
                out.line("return source")
            out.close()
            out.line("var anc = Self.parent(source)")
            out.open("while anc >= 0")
                out.line("if (anc == 0 || Self.compoundStates.contains(anc)) && (targets & ~Self.descendants(anc)).isEmpty { return anc }")
                out.line("anc = Self.parent(anc)")
            out.close()
            out.line("return 0")
        out.close()
        out.line()
        out.doc("Records what each history state of a state being exited will restore (before any exit\naction runs): the active children (shallow), or the active atomic descendants (deep).")
        out.open("private mutating func recordHistory(exiting exits: Bits)")
            for (k, h) in histories.enumerated() {
                guard let parent = h.parent else { continue }
                let recorded = h.isDeepHistory
                    ? states.filter { machine.isAtomic($0.id) && machine.isDescendant($0.id, of: parent) }.map(\.id)
                    : machine.childStates(parent)
                out.line("// \(h.name), the \(h.isDeepHistory ? "deep " : "")history of \(parent == machine.root ? machine.name : machine[parent].name)")
                out.open("if exits.contains(\(parent.index))")
                    out.line("core.history\(k) = core.active & \(bits(recorded))")
                    out.line("core.recorded\(k) = true")
                out.close()
            }
        out.close()
        out.line()
    }

    mutating func finalFunctions() {
        let parallels = states.filter { $0.kind == .parallel }
        guard !parallels.isEmpty else { return }
        out.doc("Appendix D `isInFinalState`: a compound state whose final child is active, or a parallel\nstate whose every region is in a final state.")
        out.open("private func isInFinalState(_ s: Int) -> Bool")
            out.open("if Self.parallelStates.contains(s)")
                out.line("var regions = Self.regionsOf(s)")
                out.line("while let region = regions.popFirst() { if !isInFinalState(region) { return false } }")
                out.line("return true")
            out.close()
            out.line("return !(core.active & Self.finalChildren(s)).isEmpty")
        out.close()
        out.line()
        out.open("static func finalChildren(_ s: Int) -> Bits")
            out.line("switch s {")
            for s in states where s.kind == .compound {
                let finals = machine.childStates(s.id).filter { machine[$0].isFinal }
                if !finals.isEmpty { out.line("case \(s.id.index): \(bits(finals))") }
            }
            out.line("default: Bits()")
            out.line("}")
        out.close()
        out.line()
    }
}
