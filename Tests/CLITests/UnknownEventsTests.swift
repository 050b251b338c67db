import Foundation
import Testing
import TestSupport

/// `replay --unknown-events ignore`: an event the spec does not declare is counted per name
/// and reported, not refused, as an SCXML engine ignores it; its time still moves the clock.
/// The default stays an error, since a typo in a log is worth stopping for.
@Suite struct UnknownEventsTests {
    static let spec = """
        machine Kettle {
            public var boils: Number = 0
            event switchOn
            initial state off {
                on switchOn -> heating
            }
            state heating {
                after 3s -> off { boils = boils + 1 }
            }
        }
        """

    /// Two cases; the recorder logged the engine's own events (`watch.reset`, `DIGIT.5`)
    /// beside the spec's. The heating timer fires at t=3 in case a, on the way to an unknown
    /// line at t=4.
    static let log = """
        {"case": "a", "time": 0, "event": "switchOn"}
        {"case": "a", "time": 1, "event": "watch.reset"}
        {"case": "b", "time": 0, "event": "DIGIT.5", "digit": 5}
        {"case": "a", "time": 4, "event": "DIGIT.5"}
        {"case": "a", "time": 5, "expect": {"state": "off", "vars": {"boils": 1}}}
        {"case": "b", "time": 1, "event": "switchOn"}
        {"case": "b", "time": 1, "expect": "heating"}

        """

    @Test func byDefaultAnUnknownEventStopsTheReplayAtItsName() throws {
        let dir = try ReplayCommandTests.folder(["kettle.machine": Self.spec, "s.jsonl": Self.log])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["replay", "kettle.machine", "s.jsonl"], in: dir)
        #expect(r.status == 2)
        #expect(r.stdout.contains("s.jsonl:2:35: error: unknown event 'watch.reset'"), "\(r.stdout)")
    }

    @Test func ignoredUnknownEventsAreCountedByNameAndTheReplayGoesOn() throws {
        let dir = try ReplayCommandTests.folder(["kettle.machine": Self.spec, "s.jsonl": Self.log])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["replay", "kettle.machine", "s.jsonl", "--unknown-events", "ignore"], in: dir)
        #expect(r.status == 0, "\(r.stdout)")
        // Case a: the timer fired on the way to the unknown line at t=4, and the expectation held.
        #expect(r.stdout.contains("  unknown       2 lines of events the spec does not declare, ignored: 'DIGIT.5' ×1, 'watch.reset' ×1\n"), "\(r.stdout)")
        #expect(r.stdout.contains("  unknown       1 line of events the spec does not declare, ignored: 'DIGIT.5' ×1\n"), "\(r.stdout)")
        #expect(r.stdout.contains("1 applied, 0 ignored, 0 rejected; 1 timer fired; t=5"), "\(r.stdout)")
        #expect(r.stdout.hasSuffix("replayed s.jsonl: 2 cases, 2 events (2 applied, 0 ignored, 0 rejected), 2 expectations (0 failed)\n"))

        let json = try CLI.run(["replay", "kettle.machine", "s.jsonl", "--unknown-events", "ignore", "--format", "json"], in: dir)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let cases = try #require(((document["logs"] as? [[String: Any]])?.first?["cases"]) as? [[String: Any]])
        #expect(cases.map { $0["unknownEvents"] as? [String: Int] } == [["DIGIT.5": 1, "watch.reset": 1], ["DIGIT.5": 1]])
    }

    /// A summary adds the counts up, and `merge` adds summaries' counts: what Spark's reduce does.
    @Test func summariesAndMergeAddTheCountsUp() throws {
        let dir = try ReplayCommandTests.folder(["kettle.machine": Self.spec, "s.jsonl": Self.log])
        defer { try? FileManager.default.removeItem(at: dir) }
        let summary = try CLI.run(["replay", "kettle.machine", "s.jsonl", "--unknown-events", "ignore", "--summary", "--format", "json"], in: dir)
        #expect(summary.status == 0, "\(summary.stdout)")
        #expect(summary.stdout.contains(#""unknownEvents": {"DIGIT.5": 2, "watch.reset": 1}"#), "\(summary.stdout)")
        try summary.stdout.write(to: dir.appendingPathComponent("a.summary"), atomically: true, encoding: .utf8)
        try summary.stdout.write(to: dir.appendingPathComponent("b.summary"), atomically: true, encoding: .utf8)
        let merged = try CLI.run(["merge", "a.summary", "b.summary"], in: dir)
        #expect(merged.stdout.contains("  unknown       6 lines of events the spec does not declare, ignored: 'DIGIT.5' ×4, 'watch.reset' ×2\n"),
                "\(merged.stdout)")
        // Without unknown events, a summary has no such field: the default output is unchanged.
        let plain = try CLI.run(["replay", "Specs/Drawer.machine", "Specs/Drawer.session.jsonl", "--summary", "--format", "json"])
        #expect(!plain.stdout.contains("unknownEvents"))
    }

    @Test func theOptionTakesErrorOrIgnore() throws {
        let r = try CLI.run(["replay", "Specs/Drawer.machine", "Specs/Drawer.session.jsonl", "--unknown-events", "skip"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--unknown-events"), "\(r.stderr)")
        let help = try CLI.run(["replay", "--help"])
        #expect(help.stdout.contains("--unknown-events error|ignore"))
    }
}
