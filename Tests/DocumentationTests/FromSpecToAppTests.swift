import Foundation
import StatecraftRecording
import Testing
import TestSupport

/// The log the "From spec to app" tutorial replays is what its controller records.
@Suite struct FromSpecToAppTests {
    @Test func theRecordingIsTheTutorialsLog() throws {
        var bytes: [UInt8] = []
        let log = EventLogWriter { bytes += $0 }
        let spec = try String(contentsOf: Repository.specs.appendingPathComponent("Drawer.machine"), encoding: .utf8)
        try log.header(machine: "Drawer", specText: spec)
        let screen = DrawerScreen(view: FakeDrawerView())
        screen.recording = log
        screen.touchBegan(y: 600, onContent: true, at: 1.0)
        screen.touchMoved(y: 80, at: 1.2)
        screen.touchEnded(y: 80, at: 1.3)
        try log.close()
        if let difference = Golden.compare(String(decoding: bytes, as: UTF8.self),
                                           to: TutorialTests.resources.appendingPathComponent("app-session.jsonl")) {
            Issue.record("\(difference)")
        }
    }
}
