import StatecraftModel
import StatecraftRecording

// Snapshots an app keeps: a running instance written as JSON by the spec's names (states,
// variables, `after` transitions, events), never by internal index, so that a snapshot taken
// by one build of an app restores in the next one as long as what it names still exists, and
// so that a generated type can write and read the same document. The format is documented
// field by field in the "Snapshots" article; `snapshotFormatVersion` changes whenever a
// field's meaning does.

/// Why a snapshot was refused: every problem found, each a lowercase sentence naming what
/// the spec no longer has (or, for malformed JSON, the line and column). Nothing was restored.
public struct SnapshotError: Error, Sendable, CustomStringConvertible {
    /// Every problem found, in the order of the snapshot's fields.
    public var problems: [String]

    /// The problems, one a line.
    public var description: String { problems.joined(separator: "\n") }
}

extension Instance {
    /// The version written in a snapshot's `"snapshot"` field; restoring refuses any other.
    public static let snapshotFormatVersion = 1

    /// The path of state `s` in snapshots: the names from the top-level state down to `s`,
    /// joined by "." (`Player.Playing.Muted`). State names are identifiers, so no name holds a
    /// ".", and the path tells apart states of one name in different parents.
    package func snapshotPath(of s: Int) -> String {
        let machine = program.machine
        return machine.selfAndAncestors(StateID(s), upTo: machine.root).map { machine[$0].name }.reversed()
            .joined(separator: ".")
    }

    /// The instance as a snapshot document (see the "Snapshots" article): configuration,
    /// history, variables, pending timers and sent events in the order they come due, the
    /// virtual clock, whether the run has finished, the machine's name and its spec's
    /// fingerprint. Restoring it with `init(restoring:program:)` gives an instance that
    /// continues exactly as this one would.
    public func snapshotJSON() -> String {
        let machine = program.machine
        var w = SnapshotJSONWriter()
        w.raw("{\n  \"snapshot\": \(Instance.snapshotFormatVersion),\n  \"machine\": ")
        w.string(machine.name)
        w.raw(",\n  \"spec\": ")
        w.string(program.specFingerprint.description)
        w.raw(",\n  \"now\": ")
        w.number(now)
        w.raw(",\n  \"finished\": \(isFinished)")
        w.raw(",\n  \"configuration\": [")
        for (k, s) in configuration.enumerated() {
            if k > 0 { w.raw(", ") }
            w.string(snapshotPath(of: s.index))
        }
        w.raw("],\n  \"history\": {")
        var first = true
        for (h, recorded) in historyValues.enumerated() {
            guard let recorded else { continue }
            w.raw(first ? "\n    " : ",\n    ")
            first = false
            w.string(snapshotPath(of: h))
            w.raw(": [")
            for (k, s) in recorded.enumerated() {
                if k > 0 { w.raw(", ") }
                w.string(snapshotPath(of: s.index))
            }
            w.raw("]")
        }
        w.raw(first ? "},\n  \"variables\": {" : "\n  },\n  \"variables\": {")
        for (i, value) in variables.enumerated() {
            w.raw(i == 0 ? "\n    " : ",\n    ")
            w.string(machine.variables[i].name)
            w.raw(": ")
            w.value(value)
        }
        w.raw(machine.variables.isEmpty ? "},\n  \"pending\": [" : "\n  },\n  \"pending\": [")
        let due = pending.elements.sorted { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
        for (k, p) in due.enumerated() {
            w.raw(k == 0 ? "\n    {" : ",\n    {")
            if p.event >= 0 {
                let event = Int(p.event)
                w.raw("\"send\": ")
                w.string(machine.events[event].name)
                w.raw(", \"payload\": {")
                let start = Int(program.payloadStart[event])
                for (f, field) in machine.events[event].fields.enumerated() {
                    if f > 0 { w.raw(", ") }
                    w.string(field.name)
                    w.raw(": ")
                    let slot = sentNumbers[Int(p.payload) + f]
                    let type = program.fieldTypes[start + f]
                    w.value(Program.value(type, number: slot, string: type == .string ? sentStrings[Int(slot)] : ""))
                }
                w.raw("}")
            } else {
                w.raw("\"after\": ")
                w.string(snapshotPath(of: Int(p.state)))
                w.raw(", \"index\": \(Int(p.timer - program.timerGroups[Int(p.state)]))")
            }
            w.raw(", \"deadline\": ")
            w.number(p.deadline)
            w.raw("}")
        }
        w.raw(due.isEmpty ? "]\n}\n" : "\n  ]\n}\n")
        return w.text
    }

    /// An instance of `program` in the state `json` (a `snapshotJSON()` document) describes.
    /// No entry action, guard or timer delay runs: the configuration, history, variables and
    /// pending timers are set as written. Refused (with every problem, nothing restored) when
    /// the snapshot is malformed, of another machine or another format version, or names a
    /// state, variable, `after` transition, event or field the spec does not have (or a value
    /// of another type). A snapshot whose spec fingerprint differs is restored when all of that
    /// resolves: see the "Snapshots" article for why.
    public init(restoring json: String, program: Program) throws(SnapshotError) {
        let document: SnapshotJSONValue
        do {
            document = try SnapshotJSONReader.parse(json)
        } catch {
            throw SnapshotError(problems: ["\(error.line):\(error.column): \(error.message)"])
        }
        var instance = Instance(program)
        try instance.restore(document)
        self = instance
    }

    /// Restores a parsed snapshot into this unstarted instance: reads and checks every field
    /// first, and changes the instance only when no problem was found.
    private mutating func restore(_ document: SnapshotJSONValue) throws(SnapshotError) {
        let machine = program.machine
        var problems: [String] = []
        func field(_ name: String) -> SnapshotJSONValue? {
            guard let value = document[name] else { problems.append("missing field '\(name)'"); return nil }
            return value
        }
        guard case .object = document else { throw SnapshotError(problems: ["a snapshot is a JSON object"]) }
        guard case .number(let version)? = field("snapshot"), version == Double(Instance.snapshotFormatVersion) else {
            if problems.isEmpty { problems.append("unsupported snapshot version (this runtime reads version \(Instance.snapshotFormatVersion))") }
            throw SnapshotError(problems: problems)
        }
        guard case .string(let name)? = field("machine") else {
            if problems.isEmpty { problems.append("field 'machine' is not a string") }
            throw SnapshotError(problems: problems)
        }
        // Another machine's names mean nothing here: no point listing them.
        guard name == machine.name else { throw SnapshotError(problems: ["snapshot of machine '\(name)', not '\(machine.name)'"]) }

        var paths: [String: Int] = [:]
        for s in 1..<machine.states.count { paths[snapshotPath(of: s)] = s }
        func resolveState(_ value: SnapshotJSONValue, _ context: String) -> Int? {
            guard case .string(let path) = value else { problems.append("\(context): expected a state name"); return nil }
            guard let s = paths[path] else { problems.append("\(context): no state '\(path)' in the spec"); return nil }
            return s
        }
        func number(_ value: SnapshotJSONValue?, _ context: String) -> Double? {
            guard case .number(let n)? = value else { problems.append("\(context) is not a number"); return nil }
            return n
        }
        func value(_ json: SnapshotJSONValue, _ type: ValueType, _ context: String) -> Value? {
            switch (json, type) {
            case (.number(let n), .number): return .number(n)
            case (.bool(let b), .bool): return .bool(b)
            case (.string(let s), .string): return .string(s)
            case (.number, _): problems.append("\(context) is \(type.rawValue) in the spec, Number in the snapshot")
            case (.bool, _): problems.append("\(context) is \(type.rawValue) in the spec, Bool in the snapshot")
            case (.string, _): problems.append("\(context) is \(type.rawValue) in the spec, String in the snapshot")
            default: problems.append("\(context) is not a value")
            }
            return nil
        }

        let clock = number(field("now"), "field 'now'") ?? 0
        var finished = false
        if let f = field("finished") {
            if case .bool(let b) = f { finished = b } else { problems.append("field 'finished' is not a Boolean") }
        }

        // The configuration: every state exists and is not a history pseudo-state; every
        // active state's parent is active (for a flat machine: one chain from the top down).
        var active = Set<Int>()
        let problemsBefore = problems.count
        if case .array(let list)? = field("configuration") {
            for element in list {
                if let s = resolveState(element, "configuration") {
                    if machine.states[s].isHistory { problems.append("configuration: '\(snapshotPath(of: s))' is a history state") }
                    active.insert(s)
                }
            }
        } else if document["configuration"] != nil { problems.append("field 'configuration' is not an array") }
        for s in active.sorted() {
            if let p = machine[StateID(s)].parent, p != machine.root, !active.contains(p.index) {
                problems.append("configuration: '\(snapshotPath(of: s))' is active but its parent '\(snapshotPath(of: p.index))' is not")
            }
        }
        let configuration = active.sorted()
        // A statechart's configuration is one it can be in: an active compound state (the
        // machine itself, once anything is active) has exactly one of its states active, an
        // active parallel state every region. (Only when every state resolved.)
        if program.chart != nil, problems.count == problemsBefore, !configuration.isEmpty {
            for s in [machine.root.index] + configuration {
                let state = machine.states[s]
                guard state.kind == .compound || state.kind == .parallel || s == machine.root.index else { continue }
                let children = machine.childStates(state.id).filter { !machine[$0].isHistory }.map(\.index)
                let on = children.filter(active.contains).count
                let name = s == machine.root.index ? "the machine" : "'\(snapshotPath(of: s))'"
                if state.kind == .parallel && s != machine.root.index {
                    if on != children.count { problems.append("configuration: \(name) is active but not every one of its regions is") }
                } else if on != 1 {
                    problems.append("configuration: \(name) is active but " + (on == 0 ? "none of its states is" : "more than one of its states is"))
                }
            }
        }
        // (Only when every state resolved: a missing one is the problem to report.)
        if program.chart == nil, problems.count == problemsBefore, let deepest = configuration.last {
            let chain = program.selfAndAncestors(deepest, upTo: 0).map { $0 }.sorted()
            if chain != configuration || !machine.states[deepest].children.isEmpty {
                problems.append("configuration: not one state of this flat machine and its ancestors")
            }
        }
        // A flat machine finishes by entering a final state at the top level, or by a start
        // that failed (then nothing is active): the generated types count on it.
        if program.chart == nil, finished, !configuration.isEmpty,
           !configuration.contains(where: { machine.states[$0].isFinal && machine.states[$0].parent == machine.root }) {
            problems.append("field 'finished' is true, but no final state at the top level is active")
        }

        // History: history state -> the states it recorded.
        var history: [(h: Int, states: [Int])] = []
        if case .object(let members)? = field("history") {
            for (path, recorded) in members {
                guard let h = resolveState(.string(path), "history") else { continue }
                guard machine.states[h].isHistory, program.chart != nil, let parent = machine[StateID(h)].parent else {
                    problems.append("history: '\(path)' is not a history state in the spec")
                    continue
                }
                guard case .array(let list) = recorded else { problems.append("history '\(path)': expected an array of states"); continue }
                let states = list.compactMap { resolveState($0, "history '\(path)'") }
                let capacity = machine.lastDescendant(parent).index - parent.index
                if states.count > capacity || states.contains(where: { !machine.isDescendant(StateID($0), of: parent) }) {
                    problems.append("history '\(path)': recorded states not inside '\(snapshotPath(of: parent.index))'")
                    continue
                }
                history.append((h, states))
            }
        } else if document["history"] != nil { problems.append("field 'history' is not an object") }

        // Variables by name; a variable the spec declares and the snapshot does not name
        // keeps its initial value (an app update may add one).
        var values: [(Int, Value)] = []
        if case .object(let members)? = field("variables") {
            for (name, json) in members {
                guard let i = machine.variables.firstIndex(where: { $0.name == name }) else {
                    problems.append("variables: no variable '\(name)' in the spec")
                    continue
                }
                if let v = value(json, program.variableTypes[i], "variable '\(name)'") { values.append((i, v)) }
            }
        } else if document["variables"] != nil { problems.append("field 'variables' is not an object") }

        // Pending timers and sent events, in the order they come due.
        // (A sent event's entry holds its send site in `state`.)
        var timers: [(deadline: Double, state: Int32, timer: Int32, event: Int32, payload: [Value])] = []
        if case .array(let list)? = field("pending") {
            for (k, entry) in list.enumerated() {
                let context = "pending[\(k)]"
                let deadline = number(entry["deadline"], "\(context) 'deadline'")
                if let after = entry["after"] {
                    guard let s = resolveState(after, context) else { continue }
                    guard case .number(let index)? = entry["index"], let i = Int(exactly: index), i >= 0 else {
                        problems.append("\(context) 'index' is not a whole number")
                        continue
                    }
                    let count = Int(program.timerGroups[s + 1] - program.timerGroups[s])
                    guard i < count else {
                        problems.append("\(context): state '\(snapshotPath(of: s))' has no 'after' transition \(i) (it has \(count))")
                        continue
                    }
                    if let deadline { timers.append((deadline, Int32(s), program.timerGroups[s] + Int32(i), -1, [])) }
                } else if case .string(let name)? = entry["send"] {
                    guard let e = machine.events.firstIndex(where: { $0.name == name }) else {
                        problems.append("\(context): no event '\(name)' in the spec")
                        continue
                    }
                    // A send by name may have sent any event without fields.
                    let sites = 0..<program.sendEvents.count
                    guard let site = sites.first(where: { program.sendEvents[$0] == Int32(e) })
                        ?? (machine.events[e].fields.isEmpty ? sites.first(where: { program.sendEvents[$0] < 0 }) : nil) else {
                        problems.append("\(context): the spec no longer sends event '\(name)'")
                        continue
                    }
                    guard case .object(let members)? = entry["payload"] else {
                        problems.append("\(context) 'payload' is not an object")
                        continue
                    }
                    var payload: [Value] = []
                    let start = Int(program.payloadStart[e])
                    for (f, declared) in machine.events[e].fields.enumerated() {
                        guard let json = members.first(where: { $0.0 == declared.name })?.1 else {
                            problems.append("\(context): event '\(name)' has field '\(declared.name)', missing in the snapshot")
                            continue
                        }
                        if let v = value(json, program.fieldTypes[start + f], "\(context) field '\(declared.name)'") { payload.append(v) }
                    }
                    for (key, _) in members where !machine.events[e].fields.contains(where: { $0.name == key }) {
                        problems.append("\(context): event '\(name)' has no field '\(key)' in the spec")
                    }
                    if let deadline { timers.append((deadline, Int32(site), -1, Int32(e), payload)) }
                } else {
                    problems.append("\(context): neither 'after' nor 'send'")
                }
            }
        } else if document["pending"] != nil { problems.append("field 'pending' is not an array") }

        guard problems.isEmpty else { throw SnapshotError(problems: problems) }

        // Everything resolved: set the instance (unstarted until now, so nothing to undo).
        makeUnique()
        self.clock = clock
        for (i, v) in values {
            switch v {
            case .number(let n): registers.numbers[i] = n
            case .bool(let b): registers.numbers[i] = b ? 1 : 0
            case .string(let s): registers.strings[i] = s
            }
        }
        if let chart = program.chart, let run = chartRun {
            makeChartUnique()
            let run = chartRun ?? run
            for s in configuration {
                run.list.append(Int32(s))
                run.active[s] = true
                if chart.isLeaf[s] { run.leaves.append(Int32(s)) }
            }
            for (h, states) in history {
                let slot = Int(chart.historySlot[h])
                for (k, s) in states.enumerated() { run.history[slot + k] = Int32(s) }
                run.historyCount[h] = Int32(states.count)
            }
            if run.leaves.count > 0 { state = StateID(Int(run.leaves[0])) }
        } else if let deepest = configuration.last {
            state = StateID(deepest)
        }
        for t in timers {
            sequence += 1
            var p = PendingTimer(deadline: t.deadline, sequence: sequence, state: t.state, timer: t.timer)
            if t.event >= 0 {
                p.state = -1
                p.timer = t.state  // for a sent event: its send site (`timers` holds it in `state`)
                p.event = t.event
                p.payload = Int32(truncatingIfNeeded: sentNumbers.count)
                for v in t.payload {
                    switch v {
                    case .number(let n): sentNumbers.append(n)
                    case .bool(let b): sentNumbers.append(b ? 1 : 0)
                    case .string(let s):
                        sentNumbers.append(Double(sentStrings.count))
                        sentStrings.append(s)
                    }
                }
            }
            pending.append(p)
        }
        isFinished = finished
        updateEarliestDeadline()
    }
}
