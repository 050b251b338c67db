@_spi(Bytes) import StatecraftDiagnostics
import StatecraftEventLog
import StatecraftModel
import StatecraftReplay
import StatecraftRuntime

/// `replay --format json` and `jsonl`: the report the ReportFormats article describes. Each
/// log is one line (`jsonl` streams them as `{"report": …}` lines); the document holds them all.
public enum ReplayJSON {
    /// The whole report of a replay: the spec, the machine, whether everything passed, and
    /// each log. The trace, when there is one, is written after it by the caller (see
    /// `renderedDocument`).
    public static func document(spec: String, machine: Machine, logs: [ReplayedLog]) -> JSON {
        [
            "spec": .string(spec), "machine": .string(machine.name),
            "passed": .bool(logs.allSatisfy(\.passed)),
            "logs": .array(logs.map { log($0, machine: machine) }),
        ]
    }

    /// Appends the document to `out` as text, one log to a line. `trace`, with `--trace`,
    /// appends the steps, already written as JSON objects separated by `,\n    `; they go
    /// under `"trace"` as bytes, because a trace may hold millions of steps (the Driver's
    /// `TraceNames` writes them).
    package static func write(spec: String, machine: Machine, logs: [ReplayedLog], to out: inout ByteBuffer,
                             trace: ((inout ByteBuffer) -> Void)? = nil) {
        var text = document(spec: spec, machine: machine, logs: logs).rendered(.outline(levels: 2))
        if let trace {
            // The document ends with "\n}": reopen it for one more member.
            text.removeLast(2)
            out.append(contentsOf: text)
            out.append(",\n  \"trace\": [\n    ")
            trace(&out)
            out.append("\n  ]\n}\n")
        } else {
            out.append(contentsOf: text + "\n")
        }
    }

    /// One log: `{"log", "passed", "cases", "error"}`.
    /// `withExplanations: false` leaves the cases' `explanations` out (`jsonl` writes each
    /// on its own line before the report; see `jsonlExplanations`).
    public static func log(_ log: ReplayedLog, machine: Machine, withExplanations: Bool = true) -> JSON {
        switch log.outcome {
        case .unreadable(let message):
            return ["log": .string(log.path), "passed": false, "cases": [],
                    "error": ["line": nil, "column": nil, "message": .string(message)]]
        case .replayed(let report):
            var object = JSONObject([
                ("log", .string(log.path)), ("passed", .bool(report.passed)),
                ("cases", .array(report.cases.map { caseReport($0, machine: machine, withExplanations: withExplanations) })),
                ("error", report.error.map { ["line": .integer($0.line), "column": .integer($0.column),
                                              "message": .string($0.message)] } ?? .null),
            ])
            // Only a log with warnings has the member, so the reports of other logs stay as they were.
            if !report.warnings.isEmpty { object["warnings"] = .array(report.warnings.map(warning)) }
            return .object(object)
        }
    }

    /// `{"id", "line", "column", "message"}`: a warning about the log (a header that does
    /// not match the spec, a cut last line).
    static func warning(_ w: LogWarning) -> JSON {
        ["id": .string(w.id.rawValue), "line": .integer(w.line), "column": .integer(w.column), "message": .string(w.message)]
    }

    /// `{"report": log}`, the line `jsonl` ends each log with.
    public static func jsonlLine(_ log: ReplayedLog, machine: Machine) -> String {
        JSON.object(["report": self.log(log, machine: machine, withExplanations: false)]).rendered(.outline(levels: 0)) + "\n"
    }

    /// With `--explain`, the lines `jsonl` writes before a log's report: one
    /// `{"log", "case", "explanation"}` object per explanation, case by case, in line order.
    public static func jsonlExplanations(_ log: ReplayedLog, machine: Machine) -> String {
        guard case .replayed(let report) = log.outcome else { return "" }
        var out = ""
        for c in report.cases {
            for explanation in c.explanations ?? [] {
                out += JSON.object(["log": .string(log.path), "case": c.key.map { .string($0) } ?? .null,
                                    "explanation": ReplayExplanations.json(explanation, machine: machine)])
                    .rendered(.outline(levels: 0)) + "\n"
            }
        }
        return out
    }

    /// The document of a replay whose spec cannot run: it cannot be read (no diagnostics)
    /// or it has errors (the diagnostics as `check --format json` writes them).
    public static func specFailure(spec: String, message: String, diagnostics: [ReportedDiagnostic]) -> JSON {
        ["spec": .string(spec), "machine": nil, "passed": false, "error": ["message": .string(message)],
         "diagnostics": .array(diagnostics.map(CheckJSON.diagnostic)), "logs": []]
    }

    static func caseReport(_ c: CaseReport, machine: Machine, withExplanations: Bool = true) -> JSON {
        var o = JSONObject([
            ("case", c.key.map { .string($0) } ?? .null), ("firstLine", .integer(c.firstLine)),
            ("state", c.startFailure == nil ? .string(c.state) : .null),
            ("configuration", .array(c.configuration.map { .string($0) })),
        ])
        if let settled = c.settled { o["settled"] = .string(settled.rawValue) }
        // Only with `--unknown-events ignore`, where some line sent one.
        if !c.unknownEvents.isEmpty {
            o["unknownEvents"] = ReplaySummaryJSON.byName(c.unknownEvents)
        }
        let members: [(String, JSON)] = [
            ("finished", .bool(c.finished)), ("started", .bool(c.startFailure == nil)), ("time", .number(c.time)),
            ("variables", .object(JSONObject(c.variables.map { ($0.name, $0.value.jsonValue) }))),
            ("outputs", .array(c.outputs.map { ["name": .string($0.name), "args": .array($0.arguments.map(\.jsonValue))] })),
            ("outputCount", .integer(c.outputCount)), ("applied", .integer(c.applied)), ("ignored", .integer(c.ignored)),
            ("rejected", .integer(c.rejected)), ("timersFired", .integer(c.timersFired)),
            ("sentTaken", .integer(c.sentTaken)), ("expectations", .integer(c.expectations)),
            ("failureCount", .integer(c.failureCount)),
            ("failures", .array(c.failures.map { f in
                ["line": .integer(f.line), "column": .integer(f.column), "subject": .string(f.subject),
                 "expected": .string(f.expected), "actual": .string(f.actual)]
            })),
            ("rejections", .array(c.rejections.map { r in
                var j = JSONObject([("line", .integer(r.line)), ("column", .integer(r.column)),
                                    ("message", .string(r.message))])
                if let spec = r.specRange {
                    let at = machine.source.location(of: spec.start)
                    j["specLine"] = .integer(at.line)
                    j["specColumn"] = .integer(at.column)
                }
                return .object(j)
            })),
        ]
        for (key, value) in members { o[key] = value }
        // Only where the case broke a property: a passing case's report stays as it was, and
        // as the generated type's harness writes it.
        if !c.propertyViolations.isEmpty {
            o["propertyViolations"] = .array(c.propertyViolations.map { v in
                .object(JSONObject([("property", .string(v.property)),
                                    ("specLine", .integer(v.specLine)),
                                    ("line", .integer(v.line)), ("time", .number(v.time)),
                                    ("message", .string(v.message))]))
            })
        }
        // Only with `--explain`: without it the report is what it always was.
        if let explanations = c.explanations {
            o["explanationCount"] = .integer(c.explanationCount)
            if withExplanations { o["explanations"] = .array(explanations.map { ReplayExplanations.json($0, machine: machine) }) }
        }
        return .object(o)
    }
}
