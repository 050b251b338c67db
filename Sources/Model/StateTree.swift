// The rules of the state tree, once, under the names SCXML 1.0 gives them where it gives
// one (Appendix D, "Algorithm for SCXML Interpretation":
// https://www.w3.org/TR/scxml/#AlgorithmforSCXMLInterpretation).
// The resolver, the compiler, the reference stepper, the analyses and the exporters all
// ask these functions; none of them walks the tree on its own (follows `parent` links,
// looks for where two states meet, or picks "the initial child or else the first"). Two
// fast paths keep integer-table copies of the rules they ask per event: the statechart
// runtime (`Sources/Runtime/Charts`), which the differential tests hold to
// `ReferenceStepper` (written on these functions), and the flat program's parent chain
// (`Program.selfAndAncestors`), which `ProgramTreeTests` holds to `selfAndAncestors`.
// `TreeRuleTests` fails when a walk of the tree is written anywhere else.
//
// State ids are in document order (see `Machine`), so sorting by id is SCXML's
// `documentOrder` (`entryOrder`), and its reverse is `exitOrder`.

/// What a transition is, for the tree rules: where it is written, where it goes, and how.
public struct TransitionShape: Sendable, Equatable {
    /// The state the transition is written in.
    public var source: StateID
    /// nil for a targetless transition.
    public var target: StateID?
    /// Whether it is written `internal`: a compound source is then not exited when every target lies inside
    /// it.
    public var isInternal: Bool

    /// Creates a shape.
    public init(source: StateID, target: StateID?, isInternal: Bool = false) {
        self.source = source
        self.target = target
        self.isInternal = isInternal
    }
}

extension Transition {
    /// The transition as the tree rules see it.
    public var shape: TransitionShape { TransitionShape(source: source, target: target, isInternal: isInternal) }
}

extension Machine {
    // MARK: - Kinds

    /// A state with no child states: atomic or final (history states are pseudo-states,
    /// never active, and not counted as children).
    public func isAtomic(_ s: StateID) -> Bool {
        let kind = self[s].kind
        return kind == .atomic || kind == .final
    }

    /// A compound state (the root is one): exactly one child is active while it is.
    public func isCompound(_ s: StateID) -> Bool { self[s].kind == .compound }

    /// A parallel state: every child (region) is active while it is.
    public func isParallel(_ s: StateID) -> Bool { self[s].kind == .parallel }

    /// The child states of `s` in document order, history pseudo-states left out.
    public func childStates(_ s: StateID) -> [StateID] {
        self[s].children.filter { self[$0].kind != .history }
    }

    /// The child that entering compound state `s` enters when nothing more specific is
    /// targeted: its initial child, or else its first child state in document order (SCXML's
    /// default when no `initial` is given). nil for any other state, and for a compound state
    /// without child states.
    public func defaultChild(_ s: StateID) -> StateID? {
        guard isCompound(s) else { return nil }
        return self[s].initialChild ?? self[s].children.first { self[$0].kind != .history }
    }

    /// The history pseudo-states declared directly in `s`.
    public func historyStates(_ s: StateID) -> [StateID] {
        self[s].children.filter { self[$0].kind == .history }
    }

    // MARK: - Ancestry

    /// Whether `s` is a proper descendant of `ancestor` (SCXML `isDescendant`).
    public func isDescendant(_ s: StateID, of ancestor: StateID) -> Bool {
        s > ancestor && s <= lastDescendant(ancestor)
    }

    /// The last state (in document order) of the subtree under `s`, or `s` itself when it
    /// has no children; the subtree is exactly `s ... lastDescendant(s)`.
    package func lastDescendant(_ s: StateID) -> StateID {
        var current = s
        while let last = self[current].children.last { current = last }
        return current
    }

    /// The proper ancestors of `s`, innermost first, stopping before `limit` (SCXML
    /// `getProperAncestors(s, limit)`); with no limit, up to and including the root.
    public func properAncestors(_ s: StateID, upTo limit: StateID? = nil) -> [StateID] {
        Array(AncestorChain(states: states, upcoming: self[s].parent, limit: limit))
    }

    /// `s`, then its proper ancestors, innermost first, stopping before `limit` (so nothing
    /// when `s` is `limit`); with no limit, up to and including the root. The states whose
    /// transitions SCXML's selection tries for an active atomic state `s`, and with the root
    /// as limit a flat machine's configuration when `s` is its active state. A sequence walked
    /// as it is read: it allocates nothing.
    public func selfAndAncestors(_ s: StateID, upTo limit: StateID? = nil) -> AncestorChain {
        AncestorChain(states: states, upcoming: s, limit: limit)
    }

    /// How many proper ancestors `s` has (the root has none; a top-level state has one).
    public func depth(_ s: StateID) -> Int { properAncestors(s).count }

    /// The innermost compound state (or the root) that is a proper ancestor of every state
    /// in `states` (SCXML `findLCCA`). Parallel states are skipped: a transition between
    /// two regions leaves the whole parallel state.
    package func findLCCA(_ states: [StateID]) -> StateID {
        innermostContainer(states, compoundOnly: true)
    }

    /// The innermost state of any kind (or the root) that is a proper ancestor of every state
    /// in `states`: SCXML's `findLCCA` with parallel states counted, so the state where
    /// states meet (two states can be active together when it is parallel), and the block a
    /// drawing writes an edge between them in. With `compoundOnly`, `findLCCA` itself. A
    /// state is not its own container: for a state and one of its ancestors, the answer is
    /// the ancestor's parent.
    package func innermostContainer(_ states: [StateID], compoundOnly: Bool = false) -> StateID {
        guard let head = states.first else { return root }
        for anc in selfAndAncestors(head).dropFirst() where !compoundOnly || isCompound(anc) {
            if states.dropFirst().allSatisfy({ isDescendant($0, of: anc) }) { return anc }
        }
        return root
    }

    /// Whether `a` and `b` can be active at the same time: one of them holds the other, or
    /// they are in different regions of a parallel state.
    package func canBeActiveTogether(_ a: StateID, _ b: StateID) -> Bool {
        a == b || isDescendant(a, of: b) || isDescendant(b, of: a) || isParallel(innermostContainer([a, b]))
    }

    // MARK: - Transitions

    /// The states a transition really enters, with history targets replaced by what they
    /// stand for now (SCXML `getEffectiveTargetStates`). `historyValue(h)` is what was
    /// recorded for `h`, nil when its parent was never exited.
    package func effectiveTargetStates(_ t: TransitionShape, historyValue: (StateID) -> [StateID]?) -> [StateID] {
        guard let target = t.target else { return [] }
        return effectiveTargets(of: target, historyValue: historyValue)
    }

    private func effectiveTargets(of s: StateID, historyValue: (StateID) -> [StateID]?) -> [StateID] {
        guard self[s].isHistory else { return [s] }
        if let recorded = historyValue(s) { return recorded }
        return historyDefaultTargets(s).flatMap { effectiveTargets(of: $0, historyValue: historyValue) }
    }

    /// What history state `h` enters when its parent was never exited: its written default,
    /// or else the parent's default entry (the initial child of a compound parent; every
    /// region of a parallel one).
    package func historyDefaultTargets(_ h: StateID) -> [StateID] {
        let written = self[h].historyDefaults
        if !written.isEmpty { return written }
        guard let parent = self[h].parent else { return [] }
        if isParallel(parent) { return childStates(parent) }
        // `initial -> h` through this very history state would lead back here.
        let targets = self[parent].initialTargets
        if !targets.isEmpty && !targets.contains(where: { self[$0].isHistory }) { return targets }
        return defaultChild(parent).map { [$0] } ?? []
    }

    /// The state whose descendants a transition exits and enters (SCXML
    /// `getTransitionDomain`); nil for a targetless transition, which exits nothing.
    package func transitionDomain(_ t: TransitionShape, historyValue: (StateID) -> [StateID]?) -> StateID? {
        let targets = effectiveTargetStates(t, historyValue: historyValue)
        guard !targets.isEmpty else { return nil }
        if t.isInternal && isCompound(t.source) && targets.allSatisfy({ isDescendant($0, of: t.source) }) {
            return t.source
        }
        return findLCCA([t.source] + targets)
    }

    /// The active states that the transitions exit, in exit order (children before
    /// parents, later regions first): SCXML `computeExitSet` sorted by `exitOrder`.
    /// `configuration` holds the active states.
    package func exitSet(_ transitions: [TransitionShape], configuration: Set<StateID>,
                        historyValue: (StateID) -> [StateID]?) -> [StateID] {
        var exits = Set<StateID>()
        for t in transitions {
            guard let domain = transitionDomain(t, historyValue: historyValue) else { continue }
            for s in configuration where isDescendant(s, of: domain) { exits.insert(s) }
        }
        return exits.sorted(by: >)
    }

    /// The states the transitions enter, in entry order (parents before children, earlier
    /// regions first): SCXML `computeEntrySet` sorted by `entryOrder`. Compound states
    /// entered without a more specific target enter their initial child; parallel states
    /// every region; history states what they recorded or their default.
    package func entrySet(_ transitions: [TransitionShape], historyValue: (StateID) -> [StateID]?) -> [StateID] {
        var defaults = DefaultEntries()
        return entrySet(transitions, historyValue: historyValue, defaults: &defaults)
    }

    /// The entry set, and in `defaults` the default entries it takes (whose actions run).
    package func entrySet(_ transitions: [TransitionShape], historyValue: (StateID) -> [StateID]?,
                          defaults: inout DefaultEntries) -> [StateID] {
        var toEnter = Set<StateID>()
        for t in transitions {
            guard let target = t.target else { continue }
            addDescendantStatesToEnter(target, &toEnter, historyValue, &defaults)
            guard let ancestor = transitionDomain(t, historyValue: historyValue) else { continue }
            for s in effectiveTargetStates(t, historyValue: historyValue) {
                addAncestorStatesToEnter(s, upTo: ancestor, &toEnter, historyValue, &defaults)
            }
        }
        return toEnter.sorted()
    }

    /// The states entered when the machine starts: the root's initial child with its
    /// defaults (SCXML enters the document's initial transition with the root as domain).
    package var initialEntrySet: [StateID] { initialEntry.states }

    /// The start's entry set, with the default entries it takes.
    package var initialEntry: (states: [StateID], defaults: DefaultEntries) {
        var toEnter = Set<StateID>()
        var defaults = DefaultEntries()
        addDefaultEntry(of: root, &toEnter, { _ in nil }, &defaults)
        toEnter.remove(root)
        defaults.initial.remove(root)
        return (toEnter.sorted(), defaults)
    }

    /// What entering compound state `s` without a more specific target enters below it:
    /// its `initial ->` targets with the states on the way to them (SCXML's initial
    /// transition), or else its initial child.
    private func addDefaultEntry(of s: StateID, _ toEnter: inout Set<StateID>, _ historyValue: (StateID) -> [StateID]?,
                                 _ defaults: inout DefaultEntries) {
        let targets = self[s].initialTargets
        if targets.isEmpty {
            guard let initial = defaultChild(s) else { return }
            addDescendantStatesToEnter(initial, &toEnter, historyValue, &defaults)
            addAncestorStatesToEnter(initial, upTo: s, &toEnter, historyValue, &defaults)
            return
        }
        defaults.initial.insert(s)
        for t in targets { addDescendantStatesToEnter(t, &toEnter, historyValue, &defaults) }
        for t in targets {
            for e in effectiveTargets(of: t, historyValue: historyValue) {
                addAncestorStatesToEnter(e, upTo: s, &toEnter, historyValue, &defaults)
            }
        }
    }

    private func addDescendantStatesToEnter(_ s: StateID, _ toEnter: inout Set<StateID>,
                                            _ historyValue: (StateID) -> [StateID]?, _ defaults: inout DefaultEntries) {
        if self[s].isHistory {
            let parent = self[s].parent ?? root
            let recorded = historyValue(s)
            if recorded == nil { defaults.history[parent] = s }
            let targets = recorded ?? historyDefaultTargets(s)
            for t in targets { addDescendantStatesToEnter(t, &toEnter, historyValue, &defaults) }
            for t in targets { addAncestorStatesToEnter(t, upTo: parent, &toEnter, historyValue, &defaults) }
            return
        }
        toEnter.insert(s)
        if isCompound(s) {
            addDefaultEntry(of: s, &toEnter, historyValue, &defaults)
        } else if isParallel(s) {
            enterUncoveredRegions(of: s, &toEnter, historyValue, &defaults)
        }
    }

    private func addAncestorStatesToEnter(_ s: StateID, upTo ancestor: StateID, _ toEnter: inout Set<StateID>,
                                          _ historyValue: (StateID) -> [StateID]?, _ defaults: inout DefaultEntries) {
        for anc in properAncestors(s, upTo: ancestor) {
            toEnter.insert(anc)
            if isParallel(anc) { enterUncoveredRegions(of: anc, &toEnter, historyValue, &defaults) }
        }
    }

    /// The regions of parallel state `p` that nothing entered so far lies in get their
    /// default entry.
    private func enterUncoveredRegions(of p: StateID, _ toEnter: inout Set<StateID>,
                                       _ historyValue: (StateID) -> [StateID]?, _ defaults: inout DefaultEntries) {
        for child in childStates(p) where !toEnter.contains(where: { $0 == child || isDescendant($0, of: child) }) {
            addDescendantStatesToEnter(child, &toEnter, historyValue, &defaults)
        }
    }

    // MARK: - History and completion

    /// What history state `h` records when its parent is exited with `configuration`
    /// active: the active children of the parent (shallow), or its active atomic
    /// descendants (deep), in document order.
    package func historyToRecord(_ h: StateID, configuration: Set<StateID>) -> [StateID] {
        guard let parent = self[h].parent else { return [] }
        if self[h].isDeepHistory {
            return configuration.filter { isAtomic($0) && isDescendant($0, of: parent) }.sorted()
        }
        return configuration.filter { self[$0].parent == parent }.sorted()
    }

    /// Whether `s` has completed (SCXML `isInFinalState`): a compound state whose active
    /// child is final, or a parallel state whose regions have all completed.
    package func isInFinalState(_ s: StateID, configuration: Set<StateID>) -> Bool {
        if isCompound(s) {
            return childStates(s).contains { self[$0].isFinal && configuration.contains($0) }
        }
        if isParallel(s) {
            return childStates(s).allSatisfy { isInFinalState($0, configuration: configuration) }
        }
        return false
    }

    /// The fields the completion of `s` carries (`done(s)` reads them by name, in this order):
    /// the values its final children give (the resolver holds every final child of one state
    /// to the same names and types, so the first one's stand for all). None for a parallel
    /// state, whose completion carries no data, nor for a state with no final child.
    package func completionFields(_ s: StateID) -> [Field] {
        guard isCompound(s), let f = childStates(s).first(where: { self[$0].isFinal }) else { return [] }
        return self[f].doneData.map { Field(name: $0.name, type: $0.value.type, range: $0.range) }
    }

    /// The states whose completion entering final state `f` announces, in the order SCXML
    /// queues them (`enterStates`): its parent, then the grandparent when that is a
    /// parallel state all of whose regions are now complete. Empty for a top-level final
    /// state, which ends the run instead.
    package func completions(enteringFinal f: StateID, configuration: Set<StateID>) -> [StateID] {
        guard let parent = self[f].parent, parent != root else { return [] }
        var result = [parent]
        if let grandparent = self[parent].parent, isParallel(grandparent),
           childStates(grandparent).allSatisfy({ isInFinalState($0, configuration: configuration) }) {
            result.append(grandparent)
        }
        return result
    }
}

/// A state and its ancestors, innermost first, up to a limit (`Machine.selfAndAncestors`):
/// each `next()` follows one `parent` link, so asking costs no array.
public struct AncestorChain: Sequence, IteratorProtocol {
    let states: [State]
    var upcoming: StateID?
    let limit: StateID?

    /// The next state up, nil past the root or at the limit.
    public mutating func next() -> StateID? {
        guard let s = upcoming, s != limit else { return nil }
        upcoming = states[s.index].parent
        return s
    }
}

/// The default entries an entry set takes (SCXML's `statesForDefaultEntry` and
/// `defaultHistoryContent`), whose actions run right after the entry actions of the state
/// they belong to: `initial -> a { … }` of a compound state entered by default, and
/// `history state h -> c { … }` of a history state whose default is taken (run after
/// its parent's entry actions).
package struct DefaultEntries: Equatable, Sendable {
    /// Compound states entered by default through their `initial ->`.
    package var initial: Set<StateID> = []
    /// For a parent state: its history state whose default was taken.
    package var history: [StateID: StateID] = [:]

    package init() {}

    /// The actions to run right after `s`'s entry actions, in order.
    package func actions(after s: StateID, in machine: Machine) -> [Action] {
        var result: [Action] = []
        if initial.contains(s) { result += machine[s].initialActions }
        if let h = history[s] { result += machine[h].historyActions }
        return result
    }
}
