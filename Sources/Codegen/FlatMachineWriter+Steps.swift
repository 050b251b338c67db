import StatecraftDiagnostics
import StatecraftModel

// The step: dispatch on the event and the active leaf, one function per transition, entry
// and exit, timers.
extension FlatMachineWriter {
    // MARK: - Stepping

    mutating func stepping() {
        out.line("// MARK: - Steps")
        out.line()
        startFunction()
        dispatch()
        for t in machine.transitions { transitionFunction(t) }
        entryAndExit()
        if !timers.isEmpty { timerFunction() }
        parentTable()
    }

    mutating func startFunction() {
        out.open("private mutating func startMachine() -> Outcome")
            out.line("let before = core")
            out.open("do")
                for s in machine.initialEntrySet { out.line("try enter(\(stateCase(s)))") }
                out.line("return .started")
            out.reopen("catch")
                out.line("core = before")
                out.line("core.isFinished = true")
                out.line("if !pending.isEmpty { pending.removeAll(keepingCapacity: true) }")
                out.line("return .rejected(error)")
            out.close()
        out.close()
        out.line()
    }

    /// `take`: the event and the active leaf to the first transition whose guard holds.
    mutating func dispatch() {
        out.doc("The first transition of the active states (innermost first, in written order) that takes\n`event` and whose guard holds, taken; nil when none does.")
        out.open("private mutating func take(_ event: Event) throws(Failure) -> Int?")
            let leaves = states.filter { machine.isAtomic($0.id) }
            out.line("guard let leaf = core.state else { return nil }")
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
                let bindings = e.fields.map { used.contains($0.name) ? "let \(SwiftName.quoted($0.name))" : "_" }
                let pattern = e.fields.isEmpty || used.isEmpty ? "" : "(" + bindings.joined(separator: ", ") + ")"
                out.line("case .\(SwiftName.quoted(e.name))\(pattern):")
                out.indent()
                if candidates.isEmpty {
                    out.line("return nil")
                    out.dedent()
                    continue
                }
                out.line("switch leaf {")
                for (leaf, list) in candidates {
                    out.line("case .\(stateName(leaf)):")
                    out.indent()
                    var returned = false
                    for t in list {
                        let call = "try \(functionName(t, e))(\(arguments(t, e)))"
                        out.line("// line \(line(t.range)): \(describe(t))")
                        if let g = t.guardExpr {
                            let (code, throwing) = expression(g, fields: used)
                            out.line("if \(throwing ? "try " : "")\(code) {")
                            out.line("    \(call)")
                            out.line("    return \(t.id.index)")
                            out.line("}")
                        } else {
                            out.line(call)
                            out.line("return \(t.id.index)")
                            returned = true
                            break
                        }
                    }
                    if !returned { out.line("return nil") }
                    out.dedent()
                }
                if candidates.count < states.count { out.line("default:"); out.line("    return nil") }
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
        return e.fields.filter { used.contains($0.name) }.map { "\($0.name): \(SwiftName.quoted($0.name))" }.joined(separator: ", ")
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

    /// One function per transition and event it takes: exit, actions, enter.
    mutating func transitionFunction(_ t: Transition) {
        guard !t.isBroken else { return }
        switch t.trigger {
        case .events(let events):
            for id in events {
                let e = machine[id]
                let used = usedFields(e, in: [t], guards: false)
                let parameters = e.fields.filter { used.contains($0.name) }
                    .map { "\(SwiftName.quoted($0.name)): \(Self.swiftType($0.type))" }.joined(separator: ", ")
                out.doc("Line \(line(t.range)): \(describe(t)).")
                out.open("private mutating func \(functionName(t, e))(\(parameters)) throws(Failure)")
                microstep(t, fields: used)
                out.close()
                out.line()
            }
        case .after:
            out.doc("Line \(line(t.range)): \(describe(t)).")
            out.open("private mutating func \(functionName(t, nil))() throws(Failure)")
            microstep(t, fields: [])
            out.close()
            out.line()
        case .done, .always:
            break
        }
    }

    mutating func microstep(_ t: Transition, fields: Set<String>) {
        guard t.target != nil else {
            actions(t.actions, fields: fields)
            return
        }
        let domain = machine.transitionDomain(t.shape, historyValue: { _ in nil })
        out.line("try exitStates(upTo: \(stateCase(domain)))")
        actions(t.actions, fields: fields)
        for s in machine.entrySet([t.shape], historyValue: { _ in nil }) { out.line("try enter(\(stateCase(s)))") }
    }

    mutating func entryAndExit() {
        let timerSlots = Dictionary(uniqueKeysWithValues: timers.enumerated().map { ($0.element.id, $0.offset) })
        out.doc("Enters `s`: it becomes the active leaf (for now), its entry actions run, its timers are armed.")
        out.open("private mutating func enter(_ s: State) throws(Failure)")
            out.line("core.state = s")
            out.line("switch s {")
                for s in states {
                    out.line("case .\(stateName(s.id)):")
                    out.indent()
                    let before = out.text
                    actions(s.entry, fields: [])
                    for id in s.transitions {
                        guard let slot = timerSlots[id], case .after(let delay) = machine[id].trigger else { continue }
                        let (code, throwing) = expression(delay, fields: [])
                        out.line("let delay\(slot): Double = \(throwing ? "try " : "")\(code)")
                        out.line("if delay\(slot) > 0 && unrepresentableDeadline == nil && !Self.deadlineHolds(at: core.now, after: delay\(slot)) { unrepresentableDeadline = DeadlineRefusal(time: core.now, delay: delay\(slot)) }")
                        out.line("core.deadline\(slot) = core.now + Swift.max(0, delay\(slot))")
                        out.line("core.sequence += 1")
                        out.line("core.armed\(slot) = core.sequence")
                    }
                    if s.isFinal && s.parent == machine.root {
                        out.line("core.isFinished = true")
                        for k in timers.indices { out.line("core.deadline\(k) = .nan") }
                    }
                    if out.text == before { out.line("break") }
                    out.dedent()
                }
            out.line("}")
        out.close()
        out.line()
        out.doc("Exits `s`: its exit actions run, its timers are cancelled.")
        out.open("private mutating func exit(_ s: State) throws(Failure)")
            out.line("switch s {")
                for s in states {
                    out.line("case .\(stateName(s.id)):")
                    out.indent()
                    let before = out.text
                    actions(s.exit, fields: [])
                    for id in s.transitions {
                        if let slot = timerSlots[id] { out.line("core.deadline\(slot) = .nan") }
                    }
                    if out.text == before { out.line("break") }
                    out.dedent()
                }
            out.line("}")
        out.close()
        out.line()
        out.doc("Exits the active states from the leaf up to, not including, `domain` (nil: the machine).")
        out.open("private mutating func exitStates(upTo domain: State?) throws(Failure)")
            out.line("var s = core.state")
            out.open("while let current = s, current != domain")
                out.line("try exit(current)")
                out.line("s = Self.parent(of: current)")
            out.close()
        out.close()
        out.line()
    }

    mutating func timerFunction() {
        out.doc("Fires timer `slot` as a step of its own (time has moved to its deadline).")
        out.open("private mutating func fireTimer(_ slot: Int, firedAtOnce: Int) -> Outcome")
            out.line("if !pending.isEmpty { pending.removeAll(keepingCapacity: true) }")
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
            out.line("let before = core")
            out.open("do")
                out.line("switch slot {")
                    for (k, t) in timers.enumerated() {
                        out.line("case \(k):")
                        if let g = t.guardExpr {
                            let (code, throwing) = expression(g, fields: [])
                            out.line("    guard \(throwing ? "try " : "")\(code) else { return .ignored }")
                        }
                        out.line("    try \(functionName(t, nil))()")
                        out.line("    return .taken(transition: \(t.id.index))")
                    }
                    out.line("default:")
                    out.line("    return .ignored")
                out.line("}")
            out.reopen("catch")
                out.line("core = before")
                out.line("if !pending.isEmpty { pending.removeAll(keepingCapacity: true) }")
                out.line("return .rejected(error)")
            out.close()
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
}
