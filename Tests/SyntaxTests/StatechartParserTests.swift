import StatecraftDiagnostics
import Testing
@testable import StatecraftSyntax

/// A transition as one line of text: `internal`, the trigger, the guard, the target and the
/// number of actions, so a table of cases reads like the source.
private func describe(_ t: TransitionDecl) -> String {
    var parts: [String] = []
    if t.isInternal { parts.append("internal") }
    switch t.trigger {
    case .events(let names): parts.append("on " + names.map(\.name).joined(separator: ","))
    case .after(let d): parts.append("after " + sexpr(d))
    case .done(let x): parts.append("done" + (x.map { "(\($0.name))" } ?? ""))
    case .always: parts.append("always")
    }
    if let g = t.guardExpr { parts.append("if " + sexpr(g)) }
    if let target = t.target { parts.append("-> " + target.name) }
    if let actions = t.actions { parts.append("{\(actions.actions.count)}") }
    return parts.joined(separator: " ")
}

/// The states of a machine by name, at any depth, in document order.
private func states(_ machine: MachineDecl?) -> [StateDecl] {
    var result: [StateDecl] = []
    func walk(_ s: StateDecl) {
        result.append(s)
        s.children.forEach(walk)
    }
    for case .state(let s) in machine?.members ?? [] { walk(s) }
    return result
}

private func state(_ name: String, in machine: MachineDecl?) -> StateDecl? {
    states(machine).first { $0.name.name == name }
}

@Suite struct StatechartParserTests {
    @Test(arguments: [
        ("done -> t", "done -> t"),
        ("done if ready -> t { x = 1 }", "done if ready -> t {1}"),
        ("done(inner) -> t", "done(inner) -> t"),
        ("done (inner) -> t", "done(inner) -> t"),
        ("done { emit finished }", "done {1}"),
        ("done", "done"),
        ("always -> t", "always -> t"),
        ("always if volume == 0 -> t { x = 1; y = 2 }", "always if (volume == 0) -> t {2}"),
        ("always { x += 1 }", "always {1}"),
        ("internal on seek -> buffering", "internal on seek -> buffering"),
        ("internal after 1s -> t", "internal after 1 -> t"),
        ("internal done -> t", "internal done -> t"),
        ("internal always if in(playing) -> t", "internal always if in(playing) -> t"),
        ("on done -> t", "on done -> t"),
        ("on done, always, history -> t", "on done,always,history -> t"),
        ("on internal -> done", "on internal -> done"),
        ("on x if done -> history", "on x if done -> history"),
    ])
    func transitionForms(source: String, expected: String) throws {
        let (machine, diagnostics) = parse("machine M {\n    state s {\n        \(source)\n    }\n}")
        #expect(diagnostics.map(\.message) == [])
        let s = try #require(state("s", in: machine))
        #expect(s.transitions.map(describe) == [expected])
    }

    @Test func theContractExampleParses() throws {
        let (machine, diagnostics) = parse("""
            machine Player {
                var volume: Number = 5
                event play
                event loaded(duration: Number)
                event tick
                initial state loading { on loaded if duration > 0 -> ready }
                state ready {
                    on interrupt -> interrupted
                    initial parallel state session {
                        state playback {
                            initial state paused { on play -> playing }
                            state playing { after 30s -> finished }
                            final state finished
                        }
                        state sound { initial state unmuted }
                        done(playback) -> idle { emit ended }
                    }
                    deep history state resumePoint
                }
                state interrupted { on resume -> resumePoint }
                state idle {
                    always if volume == 0 -> interrupted
                    on play -> ready { raise tick }
                }
            }
            """)
        #expect(diagnostics.map(\.message) == [])
        #expect(states(machine).map(\.name.name) == ["loading", "ready", "session", "playback", "paused", "playing",
                                                     "finished", "sound", "unmuted", "resumePoint", "interrupted", "idle"])
        let session = try #require(state("session", in: machine))
        #expect(session.modifiers.map(\.kind) == [.initial, .parallel])
        #expect(session.transitions.map(describe) == ["done(playback) -> idle {1}"])
        let history = try #require(state("resumePoint", in: machine))
        #expect(history.modifiers.map(\.kind) == [.deep, .history])
        #expect(history.historyDefaults.isEmpty)
        let idle = try #require(state("idle", in: machine))
        #expect(idle.transitions.map(describe) == ["always if (volume == 0) -> interrupted", "on play -> ready {1}"])
        guard case .raise(let event, let arguments, _)? = idle.transitions[1].actions?.actions.first else {
            Issue.record("no raise action")
            return
        }
        #expect(event.name == "tick" && arguments.isEmpty)
    }

    @Test func historyStates() throws {
        let (machine, diagnostics) = parse("""
            machine M {
                history state top
                state s {
                    initial state a
                    state b { initial state c }
                    history state h
                    deep history state d -> c
                    deep history state both -> a, c
                    history state withBody { entry { x = 1 } }
                }
            }
            """)
        #expect(diagnostics.map(\.message) == [])
        #expect(state("top", in: machine)?.modifiers.map(\.kind) == [.history])
        #expect(state("h", in: machine)?.modifiers.map(\.kind) == [.history])
        #expect(state("d", in: machine)?.modifiers.map(\.kind) == [.deep, .history])
        #expect(state("d", in: machine)?.historyDefaults.map(\.name) == ["c"])
        #expect(state("both", in: machine)?.historyDefaults.map(\.name) == ["a", "c"])
        #expect(state("withBody", in: machine)?.entry.count == 1)
        #expect(state("s", in: machine)?.children.map(\.name.name) == ["a", "b", "h", "d", "both", "withBody"])
    }

    /// `initial -> a { … }` and `history state h -> c { … }`: the block after the targets is
    /// the default entry's actions; a history state without a default still reads a body
    /// (which the resolver refuses), so the block needs the `->`.
    @Test func defaultEntriesCarryActions() throws {
        let (machine, diagnostics) = parse("""
            machine M {
                state s {
                    initial -> a { x = 1; emit shown }
                    state a
                    history state h -> a { raise back }
                    history state plain -> a
                    history state withBody { entry { x = 1 } }
                }
            }
            """)
        #expect(diagnostics.map(\.message) == [])
        #expect(state("s", in: machine)?.initialTargets.first?.actions?.actions.count == 2)
        #expect(state("h", in: machine)?.historyActions?.actions.count == 1)
        #expect(state("h", in: machine)?.historyDefaults.map(\.name) == ["a"])
        #expect(state("plain", in: machine)?.historyActions == nil)
        #expect(state("withBody", in: machine)?.historyActions == nil)
        #expect(state("withBody", in: machine)?.entry.count == 1)
        #expect(state("s", in: machine)?.children.map(\.name.name) == ["a", "h", "plain", "withBody"])
    }

    @Test func theContextualWordsRemainNames() throws {
        let (machine, diagnostics) = parse("""
            machine M {
                var in: Number = 0
                var raise: Number = 0
                var done: Bool = false
                event done
                event always(history: Number)
                event internal
                initial state history {
                    on done -> deep
                    on always if history > in -> done { raise = history; raise done }
                    on internal -> internal
                }
                state deep { state always }
                state done
                state internal
            }
            """)
        #expect(diagnostics.map(\.message) == [])
        #expect(states(machine).map(\.name.name) == ["history", "deep", "always", "done", "internal"])
        let history = try #require(state("history", in: machine))
        #expect(history.modifiers.map(\.kind) == [.initial])
        #expect(history.transitions.map(describe) == ["on done -> deep", "on always if (history > in) -> done {2}",
                                                      "on internal -> internal"])
        guard let actions = history.transitions[1].actions?.actions, actions.count == 2,
              case .assign(let target, _, _, _) = actions[0], case .raise(let event, _, _) = actions[1] else {
            Issue.record("expected an assignment to 'raise', then 'raise done'")
            return
        }
        #expect(target.name == "raise" && event.name == "done")
    }

    @Test func raiseWithArguments() throws {
        let (machine, diagnostics) = parse("""
            machine M {
                state s { entry { raise loaded(2 * x, "a") } }
            }
            """)
        #expect(diagnostics.isEmpty)
        guard case .raise(let event, let arguments, _)? = state("s", in: machine)?.entry.first?.block.actions.first else {
            Issue.record("no raise action")
            return
        }
        #expect(event.name == "loaded")
        #expect(arguments.map(sexpr) == ["(2 * x)", "\"a\""])
    }

    @Test func recoveryStopsAtContextualWords() throws {
        let (machine, diagnostics) = parse("""
            machine M {
                state s {
                    on a if -> ) t
                    done -> t
                    always -> t
                    history state h
                    internal on b -> t
                }
            }
            """)
        #expect(diagnostics.count == 1)
        let s = try #require(state("s", in: machine))
        #expect(s.transitions.map(describe).suffix(3) == ["done -> t", "always -> t", "internal on b -> t"])
        #expect(s.children.map(\.name.name) == ["h"])
    }

    @Test func misplacedWordsAreSyntaxErrors() {
        #expect(parse("machine M { state s { done = 1 } }").1.map(\.message)
            == ["expected 'on', 'after', 'done', 'always', 'entry', 'exit' or 'state' in state 's', found identifier 'done'"])
        #expect(parse("machine M { state s { done x } }").1.map(\.message)
            == ["expected '->' before the target state 'x'"])
        #expect(parse("machine M { state s { always idle } }").1.map(\.message)
            == ["expected '->' before the target state 'idle'"])
        #expect(parse("machine M { state s { done(a -> t } }").1.map(\.message)
            == ["expected ')' after the state name, found '->'"])
        #expect(parse("machine M { deep history h }").1.map(\.message)
            == ["expected 'state', found identifier 'h'"])
        #expect(parse("machine M { state s { internal state x } }").1.count == 1)
    }
}
