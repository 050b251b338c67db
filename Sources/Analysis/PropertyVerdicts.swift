import StatecraftModel
import StatecraftRuntime

/// One verdict per property, from what the search found (`Explorer.violations`), how far
/// it got, and what the interval analysis proves on its own (`PropertyProofs`).
///
/// - A violation the search saw is a real run: its path is a log `replay` reproduces.
/// - `never`, `always` and `only after` are proven on the same grounds as an "unreachable,
///   proven" state: the search visited every reachable configuration, told apart also by
///   what each property's monitor remembers of the run (`PropertyMonitor.writeKey`), with
///   every distinct input and every order of timers, and none broke them.
/// - `always reachable X` is decided on the graph of the search's steps, once the search
///   has every configuration: the configurations from which no path leads to one where
///   `X` holds are traps, and the shallowest is the counterexample. Replay does not watch
///   this form (a log is one run, not the runs it could have had), so its counterexample
///   is the log that leads into the trap.
/// - Where the search samples payloads (a field that feeds arithmetic has too many values
///   to try), the interval analysis may still prove a property. A bounded response is not
///   proven by the search alone, which sends events only at the times its runs reach while
///   a response depends on when the environment acts between timers: the interval
///   analysis's timer rule proves it, or, after a complete search, `ResponseSearch`'s
///   argument that holds whenever the environment acts.
enum PropertyVerdicts {
    /// By property index: the interval analysis's proof of it, if it has one
    /// (`PropertyProofs` on `intervals`, the machine's analysis). Worked out before the
    /// search, which then need not go on for them.
    static func analysisProofs(_ machine: Machine, _ program: Program, intervals: IntervalAnalysis) -> [String?] {
        guard !machine.properties.isEmpty else { return [] }
        let proofs = PropertyProofs(machine, isStatechart: program.isStatechart, analysis: intervals)
        var start = Instance(program)
        let started = start.start().result == .started
        return machine.properties.indices.map { k in
            let y = program.properties.first { $0.property == k }?.other
            let startSatisfiesY = started && y.map { (try? start.holds($0)) == true } == true
            return proofs.proof(of: machine.properties[k], startSatisfiesY: startSatisfiesY)
        }
    }

    static func verdicts(_ machine: Machine, _ explorer: Explorer, _ report: ExplorationReport,
                         complete: Bool, proofs: [String?]) -> [ExplorationReport.PropertyVerdict] {
        // One set of payload candidates for every response the search may prove.
        let responses = complete && machine.properties.contains { $0.form.isResponse }
            ? ResponseSearch(program: explorer.program, payloads: PayloadCandidates(machine)) : nil
        return machine.properties.indices.map { k -> ExplorationReport.PropertyVerdict in
            let property = machine.properties[k]
            if let witness = explorer.violations[k] {
                return .violated(counterexample(property, witness, explorer))
            }
            if report.startFault != nil {
                return .notDecided("the machine cannot start, so no run has a stable configuration")
            }
            // Where the search cannot decide, the interval analysis may still prove it.
            if let reason = proofs[k], !complete || property.form.isResponse { return .proven(reason) }
            switch property.form {
            case .response:
                if let responses, let compiled = explorer.program.properties.first(where: { $0.property == k }),
                   let reason = responses.proof(of: compiled, nodes: explorer.nodes) {
                    return .proven(reason)
                }
                let why = complete ? [] : ExplorationReport.limitReasons(report)
                return .notDecided((why + ["a bounded response depends on when the environment acts between timers, "
                    + "and the search sends events only at the times its runs reach"]).joined(separator: "; ")
                    + "; this is not a proof either way")
            case .reachable:
                guard complete else {
                    return .notDecided(ExplorationReport.limitReasons(report).joined(separator: "; ")
                        + "; this is not a proof either way")
                }
                guard let trap = trap(k, explorer) else {
                    return .proven("from each of the \(explorer.nodes.count) reachable configurations the search "
                        + "visited, some run of its steps reaches one where it holds")
                }
                return .violated(trapCounterexample(property, trap, explorer))
            case .never, .always, .precedence:
                guard complete else {
                    return .notDecided(ExplorationReport.limitReasons(report).joined(separator: "; ")
                        + "; this is not a proof either way")
                }
                return .proven("the search visited every reachable configuration (\(explorer.nodes.count)), with what "
                    + "the property remembers of each run, and tried every distinct input in each")
            }
        }
    }

    /// The run that broke `property`, and what broke it, in words.
    static func counterexample(_ property: Property, _ w: Explorer.ViolationWitness,
                               _ explorer: Explorer) -> ExplorationReport.PropertyCounterexample {
        let machine = explorer.program.machine
        let instance = explorer.nodes[w.node].instance
        let reason = w.violation.describe(property, in: instance.configuration, of: machine)
        return ExplorationReport.PropertyCounterexample(witness: explorer.path(to: w.node), reason: reason,
                                                        time: w.violation.time)
    }

    /// The first node (in the order found, so a shallowest one) from which no path of the
    /// search's steps reaches a configuration where property `k`'s `X` holds; nil when
    /// there is none.
    static func trap(_ k: Int, _ explorer: Explorer) -> Int? {
        guard let compiled = explorer.program.properties.first(where: { $0.property == k }) else { return nil }
        let nodes = explorer.nodes
        // Nodes kept only as a witness's end repeat a configuration admitted elsewhere.
        let admitted = nodes.indices.filter { $0 == 0 || nodes[$0].expand }
        var reaches = Array(repeating: false, count: nodes.count)
        var predecessors = Array(repeating: [Int](), count: nodes.count)
        var work: [Int] = []
        for i in admitted {
            var instance = nodes[i].instance
            // An `X` that fails to evaluate does not hold there.
            if (try? instance.holds(compiled.x)) == true {
                reaches[i] = true
                work.append(i)
            }
            if i < explorer.successors.count { for j in explorer.successors[i] { predecessors[Int(j)].append(i) } }
        }
        while let j = work.popLast() {
            for i in predecessors[j] where !reaches[i] {
                reaches[i] = true
                work.append(i)
            }
        }
        return admitted.first { !reaches[$0] }
    }

    static func trapCounterexample(_ property: Property, _ node: Int,
                                   _ explorer: Explorer) -> ExplorationReport.PropertyCounterexample {
        let machine = explorer.program.machine
        let instance = explorer.nodes[node].instance
        let leaves = instance.configuration.atomicStates(in: machine).map { machine[$0].name }.joined(separator: ", ")
        let x = property.form.expressions.first.map { "'" + machine.text($0.range) + "'" } ?? "it"
        let reason = "from t=\(Value.number(instance.now)), in \(leaves), no run reaches a configuration where \(x) holds"
        return ExplorationReport.PropertyCounterexample(witness: explorer.path(to: node), reason: reason, time: instance.now)
    }
}

extension Property.Form {
    var isResponse: Bool {
        if case .response = self { return true }
        return false
    }
}
