import StatecraftDiagnostics
import StatecraftModel
import StatecraftReplay
import StatecraftRuntime

/// `replay --explain`: why events were not taken, where expectations' subjects last
/// changed and what broke properties, as text blocks (notes with carets under the spec's
/// sub-expressions, as diagnostics print them) and as JSON objects.
public enum ReplayExplanations {
    // MARK: - Text

    /// The blocks of one case, one per explanation, then a line when some were not kept.
    public static func text(_ c: CaseReport, path: String, machine: Machine) -> String {
        guard let explanations = c.explanations else { return "" }
        let renderer = DiagnosticRenderer()
        var out = ""
        for explanation in explanations {
            switch explanation {
            case .event(let e): out += text(e, path: path, machine: machine, renderer: renderer)
            case .expectation(let e): out += text(e, path: path)
            case .property(let e): out += text(e, path: path, machine: machine, renderer: renderer)
            }
        }
        if c.explanationCount > explanations.count {
            out += "  (only the first \(explanations.count) of \(c.explanationCount) explanations are shown)\n"
        }
        return out
    }

    private static func text(_ e: EventExplanation, path: String, machine: Machine, renderer: DiagnosticRenderer) -> String {
        let configuration = e.configuration.isEmpty ? "no active state" : e.configuration.joined(separator: ", ")
        var out = "\(path):\(e.line):\(e.column): note: why event '\(e.event)' was \(e.outcome.rawValue): "
        if e.afterFinal {
            return out + "the run had already ended (in \(configuration))\n"
        }
        if e.candidates.isEmpty {
            return out + "no transition of the active states (\(configuration)) takes it\n"
        }
        let count = e.candidates.count == 1 ? "1 transition" : "\(e.candidates.count) transitions"
        out += "in \(configuration), \(count) could take it\n"
        for candidate in e.candidates {
            let at = machine.source.location(of: candidate.range.start)
            let what = "'\(candidate.text)' of state '\(candidate.source)'"
            let head = "\(machine.source.path):\(at.line):\(at.column): note: " + what
            switch candidate.verdict {
            case .unguarded:
                out += head + " was enabled (no guard); its step failed\n"
            case .holds:
                out += head + " was enabled (its guard holds); its step failed\n"
            case .fault(let fault):
                out += renderer.renderNote(what + ": its guard cannot be computed: \(fault.message)", at: fault.range,
                                           in: machine.source)
            case .isFalse(let culprits):
                out += head + ": its guard is false\n"
                for culprit in culprits {
                    var message = "'\(culprit.text)' is \(culprit.value)"
                    if !culprit.reads.isEmpty { message += ": " + culprit.reads.map(\.description).joined(separator: ", ") }
                    out += renderer.renderNote(message, at: culprit.range, in: machine.source)
                }
            }
        }
        return out
    }

    private static func text(_ e: ExpectationExplanation, path: String) -> String {
        let subject = e.subject == "state" ? "state '\(e.name)'" : "'\(e.name)'"
        var out = "\(path):\(e.line):\(e.column): note: why \(subject) is not as expected: "
        guard let change = e.lastChange else {
            let what = e.subject == "state" ? "no step entered or left it" : "no step changed it"
            return out + "\(what) since the case began (line \(e.caseStart))\n"
        }
        // A state expectation fails only when the state is not active: its last change left it.
        out += e.subject == "state" ? "it was last left" : "it last changed"
        return out + " at line \(change.line), by '\(change.event)' at t=\(Value.number(change.time))\n"
    }

    private static func text(_ e: PropertyExplanation, path: String, machine: Machine, renderer: DiagnosticRenderer) -> String {
        let out = "\(path):\(e.line): note: why property '\(e.property)' (spec line \(e.specLine)) was violated: "
        let configuration = e.configuration.isEmpty ? "no active state" : e.configuration.joined(separator: ", ")
        switch e.reason {
        case .deadline(let line, let trigger, let deadline):
            let step = line.map { "the step of line \($0)" } ?? "a step"
            return out + "\(step) triggered it at t=\(Value.number(trigger)); its deadline t=\(Value.number(deadline)) "
                + "passed at line \(e.line), t=\(Value.number(e.time))\n"
        case .precondition(_, let condition, let caseStart):
            return out + "'\(condition)' held in no configuration of this case from its first line (\(caseStart)) "
                + "up to line \(e.line)\n"
        case .state(let culprits):
            // As a false guard's culprits: each deciding sub-expression under a caret.
            var text = out + "the values it read in \(configuration)\n"
            for culprit in culprits {
                var message = "'\(culprit.text)' is \(culprit.value)"
                if !culprit.reads.isEmpty { message += ": " + culprit.reads.map(\.description).joined(separator: ", ") }
                text += renderer.renderNote(message, at: culprit.range, in: machine.source)
            }
            return text
        case .fault(let reads):
            return out + "it could not be evaluated in \(configuration)"
                + (reads.isEmpty ? "" : ", where it read " + reads.map(\.description).joined(separator: ", ")) + "\n"
        }
    }

    // MARK: - JSON

    /// One explanation as a JSON object; positions are 1-based lines and columns (of the log
    /// for `line`/`column`, of the spec inside `candidates`).
    public static func json(_ explanation: Explanation, machine: Machine) -> JSON {
        switch explanation {
        case .event(let e):
            return .object([
                "kind": .string(e.outcome.rawValue), "line": .integer(e.line), "column": .integer(e.column),
                "event": .string(e.event), "time": .number(e.time), "afterFinal": .bool(e.afterFinal),
                "configuration": .array(e.configuration.map { .string($0) }),
                "candidates": .array(e.candidates.map { candidate($0, machine: machine) }),
            ])
        case .expectation(let e):
            return .object([
                "kind": "expectation", "line": .integer(e.line), "column": .integer(e.column),
                "subject": .string(e.subject), "name": .string(e.name), "caseStart": .integer(e.caseStart),
                "lastChange": e.lastChange.map { .object(["line": .integer($0.line), "event": .string($0.event),
                                                          "time": .number($0.time)]) } ?? .null,
            ])
        case .property(let e):
            var o = JSONObject([
                ("kind", "property"), ("line", .integer(e.line)), ("property", .string(e.property)),
                ("specLine", .integer(e.specLine)), ("time", .number(e.time)),
                ("configuration", .array(e.configuration.map { .string($0) })),
            ])
            switch e.reason {
            case .deadline(let line, let trigger, let deadline):
                o["reason"] = "deadline"
                o["trigger"] = .object(["line": line.map { .integer($0) } ?? .null, "time": .number(trigger)])
                o["deadline"] = .number(deadline)
            case .precondition(let range, let text, let caseStart):
                o["reason"] = "precondition"
                var condition = JSONObject([("text", .string(text))])
                for (key, value) in position(range, machine: machine) { condition[key] = value }
                o["condition"] = .object(condition)
                o["caseStart"] = .integer(caseStart)
            case .state(let culprits):
                o["reason"] = "state"
                o["culprits"] = .array(culprits.map { culprit($0, machine: machine) })
            case .fault(let reads):
                o["reason"] = "fault"
                o["reads"] = .array(reads.map(read))
            }
            return .object(o)
        }
    }

    /// A sub-expression that decided a guard or a property: its text, value, range in the
    /// spec and the names it read.
    private static func culprit(_ culprit: Culprit, machine: Machine) -> JSON {
        var j = JSONObject([("text", .string(culprit.text)), ("value", .bool(culprit.value))])
        for (key, value) in position(culprit.range, machine: machine) { j[key] = value }
        j["reads"] = .array(culprit.reads.map(read))
        return .object(j)
    }

    private static func read(_ read: Culprit.Read) -> JSON {
        .object(["kind": .string(read.kind.rawValue), "name": .string(read.name), "value": read.value.jsonValue])
    }

    private static func candidate(_ c: EventExplanation.Candidate, machine: Machine) -> JSON {
        var o = JSONObject([("state", .string(c.source)), ("transition", .string(c.text))])
        for (key, value) in position(c.range, machine: machine) { o[key] = value }
        switch c.verdict {
        case .unguarded: o["guard"] = "none"
        case .holds: o["guard"] = "holds"
        case .fault(let fault):
            o["guard"] = "fault"
            var f = JSONObject([("message", .string(fault.message))])
            for (key, value) in position(fault.range, machine: machine) { f[key] = value }
            o["fault"] = .object(f)
        case .isFalse(let culprits):
            o["guard"] = "false"
            o["culprits"] = .array(culprits.map { culprit($0, machine: machine) })
        }
        return .object(o)
    }

    /// `line`, `column`, `endLine`, `endColumn` of a spec range (the end is exclusive).
    private static func position(_ range: SourceRange, machine: Machine) -> [(String, JSON)] {
        let start = machine.source.location(of: range.start), end = machine.source.location(of: range.end)
        return [("line", .integer(start.line)), ("column", .integer(start.column)),
                ("endLine", .integer(end.line)), ("endColumn", .integer(end.column))]
    }
}
