import Foundation
import Statecraft

// The Swift of the UsingTheLibrary article. Each function's body is what the article shows;
// the parameters are what the article's prose says a reader has at hand, and the return
// values are what `LibrarySampleTests` holds to the article's comments.

enum LibrarySamples {
    /// Checking a spec held in memory.
    static func checkInMemory(specText: String) -> [String] {
        let result = Statecraft.check(source: specText, path: "Drawer.machine")
        for diagnostic in result.diagnostics {
            print(DiagnosticRenderer().render(diagnostic, in: result.file), terminator: "")
        }
        guard let machine = result.machine else { return [] }   // nil unless the spec parses and resolves
        return machine.states.dropFirst().map(\.name)           // ["drawer", "open", "closed", "dragging"]
    }

    /// The reports the CLI prints, from the same result.
    static func reports(result: CheckResult) -> (json: String, sarif: String, github: String) {
        let report = CheckReport(files: [result])
        let json = CheckJSON.rendered(report)                                              // check --format json
        let sarif = CheckSARIF.rendered(report, root: "/path/to/repo", toolVersion: "0.1.0")   // --format sarif
        let github = GitHubAnnotations.check(report)                                       // --format github
        return (json, sarif, github)
    }

    /// The index of names: definitions, references, renames.
    static func index(result: CheckResult) -> (isOpen: Bool, definitions: [String], references: Int, rename: String) {
        let index = result.symbols
        let text = String(decoding: result.file.bytes, as: UTF8.self)
        guard let target = text.range(of: "-> open") else { return (false, [], 0, "") }
        let offset = text.utf8.distance(from: text.startIndex, to: target.upperBound) - 1   // on "open"
        let isOpen = index.symbol(at: offset) == Symbol(.state, "open")                     // true
        let definitions = index.definition(at: offset).map(\.signature)                     // ["initial state open"]
        let references = index.references(of: Symbol(.state, "open")).count                // the declaration, the target, `in(open)`
        switch index.rename(at: offset, to: "closed") {                                      // the ranges to replace, or why not
        case .success(let ranges): return (isOpen, definitions, references, "\(ranges.count) ranges")
        case .failure(let refusal): return (isOpen, definitions, references, refusal.message)
            // cannot rename 'open' to 'closed': a state named 'closed' is already declared at line …
        }
    }

    /// Running a machine: a program, an instance, steps.
    static func run(machine: Machine) -> (state: String, originY: Value?, emitted: [String], now: Double) {
        var emitted: [String] = []
        var drawer = Instance(Program(machine))
        _ = drawer.start()                                   // enters 'open', runs its entry actions
        let step = drawer.send("touchBegan", ["y": .number(600), "onContent": .bool(true)]) { output, args in
            emitted.append(machine[output].name)             // outputs, in order, with their arguments
        }
        print(step?.result as Any)                           // .applied(TransitionID(…)), .ignored, .failed(…)
        let state = machine[drawer.state].name               // "dragging"
        let originY = drawer.value(of: "originY")            // .number(0)
        drawer.advance(to: 2.5)                              // virtual time: fires the timers due by 2.5 s
        return (state, originY, emitted, drawer.now)
    }

    /// Recording a session as an event log, with the app's events and the spec's fingerprint.
    static func record(specText: String, path: String) throws {
        var drawer = try Instance(specText: specText, path: "Drawer.machine")
        let log = try EventLogWriter.create(path: path)
        try log.header(machine: "Drawer", specText: specText)   // {"recording": {"machine": "Drawer", "spec": "…"}}
        _ = drawer.start()
        _ = drawer.send("touchBegan", ["y": .number(600), "onContent": .bool(true)])
        try log.event("touchBegan", time: 0.5) { line throws(EventLogWriter.Failure) in
            try line.number("y", 600)                            // a non-finite number is refused, the line dropped
            try line.bool("onContent", true)
        }
        try log.expect(state: "dragging")                        // {"expect": "dragging"}
        try log.close()                                          // flushes; flush() when the app goes to the background
    }

    /// Saving a running machine when the app goes to the background, restoring it on relaunch.
    static func saveAndRestore(specText: String) throws -> (state: String, snapshot: String) {
        var drawer = try Instance(specText: specText, path: "Drawer.machine")
        let program = drawer.program                             // after a relaunch: Program(machine) of the spec
        _ = drawer.start()
        _ = drawer.send("touchBegan", ["y": .number(600), "onContent": .bool(true)])
        let saved = drawer.snapshotJSON()                        // {"snapshot": 1, "machine": "Drawer", ...}
        let restored = try Instance(restoring: saved, program: program)   // no entry action or guard runs
        return (restored.program.machine[restored.state].name, saved)    // "dragging"
    }

    /// A statechart's configuration after a macrostep.
    static func statechart(mediaPlayer: Machine) -> (configuration: [String], muted: Bool?) {
        var player = Instance(Program(mediaPlayer))              // Specs/MediaPlayer.machine, checked
        _ = player.start()
        _ = player.send("loaded", ["itemDuration": .number(120)])
        _ = player.send("prerolled")
        let configuration = player.configuration.names(in: mediaPlayer)
        // ["player", "session", "playback", "playing", "streaming", "sound", "unmuted", "screen", "layout", "inline"]
        let muted = mediaPlayer.state(named: "muted").map(player.isActive)   // false
        return (configuration, muted)
    }

    /// Events decoded once onto a tape, stepped through without allocating.
    static func tape(machine: Machine) -> (appended: [Bool], results: [Step.Result], state: String) {
        let program = Program(machine)
        var tape = EventTape(program)
        let first = tape.append("touchBegan", ["y": .number(300), "onContent": .bool(true)], time: 1.0)   // false if it does not fit
        let second = tape.append("touchEnded", ["y": .number(40)], time: 1.2)
        var results: [Step.Result] = []
        var drawer = Instance(program)
        _ = drawer.start()
        drawer.run(tape) { step in results.append(step.result) }  // each step, the timers' included; or drawer.run(tape)
        return ([first, second], results, machine[drawer.state].name)   // "closed"
    }

    /// Replaying a log file in an app.
    static func replay(machine: Machine, path: String) throws -> (states: [String], error: String?) {
        var reader = try EventLogReader.open(path: path)
        var replayer = Replayer(program: Program(machine))
        var failure: String?
        do {
            try replayer.replay(&reader, concurrently: true) { step in print(step.event, step.from, "->", step.to) }
        } catch {
            failure = "line \(error.line):\(error.column): \(error.message)"   // a malformed line; the report keeps what came before
        }
        return (replayer.report.cases.map(\.state), failure)
    }

    /// A trace taken in batches of ids and numbers.
    static func traceBatches(machine: Machine, path: String) throws -> [String] {
        var lines: [String] = []
        var tracer = Replayer(program: Program(machine), options: .init(trace: true))
        var log = try EventLogReader.open(path: path)
        try tracer.replay(&log, concurrently: true, traceBatches: { batch in
            for k in 0..<batch.count {
                let step = batch[k]
                let changed = batch.changedRange(k).map { "\(machine[batch.changedVariable($0)].name) = \(batch.changedValue($0))" }
                lines.append("\(step.line) \(batch.eventName(k)) \(machine[step.fromState].name) -> \(machine[step.toState].name) \(changed)")
            }
        })
        return lines
    }

    /// Feeding a log's records one at a time.
    static func recordByRecord(machine: Machine, path: String) throws -> [String] {
        var reader = try EventLogReader.open(path: path)
        var replayer = Replayer(program: Program(machine))
        while let record = try reader.next() {
            try replayer.consume(record)
        }
        return replayer.report.cases.map(\.state)
    }
}
