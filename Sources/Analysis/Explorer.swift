import Dispatch
import StatecraftDiagnostics
import StatecraftModel
import StatecraftRuntime

/// One step of a witness: an event with its payload at a time, or waiting for a timer.
public enum WitnessStep: Sendable, Hashable {
    /// Send the event with these payload values (in field order) at this time, in seconds.
    case event(EventID, [Value], time: Double)
    /// Let time pass to `until`; the timers due by then fire.
    case wait(until: Double)
}

/// How far the search for witnesses goes.
public struct ExplorationBounds: Sendable, Equatable {
    /// The most steps in a witness.
    public var maxDepth: Int
    /// The most distinct configurations visited.
    public var maxConfigurations: Int

    /// Creates bounds; the defaults keep `check` of a hand-written spec well under a second.
    public init(maxDepth: Int = 12, maxConfigurations: Int = 5_000) {
        self.maxDepth = maxDepth
        self.maxConfigurations = maxConfigurations
    }
}

/// Breadth-first search over concrete configurations with the runtime's own step function:
/// each configuration tries every event with payloads drawn from the values the spec
/// compares against, and lets time pass to the next timer. The first time a state is active
/// or a transition fires, the path there is its shortest witness.
struct Explorer {
    struct Node {
        var instance: Instance
        var parent: Int
        var step: WitnessStep?
        var depth: Int
        /// False for a node kept only as the end of a witness (its configuration was
        /// already reached another way, and is expanded there).
        var expand = true
        /// Whether every step on the way here succeeded. Waiting past a timer whose step
        /// fails is a real run (the failed step is undone, time passes), but a log of it
        /// does not replay under `--strict`, so a clean witness is preferred.
        var clean = true
        /// The run's properties so far; nil when the spec has none to watch (a search without
        /// properties copies nothing more per node).
        var monitor: PropertyMonitor?
    }

    /// A property a run broke, and the node whose configuration broke it (for a deadline,
    /// the node whose step passed it).
    struct ViolationWitness {
        var violation: PropertyViolation
        var node: Int
    }

    /// Two transitions of one state and event whose guards both held, and where.
    struct OverlapWitness {
        var first: TransitionID
        var second: TransitionID
        /// The event both take, and the time it is sent (the configuration's).
        var event: EventID
        var time: Double
        var path: [WitnessStep]
        var payload: [Value]
        var variables: [Value]
    }

    /// A step the search saw fail at run time, and how to get there.
    struct FaultWitness {
        var fault: ExpressionFault
        /// The path to the configuration, then the step that failed.
        var path: [WitnessStep]
    }

    let program: Program
    let bounds: ExplorationBounds
    /// The plain search the tests compare the fast one with: one node at a time, every
    /// payload sent on a copy, the candidates built from scratch (no templates, no probe,
    /// no parallel workers).
    let reference: Bool
    var nodes: [Node] = []
    /// The initial state's entry failed: the machine cannot start, nothing is explored.
    var startFault: ExpressionFault?
    /// The first failing step found for each faulting expression, in the order found.
    var faults: [FaultWitness] = []
    private var faultSites: Set<SourceRange> = []
    /// A configuration was left unexpanded because its witness would be too long.
    var depthBoundHit = false
    /// The search stopped at the most configurations it may visit.
    var configurationBoundHit = false
    /// Some event was tried with a sample of its payloads, not one per region.
    var payloadsSampled = false
    /// Some step armed a timer whose deadline does not mean its delay (at a time so large
    /// that `now + delay` rounds far off): a replay refuses a log of it, so the search did
    /// not go on from there, and what it did not reach is no proof.
    var deadlinesRefused = false
    /// Guards whose fields' value combinations were sampled.
    var cuts: Set<PayloadCandidates.Cut> = []
    var stateWitness: [Int?]
    var transitionWitness: [Int?]
    /// For a transition first fired by a step out of a node: the node index of that step's result.
    var overlaps: [OverlapWitness] = []
    var seenOverlaps: Set<[Int]> = []
    /// Whether the spec has properties a run can break: every node then carries a
    /// `PropertyMonitor`, which takes part in its key.
    let watchesProperties: Bool
    /// By property index: the first violation found, with the shortest run to it.
    var violations: [ViolationWitness?]
    /// Whether the search keeps every step between the configurations it admits
    /// (`successors`): `always reachable` is decided on that graph.
    let tracksEdges: Bool
    /// By node index: the nodes its steps lead to (kept when `tracksEdges`).
    var successors: [[Int32]] = []
    /// The first node admitted with each key (kept when `tracksEdges`).
    private var nodeOfKey: [[UInt64]: Int] = [:]
    /// Whether the search visited every configuration it could reach (no bound stopped it).
    var exhausted: Bool { !depthBoundHit && !configurationBoundHit }

    /// By transition: whether it has a real guard (not none, not a constant one). One
    /// without is the fallback ("else") of those above it, not an overlap.
    let hasRealGuard: [Bool]

    /// By variable index: the variables configurations are not told apart by (empty: none).
    /// See `VariableRelevance` for why merging on them loses nothing.
    let ignored: [Bool]
    /// By field (every event's fields in a row): the fields of pending sent events left out too.
    let ignoredFields: [Bool]

    init(program: Program, bounds: ExplorationBounds, reference: Bool = false, merging: Bool = true) {
        self.program = program
        self.bounds = bounds
        self.reference = reference
        let relevance = VariableRelevance(program.machine)
        ignored = merging && relevance.mergesAnything ? relevance.relevant.map { !$0 } : []
        ignoredFields = merging && relevance.mergesAnything ? relevance.relevantFields.map { !$0 } : []
        let constants = program.machine.constantValues
        hasRealGuard = program.machine.transitions.map { $0.guardExpr.map { $0.folded(constants: constants) == nil } ?? false }
        stateWitness = Array(repeating: nil, count: program.machine.states.count)
        templates = Array(repeating: nil, count: program.machine.states.count)
        numberVariables = program.machine.variables.filter { $0.type == .number }.count
        transitionWitness = Array(repeating: nil, count: program.machine.transitions.count)
        watchesProperties = PropertyMonitor.watches(program)
        violations = Array(repeating: nil, count: program.machine.properties.count)
        tracksEdges = program.properties.contains { $0.kind == .reachable }
    }

    /// Notes a step from node `from` to the configuration with `key`, if it was admitted.
    private mutating func noteEdge(from: Int, to key: [UInt64]) {
        guard tracksEdges, let target = nodeOfKey[key] else { return }
        while successors.count <= from { successors.append([]) }
        if !successors[from].contains(Int32(target)) { successors[from].append(Int32(target)) }
    }

    /// Writes the key that tells `node`'s configuration apart: its snapshot's, then what its
    /// monitor remembers of the run (two runs in one configuration whose properties stand
    /// differently have different futures).
    func writeKey(of node: Node, into key: inout [UInt64], strings: inout SnapshotStrings) {
        node.instance.writeSnapshotKey(into: &key, strings: &strings, ignoring: ignored, ignoringFields: ignoredFields)
        node.monitor?.writeKey(into: &key, now: node.instance.now)
    }

    /// The same with the strings numbered so far only (a parallel worker's): false when the
    /// configuration holds a string not numbered yet, so it is new.
    func writeKey(of instance: Instance, _ monitor: PropertyMonitor?, into key: inout [UInt64],
                  knownStrings strings: SnapshotStrings) -> Bool {
        guard instance.writeSnapshotKey(into: &key, knownStrings: strings, ignoring: ignored, ignoringFields: ignoredFields) else {
            return false
        }
        monitor?.writeKey(into: &key, now: instance.now)
        return true
    }

    /// Keeps the first violation of each property (the search goes breadth first, so the
    /// first is a shortest run).
    private mutating func noteViolations(_ found: [PropertyViolation], node: Int) {
        for v in found where violations[v.property] == nil { violations[v.property] = ViolationWitness(violation: v, node: node) }
    }

    /// Keeps the new violations of a step out of node `base` whose configuration is already
    /// known, with a node of its own for the witness (`witnessNode`).
    private mutating func noteViolations(_ found: [PropertyViolation], reachedFrom base: Int, by node: Node) {
        guard found.contains(where: { violations[$0.property] == nil }) else { return }
        noteViolations(found, node: witnessNode(node, base: base))
    }

    /// Whether every property is already violated or proven without the search (`proven`,
    /// by property index): nothing is left to decide by going on.
    func propertiesSettled(proven: [String?]) -> Bool {
        program.properties.allSatisfy { violations[$0.property] != nil || proven[$0.property] != nil }
    }

    /// The path of steps from the start to node `index`.
    func path(to index: Int) -> [WitnessStep] {
        var steps: [WitnessStep] = []
        var i = index
        while i > 0 {
            if let s = nodes[i].step { steps.append(s) }
            i = nodes[i].parent
        }
        return steps.reversed()
    }

    /// Explores until every target is found, the search space is used up, or a bound is hit;
    /// `done` says whether the remaining targets still need looking for.
    ///
    /// Expanding a configuration (trying every event and payload on a copy of it, and
    /// letting time pass) reads nothing the search changes, so the next nodes of the queue
    /// are expanded on every core at once. What the expansions found is then taken in queue
    /// order, exactly as if one node were expanded at a time: the result is the same as the
    /// `reference` search's, and at most one batch of expansions is wasted when `done`
    /// stops the search.
    mutating func run(stopWhen done: (Explorer) -> Bool) {
        let parallel = !reference
        guard let start = begin() else { return }
        // A configuration is expanded once, and once more if it was first reached only
        // through a failing step and later cleanly.
        var strings = SnapshotStrings()
        var key: [UInt64] = []
        writeKey(of: start, into: &key, strings: &strings)
        var seen = SeenConfigurations(start: key)
        if tracksEdges { nodeOfKey[key] = 0 }
        let payloads = PayloadCandidates(program.machine)
        let batchSize = parallel ? Explorer.parallelBatch : 1
        var head = 0
        while head < nodes.count {
            let batch = head..<min(nodes.count, head + batchSize)
            for index in batch where !reference && templates[nodes[index].instance.state.index] == nil {
                templates[nodes[index].instance.state.index] = payloads.templates(
                    state: nodes[index].instance.state, variableNumbers: numberVariables)
            }
            // (A temporary: holding the sets past the call would make the merge copy them.)
            let expansions = expand(batch, payloads,
                                    known: parallel ? Known(seen: seen, strings: strings) : nil)
            for index in batch {
                if done(self) { return }
                let node = nodes[index]
                if !node.expand { continue }
                if node.depth >= bounds.maxDepth {
                    depthBoundHit = true
                    continue
                }
                guard let expansion = expansions[index - batch.lowerBound] else { continue }
                if expansion.sampled { payloadsSampled = true }
                if expansion.deadlinesRefused { deadlinesRefused = true }
                cuts.formUnion(expansion.cuts)
                for check in expansion.overlapChecks { noteOverlaps(check, node: index) }
                for (fault, step) in expansion.faults { noteFault(fault, node: index, step: step) }
                for successor in expansion.successors {
                    guard let node = successor.node else {  // known before the batch
                        if let known = successor.key { noteEdge(from: index, to: known) }
                        continue
                    }
                    if let written = successor.key {
                        key = written
                    } else {
                        writeKey(of: node, into: &key, strings: &strings)
                    }
                    if seen.contains(key, clean: node.clean) {
                        noteEdge(from: index, to: key)
                        // A deadline passed on the way is the step's, not the configuration's.
                        noteViolations(successor.violations, reachedFrom: index, by: node)
                        continue
                    }
                    guard admit(node, key: key, parent: index, into: &seen) else { return }
                    if tracksEdges && nodeOfKey[key] == nil { nodeOfKey[key] = nodes.count - 1 }
                    noteEdge(from: index, to: key)
                    noteViolations(successor.violations, node: nodes.count - 1)
                }
                // Transitions fired on the way to configurations already seen still count.
                resolvePending(expansion, base: index)
            }
            head = batch.upperBound
        }
        if depthBoundHit && frontierIsClosed(payloads, seen: seen, strings: strings) {
            depthBoundHit = false
        }
    }

    /// Starts the machine as node 0 and marks what its start entered and took; nil when
    /// the start fails (nothing is explored then).
    private mutating func begin() -> Node? {
        var start = Instance(program)
        // A statechart's step may take several transitions (eventless ones, completions,
        // raised events) and enter states it leaves again: the log tells them all.
        let log = MicrostepLog()
        if program.isStatechart { start.microsteps = log }  // (a flat machine's steps record nothing)
        if case .failed(let fault) = start.start().result {
            // The start is deterministic (constant initial values, no payload): a machine
            // whose initial entry fails never runs.
            startFault = fault
            nodes.append(Node(instance: start, parent: -1, step: nil, depth: 0, expand: false, monitor: nil))
            return nil
        }
        var monitor = watchesProperties ? PropertyMonitor(program) : nil
        var found: [PropertyViolation] = []
        monitor?.observe(&start, at: 0, took: -1, violations: &found)
        let node = Node(instance: start, parent: -1, step: nil, depth: 0, monitor: monitor)
        nodes.append(node)
        noteViolations(found, node: 0)
        markStates(of: start, node: 0)
        for t in log.takenTransitions where transitionWitness[t.index] == nil { transitionWitness[t.index] = 0 }
        for s in log.enteredStates where stateWitness[s.index] == nil { stateWitness[s.index] = 0 }
        return node
    }

    /// The search for one target (`check --reach`): best first instead of breadth first.
    /// `distance` says how far a configuration is from the target (fewest transitions, in a
    /// graph of the states that over-approximates every step), nil when no sequence of
    /// transitions leads from it to the target at all; such a configuration is not kept
    /// (`pruned` counts them), and the others are expanded nearest first, then shallowest
    /// first, then in the order found. Everything else is as in `run`: the same steps, the
    /// same configurations told apart, the same bounds; only the order in which the budget
    /// is spent differs, and that no configuration is spent on what cannot lead there. As
    /// nothing that can lead to the target is left out, a search that runs out of
    /// configurations is as much a proof as `run`'s. One node at a time, on this thread.
    mutating func runTargeted(distance: (Instance) -> Int?, stopWhen done: (Explorer) -> Bool) {
        guard let start = begin() else { return }
        var strings = SnapshotStrings()
        var key: [UInt64] = []
        writeKey(of: start, into: &key, strings: &strings)
        var seen = SeenConfigurations(start: key)
        let payloads = PayloadCandidates(program.machine)
        let log = MicrostepLog()
        var queue = NodeQueue()
        if let d = distance(start.instance) { queue.push(NodeQueue.Entry(distance: d, depth: 0, index: 0)) } else { pruned += 1 }
        while let next = queue.pop() {
            if done(self) { return }
            let index = next.index
            let node = nodes[index]
            if node.depth >= bounds.maxDepth {
                depthBoundHit = true
                continue
            }
            let state = node.instance.state.index
            if templates[state] == nil {
                templates[state] = payloads.templates(state: node.instance.state, variableNumbers: numberVariables)
            }
            let expansion = expand(node, payloads, log, known: nil)
            if expansion.sampled { payloadsSampled = true }
            if expansion.deadlinesRefused { deadlinesRefused = true }
            cuts.formUnion(expansion.cuts)
            for check in expansion.overlapChecks { noteOverlaps(check, node: index) }
            for (fault, step) in expansion.faults { noteFault(fault, node: index, step: step) }
            for successor in expansion.successors {
                guard let node = successor.node else { continue }
                writeKey(of: node, into: &key, strings: &strings)
                if seen.contains(key, clean: node.clean) {
                    noteViolations(successor.violations, reachedFrom: index, by: node)
                    continue
                }
                guard let d = distance(node.instance) else {
                    pruned += 1
                    continue
                }
                guard admit(node, key: key, parent: index, into: &seen) else { return }
                noteViolations(successor.violations, node: nodes.count - 1)
                queue.push(NodeQueue.Entry(distance: d, depth: node.depth, index: nodes.count - 1))
            }
            resolvePending(expansion, base: index)
        }
    }

    /// Configurations a targeted search left out because the target cannot be reached from them.
    var pruned = 0

    /// Whether the nodes left unexpanded at the depth bound lead nowhere new: every step out
    /// of them ends in a configuration already visited and reaches no state or transition not
    /// reached yet. The visited configurations are then closed under every step, so the bound cut
    /// nothing off and the search has in fact seen everything: a `not-reached` verdict must
    /// not blame `--max-depth`, which would change nothing.
    private mutating func frontierIsClosed(_ payloads: PayloadCandidates, seen: SeenConfigurations,
                                           strings: SnapshotStrings) -> Bool {
        let log = MicrostepLog()
        var key: [UInt64] = []
        for index in nodes.indices where nodes[index].expand && nodes[index].depth >= bounds.maxDepth {
            let node = nodes[index]
            let state = node.instance.state.index
            if !reference && templates[state] == nil {
                templates[state] = payloads.templates(state: node.instance.state, variableNumbers: numberVariables)
            }
            let expansion = expand(node, payloads, log, known: nil)
            if expansion.sampled { payloadsSampled = true }
            if expansion.deadlinesRefused { deadlinesRefused = true }
            cuts.formUnion(expansion.cuts)
            if expansion.pendingTransitions.contains(where: { transitionWitness[$0.0.index] == nil })
                || expansion.pendingStates.contains(where: { stateWitness[$0.0.index] == nil }) {
                return false
            }
            for successor in expansion.successors {
                guard let next = successor.node else { continue }
                if successor.violations.contains(where: { violations[$0.property] == nil }) { return false }
                // A string never seen before makes a configuration never seen before.
                guard writeKey(of: next.instance, next.monitor, into: &key, knownStrings: strings) else { return false }
                if !seen.contains(key, clean: next.clean) { return false }
                noteEdge(from: index, to: key)
            }
        }
        return true
    }

    /// Per state index, the payload templates of its events (see `PayloadTemplates`), built
    /// when a node in that state is first expanded.
    private var templates: [[PayloadCandidates.Template?]?]
    private let numberVariables: Int

    /// How many nodes a parallel search expands at once: enough to keep every core busy,
    /// few enough that little is wasted when the search stops.
    static let parallelBatch = 32

    /// Everything that expanding one node found, in the order it was found.
    struct Expansion {
        /// The configurations the node's steps lead to: each event with each payload that
        /// fired, in order, then waiting for the next timer.
        var successors: [Successor] = []
        /// Transitions fired and (for statecharts) states entered by those steps, each with
        /// the index in `successors` of the configuration its step led to.
        var pendingTransitions: [(TransitionID, Int)] = []
        var pendingStates: [(StateID, Int)] = []
        /// Steps that fired a guarded transition, with the chains of transitions enabled there.
        var overlapChecks: [OverlapCheck] = []
        /// Steps that failed, in order.
        var faults: [(ExpressionFault, WitnessStep)] = []
        /// Some event was tried with a sample of its payloads.
        var sampled = false
        /// Some step was left out because it armed a deadline a replay refuses.
        var deadlinesRefused = false
        var cuts: Set<PayloadCandidates.Cut> = []
    }

    /// Where one step out of an expanded node led.
    struct Successor {
        /// The configuration, as the node it becomes if it is new; nil when a parallel
        /// worker found it among the configurations known before its batch and the step
        /// witnesses nothing not yet witnessed (dropped there, so that most steps' copies
        /// are freed on the worker's core, not in the in-order merge).
        var node: Node?
        /// Whether every step on the way succeeded (`Node.clean`).
        var clean: Bool
        /// Its snapshot key, when a worker wrote it.
        var key: [UInt64]?
        /// The properties its step violated.
        var violations: [PropertyViolation] = []
    }

    /// What a parallel worker may read of the search as it was before its batch (nothing
    /// changes it while workers run): the configurations seen, and the strings numbered.
    struct Known {
        var seen: SeenConfigurations
        var strings: SnapshotStrings
    }

    /// The configurations admitted so far, by snapshot key. One reached cleanly (no step on
    /// its way failed) is never admitted again; one reached only through a failing step is
    /// admitted once more if it is later reached cleanly, since its witness then improves.
    struct SeenConfigurations {
        var clean: Set<[UInt64]>
        var dirty: Set<[UInt64]> = []

        init(start: [UInt64]) { clean = [start] }

        /// Whether a configuration with `key`, reached cleanly or not, adds nothing new.
        func contains(_ key: [UInt64], clean isClean: Bool) -> Bool {
            clean.contains(key) || (!isClean && dirty.contains(key))
        }

        mutating func insert(_ key: [UInt64], clean isClean: Bool) {
            if isClean { clean.insert(key) } else { dirty.insert(key) }
        }
    }

    /// Adds `node`, reached from node `parent`, as a new configuration with `key`; false
    /// (the bound noted) when the configuration bound stops the search instead.
    private mutating func admit(_ node: Node, key: [UInt64], parent: Int, into seen: inout SeenConfigurations) -> Bool {
        if nodes.count >= bounds.maxConfigurations {
            configurationBoundHit = true
            return false
        }
        seen.insert(key, clean: node.clean)
        var node = node
        node.parent = parent
        nodes.append(node)
        markStates(of: node.instance, node: nodes.count - 1)
        return true
    }

    /// A step that fired a guarded transition: the chains of transitions enabled where it
    /// was taken, from which `noteOverlaps` picks the overlaps.
    struct OverlapCheck {
        var event: EventID
        var payload: [Value]
        /// The transitions the step selected (one per active leaf that took the event).
        var fired: [TransitionID]
        var chains: [[TransitionID]]
    }

    /// The expansions of the nodes in `batch` (nil for a node not to expand), each on a
    /// core of its own when the search is parallel (`known` is then what workers may read).
    private func expand(_ batch: Range<Int>, _ payloads: PayloadCandidates, known: Known?) -> [Expansion?] {
        let explorer = self
        let one = { @Sendable (index: Int, log: MicrostepLog) -> Expansion? in
            let node = explorer.nodes[index]
            guard node.expand, node.depth < explorer.bounds.maxDepth else { return nil }
            var expansion = explorer.expand(node, payloads, log, known: known)
            if let known { explorer.dropKnown(&expansion, known) }
            return expansion
        }
        guard known != nil, batch.count > 1 else {
            let log = MicrostepLog()
            return batch.map { one($0, log) }
        }
        let results = ExpansionSlots(count: batch.count)
        DispatchQueue.concurrentPerform(iterations: batch.count) { k in
            results.store(one(batch.lowerBound + k, MicrostepLog()), at: k)
        }
        return results.values
    }

    /// Tries every event with every candidate payload on copies of `node`'s instance, then
    /// lets time pass to its next timer; changes nothing in the search. The steps record
    /// their microsteps in `log`. (The successors' parents are set when they are kept.)
    private func expand(_ node: Node, _ payloads: PayloadCandidates, _ log: MicrostepLog, known: Known?) -> Expansion {
        var result = Expansion()
        var key: [UInt64] = []
        var instance = node.instance
        if program.isStatechart { instance.microsteps = log }
        // A timer already due fires before anything else can happen (replay fires it
        // before the next line), so the only way on is to let it.
        let timerDue = instance.nextDeadline.map { $0 <= instance.now } ?? false
        if !instance.isFinished && !timerDue {
            var probe = instance  // (its registers become its own at the first probe)
            let pool = payloads.pool(for: instance)
            let dynamic = Array(pool.numbers.dropFirst(payloads.general.count))
            let templates = templates[instance.state.index]  // (built before the batch)
            for event in program.machine.events {
                if !payloads.isComplete(event.id, in: instance) { result.sampled = true }
                let candidates = if !reference, let template = templates?[event.id.index] {
                    payloads.candidates(from: template, dynamic: dynamic, cuts: &result.cuts)
                } else {
                    // (A fixed list: the event has no fields, or is tried completely here.)
                    payloads.candidates(for: event, in: instance, from: pool, cuts: &result.cuts)
                }
                for payload in candidates {
                    // Most payloads are ignored by a flat machine: the probe says so without a
                    // copy of the instance. (A statechart's probe costs as much as its step.)
                    var chains: [[TransitionID]]?
                    if !reference && !program.isStatechart {
                        let probed = probe.probe(event.id, payload: payload)
                        if !probed.faulted && probed.chains.allSatisfy({ $0.isEmpty }) { continue }
                        chains = probed.chains
                    }
                    var next = instance
                    let step = next.send(event.id, payload: payload)
                    if case .failed(let fault) = step.result {
                        result.faults.append((fault, .event(event.id, payload, time: instance.now)))
                    }
                    guard case .applied(let t) = step.result else { continue }
                    // A log of this step would be refused at its line (`Instance.deadlineHolds`).
                    if next.unrepresentableDeadline != nil {
                        result.deadlinesRefused = true
                        continue
                    }
                    if let check = overlapCheck(event.id, payload, in: instance, chains: chains, fired: t, log) {
                        result.overlapChecks.append(check)
                    }
                    var monitor = node.monitor
                    var violated: [PropertyViolation] = []
                    monitor?.observe(&next, at: next.now, took: Int32(event.id.index), violations: &violated)
                    // Most steps lead where the search has been, and witness nothing new: a
                    // parallel worker leaves them out at once (what `dropKnown` does for the rest).
                    if let known, violated.isEmpty, !tracksEdges {
                        let mayWitness = log.count > 0
                            ? log.takenTransitions.contains { improves(transitionWitness[$0.index], clean: node.clean) }
                                || log.enteredStates.contains { improves(stateWitness[$0.index], clean: node.clean) }
                            : improves(transitionWitness[t.index], clean: node.clean)
                        if !mayWitness, writeKey(of: next, monitor, into: &key, knownStrings: known.strings),
                           known.seen.contains(key, clean: node.clean) {
                            continue
                        }
                    }
                    result.successors.append(Successor(node: Node(instance: next, parent: -1,
                                                                  step: .event(event.id, payload, time: instance.now),
                                                                  depth: node.depth + 1, clean: node.clean, monitor: monitor),
                                                       clean: node.clean, violations: violated))
                    let successor = result.successors.count - 1
                    if log.count > 0 {
                        for taken in log.takenTransitions { result.pendingTransitions.append((taken, successor)) }
                        for s in log.enteredStates { result.pendingStates.append((s, successor)) }
                    } else {
                        result.pendingTransitions.append((t, successor))
                    }
                }
            }
        }
        if !instance.isFinished, let deadline = instance.nextDeadline {
            var next = instance
            var fired: [TransitionID] = []
            var entered: [StateID] = []
            var failed: [ExpressionFault] = []
            var monitor = node.monitor
            var violated: [PropertyViolation] = []
            func note(_ step: Step) {
                switch step.result {
                case .applied where log.count > 0:
                    fired += log.takenTransitions
                    entered += log.enteredStates
                case .applied(let t): fired.append(t)
                case .failed(let fault): failed.append(fault)
                default: break
                }
            }
            if monitor != nil {
                // Every timer's step is a stable configuration of its own, watched in turn.
                monitor?.advance(&next, to: deadline, violations: &violated, onStep: note)
            } else {
                next.advance(to: deadline, onStep: note)
            }
            // A log of this wait would be refused (`Instance.deadlineHolds`).
            if next.unrepresentableDeadline != nil {
                result.deadlinesRefused = true
                return result
            }
            for fault in failed { result.faults.append((fault, .wait(until: deadline))) }
            let clean = node.clean && failed.isEmpty
            result.successors.append(Successor(node: Node(instance: next, parent: -1, step: .wait(until: deadline),
                                                          depth: node.depth + 1, clean: clean, monitor: monitor),
                                               clean: clean, violations: violated))
            for t in fired { result.pendingTransitions.append((t, result.successors.count - 1)) }
            for s in entered { result.pendingStates.append((s, result.successors.count - 1)) }
        }
        // With no timer left to wait for, the environment may still let time pass: past a
        // pending response's deadline, that is a violation (the first whole second after it,
        // a time a log writes plainly).
        if instance.isFinished || instance.nextDeadline == nil, let deadline = node.monitor?.nextDeadline(program) {
            let until = (deadline + 1).rounded(.down)
            var next = instance
            var monitor = node.monitor
            var violated: [PropertyViolation] = []
            monitor?.clockMoves(to: until, program, violations: &violated)
            next.moveClock(to: until)
            result.successors.append(Successor(node: Node(instance: next, parent: -1, step: .wait(until: until),
                                                          depth: node.depth + 1, clean: node.clean, monitor: monitor),
                                               clean: node.clean, violations: violated))
        }
        return result
    }

    /// In a parallel worker: writes each successor's key, and drops the successors whose
    /// configuration was seen before the batch (the merge would skip them: the seen sets
    /// only grow) unless their step may still be the witness of a transition or state
    /// (`resolvePending` then needs the node).
    private func dropKnown(_ expansion: inout Expansion, _ known: Known) {
        var mayWitness = Array(repeating: false, count: expansion.successors.count)
        for (t, k) in expansion.pendingTransitions where improves(transitionWitness[t.index], clean: expansion.successors[k].clean) {
            mayWitness[k] = true
        }
        for (s, k) in expansion.pendingStates where improves(stateWitness[s.index], clean: expansion.successors[k].clean) {
            mayWitness[k] = true
        }
        var key: [UInt64] = []
        for k in expansion.successors.indices {
            guard let node = expansion.successors[k].node,
                  writeKey(of: node.instance, node.monitor, into: &key, knownStrings: known.strings) else { continue }
            // (The key stays: `always reachable` needs the step even where it leads.)
            expansion.successors[k].key = key
            if !mayWitness[k] && expansion.successors[k].violations.isEmpty && known.seen.contains(key, clean: node.clean) {
                expansion.successors[k].node = nil
            }
        }
    }

    /// Whether a step (clean or not) may replace the witness `old`: there is none, or it goes
    /// through a failing step and this one does not (the one rule `resolvePending` and the
    /// workers both apply).
    private func improves(_ old: Int?, clean: Bool) -> Bool {
        guard let old else { return true }
        return !nodes[old].clean && clean
    }

    /// Whether a witness ending at node `new` should replace `old`: there was none, or the
    /// old one goes through a failing step and the new one does not.
    private func better(_ new: Int, than old: Int?) -> Bool {
        guard let old else { return true }
        return !nodes[old].clean && nodes[new].clean
    }

    /// Gives each newly fired transition the node its step produced (appending that node if
    /// its configuration was already known through another path).
    private mutating func resolvePending(_ expansion: Expansion, base: Int) {
        let machine = program.machine
        for (t, successorIndex) in expansion.pendingTransitions {
            let successor = expansion.successors[successorIndex]
            guard improves(transitionWitness[t.index], clean: successor.clean) else { continue }
            // (A worker drops only nodes that cannot get here.)
            guard let node = successor.node else { continue }
            transitionWitness[t.index] = witnessNode(node, base: base)
            // A state is reached when a step enters it, even one that a timer due at the same
            // instant leaves again before the search rests anywhere. (A statechart's step
            // says which states it entered: `pendingStates`.)
            guard let target = machine[t].target, !machine[target].isHistory,
                  let node = transitionWitness[t.index] else { continue }
            for s in machine.selfAndAncestors(target, upTo: machine.root) where better(node, than: stateWitness[s.index]) {
                stateWitness[s.index] = node
            }
        }
        for (s, successorIndex) in expansion.pendingStates {
            let successor = expansion.successors[successorIndex]
            guard improves(stateWitness[s.index], clean: successor.clean) else { continue }
            guard let node = successor.node else { continue }
            stateWitness[s.index] = witnessNode(node, base: base)
        }
    }

    /// The node that ends the witness of a step out of node `base`: the successor's own
    /// node, or one appended for it (its configuration was already known another way).
    private mutating func witnessNode(_ successor: Node, base: Int) -> Int {
        if let existing = nodes.lastIndex(where: { $0.parent == base && $0.step == successor.step }) { return existing }
        nodes.append(Node(instance: successor.instance, parent: base, step: successor.step,
                          depth: successor.depth, expand: false, clean: successor.clean, monitor: successor.monitor))
        return nodes.count - 1
    }

    /// Keeps the first witness of each expression seen failing.
    private mutating func noteFault(_ fault: ExpressionFault, node: Int, step: WitnessStep) {
        guard faultSites.insert(fault.range).inserted else { return }
        faults.append(FaultWitness(fault: fault, path: path(to: node) + [step]))
    }

    private mutating func markStates(of instance: Instance, node: Int) {
        for s in instance.activeStates where better(node, than: stateWitness[s.index]) { stateWitness[s.index] = node }
    }

    /// For a step out of `instance` that fired `first` (and, for a statechart, took what
    /// `log` holds): the chains of enabled transitions there, when the step selected a
    /// guarded transition (only those can overlap).
    private func overlapCheck(_ event: EventID, _ payload: [Value], in instance: Instance, chains: [[TransitionID]]?,
                              fired first: TransitionID, _ log: MicrostepLog) -> OverlapCheck? {
        guard hasRealGuard[first.index] || log.count > 0 else { return nil }
        let fired = log.count > 0 ? log.transitions(0) : [first]
        guard fired.contains(where: { hasRealGuard[$0.index] }) else { return nil }
        return OverlapCheck(event: event, payload: payload, fired: fired,
                            chains: chains ?? instance.enabledChains(event, payload: payload))
    }

    /// Records two guarded transitions that can both take the same event at once: in one
    /// state, or in a state and its ancestor (for a statechart, within the chain of one active
    /// leaf; transitions in different regions do not compete, they both fire).
    /// An overlap is witnessed where the first transition of the pair is the one that really
    /// fires (`check.fired`, the transitions the runtime's own step selected): both guards
    /// hold, and the first wins.
    private mutating func noteOverlaps(_ check: OverlapCheck, node: Int) {
        func guarded(_ t: TransitionID) -> Bool { hasRealGuard[t.index] }
        for chain in check.chains {
            guard let first = chain.first, guarded(first), check.fired.contains(first) else { continue }
            for other in chain.dropFirst() where guarded(other) {
                guard seenOverlaps.insert([first.index, other.index]).inserted else { continue }
                overlaps.append(OverlapWitness(first: first, second: other, event: check.event,
                                               time: nodes[node].instance.now, path: path(to: node),
                                               payload: check.payload, variables: nodes[node].instance.variables))
            }
        }
    }
}

/// The nodes a targeted search has yet to expand, nearest to the target first (a binary heap).
struct NodeQueue {
    struct Entry {
        var distance: Int
        var depth: Int
        var index: Int

        func before(_ other: Entry) -> Bool {
            (distance, depth, index) < (other.distance, other.depth, other.index)
        }
    }

    private var heap: [Entry] = []

    mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].before(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Entry? {
        guard let first = heap.first else { return nil }
        let last = heap.removeLast()
        if heap.isEmpty { return first }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var best = parent
            if left < heap.count && heap[left].before(heap[best]) { best = left }
            if right < heap.count && heap[right].before(heap[best]) { best = right }
            if best == parent { break }
            heap.swapAt(parent, best)
            parent = best
        }
        return first
    }
}

/// One slot per expansion of a parallel batch: each is written by one thread (through the
/// pointer, so no two threads ever access one Swift variable), and read after
/// `concurrentPerform` has returned.
private final class ExpansionSlots: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Explorer.Expansion?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    func store(_ expansion: Explorer.Expansion?, at k: Int) { slots[k] = expansion }

    var values: [Explorer.Expansion?] { Array(slots) }
}
