import Testing
import TestSupport

/// Eventless loops (issue 35, item 5): the resolver refuses only a loop that no order of
/// selection can leave; one that may go on runs until the runtime's bound of 10,000
/// microsteps stops it, and `check` shows where with a witness.
@Suite struct EventlessLoopTests {
    static let lines = StatechartSemanticsTests.lines

    /// SCION's targetless-transition test: the guarded transition comes first, so it is
    /// selected as soon as the counter reaches 100; until then the targetless one counts.
    @Test func aGuardedTransitionBeforeATargetlessOneEndsTheLoop() throws {
        let spec = """
            machine Counter {
                public var i: Number = 0
                event go
                initial state idle {
                    on go -> counting
                }
                state counting {
                    always if i == 100 -> done
                    always { i = i + 1 }
                }
                final state done
            }
            """
        try StatechartSemanticsTests.expectPasses(spec, Self.lines(
            #"{"event": "go"}"#,
            #"{"expect": {"state": "done", "vars": {"i": 100}}}"#))
        let checked = try CLI.run(["check", try AnalysisVerdictTests.spec(spec)])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        let said = checked.stdout + checked.stderr
        #expect(!said.contains("eventless-cycle") && !said.contains("run-time-fault"), "\(said)")
    }

    /// An unconditional transition written first takes the machine out before the
    /// targetless one is ever selected.
    @Test func anUnconditionalTransitionBeforeATargetlessOneLeaves() throws {
        try StatechartSemanticsTests.expectPasses("""
            machine Door {
                public var opened: Number = 0
                event push
                initial state closed {
                    on push -> swinging
                }
                state swinging {
                    always -> open
                    always { opened = opened + 1 }
                }
                state open
            }
            """, Self.lines(#"{"event": "push"}"#, #"{"expect": {"state": "open", "vars": {"opened": 0}}}"#))
    }

    /// A loop that only may go on (its guard never holds, but proving that is the analysis'
    /// business): the spec is not refused, the runtime stops the step after its bound with a
    /// message that says so, and `check` warns with the events that lead there.
    @Test func aLoopThatMayGoOnIsStoppedAtRunTimeAndShownByCheck() throws {
        let path = try AnalysisVerdictTests.spec("""
            machine Spin {
                var i: Number = 0
                event go
                initial state idle {
                    on go -> spinning
                }
                state spinning {
                    always if i < 0 -> idle
                    always { i = i + 1 }
                }
            }
            """)
        let run = try CLI.run(["replay", path, "-"], input: Self.lines(#"{"time": 0, "event": "go"}"#))
        #expect(run.status == 1)
        #expect((run.stdout + run.stderr).contains("error: event 'go' was rejected: more than 10000 microsteps without settling "
                                    + "(an 'always' or 'raise' loop); stopped the step [event-rejected]"), "\(run.stdout)\(run.stderr)")
        let checked = try CLI.run(["check", path])
        #expect(!(checked.stdout + checked.stderr).contains("eventless-cycle"), "\(checked.stdout)\(checked.stderr)")
        #expect((checked.stdout + checked.stderr).contains(":9:9: warning: this can fail at run time: more than 10000 microsteps without settling"),
                "\(checked.stdout)\(checked.stderr)")
        #expect((checked.stdout + checked.stderr).contains(":9:9: note: it fails at the last of these steps: go"), "\(checked.stdout)\(checked.stderr)")
    }

    /// A loop no order can leave is still refused where it is written.
    @Test func aCertainLoopIsStillRefused() throws {
        let path = try AnalysisVerdictTests.spec("""
            machine Spin {
                var i: Number = 0
                event go
                initial state idle {
                    on go -> spinning
                }
                state spinning {
                    always if false -> idle
                    always { i = i + 1 }
                }
            }
            """)
        let checked = try CLI.run(["check", path])
        #expect(checked.status == 1)
        #expect((checked.stdout + checked.stderr).contains(":9:9: error: eventless transition in 'spinning' has no target and no guard, "
                                        + "so it is taken forever [eventless-cycle]"), "\(checked.stdout)\(checked.stderr)")
    }
}
