import Foundation
import Testing
import TestSupport

/// The start of a case is a step like any other, and a timer's step is named by its timer.
@Suite struct ReplayStartTests {
    static let initFail = """
        machine InitFail {
            var zero: Number = 0
            public var r: Number = 0
            event go
            initial state a {
                entry { r = 1 / zero }
                on go -> b
            }
            state b { on go -> a }
        }
        """

    /// A machine whose initial entry fails used to "pass": the events were counted as
    /// ignored and the report showed the machine's name as its state.
    @Test func aFailedStartIsARejectionAtEachCasesFirstLine() throws {
        let spec = try AnalysisVerdictTests.spec(ReplayStartTests.initFail)
        let log = "{\"event\": \"go\"}\n{\"case\": 2, \"event\": \"go\"}\n{\"event\": \"go\"}\n"
        let r = try CLI.run(["replay", spec], input: log)
        #expect(r.status == 1)
        #expect(r.stdout.contains("<stdin>:1:1: error: the machine could not start: entering 'a' failed: division by zero (1 / 0) [event-rejected]"))
        #expect(r.stdout.contains("<stdin>:2:1: error: the machine could not start"))
        #expect(r.stdout.contains("spec.machine:6:21: note: the failing expression in the spec"))
        #expect(r.stdout.contains("state         none (the machine could not start)"))
        #expect(!r.stdout.contains("InitFail"))
        let json = try CLI.run(["replay", "--format", "json", spec], input: log)
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["passed"] as? Bool == false)
        let cases = try #require((object["logs"] as? [[String: Any]])?.first?["cases"] as? [[String: Any]])
        #expect(cases.count == 2)
        for c in cases {
            #expect(c["state"] is NSNull)
            #expect(c["started"] as? Bool == false)
            #expect(c["rejected"] as? Int == 1)
        }
    }

    /// A timer whose guard is false at its deadline is used up; the trace names it with its
    /// delay, as it names a timer that fires.
    @Test func aUsedUpTimerIsNamedWithItsDelay() throws {
        let spec = try AnalysisVerdictTests.spec("""
            machine Timers {
                var armed: Bool = false
                event go
                initial state idle { on go -> waiting }
                state waiting {
                    after 2s if armed -> idle
                    after 3s -> idle
                }
            }
            """)
        let r = try CLI.run(["replay", "--trace", spec], input: "{\"event\": \"go\"}\n{\"time\": 5, \"expect\": \"idle\"}\n")
        #expect(r.status == 0)
        #expect(r.stdout.contains("line 2, t=2: after 2s: ignored"))
        #expect(r.stdout.contains("line 2, t=3: after 3s: waiting -> idle"))
        let jsonl = try CLI.run(["replay", "--trace", "--format", "jsonl", spec], input: "{\"event\": \"go\"}\n{\"time\": 5, \"expect\": \"idle\"}\n")
        #expect(jsonl.stdout.contains("\"event\": \"after 2s\", \"timer\": true"))
    }
}
