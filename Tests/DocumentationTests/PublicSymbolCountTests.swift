import Foundation
import Testing
import TestSupport

/// How many public symbols each module of the `Statecraft` library promises its users.
///
/// Every public symbol is API that apps and tools may call and that DocC shows, so it is a
/// promise to keep and a doc comment to maintain; `package` is the default. The count of
/// each module is pinned below, so that a symbol made public (or no longer public) fails
/// this test until the table is updated on purpose in the same change.
///
/// The counts come from the symbol graph of the `Statecraft` module, which takes in the
/// modules it re-exports (members and the conformances' synthesized members included). A
/// symbol belongs to the module its identifier names. Skipped where the toolchain has no
/// `swift-symbolgraph-extract`, unless `STATECRAFT_REQUIRE_DOCC=1` (CI) requires it.
@Suite(.enabled(if: SymbolGraph.isWanted && (SymbolGraph.extractorIsInstalled
                                              || ExternalTool.isRequired("STATECRAFT_REQUIRE_DOCC")),
                "swift-symbolgraph-extract is not installed (set STATECRAFT_REQUIRE_DOCC=1 to fail instead)"))
struct PublicSymbolCountTests {
    /// The public symbols of each module the `Statecraft` module re-exports (and its own).
    static let expected: [String: Int] = [
        "Statecraft": 3,
        "StatecraftAnalysis": 92,
        "StatecraftCodegen": 12,
        "StatecraftDiagnostics": 195,
        "StatecraftEventLog": 94,
        "StatecraftExport": 19,
        "StatecraftFormat": 18,
        "StatecraftIndex": 63,
        "StatecraftModel": 462,
        "StatecraftRecording": 74,
        "StatecraftReplay": 356,
        "StatecraftReport": 126,
        "StatecraftRuntime": 164,
        "StatecraftSCXML": 12,
        "StatecraftSemantics": 0,
        "StatecraftSyntax": 0,
    ]

    @Test func eachModuleHasThePinnedNumberOfPublicSymbols() throws {
        let counts = try Self.countsByModule()
        for module in Set(counts.keys).union(Self.expected.keys).sorted() {
            let found = counts[module, default: 0]
            let pinned = Self.expected[module, default: 0]
            #expect(found == pinned, """
                \(module) has \(found) public symbols, the table says \(pinned): growth is a decision: \
                update the table in PublicSymbolCountTests (or make the new symbols package)
                """)
        }
    }

    /// The module named by a symbol's identifier, a Swift USR: `s:` then the mangled module
    /// name, its length first (`s:21StatecraftDiagnostics8SeverityO`). A member the compiler
    /// synthesizes for a conformance (`==`) is named by the type it belongs to, after
    /// `::SYNTHESIZED::`; a member of an extension of another module's type carries our
    /// module's name after the extended type's (`s:Sa17StatecraftRuntimeE...`).
    static func module(ofUSR usr: String) -> String? {
        let own = usr.components(separatedBy: "::SYNTHESIZED::").last ?? usr
        let bytes = Array(own.utf8)
        var i = 0
        while i < bytes.count {
            guard bytes[i].isDigit, i == 0 || !bytes[i - 1].isDigit else { i += 1; continue }
            var j = i
            var length = 0
            while j < bytes.count, bytes[j].isDigit { length = length * 10 + Int(bytes[j] - 48); j += 1 }
            if length > 0, j + length <= bytes.count {
                let name = String(decoding: bytes[j..<j + length], as: UTF8.self)
                if name == "Statecraft" || name.hasPrefix("Statecraft") && expected.keys.contains(name) { return name }
            }
            i = j
        }
        return nil
    }

    static func countsByModule() throws -> [String: Int] {
        let graphs = try SymbolGraph.extract()
        let data = try Data(contentsOf: graphs.appendingPathComponent("Statecraft.symbols.json"))
        let graph = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let symbols = try #require(graph["symbols"] as? [[String: Any]])
        var counts: [String: Int] = [:]
        for symbol in symbols {
            let usr = (symbol["identifier"] as? [String: Any])?["precise"] as? String ?? ""
            counts[module(ofUSR: usr) ?? "(no module in \(usr))", default: 0] += 1
        }
        return counts
    }

    @Test func aSymbolBelongsToTheModuleItsIdentifierNames() {
        #expect(Self.module(ofUSR: "s:21StatecraftDiagnostics8SeverityO") == "StatecraftDiagnostics")
        #expect(Self.module(ofUSR: "s:10StatecraftAAO5check6source4path6boundsAA11CheckResultVSS_SSAA17ExplorationBoundsVSgtFZ")
                == "Statecraft")
        #expect(Self.module(ofUSR: "s:SQsE2neoiySbx_xtFZ::SYNTHESIZED::s:15StatecraftModel7StateIDV") == "StatecraftModel")
        #expect(Self.module(ofUSR: "s:Sa17StatecraftRuntimeE4sortyyF") == "StatecraftRuntime")
    }
}

private extension UInt8 {
    var isDigit: Bool { self >= 48 && self <= 57 }
}
