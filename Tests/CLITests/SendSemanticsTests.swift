import Foundation
import Testing
import TestSupport

/// `send e(args) [after d]` and `cancel e`, the rules the Semantics article states, each a spec
/// and a log replayed through the `statecraft` executable under `--strict`. A `trail`
/// variable pins the order in which things happened.
@Suite struct SendSemanticsTests {
    static let lines = StatechartSemanticsTests.lines

    /// A sent event is taken after the macrostep that sent it, so after the events that
    /// macrostep raised, and before the next line.
    @Test func aSentEventWaitsForTheMacrostepAndItsRaisedEvents() throws {
        try StatechartSemanticsTests.expectPasses("""
            machine M {
                public var trail: String = ""
                event go
                event sent
                event raised
                event next
                initial state a {
                    on go { send sent; raise raised; trail = trail + "go;" }
                    on raised { trail = trail + "raised;" }
                    on sent -> b { trail = trail + "sent;" }
                }
                state b {
                    on next { trail = trail + "next;" }
                }
            }
            """, Self.lines(#"{"event": "go"}"#,
                            #"{"expect": {"state": "b", "vars": {"trail": "go;raised;sent;"}}}"#,
                            #"{"event": "next"}"#,
                            #"{"expect": {"vars": {"trail": "go;raised;sent;next;"}}}"#))
    }

    /// Sent events are taken in the order they were sent, each in a macrostep of its own,
    /// with its payload.
    @Test func sentEventsAreTakenInOrderWithTheirPayload() throws {
        try StatechartSemanticsTests.expectPasses("""
            machine M {
                public var trail: String = ""
                event go
                event note(text: String, n: Number)
                initial state a {
                    on go { send note("one", 1); send note("two", 2) }
                    on note { trail = trail + text + "=" + "\\(n);" }
                }
            }
            """, Self.lines(#"{"event": "go"}"#,
                            #"{"expect": {"vars": {"trail": "one=1;two=2;"}}}"#))
    }

    /// A delayed send comes due at its time, even after the state that sent it was left
    /// (unlike `after`); `cancel` drops it. Both between lines, in virtual time.
    @Test func aDelayedSendOutlivesItsStateAndCancelDropsIt() throws {
        try StatechartSemanticsTests.expectPasses("""
            machine M {
                public var trail: String = ""
                event arm
                event disarm
                event leave
                event ring
                initial state a {
                    on arm { send ring after 1s }
                    on disarm { cancel ring }
                    on leave -> b
                }
                state b {
                    on ring { trail = trail + "ring;" }
                }
            }
            """, Self.lines(#"{"time": 0, "event": "arm"}"#,
                            #"{"time": 0.5, "event": "leave"}"#,
                            #"{"time": 0.9, "expect": {"vars": {"trail": ""}}}"#,
                            #"{"time": 1, "expect": {"vars": {"trail": "ring;"}}}"#))
        try StatechartSemanticsTests.expectPasses("""
            machine M {
                public var trail: String = ""
                event arm
                event disarm
                event ring
                initial state a {
                    on arm { send ring after 1s }
                    on disarm { cancel ring }
                    on ring { trail = trail + "ring;" }
                }
            }
            """, Self.lines(#"{"time": 0, "event": "arm"}"#,
                            #"{"time": 0.2, "event": "arm"}"#,
                            #"{"time": 0.5, "event": "disarm"}"#,
                            #"{"time": 5, "expect": {"vars": {"trail": ""}}}"#))
    }

    /// Debouncing, the UI use: every keystroke cancels the pending search and sends a new
    /// one; a search runs only once typing pauses for 300 ms.
    @Test func debouncing() throws {
        try StatechartSemanticsTests.expectPasses("""
            machine Search {
                public var searched: String = ""
                event typed(text: String)
                event search(text: String)
                initial state field {
                    on typed { cancel search; send search(text) after 300ms }
                    on search { searched = searched + text + ";" }
                }
            }
            """, Self.lines(#"{"time": 0, "event": "typed", "text": "s"}"#,
                            #"{"time": 0.1, "event": "typed", "text": "sw"}"#,
                            #"{"time": 0.2, "event": "typed", "text": "swi"}"#,
                            #"{"time": 0.6, "expect": {"vars": {"searched": "swi;"}}}"#,
                            #"{"time": 1, "event": "typed", "text": "swift"}"#,
                            #"{"time": 2, "expect": {"vars": {"searched": "swi;swift;"}}}"#))
    }

    /// A macrostep that fails sends nothing: its sends are undone with the rest.
    @Test func aFailedMacrostepSendsNothing() throws {
        let r = try StatechartSemanticsTests.replay("""
            machine M {
                public var trail: String = ""
                var zero: Number = 0
                var x: Number = 0
                event go
                event sent
                initial state a {
                    on go { send sent; x = 1 / zero }
                    on sent { trail = trail + "sent;" }
                }
            }
            """, Self.lines(#"{"event": "go"}"#, #"{"time": 1, "expect": {"vars": {"trail": ""}}}"#), strict: false)
        #expect(r.stdout.contains("1 rejected"), "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("0 failed"), "\(r.stdout)\(r.stderr)")
    }

    /// What the last line sends is taken before the replay ends (the log's end is the
    /// next line); a send loop at one instant is stopped and reported at the `send`.
    @Test func theLastLinesSendsAreTakenAndASendLoopIsStopped() throws {
        let r = try StatechartSemanticsTests.replay("""
            machine M {
                public var count: Number = 0
                event go
                event again
                initial state a {
                    on go { send again }
                    on again { count += 1; send again }
                }
            }
            """, Self.lines(#"{"event": "go"}"#), strict: false)
        #expect(r.stdout.contains("count = 10000"), "\(r.stdout)")
        #expect(r.stdout.contains("sent events were taken 10000 times at t=0 without time passing"), "\(r.stdout)")
        #expect(r.stdout.contains("M.machine:7:32") || r.stdout.contains(":7:32"), "\(r.stdout)")
    }

    /// Sends that multiply (every `ping` sends two more) stop at 100 pending: a step whose
    /// `send` would be the 101st is rejected at that `send`, and the run goes on.
    @Test func sendsThatMultiplyStopAtTheLimit() throws {
        let r = try StatechartSemanticsTests.replay("""
            machine M {
                public var count: Number = 0
                event go
                event ping
                initial state a {
                    on go { send ping after 1s }
                    on ping { count += 1; send ping after 1s; send ping after 1s }
                }
            }
            """, Self.lines(#"{"time": 0, "event": "go"}"#, #"{"time": 20, "expect": {"vars": {"count": 0}}}"#), strict: false)
        #expect(r.stdout.contains("100 sent events are pending already; this 'send' would add one more"), "\(r.stdout)")
        #expect(r.stdout.contains(":7:51"), "\(r.stdout)")
        // Doubling each second, the queue stays at the limit: the run goes on to t=20.
        #expect(r.stdout.contains("rejected") && r.stdout.contains("t=20"), "\(r.stdout)")
    }

    /// The trace marks a sent event's step: `sent` in text, `"sent": true` in JSON.
    @Test func theTraceMarksSentSteps() throws {
        let spec = try AnalysisVerdictTests.spec("""
            machine M {
                event go
                event pong(n: Number)
                initial state a {
                    on go { send pong(7) }
                    on pong -> b
                }
                state b
            }
            """)
        let text = try CLI.run(["replay", "--trace", spec], input: Self.lines(#"{"event": "go"}"#))
        #expect(text.stdout.contains("line 1, t=0: sent pong(n: 7): a -> b"), "\(text.stdout)")
        let json = try CLI.run(["replay", "--trace", "--format", "jsonl", spec], input: Self.lines(#"{"event": "go"}"#))
        #expect(json.stdout.contains(#""event": "pong", "timer": false, "sent": true, "payload": {"n": 7}"#), "\(json.stdout)")
    }

    /// Bad sends are refused with the position of what is wrong.
    @Test func badSendsAreRefused() throws {
        for (body, message) in [("send nothing", "unknown event 'nothing'"),
                                ("send ping(1)", "event 'ping' takes 0 arguments, found 1"),
                                ("send ping after \"soon\"", "a delay must be a 'Number' of seconds, found 'String'"),
                                ("cancel nothing", "unknown event 'nothing'")] {
            let spec = try AnalysisVerdictTests.spec("""
                machine M {
                    event ping
                    event go
                    initial state a {
                        on go { \(body) }
                    }
                }
                """)
            let r = try CLI.run(["check", spec])
            #expect(r.status != 0)
            #expect(r.stdout.contains(message) || r.stderr.contains(message), "\(body): \(r.stdout)\(r.stderr)")
        }
    }
}
