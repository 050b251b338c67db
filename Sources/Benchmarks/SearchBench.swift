import Statecraft

/// `statecraft-bench search`: how far `check`'s witness search gets on a spec, and at what
/// cost. For each spec and each configuration bound: the configurations the search
/// visited, its verdicts (reached, proven unreachable, not reached), and the median time and
/// peak resident set of `statecraft check` on it (a child process each run, so the peak is
/// that run's own, from wait4).
struct SearchBench {
    var specs = ["Tests/CheckerTests/Fixtures/debounce-chain.machine",
                 "Tests/CheckerTests/Fixtures/debounce-checkout.machine"]
    var bounds = [5_000]
    var maxDepth = 12
    var runs = 3
    /// With `--reach TARGET`: the whole-spec search's verdict on that one target against
    /// `check --reach`'s, at each bound.
    var reach: String?

    func run() -> Int32 {
        if let reach { return compare(reach) }
        guard let own = System.executablePath(), let slash = own.lastIndex(of: "/") else {
            print("Error: cannot find the statecraft binary next to statecraft-bench")
            return 1
        }
        let binary = String(own[..<slash]) + "/statecraft"
        print(Table.pad("spec", 26) + Table.lpad("bound", 9) + Table.lpad("configurations", 16) + Table.lpad("reached", 9)
            + Table.lpad("proven", 8) + Table.lpad("not reached", 13) + Table.lpad("median s", 10) + Table.lpad("peak RSS MB", 13))
        for spec in specs {
            guard let bytes = System.readFile(spec) else {
                print("Error: cannot read '\(spec)'")
                return 1
            }
            for bound in bounds {
                let limits = ExplorationBounds(maxDepth: maxDepth, maxConfigurations: bound)
                let result = Statecraft.check(SourceFile(path: spec, bytes: bytes), bounds: limits)
                guard let report = result.exploration else {
                    print("Error: '\(spec)' has errors; run 'statecraft check \(spec)'")
                    return 1
                }
                var counts = (reached: 0, proven: 0, notReached: 0)
                for finding in report.states.dropFirst() + report.transitions {
                    switch finding {
                    case .reached: counts.reached += 1
                    case .unreachable: counts.proven += 1
                    case .notReached: counts.notReached += 1
                    }
                }
                var seconds: [Double] = []
                var peak = 0
                for _ in 0..<max(1, runs) {
                    guard let child = System.run([binary, "check", "--max-configurations", "\(bound)", "--max-depth", "\(maxDepth)", spec]) else {
                        print("Error: cannot run '\(binary)'")
                        return 1
                    }
                    seconds.append(child.seconds)
                    peak = max(peak, child.peakRSS)
                }
                let name = String(spec.split(separator: "/").last ?? "")
                print(Table.pad(name, 26) + Table.lpad("\(bound)", 9) + Table.lpad("\(report.configurations)", 16)
                    + Table.lpad("\(counts.reached)", 9) + Table.lpad("\(counts.proven)", 8) + Table.lpad("\(counts.notReached)", 13)
                    + Table.lpad(Table.fixed(median(seconds), 3), 10) + Table.lpad(Table.fixed(Double(peak) / 1_048_576, 1), 13))
            }
        }
        return 0
    }

    /// For each spec and bound: what the whole-spec search (`check`) found for `target`, and
    /// what the targeted one (`check --reach`) found, with the configurations each visited and
    /// the median time of the `statecraft check --reach` process.
    func compare(_ target: String) -> Int32 {
        guard let own = System.executablePath(), let slash = own.lastIndex(of: "/") else {
            print("Error: cannot find the statecraft binary next to statecraft-bench")
            return 1
        }
        let binary = String(own[..<slash]) + "/statecraft"
        print(Table.pad("spec", 26) + Table.lpad("target", 10) + Table.lpad("bound", 8) + Table.lpad("whole: configs", 16)
            + Table.lpad("verdict", 13) + Table.lpad("--reach: configs", 18) + Table.lpad("left out", 10) + Table.lpad("verdict", 13)
            + Table.lpad("steps", 7) + Table.lpad("median s", 10))
        func verdict(_ finding: ExplorationReport.Finding) -> (String, String) {
            switch finding {
            case .reached(let steps): ("reached", "\(steps.count)")
            case .unreachable: ("unreachable", "-")
            case .notReached: ("not reached", "-")
            }
        }
        for spec in specs {
            guard let bytes = System.readFile(spec) else {
                print("Error: cannot read '\(spec)'")
                return 1
            }
            for bound in bounds {
                let limits = ExplorationBounds(maxDepth: maxDepth, maxConfigurations: bound)
                let whole = Statecraft.check(SourceFile(path: spec, bytes: bytes), bounds: limits)
                guard let machine = whole.machine, let report = whole.exploration else {
                    print("Error: '\(spec)' has errors; run 'statecraft check \(spec)'")
                    return 1
                }
                guard case .success(let goal) = TargetedSearch.target(target, in: machine) else {
                    print("Error: '\(spec)' has no target '\(target)'")
                    return 1
                }
                let targeted = TargetedSearch.run(machine, target: goal, bounds: limits)
                let (wholeFinding, reachFinding) = switch goal {
                case .state(let s): (report.states[s.index], targeted.exploration.states[s.index])
                case .transitions(let ts): (report.transitions[ts[0].index], targeted.exploration.transitions[ts[0].index])
                }
                var seconds: [Double] = []
                for _ in 0..<max(1, runs) {
                    guard let child = System.run([binary, "check", "--reach", target, "--max-configurations", "\(bound)",
                                                  "--max-depth", "\(maxDepth)", spec]) else {
                        print("Error: cannot run '\(binary)'")
                        return 1
                    }
                    seconds.append(child.seconds)
                }
                let name = String(spec.split(separator: "/").last ?? "")
                let (w, _) = verdict(wholeFinding)
                let (r, steps) = verdict(reachFinding)
                print(Table.pad(name, 26) + Table.lpad(target, 10) + Table.lpad("\(bound)", 8)
                    + Table.lpad("\(report.configurations)", 16) + Table.lpad(w, 13)
                    + Table.lpad("\(targeted.exploration.configurations)", 18) + Table.lpad("\(targeted.pruned)", 10)
                    + Table.lpad(r, 13) + Table.lpad(steps, 7) + Table.lpad(Table.fixed(median(seconds), 3), 10))
            }
        }
        return 0
    }
}
