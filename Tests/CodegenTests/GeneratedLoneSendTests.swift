@testable import StatecraftCodegen
import Testing

/// What `statecraft swift` writes in a statechart's `send` for an event at most one transition
/// can take (its transitions' states are never active together): the transition taken in
/// place, with the payload bound once. The differential tests hold it to the runtime; these
/// hold which events get that path and which keep the general one.
@Suite struct GeneratedLoneSendTests {
    static let spec = """
        machine Lone {
            var n: Number = 0
            event go(k: Number)
            event both
            event back
            event quiet
            initial parallel state p {
                state left {
                    initial state a {
                        on go if k > 1 -> b { n = k }
                        on go -> b
                        on both -> b
                    }
                    state b {
                        on back -> h
                    }
                    history state h
                }
                state right {
                    initial state c {
                        on both { n = 1 }
                    }
                }
            }
        }
        """

    static func send() throws -> String {
        let text = try GeneratedStepPlanTests.swift(spec)
        return try #require(GeneratedStepPlanTests.function("mutating func send(_ event: Event, emit:", in: text))
    }

    /// The lines of `send`'s case for `event`, up to the next event's case.
    static func caseLines(_ event: String, in body: String) -> String {
        let lines = body.split(separator: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("        case .\(event)") }) else { return "" }
        let end = lines[(start + 1)...].firstIndex(where: { $0.hasPrefix("        case .") || $0.hasPrefix("        default:") }) ?? lines.endIndex
        return lines[start..<end].joined(separator: "\n")
    }

    @Test func anEventOfOneStateIsTakenInPlaceWithItsPayloadBound() throws {
        let go = Self.caseLines("go", in: try Self.send())
        #expect(go.hasPrefix("        case .go(let k):"), "\(go)")
        // The first of a's transitions whose guard holds, as selection finds it.
        #expect(go.contains("if (k > 1) {\n                    taken = 0\n                // line 11: on go in a -> b\n                } else {\n                    taken = 1"), "\(go)")
        #expect(go.contains("transition0_go(k: k)"), "the actions get the bound payload: \(go)")
        #expect(go.contains("core.active = core.active & ~Bits(0x18)  // a, b"), "\(go)")
        #expect(!go.contains("select(") && !go.contains("chosen") && !go.contains("microstep("), "\(go)")
    }

    @Test func anEventNoTransitionTakesIsIgnoredAtOnce() throws {
        let quiet = Self.caseLines("quiet", in: try Self.send())
        #expect(quiet == "        case .quiet:\n            return .ignored", "\(quiet)")
    }

    @Test func eventsThatCanEnableTwoTransitionsOrReadHistoryKeepTheGeneralPath() throws {
        // both: a and c are in two regions of p, so both may be enabled at once; back: its
        // target is a history state, whose entries are known only when it is taken.
        let send = try Self.send()
        #expect(Self.caseLines("both", in: send).isEmpty, "\(send)")
        #expect(Self.caseLines("back", in: send).isEmpty, "\(send)")
        #expect(send.contains("        default:\n            break\n        }"), "\(send)")
        #expect(send.contains("selected = try select(event, &chosen)"), "\(send)")
    }

    @Test func alwaysTransitionsOfStatesNeverActiveTogetherAreTakenInPlace() throws {
        // x and y are siblings: one round finds at most one of their `always` transitions.
        let lone = """
            machine Flip {
                var lit: Bool = false
                event toggle
                initial state x {
                    on toggle { lit = !lit }
                    always if lit -> y
                }
                state y {
                    always if !lit -> x
                }
            }
            """
        let text = try GeneratedStepPlanTests.swift(lone)
        let loop = try #require(GeneratedStepPlanTests.function("func completeMacrostep(", in: text))
        #expect(!loop.contains("selectEventless(") && !loop.contains("microstep("), "\(loop)")
        // `lit` and `!lit` cannot both hold: each transition ends the phase (GeneratedChartPlanTests).
        #expect(loop.contains("if eventlessMayHold && !core.isFinished {"), "\(loop)")
        // In two regions of a parallel state both may be enabled in one round: the general loop.
        let regions = """
            machine Both {
                var lit: Bool = false
                event toggle
                initial parallel state p {
                    state r1 {
                        initial state x { on toggle { lit = !lit }
                            always if lit -> y }
                        state y
                    }
                    state r2 {
                        initial state u { always if lit -> v }
                        state v
                    }
                }
            }
            """
        let general = try #require(GeneratedStepPlanTests.function("func completeMacrostep(", in: try GeneratedStepPlanTests.swift(regions)))
        #expect(general.contains("guard try selectEventless(&chosen) else { break }"), "\(general)")
    }
}
