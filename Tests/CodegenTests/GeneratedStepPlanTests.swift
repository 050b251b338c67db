import Statecraft
import Testing

/// What `statecraft swift` decides about each step when it writes a flat machine
/// (`FlatMachineWriter`'s `StepPlan`): which transitions throw, which copy `core` to put it
/// back, which exits are calls and which a walk up the active states. The differential tests
/// hold the generated types to the runtime; these hold the shape that makes them fast.
@Suite struct GeneratedStepPlanTests {
    static func swift(_ spec: String) throws -> String {
        let program = try Program(specText: spec, path: "plan.machine")
        return try SwiftGenerator.generate(program.machine, options: .init(specName: "plan.machine", fingerprint: "0"))
    }

    /// The text of the function whose declaration contains `declaration`, up to its closing
    /// brace (the first line with the declaration's indentation and `}`).
    static func function(_ declaration: String, in text: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.contains(declaration) }) else { return nil }
        let indent = lines[start].prefix { $0 == " " }
        guard let end = lines[start...].firstIndex(where: { $0 == indent + "}" }) else { return nil }
        return lines[start...end].joined(separator: "\n")
    }

    static let spec = """
        machine Plan {
            var n: Number = 0
            var m: Number = 0
            event go(x: Number)
            event set
            event early(x: Number)
            event late(x: Number)
            event leave
            initial state p {
                on leave -> q
                initial state a {
                    exit { m = 1 }
                    on set { n = 1 }
                    on early { n = x + 1; m = 2 }
                    on late { m = 2; n = x + 1 }
                    on go -> b
                }
                state b {}
            }
            state q {
                on go -> p
            }
        }
        """

    @Test func aTransitionInWhichNothingCanFailDoesNotThrow() throws {
        let text = try Self.swift(Self.spec)
        let set = try #require(Self.function("func transition1_set(", in: text))
        #expect(set.contains("func transition1_set() {"), "\(set)")
        #expect(text.contains("transition1_set()\n") && !text.contains("try transition1_set()"), "called without try")
    }

    @Test func aFailureBeforeAnyChangeThrowsWithoutACopy() throws {
        let early = try #require(Self.function("func transition2_early(", in: try Self.swift(Self.spec)))
        #expect(early.contains("throws(Failure)"))
        #expect(!early.contains("before"), "\(early)")
    }

    @Test func aFailureAfterAChangeCopiesCoreAndPutsItBack() throws {
        let late = try #require(Self.function("func transition3_late(", in: try Self.swift(Self.spec)))
        #expect(late.contains("let before = core"), "\(late)")
        #expect(late.contains("core = before"), "\(late)")
    }

    @Test func sendDoesNotCopyCore() throws {
        let send = try #require(Self.function("func send(_ event: Event, emit:", in: try Self.swift(Self.spec)))
        #expect(!send.contains("before"), "\(send)")
    }

    @Test func exitsWithoutActionsAreNoCallsAndTheLeafIsSetOnce() throws {
        // q has no exit actions: going back into p calls nothing to exit, and sets the leaf
        // (p's initial child) once.
        let back = try #require(Self.function("func transition5_go(", in: try Self.swift(Self.spec)))
        #expect(!back.contains("exit("), "\(back)")
        #expect(!back.contains("exitStates"), "\(back)")
        #expect(back.components(separatedBy: "core.state = ").count == 2, "\(back)")
        #expect(back.contains("core.state = .a"), "\(back)")
    }

    @Test func exitsKnownForTheSourceAreCalledByName() throws {
        // From a, the only leaf that takes `go` to b: a's exit, by name.
        let go = try #require(Self.function("func transition4_go(", in: try Self.swift(Self.spec)))
        #expect(go.contains("exit(.a)"), "\(go)")
        #expect(!go.contains("exitStates"), "\(go)")
    }

    @Test func exitsThatDifferFromLeafToLeafWalkUpTheActiveStates() throws {
        // `leave` is p's: from a it runs a's exit, from b nothing.
        let text = try Self.swift(Self.spec)
        let leave = try #require(Self.function("func transition0_leave(", in: text))
        #expect(leave.contains("exitStates(upTo: nil)"), "\(leave)")
        #expect(text.contains("private mutating func exitStates(upTo domain: State?)"))
    }
}
