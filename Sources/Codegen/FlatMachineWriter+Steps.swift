import StatecraftDiagnostics
import StatecraftModel

// The step: dispatch on the event and the active leaf, one function per transition, entry
// and exit, timers.
//
// Speed comes from deciding at generation time what a step can do, so that the common step
// is straight-line code the optimizer folds into `send`:
// - A transition's exits and entries are known per source: it calls `exit` and `enter` only
//   for the states that have actions or timers, and sets the active leaf once, at the end
//   (nothing in a flat machine's actions reads it on the way).
// - Only arithmetic (and `sqrt`) can fail. A transition in which nothing can fail does not
//   throw; one that can fail only before it changed anything throws without saving; only one
//   that can fail after a change copies `core` first and puts it back (`before`).
// - The private step functions are `@inline(__always)`: they are called from one place or a
//   few, and inlined into `send` the active leaf and the event are branches, not calls.
extension FlatMachineWriter {
    // MARK: - Stepping

    mutating func stepping() {
        let plan = stepPlan()
        out.line("// MARK: - Steps")
        out.line()
        startFunction(plan)
        dispatch(plan)
        for t in machine.transitions { transitionFunction(t, plan) }
        entryAndExit(plan)
        if !timers.isEmpty { timerFunction(plan) }
        parentTable()
    }

    mutating func startFunction(_ plan: StepPlan) {
        let entries = machine.initialEntrySet.filter { $0 != machine.root }
        var effects = StepEffects()
        for s in entries { enterEffects(machine[s], &effects) }
        let calls = entries.filter { plan.entryWork.contains($0) }
        out.open("private mutating func startMachine() -> Outcome")
            if !effects.mayFail && !(plan.enterThrows && !calls.isEmpty) {
                for s in calls { out.line("enter(\(stateCase(s)))") }
                if let leaf = entries.last { out.line("core.state = \(stateCase(leaf))") }
                out.line("return .started")
            } else {
                out.line("let before = core")
                out.open("do")
                    for s in calls { out.line("\(plan.enterThrows ? "try " : "")enter(\(stateCase(s)))") }
                    if let leaf = entries.last { out.line("core.state = \(stateCase(leaf))") }
                    out.line("return .started")
                out.reopen("catch")
                    out.line("core = before")
                    out.line("core.isFinished = true")
                    out.line("if !pending.isEmpty { pending.removeAll() }")
                    out.line("return .rejected(error)")
                out.close()
            }
        out.close()
        out.line()
    }

    /// `take`: the event and the active leaf to the first transition whose guard holds.
    mutating func dispatch(_ plan: StepPlan) {
        // Only a transition that can emit looks at `pending` (to hand its outputs to `emit`):
        // the step of one that cannot, the common one, does not load it.
        let emits = !machine.outputs.isEmpty
        out.doc("The first transition of the active states (innermost first, in written order) that takes\n`event` and whose guard holds, taken; nil when none does. (A transition that fails puts back\nwhat it changed before it throws.)" + (emits ? " Its outputs go to `emit`." : ""))
        out.line("@inline(__always)")
        out.open("private mutating func take(_ event: Event\(emits ? ", _ emit: (Output) -> Void" : "")) throws(Failure) -> Int?")
            let leaves = states.filter { machine.isAtomic($0.id) }
            // The active leaf is matched as an optional (nil before a successful start): the
            // nil case is one more entry of the switch's table, not a test before it.
            out.line("switch event {")
            for e in machine.events {
                // Candidates per leaf, innermost state first, in written order.
                var candidates: [(StateID, [Transition])] = []
                for leaf in leaves {
                    var list: [Transition] = []
                    for s in machine.selfAndAncestors(leaf.id) {
                        for id in machine[s].transitions {
                            let t = machine[id]
                            if case .events(let events) = t.trigger, events.contains(e.id), !t.isBroken { list.append(t) }
                        }
                    }
                    if !list.isEmpty { candidates.append((leaf.id, list)) }
                }
                let used = usedFields(e, in: candidates.flatMap(\.1))
                out.line("case .\(SwiftName.quoted(e.name))\(bindingPattern(e, used)):")
                out.indent()
                if candidates.isEmpty {
                    out.line("return nil")
                    out.dedent()
                    continue
                }
                out.line("switch core.state {")
                // Leaves with the same candidates share one case.
                var groups: [([StateID], [Transition])] = []
                var groupOf: [[TransitionID]: Int] = [:]
                for (leaf, list) in candidates {
                    let key = list.map(\.id)
                    if let k = groupOf[key] {
                        groups[k].0.append(leaf)
                    } else {
                        groupOf[key] = groups.count
                        groups.append(([leaf], list))
                    }
                }
                for (group, list) in groups {
                    out.line("case " + group.map { ".\(stateName($0))?" }.joined(separator: ", ") + ":")
                    out.indent()
                    var returned = false
                    for t in list {
                        let call = "\(plan.throwing.contains(t.id) ? "try " : "")\(functionName(t, e))(\(arguments(t, e)))"
                        let deliver = plan.emitting.contains(t.id) ? ["if !pending.isEmpty { deliver(emit) }"] : []
                        out.line("// line \(line(t.range)): \(describe(t))")
                        if let g = t.guardExpr {
                            let (code, throwing) = expression(g, fields: used)
                            out.line("if \(throwing ? "try " : "")\(code) {")
                            out.line("    \(call)")
                            for l in deliver { out.line("    " + l) }
                            out.line("    return \(t.id.index)")
                            out.line("}")
                        } else {
                            out.line(call)
                            for l in deliver { out.line(l) }
                            out.line("return \(t.id.index)")
                            returned = true
                            break
                        }
                    }
                    if !returned { out.line("return nil") }
                    out.dedent()
                }
                out.line("default:")
                out.line("    return nil")
                out.line("}")
                out.dedent()
            }
            out.line("}")
        out.close()
        out.line()
    }

    func describe(_ t: Transition) -> String {
        var text: String
        switch t.trigger {
        case .events(let events): text = "on " + events.map { machine[$0].name }.joined(separator: ", ")
        case .after: text = "after"
        case .done(let s): text = "done(\(machine[s].name))"
        case .always: text = "always"
        }
        text += " in \(machine[t.source].name)"
        if let target = t.target { text += " -> \(machine[target].name)" }
        return text
    }

    func functionName(_ t: Transition, _ e: Event?) -> String {
        "transition\(t.id.index)" + (e.map { "_" + $0.name } ?? "")
    }

    func arguments(_ t: Transition, _ e: Event) -> String {
        let used = usedFields(e, in: [t], guards: false)
        return e.fields.filter { used.contains($0.name) }.map { "\(SwiftName.label($0.name)): \(SwiftName.quoted($0.name))" }
            .joined(separator: ", ")
    }

    /// The payload fields of `e` that the transitions' guards (and actions) read.
    func usedFields(_ e: Event, in transitions: [Transition], guards: Bool = true) -> Set<String> {
        var used = Set<String>()
        func look(_ x: Expr) { x.visit { if case .field(let name) = $0.kind { used.insert(name) } } }
        for t in transitions {
            if guards { t.guardExpr.map(look) }
            for a in t.actions { a.visitExpressions(look) }
        }
        return used.intersection(e.fields.map(\.name))
    }

    /// The payload pattern of `e`'s case that binds the fields in `used` (`(let y, _)`), or
    /// nothing when it binds none.
    func bindingPattern(_ e: Event, _ used: Set<String>) -> String {
        let bindings = e.fields.map { used.contains($0.name) ? "let \(SwiftName.quoted($0.name))" : "_" }
        return e.fields.contains(where: { used.contains($0.name) }) ? "(" + bindings.joined(separator: ", ") + ")" : ""
    }

    /// One function per transition and event it takes: exit, actions, enter.
    mutating func transitionFunction(_ t: Transition, _ plan: StepPlan) {
        guard !t.isBroken else { return }
        let throwing = plan.throwing.contains(t.id) ? " throws(Failure)" : ""
        switch t.trigger {
        case .events(let events):
            for id in events {
                let e = machine[id]
                let used = usedFields(e, in: [t], guards: false)
                let parameters = e.fields.filter { used.contains($0.name) }
                    .map { "\(SwiftName.quoted($0.name)): \(Self.swiftType($0.type))" }.joined(separator: ", ")
                out.doc("Line \(line(t.range)): \(describe(t)).")
                out.line("@inline(__always)")
                out.open("private mutating func \(functionName(t, e))(\(parameters))\(throwing)")
                microstep(t, fields: used, plan)
                out.close()
                out.line()
            }
        case .after:
            out.doc("Line \(line(t.range)): \(describe(t)).")
            out.line("@inline(__always)")
            out.open("private mutating func \(functionName(t, nil))()\(throwing)")
            microstep(t, fields: [], plan)
            out.close()
            out.line()
        case .done, .always:
            break
        }
    }

    mutating func microstep(_ t: Transition, fields: Set<String>, _ plan: StepPlan) {
        if plan.restoring.contains(t.id) {
            // A failure after a change: the copy puts everything back.
            out.line("let before = core")
            out.open("do")
                microstepBody(t, fields: fields, plan)
            out.reopen("catch")
                out.line("core = before")
                out.line("throw error")
            out.close()
        } else {
            microstepBody(t, fields: fields, plan)
        }
    }

    mutating func microstepBody(_ t: Transition, fields: Set<String>, _ plan: StepPlan) {
        guard t.target != nil else {
            actions(t.actions, fields: fields)
            return
        }
        let domain = machine.transitionDomain(t.shape, historyValue: { _ in nil })
        let entries = machine.entrySet([t.shape], historyValue: { _ in nil })
        let names = entries.map { machine[$0].name }.joined(separator: ", ")
        out.line("// exits the active states \(domain.map { "inside \(machine[$0].name)" } ?? "up to the top"), enters \(names)")
        switch plan.exits[t.id] ?? .walk {
        case .states(let list):
            for s in list { out.line("\(plan.exitThrows ? "try " : "")exit(\(stateCase(s)))") }
        case .walk:
            out.line("\(plan.exitThrows ? "try " : "")exitStates(upTo: \(stateCase(domain)))")
        }
        actions(t.actions, fields: fields)
        for s in entries where plan.entryWork.contains(s) { out.line("\(plan.enterThrows ? "try " : "")enter(\(stateCase(s)))") }
        if let leaf = entries.last { out.line("core.state = \(stateCase(leaf))") }
    }

    mutating func entryAndExit(_ plan: StepPlan) {
        if !plan.entryWork.isEmpty {
            out.doc("Enters `s`: its entry actions run, its timers are armed. (The transition sets the active\nleaf once it has entered every state.)")
            out.line("@inline(__always)")
            out.open("private mutating func enter(_ s: State)\(plan.enterThrows ? " throws(Failure)" : "")")
                out.line("switch s {")
                    for s in states {
                        out.line("case .\(stateName(s.id)):")
                        out.indent()
                        let before = out.mark
                        actions(s.entry, fields: [])
                        for id in s.transitions {
                            guard let slot = timerSlots[id], case .after(let delay) = machine[id].trigger else { continue }
                            let (code, throwing) = expression(delay, fields: [])
                            out.line("let delay\(slot): Double = \(throwing ? "try " : "")\(code)")
                            out.line("if delay\(slot) > 0 && !Self.deadlineHolds(at: core.now, after: delay\(slot)) && refusal.delay == 0 { refusal = DeadlineRefusal(time: core.now, delay: delay\(slot)) }")
                            out.line("core.deadline\(slot) = core.now + Swift.max(0, delay\(slot))")
                            if ordersTimers {
                                out.line("core.sequence += 1")
                                out.line("core.armed\(slot) = core.sequence")
                            }
                        }
                        if s.isFinal && s.parent == machine.root {
                            out.line("core.isFinished = true")
                            for k in timers.indices { out.line("core.deadline\(k) = .nan") }
                        }
                        if out.mark == before { out.line("break") }
                        out.dedent()
                    }
                out.line("}")
            out.close()
            out.line()
        }
        guard !plan.exitWork.isEmpty else { return }
        out.doc("Exits `s`: its exit actions run, its timers are cancelled.")
        out.line("@inline(__always)")
        out.open("private mutating func exit(_ s: State)\(plan.exitThrows ? " throws(Failure)" : "")")
            out.line("switch s {")
                for s in states {
                    out.line("case .\(stateName(s.id)):")
                    out.indent()
                    let before = out.mark
                    actions(s.exit, fields: [])
                    for id in s.transitions {
                        if let slot = timerSlots[id] { out.line("core.deadline\(slot) = .nan") }
                    }
                    if out.mark == before { out.line("break") }
                    out.dedent()
                }
            out.line("}")
        out.close()
        out.line()
        guard plan.exits.values.contains(.walk) else { return }
        out.doc("Exits the active states from the leaf up to, not including, `domain` (nil: the machine),\nfor a transition whose source has states inside it with exit actions or timers.")
        out.line("@inline(__always)")
        out.open("private mutating func exitStates(upTo domain: State?)\(plan.exitThrows ? " throws(Failure)" : "")")
            out.line("var s = core.state")
            out.open("while let current = s, current != domain")
                out.line("\(plan.exitThrows ? "try " : "")exit(current)")
                out.line("s = Self.parent(of: current)")
            out.close()
        out.close()
        out.line()
    }

    mutating func timerFunction(_ plan: StepPlan) {
        var mayFail = false
        for t in timers {
            if let g = t.guardExpr, expression(g, fields: []).1 { mayFail = true }
            if plan.throwing.contains(t.id) { mayFail = true }
        }
        out.doc("Fires timer `slot` as a step of its own (time has moved to its deadline).")
        out.open("private mutating func fireTimer(_ slot: Int, firedAtOnce: Int) -> Outcome")
            out.line("if !pending.isEmpty { pending.removeAll() }")
            out.open("if firedAtOnce > 10_000")
                for k in timers.indices { out.line("core.deadline\(k) = .nan") }
                out.line("let (line, column) = Self.timerSites[slot]")
                out.line("return .rejected(Failure(message: \"timers fired 10000 times at t=\\(Self.text(core.now)) without time passing; stopped them\", line: line, column: column))")
            out.close()
            // Disarmed before the step, so a step that fails leaves it disarmed (as the runtime
            // does: it fired; only entering its state again arms it).
            out.line("switch slot {")
            for k in timers.indices { out.line("case \(k): core.deadline\(k) = .nan") }
            out.line("default: break")
            out.line("}")
            if mayFail {
                out.line("let before = core")
                out.open("do")
            }
                out.line("switch slot {")
                    for (k, t) in timers.enumerated() {
                        out.line("case \(k):")
                        if let g = t.guardExpr {
                            let (code, throwing) = expression(g, fields: [])
                            out.line("    guard \(throwing ? "try " : "")\(code) else { return .ignored }")
                        }
                        out.line("    \(plan.throwing.contains(t.id) ? "try " : "")\(functionName(t, nil))()")
                        out.line("    return .taken(transition: \(t.id.index))")
                    }
                    out.line("default:")
                    out.line("    return .ignored")
                out.line("}")
            if mayFail {
                out.reopen("catch")
                    out.line("core = before")
                    out.line("if !pending.isEmpty { pending.removeAll() }")
                    out.line("return .rejected(error)")
                out.close()
            }
        out.close()
        out.line()
        out.line("private static let timerSites: [(Int, Int)] = [\(timers.map { "(\(site($0.keywordRange)))" }.joined(separator: ", "))]")
        out.line()
    }

    mutating func parentTable() {
        out.doc("The state that contains `s` (nil at the top level).")
        out.open("static func parent(of s: State) -> State?")
            out.line("switch s {")
                for s in states {
                    out.line("case .\(stateName(s.id)): \(stateCase(s.parent))")
                }
            out.line("}")
        out.close()
        out.line()
    }

    // MARK: - What a step can do, decided at generation time

    /// The machine's step plan (see `StepPlan`).
    func stepPlan() -> StepPlan {
        var plan = StepPlan()
        for s in states {
            // Entering does something: entry actions, timers to arm, or the end of the run;
            // exiting: exit actions, or timers to cancel.
            if !s.entry.isEmpty || armsTimers(s) || (s.isFinal && s.parent == machine.root) { plan.entryWork.insert(s.id) }
            if !s.exit.isEmpty || armsTimers(s) { plan.exitWork.insert(s.id) }
            var entry = StepEffects(), exit = StepEffects()
            enterEffects(s, &entry)
            exitEffects(s, &exit)
            if entry.mayFail { plan.enterThrows = true }
            if exit.mayFail { plan.exitThrows = true }
        }
        for t in machine.transitions where !t.isBroken {
            if t.target != nil { plan.exits[t.id] = exitPlan(t, plan.exitWork) }
        }
        for t in machine.transitions where !t.isBroken {
            let effects = transitionEffects(t, plan)
            if effects.failsAfterChange { plan.restoring.insert(t.id) }
            if effects.emits { plan.emitting.insert(t.id) }
            var throwing = effects.mayFail
            if t.target != nil {
                switch plan.exits[t.id] ?? .walk {
                case .states(let list): if !list.isEmpty && plan.exitThrows { throwing = true }
                case .walk: if plan.exitThrows { throwing = true }
                }
                let entries = machine.entrySet([t.shape], historyValue: { _ in nil })
                if plan.enterThrows && entries.contains(where: plan.entryWork.contains) { throwing = true }
            }
            if throwing { plan.throwing.insert(t.id) }
        }
        return plan
    }

    /// The states `t` exits that have something to do, when they are the same from every leaf
    /// it can be taken in; else `.walk`, up the active states at run time.
    func exitPlan(_ t: Transition, _ exitWork: Set<StateID>) -> StepPlan.Exits {
        let domain = machine.transitionDomain(t.shape, historyValue: { _ in nil })
        var plan: [StateID]?
        // The source's leaves: the states from it to its last descendant, in document order.
        for i in t.source.index...machine.lastDescendant(t.source).index where machine.isAtomic(StateID(i)) {
            var list: [StateID] = []
            for s in machine.selfAndAncestors(StateID(i)) {
                if s == domain || s == machine.root { break }
                if exitWork.contains(s) { list.append(s) }
            }
            if let plan, plan != list { return .walk }
            plan = list
        }
        return .states(plan ?? [])
    }

    func transitionEffects(_ t: Transition, _ plan: StepPlan) -> StepEffects {
        var effects = StepEffects()
        guard t.target != nil else {
            actionEffects(t.actions, &effects)
            return effects
        }
        switch plan.exits[t.id] ?? .walk {
        case .states(let list):
            for s in list { exitEffects(machine[s], &effects) }
        case .walk:
            // Any state inside the domain, twice: a failure may follow another state's change.
            let domain = machine.transitionDomain(t.shape, historyValue: { _ in nil })
            let inside = states.filter { s in domain.map { machine.isDescendant(s.id, of: $0) } ?? true }
            for _ in 0..<2 { for s in inside { exitEffects(s, &effects) } }
        }
        actionEffects(t.actions, &effects)
        for s in machine.entrySet([t.shape], historyValue: { _ in nil }) { enterEffects(machine[s], &effects) }
        return effects
    }

    func enterEffects(_ s: State, _ effects: inout StepEffects) {
        actionEffects(s.entry, &effects)
        for id in s.transitions {
            guard timers.contains(where: { $0.id == id }), case .after(let delay) = machine[id].trigger else { continue }
            effects.evaluate(throwing: expression(delay, fields: []).1)
            effects.change()
        }
        if s.isFinal && s.parent == machine.root { effects.change() }
    }

    func exitEffects(_ s: State, _ effects: inout StepEffects) {
        actionEffects(s.exit, &effects)
        if armsTimers(s) { effects.change() }
    }

    /// What `actions` does, as `emit(_:fields:readLocals:)` writes it: an assignment changes
    /// `core` (after evaluating its value); an output only waits in `pending`, which a failing
    /// step empties anyway.
    func actionEffects(_ list: [Action], _ effects: inout StepEffects) {
        for action in list {
            switch action {
            case .assign(let v, let op, let e, _):
                let throwing = expression(e, fields: []).1
                switch (op, machine[v].type) {
                case (nil, _), (.add?, .string): effects.evaluate(throwing: throwing)
                default: effects.evaluate(throwing: true)  // checked arithmetic, or a throw
                }
                effects.change()
            case .emit(_, let args, _):
                effects.evaluate(throwing: args.contains { expression($0, fields: []).1 })
                effects.emits = true
            case .setLocal(_, let e, _):
                effects.evaluate(throwing: expression(e, fields: []).1)
            case .ifAction(let c, let then, let otherwise, _):
                effects.evaluate(throwing: expression(c, fields: []).1)
                var a = effects, b = effects
                actionEffects(then, &a)
                actionEffects(otherwise, &b)
                effects = StepEffects(mayFail: a.mayFail || b.mayFail, failsAfterChange: a.failsAfterChange || b.failsAfterChange,
                                      changed: a.changed || b.changed, emits: a.emits || b.emits)
            // Only in a statechart (`isChart`), whose plan asks only whether they can fail.
            case .raise(_, let args, _):
                effects.evaluate(throwing: args.contains { expression($0, fields: []).1 })
            case .send, .sendNamed:
                effects.evaluate(throwing: true)  // `sendToSelf` refuses a 101st pending event
            case .cancel:
                effects.change()
            }
        }
    }
}

/// What each step of a machine does, decided once before the step is written.
struct StepPlan {
    /// The states whose entry (exit) does something: only they are entered (exited) by a call.
    var entryWork: Set<StateID> = []
    var exitWork: Set<StateID> = []
    /// Whether `enter(_:)` (`exit(_:)`) throws: some state's entry (exit) can fail.
    var enterThrows = false
    var exitThrows = false
    /// The exits of each transition with a target.
    var exits: [TransitionID: Exits] = [:]
    /// The transitions whose function throws: something in it can fail, or it calls an
    /// `enter` or `exit` that throws.
    var throwing: Set<TransitionID> = []
    /// The transitions that can fail after they changed `core`: they copy it first.
    var restoring: Set<TransitionID> = []
    /// The transitions that can emit an output: only after them does `take` hand `pending` on.
    var emitting: Set<TransitionID> = []

    /// The states a transition exits, with something to do, whatever leaf is active; or a
    /// walk up from the active leaf, when that differs from leaf to leaf.
    enum Exits: Equatable {
        case states([StateID])
        case walk
    }
}

/// What a step can do, in the order it does it: whether anything in it can fail, and whether a
/// failure can come after it changed `core` (then it must save `core` first to put it back).
struct StepEffects {
    var mayFail = false
    var failsAfterChange = false
    var changed = false
    /// Whether it can emit an output (then the step hands `pending` on).
    var emits = false

    /// Evaluates something that may fail.
    mutating func evaluate(throwing: Bool) {
        guard throwing else { return }
        mayFail = true
        if changed { failsAfterChange = true }
    }

    /// Changes `core`.
    mutating func change() { changed = true }
}
