import Foundation
import Statecraft
import Testing
import TestSupport

/// One before/after pair per construct: `Golden/NAME.machine` formats to `Golden/NAME.formatted`
/// (re-recorded with `STATECRAFT_RECORD=1`), and the formatted text is a fixed point.
@Suite struct FormatGoldenTests {
    static let folder = Repository.root.appendingPathComponent("Tests/FormatTests/Golden")

    static var names: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".machine") }.map { String($0.dropLast(".machine".count)) }.sorted()
    }

    @Test func thereIsAPairPerConstruct() {
        #expect(Set(FormatGoldenTests.names).isSuperset(of: ["actions", "blank-lines", "comments", "declarations",
                                                             "expressions", "guards", "states", "transitions"]))
    }

    @Test(arguments: FormatGoldenTests.names)
    func formatsToItsGoldenFile(name: String) throws {
        let input = SourceFile(path: name + ".machine",
                               bytes: Repository.bytes(FormatGoldenTests.folder.appendingPathComponent(name + ".machine")))
        #expect(!input.bytes.isEmpty)
        let (formatted, problem) = FormatSupport.format(input)
        let output = try #require(formatted, "\(problem ?? "")")
        let text = String(decoding: output.bytes, as: UTF8.self)
        if let difference = Golden.compare(text, to: FormatGoldenTests.folder.appendingPathComponent(name + ".formatted")) {
            Issue.record(Comment(rawValue: difference))
        }
        // The input is not already formatted (or the pair would show nothing).
        #expect(output.bytes != input.bytes)
        #expect(FormatSupport.format(output).text?.bytes == output.bytes)
    }
}
