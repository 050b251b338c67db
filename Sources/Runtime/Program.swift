import StatecraftDiagnostics
import StatecraftModel

/// A checked machine compiled for running: transitions grouped by (state, event), guards
/// and actions compiled per event so payload fields are slots, timers listed per state.
///
/// Build one per machine and share it between instances; it is immutable.
public final class Program: Sendable {
    /// The machine it was compiled from.
    public let machine: Machine

    /// A class, so the step function holds one reference per transition it looks at rather
    /// than copying (and retaining) each of its fields.
    final class CompiledTransition: Sendable {
        let id: TransitionID
        let guardCode: Code?
        let target: StateID?
        let actions: [CodeAction]
        let localCount: Int
        /// The transition's domain (exited below, entered below) and the states it enters,
        /// outermost first: fixed by the model, so computed once here.
        let domain: StateID
        let entryPath: [StateID]

        init(_ t: Transition, compiler: Compiler, machine: Machine) {
            id = t.id
            guardCode = t.guardExpr.map(compiler.code)
            target = t.target
            actions = compiler.actions(t.actions)
            localCount = t.localCount
            if let target = t.target {
                domain = Program.transitionDomain(machine, source: t.source, target: target)
                entryPath = Program.entryPath(machine, from: domain, to: target)
            } else {
                domain = machine.root
                entryPath = []
            }
        }
    }

    struct Timer: Sendable {
        var transition: CompiledTransition
        var delay: Code
    }

    let eventCount: Int
    /// `byStateAndEvent[state * eventCount + event]`: the transitions of that state on that
    /// event, in source order.
    let byStateAndEvent: [[CompiledTransition]]
    /// The `after` transitions of each state, in source order.
    let timers: [[Timer]]
    let entry: [[CodeAction]]
    let exit: [[CodeAction]]
    /// The most `let` slots any action list needs.
    let localSlots: Int
    /// Event ids by name, for callers that send events by name.
    let eventIDs: [String: EventID]
    /// Each state's parent index (-1 for the root), so hot loops never copy a `State`.
    let parents: [Int]
    /// Whether entering the state ends the run: a final state directly under the root.
    let endsRun: [Bool]
    /// The states entered at start, outermost first.
    let initialPath: [StateID]

    /// Compiles a machine that checked without errors.
    public init(_ machine: Machine) {
        self.machine = machine
        let constants = machine.constantValues
        eventCount = machine.events.count
        var table = Array(repeating: [CompiledTransition](), count: machine.states.count * max(1, eventCount))
        var timers = Array(repeating: [Timer](), count: machine.states.count)
        var slots = 0
        for t in machine.transitions {
            slots = max(slots, t.localCount)
            switch t.trigger {
            case .events(let events):
                for e in events {
                    let fields = machine[e].fields.map(\.name)
                    let compiled = CompiledTransition(t, compiler: Compiler(fields: fields, constants: constants), machine: machine)
                    table[t.source.index * eventCount + e.index].append(compiled)
                }
            case .after(let delay):
                let compiled = CompiledTransition(t, compiler: Compiler(fields: [], constants: constants), machine: machine)
                timers[t.source.index].append(Timer(transition: compiled,
                                                    delay: Compiler(fields: [], constants: constants).code(delay)))
            }
        }
        let plain = Compiler(fields: [], constants: constants)
        entry = machine.states.map { plain.actions($0.entry) }
        exit = machine.states.map { plain.actions($0.exit) }
        localSlots = max(slots, Program.entryExitSlots(machine))
        eventIDs = Dictionary(machine.events.map { ($0.name, $0.id) }, uniquingKeysWith: { a, _ in a })
        parents = machine.states.map { $0.parent?.index ?? -1 }
        endsRun = machine.states.map { $0.isFinal && $0.parent == machine.root }
        initialPath = machine.initialState.map { Program.entryPath(machine, from: machine.root, to: $0) } ?? []
        byStateAndEvent = table
        self.timers = timers
    }

    /// The innermost proper ancestor of `source` that is also a proper ancestor of `target`
    /// (SCXML's transition domain for an external transition): the states below it are
    /// exited and entered; a self transition leaves and re-enters its state.
    static func transitionDomain(_ machine: Machine, source: StateID, target: StateID) -> StateID {
        var targetAncestors = Set<StateID>()
        var current = machine[target].parent
        while let s = current {
            targetAncestors.insert(s)
            current = machine[s].parent
        }
        current = machine[source].parent
        while let s = current {
            if targetAncestors.contains(s) { return s }
            current = machine[s].parent
        }
        return machine.root
    }

    /// The states to enter below `domain` to reach `target`, outermost first, followed by
    /// the initial-child chain below `target`.
    static func entryPath(_ machine: Machine, from domain: StateID, to target: StateID) -> [StateID] {
        var path: [StateID] = []
        var current: StateID? = target
        while let s = current, s != domain {
            path.append(s)
            current = machine[s].parent
        }
        path.reverse()
        var leaf = target
        while let child = machine[leaf].initialChild {
            path.append(child)
            leaf = child
        }
        return path
    }

    private static func entryExitSlots(_ machine: Machine) -> Int {
        var slots = 0
        for state in machine.states {
            for action in state.entry + state.exit {
                action.visit { if case .setLocal(let slot, _, _) = $0 { slots = max(slots, slot + 1) } }
            }
        }
        return slots
    }

    /// The transitions of `state` (not its ancestors) on `event`.
    func transitions(of state: StateID, on event: EventID) -> [CompiledTransition] {
        byStateAndEvent[state.index * eventCount + event.index]
    }

    /// Looks an event up by name.
    public func event(named name: String) -> EventID? { eventIDs[name] }
}

/// Turns model expressions into `Code` for one event's payload layout.
struct Compiler {
    let fields: [String]
    let constants: [Value]

    func code(_ e: Expr) -> Code {
        if let value = e.folded(constants: constants) { return .value(value) }
        switch e.kind {
        case .literal(let v): return .value(v)
        case .pi: return .value(.number(Double.pi))
        case .constant(let id): return .value(constants[id.index])
        case .variable(let id): return .variable(id.index)
        case .field(let name): return .field(fields.firstIndex(of: name) ?? 0)
        case .local(let slot): return .local(slot)
        case .unary(.not, let x): return .not(code(x))
        case .unary(.negate, let x): return .negate(code(x), e.range)
        case .binary(.and, let l, let r): return .and(code(l), code(r))
        case .binary(.or, let l, let r): return .or(code(l), code(r))
        case .binary(let op, let l, let r): return .binary(op, code(l), code(r), e.range)
        case .conditional(let c, let t, let f): return .conditional(code(c), code(t), code(f))
        case .call(let f, let args): return .call(f, args.map(code), e.range)
        case .invalid: return .value(.number(0))
        }
    }

    func actions(_ list: [Action]) -> [CodeAction] {
        list.map { action in
            switch action {
            case .assign(let v, let op, let e, let range): .assign(v.index, op, code(e), range)
            case .emit(let o, let args, _): .emit(o, args.map(code))
            case .setLocal(let slot, let e, _): .setLocal(slot, code(e))
            case .ifAction(let c, let then, let otherwise, _): .branch(code(c), actions(then), actions(otherwise))
            }
        }
    }
}
