/// `statecraft-bench parallel-summary`: `statecraft replay` on a generated parallel chart of N
/// regions, plain, with `--summary` and with `--format html`, as processes (median seconds
/// and peak RSS of the runs, and the size of what each printed). On such a chart almost every
/// ignored event arrives in a configuration never seen before, so a summary that grouped
/// deviations by the whole configuration made a group per event (issue 31, item 7).
struct ParallelSummary {
    var regions = 50
    var events = 100_000
    var runs = 5
    var directory = "/tmp/statecraft-bench"
    var seed: UInt64 = 1

    /// The spec: `regions` regions, each two states that `flipK` swaps; state `r0a` also has
    /// `probe` under a guard that never holds, and nothing takes `stray`.
    static func spec(regions: Int) -> String {
        var text = "machine Regions\(regions) {\n    var n: Number = 0\n    event probe\n    event stray\n"
        for k in 0..<regions { text += "    event flip\(k)\n" }
        text += "    initial parallel state all {\n"
        for k in 0..<regions {
            text += "        state r\(k) {\n"
            text += "            initial state r\(k)a {\n                on flip\(k) -> r\(k)b\n"
            if k == 0 { text += "                on probe if n > 0 -> r0b\n" }
            text += "            }\n            state r\(k)b {\n                on flip\(k) -> r\(k)a\n            }\n        }\n"
        }
        return text + "    }\n}\n"
    }

    /// The log: one line in two flips a random region, the others are `probe` or `stray`,
    /// which no transition takes; a `time` on every line.
    static func log(regions: Int, events: Int, seed: UInt64) -> String {
        var state = seed &+ 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var lines: [String] = []
        lines.reserveCapacity(events)
        for k in 0..<events {
            let time = LogGenerator.decimal(k, places: 2)
            let event = k % 2 == 0 ? "flip\(next() % UInt64(regions))" : (next() % 2 == 0 ? "probe" : "stray")
            lines.append("{\"time\": \(time), \"event\": \"\(event)\"}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func run() -> Int32 {
        guard let statecraft = System.executablePath().map({ String($0.dropLast("statecraft-bench".count)) + "statecraft" }) else {
            print("Error: cannot find the statecraft binary next to statecraft-bench")
            return 1
        }
        _ = System.run(["mkdir", "-p", directory])
        let base = "\(directory)/Regions\(regions)-\(events)"
        guard var specFile = FileWriter(path: base + ".machine"), var logFile = FileWriter(path: base + ".jsonl") else {
            print("Error: cannot write into \(directory)")
            return 1
        }
        specFile.write(Self.spec(regions: regions))
        specFile.close()
        logFile.write(Self.log(regions: regions, events: events, seed: seed))
        logFile.close()
        print("statecraft replay on a \(regions)-region parallel chart, \(events) events (\(base).jsonl); median of \(runs) runs")
        let variants: [(String, [String])] = [
            ("plain", []),
            ("--summary", ["--summary"]),
            ("--summary --format json", ["--summary", "--format", "json"]),
            ("--format html -o FILE", ["--format", "html", "-o", base + ".html"]),
        ]
        var plain = 0.0
        for (name, options) in variants {
            var seconds: [Double] = []
            var rss: [Double] = []
            let out = base + ".out"
            for _ in 0..<runs {
                guard let child = System.run([statecraft, "replay"] + options + [base + ".machine", base + ".jsonl"], stdout: out) else {
                    print("Error: cannot run \(statecraft)")
                    return 1
                }
                seconds.append(child.seconds)
                rss.append(Double(child.peakRSS))
            }
            let size = System.fileSize(options.contains("html") ? base + ".html" : out) ?? 0
            let lines = System.countNewlines(options.contains("html") ? base + ".html" : out) ?? 0
            let time = median(seconds)
            if name == "plain" { plain = time }
            let ratio = plain > 0 ? Self.fixed(time / plain, places: 1) + "×" : ""
            print("  " + Self.pad(name, 26) + Self.pad(Self.fixed(time, places: 3) + " s", 11) + Self.pad(ratio, 8)
                  + "peak RSS \(Int(median(rss) / 1_048_576)) MB, output \(size) bytes, \(lines) lines")
        }
        return 0
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }

    /// `x` with `places` decimals (no Foundation here).
    static func fixed(_ x: Double, places: Int) -> String {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let n = Int((x * Double(scale)).rounded())
        let whole = n / scale, fraction = String(n % scale)
        return "\(whole)." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}
