import Foundation
import Statecraft
import Testing
import TestSupport

/// Every fixture under `Fixtures/` is checked and its diagnostics, rendered exactly as the
/// CLI prints them (source lines and carets included), compared with `<name>.diag`.
@Suite struct GoldenTests {
    static let fixtures = Repository.root.appendingPathComponent("Tests/CheckerTests/Fixtures")

    static var fixtureNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        return names.filter { $0.hasSuffix(".machine") }.map { String($0.dropLast(".machine".count)) }.sorted()
    }

    static func check(_ name: String) -> CheckResult {
        let bytes = Repository.bytes(fixtures.appendingPathComponent(name + ".machine"))
        return Statecraft.check(SourceFile(path: name + ".machine", bytes: bytes))
    }

    @Test func thereAreFixtures() {
        #expect(GoldenTests.fixtureNames.count >= 15)
    }

    @Test(arguments: GoldenTests.fixtureNames)
    func diagnosticsMatchGoldenFile(name: String) {
        let result = GoldenTests.check(name)
        let text = CheckText.diagnostics(result, colour: false)
            + CheckText.summary(files: 1, errors: result.errorCount, warnings: result.warningCount)
        if let problem = Golden.compare(text, to: GoldenTests.fixtures.appendingPathComponent(name + ".diag")) {
            Issue.record(Comment(rawValue: problem))
        }
    }

    @Test func jsonMatchesGoldenFile() {
        let result = GoldenTests.check("done-when")
        let json = CheckJSON.rendered(CheckReport(files: [result]))
        if let problem = Golden.compare(json, to: GoldenTests.fixtures.appendingPathComponent("done-when.json")) {
            Issue.record(Comment(rawValue: problem))
        }
    }

    /// Each spec diagnostic in the catalogue is produced by at least one fixture, so each has
    /// a golden example and a test that fails if it stops being reported. (The replay ones
    /// are covered by the replay tests.)
    @Test func everyDiagnosticIDHasAFixture() {
        var seen = Set<DiagnosticID>()
        for name in GoldenTests.fixtureNames {
            for d in GoldenTests.check(name).diagnostics { seen.insert(d.id) }
        }
        let missing = DiagnosticID.allCases.filter { !$0.isAboutLogs && !$0.isAboutImport && !seen.contains($0) }.map(\.rawValue)
        #expect(missing == [])
    }

    /// The acceptance case: an unreachable state, a type error and an undeclared name, each at
    /// its exact line and column.
    @Test func unreachableTypeErrorAndUndeclaredNameTogether() {
        let result = GoldenTests.check("done-when")
        let found = result.diagnostics.map { d -> String in
            let at = result.file.location(of: d.range.start)
            return "\(at.line):\(at.column) \(d.id.rawValue)"
        }
        #expect(found == ["8:27 type-mismatch", "9:30 unknown-name", "14:11 unreachable-state"])
        #expect(result.errorCount == 3)
    }
}
