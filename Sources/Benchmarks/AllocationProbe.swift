import Statecraft

/// Counts heap allocations per event by running `probe` under Valgrind twice, over the first
/// N and the first 2N events of one log, and dividing the difference in Valgrind's "total
/// heap usage: X allocs" by N. Set-up (spec, decoding, buffers) is the same in both runs and
/// cancels out.
struct AllocationProbe {
    var machine = "Drawer"
    var count = 5_000
    var specs = "Specs"
    var directory = "/tmp/statecraft-bench"
    static let stages = ["next", "raw", "replay", "replay2", "step", "tape", "hand", "generated", "record"]

    func run() -> Int32 {
        guard let me = System.executablePath() else { return 1 }
        var command = RunCommand()
        command.events = count * 2
        command.directory = directory
        _ = System.run(["mkdir", "-p", directory])
        guard case .success(let log) = command.log(for: machine) else {
            print("error: cannot generate a log for \(machine)")
            return 1
        }
        print("allocations per event, \(machine), valgrind memcheck, (allocs(\(2 * count)) - allocs(\(count))) / \(count):")
        for stage in AllocationProbe.stages {
            var totals: [Int] = []
            for n in [count, 2 * count] {
                let err = "\(directory)/valgrind-\(stage)-\(n).txt"
                guard System.run(["valgrind", "--tool=memcheck", "--leak-check=no", me, "probe", "--stage", stage,
                                  "--machine", machine, "--log", log, "--count", String(n), "--specs", specs],
                                 stderr: err)?.status == 0,
                      let text = System.readFile(err), let total = AllocationProbe.allocs(String(decoding: text, as: UTF8.self))
                else { break }
                totals.append(total)
            }
            guard totals.count == 2 else {
                print("  \(Table.pad(stage, 9)) not measured (is valgrind installed?)")
                continue
            }
            let perEvent = Double(totals[1] - totals[0]) / Double(count)
            print("  \(Table.pad(stage, 9)) \(Table.fixed(perEvent, 2)) allocs/event  (\(totals[0]) → \(totals[1]))")
        }
        return 0
    }

    /// Runs one stage over the first `count` events (the process Valgrind watches); `step`,
    /// `hand` and `generated` go through them `repeats` times, so a profiler sees the stepping rather
    /// than the decoding before it.
    static func probe(stage: String, machine: String, log: String, count: Int, specs: String, repeats: Int = 1) -> Int32 {
        guard case .success(let program) = Stages.loadProgram("\(specs)/\(machine).machine") else { return 1 }
        do {
            switch stage {
            case "next": _ = try Stages.readRecords(log, limit: count)
            case "raw": _ = try Stages.readRaw(log, limit: count)
            case "replay", "replay2":
                // Replay reads whole files: give it the first `count` lines as one.
                let prefix = "\(log).first-\(count)"
                guard System.run(["head", "-n", String(count), log], stdout: prefix)?.status == 0 else { return 1 }
                _ = try Stages.replay(prefix, program: program, concurrently: stage == "replay2")
            case "step", "tape":
                guard case .success(var decoded) = DecodedLog.decode(path: log, program: program) else { return 1 }
                if stage == "step" {
                    for _ in 0..<max(1, repeats) { _ = decoded.step(program, count: count) }
                } else {
                    decoded.events.removeSubrange(min(count, decoded.events.count)...)
                    let tapes = decoded.tapes(program)
                    for _ in 0..<max(1, repeats) { _ = DecodedLog.run(tapes, program) }
                }
            case "hand":
                // The hand-written twin (`run`'s baseline) over the first N or 2N events; its
                // events are decoded from the whole log in both runs.
                guard case .success(var decoded) = DecodedLog.decode(path: log, program: program) else { return 1 }
                decoded.stepLimit = count
                guard let hand = RunCommand.handBaseline(machine, decoded, program) else { return 2 }
                var sum = 0
                for _ in 0..<max(1, repeats) { sum &+= hand.run() }
                if sum < 0 { print(sum) }
            case "generated":
                // The type `statecraft swift` writes (Machines/*.swift): the typed events of the
                // whole log are built in both runs, so the difference is what the first N or 2N
                // calls to `advance(to:)` and `send` allocate.
                guard case .success(var decoded) = DecodedLog.decode(path: log, program: program) else { return 1 }
                decoded.stepLimit = count
                guard let generated = GeneratedRun.make(machine, decoded, program) else { return 2 }
                for _ in 0..<max(1, repeats) { _ = generated.run() }
            case "record":
                // `EventLogWriter` writing the first `count` events of `record`'s drag.
                let writer = try EventLogWriter.create(path: "/dev/null")
                try RecordBench.write(count, to: writer)
                try writer.close()
            default: return 2
            }
        } catch {
            return 1
        }
        return 0
    }

    /// The X of Valgrind's "total heap usage: X allocs".
    static func allocs(_ output: String) -> Int? {
        let marker = "total heap usage: "
        for line in output.split(separator: "\n") {
            guard let start = line.firstRange(of: marker) else { continue }
            let digits = line[start.upperBound...].prefix { $0.isNumber || $0 == "," }.filter(\.isNumber)
            return Int(digits)
        }
        return nil
    }
}
