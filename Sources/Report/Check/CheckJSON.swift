import StatecraftAnalysis
import StatecraftDiagnostics
import StatecraftEventLog
import StatecraftModel

/// `check --format json`: one document with every file, diagnostic, unreadable file and
/// exploration, keys in a fixed order (the ReportFormats article of the documentation).
public enum CheckJSON {
    /// The whole report. `errors` counts the unreadable files too, so the document never
    /// says success when a file was missed.
    public static func document(_ report: CheckReport) -> JSON {
        let explored = report.files.compactMap { r in r.machine.flatMap { m in r.exploration.map { (r.file, m, $0) } } }
        return [
            "files": .array(report.files.map { .string($0.file.path) }),
            "diagnostics": .array(report.diagnostics.map(diagnostic)),
            "unreadable": .array(report.unreadable.map { ["file": .string($0.path), "message": .string($0.message)] }),
            "exploration": .array(explored.map { exploration($0.0, $0.1, $0.2) }),
            "errors": .integer(report.errorCount + report.unreadable.count),
            "warnings": .integer(report.warningCount),
        ]
    }

    /// The document as `check` prints it: each diagnostic and each file's exploration on a
    /// line of its own.
    public static func rendered(_ report: CheckReport) -> String {
        document(report).rendered(.outline(levels: 2)) + "\n"
    }

    /// One diagnostic: `file`, `id`, `severity`, `message`, `line`/`column`, `endLine`/
    /// `endColumn` and `notes` (each with `file`, `message` and, when it points somewhere,
    /// `line` and `column`).
    public static func diagnostic(_ d: ReportedDiagnostic) -> JSON {
        [
            "file": .string(d.path), "id": .string(d.id.rawValue), "severity": .string(d.severity.rawValue),
            "message": .string(d.message),
            "line": .integer(d.span.line), "column": .integer(d.span.column),
            "endLine": .integer(d.span.endLine), "endColumn": .integer(d.span.endColumn),
            "notes": .array(d.notes.map { note in
                var o = JSONObject([("file", .string(d.path))])
                if let span = note.span {
                    o["line"] = .integer(span.line)
                    o["column"] = .integer(span.column)
                }
                o["message"] = .string(note.message)
                return .object(o)
            }),
        ]
    }

    /// One file's reachability: every state and transition with its witness or reason, the
    /// overlaps and faults the search saw, and what limited it.
    public static func exploration(_ file: SourceFile, _ machine: Machine, _ report: ExplorationReport) -> JSON {
        func finding(_ f: ExplorationReport.Finding, _ head: [(String, JSON)]) -> JSON {
            var o = JSONObject(head)
            switch f {
            case .reached(let steps):
                o["status"] = "reached"
                o["witness"] = witness(steps, machine)
            case .unreachable(let reason):
                o["status"] = "unreachable"
                o["reason"] = .string(reason)
            case .notReached:
                o["status"] = "not-reached"
                o["reason"] = .string(ExplorationReport.notReachedReason(report))
            }
            return .object(o)
        }
        let limits = report.limits
        return [
            "file": .string(file.path), "configurations": .integer(report.configurations),
            "maxDepth": .integer(report.bounds.maxDepth), "maxConfigurations": .integer(report.bounds.maxConfigurations),
            "states": .array(machine.states.dropFirst().map { s in
                let at = file.location(of: s.range.start)
                return finding(report.states[s.id.index],
                               [("name", .string(s.name)), ("line", .integer(at.line)), ("column", .integer(at.column))])
            }),
            "transitions": .array(machine.transitions.map { t in
                let at = file.location(of: t.keywordRange.start)
                return finding(report.transitions[t.id.index],
                               [("transition", .string(TestGeneration.describe(t, machine))),
                                ("line", .integer(at.line)), ("column", .integer(at.column))])
            }),
            "overlaps": .array(report.overlaps.map { o in
                ["first": .string(TestGeneration.describe(machine[o.first], machine)),
                 "second": .string(TestGeneration.describe(machine[o.second], machine)),
                 "witness": witness(o.witness, machine)]
            }),
            "faults": .array(report.faults.map { f in
                let at = file.location(of: f.fault.range.start)
                return ["message": .string(f.fault.message), "line": .integer(at.line), "column": .integer(at.column),
                        "witness": witness(f.witness, machine)]
            }),
            "properties": .array(properties(file, machine, report)),
            "limits": [
                "depthBoundHit": .bool(limits.depthBoundHit), "configurationBoundHit": .bool(limits.configurationBoundHit),
                "payloadsSampled": .bool(limits.payloadsSampled), "timerOrderVaries": .bool(limits.timerOrderVaries),
                "untriedNumbers": .array(limits.untriedNumbers.map { .number($0) }),
                "sampledGuards": .array(limits.sampledGuards.map {
                    ["line": .integer($0.line), "tried": .integer($0.tried), "of": .integer($0.of)]
                }),
            ],
        ]
    }

    /// Each property's verdict: `name`, `line`, `verdict` (`proven`, `violated` or
    /// `not-decided`), `reason`, and for a violated one the `counterexample` log as its line
    /// objects with `counterexampleLine`, the 1-based line where replay sees it broken
    /// (both `null` otherwise).
    static func properties(_ file: SourceFile, _ machine: Machine, _ report: ExplorationReport) -> [JSON] {
        var logs = Counterexamples.logs(machine, report)[...]
        return zip(machine.properties, report.properties).map { property, verdict in
            var o = JSONObject([("name", .string(property.name)),
                                ("line", .integer(file.location(of: property.nameRange.start).line))])
            var counterexample: Counterexamples.Log?
            switch verdict {
            case .proven(let reason):
                o["verdict"] = "proven"
                o["reason"] = .string(reason)
            case .violated(let c):
                o["verdict"] = "violated"
                o["reason"] = .string(c.reason)
                counterexample = logs.popFirst()
            case .notDecided(let reason):
                o["verdict"] = "not-decided"
                o["reason"] = .string(reason)
            }
            o["counterexample"] = counterexample.map { log in
                .array(log.lines.map { line in (try? JSONValue.parse(Array(line.utf8))).map(json) ?? .string(line) })
            } ?? .null
            o["counterexampleLine"] = counterexample.map { .integer($0.violationLine) } ?? .null
            return .object(o)
        }
    }

    /// A value read back from a log line, to be written again.
    static func json(_ v: JSONValue) -> JSON {
        switch v {
        case .null: .null
        case .bool(let b): .bool(b)
        case .number(let n): .number(n)
        case .string(let s): .string(s)
        case .array(let a): .array(a.map(json))
        case .object(let members): .object(JSONObject(members.map { ($0.key, json($0.value)) }))
        }
    }

    /// A witness: `{"event", "time", "payload"}` and `{"wait": seconds}` steps.
    public static func witness(_ steps: [WitnessStep], _ machine: Machine) -> JSON {
        .array(steps.map { step in
            switch step {
            case .event(let e, let payload, let time):
                return ["event": .string(machine[e].name), "time": .number(time),
                        "payload": .object(JSONObject(zip(machine[e].fields, payload).map { ($0.name, $1.jsonValue) }))]
            case .wait(let until):
                return ["wait": .number(until)]
            }
        })
    }
}

extension Value {
    /// The value as JSON: a number, a boolean or a string.
    public var jsonValue: JSON {
        switch self {
        case .number(let n): .number(n)
        case .bool(let b): .bool(b)
        case .string(let s): .string(s)
        }
    }
}
