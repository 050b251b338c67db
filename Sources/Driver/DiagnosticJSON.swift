import Statecraft

/// The `--format json` rendering of check results; keys in a fixed order.
enum DiagnosticJSON {
    /// One file's reachability: every state and transition with its witness or reason.
    static func exploration(_ file: SourceFile, _ machine: Machine, _ report: ExplorationReport) -> String {
        let q = JSONWriter.quote
        func finding(_ f: ExplorationReport.Finding) -> String {
            switch f {
            case .reached(let steps): return "\"status\": \"reached\", \"witness\": " + witness(steps, machine)
            case .unreachable(let reason): return "\"status\": \"unreachable\", \"reason\": \(q(reason))"
            case .notReached: return "\"status\": \"not-reached\", \"reason\": \(q(ExplorationReport.notReachedReason(report)))"
            }
        }
        var out = "\n    {\"file\": \(q(file.path)), \"configurations\": \(report.configurations), "
        out += "\"maxDepth\": \(report.bounds.maxDepth), \"maxConfigurations\": \(report.bounds.maxConfigurations),\n     \"states\": ["
        out += machine.states.dropFirst().map { s in
            let at = file.location(of: s.range.start)
            return "\n      {\"name\": \(q(s.name)), \"line\": \(at.line), \"column\": \(at.column), " + finding(report.states[s.id.index]) + "}"
        }.joined(separator: ",")
        out += "],\n     \"transitions\": ["
        out += machine.transitions.map { t in
            let at = file.location(of: t.keywordRange.start)
            return "\n      {\"transition\": \(q(TestGeneration.describe(t, machine))), \"line\": \(at.line), \"column\": \(at.column), "
                + finding(report.transitions[t.id.index]) + "}"
        }.joined(separator: ",")
        out += "],\n     \"overlaps\": ["
        out += report.overlaps.map { o in
            "\n      {\"first\": \(q(TestGeneration.describe(machine[o.first], machine))), "
                + "\"second\": \(q(TestGeneration.describe(machine[o.second], machine))), "
                + "\"witness\": " + witness(o.witness, machine) + "}"
        }.joined(separator: ",")
        out += "],\n     \"faults\": ["
        out += report.faults.map { f in
            let at = file.location(of: f.fault.range.start)
            return "\n      {\"message\": \(q(f.fault.message)), \"line\": \(at.line), \"column\": \(at.column), "
                + "\"witness\": " + witness(f.witness, machine) + "}"
        }.joined(separator: ",")
        let limits = report.limits
        out += "],\n     \"limits\": {\"depthBoundHit\": \(limits.depthBoundHit), "
            + "\"configurationBoundHit\": \(limits.configurationBoundHit), \"payloadsSampled\": \(limits.payloadsSampled), "
            + "\"timerOrderVaries\": \(limits.timerOrderVaries), "
            + "\"untriedNumbers\": [" + limits.untriedNumbers.map(JSONWriter.number).joined(separator: ", ") + "], "
            + "\"sampledGuards\": [" + limits.sampledGuards.map { "{\"line\": \($0.line), \"tried\": \($0.tried), \"of\": \($0.of)}" }
                .joined(separator: ", ") + "]}"
        return out + "}"
    }

    static func witness(_ steps: [WitnessStep], _ machine: Machine) -> String {
        "[" + steps.map { step in
            switch step {
            case .event(let e, let payload, let time):
                let fields = zip(machine[e].fields, payload).map { "\(JSONWriter.quote($0.name)): \($1.json)" }
                return "{\"event\": \(JSONWriter.quote(machine[e].name)), \"time\": \(JSONWriter.number(time)), \"payload\": {"
                    + fields.joined(separator: ", ") + "}}"
            case .wait(let until):
                return "{\"wait\": \(JSONWriter.number(until))}"
            }
        }.joined(separator: ", ") + "]"
    }

    /// One diagnostic as a JSON object.
    static func diagnostic(_ d: Diagnostic, in file: SourceFile) -> String {
        let q = JSONWriter.quote
        let start = file.location(of: d.range.start)
        let end = file.location(of: d.range.end)
        var out = "{\"file\": \(q(file.path)), \"id\": \(q(d.id.rawValue)), \"severity\": \(q(d.severity.rawValue)), "
        out += "\"message\": \(q(d.message)), "
        out += "\"line\": \(start.line), \"column\": \(start.column), \"endLine\": \(end.line), \"endColumn\": \(end.column), "
        out += "\"notes\": [" + d.notes.map { note in
            var n = "{\"file\": \(q(file.path)), "
            if let range = note.range {
                let at = file.location(of: range.start)
                n += "\"line\": \(at.line), \"column\": \(at.column), "
            }
            return n + "\"message\": \(q(note.message))}"
        }.joined(separator: ", ") + "]}"
        return out
    }

    /// `unreadable` lists the files that could not be read (`{"file", "message"}`); each
    /// counts as an error, so the document never says success when a file was missed.
    static func render(_ results: [CheckResult], errors: Int, warnings: Int,
                       unreadable: [(path: String, message: String)] = []) -> String {
        let q = JSONWriter.quote
        var out = "{\n  \"files\": [" + results.map { q($0.file.path) }.joined(separator: ", ") + "],\n"
        out += "  \"diagnostics\": ["
        var first = true
        for result in results {
            for d in result.diagnostics {
                out += first ? "\n" : ",\n"
                first = false
                out += "    " + diagnostic(d, in: result.file)
            }
        }
        out += first ? "],\n" : "\n  ],\n"
        out += "  \"unreadable\": [" + unreadable.map { "{\"file\": \(q($0.path)), \"message\": \(q($0.message))}" }
            .joined(separator: ", ") + "],\n"
        let explored = results.compactMap { r in r.machine.flatMap { m in r.exploration.map { (r.file, m, $0) } } }
        out += "  \"exploration\": [" + explored.map { exploration($0.0, $0.1, $0.2) }.joined(separator: ",") + (explored.isEmpty ? "],\n" : "\n  ],\n")
        out += "  \"errors\": \(errors + unreadable.count),\n  \"warnings\": \(warnings)\n}\n"
        return out
    }
}
