import Statecraft

/// The benchmark's command line: a command, then `--name value` options and `--flag`s.
struct Arguments {
    var command: String
    var options: [String: [String]] = [:]
    var flags: Set<String> = []
    var problem: String?

    static let usage = """
        USAGE: statecraft-bench generate --machine NAME --events N --out FILE
               statecraft-bench run [--events N] [--runs K] [--machine NAME ...] [--dir DIR] [--specs DIR] [--python] [--no-cli] [--stepping]
               statecraft-bench allocs [--machine NAME] [--count N] [--dir DIR] [--specs DIR]
               statecraft-bench probe --stage STAGE --machine NAME --log FILE --count N [--repeat R] [--specs DIR]
               statecraft-bench read-raw --log FILE [--runs K] [--machine NAME [--specs DIR]]
               statecraft-bench disasm --spec FILE
               statecraft-bench lsp-latency [--runs K] [--transitions N] [--specs DIR]
               statecraft-bench parallel-summary [--regions 50] [--events 100000] [--runs 5] [--dir DIR]
               statecraft-bench paths [--runs K] [--states N ...]
               statecraft-bench chart --states N --out FILE
               statecraft-bench record [--events N] [--runs K] [--out FILE]
               statecraft-bench properties [--events N] [--runs K] [--machine NAME ...] [--dir DIR] [--specs DIR]
               statecraft-bench search [--spec FILE ...] [--max-configurations N ...] [--max-depth N] [--runs K] [--reach TARGET]
        (see the header of Sources/Benchmarks/main.swift)
        """

    init(_ arguments: [String]) {
        command = arguments.first ?? "help"
        var i = 1
        while i < arguments.count {
            let argument = arguments[i]
            if ["--python", "--no-cli", "--stepping"].contains(argument) {
                flags.insert(argument)
            } else if argument.hasPrefix("--"), i + 1 < arguments.count {
                options[argument, default: []].append(arguments[i + 1])
                i += 1
            } else {
                problem = "unexpected argument '\(argument)'"
            }
            i += 1
        }
    }

    func value(_ name: String) -> String? { options[name]?.last }

    func number(_ name: String, default value: Int) -> Int? {
        guard let text = self.value(name) else { return value }
        return Int(text.filter { $0 != "_" })
    }

    /// Every value of a repeatable option (`--states 500 --states 2_000`), or nil when one is
    /// not a positive integer.
    func positiveNumbers(_ name: String) -> [Int]? {
        var numbers: [Int] = []
        for text in options[name] ?? [] {
            guard let n = Int(text.filter { $0 != "_" }), n > 0 else { return nil }
            numbers.append(n)
        }
        return numbers
    }

    func dispatch() -> Int32 {
        if let problem { return fail(problem) }
        switch command {
        case "generate":
            guard let machine = value("--machine"), let out = value("--out"),
                  let events = number("--events", default: 1_000_000) else { return fail("generate needs --machine and --out") }
            guard let seed = number("--seed", default: 1), seed >= 0 else { return fail("--seed takes a whole number") }
            guard LogGenerator.generate(machine: machine, events: events, path: out, seed: UInt64(seed)) else {
                return fail("cannot generate '\(machine)' into '\(out)' (machines: \(LogGenerator.machines.joined(separator: ", ")))")
            }
            return 0
        case "run":
            var command = RunCommand()
            guard let events = number("--events", default: command.events), let runs = number("--runs", default: command.runs) else {
                return fail("--events and --runs take integers")
            }
            command.events = events
            command.runs = runs
            command.machines = options["--machine"] ?? command.machines
            command.directory = value("--dir") ?? command.directory
            command.specs = value("--specs") ?? command.specs
            command.python = flags.contains("--python")
            command.cli = !flags.contains("--no-cli")
            command.steppingOnly = flags.contains("--stepping")
            return command.run()
        case "properties":
            var bench = PropertiesBench()
            guard let events = number("--events", default: bench.events), events > 0,
                  let runs = number("--runs", default: bench.runs), runs > 0 else {
                return fail("--events and --runs take positive integers")
            }
            bench.events = events
            bench.runs = runs
            bench.machines = options["--machine"] ?? bench.machines
            bench.directory = value("--dir") ?? bench.directory
            bench.specs = value("--specs") ?? bench.specs
            return bench.run()
        case "record":
            var bench = RecordBench()
            guard let events = number("--events", default: bench.events), events > 0,
                  let runs = number("--runs", default: bench.runs) else { return fail("--events and --runs take integers") }
            bench.events = events
            bench.runs = runs
            bench.path = value("--out") ?? bench.path
            return bench.run()
        case "allocs":
            var probe = AllocationProbe()
            guard let count = number("--count", default: probe.count) else { return fail("--count takes an integer") }
            probe.count = count
            probe.machine = value("--machine") ?? probe.machine
            probe.directory = value("--dir") ?? probe.directory
            probe.specs = value("--specs") ?? probe.specs
            return probe.run()
        case "probe":
            guard let stage = value("--stage"), let machine = value("--machine"), let log = value("--log"),
                  let count = number("--count", default: 1000) else { return fail("probe needs --stage, --machine and --log") }
            guard let repeats = number("--repeat", default: 1) else { return fail("--repeat takes an integer") }
            return AllocationProbe.probe(stage: stage, machine: machine, log: log, count: count,
                                         specs: value("--specs") ?? "Specs", repeats: repeats)
        case "disasm":
            guard let spec = value("--spec") else { return fail("disasm needs --spec FILE") }
            switch Stages.loadProgram(spec) {
            case .success(let program):
                print(program.disassembly, terminator: "")
                return 0
            case .failure(let e): return fail(e.message)
            }
        case "read-raw":
            guard let log = value("--log"), let runs = number("--runs", default: 5) else {
                return fail("read-raw needs --log (and --runs takes an integer)")
            }
            var program: Program?
            if let machine = value("--machine") {
                switch Stages.loadProgram("\(value("--specs") ?? "Specs")/\(machine).machine") {
                case .success(let p): program = p
                case .failure(let e): return fail(e.message)
                }
            }
            return Stages.printReadRaw(log, runs: runs, program: program)
        case "lsp-latency":
            var latency = LSPLatency()
            guard let runs = number("--runs", default: latency.runs), runs > 0,
                  let transitions = number("--transitions", default: latency.transitions), transitions > 0 else {
                return fail("--runs and --transitions take positive integers")
            }
            latency.runs = runs
            latency.transitions = transitions
            latency.specs = value("--specs") ?? latency.specs
            return latency.run()
        case "parallel-summary":
            var bench = ParallelSummary()
            guard let regions = number("--regions", default: bench.regions), regions > 0,
                  let events = number("--events", default: bench.events), events > 0,
                  let runs = number("--runs", default: bench.runs), runs > 0 else {
                return fail("--regions, --events and --runs take positive integers")
            }
            bench.regions = regions
            bench.events = events
            bench.runs = runs
            bench.directory = value("--dir") ?? bench.directory
            return bench.run()
        case "paths":
            var bench = PathsBench()
            guard let runs = number("--runs", default: bench.runs), runs > 0 else { return fail("--runs takes a positive integer") }
            guard let sizes = positiveNumbers("--states") else { return fail("--states takes positive integers") }
            bench.runs = runs
            if !sizes.isEmpty { bench.sizes = sizes }
            return bench.run()
        case "chart":
            guard let states = number("--states", default: 0), states > 0, let out = value("--out") else {
                return fail("chart needs --states N (positive) and --out FILE")
            }
            guard System.writeFile(out, PathsBench.chart(states: states)) else { return fail("cannot write '\(out)'") }
            return 0
        case "search":
            var bench = SearchBench()
            guard let runs = number("--runs", default: bench.runs), runs > 0,
                  let depth = number("--max-depth", default: bench.maxDepth), depth > 0,
                  let bounds = positiveNumbers("--max-configurations") else {
                return fail("--runs, --max-depth and --max-configurations take positive integers")
            }
            bench.specs = options["--spec"] ?? bench.specs
            if !bounds.isEmpty { bench.bounds = bounds }
            bench.runs = runs
            bench.maxDepth = depth
            bench.reach = options["--reach"]?.last
            return bench.run()
        case "help", "-h", "--help":
            print(Arguments.usage)
            return 0
        default:
            return fail("unknown command '\(command)'")
        }
    }

    private func fail(_ message: String) -> Int32 {
        print("Error: \(message)\n\n" + Arguments.usage)
        return 2
    }
}
