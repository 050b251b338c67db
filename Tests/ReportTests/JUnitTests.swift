import Foundation
import Statecraft
import Testing
import TestSupport

/// `replay --format junit`: valid by the Jenkins xUnit plugin's published JUnit schema
/// (xmllint), and read back by junitparser with the counts, names and failures we wrote.
@Suite struct JUnitTests {
    struct Read: Decodable {
        struct Suite: Decodable {
            var name: String
            var tests: Int
            var failures: Int
            var errors: Int
            var skipped: Int
            var cases: [Case]
        }
        struct Case: Decodable {
            var name: String
            var classname: String?
            var results: [Result]
        }
        struct Result: Decodable {
            var kind: String
            var type: String?
            var message: String?
            var text: String?
        }
        var suites: [Suite]
    }

    /// Validates `xml` against the vendored schema: xmllint's verdict and complaints (the test
    /// is skipped from here when xmllint is missing and not required).
    static func validate(_ xml: String, in dir: URL) throws -> (valid: Bool, output: String) {
        let xmllint = try ExternalTool.require(ExternalTool.find("xmllint"), "xmllint is not installed",
                                               unlessRequiredBy: "STATECRAFT_REQUIRE_XMLLINT")
        let file = dir.appendingPathComponent("report-\(UUID().uuidString).xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        let run = try xmllint.run(["--noout", "--schema", ReportTesting.schemas.appendingPathComponent("junit-10.xsd").path,
                                   file.path])
        return (run.status == 0, run.stderr)
    }

    static func read(_ xml: String, in dir: URL) throws -> Read {
        let python = try ReportTesting.python(importing: ["junitparser"], required: "STATECRAFT_REQUIRE_JUNITPARSER")
        let file = dir.appendingPathComponent("read-\(UUID().uuidString).xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        return try ReportTesting.run(python, "read_junit.py", [file.path], as: Read.self)
    }

    /// Every bundled session log: a suite per log, a passing test case per case.
    @Test func sessionLogsAreSuitesOfPassingCases() throws {
        let dir = try ReportTesting.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        for spec in Repository.specFiles().map(\.lastPathComponent) {
            let name = String(spec.dropLast(".machine".count))
            let r = try CLI.run(["replay", "--format", "junit", "Specs/\(spec)", "Specs/\(name).session.jsonl"])
            #expect(r.status == 0, "\(r.stderr)")
            let verdict = try JUnitTests.validate(r.stdout, in: dir)
            #expect(verdict.valid, "\(spec): \(verdict.output)")
            let read = try JUnitTests.read(r.stdout, in: dir)
            let json = try CLI.run(["replay", "--format", "json", "Specs/\(spec)", "Specs/\(name).session.jsonl"])
            let cases = try #require(((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["logs"]
                as? [[String: Any]])?.first?["cases"] as? [[String: Any]])
            #expect(read.suites.map(\.name) == ["Specs/\(name).session.jsonl"])
            #expect(read.suites.first?.tests == cases.count && read.suites.first?.cases.count == cases.count)
            #expect(read.suites.first.map { $0.failures == 0 && $0.errors == 0 && $0.skipped == 0 } == true)
        }
    }

    /// Failed expectations and rejected events are failures with the diagnostic's message
    /// and the line, expected and actual in their text; a malformed line and a log that
    /// cannot be read are errors; the counts agree with the elements.
    @Test func failuresAndErrorsReadBack() throws {
        let dir = try ReportTesting.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let failing = dir.appendingPathComponent("failing.jsonl")
        try """
            {"event": "touchBegan", "y": 300, "onContent": true, "time": 0}
            {"expect": "open"}
            {"case": "<b & \\"c\\">", "expect": {"vars": {"originY": 5}}}
            {"case": "<b & \\"c\\">", "expect": {"vars": {"originY": 0}}}

            """.write(to: failing, atomically: true, encoding: .utf8)
        let malformed = dir.appendingPathComponent("malformed.jsonl")
        try "{\"event\": \"touchBegan\", \"y\": 1, \"onContent\": true, \"time\": 0}\n{\"event\": \"nope\", \"time\": 1}\n"
            .write(to: malformed, atomically: true, encoding: .utf8)
        let r = try CLI.run(["replay", "--format", "junit", "Specs/Drawer.machine", failing.path, malformed.path, "missing.jsonl"])
        #expect(r.status == 2)
        #expect(r.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"statecraft replay Specs/Drawer.machine\" tests=\"5\" failures=\"2\" errors=\"2\">"))
        let verdict = try JUnitTests.validate(r.stdout, in: dir)
        #expect(verdict.valid, "\(verdict.output)")
        let read = try JUnitTests.read(r.stdout, in: dir)
        #expect(read.suites.map(\.name) == [failing.path, malformed.path, "missing.jsonl"])
        #expect(read.suites.map(\.tests) == [2, 2, 1])
        #expect(read.suites.map(\.failures) == [2, 0, 0])
        #expect(read.suites.map(\.errors) == [0, 1, 1])
        let first = try #require(read.suites.first?.cases)
        #expect(first.map(\.name) == ["lines without a case", "case \"<b & \\\"c\\\">\""])
        let failure = try #require(first.first?.results.first)
        #expect(failure.kind == "failure" && failure.type == "expectation-failed")
        #expect(failure.message == "expected state 'open', found 'dragging'")
        #expect(failure.text == "\(failing.path):2:12: expected state 'open', found 'dragging'\nexpected: open\nactual:   dragging")
        #expect(first.last?.results.map(\.message) == ["expected originY = 5, found 0"])
        let stopped = try #require(read.suites[1].cases.last?.results.first)
        #expect(stopped.kind == "error" && stopped.type == "malformed-log-line")
        #expect(stopped.text?.hasPrefix("\(malformed.path):2:") == true)
        #expect(read.suites[2].cases.first?.results.first?.type == "unreadable")
    }

    /// A rejected event is a failure that names the failing spec expression.
    @Test func rejectionsNameTheSpecExpression() throws {
        let dir = try ReportTesting.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = dir.appendingPathComponent("Ratio.machine")
        try """
            machine Ratio {
                event resize(width: Number, height: Number)
                var ratio: Number = 1
                initial state shown {
                    on resize { ratio = width / height }
                }
            }

            """.write(to: spec, atomically: true, encoding: .utf8)
        let log = dir.appendingPathComponent("ratio.jsonl")
        try "{\"event\": \"resize\", \"width\": 3, \"height\": 0, \"time\": 0}\n".write(to: log, atomically: true, encoding: .utf8)
        let r = try CLI.run(["replay", "--format", "junit", spec.path, log.path])
        #expect(r.status == 1)
        let verdict = try JUnitTests.validate(r.stdout, in: dir)
        #expect(verdict.valid, "\(verdict.output)")
        let read = try JUnitTests.read(r.stdout, in: dir)
        let rejection = try #require(read.suites.first?.cases.first?.results.first)
        #expect(rejection.type == "event-rejected")
        #expect(rejection.text?.contains("the failing expression in the spec: \(spec.path):5:") == true)
    }

    /// A spec that cannot run still gives one valid document, with the reason as an error.
    @Test func aSpecWithErrorsIsAnError() throws {
        let dir = try ReportTesting.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["replay", "--format", "junit", "Tests/CheckerTests/Fixtures/done-when.machine", "Specs/Drawer.session.jsonl"])
        #expect(r.status == 2)
        let verdict = try JUnitTests.validate(r.stdout, in: dir)
        #expect(verdict.valid, "\(verdict.output)")
        let read = try JUnitTests.read(r.stdout, in: dir)
        #expect(read.suites.map(\.errors) == [1])
        let error = try #require(read.suites.first?.cases.first?.results.first)
        #expect(error.kind == "error")
        #expect(error.text?.contains("done-when.machine:9:30: error: unknown name 'amount' [unknown-name]") == true)
    }

    /// The schema check is not a formality: a document it must refuse, it refuses.
    @Test func theSchemaRefusesABrokenReport() throws {
        let dir = try ReportTesting.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let broken = "<?xml version=\"1.0\"?>\n<testsuites><testsuite name=\"x\" tests=\"1\"><testcase/></testsuite></testsuites>\n"
        let verdict = try JUnitTests.validate(broken, in: dir)
        #expect(!verdict.valid)
    }

    @Test func traceIsRefusedWithJUnit() throws {
        let r = try CLI.run(["replay", "--format", "junit", "--trace", "Specs/Drawer.machine", "Specs/Drawer.session.jsonl"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("Error: --trace cannot be used with --format junit\n\nUSAGE: statecraft replay"))
    }
}
