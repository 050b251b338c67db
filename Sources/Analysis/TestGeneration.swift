import StatecraftDiagnostics
import StatecraftModel
import StatecraftRuntime

/// Model-based test generation: turns witnesses into event logs, with an expectation line
/// after every step, that replay must pass.
///
/// The witnesses of one search share their beginnings (a breadth-first search extends the
/// shortest path to one configuration into the next), so `generate` puts them in one tree
/// of steps and runs the machine once along each edge of it: whether a step fails, and the
/// expectation after it, are worked out once for every witness through that step. Finding
/// which log a witness merges into is a walk up the tree. `generateReference` does the
/// same plainly, one witness at a time, and the tests hold the two to each other.
public enum TestGeneration {
    /// Which items each generated log must reach.
    public enum Cover: String, Sendable, CaseIterable {
        /// Every transition the analysis reached (and with them the states they enter).
        case transitions
        /// Every state the analysis reached.
        case states
    }

    /// A state or transition to reach, and what the analysis said about it.
    public struct Target: Sendable, Equatable {
        /// `state closed` or `transition dragging --touchEnded, touchCancelled--> closed (line 59)`.
        public var name: String
        /// Whether the analysis reached it (with a witness), proved it unreachable, or neither.
        public var finding: ExplorationReport.Finding
        /// The file whose log reaches it, when one does.
        public var file: String?
        /// Why a reached target has no log: its witness goes through a step that fails,
        /// which a strict replay rejects.
        public var problem: String?
    }

    /// One generated log.
    public struct Log: Sendable, Equatable {
        /// A file name: a number and the longest target it reaches.
        public var file: String
        /// The event log text (JSON Lines).
        public var text: String
        /// The targets it reaches.
        public var targets: [String]
    }

    /// The logs for every reachable target, with logs whose steps are a prefix of another's
    /// merged into the longer one; and every target with the file that reaches it.
    public static func generate(_ machine: Machine, _ report: ExplorationReport,
                                cover: Cover) -> (logs: [Log], targets: [Target]) {
        var targets = targetList(machine, report, cover: cover)
        var tree = WitnessTree()
        var nodes = [Int](repeating: -1, count: targets.count)
        for i in targets.indices {
            if case .reached(let steps) = targets[i].finding { nodes[i] = tree.insert(steps) }
        }
        tree.run(Program(machine), machine)
        var reached: [Int] = []
        for i in targets.indices where nodes[i] >= 0 {
            if let fault = tree.faults[nodes[i]] {
                targets[i].problem = problem(fault, machine)
            } else {
                reached.append(i)
            }
        }
        // Longest witnesses first, so that shorter ones that are prefixes of them merge in.
        reached.sort { tree.depths[nodes[$0]] > tree.depths[nodes[$1]] || (tree.depths[nodes[$0]] == tree.depths[nodes[$1]] && $0 < $1) }
        // `owner[v]`: the first log whose steps go through node v. Each new log claims its
        // path up to the first node already claimed (whose ancestors are then claimed too),
        // so every node is claimed once, and a witness joins the log that owns its node:
        // the first log it is a prefix of.
        var owner = [Int](repeating: -1, count: tree.count)
        var groups: [(node: Int, members: [Int])] = []
        for i in reached {
            let node = nodes[i]
            if owner[node] >= 0 {
                groups[owner[node]].members.append(i)
                continue
            }
            var v = node
            while v >= 0 && owner[v] < 0 {
                owner[v] = groups.count
                v = tree.parents[v]
            }
            groups.append((node, [i]))
        }
        return name(groups.map { ($0.members, tree.text(to: $0.node)) }, &targets)
    }

    /// What `generate` returns, worked out plainly: each witness followed on its own from
    /// the start, and merged into the first longer log it is a prefix of by comparing it with
    /// every log so far. The tests hold `generate` to it.
    package static func generateReference(_ machine: Machine, _ report: ExplorationReport,
                                          cover: Cover) -> (logs: [Log], targets: [Target]) {
        var targets = targetList(machine, report, cover: cover)
        let program = Program(machine)
        let reached = targets.indices.compactMap { i -> (Int, [WitnessStep])? in
            guard case .reached(let steps) = targets[i].finding else { return nil }
            var failure: ExpressionFault?
            follow(steps, program, observe: { step in
                if failure == nil, case .failed(let fault) = step.result { failure = fault }
            })
            if let failure {
                targets[i].problem = problem(failure, machine)
                return nil
            }
            return (i, steps)
        }.sorted { $0.1.count > $1.1.count || ($0.1.count == $1.1.count && $0.0 < $1.0) }
        var groups: [(steps: [WitnessStep], members: [Int])] = []
        for (i, steps) in reached {
            if let g = groups.firstIndex(where: { $0.steps.starts(with: steps) }) {
                groups[g].members.append(i)
            } else {
                groups.append((steps, [i]))
            }
        }
        return name(groups.map { ($0.members, logText($0.steps, program)) }, &targets)
    }

    /// Every target of `cover`, with the analysis's finding.
    private static func targetList(_ machine: Machine, _ report: ExplorationReport, cover: Cover) -> [Target] {
        switch cover {
        case .states:
            // A history state is never active; the transitions into it are what covers it.
            return machine.states.dropFirst().filter { !$0.isHistory }.map { s in
                Target(name: "state \(s.name)", finding: report.states[s.id.index])
            }
        case .transitions:
            return machine.transitions.map { t in
                Target(name: "transition " + describe(t, machine), finding: report.transitions[t.id.index])
            }
        }
    }

    /// Why a target reached only through a failing step gets no log.
    private static func problem(_ fault: ExpressionFault, _ machine: Machine) -> String {
        let line = machine.source.location(of: fault.range.start).line
        return "reached only through a step that fails (\(fault.message) at line \(line)), which 'replay --strict' rejects"
    }

    /// The logs of `groups` (each its targets and its text), numbered in the order of their
    /// first target and named after it; each target is given its log's file.
    private static func name(_ groups: [(members: [Int], text: String)], _ targets: inout [Target]) -> (logs: [Log], targets: [Target]) {
        var logs: [Log] = []
        for (number, group) in groups.sorted(by: { ($0.members.min() ?? 0) < ($1.members.min() ?? 0) }).enumerated() {
            let lead = group.members.min() ?? 0
            let digits = String(number + 1)
            let file = (digits.count < 2 ? "0" + digits : digits) + "-" + slug(targets[lead].name) + ".jsonl"
            for m in group.members { targets[m].file = file }
            logs.append(Log(file: file, text: group.text, targets: group.members.sorted().map { targets[$0].name }))
        }
        return (logs, targets)
    }

    /// `dragging --touchEnded, touchCancelled--> closed (line 59)`
    public static func describe(_ t: Transition, _ machine: Machine) -> String {
        let trigger: String
        switch t.trigger {
        case .events(let events): trigger = events.map { machine[$0].name }.joined(separator: ", ")
        case .after(let d): trigger = "after " + machine.text(d.range)
        case .done(let s): trigger = s == t.source ? "done" : "done(\(machine[s].name))"
        case .always: trigger = "always"
        }
        let line = machine.source.location(of: t.keywordRange.start).line
        let target = t.target.map { machine[$0].name } ?? "(targetless)"
        return "\(machine[t.source].name) --\(trigger)--> \(target) (line \(line))"
    }

    /// A new instance, started as replay starts a log: the initial state entered, then the
    /// timers due at once fired.
    static func start(_ program: Program, observe: (Step) -> Void, emit: (OutputID, [Value]) -> Void) -> Instance {
        var instance = Instance(program)
        observe(instance.start(emit: emit))
        instance.advance(to: 0, emit: emit, onStep: observe)
        return instance
    }

    /// Applies one witness step as replay applies its line. Before a line is applied the
    /// timers due by its time fire, so after an event the timers due at that same instant
    /// fire too.
    static func apply(_ step: WitnessStep, to instance: inout Instance, observe: (Step) -> Void,
                      emit: (OutputID, [Value]) -> Void) {
        switch step {
        case .event(let e, let payload, let time):
            instance.advance(to: time, emit: emit, onStep: observe)
            observe(instance.send(e, payload: payload, emit: emit))
            instance.advance(to: time, emit: emit, onStep: observe)
        case .wait(let until):
            instance.advance(to: until, emit: emit, onStep: observe)
        }
    }

    /// Runs a witness as replay runs its log, calling `observe` for every step, and `after`
    /// once for the start and once after each witness step, with the instance and the
    /// outputs since the previous call (as ``outputText(_:_:_:)`` writes them).
    static func follow(_ steps: [WitnessStep], _ program: Program, observe: (Step) -> Void = { _ in },
                       after: (Instance, [String], Double?) -> Void = { _, _, _ in }) {
        let machine = program.machine
        var outputs: [String] = []
        var instance = start(program, observe: observe, emit: { o, args in outputs.append(outputText(o, args, machine)) })
        after(instance, outputs, nil)
        outputs.removeAll()
        for step in steps {
            apply(step, to: &instance, observe: observe, emit: { o, args in outputs.append(outputText(o, args, machine)) })
            if case .wait(let until) = step { after(instance, outputs, until) } else { after(instance, outputs, nil) }
            outputs.removeAll()
        }
    }

    /// The log of a witness: an expectation of the start, then each step followed by an
    /// expectation of the state, every variable and the outputs since the last one.
    static func logText(_ steps: [WitnessStep], _ program: Program) -> String {
        let machine = program.machine
        var expectations: [String] = []
        follow(steps, program, after: { instance, outputs, time in
            expectations.append(expectation(instance, machine, outputs, time: time))
        })
        var lines = [expectations[0]]
        for (k, step) in steps.enumerated() {
            if let line = eventLine(step, machine) { lines.append(line) }
            lines.append(expectations[k + 1])
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The line of an event step: `{"time": 0, "event": "scroll", "offsetY": -110}`; nil for
    /// waiting, which a log says with the time of the expectation after it.
    static func eventLine(_ step: WitnessStep, _ machine: Machine) -> String? {
        guard case .event(let e, let payload, let time) = step else { return nil }
        var line = "{\"time\": \(JSONWriter.number(time)), \"event\": \(JSONWriter.quote(machine[e].name))"
        for (field, value) in zip(machine[e].fields, payload) {
            line += ", \(JSONWriter.quote(field.name)): \(value.json)"
        }
        return line + "}"
    }

    /// An output as an expectation lists it: `"didRefresh"` for one without fields, and
    /// `{"name": "didTap", "args": [0]}` for one with, so that replay compares the arguments.
    static func outputText(_ o: OutputID, _ args: [Value], _ machine: Machine) -> String {
        let name = JSONWriter.quote(machine[o].name)
        guard !machine[o].fields.isEmpty else { return name }
        return "{\"name\": \(name), \"args\": [" + args.map(\.json).joined(separator: ", ") + "]}"
    }

    /// The expectation line after a step (`time` after waiting): the active leaf (or leaves),
    /// every variable, the outputs since the previous expectation (each as JSON already).
    static func expectation(_ instance: Instance, _ machine: Machine, _ outputs: [String], time: Double?) -> String {
        let vars = zip(machine.variables, instance.variables)
            .map { "\(JSONWriter.quote($0.name)): \($1.json)" }.joined(separator: ", ")
        let names = outputs.joined(separator: ", ")
        let prefix = time.map { "{\"time\": \(JSONWriter.number($0)), " } ?? "{"
        // Every active leaf, when there are several (parallel regions).
        let leaves = instance.configuration.atomicStates(in: machine)
        let state = leaves.count > 1
            ? "[" + leaves.map { JSONWriter.quote(machine[$0].name) }.joined(separator: ", ") + "]"
            : JSONWriter.quote(machine[instance.state].name)
        return prefix + "\"expect\": {\"state\": \(state), "
            + "\"vars\": {\(vars)}, \"outputs\": [\(names)]}}"
    }

    /// The longest slug; with the number and `.jsonl` a file name stays under 70 bytes.
    static let slugLimit = 60

    /// A file-name-safe form of a target name: ASCII letters and digits, every other run of
    /// characters one `-`. A name longer than ``slugLimit`` loses its middle, marked by `--`
    /// (which a slug never holds otherwise): the end of a name says which line the target is
    /// on (`…-line-88`), so cutting the end would name a different line.
    static func slug(_ name: String) -> String {
        var out = ""
        for c in name.unicodeScalars {
            if (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") {
                out.unicodeScalars.append(c)
            } else if !out.hasSuffix("-") {
                out += "-"
            }
        }
        // Only ASCII is left, so characters are bytes.
        var slug = Array(out.trimmingSuffix("-").utf8)
        guard slug.count > slugLimit else { return String(decoding: slug, as: UTF8.self) }
        // The tail keeps the target state and the line; the head the kind and the source.
        let tailCount = slugLimit / 2
        // A slug never holds two `-` in a row, so neither part is empty once trimmed.
        let tail = slug[(slug.count - tailCount)...].drop { $0 == UInt8(ascii: "-") }
        let head = slug[..<(slugLimit - 2 - tailCount)].reversed().drop { $0 == UInt8(ascii: "-") }.reversed()
        slug = head + Array("--".utf8) + Array(tail)
        return String(decoding: slug, as: UTF8.self)
    }
}

/// The witnesses of a search as one tree of steps: node 0 is the start, and each node is a
/// witness step after its parent's. Running it computes, once per node, whether a step on
/// the way there fails, and the lines a log has for the node's step.
struct WitnessTree {
    private(set) var parents: [Int] = [-1]
    private(set) var steps: [WitnessStep?] = [nil]
    private(set) var depths: [Int] = [0]
    private var children: [[Int]] = [[]]
    /// The child of a node by its step, to find the shared beginnings.
    private var childByStep: [Edge: Int] = [:]
    /// The first fault on the way to each node (nil: every step succeeds).
    private(set) var faults: [ExpressionFault?] = [nil]
    /// Each node's lines of a log: the event line of its step (none for waiting) and the
    /// expectation after it; the start's expectation for node 0.
    private(set) var lines: [String] = [""]

    private struct Edge: Hashable {
        var parent: Int
        var step: WitnessStep
    }

    var count: Int { parents.count }

    /// The node at the end of `witness`, added with the nodes on the way that are new.
    mutating func insert(_ witness: [WitnessStep]) -> Int {
        var node = 0
        for step in witness {
            let edge = Edge(parent: node, step: step)
            if let child = childByStep[edge] {
                node = child
                continue
            }
            let child = parents.count
            parents.append(node)
            steps.append(step)
            depths.append(depths[node] + 1)
            children.append([])
            children[node].append(child)
            childByStep[edge] = child
            node = child
        }
        return node
    }

    /// Runs the machine from the start down every edge once (depth first, a copy of the
    /// instance per branch), filling `faults` and `lines`.
    mutating func run(_ program: Program, _ machine: Machine) {
        faults = Array(repeating: nil, count: count)
        lines = Array(repeating: "", count: count)
        var failure: ExpressionFault?
        var outputs: [String] = []
        let observe: (Step) -> Void = { step in
            if failure == nil, case .failed(let fault) = step.result { failure = fault }
        }
        let emit: (OutputID, [Value]) -> Void = { o, args in outputs.append(TestGeneration.outputText(o, args, machine)) }
        let first = TestGeneration.start(program, observe: observe, emit: emit)
        faults[0] = failure
        lines[0] = TestGeneration.expectation(first, machine, outputs, time: nil)
        var pending = [(0, first)]
        while let (node, instance) = pending.popLast() {
            for child in children[node] {
                guard let step = steps[child] else { continue }
                var next = instance
                failure = nil
                outputs.removeAll(keepingCapacity: true)
                TestGeneration.apply(step, to: &next, observe: observe, emit: emit)
                faults[child] = faults[node] ?? failure
                var time: Double?
                if case .wait(let until) = step { time = until }
                let expectation = TestGeneration.expectation(next, machine, outputs, time: time)
                lines[child] = TestGeneration.eventLine(step, machine).map { $0 + "\n" + expectation } ?? expectation
                pending.append((child, next))
            }
        }
    }

    /// The text of the log that ends at `node`: the lines of every node from the start.
    func text(to node: Int) -> String {
        var path: [Int] = []
        var v = node
        while v >= 0 {
            path.append(v)
            v = parents[v]
        }
        return path.reversed().map { lines[$0] }.joined(separator: "\n") + "\n"
    }
}

extension String {
    fileprivate func trimmingSuffix(_ c: Character) -> String {
        var s = self
        while s.last == c { s.removeLast() }
        return s
    }
}
