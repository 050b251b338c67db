import StatecraftDiagnostics
import StatecraftModel
import StatecraftRuntime

/// One step of a witness: an event with its payload at a time, or waiting for a timer.
public enum WitnessStep: Sendable, Equatable {
    case event(EventID, [Value], time: Double)
    /// Let time pass to `until`; the timers due by then fire.
    case wait(until: Double)
}

/// How far the search for witnesses goes.
public struct ExplorationBounds: Sendable {
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
    /// Guards whose fields' value combinations were sampled.
    var cuts: Set<PayloadCandidates.Cut> = []
    var stateWitness: [Int?]
    var transitionWitness: [Int?]
    /// For a transition first fired by a step out of a node: the node index of that step's result.
    var overlaps: [OverlapWitness] = []
    var seenOverlaps: Set<[Int]> = []
    /// Whether the search visited every configuration it could reach (no bound stopped it).
    var exhausted: Bool { !depthBoundHit && !configurationBoundHit }

    /// By transition: whether it has a real guard (not none, not a constant one). One
    /// without is the fallback ("else") of those above it, not an overlap.
    let hasRealGuard: [Bool]

    init(program: Program, bounds: ExplorationBounds) {
        self.program = program
        self.bounds = bounds
        let constants = program.machine.constantValues
        hasRealGuard = program.machine.transitions.map { $0.guardExpr.map { $0.folded(constants: constants) == nil } ?? false }
        stateWitness = Array(repeating: nil, count: program.machine.states.count)
        transitionWitness = Array(repeating: nil, count: program.machine.transitions.count)
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
    mutating func run(stopWhen done: (Explorer) -> Bool) {
        let machine = program.machine
        var start = Instance(program)
        // A statechart's step may take several transitions (eventless ones, completions,
        // raised events) and enter states it leaves again: the log tells them all.
        let log = MicrostepLog()
        if program.isStatechart { start.microsteps = log }  // (a flat machine's steps record nothing)
        if case .failed(let fault) = start.start().kind {
            // The start is deterministic (constant initial values, no payload): a machine
            // whose initial entry fails never runs.
            startFault = fault
            nodes.append(Node(instance: start, parent: -1, step: nil, depth: 0, expand: false))
            return
        }
        nodes.append(Node(instance: start, parent: -1, step: nil, depth: 0))
        markStates(of: start, node: 0)
        for t in log.takenTransitions where transitionWitness[t.index] == nil { transitionWitness[t.index] = 0 }
        for s in log.enteredStates where stateWitness[s.index] == nil { stateWitness[s.index] = 0 }
        // A configuration is expanded once, and once more if it was first reached only
        // through a failing step and later cleanly.
        var seenClean: Set<Snapshot> = [start.snapshot]
        var seenDirty: Set<Snapshot> = []
        let payloads = PayloadCandidates(machine)
        var head = 0
        while head < nodes.count {
            if done(self) { return }
            let node = nodes[head]
            let index = head
            head += 1
            if !node.expand { continue }
            if node.depth >= bounds.maxDepth {
                depthBoundHit = true
                continue
            }
            var successors: [Node] = []
            // A timer already due fires before anything else can happen (replay fires it
            // before the next line), so the only way on is to let it.
            let timerDue = node.instance.nextDeadline.map { $0 <= node.instance.now } ?? false
            if !node.instance.isFinished && !timerDue {
                let pool = payloads.pool(for: node.instance)
                for event in machine.events {
                    if !payloads.isComplete(event.id, in: node.instance) { payloadsSampled = true }
                    for payload in payloads.candidates(for: event, in: node.instance, from: pool, cuts: &cuts) {
                        var next = node.instance
                        let step = next.send(event.id, payload: payload)
                        if case .fired(let t) = step.kind { noteOverlaps(event.id, payload, node: index, fired: t, log) }
                        if case .failed(let fault) = step.kind {
                            noteFault(fault, node: index, step: .event(event.id, payload, time: node.instance.now))
                        }
                        guard case .fired(let t) = step.kind else { continue }
                        successors.append(Node(instance: next, parent: index,
                                               step: .event(event.id, payload, time: node.instance.now),
                                               depth: node.depth + 1, clean: node.clean))
                        record(t, log, successor: successors.count - 1)
                    }
                }
            }
            if !node.instance.isFinished {
                if let deadline = node.instance.nextDeadline {
                    var next = node.instance
                    var fired: [TransitionID] = []
                    var entered: [StateID] = []
                    var failed: [ExpressionFault] = []
                    next.advance(to: deadline, onStep: { step in
                        switch step.kind {
                        case .fired where log.count > 0:
                            fired += log.takenTransitions
                            entered += log.enteredStates
                        case .fired(let t): fired.append(t)
                        case .failed(let fault): failed.append(fault)
                        default: break
                        }
                    })
                    for fault in failed { noteFault(fault, node: index, step: .wait(until: deadline)) }
                    successors.append(Node(instance: next, parent: index, step: .wait(until: deadline), depth: node.depth + 1,
                                           clean: node.clean && failed.isEmpty))
                    for t in fired { pendingTransitions.append((t, successors.count - 1)) }
                    for s in entered { pendingStates.append((s, successors.count - 1)) }
                }
            }
            for successor in successors {
                let key = successor.instance.snapshot
                if seenClean.contains(key) || (!successor.clean && seenDirty.contains(key)) {
                    continue
                }
                if nodes.count >= bounds.maxConfigurations {
                    configurationBoundHit = true
                    return
                }
                if successor.clean { seenClean.insert(key) } else { seenDirty.insert(key) }
                nodes.append(successor)
                markStates(of: successor.instance, node: nodes.count - 1)
            }
            // Transitions fired on the way to configurations already seen still count.
            resolvePending(successors, base: index)
        }
    }

    /// Transitions fired and (for statecharts) states entered by the steps out of the node
    /// being expanded, each with the index of the successor its step produced.
    private var pendingTransitions: [(TransitionID, Int)] = []
    private var pendingStates: [(StateID, Int)] = []

    /// Notes what a step that fired `t` did: for a statechart, every transition its
    /// microsteps took and every state they entered (`log`); for a flat machine, `t`.
    private mutating func record(_ t: TransitionID, _ log: MicrostepLog, successor: Int) {
        guard log.count > 0 else {
            pendingTransitions.append((t, successor))
            return
        }
        for taken in log.takenTransitions { pendingTransitions.append((taken, successor)) }
        for s in log.enteredStates { pendingStates.append((s, successor)) }
    }

    /// Whether a witness ending at node `new` should replace `old`: there was none, or the
    /// old one goes through a failing step and the new one does not.
    private func better(_ new: Int, than old: Int?) -> Bool {
        guard let old else { return true }
        return !nodes[old].clean && nodes[new].clean
    }

    /// Gives each newly fired transition the node its step produced (appending that node if
    /// its configuration was already known through another path).
    private mutating func resolvePending(_ successors: [Node], base: Int) {
        let machine = program.machine
        for (t, successorIndex) in pendingTransitions {
            let successor = successors[successorIndex]
            if let old = transitionWitness[t.index], nodes[old].clean || !successor.clean { continue }
            transitionWitness[t.index] = witnessNode(successor, base: base)
            // A state is reached when a step enters it, even one that a timer due at the same
            // instant leaves again before the search rests anywhere. (A statechart's step
            // says which states it entered: `pendingStates`.)
            if let target = machine[t].target, machine[target].isHistory { continue }
            var entered = machine[t].target
            while let s = entered, s != machine.root, let node = transitionWitness[t.index] {
                if better(node, than: stateWitness[s.index]) { stateWitness[s.index] = node }
                entered = machine[s].parent
            }
        }
        for (s, successorIndex) in pendingStates {
            let successor = successors[successorIndex]
            if let old = stateWitness[s.index], nodes[old].clean || !successor.clean { continue }
            stateWitness[s.index] = witnessNode(successor, base: base)
        }
        pendingTransitions.removeAll()
        pendingStates.removeAll()
    }

    /// The node that ends the witness of a step out of node `base`: the successor's own
    /// node, or one appended for it (its configuration was already known another way).
    private mutating func witnessNode(_ successor: Node, base: Int) -> Int {
        if let existing = nodes.lastIndex(where: { $0.parent == base && $0.step == successor.step }) { return existing }
        nodes.append(Node(instance: successor.instance, parent: base, step: successor.step,
                          depth: successor.depth, expand: false, clean: successor.clean))
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

    /// Records two guarded transitions that can both take the same event at once: in one
    /// state, or in a state and its ancestor (for a statechart, within the chain of one active
    /// leaf; transitions in different regions do not compete, they both fire).
    /// An overlap is witnessed where the first transition of the pair is the one that really
    /// fires (`fired`, the transitions the runtime's own step selected): both guards hold,
    /// and the first wins.
    private mutating func noteOverlaps(_ event: EventID, _ payload: [Value], node: Int, fired first: TransitionID,
                                       _ log: MicrostepLog) {
        func guarded(_ t: TransitionID) -> Bool { hasRealGuard[t.index] }
        guard guarded(first) || log.count > 0 else { return }
        let fired = log.count > 0 ? log.transitions(0) : [first]
        guard fired.contains(where: guarded) else { return }
        for chain in nodes[node].instance.enabledChains(event, payload: payload) {
            guard let first = chain.first, guarded(first), fired.contains(first) else { continue }
            for other in chain.dropFirst() where guarded(other) {
                guard seenOverlaps.insert([first.index, other.index]).inserted else { continue }
                overlaps.append(OverlapWitness(first: first, second: other, event: event,
                                               time: nodes[node].instance.now, path: path(to: node),
                                               payload: payload, variables: nodes[node].instance.variables))
            }
        }
    }
}
