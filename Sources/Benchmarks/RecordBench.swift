import Statecraft

/// `statecraft-bench record`: what recording costs an app, in ns per event. A Drawer-like
/// event with two fields and a time (`{"time": 1.25, "event": "touchBegan", "y": 312.5,
/// "onContent": true}`, the values changing from event to event as a drag's do) written by
/// `EventLogWriter` to a file (default /dev/null, so the disk is not timed), close included:
/// the median of the runs.
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
        let perEvent = times.map { $0 / Double(events) * 1e9 }
        print("record: \(events) events (\(bytes) bytes each) to \(path), \(runs) runs")
        print("  median \(Table.fixed(median(perEvent), 1)) ns/event  (runs: "
              + perEvent.map { Table.fixed($0, 1) }.joined(separator: ", ") + ")")
        return 0
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
