import Statecraft
import Testing

/// What `statecraft swift` writes for a statechart's microstep of one transition
/// (`takeAlone`): its exits and entries as constants when they do not depend on history, the
/// general `microstep` otherwise. The differential tests hold both to the runtime; these hold
/// the shape that makes the common case fast.
@Suite struct GeneratedChartStepTests {
    static let spec = """
        machine Shape {
            var n: Number = 0
            event go
            event back
            event poke
            initial parallel state both {
                state left {
                    initial state a {
                        exit { n = n + 1 }
                        on go -> b
                    }
                    state b {
                        on back -> h
                    }
                    history state h
                }
                state right {
                    initial state c {
                        entry { n = 2 }
                        on poke { n = 3 }
                    }
                }
            }
        }
        """

    static func takeAlone() throws -> String {
        let text = try GeneratedStepPlanTests.swift(spec)
        return try #require(GeneratedStepPlanTests.function("func takeAlone(", in: text))
    }

    /// The lines of `takeAlone`'s case for transition `t`, up to the next case.
    static func caseLines(_ t: Int, in body: String) -> [Substring] {
        let lines = body.split(separator: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("        case \(t):") }) else { return [] }
        let end = lines[(start + 1)...].firstIndex(where: { $0.hasPrefix("        case ") || $0.hasPrefix("        default:") }) ?? lines.endIndex
        return Array(lines[start..<end])
    }

    @Test func aTargetedTransitionClearsAndSetsConstantBitsAndRunsOnlyTheExitsWithWork() throws {
        // go: a -> b in left. Its domain is left: a and b leave the configuration, only a has
        // an exit action, and a, the source, is active for certain (no test); b is entered
        // with nothing to run.
        let go = Self.caseLines(0, in: try Self.takeAlone()).joined(separator: "\n")
        #expect(go.contains("on go in a -> b"), "\(go)")
        #expect(go.contains("try exit(3)  // a") && !go.contains("core.active.contains(3)"), "\(go)")
        #expect(go.contains("core.active = core.active & ~Bits(0x18)  // a, b"), "\(go)")
        #expect(go.contains("core.active = core.active | Bits(0x10)  // b"), "\(go)")
        #expect(!go.contains("enter("), "\(go)")
        #expect(!go.contains("transitionDomain") && !go.contains("entrySet"), "\(go)")
    }

    @Test func onlyStatesThatCanBeActiveBesideTheSourceAreExited() throws {
        // Every state of r1 arms a timer (exit work), but a transition from a can find only a
        // active in r1; x, in the other region of p, may be active beside it, so leaving p
        // tests it.
        let spec = """
            machine Exits {
                var n: Number = 0
                event next
                event leave
                initial state top {
                    initial parallel state p {
                        state r1 {
                            initial state a {
                                after 1s -> b
                                on next -> b
                                on leave -> q
                            }
                            state b { after 1s -> c }
                            state c { after 1s -> a }
                        }
                        state r2 {
                            initial state x { exit { n = 1 } }
                        }
                    }
                    state q
                }
            }
            """
        let text = try GeneratedStepPlanTests.swift(spec)
        let body = try #require(GeneratedStepPlanTests.function("func takeAlone(", in: text))
        let next = Self.caseLines(1, in: body).joined(separator: "\n")
        #expect(next.contains("on next in a -> b") && next.contains("exit(4)  // a"), "\(next)")
        #expect(!next.contains("exit(5)") && !next.contains("exit(6)") && !next.contains("core.active.contains("), "\(next)")
        let leave = Self.caseLines(2, in: body).joined(separator: "\n")
        #expect(leave.contains("if core.active.contains(8) { exit(8) }  // x"), "\(leave)")
        #expect(leave.contains("exit(4)  // a") && !leave.contains("exit(5)") && !leave.contains("exit(6)"), "\(leave)")
    }

    @Test func aTargetlessTransitionOnlyRunsItsActions() throws {
        let poke = Self.caseLines(2, in: try Self.takeAlone())
        #expect(poke.count == 2, "\(poke)")
        #expect(poke.last?.contains("runActions(2, event)") == true, "\(poke)")
    }

    @Test func selectionBindsNoFieldOfATransitionItNeverReaches() throws {
        // `on move if x > 0` is written after `on tick, move -> b`, which has no guard: selection
        // stops there, so `x` is not bound (a binding nobody reads is a warning, an error in an
        // app built with warnings as errors).
        let shadowed = """
            machine Shadowed {
                event tick
                event move(x: Number)
                initial parallel state p {
                    state left {
                        initial state a {
                            on tick, move -> b
                            on move if x > 0
                        }
                        state b
                    }
                    state right {
                        initial state c { on tick -> d }
                        state d
                    }
                }
            }
            """
        let text = try GeneratedStepPlanTests.swift(shadowed)
        let select = try #require(GeneratedStepPlanTests.function("func select(", in: text))
        #expect(select.contains("case .move:") && !select.contains("let x"), "\(select)")
    }

    @Test func aHistoryTargetIsLeftToTheGeneralMicrostep() throws {
        // back -> h depends on what h recorded: no case of its own, so takeAlone returns false.
        let body = try Self.takeAlone()
        #expect(Self.caseLines(1, in: body).isEmpty, "\(body)")
        #expect(body.contains("default:\n            return false"), "\(body)")
        let text = try GeneratedStepPlanTests.swift(Self.spec)
        #expect(text.contains("if chosen.count == 1, try takeAlone(chosen[0], event) { return }"))
        #expect(text.contains("try enterStates(entrySet(chosen))"), "the general path stays")
    }

    @Test func theStartEntersItsConfigurationInDocumentOrderAndRunsOnce() throws {
        // c's entry action runs after every state before it has joined the configuration.
        let text = try GeneratedStepPlanTests.swift(Self.spec)
        let start = try #require(GeneratedStepPlanTests.function("func startMachine(", in: text))
        #expect(start.contains("core.active = core.active | Bits(0xCE)  // both, left, a, right, c"), "\(start)")
        #expect(start.contains("enter(7)  // c"), "\(start)")
        #expect(text.contains("self = Self.started.machine"), "init copies the one start")
    }
}
