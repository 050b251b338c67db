import Foundation
import Statecraft
import Testing
import TestSupport

/// `check` on sends by name: what it proves holds against the runtime, and a send whose string
/// can only name no event is proven to fail every time.
@Suite struct SendByNameCheckTests {
    static let specs = [
        """
        machine Chooser {
            event reset as "watch.reset"
            event lap
            event digit as "DIGIT.*"
            event pick(name: String)
            event next
            var kind: String = "lap"
            var laps: Number = 0
            initial state running {
                on pick { kind = name }
                on next { send "\\(kind)" after 1s }
                on lap if laps < 2 { laps += 1 }
                on lap -> counted
                on reset -> stopped
            }
            state counted {
                on digit -> stopped
                on next { send "DIGIT.\\(laps)" }
            }
            final state stopped
        }
        """,
        """
        machine Fixed {
            event a
            event b
            event go
            var k: String = "a"
            initial state s {
                on go { send "\\(k)" }
                on a -> t { k = "b" }
            }
            state t {
                on go { send "\\(k)" }
                on b -> u
            }
            final state u
        }
        """,
    ]

    @Test func verdictsHoldAgainstTheRuntime() throws {
        let fixture = try String(contentsOf: Repository.root.appendingPathComponent("Tests/CheckerTests/Fixtures/send-by-name.machine"),
                                 encoding: .utf8)
        for (k, text) in (Self.specs + [fixture]).enumerated() {
            var tally = SoundnessTests.Tally()
            let findings = try #require(SoundnessTests.judge(text, seed: UInt64(k), tally: &tally), "\(text)")
            #expect(findings == [], "\(text)")
        }
    }

    @Test func aSendThatCanOnlyFailIsProvenToFail() {
        let result = Statecraft.check(source: """
            machine M {
                event go
                event lap
                var kind: String = "lapp"
                initial state s {
                    on go -> t { send "\\(kind)" }
                    on lap { kind = "la" + "pp" }
                }
                final state t
            }
            """)
        let messages = result.diagnostics.map { "\($0.id.rawValue): \($0.message)" }
        #expect(messages.contains("unreachable-state: state 't' is unreachable: every way into it fails at run time: "
                                  + "'send \"\\(kind)\"' (line 6) always fails"), "\(messages)")
        #expect(messages.contains("dead-transition: transition can never fire: its step fails at run time every time: "
                                  + "'send \"\\(kind)\"' (line 6) always fails"), "\(messages)")
    }
}
