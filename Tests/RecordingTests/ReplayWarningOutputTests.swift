import Foundation
import Statecraft
import Testing
import TestSupport

/// The warnings of a log in each format of `replay` that shows warnings, through the CLI.
@Suite struct ReplayWarningOutputTests {
    /// A Drawer log recorded against another spec version and cut off at its end, in a
    /// scratch folder with the Drawer spec.
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("warnings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Repository.specs.appendingPathComponent("Drawer.machine"),
                                         to: folder.appendingPathComponent("Drawer.machine"))
        try (#"{"recording": {"machine": "Drawer", "spec": "0123456789abcdef"}}"# + "\n"
             + #"{"time": 0.5, "event": "touchBegan", "y": 600, "onContent": true}"# + "\n"
             + #"{"time": 0.7, "event": "touchEnd"#).write(to: folder.appendingPathComponent("log.jsonl"), atomically: true,
                                                            encoding: .utf8)
        return folder
    }

    @Test func jsonCarriesTheWarnings() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(["replay", "--format", "json", "Drawer.machine", "log.jsonl"], in: folder)
        #expect(run.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let log = try #require((document["logs"] as? [[String: Any]])?.first)
        let warnings = try #require(log["warnings"] as? [[String: Any]])
        #expect(warnings.map { $0["id"] as? String } == ["log-header-mismatch", "truncated-log-line"])
        #expect(warnings.map { $0["line"] as? Int } == [1, 3])
        #expect(warnings.map { $0["column"] as? Int } == [45, 33])
        #expect(log["passed"] as? Bool == true)
        // jsonl's report line carries them too.
        let jsonl = try CLI.run(["replay", "--format", "jsonl", "Drawer.machine", "log.jsonl"], in: folder)
        #expect(jsonl.stdout.contains(#""warnings": [{"id": "log-header-mismatch""#) || jsonl.stdout.contains(#""warnings":[{"id":"log-header-mismatch""#))
    }

    @Test func githubAnnotatesThem() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(["replay", "--format", "github", "Drawer.machine", "log.jsonl"], in: folder)
        #expect(run.status == 0)
        #expect(run.stdout.contains("::warning file=log.jsonl,line=1,col=45,title=log-header-mismatch::"))
        #expect(run.stdout.contains("::warning file=log.jsonl,line=3,col=33,title=truncated-log-line::"))
    }

    @Test func aSummarySaysThemOnStandardError() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(["replay", "--summary", "Drawer.machine", "log.jsonl"], in: folder)
        #expect(run.status == 0)
        #expect(run.stderr.contains("log.jsonl:1:45: warning: the log was recorded against another version of the spec"))
        #expect(run.stderr.contains("log.jsonl:3:33: warning: the last line is cut off"))
    }

    /// A log without a header or a cut line has no `warnings` member: the JSON of every
    /// existing log stays as it was.
    @Test func noWarningsNoMember() throws {
        let run = try CLI.run(["replay", "--format", "json", "Specs/Drawer.machine", "Specs/Drawer.session.jsonl"])
        #expect(!run.stdout.contains("\"warnings\""))
    }
}
