import Foundation
import Statecraft
import Testing
import TestSupport

@Suite struct CatalogueTests {
    @Test func idsAreStableKebabCase() {
        for id in DiagnosticID.allCases {
            #expect(id.rawValue.allSatisfy { $0.isLowercase || $0 == "-" || $0.isNumber }, "\(id.rawValue)")
            #expect(!id.summary.isEmpty && !id.summary.hasSuffix("."))
        }
        #expect(Set(DiagnosticID.allCases.map(\.rawValue)).count == DiagnosticID.allCases.count)
    }

    /// The README's table and the catalogue say the same thing, row for row: the id, its
    /// severity, its meaning (`summary`, which SARIF's rules and the language server repeat)
    /// and its example. Either one can be edited; this test makes the other follow.
    @Test func readmeTableIsTheCatalogue() throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        let rows = readme.components(separatedBy: "\n").filter { line in
            DiagnosticID.allCases.contains { line.hasPrefix("| `\($0.rawValue)` |") }
        }
        #expect(rows.count == DiagnosticID.allCases.count)
        for id in DiagnosticID.allCases {
            let expected = "| `\(id.rawValue)` | \(id.defaultSeverity.rawValue) | \(id.summary) | \(id.example) |"
            let row = rows.first { $0.hasPrefix("| `\(id.rawValue)` |") }
            #expect(row == expected, "README row of \(id.rawValue)")
        }
    }
}
