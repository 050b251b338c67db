import Foundation
import Testing
import TestSupport

/// One test per rule of the Semantics article's "Statecharts", each a spec and an event log replayed
/// through the `statecraft` executable, as a user would. The logs carry the expectations
/// (a `trail` string variable pins the order in which actions ran), so a test passes exactly
/// when `replay --strict` exits 0.
@Suite struct StatechartSemanticsTests {
    /// Replays `log` against `spec` under `--strict`; returns the output when it fails.
    static func replay(_ spec: String, _ log: String, strict: Bool = true) throws -> CLI.Result {
        let path = try AnalysisVerdictTests.spec(spec)
        return try CLI.run(["replay"] + (strict ? ["--strict"] : []) + [path], input: log)
    }

    static func expectPasses(_ spec: String, _ log: String, strict: Bool = true,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try replay(spec, log, strict: strict)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)", sourceLocation: sourceLocation)
    }

    static func lines(_ lines: String...) -> String { lines.joined(separator: "\n") + "\n" }

    /// "Selection: … Descendants win over ancestors."
    @Test func aDescendantsTransitionBeatsItsAncestors() throws {
        try Self.expectPasses("""
            machine M {
                public var trail: String = ""
                event tap
                initial state outer {
                    on tap -> other { trail = trail + "outer;" }
                    initial state inner {
                        on tap -> sibling { trail = trail + "inner;" }
                    }
                    state sibling
                }
                state other
            }
            """, Self.lines(#"{"event": "tap"}"#,
                            #"{"expect": {"state": ["outer", "sibling"], "vars": {"trail": "inner;"}}}"#,
                            #"{"event": "tap"}"#,
                            #"{"expect": {"state": "other", "vars": {"trail": "inner;outer;"}}}"#))
    }

    /// "Within a parallel state, transitions chosen in different regions all fire in one
    /// microstep" — in document order, exits last region first, entries first region first.
    @Test func twoRegionsFireOnOneEvent() throws {
        try Self.expectPasses("""
            machine M {
                public var trail: String = ""
                event go
                initial parallel state both {
                    state left {
                        initial state l1 { exit { trail = trail + "-l1" } on go -> l2 { trail = trail + "/L" } }
                        state l2 { entry { trail = trail + "+l2" } }
                    }
                    state right {
                        initial state r1 { exit { trail = trail + "-r1" } on go -> r2 { trail = trail + "/R" } }
                        state r2 { entry { trail = trail + "+r2" } }
                    }
                }
            }
            """, Self.lines(#"{"event": "go"}"#,
                            #"{"expect": {"state": ["l2", "r2"], "vars": {"trail": "-r1-l1/L/R+l2+r2"}}}"#))
    }

    /// "When two overlap, … the later-found one preempts the earlier only if its source is a
    /// descendant of the earlier one's source; otherwise the one found first in document
    /// order wins."
    @Test func conflictingTransitionsAcrossRegions() throws {
        try Self.expectPasses("""
            machine M {
                public var trail: String = ""
                event go
                initial parallel state both {
                    state left {
                        initial state l1 { on go -> away { trail = trail + "left;" } }
                    }
                    state right {
                        initial state r1 { on go -> r2 { trail = trail + "right;" } }
                        state r2
                    }
                }
                state away
            }
            """, Self.lines(#"{"event": "go"}"#,
                            #"{"expect": {"state": "away", "vars": {"trail": "left;"}}}"#))
        // The later-found transition wins when its source lies inside the earlier one's:
        // `l1` takes nothing, so the first found is `both`'s; `r1`'s, found next, is inside it.
        try Self.expectPasses("""
            machine M {
                public var trail: String = ""
                event go
                initial parallel state both {
                    state left {
                        initial state l1
                    }
                    state right {
                        initial state r1 { on go -> r2 { trail = trail + "right;" } }
                        state r2
                    }
                    on go -> away { trail = trail + "both;" }
                }
                state away
            }
            """, Self.lines(#"{"event": "go"}"#,
                            #"{"expect": {"state": ["l1", "r2"], "vars": {"trail": "right;"}}}"#))
    }

    /// "A transition whose target is a descendant of its own state is external by default
    /// … The language also has a way to write it internal."
    @Test func externalAndInternalTransitionsToADescendant() throws {
        let spec = """
            machine M {
                public var trail: String = ""
                event ext
                event int
                initial state parent {
                    entry { trail = trail + "+parent" }
                    exit { trail = trail + "-parent" }
                    on ext -> b
                    internal on int -> b
                    initial state a { entry { trail = trail + "+a" } exit { trail = trail + "-a" } }
                    state b { entry { trail = trail + "+b" } exit { trail = trail + "-b" } }
                }
            }
            """
        try Self.expectPasses(spec, Self.lines(#"{"expect": {"vars": {"trail": "+parent+a"}}}"#,
                                               #"{"event": "ext"}"#,
                                               #"{"expect": {"state": "b", "vars": {"trail": "+parent+a-a-parent+parent+b"}}}"#))
        try Self.expectPasses(spec, Self.lines(#"{"event": "int"}"#,
                                               #"{"expect": {"state": "b", "vars": {"trail": "+parent+a-a+b"}}}"#))
    }

    static let historySpec = """
        machine M {
            event go
            event leave
            event back
            event backDeep
            event backDefault
            initial state away {
                on back -> shallow
                on backDeep -> deep
                on backDefault -> fresh
            }
            state player {
                on leave -> away
                initial state stopped { on go -> running }
                state running {
                    initial state slow { on go -> fast }
                    state fast
                }
                history state shallow
                deep history state deep
            }
            state other {
                initial state o1 { on go -> o2 }
                state o2
                history state fresh -> o2
                on leave -> away
            }
        }
        """

    /// "A transition to `h` enters the child of `s` (shallow) or the whole active descendant
    /// configuration of `s` (deep) that was active when `s` was last exited."
    @Test func shallowAndDeepHistory() throws {
        try Self.expectPasses(Self.historySpec, Self.lines(
            #"{"event": "back"}"#, #"{"event": "go"}"#, #"{"event": "go"}"#, #"{"expect": "fast"}"#,
            #"{"event": "leave"}"#, #"{"event": "back"}"#,
            #"{"expect": {"state": ["running", "slow"]}}"#,
            #"{"event": "go"}"#, #"{"event": "leave"}"#, #"{"event": "backDeep"}"#,
            #"{"expect": {"state": ["running", "fast"]}}"#))
    }

    /// "… if s was never exited, its default" — the parent's initial configuration, or the
    /// default written after `->`.
    @Test func historyDefaults() throws {
        try Self.expectPasses(Self.historySpec, Self.lines(
            #"{"event": "back"}"#, #"{"expect": "stopped"}"#,
            #"{"event": "leave"}"#, #"{"event": "backDeep"}"#, #"{"expect": "stopped"}"#,
            #"{"event": "leave"}"#, #"{"event": "backDefault"}"#, #"{"expect": "o2"}"#))
    }

    /// "entering `f` completes `s` (SCXML `done.state.s`). A parallel state completes when
    /// every region has completed."
    @Test func completionOfACompoundAndOfAParallelState() throws {
        try Self.expectPasses("""
            machine M {
                public var trail: String = ""
                event a
                event b
                initial parallel state work {
                    state upload {
                        initial state sending { on a -> sent }
                        final state sent
                        done { trail = trail + "upload;" }
                    }
                    state scan {
                        initial state scanning { on b -> scanned }
                        final state scanned
                    }
                    done(scan) { trail = trail + "scan;" }
                    done -> finished { trail = trail + "work;" }
                }
                state finished
            }
            """, Self.lines(#"{"event": "a"}"#,
                            #"{"expect": {"state": ["sent", "scanning"], "vars": {"trail": "upload;"}}}"#,
                            #"{"event": "b"}"#,
                            #"{"expect": {"state": "finished", "vars": {"trail": "upload;scan;work;"}}}"#))
    }

    /// "`raise e` … is handled after the current step, before any later line or timer."
    @Test func aRaisedEventIsHandledBeforeTheNextLine() throws {
        try Self.expectPasses("""
            machine M {
                public var trail: String = ""
                event go
                event ping(n: Number)
                initial state idle {
                    on go -> busy { raise ping(2); trail = trail + "go;" }
                    on ping -> idle { trail = trail + "idle-ping;" }
                }
                state busy {
                    entry { trail = trail + "busy;" }
                    on ping if n == 2 -> done { trail = trail + "ping \\(n);" }
                    after 0s -> idle
                }
                state done
            }
            """, Self.lines(#"{"event": "go"}"#,
                            #"{"expect": {"state": "done", "vars": {"trail": "go;busy;ping 2;"}}}"#))
    }

    /// "then repeatedly take enabled eventless transitions" — a chain settles in one step,
    /// at the start too.
    @Test func anAlwaysChainSettlesInOneStep() throws {
        try Self.expectPasses("""
            machine M {
                public var count: Number = 0
                public var trail: String = ""
                event go
                initial state a {
                    always if count < 2 -> b { count += 1; trail = trail + "ab;" }
                }
                state b { always -> c { trail = trail + "bc;" } }
                state c {
                    always if count >= 2 -> d { trail = trail + "cd;" }
                    always -> a { trail = trail + "ca;" }
                }
                state d { on go -> a { count = 0 } }
            }
            """, Self.lines(#"{"expect": {"state": "d", "vars": {"count": 2, "trail": "ab;bc;ca;ab;bc;cd;"}}}"#,
                            #"{"event": "go"}"#,
                            #"{"expect": {"state": "d", "vars": {"count": 2}}}"#))
    }

    /// "A failure inside any microstep … rejects the whole macrostep: the configuration,
    /// variables, history, timers and internal queue are restored … and no output of the
    /// macrostep is emitted."
    @Test func aFailureInTheThirdMicrostepUndoesTheWholeStep() throws {
        let spec = """
            machine M {
                public var n: Number = 1
                public var zero: Number = 0
                event go
                output left
                initial state a {
                    on go -> b { n = 2; emit left }
                    after 5s -> a
                }
                state b { always -> c { n = 3 } }
                state c { always -> d { n = n / zero } }
                state d
            }
            """
        let r = try Self.replay(spec, Self.lines(#"{"event": "go"}"#,
                                                 #"{"expect": {"state": "a", "vars": {"n": 1}, "outputs": []}}"#))
        #expect(r.status == 1)
        #expect(r.stdout.contains("division by zero (3 / 0)"), "\(r.stdout)")
        #expect(r.stdout.contains("expectations  1 checked, 0 failed"), "\(r.stdout)")
    }

    /// "A macrostep that takes more than 10,000 microsteps (an eventless or raise loop) is
    /// stopped and reported as a rejected step."
    @Test func loopsThatNeverSettleAreRejectedSteps() throws {
        let r = try Self.replay("""
            machine M {
                public var n: Number = 0
                event go
                event ping
                event pong
                initial state idle { on go -> left }
                state left { entry { raise ping }; on ping -> right { raise pong } }
                state right { on pong -> left }
            }
            """, Self.lines(#"{"event": "go"}"#, #"{"expect": "idle"}"#))
        #expect(r.status == 1)
        #expect(r.stdout.contains("more than 10000 microsteps"), "\(r.stdout)")
        #expect(r.stdout.contains("expectations  1 checked, 0 failed"), "\(r.stdout)")
    }

    /// "A completion event is queued on the internal queue at the moment its final state is
    /// entered (after that state's entry actions), so it takes its place among events raised
    /// by entry actions in that same order."
    @Test func completionTakesItsPlaceAmongRaisedEvents() throws {
        try Self.expectPasses("""
            machine M {
                public var trail: String = ""
                event go
                event early
                event late
                initial state job {
                    initial state working { on go -> finished }
                    final state finished { entry { raise early } }
                    on early { trail = trail + "early;" }
                    done { trail = trail + "done;"; raise late }
                    on late { trail = trail + "late;" }
                }
            }
            """, Self.lines(#"{"event": "go"}"#, #"{"expect": {"vars": {"trail": "early;done;late;"}}}"#))
    }

    /// "`in(x)`: x is active now", and timers at any depth are cancelled when their state is
    /// exited.
    @Test func inAndTimersAtDepth() throws {
        try Self.expectPasses("""
            machine M {
                event toggle
                event check
                output lit
                initial parallel state device {
                    state power {
                        initial state off { on toggle -> running }
                        state running {
                            initial state warming { after 2s -> hot }
                            state hot
                            on toggle -> off
                        }
                    }
                    state panel {
                        initial state idle { on check if in(hot) { emit lit } }
                    }
                }
            }
            """, Self.lines(#"{"event": "toggle"}"#, #"{"time": 1, "event": "toggle"}"#,
                            #"{"time": 5, "expect": {"state": ["off", "idle"]}}"#,
                            #"{"event": "toggle"}"#, #"{"time": 7, "event": "check"}"#,
                            #"{"expect": {"state": ["hot", "idle"], "outputs": ["lit"]}}"#))
    }

    /// Bad input: an `always` loop whose guard never stops holding is a rejected step that
    /// names the loop, not a hang.
    @Test func anEventlessLoopThatNeverSettlesIsRejected() throws {
        let r = try Self.replay("""
            machine M {
                public var n: Number = 0
                event go
                initial state a { on go -> b }
                state b { always if n >= 0 -> c { n += 1 } }
                state c { always if n >= 0 -> b { n += 1 } }
            }
            """, Self.lines(#"{"event": "go"}"#, #"{"expect": {"state": "a", "vars": {"n": 0}}}"#))
        #expect(r.status == 1)
        #expect(r.stdout.contains("event 'go' was rejected: more than 10000 microsteps without settling"), "\(r.stdout)")
        #expect(r.stdout.contains("spec.machine:6:15: note: the failing expression in the spec"), "\(r.stdout)")
        #expect(r.stdout.contains("expectations  1 checked, 0 failed"), "\(r.stdout)")
    }

    /// Bad input: ten thousand nested states are one diagnostic at the first level too deep,
    /// at once, not a crash or a stack overflow.
    @Test func tenThousandNestedStatesAreOneDiagnostic() throws {
        var text = "machine Deep {\n    event go\n"
        for k in 0..<10_000 { text += "initial state s\(k) {\n" }
        text += "on go -> s0\n" + String(repeating: "}\n", count: 10_000) + "}\n"
        let path = try AnalysisVerdictTests.spec(text)
        let r = try CLI.launch(["check", path])
        #expect(r.status == 1)
        #expect(r.exitedNormally)
        #expect(r.stdout.contains("error: nesting is too deep; at most 64 levels are allowed [nesting-too-deep]"), "\(r.stdout.prefix(500))")
        #expect(r.stdout.contains("checked 1 file: 1 error, 0 warnings"))
    }

    /// A step that failed while entering a state leaves that state inactive: `in(b)` after it
    /// is false. (The random charts found it: the rollback restored the configuration list,
    /// but not the flag of a state entered and not yet listed.)
    @Test func aStateWhoseEntryFailedIsNotActive() throws {
        let r = try Self.replay("""
            machine M {
                public var zero: Number = 0
                public var n: Number = 0
                event go
                event check
                output yes
                initial state a {
                    on go -> b
                    on check if in(b) { emit yes }
                }
                state b { entry { n = 1 / zero } }
            }
            """, Self.lines(#"{"event": "go"}"#, #"{"event": "check"}"#,
                            #"{"expect": {"state": "a", "vars": {"n": 0}, "outputs": []}}"#), strict: false)
        #expect(r.status == 1, "the failed entry is a rejected step")
        #expect(r.stdout.contains("expectations  1 checked, 0 failed"), "\(r.stdout)")
    }
}
