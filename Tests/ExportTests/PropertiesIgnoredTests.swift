import Statecraft
import Testing

/// Diagrams draw states and transitions: a spec's properties change neither.
@Suite struct PropertiesIgnoredTests {
    /// A spec with a timer, a guard, a payload and a parallel state, and the same spec with
    /// every form of property added at its end (so every earlier position stays the same).
    static let plain = """
        machine Player {
            const limit = 3
            var plays: Number = 0
            event play(speed: Number)
            event stop
            output started(speed: Number)

            initial parallel state deck {
                state transport {
                    initial state idle {
                        on play if plays < limit -> playing { plays += 1; emit started(speed) }
                    }
                    state playing {
                        on stop -> idle
                        after 30s -> idle
                    }
                }
                state volume {
                    initial state loud { on stop -> quiet }
                    state quiet { on play -> loud }
                }
            }

        """
    static let properties = """
            property quiet: never in(playing) && in(quiet) while plays > 0
            property counted: always plays <= limit
            property stops: after stop within 1s: in(idle)
            property times: after entering playing within 30s: in(idle) || in(playing)
            property order: in(playing) only after plays > 0
            property back: always reachable in(idle)

        """
    static var with: String { plain + properties + "}\n" }
    static var without: String { plain + "}\n" }

    @Test func diagramsAreTheSameWithProperties() throws {
        let with = try #require(Statecraft.check(source: Self.with, path: "p.machine", bounds: nil).machine)
        let without = try #require(Statecraft.check(source: Self.without, path: "p.machine", bounds: nil).machine)
        #expect(with.properties.count == 6)
        #expect(DOTWriter.write(with) == DOTWriter.write(without))
        #expect(MermaidWriter.write(with) == MermaidWriter.write(without))
    }
}
