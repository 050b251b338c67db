import Foundation
import Statecraft
import Testing
import TestSupport

/// `statecraft swift` and the values of final states: a `done` reads a completion field as a
/// local of its name, so a field named like a member of the generated type is refused by
/// name, at the field, rather than written as Swift that does not compile.
@Suite struct DoneDataSwiftTests {
    @Test(arguments: ["core", "internalQueue", "completion1_0"])
    func aFieldNamedLikeAMemberIsRefused(name: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("donedata-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("clash.machine")
        let text = """
            machine Clash {
                public var n: Number = 0
                event go
                initial state s {
                    initial state a { on go -> f }
                    final state f(\(name): 1)
                    done -> s { n = \(name) }
                }
            }

            """
        try Data(text.utf8).write(to: spec)
        let run = try CLI.run(["swift", spec.path])
        #expect(run.status != 0)
        #expect(run.stderr.contains("clash.machine:6:23"), "\(run.stderr)")
        #expect(run.stderr.contains("field '\(name)' of final state 'f' has the name of a member of the generated type; rename it"),
                "\(run.stderr)")
    }
}
