import Foundation
import Statecraft
import Testing
import TestSupport

/// The UsingTheLibrary article's Swift does what its comments say.
@Suite struct LibrarySampleTests {
    static func spec(_ name: String) throws -> (text: String, machine: Machine) {
        let text = try String(contentsOf: Repository.specs.appendingPathComponent(name), encoding: .utf8)
        return (text, try #require(Statecraft.check(source: text, path: name, bounds: nil).machine))
    }

    static let session = Repository.specs.appendingPathComponent("Drawer.session.jsonl").path

    @Test func checkingInMemoryGivesTheMachine() throws {
        #expect(LibrarySamples.checkInMemory(specText: try Self.spec("Drawer.machine").text)
                == ["drawer", "open", "closed", "dragging"])
        #expect(LibrarySamples.checkInMemory(specText: "machine M { initial state a { on nope -> a } }").isEmpty)
    }

    @Test func theReportsAreTheCommandsFormats() throws {
        let result = Statecraft.check(source: "machine M { event go initial state a { on go -> b } state b { on go -> zz } }",
                                      path: "m.machine")
        let (json, sarif, github) = LibrarySamples.reports(result: result)
        #expect(json.contains(#""id": "unknown-state""#) || json.contains(#""id":"unknown-state""#))
        #expect(sarif.contains("\"version\": \"2.1.0\"") || sarif.contains("\"version\":\"2.1.0\""))
        #expect(github.hasPrefix("::error file=m.machine,line=1"))
    }

    @Test func theIndexFindsDefinitionsReferencesAndRenames() throws {
        let text = try Self.spec("Drawer.machine").text
        let (isOpen, definitions, references, rename) = LibrarySamples.index(result: Statecraft.check(source: text))
        #expect(isOpen)
        #expect(definitions == ["initial state open"])
        #expect(references == 3)  // the declaration, the target, `in(open)` in a property
        #expect(rename.hasPrefix("cannot rename 'open' to 'closed': a state named 'closed' is already declared at line"))
    }

    /// The recording replays as the app ran, its header matching the spec.
    @Test func aRecordingReplays() throws {
        let (text, machine) = try Self.spec("Drawer.machine")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("recording-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try LibrarySamples.record(specText: text, path: path)
        guard case .replayed(let report, let failure) = ManyLogs.replayOne(path, program: Program(machine), options: .init()) else {
            Issue.record("the recording was not replayed")
            return
        }
        #expect(failure == nil && report.passed && report.warnings.isEmpty)
        #expect(report.cases.map(\.state) == ["dragging"])
        #expect(report.cases.first?.expectations == 1)
    }

    /// The saved Drawer restores into the state it was saved in, and saves the same again.
    @Test func savingAndRestoring() throws {
        let text = try Self.spec("Drawer.machine").text
        let (state, saved) = try LibrarySamples.saveAndRestore(specText: text)
        #expect(state == "dragging")
        let program = try Instance(specText: text, path: "Drawer.machine").program
        #expect(try Instance(restoring: saved, program: program).snapshotJSON() == saved)
    }

    @Test func runningTheDrawer() throws {
        let (state, originY, emitted, now) = LibrarySamples.run(machine: try Self.spec("Drawer.machine").machine)
        #expect(state == "dragging")
        #expect(originY == .number(0))
        #expect(emitted.isEmpty)
        #expect(now == 2.5)
    }

    @Test func theMediaPlayersConfiguration() throws {
        let (configuration, muted) = LibrarySamples.statechart(mediaPlayer: try Self.spec("MediaPlayer.machine").machine)
        #expect(configuration == ["player", "session", "playback", "playing", "streaming", "sound", "unmuted",
                                  "screen", "layout", "inline"])
        #expect(muted == false)
    }

    @Test func aTapeStepsLikeSends() throws {
        let (appended, results, state) = LibrarySamples.tape(machine: try Self.spec("Drawer.machine").machine)
        #expect(appended == [true, true])
        #expect(results.count == 2 && results.allSatisfy { if case .applied = $0 { true } else { false } })
        #expect(state == "closed")
    }

    /// The three ways of replaying (whole, traced in batches, record by record) agree with the
    /// command line on the bundled session.
    @Test func replayingTheSessionThreeWays() throws {
        let machine = try Self.spec("Drawer.machine").machine
        let (states, error) = try LibrarySamples.replay(machine: machine, path: Self.session)
        #expect(error == nil)
        #expect(!states.isEmpty)
        #expect(try LibrarySamples.recordByRecord(machine: machine, path: Self.session) == states)
        let traced = try LibrarySamples.traceBatches(machine: machine, path: Self.session)
        #expect(traced.contains { $0.contains("dragging -> closed") && $0.contains("directionTop = true") })
    }

    @Test func aMalformedLineIsReportedWithItsPlace() throws {
        let machine = try Self.spec("Drawer.machine").machine
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("{\"event\": \"touchBegn\"}\n".utf8).write(to: url)
        let (_, error) = try LibrarySamples.replay(machine: machine, path: url.path)
        #expect(error?.hasPrefix("line 1:") == true)
    }
}
