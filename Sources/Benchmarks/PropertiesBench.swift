import Statecraft

/// `statecraft-bench properties`: what watching a spec's properties costs `replay`. For each
/// bundled machine with properties, the same log is replayed in process by the spec as it is
/// and by the same spec with its `property` declarations cut out, on one thread and with the
/// second thread reading (as `statecraft replay` does for a file). The four replays run back
/// to back in each round, so a change in the VM's speed hits them alike; a cost is the
/// median of the rounds' ratios.
struct PropertiesBench {
    var events = 2_000_000
    var runs = 9
    var machines = LogGenerator.measuredByDefault
    var specs = "Specs"
    var directory = "/tmp/statecraft-bench"

    func run() -> Int32 {
        _ = System.run(["mkdir", "-p", directory])
        print("statecraft-bench properties: \(events) events per log, \(runs) rounds, release build")
        print("machine          properties  one thread: watched / plain (cost)   two threads: watched / plain (cost)")
        var logs = RunCommand()
        logs.events = events
        logs.directory = directory
        var failed = false
        for machine in machines {
            let path = "\(specs)/\(machine).machine"
            guard let bytes = System.readFile(path) else { return fail("cannot read '\(path)'") }
            guard let watched = Statecraft.check(SourceFile(path: path, bytes: bytes), bounds: nil).machine else {
                return fail("'\(path)' has errors")
            }
            let count = watched.properties.count
            guard count > 0 else { continue }
            guard let plain = Statecraft.check(SourceFile(path: path, bytes: Self.withoutProperties(bytes, watched)),
                                               bounds: nil).machine, plain.properties.isEmpty else {
                return fail("'\(path)' without its properties does not resolve")
            }
            guard case .success(let log) = logs.log(for: machine) else { return fail("cannot generate the \(machine) log") }
            let programs = (watched: Program(watched), plain: Program(plain))
            var one: (watched: [Double], plain: [Double]) = ([], [])
            var two: (watched: [Double], plain: [Double]) = ([], [])
            do throws(LogError) {
                for _ in 0..<max(1, runs) {
                    one.watched.append(try Stages.time(runs: 1) { () throws(LogError) in try Stages.replay(log, program: programs.watched) })
                    one.plain.append(try Stages.time(runs: 1) { () throws(LogError) in try Stages.replay(log, program: programs.plain) })
                    two.watched.append(try Stages.time(runs: 1) { () throws(LogError) in
                        try Stages.replay(log, program: programs.watched, concurrently: true)
                    })
                    two.plain.append(try Stages.time(runs: 1) { () throws(LogError) in
                        try Stages.replay(log, program: programs.plain, concurrently: true)
                    })
                }
            } catch {
                print("error: \(machine): \(error.message)")
                failed = true
                continue
            }
            func column(_ times: (watched: [Double], plain: [Double])) -> String {
                let perLine = { (t: [Double]) in Table.fixed(median(t) / Double(events) * 1e9, 1) }
                let cost = (median(zip(times.watched, times.plain).map { $0 / $1 }) - 1) * 100
                return "\(perLine(times.watched)) / \(perLine(times.plain)) ns/line (\(cost >= 0 ? "+" : "")\(Table.fixed(cost, 1))%)"
            }
            print("\(Table.pad(machine, 16)) \(Table.pad(String(count), 11)) \(Table.pad(column(one), 36)) \(column(two))")
        }
        return failed ? 1 : 0
    }

    /// The spec's text with each property declaration cut out (blanked, so every other
    /// position stays where it was).
    static func withoutProperties(_ bytes: [UInt8], _ machine: Machine) -> [UInt8] {
        var text = bytes
        for p in machine.properties {
            for i in Int(p.range.start)..<min(Int(p.range.end), text.count) where text[i] != UInt8(ascii: "\n") {
                text[i] = UInt8(ascii: " ")
            }
        }
        return text
    }

    private func fail(_ message: String) -> Int32 {
        print("error: \(message)")
        return 1
    }
}
