import StatecraftDiagnostics
import StatecraftModel

/// Runs every structural check on a resolved machine and collects the findings.
///
/// Each check lives in its own file and reads the model only. Checks are conservative
/// about parts that failed to resolve (`Transition.isBroken`): they never report a problem
/// that might be a consequence of an error already reported.
public enum Checker {
    /// All findings for `machine`, in no particular order.
    ///
    /// With `errorsOnly` (used when resolution already failed), only the checks that report
    /// errors run: warnings about a half-resolved machine are mostly echoes of its errors
    /// (an output whose `emit` did not type-check looks never emitted).
    public static func check(_ machine: Machine, errorsOnly: Bool = false,
                             exploration: ExplorationReport? = nil) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        findings += Reachability.diagnostics(machine)
        if errorsOnly { return findings }
        let constantFaults = ConstantFaults.diagnostics(machine)
        let timerLoops = TimerLoops.diagnostics(machine)
        findings += constantFaults + timerLoops
        if let exploration {
            // A failure already explained where it is written is not reported again as found by the search.
            let explained = Set((constantFaults + timerLoops).flatMap { [$0.range] + $0.notes.compactMap(\.range) })
            findings += ExplorationDiagnostics.diagnostics(machine, exploration, explained: explained)
        }
        findings += DeadEnds.diagnostics(machine)
        findings += UnusedDeclarations.diagnostics(machine)
        findings += ConstantConditions.diagnostics(machine)
        findings += ShadowedTransitions.diagnostics(machine)
        let live = LiveTransitions(machine)
        findings += HistoryDefaults.diagnostics(machine, live)
        findings += UnhandledRaises.diagnostics(machine, live)
        findings += CrossRegionTransitions.diagnostics(machine)
        return findings
    }
}

extension Checker {
    /// Transitions that can never fire: a guard that folds to `false`, a `done` for a state
    /// that never completes, or an earlier transition of the same state that always takes
    /// the same trigger.
    public static func deadTransitions(_ machine: Machine) -> Set<TransitionID> {
        let constants = machine.constantValues
        var dead = Set(machine.transitions.filter { $0.neverFires(constants: constants) || machine.waitsInVain($0) }.map(\.id))
        for pair in ShadowedTransitions.pairs(machine) { dead.insert(pair.shadowed.id) }
        return dead
    }

    /// States no path of transitions reaches from the initial configuration (history
    /// pseudo-states are never active, so never counted).
    public static func unreachableStates(_ machine: Machine) -> Set<StateID> {
        let reachable = Reachability.reachableStates(machine)
        return Set(machine.states.dropFirst().filter { !$0.isHistory }.map(\.id).filter { !reachable.contains($0) })
    }
}

extension Transition {
    /// Whether the guard is written and folds to `false`: the transition can never fire.
    func neverFires(constants: [Value]) -> Bool {
        guardExpr?.folded(constants: constants) == .bool(false)
    }

    /// Whether the guard is absent or folds to `true`.
    func alwaysFires(constants: [Value]) -> Bool {
        guard let g = guardExpr else { return true }
        return g.folded(constants: constants) == .bool(true)
    }
}

extension Machine {
    /// Whether state `x` can never complete (so a `done` for it is never taken): it has no
    /// child states, or it is compound with no final child, or parallel with a region that
    /// never completes. The front end reports such a `done` (`never-completes`).
    func neverCompletes(_ x: StateID) -> Bool {
        if isCompound(x) { return !childStates(x).contains { self[$0].isFinal } }
        if isParallel(x) { return childStates(x).contains { neverCompletes($0) } }
        return true
    }

    /// Why state `x` never completes, in the words of a message (`neverCompletes(x)` holds).
    func whyNeverCompletes(_ x: StateID) -> String {
        let name = self[x].name
        if isCompound(x) { return "'\(name)' has no final child state, so it never completes" }
        if isParallel(x), let region = childStates(x).first(where: { neverCompletes($0) }) {
            return "region '\(self[region].name)' of '\(name)' never completes, so '\(name)' never does"
        }
        return self[x].isHistory ? "'\(name)' is a history state, which is never active"
            : "'\(name)' has no child states, so it never completes"
    }

    /// Whether transition `t` waits for a completion that never comes.
    func waitsInVain(_ t: Transition) -> Bool {
        if case .done(let x) = t.trigger { return neverCompletes(x) }
        return false
    }
}
