import Foundation
import Statecraft
import Testing
import TestSupport
@testable import StatecraftReport

/// `check --format sarif`: valid SARIF 2.1.0 by the official schema, read back by a real
/// consumer (sarif-tools), with rules, paths and fingerprints as code scanning needs them.
@Suite struct SARIFTests {
    static let root = Repository.root.path

    static func sarif(_ results: [CheckResult], unreadable: [UnreadableFile] = []) -> String {
        CheckSARIF.rendered(CheckReport(files: results, unreadable: unreadable), root: root, toolVersion: "0.1.0")
    }

    /// The level a consumer should read for a diagnostic: its severity, except a proof, which
    /// is a passed check (`kind: pass`) and raises nothing (`level: none`).
    static func level(of d: Diagnostic) -> String {
        d.id == .propertyProven ? "none" : d.severity.rawValue
    }

    struct Read: Decodable {
        struct Record: Decodable, Equatable {
            var code: String
            var severity: String
            var line: Int
            var location: String
        }
        var schemaErrors: [String]
        var records: [Record]
    }

    /// The SARIF of every fixture and bundled spec (each alone, and all together) passes
    /// the schema, and sarif-tools finds each diagnostic: its rule, level, line and file.
    @Test func everySpecsSARIFValidatesAndReadsBack() throws {
        let python = try ReportTesting.python(importing: ["jsonschema", "sarif"],
                                                    required: "STATECRAFT_REQUIRE_SARIF_TOOLS")
        let dir = try ReportTesting.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        var expected: [String: [Read.Record]] = [:]
        var all: [CheckResult] = []
        var allRecords: [Read.Record] = []
        for (i, path) in ReportTesting.specPaths.enumerated() {
            let result = ReportTesting.check(path)
            all.append(result)
            let file = dir.appendingPathComponent("\(i).sarif").path
            try SARIFTests.sarif([result]).write(toFile: file, atomically: true, encoding: .utf8)
            expected[file] = result.diagnostics.map { d in
                Read.Record(code: d.id.rawValue, severity: SARIFTests.level(of: d),
                            line: result.file.location(of: d.range.start).line, location: path)
            }
            allRecords += expected[file] ?? []
        }
        let allFile = dir.appendingPathComponent("all.sarif").path
        try SARIFTests.sarif(all, unreadable: [UnreadableFile(path: "gone.machine", message: "cannot read 'gone.machine'")])
            .write(toFile: allFile, atomically: true, encoding: .utf8)
        expected[allFile] = allRecords
        let schema = ReportTesting.schemas.appendingPathComponent("sarif-schema-2.1.0.json").path
        let read = try ReportTesting.run(python, "read_sarif.py", [schema] + expected.keys.sorted(), as: [String: Read].self)
        #expect(read.count == expected.count)
        #expect(expected.values.contains { $0.contains { $0.severity == "note" } }, "a note-level result is covered")
        for (file, records) in expected {
            #expect(read[file]?.schemaErrors == [], "\(file)")
            #expect(read[file]?.records == records, "\(file)")
        }
    }

    /// What the CI workflow uploads, `statecraft check --format sarif Specs` as a user runs it,
    /// passes the schema and reads back with a record per diagnostic of the bundled specs.
    @Test func theCommandsSARIFOfTheBundledSpecsReadsBack() throws {
        let python = try ReportTesting.python(importing: ["jsonschema", "sarif"],
                                              required: "STATECRAFT_REQUIRE_SARIF_TOOLS")
        let dir = try ReportTesting.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CLI.run(["check", "--format", "sarif", "Specs"])
        #expect(run.status == 0, "\(run.stderr)")
        let file = dir.appendingPathComponent("statecraft.sarif").path
        try run.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let expected = Repository.specFiles().map { "Specs/" + $0.lastPathComponent }.flatMap { path in
            let result = ReportTesting.check(path)
            return result.diagnostics.map { d in
                Read.Record(code: d.id.rawValue, severity: SARIFTests.level(of: d),
                            line: result.file.location(of: d.range.start).line, location: path)
            }
        }
        let schema = ReportTesting.schemas.appendingPathComponent("sarif-schema-2.1.0.json").path
        let read = try ReportTesting.run(python, "read_sarif.py", [schema, file], as: [String: Read].self)
        #expect(read[file]?.schemaErrors == [], "\(read[file]?.schemaErrors ?? [])")
        #expect(read[file]?.records == expected)
        #expect(run.stdout.contains("\"name\": \"statecraft\""), "the tool's name, as sarif-tools lists it")
    }

    /// The validator is not a formality: a log it must refuse, it refuses.
    @Test func theSchemaRefusesABrokenLog() throws {
        let python = try ReportTesting.python(importing: ["jsonschema", "sarif"],
                                                    required: "STATECRAFT_REQUIRE_SARIF_TOOLS")
        let dir = try ReportTesting.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = SARIFTests.sarif([ReportTesting.check("Tests/CheckerTests/Fixtures/done-when.machine")])
        let broken = good.replacingOccurrences(of: "\"level\": \"error\"", with: "\"level\": \"fatal\"")
        let file = dir.appendingPathComponent("broken.sarif").path
        try broken.write(toFile: file, atomically: true, encoding: .utf8)
        let schema = ReportTesting.schemas.appendingPathComponent("sarif-schema-2.1.0.json").path
        let read = try ReportTesting.run(python, "read_sarif.py", [schema, file], as: [String: Read].self)
        #expect(read[file]?.schemaErrors.isEmpty == false)
    }

    /// Every diagnostic of the catalogue is a rule, with the words of the Diagnostics article's
    /// table (which `CatalogueTests` keeps equal to `summary` and `example`) and its default
    /// level; each result names its rule by id and by index.
    @Test func rulesAreTheCatalogue() throws {
        let document = try SARIFTests.parse(SARIFTests.sarif([ReportTesting.check("Tests/CheckerTests/Fixtures/done-when.machine")]))
        let run = try #require((document["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == DiagnosticID.allCases.map(\.rawValue))
        for (rule, id) in zip(rules, DiagnosticID.allCases) {
            #expect((rule["shortDescription"] as? [String: Any])?["text"] as? String == id.summary)
            #expect(((rule["help"] as? [String: Any])?["markdown"] as? String)?.contains(id.example) == true)
            let level = (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String
            #expect(level == (id.defaultSeverity == .note ? "note" : id.defaultSeverity.rawValue))
        }
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.map { $0["ruleId"] as? String } == ["type-mismatch", "unknown-name", "unreachable-state"])
        for result in results {
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == result["ruleId"] as? String)
        }
        // The note "did you mean 'count'?" is a related location at its own position.
        let related = try #require(results[1]["relatedLocations"] as? [[String: Any]])
        #expect((related.first?["message"] as? [String: Any])?["text"] as? String == "did you mean 'count'?")
        let region = ((related.first?["physicalLocation"] as? [String: Any])?["region"] as? [String: Any])
        #expect(region?["startLine"] as? Int == 9 && region?["startColumn"] as? Int == 30)
        let primary = (((results[1]["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"]
            as? [String: Any])
        #expect(primary?["endLine"] as? Int == 9 && primary?["endColumn"] as? Int == 36)
    }

    /// A finding keeps its fingerprint when lines are added above it or it is re-indented,
    /// and two identical findings on identical lines keep two fingerprints; the region moves.
    @Test func fingerprintsSurviveLineShifts() throws {
        let spec = """
            machine M {
                event go
                initial state a { on go -> b }
                state b { on go -> nowhere }
                state c { on go -> nowhere }
            }
            """
        let shifted = "// a comment\n\n" + spec.replacingOccurrences(of: "    state b", with: "        state b")
        func results(_ text: String) throws -> [(fingerprint: String, line: Int)] {
            let sarif = SARIFTests.sarif([Statecraft.check(source: text, path: "M.machine")])
            let run = try #require((try SARIFTests.parse(sarif)["runs"] as? [[String: Any]])?.first)
            return try #require(run["results"] as? [[String: Any]]).filter { $0["ruleId"] as? String == "unknown-state" }.map { r in
                let fingerprint = (r["partialFingerprints"] as? [String: String])?[CheckSARIF.fingerprintKey] ?? ""
                let region = (((r["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"]
                    as? [String: Any])
                return (fingerprint, region?["startLine"] as? Int ?? 0)
            }
        }
        let before = try results(spec)
        let after = try results(shifted)
        #expect(before.count == 2)
        #expect(before.map(\.fingerprint) == after.map(\.fingerprint))
        #expect(after.map(\.line) == before.map { $0.line + 2 })
        // Lines 4 and 5 differ (b, c), so each has its own hash, first occurrence.
        #expect(Set(before.map(\.fingerprint)).count == 2)
        #expect(before.allSatisfy { $0.fingerprint.hasSuffix(":1") && $0.fingerprint.count == 18 })
        // Identical lines: the same hash, counted.
        var twice = Fingerprint()
        let first = twice.next(id: "unknown-state", path: "M.machine", lineText: "on go -> x")
        let second = twice.next(id: "unknown-state", path: "M.machine", lineText: "  on go ->   x")
        #expect(first.dropLast(2) == second.dropLast(2) && first.hasSuffix(":1") && second.hasSuffix(":2"))
    }

    /// Paths are relative to the root under `%SRCROOT%`, whichever way the file was named;
    /// outside the root they stay absolute `file:` URIs; odd characters are percent-encoded.
    @Test(arguments: [
        ("Specs/Drawer.machine", "Specs/Drawer.machine", true),
        ("./Specs/../Specs/Drawer.machine", "Specs/Drawer.machine", true),
        ("/repo/Specs/Drawer.machine", "Specs/Drawer.machine", true),
        ("my specs/a#1.machine", "my%20specs/a%231.machine", true),
        ("../elsewhere/x.machine", "file:///elsewhere/x.machine", false),
        ("/repository/x.machine", "file:///repository/x.machine", false),
        ("café.machine", "caf%C3%A9.machine", true),
    ])
    func artifactLocations(path: String, uri: String, underRoot: Bool) throws {
        let location = CheckSARIF.artifactLocation(path, root: "/repo")
        guard case .object(let object) = location else { Issue.record("not an object"); return }
        #expect(object["uri"] == .string(uri))
        #expect(object["uriBaseId"] == (underRoot ? .string("%SRCROOT%") : nil))
    }

    static func parse(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }
}
