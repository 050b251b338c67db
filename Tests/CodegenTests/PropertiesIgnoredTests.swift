import Statecraft
import Testing

/// `statecraft swift` writes what runs: a spec's properties change no line of it. The
/// harness watches them from a file of its own beside the type.
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

    @Test func generatedSwiftIsTheSameWithProperties() throws {
        let with = try Program(specText: Self.with, path: "p.machine")
        let without = try Program(specText: Self.without, path: "p.machine")
        #expect(with.machine.properties.count == 6)
        let options = SwiftGenerator.Options(specName: "p.machine", fingerprint: "0")
        #expect(try SwiftGenerator.generate(with.machine, options: options)
            == SwiftGenerator.generate(without.machine, options: options))
    }

    /// Of the harness's files, the properties are only in `+Properties.swift`: the type's file is
    /// the one `statecraft swift` writes (internal), with or without properties.
    @Test func theHarnessWatchesThePropertiesBesideTheType() throws {
        let with = try Program(specText: Self.with, path: "p.machine")
        let without = try Program(specText: Self.without, path: "p.machine")
        let options = SwiftGenerator.Options(specName: "p.machine", fingerprint: "0")
        let files = try HarnessWriter.files(with.machine, options: options, specPath: "p.machine")
        let plainFiles = try HarnessWriter.files(without.machine, options: options, specPath: "p.machine")
        #expect(files.map(\.path) == plainFiles.map(\.path))
        #expect(zip(files, plainFiles).filter { $0.contents != $1.contents }.map(\.0.path)
            == ["Sources/ReplayGenerated/Player+Properties.swift"])
        let type = files.first { $0.path == "Sources/ReplayGenerated/Player.swift" }
        #expect(type?.contents == (try SwiftGenerator.generate(with.machine, options: options)))
        // Every property a run can break is watched (`always reachable` is not), in the spec's order.
        let watched = files.first { $0.path.hasSuffix("+Properties.swift") }?.contents ?? ""
        let names = watched.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: ".init(name: \"")?.upperBound else { return nil }
            return String(line[start...].prefix { $0 != "\"" })
        }
        #expect(names == ["quiet", "counted", "stops", "times", "order"])
    }
}
