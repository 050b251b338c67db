import Foundation
import Testing
import TestSupport

/// `replay --settle`: after the last line, time passes from timer to timer until each case
/// comes to rest, and the report says where.
@Suite struct ReplaySettleTests {
    static let lines = """
        {"time": 0, "event": "scroll", "offsetY": -200}
        {"time": 0.1, "event": "endDragging"}

        """

    /// A refresh runs into its 2 s timer after the log ends; without --settle it is left
    /// running.
    @Test func aPendingTimerFiresAndTheCaseComesToRest() throws {
        let r = try CLI.run(["replay", "--settle", "--trace", "Specs/PullToRefresh.machine"], input: Self.lines)
        #expect(r.status == 0)
        #expect(r.stdout.contains("line 2, t=2.1: after 2s: refreshing -> idle; set insetTop = 0"), "\(r.stdout)")
        #expect(r.stdout.contains("  state         idle\n  configuration ready, idle\n  settled       at rest: no timer armed\n"), "\(r.stdout)")
        let plain = try CLI.run(["replay", "Specs/PullToRefresh.machine"], input: Self.lines)
        #expect(plain.stdout.contains("  state         refreshing\n"))
        #expect(!plain.stdout.contains("settled"))
        let json = try CLI.run(["replay", "--settle", "--format", "json", "Specs/PullToRefresh.machine"], input: Self.lines)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let c = try #require(((object["logs"] as? [[String: Any]])?.first?["cases"] as? [[String: Any]])?.first)
        #expect(c["settled"] as? String == "at-rest")
        #expect(c["state"] as? String == "idle")
    }

    /// An empty log asks where the machine comes to rest by itself: one case starts and
    /// settles (without --settle an empty log has no case).
    @Test func anEmptyLogStartsOneCaseAndSettlesIt() throws {
        let spec = try AnalysisVerdictTests.spec("""
            machine Boot {
                event never
                initial state splash { after 1.5s -> home }
                state home { on never -> splash }
            }
            """)
        let r = try CLI.run(["replay", "--settle", spec], input: "")
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("  state         home\n"), "\(r.stdout)")
        #expect(r.stdout.contains("settled       at rest: no timer armed"), "\(r.stdout)")
        #expect(r.stdout.contains("t=1.5"), "\(r.stdout)")
        let plain = try CLI.run(["replay", spec], input: "")
        #expect(plain.stdout.contains("0 cases"), "\(plain.stdout)")
    }

    /// A machine that drives itself to a final state (as the W3C conformance tests do)
    /// reaches it; one whose timer re-arms forever is reported as still running, bounded.
    @Test func finalAndStillRunning() throws {
        let selfDriving = try AnalysisVerdictTests.spec("""
            machine Test {
                public var n: Number = 0
                event go
                initial state waiting { on go -> counting }
                state counting {
                    after 1s if n < 3 -> counting { n += 1 }
                    always if n >= 3 -> pass
                }
                final state pass
            }
            """)
        let r = try CLI.run(["replay", "--settle", selfDriving], input: "{\"event\": \"go\"}\n")
        #expect(r.status == 0)
        #expect(r.stdout.contains("  state         pass (final)\n  settled       the run ended in a final state\n"), "\(r.stdout)")
        #expect(r.stdout.contains("3 timers fired; t=3"), "\(r.stdout)")
        let ticking = try AnalysisVerdictTests.spec("""
            machine Clock {
                public var ticks: Number = 0
                event start
                initial state idle { on start -> ticking }
                state ticking { after 1s -> ticking { ticks += 1 } }
            }
            """)
        let forever = try CLI.run(["replay", "--settle", ticking], input: "{\"event\": \"start\"}\n")
        #expect(forever.status == 0)
        #expect(forever.stdout.contains("  settled       still running after 100000 timer steps\n"), "\(forever.stdout)")
        #expect(forever.stdout.contains("ticks = 100000"), "\(forever.stdout)")
    }
}
