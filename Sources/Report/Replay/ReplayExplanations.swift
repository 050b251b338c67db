import StatecraftDiagnostics
import StatecraftModel
import StatecraftReplay
import StatecraftRuntime

/// `replay --explain`: why events were not taken and where expectations' subjects last
/// changed, as text blocks (notes with carets under the spec's sub-expressions, as
/// diagnostics print them) and as JSON objects.
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
        }
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
            o["culprits"] = .array(culprits.map { culprit in
                var j = JSONObject([("text", .string(culprit.text)), ("value", .bool(culprit.value))])
                for (key, value) in position(culprit.range, machine: machine) { j[key] = value }
                j["reads"] = .array(culprit.reads.map { read in
                    .object(["kind": .string(read.kind.rawValue), "name": .string(read.name), "value": read.value.jsonValue])
                })
                return .object(j)
            })
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
