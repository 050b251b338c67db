import StatecraftDiagnostics
import StatecraftModel
import StatecraftRuntime

/// Model-based test generation: turns witnesses into event logs, with an expectation line
/// after every step, that replay must pass.
public enum TestGeneration {
    /// Which items each generated log must reach.
    public enum Cover: String, Sendable, CaseIterable {
        /// Every transition the analysis reached (and with them the states they enter).
        case transitions
        /// Every state the analysis reached.
        case states
    }

    /// A state or transition to reach, and what the analysis said about it.
    public struct Target: Sendable {
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
    public struct Log: Sendable {
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
        var targets: [Target] = []
        switch cover {
        case .states:
            // A history state is never active; the transitions into it are what covers it.
            for s in machine.states.dropFirst() where !s.isHistory {
                targets.append(Target(name: "state \(s.name)", finding: report.states[s.id.index]))
            }
        case .transitions:
            for t in machine.transitions {
                targets.append(Target(name: "transition " + describe(t, machine), finding: report.transitions[t.id.index]))
            }
        }
        // Longest witnesses first, so shorter ones that are prefixes of them merge in.
        let reached = targets.indices.compactMap { i -> (Int, [WitnessStep])? in
            guard case .reached(let steps) = targets[i].finding else { return nil }
            if let fault = failingStep(steps, machine) {
                let line = machine.source.location(of: fault.range.start).line
                targets[i].problem = "reached only through a step that fails (\(fault.message) at line \(line)), "
                    + "which 'replay --strict' rejects"
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
        groups.sort { ($0.members.min() ?? 0) < ($1.members.min() ?? 0) }
        var logs: [Log] = []
        for (number, group) in groups.enumerated() {
            let lead = group.members.min() ?? 0
            let digits = String(number + 1)
            let file = (digits.count < 2 ? "0" + digits : digits) + "-" + slug(targets[lead].name) + ".jsonl"
            for m in group.members { targets[m].file = file }
            logs.append(Log(file: file, text: logText(group.steps, machine),
                            targets: group.members.sorted().map { targets[$0].name }))
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

    /// The first step of a witness that fails at run time (a timer fired while waiting, or
    /// one due at once after a step), if any: what `replay --strict` would reject.
    static func failingStep(_ steps: [WitnessStep], _ machine: Machine) -> ExpressionFault? {
        var failure: ExpressionFault?
        follow(steps, machine, observe: { step in
            if failure == nil, case .failed(let fault) = step.kind { failure = fault }
        })
        return failure
    }

    /// Runs a witness as replay runs its log, calling `observe` for every step, and `after`
    /// once for the start and once after each witness step, with the instance and the
    /// outputs since the previous call. Before a line is applied the timers due by its time
    /// fire, so after each step (and the start) the timers due at that same instant fire too.
    static func follow(_ steps: [WitnessStep], _ machine: Machine, observe: (Step) -> Void = { _ in },
                       after: (Instance, [String], Double?) -> Void = { _, _, _ in }) {
        var instance = Instance(Program(machine))
        var outputs: [String] = []
        observe(instance.start { o, _ in outputs.append(machine[o].name) })
        instance.advance(to: 0, emit: { o, _ in outputs.append(machine[o].name) }, onStep: observe)
        after(instance, outputs, nil)
        outputs.removeAll()
        for step in steps {
            switch step {
            case .event(let e, let payload, let time):
                instance.advance(to: time, emit: { o, _ in outputs.append(machine[o].name) }, onStep: observe)
                observe(instance.send(e, payload: payload) { o, _ in outputs.append(machine[o].name) })
                instance.advance(to: time, emit: { o, _ in outputs.append(machine[o].name) }, onStep: observe)
                after(instance, outputs, nil)
            case .wait(let until):
                instance.advance(to: until, emit: { o, _ in outputs.append(machine[o].name) }, onStep: observe)
                after(instance, outputs, until)
            }
            outputs.removeAll()
        }
    }

    /// The log of a witness: an expectation of the start, then each step followed by an
    /// expectation of the state, every variable and the outputs since the last one.
    static func logText(_ steps: [WitnessStep], _ machine: Machine) -> String {
        var expectations: [String] = []
        follow(steps, machine, after: { instance, outputs, time in
            var outputs = outputs
            expectations.append(expectation(instance, machine, &outputs, time: time))
        })
        var lines = [expectations[0]]
        for (k, step) in steps.enumerated() {
            if case .event(let e, let payload, let time) = step {
                var line = "{\"time\": \(JSONWriter.number(time)), \"event\": \(JSONWriter.quote(machine[e].name))"
                for (field, value) in zip(machine[e].fields, payload) {
                    line += ", \(JSONWriter.quote(field.name)): \(value.json)"
                }
                lines.append(line + "}")
            }
            lines.append(expectations[k + 1])
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func expectation(_ instance: Instance, _ machine: Machine, _ outputs: inout [String],
                                    time: Double?) -> String {
        let vars = zip(machine.variables, instance.variables)
            .map { "\(JSONWriter.quote($0.name)): \($1.json)" }.joined(separator: ", ")
        let names = outputs.map(JSONWriter.quote).joined(separator: ", ")
        outputs.removeAll()
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

extension String {
    fileprivate func trimmingSuffix(_ c: Character) -> String {
        var s = self
        while s.last == c { s.removeLast() }
        return s
    }
}
