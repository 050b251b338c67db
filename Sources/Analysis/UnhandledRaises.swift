import StatecraftDiagnostics
import StatecraftModel

/// `raise e` where no state that takes `e` can be active when `e` is handled: the event is
/// dropped without a trace (an internal event no active state takes is ignored).
///
/// A raised event waits on the internal queue until the microstep that raised it is over,
/// then until the eventless transitions have settled and the internal events raised before
/// it have been handled; only then do the states active at that moment select a
/// transition for it. No external event or timer comes in between. So the states that may
/// be active when `e` is handled are found as a closure: start from the states that may be
/// active right after the raising microstep, and add what any transition that may fire
/// before `e` is handled (eventless, completion, or triggered by an event raised anywhere)
/// may enter. States are only ever added, never removed, so the closure holds every state
/// that might be active then, whatever the guards, the other regions or the order of the
/// queue; when no state with a transition on `e` is in it, `e` is certainly never handled.
///
/// Right after a transition `t` written in `s`: what may be active with `s` (its ancestors,
/// descendants and the other regions of its parallel ancestors), less what `t` exits,
/// plus what it enters. A targetless transition exits nothing. For a history target, what
/// it exits depends on what was recorded, so nothing is taken away and everything its
/// parent holds may be entered. After `entry` actions of `s`: what may be active with `s`.
/// A `raise` in an `exit` block is not judged: where the machine goes next is not known
/// there.
enum UnhandledRaises {
    static func diagnostics(_ machine: Machine, _ live: LiveTransitions) -> [Diagnostic] {
        guard !machine.transitions.contains(where: \.isBroken) else { return [] }
        let settling = Settling(machine, live)
        var findings: [Diagnostic] = []
        for t in live.transitions {
            let raises = raisedEvents(t.actions).filter { settling.takers[$0.event] != nil }
            guard !raises.isEmpty else { continue }
            let left = settling.exited(by: t)
            let after = settling.completeMacrostep(settling.afterTaking(t))
            for raise in raises where !settling.isHandled(raise.event, in: after) {
                let takers = settling.takers[raise.event] ?? []
                let names = takers.map { "'\(machine[$0.source].name)'" }
                let who = names.count == 1 ? "the only state that takes it" : "the states that take it"
                let why = takers.allSatisfy({ left.contains($0.source) }) ? "this transition leaves \(list(names)), \(who)"
                    : "no state that takes it (\(list(names))) can be active after this transition"
                findings.append(diagnostic(raise, why, takers, machine))
            }
        }
        for state in machine.states where live.reachable.contains(state.id) {
            let raises = raisedEvents(state.entry).filter { settling.takers[$0.event] != nil }
            guard !raises.isEmpty else { continue }
            let after = settling.completeMacrostep(Set(machine.coActiveStates(state.id)))
            for raise in raises where !settling.isHandled(raise.event, in: after) {
                let takers = settling.takers[raise.event] ?? []
                let names = takers.map { "'\(machine[$0.source].name)'" }
                let why = "no state that takes it (\(list(names))) can be active once '\(state.name)' has been entered"
                findings.append(diagnostic(raise, why, takers, machine))
            }
        }
        return findings
    }

    private static func diagnostic(_ raise: (event: EventID, range: SourceRange), _ why: String,
                                   _ takers: [Transition], _ machine: Machine) -> Diagnostic {
        let name = machine[raise.event].name
        return Diagnostic(.unhandledRaise, "event '\(name)' raised here is never handled: \(why)", at: raise.range,
                          notes: takers.map { DiagnosticNote("'\(machine[$0.source].name)' takes '\(name)' here", at: $0.keywordRange) })
    }

    private static func list(_ names: [String]) -> String {
        names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }

    /// The events a list of actions raises (inside `if` too), with where each is raised.
    static func raisedEvents(_ actions: [Action]) -> [(event: EventID, range: SourceRange)] {
        var raised: [(event: EventID, range: SourceRange)] = []
        for action in actions {
            action.visit { if case .raise(let e, _, let range) = $0 { raised.append((e, range)) } }
        }
        return raised
    }
}

/// What may be active while raised events wait on the internal queue (see
/// `UnhandledRaises`).
struct Settling {
    let machine: Machine
    /// For each event some live transition takes: the first such transition of each state
    /// that takes it, in document order of the states.
    let takers: [EventID: [Transition]]
    /// For each state: everything the live transitions written in it that may fire before
    /// a raised event is handled (eventless, completion, or on an event raised somewhere)
    /// may enter.
    private let internalSteps: [StateID: [StateID]]

    init(_ machine: Machine, _ live: LiveTransitions) {
        self.machine = machine
        var takers: [EventID: [Transition]] = [:]
        for t in live.transitions {
            for e in t.events where !(takers[e]?.contains { $0.source == t.source } ?? false) { takers[e, default: []].append(t) }
        }
        self.takers = takers.mapValues { $0.sorted { $0.source < $1.source } }
        var raised = Set<EventID>()
        for state in machine.states {
            for r in UnhandledRaises.raisedEvents(state.allActions) { raised.insert(r.event) }
        }
        for t in machine.transitions {
            for r in UnhandledRaises.raisedEvents(t.actions) { raised.insert(r.event) }
        }
        var steps: [StateID: [StateID]] = [:]
        for t in live.transitions where t.target != nil {
            switch t.trigger {
            case .always, .done: break
            case .events(let events): guard events.contains(where: raised.contains) else { continue }
            case .after: continue
            }
            steps[t.source, default: []] += Settling.mayEnter(t, machine)
        }
        internalSteps = steps
    }

    /// Every state transition `t` may enter: its entry set, and for a history target
    /// everything inside the history state's parent (whatever was recorded).
    static func mayEnter(_ t: Transition, _ machine: Machine) -> [StateID] {
        var entered = machine.entrySet([t.shape], historyValue: { _ in nil })
        if let h = t.target, machine[h].isHistory, let parent = machine[h].parent, parent != machine.root {
            entered += (parent.index + 1...machine.lastDescendant(parent).index).map(StateID.init)
        }
        return entered
    }

    /// The states active ones may be exited by `t`: for a targetless transition or a history
    /// target, none is counted (a history target's domain depends on what was recorded).
    func exited(by t: Transition) -> Set<StateID> {
        guard let target = t.target, !machine[target].isHistory,
              let domain = machine.transitionDomain(t.shape, historyValue: { _ in nil }) else { return [] }
        return Set(machine.coActiveStates(t.source).filter { machine.isDescendant($0, of: domain) })
    }

    /// What may be active right after the microstep that takes `t`.
    func afterTaking(_ t: Transition) -> Set<StateID> {
        var states = Set(machine.coActiveStates(t.source)).subtracting(exited(by: t))
        if t.target != nil { states.formUnion(Settling.mayEnter(t, machine)) }
        return states
    }

    /// `start` with everything the transitions that may fire before a raised event is
    /// handled may enter from it, until nothing is added: each state's transitions are
    /// followed once, when it is added, so this is linear in what they may enter.
    func completeMacrostep(_ start: Set<StateID>) -> Set<StateID> {
        var states = start
        var pending = Array(start)
        while let s = pending.popLast() {
            for entered in internalSteps[s] ?? [] where states.insert(entered).inserted { pending.append(entered) }
        }
        return states
    }

    /// Whether some state that takes `e` is among `states`.
    func isHandled(_ e: EventID, in states: Set<StateID>) -> Bool {
        (takers[e] ?? []).contains { states.contains($0.source) }
    }
}
