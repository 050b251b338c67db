import Foundation
import Testing
import TestSupport

/// A timer armed at a time so large that its deadline cannot mean its delay (at 1.8e308,
/// `t + 10` rounds back to `t`, so a 10 s timer would fire at once) is refused at the log
/// line that armed it, as a malformed line: exit 2, the error at the line's time, and the
/// report of what came before kept.
@Suite struct ReplayDeadlineTests {
    static let spec = """
        machine Kettle {
            event heat
            initial state cold {
                on heat -> warming
            }
            state warming {
                after 10s -> boiling
            }
            state boiling
        }
        """

    @Test func aTenSecondTimerAtTheLargestTimeIsRefusedAtItsLine() throws {
        let spec = try AnalysisVerdictTests.spec(Self.spec, name: "Kettle.machine")
        let folder = URL(fileURLWithPath: spec).deletingLastPathComponent()
        try Data("""
            {"time": 5, "expect": {"state": "cold"}}
            {"time": 1.7976931348623157e308, "event": "heat"}
            {"expect": {"state": "warming"}}

            """.utf8).write(to: folder.appendingPathComponent("huge.jsonl"))
        let r = try CLI.run(["replay", "Kettle.machine", "huge.jsonl"], in: folder)
        #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("huge.jsonl:2:10: error: time 1.7976931348623157e+308 is too large for a timer armed at it "
            + "to be due 10 s later: 1.7976931348623157e+308 + 10 rounds to 1.7976931348623157e+308 [malformed-log-line]"),
                "\(r.stdout)")
        // The line's step ran (the timer was armed by it), so the report covers it.
        #expect(r.stdout.contains("huge.jsonl: note: replay stopped at line 2; the report above covers the lines up to and including it\n"),
                "\(r.stdout)")
        #expect(r.stdout.contains("  state         warming\n"), "\(r.stdout)")
        // The same log at an ordinary time replays, and the timer waits its 10 s.
        try Data("""
            {"time": 5, "expect": {"state": "cold"}}
            {"time": 6, "event": "heat"}
            {"time": 15.9, "expect": {"state": "warming"}}
            {"time": 16, "expect": {"state": "boiling"}}

            """.utf8).write(to: folder.appendingPathComponent("ordinary.jsonl"))
        let ok = try CLI.run(["replay", "Kettle.machine", "ordinary.jsonl"], in: folder)
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
    }
}
