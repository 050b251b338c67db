import Foundation
import Statecraft
import Testing
import TestSupport

/// The library API (the UsingTheLibrary article shows it), and the model it produces.
@Suite struct LibraryTests {
    static func drawer() throws -> Machine {
        let text = try String(contentsOf: Repository.specs.appendingPathComponent("Drawer.machine"), encoding: .utf8)
        return try #require(Statecraft.check(source: text, path: "Drawer.machine", bounds: nil).machine)
    }

    @Test func readmeExample() throws {
        let machine = try LibraryTests.drawer()
        #expect(machine.states.dropFirst().map(\.name) == ["drawer", "open", "closed", "dragging"])
    }

    @Test func theStateTreeHasTheMachineAtItsRoot() throws {
        let machine = try LibraryTests.drawer()
        #expect(machine[machine.root].name == "Drawer")
        #expect(machine[machine.root].children.map { machine[$0].name } == ["drawer"])
        let drawer = machine.states[1]
        #expect(drawer.kind == .compound && drawer.children.map { machine[$0].name } == ["open", "closed", "dragging"])
        #expect(machine.states.dropFirst(2).allSatisfy { $0.parent == drawer.id && $0.kind == .atomic })
        #expect(machine.initialState.map { machine[$0].name } == "open")
    }

    @Test func constantsAndInitialValuesAreFolded() throws {
        let machine = try LibraryTests.drawer()
        #expect(machine.variables.first { $0.name == "originY" }?.initialValue == .number(-617))
        let source = """
            machine M {
                const a = 2
                const b = a * 3 + pi - pi
                const c = max(a, b, 4) > 5 ? "big" : "small"
                const d = round(-2.5)
                var s: String = c + "!"
                public var t: Number = 300ms
                initial state x
            }
            """
        let m = try #require(Statecraft.check(source: source).machine)
        #expect(m.constants.map(\.value) == [.number(2), .number(6), .string("big"), .number(-3)])
        #expect(m.variables.map(\.initialValue) == [.string("big!"), .number(0.3)])
    }

    @Test func transitionsAreResolvedToIds() throws {
        let machine = try LibraryTests.drawer()
        let dragging = try #require(machine.states.first { $0.name == "dragging" })
        let release = machine[dragging.transitions[1]]
        guard case .events(let events) = release.trigger else {
            Issue.record("expected an event trigger")
            return
        }
        #expect(events.map { machine[$0].name } == ["touchEnded", "touchCancelled"])
        #expect(release.target.map { machine[$0].name } == "closed")
        #expect(release.guardExpr?.type == .bool)
        #expect(machine.text(release.guardExpr?.range ?? .point(0))
                == "y < (directionTop ? boundaryAdjustmentY : viewHeight - boundaryAdjustmentY)")
    }

    @Test func aMachineWithErrorsIsNotReturned() {
        let result = Statecraft.check(source: "machine M { initial state a { on nope -> a } }")
        #expect(result.machine == nil)
        #expect(result.errorCount == 1)
    }

    /// The statechart example of UsingTheLibrary: the configuration after a macrostep that went through
    /// a completion and a raised event.
    @Test func readmeStatechartExample() throws {
        let text = try String(contentsOf: Repository.specs.appendingPathComponent("MediaPlayer.machine"), encoding: .utf8)
        let mediaPlayer = try #require(Statecraft.check(source: text, path: "MediaPlayer.machine", bounds: nil).machine)
        var player = Instance(Program(mediaPlayer))
        _ = player.start()
        _ = player.send("loaded", ["itemDuration": .number(120)])
        _ = player.send("prerolled")
        #expect(player.configuration.names(in: mediaPlayer)
                == ["player", "session", "playback", "playing", "streaming", "sound", "unmuted", "screen", "layout", "inline"])
        #expect(mediaPlayer.state(named: "muted").map(player.isActive) == false)
        #expect(mediaPlayer.state(named: "streaming").map(player.isActive) == true)
        #expect(mediaPlayer.state(named: "nope") == nil)
    }

    /// The runtime example of UsingTheLibrary, step by step.
    @Test func readmeRuntimeExample() throws {
        let machine = try LibraryTests.drawer()
        var drawer = Instance(Program(machine))
        #expect(drawer.start().result == .started)
        var emitted: [String] = []
        let step = drawer.send("touchBegan", ["y": .number(600), "onContent": .bool(true)]) { output, _ in
            emitted.append(machine[output].name)
        }
        guard case .applied? = step?.result else {
            Issue.record("expected the touch to fire a transition")
            return
        }
        #expect(machine[drawer.state].name == "dragging")
        #expect(drawer.value(of: "originY") == .number(0))
        drawer.advance(to: 2.5)
        #expect(drawer.now == 2.5)
        #expect(emitted.isEmpty)
    }

    /// The batch trace (UsingTheLibrary) gives each step's line, event, states and changes as the
    /// step-by-step trace does.
    @Test func readmeTraceBatchExample() throws {
        let machine = try LibraryTests.drawer()
        let path = Repository.specs.appendingPathComponent("Drawer.session.jsonl").path
        var tracer = Replayer(program: Program(machine), options: .init(trace: true))
        var log = try EventLogReader.open(path: path)
        var lines: [String] = []
        try tracer.replay(&log, concurrently: true, traceBatches: { batch in
            for k in 0..<batch.count {
                let step = batch[k]
                let changed = batch.changedRange(k).map { "\(machine[batch.changedVariable($0)].name) = \(batch.changedValue($0))" }
                lines.append("\(step.line) \(batch.eventName(k)) \(machine[step.fromState].name) -> \(machine[step.toState].name) \(changed)")
            }
        })
        var expected: [String] = []
        var stepper = Replayer(program: Program(machine), options: .init(trace: true))
        var again = try EventLogReader.open(path: path)
        try stepper.replay(&again) { step in
            expected.append("\(step.line) \(step.event) \(step.from) -> \(step.to) \(step.changed.map { "\($0.name) = \($0.value)" })")
        }
        #expect(lines.count > 5)
        #expect(lines == expected)
        #expect(lines.contains { $0.contains("dragging -> closed") && $0.contains("directionTop = true") })
    }

    @Test func readmeEventTapeExample() throws {
        let machine = try LibraryTests.drawer()
        let drawer = Instance(Program(machine))
        var tape = EventTape(drawer.program)
        #expect(tape.append("touchBegan", ["y": .number(300), "onContent": .bool(true)], time: 1.0) == true)
        #expect(tape.append("touchEnded", ["y": .number(40)], time: 1.2) == true)
        var copy = Instance(drawer.program)
        _ = copy.start()
        var results: [Step.Result] = []
        copy.run(tape) { step in results.append(step.result) }
        #expect(results.count == 2)
        #expect(results.allSatisfy { if case .applied = $0 { true } else { false } })
        #expect(machine[copy.state].name == "closed")
        #expect(copy.now == 1.2)
    }
}
