import Statecraft

/// `statecraft-bench record`: what recording costs an app, in ns per event. A Drawer-like
/// event with two fields and a time (`{"time": 1.25, "event": "touchBegan", "y": 312.5,
/// "onContent": true}`, the values changing from event to event as a drag's do) written by
/// `EventLogWriter` to a file (default /dev/null, so the disk is not timed), close included:
/// the median of the runs. Then the cost of recording the generated Drawer's events through
/// `send(_:at:recordingTo:)` into the writer (the same events, with and without recording).
struct RecordBench {
    var events = 1_000_000
    var runs = 5
    var path = "/dev/null"

    func run() -> Int32 {
        var times: [Double] = []
        var bytes = 0
        for _ in 0..<max(1, runs) {
            let start = System.now()
            do {
                let writer = try EventLogWriter.create(path: path)
                try RecordBench.write(events, to: writer)
                try writer.close()
            } catch {
                print("error: \(error)")
                return 1
            }
            times.append(System.now() - start)
        }
        var counter = 0
        let counting = EventLogWriter { counter += $0.count }
        do {
            try RecordBench.write(min(events, 10_000), to: counting)
            try counting.close()
        } catch {
            return 1
        }
        bytes = counter / max(1, min(events, 10_000))
        // The same events sent to the generated Drawer with recording on, each handed to the
        // writer as `Recorded`; and, in the same rounds, sent without recording: the
        // difference is what recording costs the app.
        var recorded: [Double] = [], plain: [Double] = []
        for _ in 0..<max(1, runs) {
            do {
                let writer = try EventLogWriter.create(path: path)
                var start = System.now()
                RecordBench.sendGenerated(events, to: writer)
                try writer.close()
                recorded.append(System.now() - start)
                start = System.now()
                RecordBench.sendGenerated(events, to: nil)
                plain.append(System.now() - start)
            } catch {
                print("error: \(error)")
                return 1
            }
        }
        let perEvent = times.map { $0 / Double(events) * 1e9 }
        print("record: \(events) events (\(bytes) bytes each) to \(path), \(runs) runs")
        print("  median \(Table.fixed(median(perEvent), 1)) ns/event  (runs: "
              + perEvent.map { Table.fixed($0, 1) }.joined(separator: ", ") + ")")
        let cost = zip(recorded, plain).map { ($0 - $1) / Double(events) * 1e9 }
        print("  generated Drawer, send(_:at:recordingTo:) into the writer: median \(Table.fixed(median(cost), 1)) ns/event"
              + " more than without recording (runs: " + cost.map { Table.fixed($0, 1) }.joined(separator: ", ") + ")")
        return 0
    }

    /// Sends `count` drag events to a generated Drawer, recording each into `writer` (when
    /// there is one) through `Recorded.forEachField`, as an app's recorder would.
    @inline(never)
    static func sendGenerated(_ count: Int, to writer: EventLogWriter?) {
        var m = Drawer()
        var time = 0.0
        var failed = false
        for k in 0..<count {
            time += 1.0 / 64
            let event = Drawer.Event.touchBegan(y: Double((k &* 37) % 1600) / 2, onContent: k & 1 == 0)
            guard let writer else {
                _ = m.send(event, at: time)
                continue
            }
            _ = m.send(event, at: time) { recorded in
                do {
                    try writer.event(recorded.name, time: recorded.time) { line throws(EventLogWriter.Failure) in
                        try recorded.forEachField { (name, value) throws(EventLogWriter.Failure) in
                            switch value {
                            case .number(let n): try line.number(name, n)
                            case .bool(let b): try line.bool(name, b)
                            case .string(let s): try line.string(name, s)
                            }
                        }
                    }
                } catch {
                    failed = true
                }
            }
        }
        if failed || m.originY.isNaN { print("error: a recorded line was refused") }
    }

    /// Writes `count` touch events, as a drag at 60 Hz would send them.
    static func write(_ count: Int, to writer: EventLogWriter) throws(EventLogWriter.Failure) {
        var time = 0.0
        for k in 0..<count {
            time += 1.0 / 64  // (exact in binary: times print as short decimals)
            let y = Double((k &* 37) % 1600) / 2
            try writer.event("touchBegan", time: time) { line throws(EventLogWriter.Failure) in
                try line.number("y", y)
                try line.bool("onContent", k & 1 == 0)
            }
        }
    }
}
