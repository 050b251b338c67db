import StatecraftDiagnostics
import StatecraftModel
import StatecraftReplay
import StatecraftRuntime

/// `replay --format junit`: JUnit XML, the test report CI services show (the form of the
/// Jenkins xunit plugin's `junit-10.xsd`, which the tests validate against).
///
/// A `<testsuite>` per log and a `<testcase>` per case (the lines without a case are one
/// more); each failed expectation and each rejected event is a `<failure>` whose `message`
/// is the diagnostic's and whose text gives the line and column, the expected and actual
/// values, or the failing spec expression. A log that cannot be read, or stops at a
/// malformed line, has a test case `reading the log` with an `<error>`. Counts follow the
/// JUnit convention: `tests` test cases, `failures` and `errors` test cases that have one.
/// A replay runs on virtual time, so no `time` is written.
public enum ReplayJUnit {
    /// The document for every log of a replay of `spec`.
    public static func document(spec: String, machine: Machine, logs: [ReplayedLog]) -> String {
        let suites = logs.map { suite($0, machine: machine) }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"\(XMLEscaping.attribute("statecraft replay " + spec))\""
        out += " tests=\"\(suites.reduce(0) { $0 + $1.tests })\" failures=\"\(suites.reduce(0) { $0 + $1.failures })\""
        out += " errors=\"\(suites.reduce(0) { $0 + $1.errors })\">\n"
        for s in suites { out += s.xml }
        return out + "</testsuites>\n"
    }

    /// The document of a replay whose spec cannot run: one suite for the spec, whose one
    /// test case has the error and the spec's diagnostics.
    public static func specFailure(spec: String, message: String, diagnostics: [ReportedDiagnostic]) -> String {
        let detail = ([message] + diagnostics.map { d in
            "\(d.path):\(d.span.line):\(d.span.column): \(d.severity.rawValue): \(d.message) [\(d.id.rawValue)]"
        }).joined(separator: "\n")
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"\(XMLEscaping.attribute("statecraft replay " + spec))\" tests=\"1\" failures=\"0\" errors=\"1\">\n"
            + "  <testsuite name=\"\(XMLEscaping.attribute(spec))\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n"
            + "    <testcase name=\"loading the spec\" classname=\"\(XMLEscaping.attribute(spec))\">\n"
            + "      <error type=\"spec\" message=\"\(XMLEscaping.attribute(message))\">\(XMLEscaping.text(detail))</error>\n"
            + "    </testcase>\n  </testsuite>\n</testsuites>\n"
    }

    private struct Suite {
        var tests = 0
        var failures = 0
        var errors = 0
        var xml = ""
    }

    private static func suite(_ log: ReplayedLog, machine: Machine) -> Suite {
        var suite = Suite()
        var cases = ""
        func error(_ type: String, _ message: String, _ detail: String) {
            suite.tests += 1
            suite.errors += 1
            cases += "    <testcase name=\"reading the log\" classname=\"\(XMLEscaping.attribute(log.path))\">\n"
            cases += "      <error type=\"\(type)\" message=\"\(XMLEscaping.attribute(message))\">"
            cases += XMLEscaping.text(detail) + "</error>\n    </testcase>\n"
        }
        switch log.outcome {
        case .unreadable(let message):
            error("unreadable", message, "\(log.path): \(message)")
        case .replayed(let report):
            for c in report.cases {
                suite.tests += 1
                let findings = c.findings
                let attributes = "name=\"\(XMLEscaping.attribute(c.title))\" classname=\"\(XMLEscaping.attribute(log.path))\""
                if findings.isEmpty && c.passed {
                    cases += "    <testcase \(attributes)/>\n"
                    continue
                }
                suite.failures += 1
                cases += "    <testcase \(attributes)>\n"
                for f in findings {
                    cases += "      <failure type=\"\(f.id.rawValue)\" message=\"\(XMLEscaping.attribute(f.message))\">"
                    cases += XMLEscaping.text(detail(f, log: log.path, machine: machine)) + "</failure>\n"
                }
                for v in c.propertyViolations {
                    let message = v.sentence
                    cases += "      <failure type=\"property\" message=\"\(XMLEscaping.attribute(message))\">"
                    cases += XMLEscaping.text("\(log.path):\(v.line): \(message)") + "</failure>\n"
                }
                if c.findingsTruncated {
                    let more = c.failureCount - c.failures.count + c.rejected - c.rejections.count
                    cases += "      <failure type=\"truncated\" message=\"\(more) more failures and rejections, not kept\"/>\n"
                }
                cases += "    </testcase>\n"
            }
            if let e = report.error {
                error(DiagnosticID.malformedLogLine.rawValue, e.message, "\(log.path):\(e.line):\(e.column): \(e.message)\n"
                      + "replay stopped at line \(e.line); the cases above cover the lines before it")
            }
        }
        suite.xml = "  <testsuite name=\"\(XMLEscaping.attribute(log.path))\" tests=\"\(suite.tests)\""
            + " failures=\"\(suite.failures)\" errors=\"\(suite.errors)\" skipped=\"0\""
            + (cases.isEmpty ? "/>\n" : ">\n" + cases + "  </testsuite>\n")
        return suite
    }

    /// The text of a failure: where it is, and what was expected and found, or which spec
    /// expression failed.
    private static func detail(_ f: ReplayFinding, log: String, machine: Machine) -> String {
        var text = "\(log):\(f.line):\(f.column): \(f.message)"
        if let expected = f.expected, let actual = f.actual {
            text += "\nexpected: \(expected)\nactual:   \(actual)"
        }
        if let spec = f.specRange {
            let at = machine.source.location(of: spec.start)
            text += "\nthe failing expression in the spec: \(machine.source.path):\(at.line):\(at.column)"
        }
        return text
    }
}
