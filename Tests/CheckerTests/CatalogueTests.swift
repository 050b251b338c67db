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

    /// The README documents every diagnostic id, with its severity and an example.
    @Test func readmeDocumentsEveryDiagnostic() throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        for id in DiagnosticID.allCases {
            let row = readme.components(separatedBy: "\n").first { $0.hasPrefix("| `\(id.rawValue)` |") }
            #expect(row != nil, "README has no row for \(id.rawValue)")
            #expect(row?.contains("| \(id.defaultSeverity.rawValue) |") == true, "severity of \(id.rawValue)")
        }
    }
}
