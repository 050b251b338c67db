import Statecraft
@_spi(RawLines) import StatecraftEventLog

/// `statecraft-bench run`: generates (or reuses) a log per machine and prints one table row
/// per measured stage.
struct RunCommand {
    var events = 1_000_000
    var runs = 5
    var machines = LogGenerator.measuredByDefault
    var specs = "Specs"
    var directory = "/tmp/statecraft-bench"
    var python = false
    var cli = true
    /// Only the in-process stepping rows (send, tape, hand-written), for a quick comparison.
    var steppingOnly = false

    /// One row of the table.
    struct Row {
        var machine: String
        var stage: String
        var seconds: Double
        var items: Int
        var bytes: Int
        var ratio: String
        var peakRSS: Int
    }

    func run() -> Int32 {
        _ = System.run(["mkdir", "-p", directory])
        let binary = System.executablePath().map { path in String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) + "/statecraft" }
        let statecraft = binary.flatMap { System.fileSize($0) != nil ? $0 : nil }
        let hasPython = python && System.run(["python3", "-c", "import transitions, statemachine"])?.status == 0
        print("statecraft-bench run: \(events) events per log, median of \(runs) runs, release build")
        if python && !hasPython {
            print("note: python3 with 'transitions' and 'statemachine' not found; pip install transitions python-statemachine==3.2.2")
        }
        if cli && statecraft == nil { print("note: no 'statecraft' next to this binary; build it with swift build -c release") }
        print(Table.header)
        var failed = false
        for machine in machines {
            switch measure(machine, statecraft: cli ? statecraft : nil, python: hasPython) {
            case .success(let rows): for row in rows { print(Table.format(row)) }
            case .failure(let error):
                print("error: \(machine): \(error.message)")
                failed = true
            }
        }
        return failed ? 1 : 0
    }

    /// The log for `machine`, generated unless a file of this size is already there.
    func log(for machine: String) -> Result<String, BenchError> {
        let path = "\(directory)/\(machine)-\(events).jsonl"
        if System.fileSize(path) ?? 0 > 0 { return .success(path) }
        guard LogGenerator.generate(machine: machine, events: events, path: path) else {
            return .failure(BenchError("cannot generate '\(path)'"))
        }
        return .success(path)
    }

    private func measure(_ machine: String, statecraft: String?, python: Bool) -> Result<[Row], BenchError> {
        let program: Program
        let path: String
        switch (Stages.loadProgram("\(specs)/\(machine).machine"), log(for: machine)) {
        case (.failure(let e), _), (_, .failure(let e)): return .failure(e)
        case (.success(let p), .success(let l)): (program, path) = (p, l)
        }
        let size = System.fileSize(path) ?? 0
        var rows: [Row] = []
        func add(_ stage: String, _ seconds: Double, items: Int, ratio: String = "", rss: Int = System.peakRSS()) {
            rows.append(Row(machine: machine, stage: stage, seconds: seconds, items: items, bytes: size, ratio: ratio,
                            peakRSS: rss))
        }
        let lines = System.countNewlines(path) ?? 0
        if steppingOnly {
            return stepping(machine, path, program) { add($0, $1, items: $2, ratio: $3) }.map { rows }
        }
        let scan = Stages.time(runs: runs) { System.countNewlines(path) ?? 0 }
        add("newline scan (read+memchr)", scan, items: lines)
        do throws(LogError) {
            let next = try Stages.time(runs: runs) { () throws(LogError) -> Int in try Stages.readRecords(path) }
            add("reader next()", next, items: lines, ratio: Table.ratio(next, scan, "scan"))
            let raw = try Stages.time(runs: runs) { () throws(LogError) -> Int in try Stages.readRaw(path) }
            add("reader nextRaw()", raw, items: lines, ratio: Table.ratio(raw, scan, "scan"))
            let replay = try Stages.time(runs: runs) { () throws(LogError) -> Int in try Stages.replay(path, program: program) }
            add("replay in process", replay, items: lines, ratio: Table.ratio(replay, scan, "scan"))
            let pipelined = try Stages.time(runs: runs) { () throws(LogError) -> Int in
                try Stages.replay(path, program: program, concurrently: true)
            }
            add("replay in process, 2 threads", pipelined, items: lines, ratio: Table.ratio(pipelined, scan, "scan"))
        } catch {
            return .failure(BenchError("\(path):\(error.line):\(error.column): \(error.message)"))
        }
        var cliSeconds: Double?
        if let statecraft {
            let spec = "\(specs)/\(machine).machine"
            var results: [System.ChildResult] = []
            for _ in 0..<runs { if let r = System.run([statecraft, "replay", spec, path]) { results.append(r) } }
            if let worst = results.map(\.peakRSS).max(), results.allSatisfy({ $0.status <= 1 }) {
                cliSeconds = median(results.map(\.seconds))
                add("statecraft replay (process)", cliSeconds ?? 0, items: lines, ratio: Table.ratio(cliSeconds ?? 0, scan, "scan"),
                    rss: worst)
            }
            let traced = (0..<max(1, runs / 2)).compactMap { _ in
                System.run([statecraft, "replay", spec, path, "--trace", "--format", "jsonl"])
            }
            if let worst = traced.map(\.peakRSS).max() {
                let t = median(traced.map(\.seconds))
                add("… --trace --format jsonl", t, items: lines, ratio: Table.ratio(t, scan, "scan"), rss: worst)
            }
        }
        if case .failure(let e) = stepping(machine, path, program, { add($0, $1, items: $2, ratio: $3) }) { return .failure(e) }
        if python, let cliSeconds, machine == "MediaPlayer" {
            // python-statemachine replays about 5 k events a second: its rate over the first
            // lines is enough to compare with.
            let script = "\(specs)/../Sources/Benchmarks/python/statemachine_baseline.py"
            let out = "\(directory)/python-statemachine-\(machine).txt"
            let limit = min(lines, 20_000)
            if let r = System.run(["python3", script, path, String(limit)], stdout: out), r.status == 0,
               let text = System.readFile(out), let rate = Table.eventsPerSecond(String(decoding: text, as: UTF8.self)) {
                let seconds = Double(lines) / rate
                add("python-statemachine (SCXML)", seconds, items: lines,
                    ratio: "CLI " + Table.ratio(seconds, cliSeconds, "faster"), rss: r.peakRSS)
            }
        } else if python, let cliSeconds {
            let script = "\(specs)/../Sources/Benchmarks/python/transitions_baseline.py"
            let out = "\(directory)/python-\(machine).txt"
            if let r = System.run(["python3", script, machine, path], stdout: out), r.status == 0,
               let text = System.readFile(out), let rate = Table.eventsPerSecond(String(decoding: text, as: UTF8.self)) {
                let seconds = Double(lines) / rate
                add("python transitions", seconds, items: lines,
                    ratio: "CLI " + Table.ratio(seconds, cliSeconds, "faster"), rss: r.peakRSS)
            }
        }
        return .success(rows)
    }

    /// The in-process stepping rows: `Instance.send` over the decoded log, `Instance.run`
    /// over tapes of it, and the hand-written machine. They are timed in rounds, one of each
    /// per round back to back, so a change in the machine's speed (a VM's neighbours) hits
    /// all three alike; a ratio to the hand-written machine is the median of the rounds'
    /// ratios.
    private func stepping(_ machine: String, _ path: String, _ program: Program,
                          _ add: (String, Double, Int, String) -> Void) -> Result<Void, BenchError> {
        let decoded: DecodedLog
        switch DecodedLog.decode(path: path, program: program) {
        case .success(let d): decoded = d
        case .failure(let e): return .failure(e)
        }
        let tapes = decoded.tapes(program)
        let hand = RunCommand.handBaseline(machine, decoded, program)
        let swift = GeneratedRun.make(machine, decoded, program)
        var send: [Double] = [], tape: [Double] = [], baseline: [Double] = [], generated: [Double] = []
        for _ in 0..<max(1, runs) {
            send.append(Stages.time(runs: 1) { decoded.step(program).count })
            tape.append(Stages.time(runs: 1) { DecodedLog.run(tapes, program).count })
            if let hand { baseline.append(Stages.time(runs: 1, hand.run)) }
            if let swift { generated.append(Stages.time(runs: 1, swift.run)) }
        }
        func ratio(_ times: [Double]) -> String {
            guard !baseline.isEmpty else { return "" }
            return Table.fixed(median(zip(times, baseline).map { $0 / $1 }), 2) + "× hand"
        }
        let count = decoded.events.count
        add("Instance.send (pre-decoded)", median(send), count, ratio(send))
        let sameEnd = DecodedLog.run(tapes, program).map(\.variables) == decoded.step(program).map(\.variables)
        add("Instance.run(EventTape)", median(tape), count, sameEnd ? ratio(tape) : "DIFFERS from send")
        if let hand { add("hand-written switch", median(baseline), count, hand.check()) }
        if let swift {
            // Without a hand-written twin (a statechart), against the runtime's two ways of stepping.
            let versus = baseline.isEmpty
                ? Table.fixed(median(zip(send, generated).map { $0 / $1 }), 1) + "× faster than send, "
                    + Table.fixed(median(zip(tape, generated).map { $0 / $1 }), 1) + "× than the tape"
                : ratio(generated)
            add("generated Swift (statecraft swift)", median(generated), count, versus + ", " + swift.check())
        }
        return .success(())
    }

    /// The hand-written baseline for `machine`, if it has one: a run over the log (its first
    /// `stepLimit` events, for the allocation probe), returning something that depends on it,
    /// and whether the last run ended where the interpreter does: the same states and every
    /// variable equal, in each of the log's cases.
    static func handBaseline(_ machine: String, _ decoded: DecodedLog, _ program: Program)
        -> (run: () -> Int, check: () -> String)? {
        // (Worked out when checked, not ahead: the allocation probe runs `run` alone.)
        var finals: FinalStates { FinalStates(decoded, program) }
        let limit = decoded.stepLimit
        switch machine {
        case "Drawer":
            guard let events = decoded.handEvents(names: HandDrawer.events, program: program) else { return nil }
            let last = Box(HandDrawer())
            let run = {
                var m = HandDrawer()
                events.withPrefix(limit) { m.run($0) }
                last.value = m
                return m.state == .open ? 1 : 0
            }
            return (run, {
                let m = last.value
                return finals.verdict(1) { _ in
                    (m.configurationNames, [("directionTop", .bool(m.directionTop)), ("originY", .number(m.originY)),
                                     ("startTouchY", .number(m.startTouchY)), ("startOriginY", .number(m.startOriginY))])
                }
            })
        case "PullToRefresh":
            guard let events = decoded.handEvents(names: HandPullToRefresh.events, program: program) else { return nil }
            let last = Box(HandPullToRefresh())
            let run = {
                var m = HandPullToRefresh()
                events.withPrefix(limit) { m.run($0) }
                last.value = m
                return m.refreshes
            }
            return (run, {
                let m = last.value
                return finals.verdict(1) { _ in
                    (m.configurationNames, [("progress", .number(m.progress)), ("insetTop", .number(m.insetTop))])
                } + ", \(m.timersFired) timers"
            })
        case "VibrantButton":
            guard decoded.runCount <= 1, let events = decoded.handEvents(program: program, HandVibrantButton.event) else { return nil }
            let last = Box(HandVibrantButton())
            let run = {
                var m = HandVibrantButton()
                events.withPrefix(limit) { m.run($0) }
                last.value = m
                return m.taps
            }
            return (run, {
                let m = last.value
                return finals.verdict(1) { _ in
                    (m.configurationNames, [("alpha", .number(m.alpha)), ("textColor", .string(m.textColor))])
                } + ", \(m.taps) taps"
            })
        case "PeekRating":
            guard decoded.runCount <= 1, let events = decoded.handEvents(program: program, HandPeekRating.event) else { return nil }
            let last = Box(HandPeekRating())
            let run = {
                var m = HandPeekRating()
                events.withPrefix(limit) { m.run($0) }
                last.value = m
                return m.ratings
            }
            return (run, {
                let m = last.value
                return finals.verdict(1) { _ in
                    (m.configurationNames,
                     [("scrollEnabled", .bool(m.scrollEnabled)), ("previewProgress", .number(m.previewProgress)),
                      ("highlighted", .string(m.highlighted)), ("rating", .string(m.rating)),
                      ("cellMinX", .number(m.cellMinX)), ("cellMaxX", .number(m.cellMaxX)), ("cellMinY", .number(m.cellMinY)),
                      ("cellMidY", .number(m.cellMidY)), ("cellMaxY", .number(m.cellMaxY))])
                } + ", \(m.ratings) ratings"
            })
        case "SwipeToDismiss":
            guard let events = decoded.handEvents(program: program, HandSwipeToDismiss.event) else { return nil }
            let count = max(1, decoded.runCount)
            let last = Box([HandSwipeToDismiss]())
            let run = {
                var views = Array(repeating: HandSwipeToDismiss(), count: count)
                views.withUnsafeMutableBufferPointer { v in events.withPrefix(limit) { HandSwipeToDismiss.run(v, $0) } }
                last.value = views
                return views.count
            }
            return (run, {
                let views = last.value
                return finals.verdict(views.count) { k in
                    (views[k].configurationNames, [("anchorX", .number(views[k].anchorX)), ("anchorY", .number(views[k].anchorY))])
                }
            })
        case "CheckoutScreen":
            guard let events = decoded.handEvents(program: program, HandCheckoutScreen.event) else { return nil }
            let count = max(1, decoded.runCount)
            let last = Box([HandCheckoutScreen]())
            let run = {
                var visits = Array(repeating: HandCheckoutScreen(), count: count)
                visits.withUnsafeMutableBufferPointer { v in events.withPrefix(limit) { HandCheckoutScreen.run(v, $0) } }
                last.value = visits
                return visits.count
            }
            return (run, {
                let visits = last.value
                let verdict = finals.verdict(visits.count) { k in
                    (visits[k].configurationNames, [("errorMessage", .string(visits[k].errorMessage))])
                }
                let paid = visits.count { $0.button == .receipt }
                return verdict + ", \(paid) paid, \(visits.reduce(0) { $0 + $1.timersFired }) timers"
            })
        default:
            return nil
        }
    }
}

extension Array {
    /// The first `count` elements (all when nil) as a buffer.
    func withPrefix<R>(_ count: Int?, _ body: (UnsafeBufferPointer<Element>) -> R) -> R {
        withUnsafeBufferPointer { all in body(UnsafeBufferPointer(rebasing: all[..<Swift.min(count ?? all.count, all.count)])) }
    }
}

/// A value a closure can update.
final class Box<T> {
    var value: T

    init(_ value: T) {
        self.value = value
    }
}
