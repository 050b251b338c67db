import Foundation
import Statecraft
import Testing
import TestSupport

/// The model the resolver builds for the statechart forms, looked at directly (the
/// analyses do not follow parallel states, `done` and `always` yet, so a fixture would
/// mix their findings in).
@Suite struct StatechartResolutionTests {
    /// Parses and resolves; the machine and the ids of what was reported, in source order.
    static func resolve(_ text: String) -> (machine: Machine?, ids: [String]) {
        let file = SourceFile(path: "t.machine", text: text)
        let (syntax, parsed) = Parser.parse(file)
        let resolution = Resolver.resolve(syntax, in: file)
        let all = (parsed.diagnostics + resolution.diagnostics.diagnostics).sorted { $0.range.start < $1.range.start }
        return (resolution.machine, all.map(\.id.rawValue))
    }

    static let player = """
        machine Player {
            var volume: Number = 5
            event play
            event pause
            event interrupt
            event resume
            event mute
            event unmute
            event loaded(duration: Number)
            event tick
            output ended

            initial state loading {
                on loaded if duration > 0 -> ready
            }

            state ready {
                on interrupt -> interrupted
                initial parallel state session {
                    state playback {
                        initial state paused { on play -> playing }
                        state playing {
                            on pause -> paused
                            after 30s -> finished
                        }
                        final state finished
                    }
                    state sound {
                        initial state unmuted { on mute -> muted }
                        state muted { on unmute -> unmuted }
                    }
                    done(playback) -> idle { emit ended }
                }
                deep history state resumePoint
            }

            state interrupted {
                on resume -> resumePoint
                internal on tick -> interrupted
            }

            state idle {
                always if volume == 0 && !in(playing) -> interrupted
                on play -> ready { raise tick }
                done -> idle
            }
        }
        """

    @Test func theContractExampleResolves() throws {
        let (resolved, ids) = Self.resolve(Self.player)
        #expect(ids == ["never-completes"])  // `done` in the atomic `idle`, added above
        let m = try #require(resolved)
        func id(_ name: String) -> StateID? { m.states.first { $0.name == name }?.id }
        // Document order: a parent before its children.
        #expect(m.states.map(\.name) == ["Player", "loading", "ready", "session", "playback", "paused", "playing",
                                        "finished", "sound", "unmuted", "muted", "resumePoint", "interrupted", "idle"])
        #expect(m.states.dropFirst().allSatisfy { s in s.parent.map { $0 < s.id } ?? false })
        let kinds = m.states.map { "\($0.name):\($0.kind.rawValue)" }
        #expect(kinds.contains("ready:compound") && kinds.contains("session:parallel")
            && kinds.contains("playback:compound") && kinds.contains("finished:final")
            && kinds.contains("resumePoint:history") && kinds.contains("loading:atomic"))
        let ready = try #require(id("ready"))
        let session = try #require(id("session"))
        #expect(m[ready].initialChild == session)
        #expect(m[session].initialChild == nil)
        #expect(m[try #require(id("playback"))].initialChild == id("paused"))
        let history = try #require(id("resumePoint"))
        #expect(m[history].isDeepHistory && m[history].historyDefaults.isEmpty && m[history].parent == ready)
        #expect(m.childStates(ready) == [session] && m.historyStates(ready) == [history])

        let completion = try #require(m.transitions.first { $0.source == session })
        #expect(completion.trigger == .done(try #require(id("playback"))))
        #expect(completion.target == id("idle"))
        let idle = try #require(id("idle"))
        let idleTransitions = m[idle].transitions.map { m[$0] }
        #expect(idleTransitions.map(\.trigger) == [.always, .events([EventID(0)]), .done(idle)])
        guard case .binary(.and, _, let right)? = idleTransitions[0].guardExpr?.kind,
              case .unary(.not, let inner) = right.kind else {
            Issue.record("unexpected guard")
            return
        }
        #expect(inner.kind == .inState(try #require(id("playing"))) && inner.type == .bool)
        guard case .raise(let event, let arguments, _)? = idleTransitions[1].actions.first else {
            Issue.record("no raise")
            return
        }
        #expect(m[event].name == "tick" && arguments.isEmpty)
        let interrupted = try #require(id("interrupted"))
        #expect(m[interrupted].transitions.map { m[$0].isInternal } == [false, true])
        #expect(m[interrupted].transitions.first.map { m[$0].target } == history)
    }

    /// `deep history state h -> a, b`: the defaults are kept in order, one per region; two
    /// that cannot be active together are refused at the second, naming both.
    @Test func historyDefaultsInSeveralRegions() throws {
        let (machine, ids) = Self.resolve("""
            machine M {
                event go
                initial parallel state p {
                    state r1 { initial state a { on go -> b }\n state b }
                    state r2 { initial state c { on go -> d }\n state d }
                    deep history state h -> b, d
                }
            }
            """)
        #expect(ids == [])
        let m = try #require(machine)
        let h = try #require(m.states.first { $0.name == "h" })
        #expect(h.historyDefaults.map { m[$0].name } == ["b", "d"])
        #expect(m.historyDefaultTargets(h.id).map { m[$0].name } == ["b", "d"])

        let file = SourceFile(path: "t.machine", text: """
            machine M {
                initial parallel state p {
                    state r1 { initial state a\n state b }
                    state r2
                    deep history state h -> a, b
                }
            }
            """)
        let d = Resolver.resolve(Parser.parse(file).machine, in: file).diagnostics.diagnostics
        #expect(d.map(\.id) == [.invalidHistoryState])
        #expect(d.first?.message == "the defaults of history state 'h' cannot be 'a' and 'b': they cannot be active together "
                + "(only states in different regions of a parallel state can)")
        #expect(d.first.map { file.location(of: $0.range.start).column } == 36)
    }

    @Test func aDuplicateStateAtAnotherDepthIsReportedWithANote() {
        let file = SourceFile(path: "t.machine", text: """
            machine M {
                event go
                initial state a {
                    initial state b { on go -> a }
                }
                state c { initial state b }
            }
            """)
        let resolution = Resolver.resolve(Parser.parse(file).machine, in: file)
        let d = resolution.diagnostics.diagnostics
        #expect(d.map(\.id) == [.duplicateDeclaration])
        #expect(d.first?.message == "state 'b' is already declared")
        #expect(d.first?.notes.map { file.location(of: $0.range?.start ?? 0).line } == [4])
    }

    @Test(arguments: [
        // A compound state's initial child; the first child stands in when none is marked.
        ("state s { state a\n state b }", ["no-initial-state"]),
        ("state s { initial state a\n initial state b }", ["multiple-initial-states"]),
        ("state s { history state h\n initial state a }", []),
        ("parallel state p { initial state a\n state b }", ["initial-in-parallel"]),
        ("parallel state p { state a }", ["single-region"]),
        ("state s { initial state a { on go -> f }\n final state f { entry { }\n exit { } } }", []),
        ("final state f { exit { } }", ["final-state-transition"]),
        ("state s { initial state a { on go -> f }\n final state f { on go -> a } }", ["final-state-transition"]),
        ("state s { initial state a\n history state h -> a }", []),
        ("state s { initial state a { state deep } \n history state h -> deep }", []),
        // A sole child needs no mark; several do.
        ("state s { state only }", []),
        ("state s { state only\n history state h }", []),
        ("state s { initial state a\n history state h -> h }", ["invalid-history-state"]),
        // Several defaults: one state per region of a parallel state (issue 35).
        ("parallel state p { state r1 { initial state a\n state b }\n state r2 { initial state c\n state d }\n"
            + " deep history state h -> b, d }", []),
        ("state s { initial parallel state p { state r1 { initial state a\n state b }\n state r2 }\n"
            + " history state h -> b, r2 }", []),
        ("parallel state p { state r1 { initial state a\n state b }\n state r2\n deep history state h -> a, b }",
         ["invalid-history-state"]),
        ("parallel state p { state r1 { initial state a\n state b }\n state r2\n deep history state h -> b, b }",
         ["invalid-history-state"]),
        ("parallel state p { state r1 { initial state a\n state b }\n state r2\n deep history state h -> b, r1 }",
         ["invalid-history-state"]),
        ("parallel state p { state r1 { initial state a\n state b }\n state r2\n deep history state h -> b, top }",
         ["history-default-outside"]),
        ("parallel state p { state r1 { initial state a\n state b }\n state r2\n deep history state h -> b, nope }",
         ["unknown-state"]),
        ("state s { initial state a }\n state t { initial state b\n history state h -> a }", ["history-default-outside"]),
        ("state s { initial state a\n history state h -> t }\n state t", ["history-default-outside"]),
        ("state s { initial state a { always if in(s) -> a } }", []),
        ("state s { initial state a { always if in(q) -> a } }", ["unknown-state"]),
        ("state s { initial state a { on go if in(1) -> a } }", ["type-mismatch"]),
        ("state s { initial state a { on go if in(a, s) -> a } }", ["argument-count"]),
        ("state s { initial state a { done(q) -> s } }", ["unknown-state"]),
        ("state s { initial state a { always if true -> s } }", ["eventless-cycle"]),
        ("state s { initial state a { always if false -> s } }", []),
        // A refusal must be certain (issue 35): a targetless `always` is taken forever only
        // when nothing selected before it, or alongside it, may leave.
        ("state s { initial state a { always -> top\n always } }", []),
        ("state s { initial state a { always if in(top) -> top\n always } }", []),
        ("state s { initial state a { always if false -> top\n always } }", ["eventless-cycle"]),
        ("state s { always\n initial state a { always if in(top) -> top } }", []),
        ("parallel state p { state r1 { always }\n state r2 { initial state b { always if in(top) -> top } } }", []),
        ("parallel state p { state r1 { always }\n state r2 { initial state b { always if in(top) -> c }\n state c } }",
         ["eventless-cycle"]),
        ("parallel state p { always if in(top) -> top\n state r1 { always }\n state r2 }", []),
        ("parallel state p { state r1 { initial state a { always -> b }\n state b { always -> a } }\n"
            + " state r2 { initial state c { always if in(top) -> top } } }", []),
        ("parallel state p { state r1 { initial state a { always -> b }\n state b { always -> a } }\n"
            + " state r2 { initial state c { always if in(top) -> d }\n state d } }", ["eventless-cycle"]),
        ("state s { initial state a { on go { raise go } } }", []),
        // Actions on a default entry (issue 35): a state's `initial ->` and a history default
        // may have them, and they see no payload; the machine's own `initial ->` may not.
        ("state s { initial -> a { raise go }\n state a\n history state h -> a { raise go } }", []),
        ("state s { initial -> a { x = 1 }\n state a }", ["unknown-name"]),
    ])
    func structureRules(body: String, expected: [String]) {
        let (_, ids) = Self.resolve("machine M {\n event go\n initial state top\n \(body)\n}")
        #expect(ids == expected, "\(body)")
    }

    /// The machine's own `initial ->` is taken once, at the start, and has no actions.
    @Test func theMachinesInitialTargetsTakeNoActions() {
        let (_, ids) = Self.resolve("machine M {\n event go\n initial -> a { raise go }\n state a { on go -> a }\n}")
        #expect(ids == ["invalid-initial-target"])
    }

    /// A sole child is where its parent starts, marked or not, the machine's own included
    /// (SCXML's default is the first child).
    @Test func aSoleChildNeedsNoInitialMark() throws {
        let (machine, ids) = Self.resolve("""
            machine M {
                event go
                state app {
                    state shell {
                        initial state feed { on go -> detail }
                        state detail { on go -> feed }
                    }
                }
            }
            """)
        #expect(ids == [])
        let m = try #require(machine)
        #expect(m.initialConfiguration.names(in: m) == ["app", "shell", "feed"])
    }

    /// The example that opens the Statecharts article, which shows every form, resolves
    /// and has a parallel state (the documentation tests check that it is clean).
    @Test func theStatechartsArticleExampleResolves() throws {
        let fence = "```statecraft\n"
        let article = try String(contentsOf: Repository.root.appendingPathComponent(
            "Sources/Statecraft/Statecraft.docc/Statecharts.md"), encoding: .utf8)
        let start = try #require(article.range(of: fence + "machine Player {"))
        let end = try #require(article.range(of: "\n```", range: start.upperBound..<article.endIndex))
        let text = String(article[article.index(start.lowerBound, offsetBy: fence.count)..<end.lowerBound])
        let (machine, ids) = Self.resolve(text)
        #expect(ids == [])
        #expect(machine?.states.contains { $0.kind == .parallel } == true)
    }

    @Test func inIsNotConstant() {
        #expect(Self.resolve("machine M {\n var v: Bool = in(s)\n initial state s\n}").ids == ["non-constant-value"])
    }

    @Test func statesCalledLikeTheContextualWordsResolve() throws {
        let (resolved, ids) = Self.resolve("""
            machine M {
                event done
                event history
                initial state history {
                    on done -> done
                    on history if in(done) -> always
                }
                state done { initial state always }
            }
            """)
        #expect(ids == [])
        let m = try #require(resolved)
        #expect(m.transitions.map(\.trigger) == [.events([EventID(0)]), .events([EventID(1)])])
    }
}
