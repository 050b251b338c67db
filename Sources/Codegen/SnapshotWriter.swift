import StatecraftDiagnostics
import StatecraftModel

// Snapshots of a generated type: `snapshotJSON()` and `init(restoring:)` in the document the
// runtime's `Instance` writes and reads (the "Snapshots" article), so an app can save with one
// and restore with the other. The checks and their messages follow the runtime's restore
// field by field; the differential tests hold both sides to each other.
extension FlatMachineWriter {
    /// The path of state `s` in snapshots: the names from the top-level state down to it.
    func snapshotPath(_ s: StateID) -> String {
        machine.selfAndAncestors(s, upTo: machine.root).map { machine[$0].name }.reversed().joined(separator: ".")
    }

    /// Each timer slot's state and its index among the `after` transitions written in it.
    var timerPlaces: [(state: StateID, index: Int)] {
        timers.map { t in
            let inState = machine[t.source].transitions.filter { if case .after = machine[$0].trigger { true } else { false } }
            return (t.source, inState.firstIndex(of: t.id) ?? 0)
        }
    }

    mutating func snapshots() {
        out.line("// MARK: - Snapshots (the \"Snapshots\" article's format, version 1, as `Instance` writes it)")
        out.line()
        out.doc("The spec's fingerprint: the `spec` field of a snapshot, and the hash an event log's header carries.")
        out.line("\(access)static let specFingerprint = \(SwiftName.literal(options.fingerprint))")
        out.line()
        out.doc("Why a snapshot was refused: every problem found, each naming what the spec no longer has\n(or, for malformed JSON, the line and column). Nothing was restored.")
        out.open("\(access)struct SnapshotError: Error, Sendable, Hashable, CustomStringConvertible")
            out.line("\(access)var problems: [String]")
            out.line("\(access)var description: String { problems.joined(separator: \"\\n\") }")
        out.close()
        out.line()
        snapshotWriter()
        snapshotReader()
        snapshotTables()
        for line in SnapshotSupport.lines { out.line(line) }
    }

    mutating func snapshotWriter() {
        out.doc("The machine as a snapshot document: configuration, history, variables, armed timers in the\norder they come due, the clock, whether the run has finished, the machine's name and its\nspec's fingerprint. `init(restoring:)` (or the runtime's `Instance(restoring:program:)`) reads\nit back into a machine that continues exactly as this one would.")
        out.open("\(access)func snapshotJSON() -> String")
            out.line("var text = \"{\\n  \\\"snapshot\\\": 1,\\n  \\\"machine\\\": \" + SnapshotJSON.quoted(\(SwiftName.literal(machine.name))) + \",\\n  \\\"spec\\\": \\\"\" + Self.specFingerprint + \"\\\"\"")
            out.line("text += \",\\n  \\\"now\\\": \" + SnapshotJSON.number(core.now) + \",\\n  \\\"finished\\\": \\(core.isFinished)\"")
            out.line("text += \",\\n  \\\"configuration\\\": [\" + configuration.map { SnapshotJSON.quoted(Self.statePath($0.rawValue + 1)) }.joined(separator: \", \")")
            out.line(isChart && !historyStates.isEmpty ? "var history: [String] = []" : "let history: [String] = []")
            if isChart {
                for (k, h) in historyStates.enumerated() {
                    out.open("if core.recorded\(k)")
                        out.line("var recorded = core.history\(k)")
                        out.line("var paths: [String] = []")
                        out.line("while let s = recorded.popFirst() { paths.append(SnapshotJSON.quoted(Self.statePath(s))) }")
                        out.line("history.append(SnapshotJSON.quoted(\(SwiftName.literal(snapshotPath(h.id)))) + \": [\" + paths.joined(separator: \", \") + \"]\")")
                    out.close()
                }
            }
            out.line("text += history.isEmpty ? \"],\\n  \\\"history\\\": {},\\n  \\\"variables\\\": {\" : \"],\\n  \\\"history\\\": {\\n    \" + history.joined(separator: \",\\n    \") + \"\\n  },\\n  \\\"variables\\\": {\"")
            if machine.variables.isEmpty {
                out.line("text += \"},\\n  \\\"pending\\\": [\"")
            } else {
                out.line("var variables: [String] = []")
                for v in machine.variables {
                    let name = "core.\(SwiftName.quoted(v.name))"
                    let value: String
                    switch v.type {
                    case .number: value = "SnapshotJSON.number(\(name))"
                    case .bool: value = "(\(name) ? \"true\" : \"false\")"
                    case .string: value = "SnapshotJSON.quoted(\(name))"
                    }
                    out.line("variables.append(\(SwiftName.literal(StringEscaping.quoted(v.name, style: .json) + ": ")) + \(value))")
                }
                out.line("text += \"\\n    \" + variables.joined(separator: \",\\n    \") + \"\\n  },\\n  \\\"pending\\\": [\"")
            }
            if timers.isEmpty && !sendsEvents {
                out.line("text += \"]\\n}\\n\"")
            } else {
                out.line("var due: [(deadline: Double, order: Int, entry: String)] = []")
                for (k, place) in timerPlaces.enumerated() {
                    let head = "{\"after\": " + StringEscaping.quoted(snapshotPath(place.state), style: .json) + ", \"index\": \(place.index), \"deadline\": "
                    out.line("if !core.deadline\(k).isNaN { due.append((core.deadline\(k), \(ordersTimers ? "core.armed\(k)" : "0"), \(SwiftName.literal(head)) + SnapshotJSON.number(core.deadline\(k)) + \"}\")) }")
                }
                if sendsEvents {
                    out.line("for s in core.sent { due.append((s.deadline, s.order, Self.sentEntry(s))) }")
                }
                out.line("due.sort { ($0.deadline, $0.order) < ($1.deadline, $1.order) }")
                out.line("text += due.isEmpty ? \"]\\n}\\n\" : \"\\n    \" + due.map(\\.entry).joined(separator: \",\\n    \") + \"\\n  ]\\n}\\n\"")
            }
            out.line("return text")
        out.close()
        out.line()
    }

    mutating func snapshotReader() {
        out.doc("A machine in the state `json` (a snapshot document) describes. No entry action, guard or timer\ndelay runs: the configuration, history, variables and armed timers are set as written. Refused,\nwith every problem and nothing restored, when the snapshot is malformed, of another machine or\nformat version, or names a state, variable, `after` transition, event or field the spec does not\nhave (or a value of another type). A snapshot of another version of the spec is restored when\nall of that resolves; a variable it does not name keeps its initial value.")
        out.open("\(access)init(restoring json: String) throws(SnapshotError)")
            out.line("let document: SnapshotJSON")
            out.open("do")
                out.line("document = try SnapshotJSON.Reader.parse(json)")
            out.reopen("catch")
                out.line("throw SnapshotError(problems: [\"\\(error.line):\\(error.column): \\(error.message)\"])")
            out.close()
            out.line("var problems: [String] = []")
            out.open("func field(_ name: String) -> SnapshotJSON?")
                out.line("guard let value = document[name] else { problems.append(\"missing field '\\(name)'\"); return nil }")
                out.line("return value")
            out.close()
            out.open("func resolveState(_ value: SnapshotJSON, _ context: String) -> Int?")
                out.line("guard case .string(let path) = value else { problems.append(\"\\(context): expected a state name\"); return nil }")
                out.line("guard let s = Self.stateNumber(path) else { problems.append(\"\\(context): no state '\\(path)' in the spec\"); return nil }")
                out.line("return s")
            out.close()
            out.open("func number(_ value: SnapshotJSON?, _ context: String) -> Double?")
                out.line("guard case .number(let n)? = value else { problems.append(\"\\(context) is not a number\"); return nil }")
                out.line("return n")
            out.close()
            out.open("func typed(_ json: SnapshotJSON, _ type: String, _ context: String) -> Bool")
                out.line("switch (json, type) {")
                out.line("case (.number, \"Number\"), (.bool, \"Bool\"), (.string, \"String\"): return true")
                out.line("case (.number, _): problems.append(\"\\(context) is \\(type) in the spec, Number in the snapshot\")")
                out.line("case (.bool, _): problems.append(\"\\(context) is \\(type) in the spec, Bool in the snapshot\")")
                out.line("case (.string, _): problems.append(\"\\(context) is \\(type) in the spec, String in the snapshot\")")
                out.line("default: problems.append(\"\\(context) is not a value\")")
                out.line("}")
                out.line("return false")
            out.close()
            out.line("guard case .object = document else { throw SnapshotError(problems: [\"a snapshot is a JSON object\"]) }")
            out.open("guard case .number(let version)? = field(\"snapshot\"), version == 1 else")
                out.line("if problems.isEmpty { problems.append(\"unsupported snapshot version (this runtime reads version 1)\") }")
                out.line("throw SnapshotError(problems: problems)")
            out.close()
            out.open("guard case .string(let name)? = field(\"machine\") else")
                out.line("if problems.isEmpty { problems.append(\"field 'machine' is not a string\") }")
                out.line("throw SnapshotError(problems: problems)")
            out.close()
            let machineName = SwiftName.literal(machine.name)
            out.open("guard name == \(machineName) else")
                out.line("throw SnapshotError(problems: [\"snapshot of machine '\\(name)', not '\" + \(machineName) + \"'\"])")
            out.close()
            out.line("let clock = number(field(\"now\"), \"field 'now'\") ?? 0")
            out.line("var finished = false")
            out.open("if let f = field(\"finished\")")
                out.line("if case .bool(let b) = f { finished = b } else { problems.append(\"field 'finished' is not a Boolean\") }")
            out.close()
            // The configuration.
            out.line("var active = Set<Int>()")
            out.line("let problemsBefore = problems.count")
            out.open("if case .array(let list)? = field(\"configuration\")")
                out.open("for element in list")
                    out.open("if let s = resolveState(element, \"configuration\")")
                        out.line("if Self.isHistoryState(s) { problems.append(\"configuration: '\\(Self.statePath(s))' is a history state\") }")
                        out.line("active.insert(s)")
                    out.close()
                out.close()
            out.reopen("else if document[\"configuration\"] != nil")
                out.line("problems.append(\"field 'configuration' is not an array\")")
            out.close()
            out.open("for s in active.sorted()")
                out.line("let p = Self.parentNumber(s)")
                out.line("if p > 0 && !active.contains(p) { problems.append(\"configuration: '\\(Self.statePath(s))' is active but its parent '\\(Self.statePath(p))' is not\") }")
            out.close()
            out.line("let configuration = active.sorted()")
            if !isChart {
                out.open("if problems.count == problemsBefore, let deepest = configuration.last")
                    out.line("var chain: [Int] = []")
                    out.line("var s = deepest")
                    out.open("while s > 0")
                        out.line("chain.insert(s, at: 0)")
                        out.line("s = Self.parentNumber(s)")
                    out.close()
                    let withChildren = machine.states.filter { $0.id != machine.root && !$0.children.isEmpty }.map { String($0.id.index) }
                    out.open("if chain != configuration || [\(withChildren.joined(separator: ", "))].contains(deepest)")
                        out.line("problems.append(\"configuration: not one state of this flat machine and its ancestors\")")
                    out.close()
                out.close()
                // Finished means a final state at the top level is active, or nothing is (a start
                // that failed): `send` counts on it (the runtime refuses the same snapshots).
                let finals = machine[machine.root].children.filter { machine[$0].isFinal }.map { String($0.index) }
                let noFinal = finals.isEmpty ? "" : " && !configuration.contains(where: [\(finals.joined(separator: ", "))].contains)"
                out.open("if finished && !configuration.isEmpty\(noFinal)")
                    out.line("problems.append(\"field 'finished' is true, but no final state at the top level is active\")")
                out.close()
            } else {
                // A statechart's configuration is one it can be in: an active compound state (the
                // machine itself, once anything is active) has exactly one of its states active,
                // an active parallel state every region.
                let groups = [machine[machine.root]] + states.filter { ($0.kind == .compound || $0.kind == .parallel) && $0.id != machine.root }
                let rows = groups.map { g -> String in
                    let children = machine.childStates(g.id).filter { !machine[$0].isHistory }.map { String($0.index) }
                    return "(\(g.id.index), [\(children.joined(separator: ", "))], \(g.kind == .parallel && g.id != machine.root))"
                }
                out.open("if problems.count == problemsBefore && !configuration.isEmpty")
                    out.line("let groups: [(state: Int, children: [Int], parallel: Bool)] = [\(rows.joined(separator: ", "))]")
                    out.open("for g in groups where g.state == 0 || active.contains(g.state)")
                        out.line("let on = g.children.filter(active.contains).count")
                        out.line("let name = g.state == 0 ? \"the machine\" : \"'\\(Self.statePath(g.state))'\"")
                        out.open("if g.parallel")
                            out.line("if on != g.children.count { problems.append(\"configuration: \\(name) is active but not every one of its regions is\") }")
                        out.reopen("else if on != 1")
                            out.line("problems.append(\"configuration: \\(name) is active but \" + (on == 0 ? \"none of its states is\" : \"more than one of its states is\"))")
                        out.close()
                    out.close()
                out.close()
            }
            // History.
            out.line(isChart && !historyStates.isEmpty ? "var history: [(h: Int, states: [Int])] = []" : "let history: [(h: Int, states: [Int])] = []")
            out.open("if case .object(let members)? = field(\"history\")")
                out.open("for (path, recorded) in members")
                    out.line("guard let h = resolveState(.string(path), \"history\") else { continue }")
                    if isChart && !historyStates.isEmpty {
                        out.open("guard Self.isHistoryState(h) else")
                            out.line("problems.append(\"history: '\\(path)' is not a history state in the spec\")")
                            out.line("continue")
                        out.close()
                        out.line("guard case .array(let list) = recorded else { problems.append(\"history '\\(path)': expected an array of states\"); continue }")
                        out.line("let states = list.compactMap { resolveState($0, \"history '\\(path)'\") }")
                        out.line("let parent = Self.parentNumber(h)")
                        out.line("let capacity = Self.lastDescendant(parent) - parent")
                        out.open("if states.count > capacity || states.contains(where: { !Self.isDescendant($0, of: parent) })")
                            out.line("problems.append(\"history '\\(path)': recorded states not inside '\\(Self.statePath(parent))'\")")
                            out.line("continue")
                        out.close()
                        out.line("history.append((h, states))")
                    } else {
                        out.line("_ = (h, recorded)")
                        out.line("problems.append(\"history: '\\(path)' is not a history state in the spec\")")
                    }
                out.close()
            out.reopen("else if document[\"history\"] != nil")
                out.line("problems.append(\"field 'history' is not an object\")")
            out.close()
            // Variables.
            if machine.variables.isEmpty {
                out.open("if case .object(let members)? = field(\"variables\")")
                    out.line("for (name, _) in members { problems.append(\"variables: no variable '\\(name)' in the spec\") }")
                out.reopen("else if document[\"variables\"] != nil")
                    out.line("problems.append(\"field 'variables' is not an object\")")
                out.close()
            } else {
                out.line("var values: [(String, SnapshotJSON)] = []")
                out.open("if case .object(let members)? = field(\"variables\")")
                    out.open("for (name, json) in members")
                        out.line("switch name {")
                        for v in machine.variables {
                            out.line("case \(SwiftName.literal(v.name)): if typed(json, \"\(v.type.rawValue)\", \"variable '\" + name + \"'\") { values.append((name, json)) }")
                        }
                        out.line("default: problems.append(\"variables: no variable '\\(name)' in the spec\")")
                        out.line("}")
                    out.close()
                out.reopen("else if document[\"variables\"] != nil")
                    out.line("problems.append(\"field 'variables' is not an object\")")
                out.close()
            }
            // Pending timers (a generated type sends no events to itself).
            out.line("var armed: [(deadline: Double, slot: Int, event: Event?)] = []")
            out.open("if case .array(let list)? = field(\"pending\")")
                out.open("for (k, entry) in list.enumerated()")
                    out.line("let context = \"pending[\\(k)]\"")
                    out.line("let deadline = number(entry[\"deadline\"], \"\\(context) 'deadline'\")")
                    out.open("if let after = entry[\"after\"]")
                        out.line("guard let s = resolveState(after, context) else { continue }")
                        out.open("guard case .number(let index)? = entry[\"index\"], let i = Int(exactly: index), i >= 0 else")
                            out.line("problems.append(\"\\(context) 'index' is not a whole number\")")
                            out.line("continue")
                        out.close()
                        out.line("let count = Self.afterCount(s)")
                        out.open("guard i < count, let slot = Self.timerSlot(s, i) else")
                            out.line("problems.append(\"\\(context): state '\\(Self.statePath(s))' has no 'after' transition \\(i) (it has \\(count))\")")
                            out.line("continue")
                        out.close()
                        out.line("if let deadline { armed.append((deadline, slot, nil)) }")
                    out.reopen("else if case .string(let name)? = entry[\"send\"]")
                        out.line("let events: Set<String> = [\(machine.events.map { SwiftName.literal($0.name) }.joined(separator: ", "))]")
                        var sentNames: [String] = []
                        for (e, _) in sendSites where !sentNames.contains(machine[e].name) { sentNames.append(machine[e].name) }
                        // A send by name may have sent any event without fields.
                        if !namedSendSites.isEmpty {
                            for e in machine.events where e.fields.isEmpty && !sentNames.contains(e.name) { sentNames.append(e.name) }
                        }
                        if !sendsEvents {
                            out.line("problems.append(events.contains(name) ? \"\\(context): the spec no longer sends event '\\(name)'\" : \"\\(context): no event '\\(name)' in the spec\")")
                        } else {
                            out.line("let sentEvents: Set<String> = [\(sentNames.map { SwiftName.literal($0) }.joined(separator: ", "))]")
                            out.open("guard sentEvents.contains(name) else")
                                out.line("problems.append(events.contains(name) ? \"\\(context): the spec no longer sends event '\\(name)'\" : \"\\(context): no event '\\(name)' in the spec\")")
                                out.line("continue")
                            out.close()
                            out.open("guard case .object(let members)? = entry[\"payload\"] else")
                                out.line("problems.append(\"\\(context) 'payload' is not an object\")")
                                out.line("continue")
                            out.close()
                            out.line("let declared = Self.fieldTypes(of: name)")
                            out.line("var values: [Value] = []")
                            out.open("for (field, type) in declared")
                                out.open("guard let json = members.first(where: { $0.0 == field })?.1 else")
                                    out.line("problems.append(\"\\(context): event '\\(name)' has field '\\(field)', missing in the snapshot\")")
                                    out.line("continue")
                                out.close()
                                out.line("guard typed(json, type, \"\\(context) field '\\(field)'\") else { continue }")
                                out.line("switch json {")
                                out.line("case .number(let n): values.append(.number(n))")
                                out.line("case .bool(let b): values.append(.bool(b))")
                                out.line("case .string(let s): values.append(.string(s))")
                                out.line("default: break")
                                out.line("}")
                            out.close()
                            out.open("for (key, _) in members where !declared.contains(where: { $0.0 == key })")
                                out.line("problems.append(\"\\(context): event '\\(name)' has no field '\\(key)' in the spec\")")
                            out.close()
                            out.line("if let deadline, let event = Event(name: name, fields: values) { armed.append((deadline, -1, event)) }")
                        }
                    out.reopen("else")
                        out.line("problems.append(\"\\(context): neither 'after' nor 'send'\")")
                    out.close()
                out.close()
            out.reopen("else if document[\"pending\"] != nil")
                out.line("problems.append(\"field 'pending' is not an array\")")
            out.close()
            out.line("guard problems.isEmpty else { throw SnapshotError(problems: problems) }")
            out.line("// Everything resolved: the machine as written.")
            out.line("var core = Core()")
            out.line("core.now = clock")
            if !machine.variables.isEmpty {
                out.open("for (name, json) in values")
                    out.line("switch (name, json) {")
                    for v in machine.variables {
                        let kind = v.type == .number ? "number" : v.type == .bool ? "bool" : "string"
                        out.line("case (\(SwiftName.literal(v.name)), .\(kind)(let value)): core.\(SwiftName.quoted(v.name)) = value")
                    }
                    out.line("default: break")
                    out.line("}")
                out.close()
            }
            if isChart {
                out.line("for s in configuration { core.active.insert(s) }")
                if !historyStates.isEmpty {
                    out.open("for (h, states) in history")
                        out.line("var recorded = Bits()")
                        out.line("for s in states { recorded.insert(s) }")
                        out.line("switch h {")
                        for (k, h) in historyStates.enumerated() {
                            out.line("case \(h.id.index): core.history\(k) = recorded; core.recorded\(k) = true")
                        }
                        out.line("default: break")
                        out.line("}")
                    out.close()
                } else {
                    out.line("_ = history")
                }
            } else {
                out.line("_ = history")
                out.line("core.state = configuration.last.flatMap { State(rawValue: $0 - 1) }")
            }
            if timers.isEmpty && !sendsEvents {
                out.line("_ = armed")
            } else {
                out.open("for (deadline, slot, event) in armed")
                    if ordersTimers { out.line("core.sequence += 1") }
                    if sendsEvents {
                        out.open("if let event")
                            out.line("let (line, column) = Self.firstSendSite(event.name)")
                            out.line("core.sent.append(Sent(event: event, deadline: deadline, order: core.sequence, line: line, column: column))")
                            out.line("continue")
                        out.close()
                    } else {
                        out.line("_ = event")
                    }
                    if !timers.isEmpty {
                        out.line("switch slot {")
                        for k in timers.indices {
                            out.line("case \(k): core.deadline\(k) = deadline" + (ordersTimers ? "; core.armed\(k) = core.sequence" : ""))
                        }
                        out.line("default: break")
                        out.line("}")
                    } else {
                        out.line("_ = slot")
                    }
                out.close()
            }
            out.line("core.isFinished = finished")
            out.line("self.core = core")
        out.close()
        out.line()
    }

    /// The name tables a snapshot is read and written with.
    mutating func snapshotTables() {
        let all = states
        out.doc("State number `s`'s path in snapshots: the names from the top-level state down to it.")
        out.open("static func statePath(_ s: Int) -> String")
            out.line("switch s {")
            for s in all { out.line("case \(s.id.index): \(SwiftName.literal(snapshotPath(s.id)))") }
            out.line("default: \"\"")
            out.line("}")
        out.close()
        out.doc("The number of the state at `path`, if the spec has one.")
        out.open("static func stateNumber(_ path: String) -> Int?")
            out.line("switch path {")
            for s in all { out.line("case \(SwiftName.literal(snapshotPath(s.id))): \(s.id.index)") }
            out.line("default: nil")
            out.line("}")
        out.close()
        out.line("static func isHistoryState(_ s: Int) -> Bool { [\(all.filter(\.isHistory).map { String($0.id.index) }.joined(separator: ", "))].contains(s) }")
        out.doc("The number of the state that contains state `s` (0 at the top level).")
        if isChart {
            // (The chart step's own table: `parent(_:)`.)
            out.line("static func parentNumber(_ s: Int) -> Int { parent(s) }")
        } else {
            out.open("static func parentNumber(_ s: Int) -> Int")
                out.line("switch s {")
                for s in all where s.parent != machine.root { out.line("case \(s.id.index): \(s.parent?.index ?? 0)") }
                out.line("default: 0")
                out.line("}")
            out.close()
        }
        if sendsEvents {
            out.doc("A sent event's entry in a snapshot's `pending`.")
            out.open("static func sentEntry(_ s: Sent) -> String")
                out.line("let payload: String")
                out.line("switch s.event {")
                for e in machine.events {
                    if e.fields.isEmpty {
                        out.line("case .\(SwiftName.quoted(e.name)): payload = \"\"")
                        continue
                    }
                    let bindings = e.fields.map { "let \(SwiftName.quoted($0.name))" }.joined(separator: ", ")
                    let parts = e.fields.map { f -> String in
                        let key = SwiftName.literal(StringEscaping.quoted(f.name, style: .json) + ": ")
                        let name = SwiftName.quoted(f.name)
                        switch f.type {
                        case .number: return "\(key) + SnapshotJSON.number(\(name))"
                        case .bool: return "\(key) + (\(name) ? \"true\" : \"false\")"
                        case .string: return "\(key) + SnapshotJSON.quoted(\(name))"
                        }
                    }
                    out.line("case .\(SwiftName.quoted(e.name))(\(bindings)): payload = " + parts.joined(separator: " + \", \" + "))
                }
                out.line("}")
                out.line("return \"{\\\"send\\\": \" + SnapshotJSON.quoted(s.event.name) + \", \\\"payload\\\": {\" + payload + \"}, \\\"deadline\\\": \" + SnapshotJSON.number(s.deadline) + \"}\"")
            out.close()
            out.doc("Where the first `send` of event `name` is written (a restored sent event's place).")
            out.open("static func firstSendSite(_ name: String) -> (Int, Int)")
                out.line("switch name {")
                var seen = Set<EventID>()
                for (e, range) in sendSites where seen.insert(e).inserted {
                    let at = machine.source.location(of: range.start)
                    out.line("case \(SwiftName.literal(machine[e].name)): (\(at.line), \(at.column))")
                }
                // An event no `send` names: the first send by name, for those it may send.
                if let first = namedSendSites.first {
                    let at = machine.source.location(of: first.start)
                    let others = machine.events.filter { e in e.fields.isEmpty && !seen.contains(e.id) }
                    if !others.isEmpty {
                        out.line("case \(others.map { SwiftName.literal($0.name) }.joined(separator: ", ")): (\(at.line), \(at.column))")
                    }
                }
                out.line("default: (0, 0)")
                out.line("}")
            out.close()
        }
        if sendsEvents {
            out.doc("The payload fields of event `name` and their types, in the spec's order.")
            out.open("static func fieldTypes(of name: String) -> [(String, String)]")
                out.line("switch name {")
                for e in machine.events where !e.fields.isEmpty {
                    out.line("case \(SwiftName.literal(e.name)): [\(e.fields.map { "(\(SwiftName.literal($0.name)), \"\($0.type.rawValue)\")" }.joined(separator: ", "))]")
                }
                out.line("default: []")
                out.line("}")
            out.close()
        }
        let places = timerPlaces
        out.doc("How many `after` transitions are written directly in state `s`.")
        out.open("static func afterCount(_ s: Int) -> Int")
            out.line("switch s {")
            var counts: [Int: Int] = [:]
            for p in places { counts[p.state.index, default: 0] += 1 }
            for (s, n) in counts.sorted(by: { $0.key < $1.key }) { out.line("case \(s): \(n)") }
            out.line("default: 0")
            out.line("}")
        out.close()
        out.doc("The timer slot of the `index`th `after` transition of state `s`.")
        out.open("static func timerSlot(_ s: Int, _ index: Int) -> Int?")
            out.line("switch (s, index) {")
            for (k, p) in places.enumerated() { out.line("case (\(p.state.index), \(p.index)): \(k)") }
            out.line("default: nil")
            out.line("}")
        out.close()
        out.line()
    }
}
