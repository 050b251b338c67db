import StatecraftDiagnostics
import StatecraftModel

// A statechart's macrostep as Swift (SCXML 1.0 Appendix D, with its procedures' names):
// `select` per event, then `microstep` (exit set, history, actions, entry set), then
// `completeMacrostep` (eventless transitions and the internal queue until stable). The
// runtime's chart path (`Sources/Runtime/Charts`) is the same algorithm on tables; the
// differential tests hold this one to it step by step.
extension FlatMachineWriter {
    /// The active atomic states a selection starts from (history states are never active).
    var chartLeaves: [State] { states.filter { machine.isAtomic($0.id) } }

    mutating func chartStepping() {
        out.line("// MARK: - Steps")
        out.line()
        chartStart()
        chartStepBookkeeping()
        selectFunction()
        selectEventlessFunction()
        selectCompletionFunction()
        conflictFunctions()
        microstepFunction()
        completeMacrostepFunction()
        if !timers.isEmpty { chartTimerFunction() }
        if sendsEvents { sendFunction() }
        if !namedSendSites.isEmpty { namedSendFunction() }
        actionDispatch()
        for t in machine.transitions { chartTransitionFunction(t) }
        chartEntryAndExit()
        chartTables()
    }

    mutating func chartStart() {
        out.open("private mutating func startMachine() -> Outcome")
            let initial = machine.initialEntry
            guard entryThrows(initial.states) || chartPlan.completeThrows else {
                // Nothing in starting can fail.
                out.line("beginStep()")
                entryLines(initial.states, initial.defaults)
                out.line("eventlessMayHold = true")
                out.line("completeMacrostep()")
                out.line("return .started")
                out.close()
                out.line()
                return
            }
            out.line("let before = core")
            out.line("beginStep()")
            out.open("do")
                entryLines(initial.states, initial.defaults)
                out.line("eventlessMayHold = true")
                out.line("\(Self.tryIf(chartPlan.completeThrows))completeMacrostep()")
                out.line("return .started")
            out.reopen("catch")
                out.line("core = before")
                out.line("core.isFinished = true")
                out.line("endStep()")
                out.line("return .rejected(error)")
            out.close()
        out.close()
        out.line()
    }

    mutating func chartStepBookkeeping() {
        out.open("private mutating func beginStep()")
            out.line("microstepCount = 0")
            out.line("eventlessMayHold = false")
        out.close()
        out.line()
        out.doc("After a failed step: nothing of it stays (no output, no queued event).")
        out.open("private mutating func endStep()")
            out.line("if !pending.isEmpty { pending.removeAll() }")
            if usesInternalQueue { out.line("if !internalQueue.isEmpty { internalQueue.removeAll(keepingCapacity: true) }") }
        out.close()
        out.line()
    }

    // MARK: - Selection

    /// The transitions of `leaf` and its ancestors (innermost first, in written order) that
    /// `accepts` keeps, up to the first without a guard: selection never looks past it, so
    /// the payload fields the others' guards read are not bound (a binding nobody reads is a
    /// warning).
    func chain(_ leaf: StateID, _ accepts: (Transition) -> Bool) -> [Transition] {
        var list: [Transition] = []
        for s in machine.selfAndAncestors(leaf) where s != machine.root {
            for id in machine[s].transitions where !machine[id].isBroken && accepts(machine[id]) {
                list.append(machine[id])
                if machine[id].guardExpr == nil { return list }
            }
        }
        return list
    }

    /// For each leaf with candidates: if it is active, the first of them whose guard holds.
    ///
    /// Neighbouring leaves with the same candidates share one test: whichever of them is active,
    /// the same transition is found at the same place in the order (a second active one would
    /// find it again, and `addEnabled` would drop the repeat).
    mutating func selectChains(_ chains: [(StateID, [Transition])], fields: Set<String>) {
        var groups: [([StateID], [Transition])] = []
        for (leaf, list) in chains {
            if let last = groups.last, last.1.map(\.id) == list.map(\.id) {
                groups[groups.count - 1].0.append(leaf)
            } else {
                groups.append(([leaf], list))
            }
        }
        for (leaves, list) in groups {
            let names = leaves.map { machine[$0].name }.joined(separator: ", ")
            if leaves.count == 1 {
                out.open("if core.active.contains(\(leaves[0].index)) /* \(names) */")
            } else {
                out.open("if !(core.active & \(bits(leaves))).isEmpty /* \(names) */")
            }
            var first = true
            for t in list {
                out.line("// line \(line(t.range)): \(describe(t))")
                if let g = t.guardExpr {
                    let (code, throwing) = expression(g, fields: fields)
                    let condition = (throwing ? "try " : "") + code
                    out.line(first ? "if \(condition) {" : "} else if \(condition) {")
                    out.line("    addEnabled(\(t.id.index), &chosen)")
                    first = false
                } else {
                    if first {
                        out.line("addEnabled(\(t.id.index), &chosen)")
                    } else {
                        out.line("} else {")
                        out.line("    addEnabled(\(t.id.index), &chosen)")
                        out.line("}")
                    }
                    first = true
                    break
                }
            }
            if !first { out.line("}") }
            out.close()
        }
    }

    mutating func selectFunction() {
        out.doc("Appendix D `selectTransitions`: for each active atomic state in document order, the first\ntransition of it or an ancestor (innermost first, in written order) that takes `event` and\nwhose guard holds; then the conflicts are removed. False when none is enabled.")
        out.open("@inline(__always) private mutating func select(_ event: Event, _ chosen: inout Chosen) throws(Failure) -> Bool")
            out.line("chosen.removeAll()")
            if !machine.events.isEmpty {
                out.line("switch event {")
                for e in machine.events {
                    let chains: [(StateID, [Transition])] = chartLeaves.compactMap { leaf in
                        let list = chain(leaf.id) { t in
                            if case .events(let events) = t.trigger { events.contains(e.id) } else { false }
                        }
                        return list.isEmpty ? nil : (leaf.id, list)
                    }
                    var used = Set<String>()
                    for t in chains.flatMap(\.1) {
                        t.guardExpr?.visit { if case .field(let name) = $0.kind { used.insert(name) } }
                    }
                    used.formIntersection(e.fields.map(\.name))
                    out.line("case .\(SwiftName.quoted(e.name))\(bindingPattern(e, used)):")
                    out.indent()
                    if chains.isEmpty { out.line("break") }
                    selectChains(chains, fields: used)
                    out.dedent()
                }
                out.line("}")
            }
            out.line("return chosen.count > 1 ? removeConflictingTransitions(&chosen) : chosen.count == 1")
        out.close()
        out.line()
    }

    var hasAlways: Bool { machine.transitions.contains { $0.trigger == .always && !$0.isBroken } }

    /// Whether anything is ever put on the internal queue: a `raise`, or a final state below
    /// the top level (its parent's completion). Without either the machine keeps no queue.
    var usesInternalQueue: Bool {
        if states.contains(where: { $0.isFinal && $0.parent != machine.root }) { return true }
        var raises = false
        let note: (Action) -> Void = { if case .raise = $0 { raises = true } }
        for t in machine.transitions { for a in t.actions { a.visit(note) } }
        for s in machine.states { for a in s.allActions { a.visit(note) } }
        return raises
    }

    mutating func selectEventlessFunction() {
        guard hasAlways else { return }
        out.doc("Appendix D `selectEventlessTransitions`: the `always` transitions whose guards hold.")
        out.open("private mutating func selectEventless(_ chosen: inout Chosen) throws(Failure) -> Bool")
            out.line("chosen.removeAll()")
            let chains: [(StateID, [Transition])] = chartLeaves.compactMap { leaf in
                let list = chain(leaf.id) { $0.trigger == .always }
                return list.isEmpty ? nil : (leaf.id, list)
            }
            selectChains(chains, fields: [])
            out.line("return chosen.count > 1 ? removeConflictingTransitions(&chosen) : chosen.count == 1")
        out.close()
        out.line()
    }

    /// The compound states whose completion carries values (`final state f(code: 200)`):
    /// each has an `Internal` case of its own, typed, and slots its `done` transitions read.
    var completionsWithData: [StateID] {
        machine.states.filter { $0.id != machine.root && !machine.completionFields($0.id).isEmpty }.map(\.id)
    }

    /// Where the `k`th value of `x`'s completion is kept while a `done(x)` is selected and taken.
    func completionSlot(_ x: StateID, _ k: Int) -> String { "completion\(x.index)_\(k)" }

    /// `let name = slot` for each field of `x`'s completion that `used` names.
    mutating func bindCompletionFields(of x: StateID, _ used: Set<String>) {
        for (k, f) in machine.completionFields(x).enumerated() where used.contains(f.name) {
            out.line("let \(SwiftName.quoted(f.name)) = \(completionSlot(x, k))")
        }
    }

    /// The completion fields of `x` that the transitions' guards read, or with `actions` their
    /// actions.
    func completionFieldsRead(of x: StateID, in transitions: [Transition], actions: Bool) -> Set<String> {
        var used = Set<String>()
        let names = Set(machine.completionFields(x).map(\.name))
        for t in transitions {
            let note: (Expr) -> Void = { $0.visit { if case .field(let name) = $0.kind, names.contains(name) { used.insert(name) } } }
            if actions {
                for a in t.actions { a.visitExpressions(note) }
            } else {
                t.guardExpr.map(note)
            }
        }
        return used
    }

    mutating func selectCompletionFunction() {
        out.doc("`selectTransitions` for the completion of state `x` (SCXML's `done.state.x`).")
        out.open("private mutating func selectCompletion(of x: Int, _ chosen: inout Chosen) throws(Failure) -> Bool")
            out.line("chosen.removeAll()")
            var completed: [StateID] = []
            for t in machine.transitions where !t.isBroken {
                if case .done(let x) = t.trigger, !completed.contains(x) { completed.append(x) }
            }
            if !completed.isEmpty {
                out.line("switch x {")
                for x in completed.sorted() {
                    out.line("case \(x.index):  // \(machine[x].name)")
                    out.indent()
                    let chains: [(StateID, [Transition])] = chartLeaves.compactMap { leaf in
                        let list = chain(leaf.id) { t in if case .done(x) = t.trigger { true } else { false } }
                        return list.isEmpty ? nil : (leaf.id, list)
                    }
                    if chains.isEmpty { out.line("break") }
                    let used = completionFieldsRead(of: x, in: chains.flatMap(\.1), actions: false)
                    if !chains.isEmpty { bindCompletionFields(of: x, used) }
                    selectChains(chains, fields: used)
                    out.dedent()
                }
                out.line("default:")
                out.line("    break")
                out.line("}")
            }
            out.line("return chosen.count > 1 ? removeConflictingTransitions(&chosen) : chosen.count == 1")
        out.close()
        out.line()
    }

    mutating func conflictFunctions() {
        out.open("@inline(__always) private func addEnabled(_ t: Int, _ chosen: inout Chosen)")
            out.line("if !chosen.contains(t) { chosen.append(t) }")
        out.close()
        out.line()
        out.doc("Appendix D `removeConflictingTransitions`. Two targeted transitions' exit sets meet exactly\nwhen one domain is the other or inside it; the later one then wins only if its source is\ninside the earlier one's.")
        out.open("private func removeConflictingTransitions(_ chosen: inout Chosen) -> Bool")
            out.line("guard chosen.count > 1 else { return chosen.count == 1 }")
            out.line("var kept = 0")
            out.open("for k in 0..<chosen.count")
                out.line("let t1 = chosen[k]")
                out.line("let d1 = transitionDomain(t1)")
                out.line("var preempted = false")
                out.line("var j = 0")
                out.open("while j < kept")
                    out.line("let t2 = chosen[j]")
                    out.line("let d2 = transitionDomain(t2)")
                    out.open("if d1 >= 0 && d2 >= 0 && (d1 == d2 || Self.isDescendant(d1, of: d2) || Self.isDescendant(d2, of: d1))")
                        out.open("if Self.isDescendant(Self.sourceState(t1), of: Self.sourceState(t2))")
                            out.line("for m in j..<(kept - 1) { chosen[m] = chosen[m + 1] }")
                            out.line("kept -= 1")
                            out.line("continue")
                        out.close()
                        out.line("preempted = true")
                        out.line("break")
                    out.close()
                    out.line("j += 1")
                out.close()
                out.open("if !preempted")
                    out.line("chosen[kept] = t1")
                    out.line("kept += 1")
                out.close()
            out.close()
            out.line("chosen.removeLast(chosen.count - kept)")
            out.line("return kept > 0")
        out.close()
        out.line()
    }

    // MARK: - Microsteps

    /// Transitions whose actions write a variable an `always` guard reads: after one of them
    /// alone (no state changes), selection looks for eventless transitions again.
    var wakingTransitions: [Transition] {
        var read = Set<VariableID>()
        for t in machine.transitions where t.trigger == .always {
            t.guardExpr?.visit { if case .variable(let v) = $0.kind { read.insert(v) } }
        }
        return machine.transitions.filter { t in
            var writes = false
            for a in t.actions {
                a.visit { if case .assign(let v, _, _, _) = $0, read.contains(v) { writes = true } }
            }
            return writes
        }
    }

    mutating func microstepFunction() {
        out.doc("Appendix D `microstep`: exit the exit set (recording history first), run the transitions'\nactions in order, enter the entry set.")
        out.open("private mutating func microstep(_ chosen: Chosen, _ event: Event?) throws(Failure)")
            out.line("microstepCount += 1")
            out.line("if microstepCount > 10_000 { throw Self.microstepLimit(chosen[chosen.count - 1]) }")
            out.line("// Most microsteps take one transition, whose exits and entries are known ahead.")
            out.line("if chosen.count == 1, try takeAlone(chosen[0], event) { return }")
            out.line("eventlessMayHold = true")
            out.line("var exits = Bits()")
            out.open("for k in 0..<chosen.count")
                out.line("let d = transitionDomain(chosen[k])")
                out.line("if d >= 0 { exits = exits | (core.active & Self.descendants(d)) }")
            out.close()
            out.open("if !exits.isEmpty")
                if !historyStates.isEmpty { out.line("recordHistory(exiting: exits)") }
                out.open("while let s = exits.popLast()")
                    out.line("\(Self.tryIf(chartPlan.exitThrows))exit(s)")
                    out.line("core.active.remove(s)")
                out.close()
            out.close()
            out.line("for k in 0..<chosen.count { \(Self.tryIf(chartPlan.runActionsThrows))runActions(chosen[k], event) }")
            out.line("try enterStates(entrySet(chosen))")
        out.close()
        out.line()
        takeAloneFunction()
        out.doc("Appendix D `enterStates`: each state becomes active, runs its entry actions and arms its\ntimers, in document order.")
        out.open("private mutating func enterStates(_ states: Bits) throws(Failure)")
            if hasDefaultActions {
                out.line("var entering = states & \(bits(machine.states.map(\.id)))")
            } else {
                out.line("var entering = states")
            }
            out.open("while let s = entering.popFirst()")
                out.line("core.active.insert(s)")
                out.line("\(Self.tryIf(chartPlan.enterThrows))enter(s)")
                if hasDefaultActions { out.line("\(Self.tryIf(chartPlan.defaultsThrow))enterByDefault(s, states)") }
            out.close()
        out.close()
        out.line()
        if hasDefaultActions { defaultEntryFunction() }
    }

    /// The actions of the default entries marked in an entry set (above the state numbers),
    /// right after the entry actions of the state they belong to: a compound state's
    /// `initial -> a { … }`, then its history state's default actions.
    mutating func defaultEntryFunction() {
        let n = machine.states.count
        out.doc("The actions of `s`'s default entry and of its history states' defaults, when `marks` (the\nentry set) holds them: after `s`'s entry actions, as SCXML's `enterStates` runs them.")
        out.open("private mutating func enterByDefault(_ s: Int, _ marks: Bits)\(Self.throwsIf(chartPlan.defaultsThrow))")
            out.line("switch s {")
            for s in states where !s.isHistory {
                let histories = machine.historyStates(s.id).filter { !machine[$0].historyActions.isEmpty }
                guard !s.initialActions.isEmpty || !histories.isEmpty else { continue }
                out.line("case \(s.id.index):  // \(s.name)")
                out.indent()
                if !s.initialActions.isEmpty {
                    out.open("if marks.contains(\(n + s.id.index))")
                        actions(s.initialActions, fields: [])
                    out.close()
                }
                for h in histories {
                    out.line("// The default of \(machine[h].name).")
                    out.open("if marks.contains(\(n + h.index))")
                        actions(machine[h].historyActions, fields: [])
                    out.close()
                }
                out.dedent()
            }
            out.line("default:")
            out.line("    break")
            out.line("}")
        out.close()
        out.line()
    }

    mutating func completeMacrostepFunction() {
        out.doc("Eventless transitions, then internal events one at a time, until neither applies or the run\nhas ended (the inner loop of Appendix D's `mainEventLoop`). A raised event or a completion\nthat nothing takes is dropped.")
        // A phase of one transition at most is a few tests: inlined, it costs no call.
        if chartPlan.phaseTakesOne { out.line("@inline(__always)") }
        out.open("private mutating func completeMacrostep()\(Self.throwsIf(chartPlan.completeThrows))")
            guard usesInternalQueue else {
                // Nothing is ever queued: only eventless transitions can follow.
                if hasAlways && !loneEventlessLoop() {
                    out.line("var chosen = Chosen()")
                    out.open("while eventlessMayHold && !core.isFinished")
                        out.line("eventlessMayHold = false")
                        out.line("guard try selectEventless(&chosen) else { break }")
                        out.line("try microstep(chosen, nil)")
                    out.close()
                } else if !hasAlways {
                    out.line("// (No eventless transition, and nothing is ever queued.)")
                }
                out.close()
                out.line()
                return
            }
            out.line("var head = 0")
            out.line("var chosen = Chosen()")
            out.open("while !core.isFinished")
                out.line("var found = false")
                out.line("var event: Event? = nil")
                if hasAlways {
                    out.open("if eventlessMayHold")
                        out.line("eventlessMayHold = false")
                        out.line("found = try selectEventless(&chosen)")
                    out.close()
                }
                out.open("if !found")
                    out.line("guard head < internalQueue.count else { break }")
                    out.line("let item = internalQueue[head]")
                    out.line("head += 1")
                    out.line("switch item {")
                    out.line("case .event(let e):")
                    out.line("    found = try select(e, &chosen)")
                    out.line("    event = e")
                    out.line("case .done(let x):")
                    out.line("    found = try selectCompletion(of: x, &chosen)")
                    for x in completionsWithData {
                        let count = machine.completionFields(x).count
                        out.line("case .done\(x.index)(\((0..<count).map { "let v\($0)" }.joined(separator: ", "))):")
                        for k in 0..<count { out.line("    \(completionSlot(x, k)) = v\(k)") }
                        out.line("    found = try selectCompletion(of: \(x.index), &chosen)")
                    }
                    out.line("}")
                out.close()
                out.line("if found { try microstep(chosen, event) }")
            out.close()
            out.line("if !internalQueue.isEmpty { internalQueue.removeAll(keepingCapacity: true) }")
        out.close()
        out.line()
    }

    mutating func chartTimerFunction() {
        out.doc("Fires timer `slot` as a macrostep of its own (time has moved to its deadline). The timer is\ndisarmed first, so a step that fails leaves it disarmed.")
        out.open("private mutating func fireTimer(_ slot: Int, firedAtOnce: Int) -> Outcome")
            out.line("if !pending.isEmpty { pending.removeAll() }")
            out.open("if firedAtOnce > 10_000")
                for k in timers.indices { out.line("core.deadline\(k) = .nan") }
                if sendsEvents { out.line("core.sent.removeAll()") }
                out.line("let (line, column) = Self.timerSites[slot]")
                out.line("return .rejected(Failure(message: \"timers fired 10000 times at t=\\(Self.text(core.now)) without time passing; stopped them\", line: line, column: column))")
            out.close()
            out.line("switch slot {")
            for k in timers.indices { out.line("case \(k): core.deadline\(k) = .nan") }
            out.line("default: break")
            out.line("}")
            out.line("let before = core")
            out.line("beginStep()")
            out.open("do")
                out.line("var chosen = Chosen()")
                out.line("switch slot {")
                    for (k, t) in timers.enumerated() {
                        out.line("case \(k):")
                        if let g = t.guardExpr {
                            let (code, throwing) = expression(g, fields: [])
                            out.line("    guard \(throwing ? "try " : "")\(code) else { return .ignored }")
                        }
                        out.line("    chosen.append(\(t.id.index))")
                    }
                    out.line("default:")
                    out.line("    return .ignored")
                out.line("}")
                out.line("let fired = chosen[0]")
                out.line("try microstep(chosen, nil)")
                out.line("\(Self.tryIf(chartPlan.completeThrows))completeMacrostep()")
                out.line("return .taken(transition: fired)")
            out.reopen("catch")
                out.line("core = before")
                out.line("endStep()")
                out.line("return .rejected(error)")
            out.close()
        out.close()
        out.line()
        out.line("private static let timerSites: [(Int, Int)] = [\(timers.map { "(\(site($0.keywordRange)))" }.joined(separator: ", "))]")
        out.line()
    }

    /// `send e(args) after d`: the event waits beside the timers (SCXML's external queue: it is
    /// taken after the current macrostep, before any later event from the app).
    mutating func sendFunction() {
        out.doc("Queues `event`, sent by the machine to itself, `delay` seconds from now. At most 100 wait at\nonce: a machine whose sent events each send more would otherwise grow the queue without end.")
        out.open("private mutating func sendToSelf(_ event: Event, delay: Double, line: Int, column: Int) throws(Failure)")
            out.open("if core.sent.count >= 100")
                out.line("throw Failure(message: \"100 sent events are pending already; this 'send' would add one more\", line: line, column: column)")
            out.close()
            out.line("let delay = Swift.max(0, delay)")
            out.line("if delay > 0 && !Self.deadlineHolds(at: core.now, after: delay) && refusal.delay == 0 { refusal = DeadlineRefusal(time: core.now, delay: delay) }")
            out.line("core.sequence += 1")
            out.line("core.sent.append(Sent(event: event, deadline: core.now + delay, order: core.sequence, line: line, column: column))")
        out.close()
        out.line()
    }

    /// `send "\(kind)"`: the event a log line named `name` stands for (`Machine.logNames`,
    /// then the longest `as "x.*"` stem before a `.`), failing as the runtime does when there
    /// is none or it has payload fields. The count is checked first, as the runtime does.
    mutating func namedSendFunction() {
        var exact: [(String, Event)] = []
        for (name, e) in machine.logNames where !exact.contains(where: { $0.0 == name }) { exact.append((name, machine[e])) }
        var stems: [(String, Event)] = []
        for (name, e) in machine.extensionStems where !stems.contains(where: { $0.0 == name }) { stems.append((name, machine[e])) }
        func found(_ e: Event) -> String {
            e.fields.isEmpty ? "event = .\(SwiftName.quoted(e.name))"
                : "throw Failure(message: \"send by name: event '\\(Self.faultText(name))' has fields, and a send by name carries none\", line: line, column: column)"
        }
        out.doc("Queues the event a log line named `name` would stand for (a send by name), as `sendToSelf(_:delay:line:column:)`.")
        out.open("private mutating func sendToSelf(named name: String, delay: Double, line: Int, column: Int) throws(Failure)")
            out.open("if core.sent.count >= 100")
                out.line("throw Failure(message: \"100 sent events are pending already; this 'send' would add one more\", line: line, column: column)")
            out.close()
            out.line("let event: Event")
            out.line("switch name {")
            for (name, e) in exact { out.line("case \(SwiftName.literal(name)): \(found(e))") }
            out.line("default:")
            out.indent()
            if !stems.isEmpty {
                out.line("// The longest prefix that ends before a `.` and is an `as \"x.*\"` name.")
                out.line("var prefix = Substring(name)")
                out.open("while let dot = prefix.lastIndex(of: \".\")")
                    out.line("prefix = prefix[..<dot]")
                    out.line("switch prefix {")
                    for (name, e) in stems {
                        let send = "return try sendToSelf(.\(SwiftName.quoted(e.name)), delay: delay, line: line, column: column)"
                        out.line("case \(SwiftName.literal(name)): " + (e.fields.isEmpty ? send : found(e)))
                    }
                    out.line("default: continue")
                    out.line("}")
                out.close()
            }
            out.line("throw Failure(message: \"send by name: '\\(Self.faultText(name))' is not an event of this machine\", line: line, column: column)")
            out.dedent()
            out.line("}")
            out.line("try sendToSelf(event, delay: delay, line: line, column: column)")
        out.close()
        out.line()
        out.doc("A computed name as a failure shows it: its first 32 bytes of UTF-8 (fewer, to end on a whole\ncharacter), then `…` if that is not all of it.")
        out.open("private static func faultText(_ name: String) -> String")
            out.line("var kept = 0")
            out.open("for c in name.unicodeScalars")
                out.line("let size = UTF8.width(c)")
                out.line("if kept + size > 32 { return String(decoding: name.utf8.prefix(kept), as: UTF8.self) + \"…\" }")
                out.line("kept += size")
            out.close()
            out.line("return name")
        out.close()
        out.line()
    }

    // MARK: - Actions, entry and exit

    /// The payload fields transition `t` reads in its actions, per event it takes.
    func actionFields(_ t: Transition) -> Set<String> {
        var used = Set<String>()
        for a in t.actions { a.visitExpressions { $0.visit { if case .field(let name) = $0.kind { used.insert(name) } } } }
        return used
    }

    mutating func actionDispatch() {
        out.doc("Runs transition `t`'s actions, with the payload of `event` (the event being taken; nil for a\ntimer, an eventless transition or a completion).")
        out.open("@inline(__always) private mutating func runActions(_ t: Int, _ event: Event?)\(Self.throwsIf(chartPlan.runActionsThrows))")
            let withActions = machine.transitions.filter { !$0.isBroken && !$0.actions.isEmpty }
            if withActions.isEmpty {
                out.line("_ = (t, event)")
                out.close()
                out.line()
                return
            }
            out.line("switch t {")
            for t in withActions {
                out.line("case \(t.id.index):  // line \(line(t.range)): \(describe(t))")
                out.indent()
                let used = actionFields(t)
                let call = Self.tryIf(chartPlan.throwingActions.contains(t.id))
                if case .events(let events) = t.trigger, !used.isEmpty {
                    out.line("switch event {")
                    for id in events {
                        let e = machine[id]
                        out.line("case .\(SwiftName.quoted(e.name))\(bindingPattern(e, used))?: \(call)\(chartFunctionName(t, e))(\(arguments(t, e)))")
                    }
                    out.line("default: break")
                    out.line("}")
                } else {
                    out.line("\(call)\(chartFunctionName(t, nil))()")
                }
                out.dedent()
            }
            out.line("default:")
            out.line("    break")
            out.line("}")
        out.close()
        out.line()
    }

    func chartFunctionName(_ t: Transition, _ e: Event?) -> String {
        guard let e, !actionFields(t).isEmpty else { return "transition\(t.id.index)" }
        return "transition\(t.id.index)_\(e.name)"
    }

    /// A transition's actions as a function (per event when they read its payload).
    mutating func chartTransitionFunction(_ t: Transition) {
        guard !t.isBroken, !t.actions.isEmpty else { return }
        let used = actionFields(t)
        let effect = Self.throwsIf(chartPlan.throwingActions.contains(t.id))
        if case .events(let events) = t.trigger, !used.isEmpty {
            for id in events {
                let e = machine[id]
                let mine = used.intersection(e.fields.map(\.name))
                let parameters = e.fields.filter { mine.contains($0.name) }
                    .map { "\(SwiftName.quoted($0.name)): \(Self.swiftType($0.type))" }.joined(separator: ", ")
                out.doc("Line \(line(t.range)): \(describe(t)).")
                out.open("private mutating func \(chartFunctionName(t, e))(\(parameters))\(effect)")
                actions(t.actions, fields: mine)
                out.close()
                out.line()
            }
            return
        }
        out.doc("Line \(line(t.range)): \(describe(t)).")
        out.open("private mutating func \(chartFunctionName(t, nil))()\(effect)")
        var fields = Set<String>()
        if case .done(let x) = t.trigger {
            fields = completionFieldsRead(of: x, in: [t], actions: true)
            bindCompletionFields(of: x, fields)
        }
        actions(t.actions, fields: fields)
        out.close()
        out.line()
    }

    mutating func chartEntryAndExit() {
        out.doc("State `s` has just become active: its entry actions run, its timers are armed; a final state\nqueues its parent's completion (and a parallel grandparent's once every region is complete),\nor at the top level ends the run.")
        out.line("@inline(__always)")
        out.open("private mutating func enter(_ s: Int)\(Self.throwsIf(chartPlan.enterThrows))")
            out.line("switch s {")
            for s in states where hasEntryWork(s) {
                out.line("case \(s.id.index):  // \(s.name)")
                out.indent()
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
                if s.isFinal, let parent = s.parent {
                    if parent == machine.root {
                        out.line("core.isFinished = true")
                        for k in timers.indices { out.line("core.deadline\(k) = .nan") }
                        if sendsEvents { out.line("core.sent.removeAll()") }
                    } else if !s.doneData.isEmpty {
                        // The completion's values, computed after the entry actions.
                        for (k, field) in s.doneData.enumerated() {
                            let (code, throwing) = expression(field.value, fields: [])
                            out.line("let value\(k): \(Self.swiftType(field.value.type)) = \(throwing ? "try " : "")\(code)")
                        }
                        let arguments = s.doneData.enumerated().map { "\(SwiftName.label($1.name)): value\($0)" }
                        out.line("internalQueue.append(.done\(parent.index)(\(arguments.joined(separator: ", "))))")
                        if let grandparent = machine[parent].parent, machine.isParallel(grandparent) {
                            out.line("if isInFinalState(\(grandparent.index)) { internalQueue.append(.done(\(grandparent.index))) }")
                        }
                    } else {
                        out.line("internalQueue.append(.done(\(parent.index)))")
                        if let grandparent = machine[parent].parent, machine.isParallel(grandparent) {
                            out.line("if isInFinalState(\(grandparent.index)) { internalQueue.append(.done(\(grandparent.index))) }")
                        }
                    }
                }
                out.dedent()
            }
            out.line("default:")
            out.line("    break")
            out.line("}")
        out.close()
        out.line()
        out.doc("State `s` is being exited (a child before its parent): its exit actions run, its timers\nare cancelled.")
        out.line("@inline(__always)")
        out.open("private mutating func exit(_ s: Int)\(Self.throwsIf(chartPlan.exitThrows))")
            out.line("switch s {")
            for s in states where hasExitWork(s) {
                out.line("case \(s.id.index):  // \(s.name)")
                out.indent()
                actions(s.exit, fields: [])
                for id in s.transitions {
                    if let slot = timerSlots[id] { out.line("core.deadline\(slot) = .nan") }
                }
                out.dedent()
            }
            out.line("default:")
            out.line("    break")
            out.line("}")
        out.close()
        out.line()
    }
}
