#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Statecraft

/// `paths-bench`: how `statecraft paths`'s work grows with the size of a chart. For each N,
/// a generated chart of N states is checked (parse, resolve, the search with `check`'s
/// default bounds), then `TestGeneration.generate` turns every witness into a log; the
/// median of the runs of each is printed, and the generation's time per state, which stays
/// flat when the growth is linear.
struct PathsBench {
    var runs = 3
    var sizes = [250, 500, 1_000, 2_000]

    func run() -> Int32 {
        print("statecraft paths on a generated chart of N states: median of \(runs) runs, seconds")
        print(Table.pad("states", 8) + Table.lpad("transitions", 12) + Table.lpad("reached", 9) + Table.lpad("logs", 7)
              + Table.lpad("check", 10) + Table.lpad("generate", 10) + Table.lpad("µs/state", 10))
        for n in sizes {
            let text = Self.chart(states: n)
            var checks: [Double] = []
            var generations: [Double] = []
            var shape = (transitions: 0, reached: 0, logs: 0)
            for _ in 0..<runs {
                let began = System.now()
                let result = Statecraft.check(SourceFile(path: "chart.machine", bytes: Array(text.utf8)))
                let checked = System.now()
                guard let machine = result.machine, let report = result.exploration else {
                    print("Error: the generated chart of \(n) states has errors")
                    return 1
                }
                let (logs, targets) = TestGeneration.generate(machine, report, cover: .transitions)
                generations.append(System.now() - checked)
                checks.append(checked - began)
                shape = (targets.count, targets.filter { $0.file != nil }.count, logs.count)
            }
            let generation = Self.median(generations)
            print(Table.pad("\(n)", 8) + Table.lpad("\(shape.transitions)", 12) + Table.lpad("\(shape.reached)", 9)
                  + Table.lpad("\(shape.logs)", 7) + Table.lpad(Table.fixed(Self.median(checks), 3), 10)
                  + Table.lpad(Table.fixed(generation, 3), 10) + Table.lpad(Table.fixed(generation / Double(n) * 1e6, 1), 10))
        }
        return 0
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// A flat machine of `states` states in a binary tree: `s(i)` goes `left` to `s(2i+1)` and
    /// `right` to `s(2i+2)`, so every state is within log2(N) steps of the start and `check`'s
    /// default bounds reach all of them; every state but the first also goes `home` (a
    /// payload compared with a constant) or, past a timer, back to `s0`. The steps count
    /// visits and emit an output with an argument, so the logs carry variables and outputs.
    static func chart(states: Int) -> String {
        var lines = [
            "machine Chart {",
            "    const patience = 2s",
            "    public var visits: Number = 0",
            "    event left",
            "    event right",
            "    event home(hurry: Bool)",
            "    output moved(to: Number)",
        ]
        for i in 0..<max(1, states) {
            lines.append("    \(i == 0 ? "initial " : "")state s\(i) {")
            for (event, child) in [("left", 2 * i + 1), ("right", 2 * i + 2)] where child < states {
                lines.append("        on \(event) -> s\(child) { visits += 1; emit moved(\(child)) }")
            }
            if i > 0 {
                lines.append("        on home if hurry -> s0")
                lines.append("        after patience -> s0")
            }
            lines.append("    }")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
