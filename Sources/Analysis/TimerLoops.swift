import StatecraftDiagnostics
import StatecraftModel

/// Timers with no delay that lead back to where they started: `after 0s -> c` written in
/// `c`, or `a` and `b` handing over to each other after 0s. Time never passes, so the
/// runtime stops them after 10,000 firings at one instant and rejects the step.
enum TimerLoops {
    /// The timer each state leaves by at once when it is entered, if that is certain: the
    /// first timer armed whose delay is a constant of at most zero, with no guard (or an
    /// always-true one) and a target, and only constant delays armed before it.
    static func immediateExits(_ machine: Machine) -> [StateID: Transition] {
        let constants = machine.constantValues
        var exits: [StateID: Transition] = [:]
        for state in machine.states {
            for id in state.transitions {
                let t = machine[id]
                guard case .after(let delay) = t.trigger else { continue }
                guard case .number(let d)? = delay.folded(constants: constants) else { break }
                if d > 0 { continue }
                if t.target != nil && t.alwaysFires(constants: constants) { exits[state.id] = t }
                break
            }
        }
        return exits
    }

    static func diagnostics(_ machine: Machine) -> [Diagnostic] {
        let exits = immediateExits(machine)
        var findings: [Diagnostic] = []
        var reported: Set<StateID> = []
        for start in machine.states.map(\.id) where exits[start] != nil && !reported.contains(start) {
            // Follow the immediate exits; a state seen twice closes a loop.
            var path: [StateID] = []
            var current = start
            while let t = exits[current], !path.contains(current), !reported.contains(current) {
                path.append(current)
                guard let next = t.target else { break }
                current = next
            }
            guard let loopStart = path.firstIndex(of: current) else {
                reported.formUnion(path)
                continue
            }
            let loop = Array(path[loopStart...])
            reported.formUnion(path)
            guard !mayBeLeftWithinTheStep(loop, machine) else { continue }
            let timers = loop.compactMap { exits[$0] }
            guard let first = timers.first else { continue }
            let names = (loop + [loop[0]]).map { "'\(machine[$0].name)'" }.joined(separator: " -> ")
            findings.append(Diagnostic(
                .timerLoop,
                "timers with no delay loop forever (\(names)) without time passing; at run time they are stopped "
                    + "after 10,000 firings at one instant, reported as a rejected step",
                at: first.keywordRange,
                notes: timers.dropFirst().map { DiagnosticNote("the loop goes on here", at: $0.keywordRange) }))
        }
        return findings
    }

    /// Whether, in a statechart, something other than the timers may leave the loop before
    /// they fire: a timer fires only once its step has settled, and an eventless or
    /// completion transition of a state active beside the loop, or one taken on a raised
    /// or sent event (a sent one may be due before the timers), may leave first. Then the
    /// loop is not certain, and not reported.
    static func mayBeLeftWithinTheStep(_ loop: [StateID], _ machine: Machine) -> Bool {
        var raises = false
        func scan(_ actions: [Action]) {
            for a in actions {
                a.visit {
                    switch $0 {
                    case .raise, .send, .sendNamed: raises = true
                    default: break
                    }
                }
            }
        }
        for t in machine.transitions { scan(t.actions) }
        for s in machine.states { scan(s.allActions) }
        if raises { return true }
        return loop.contains { s in
            machine.coActiveStates(s).contains { other in
                machine[other].transitions.contains {
                    switch machine[$0].trigger {
                    case .always, .done: return true
                    case .events, .after: return false
                    }
                }
            }
        }
    }
}
