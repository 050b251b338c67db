import Foundation
import Testing
import TestSupport

/// Bad input through the real binary: always a diagnostic and exit 1 (or 2), never a crash.
@Suite struct HostileInputTests {
    static func write(_ bytes: [UInt8], named name: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    static let cases: [(String, [UInt8], String)] = {
        var rng = SeededGenerator(seed: 99)
        let garbage = (0..<65_536).map { _ in UInt8.random(in: 0...255, using: &rng) }
        return [
            ("empty", [], "error: file holds no machine"),
            ("binary garbage", garbage, "error:"),
            ("invalid UTF-8", Array("machine M {\n  const s = \"".utf8) + [0xC0, 0xAF, 0xFF] + Array("\"\n}\n".utf8),
             "error: invalid UTF-8 byte 0xC0 in string"),
            ("10 MB line", Array(("machine M { const c = \"" + String(repeating: "x", count: 10_000_000) + " }").utf8),
             "error: unterminated string"),
            ("10,000 nested parentheses",
             Array(("machine M { const c = " + String(repeating: "(", count: 10_000) + "1"
                    + String(repeating: ")", count: 10_000) + " }").utf8),
             "error: nesting is too deep"),
            ("unterminated string", Array("machine M {\n  const s = \"abc\n}\n".utf8), "error: unterminated string"),
            ("unterminated comment", Array("machine M {\n  /* abc\n}\n".utf8), "error: unterminated block comment"),
        ]
    }()

    @Test(arguments: 0..<HostileInputTests.cases.count)
    func hostileFileGetsADiagnostic(index: Int) throws {
        let (name, bytes, expected) = HostileInputTests.cases[index]
        let url = try HostileInputTests.write(bytes, named: "input.machine")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let r = try CLI.launch(["check", url.path])
        #expect(r.exitedNormally, "\(name): the process crashed")
        #expect(r.status == 1, "\(name)")
        #expect(r.stdout.contains(expected), "\(name)")
        let summary = r.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(summary.wholeMatch(of: /checked 1 file: [1-9][0-9]* errors?, 0 warnings/) != nil, "\(name): \(summary)")
    }

    @Test func jsonOutputStaysValidForHostileInput() throws {
        let url = try HostileInputTests.write(HostileInputTests.cases[1].1, named: "garbage.machine")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let r = try CLI.launch(["check", "--format", "json", url.path])
        #expect(r.status == 1)
        #expect((try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) != nil)
    }
}
