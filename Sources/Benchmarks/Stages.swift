import Statecraft
@_spi(RawLines) import StatecraftEventLog

/// The measured stages: each reads or steps through one log and returns how many events or
/// lines it handled (so the work cannot be optimised away).
enum Stages {
    /// `EventLogReader.next()` over the file: the full record of every line.
    static func readRecords(_ path: String, limit: Int = .max) throws(LogError) -> Int {
        var reader = try EventLogReader.open(path: path)
        var count = 0
        var fields = 0
        while count < limit, let record = try reader.next() {
            count += 1
            if case .event(_, _, let payload) = record.body { fields += payload.count }
        }
        return count + fields & 1
    }

    /// `EventLogReader.nextRaw` over the file: plain event lines in place.
    static func readRaw(_ path: String, limit: Int = .max) throws(LogError) -> Int {
        var reader = try EventLogReader.open(path: path)
        var count = 0
        var fields = 0
        while count < limit, try reader.nextRaw({ line in
            count += 1
            if case .event(let raw) = line { fields += raw.fields.count }
        }) {}
        return count + fields & 1
    }

    /// Times the newline scan and `readRaw` over `path` (and replay with `program`, on one
    /// thread and on two); prints the medians per line.
    static func printReadRaw(_ path: String, runs: Int, program: Program? = nil) -> Int32 {
        guard let lines = System.countNewlines(path), lines > 0 else {
            print("error: cannot read '\(path)' (or it has no lines)")
            return 1
        }
        let scan = time(runs: runs) { System.countNewlines(path) ?? 0 }
        var rows = [("newline scan", scan)]
        do throws(LogError) {
            rows.append(("reader nextRaw()", try time(runs: runs) { () throws(LogError) -> Int in try readRaw(path) }))
            if let program {
                for concurrently in [false, true] {
                    rows.append((concurrently ? "replay, 2 threads" : "replay, 1 thread",
                                 try time(runs: runs) { () throws(LogError) -> Int in
                                     try replay(path, program: program, concurrently: concurrently)
                                 }))
                }
            }
        } catch {
            print("error: \(path):\(error.line):\(error.column): \(error.message)")
            return 1
        }
        for (stage, seconds) in rows {
            let perLine = seconds / Double(lines) * 1e9
            print("\(Table.pad(stage, 22)) \(Table.fixed(seconds * 1000, 1)) ms  \(Table.fixed(perLine, 1)) ns/line  "
                  + "\(Table.fixed(Double(lines) / seconds / 1e6, 2)) M lines/s")
        }
        return 0
    }

    /// What `statecraft replay` does in process: `Replayer.replay` over the reader (lines in
    /// place), then the report.
    static func replay(_ path: String, program: Program, trace: Bool = false, concurrently: Bool = false) throws(LogError) -> Int {
        var reader = try EventLogReader.open(path: path)
        var replayer = Replayer(program: program, options: Replayer.Options(trace: trace))
        try replayer.replay(&reader, concurrently: concurrently)
        let report = replayer.report
        return report.cases.count + report.records
    }

    /// Loads and checks a spec; nil with a message on failure.
    static func loadProgram(_ path: String) -> Result<Program, BenchError> {
        guard let bytes = System.readFile(path) else { return .failure(BenchError("cannot read '\(path)'")) }
        // As `statecraft replay`: a spec runs when it parses and resolves.
        let result = Statecraft.check(SourceFile(path: path, bytes: bytes), bounds: nil)
        guard let machine = result.machine else {
            return .failure(BenchError("'\(path)' has errors; run 'statecraft check \(path)'"))
        }
        return .success(Program(machine))
    }

    /// Runs `body` `runs` times and returns the median time in seconds.
    static func time<E: Error>(runs: Int, _ body: () throws(E) -> Int) throws(E) -> Double {
        var times: [Double] = []
        var sink = 0
        for _ in 0..<max(1, runs) {
            let start = System.now()
            sink &+= try body()
            times.append(System.now() - start)
        }
        if sink == Int.min { print("") }
        return median(times)
    }
}
