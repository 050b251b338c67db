import StatecraftModel

/// A program's compiled code as text, for people and for golden files: each block with what
/// it is for, then its instructions with registers named after what they hold.
///
/// Registers read `v.name` (a variable), `f.name` (a payload field of the block's event, or
/// `f3` when the block serves no single event), `l3` (a `let` local), `k:value` (a constant)
/// and `t3` (a temporary); jumps name their target's position in the block (`→ 7`).
extension Program {
    /// The disassembly of every block, in the order the program runs them: a flat program's
    /// start and (state, event) and (timer, state) blocks; a statechart's entry and exit
    /// blocks, each transition's guard and actions.
    public var disassembly: String {
        var out = "program \(machine.name)" + (chart == nil ? "" : " (statechart)") + "\n"
        let names = machine.states.map(\.name)
        if let chart {
            for s in machine.states.indices {
                block(&out, "entry \(names[s])", Int(chart.entryPC[s]), fields: [])
                block(&out, "exit \(names[s])", Int(chart.exitPC[s]), fields: [])
            }
            for s in machine.states.indices {
                for e in machine.events.indices {
                    for k in group(s, e) {
                        let t = transitions[k]
                        let what = "\(names[s]) on \(machine.events[e].name), transition \(t.id.index)"
                        block(&out, "guard of " + what, Int(t.guardPC), fields: machine.events[e].fields.map(\.name))
                        block(&out, "actions of " + what, Int(chart.eventActions[k]), fields: machine.events[e].fields.map(\.name))
                    }
                }
            }
            for (label, start, table) in [("always", chart.eventlessStart, chart.eventless),
                                          ("done", chart.completionStart, chart.completion)] {
                for s in machine.states.indices {
                    for k in Int(start[s])..<Int(start[s + 1]) {
                        let c = table[k]
                        block(&out, "guard of \(names[s]) \(label), transition \(c.transition)", Int(c.guardPC), fields: [])
                        block(&out, "actions of \(names[s]) \(label), transition \(c.transition)", Int(c.actionsPC), fields: [])
                    }
                }
            }
            for k in 0..<timers.count {
                let c = chart.timerCandidates[k]
                block(&out, "guard of timer \(c.transition)", Int(c.guardPC), fields: [])
                block(&out, "actions of timer \(c.transition)", Int(c.actionsPC), fields: [])
            }
            return out
        }
        block(&out, "start", Int(startPC), fields: [])
        // Only a leaf is ever the active state whose block runs.
        for s in machine.states.indices.dropFirst() where machine.states[s].children.isEmpty {
            for e in machine.events.indices {
                block(&out, "\(names[s]) on \(machine.events[e].name)", Int(dispatch[s * eventCount + e]),
                      fields: machine.events[e].fields.map(\.name))
            }
        }
        for k in 0..<timers.count {
            for s in machine.states.indices.dropFirst() where machine.states[s].children.isEmpty {
                let pc = Int(timerDispatch[k * stateCount + s])
                block(&out, "timer \(timers[k].transition.index) in \(names[s])", pc, fields: [])
            }
        }
        return out
    }

    /// Appends the block at `pc` (nothing for -1, or for the shared empty block).
    private func block(_ out: inout String, _ title: String, _ pc: Int, fields: [String]) {
        guard pc >= 0, pc != emptyBlock else { return }
        out += "\n" + title + ":\n"
        var k = pc
        while k < code.count {
            let i = code[k]
            out += "  \(k - pc): " + describe(i, pc: pc, fields: fields) + "\n"
            k += 1
            // A block ends at its `end` or `fire`, unless a jump of the block goes past it.
            if i.op == .end || i.op == .fire {
                if !jumpsPast(k, from: pc) { break }
            }
        }
    }

    /// Whether a jump in `pc ..< end` lands at `end` or later.
    private func jumpsPast(_ end: Int, from pc: Int) -> Bool {
        (pc..<end).contains { k in isJump(code[k].op) && Int(code[k].a) >= end }
    }

    private func isJump(_ op: Opcode) -> Bool {
        switch op {
        case .jump, .jumpIfFalse, .jumpIfTrue, .jumpUnlessLess, .jumpUnlessLessEqual, .jumpUnlessGreater,
             .jumpUnlessGreaterEqual, .jumpUnlessEqual, .jumpUnlessNotEqual: true
        default: false
        }
    }

    private func describe(_ i: Instruction, pc: Int, fields: [String]) -> String {
        let op = "\(i.op)"
        func n(_ r: Int32) -> String { register(Int(r), string: false, fields: fields) }
        func s(_ r: Int32) -> String { register(Int(r), string: true, fields: fields) }
        func target(_ a: Int32) -> String { "→ \(Int(a) - pc)" }
        switch i.op {
        case .move, .negate, .not, .abs, .sqrt, .floor, .ceil, .round: return "\(op) \(n(i.a)), \(n(i.b))"
        case .clamp, .select: return "\(op) \(n(i.a)), \(n(i.b)), \(n(i.c)), \(n(Int32(i.ud)))"
        case .jump: return "jump \(target(i.a))"
        case .jumpIfFalse, .jumpIfTrue: return "\(op) \(target(i.a)), \(n(i.b))"
        case .jumpUnlessLess, .jumpUnlessLessEqual, .jumpUnlessGreater, .jumpUnlessGreaterEqual,
             .jumpUnlessEqual, .jumpUnlessNotEqual: return "\(op) \(target(i.a)), \(n(i.b)), \(n(i.c))"
        case .moveString: return "\(op) \(s(i.a)), \(s(i.b))"
        case .concatenate: return "\(op) \(s(i.a)), \(s(i.b)), \(s(i.c))"
        case .textOfNumber, .textOfBool: return "\(op) \(s(i.a)), \(n(i.b))"
        case .equalStrings, .notEqualStrings: return "\(op) \(n(i.a)), \(s(i.b)), \(s(i.c))"
        case .storeString: return "\(op) \(s(i.a)), \(s(i.b))"
        case .emit:
            let site = Int(i.a)
            let args = (Int(emitStart[site])..<Int(emitStart[site + 1])).map { k in
                let r = emitArguments[k].register
                return register(Int(r.index), string: r.file == .string, fields: fields)
            }
            return "emit \(machine[emitOutputs[site]].name)(\(args.joined(separator: ", ")))"
        case .raise:
            let site = Int(i.a)
            let args = (Int(raiseStart[site])..<Int(raiseStart[site + 1])).map { k in
                let r = raiseArguments[k]
                return register(Int(r.index), string: r.file == .string, fields: fields)
            }
            return "raise \(machine.events[Int(raiseEvents[site])].name)(\(args.joined(separator: ", ")))"
        case .send:
            let site = Int(i.a)
            let args = (Int(sendStart[site])..<Int(sendStart[site + 1])).map { k in
                let r = sendArguments[k]
                return register(Int(r.index), string: r.file == .string, fields: fields)
            }
            let delay = sendDelays[site] >= 0 ? " after \(n(sendDelays[site]))" : ""
            if sendEvents[site] < 0 {
                return "send named \(register(Int(sendNames[site]), string: true, fields: fields))" + delay
            }
            return "send \(machine.events[Int(sendEvents[site])].name)(\(args.joined(separator: ", ")))" + delay
        case .cancel: return "cancel \(machine.events[Int(i.a)].name)"
        case .isActive: return "isActive \(n(i.a)), \(machine.states[Int(i.b)].name)"
        case .fail: return "fail"
        case .save: return "save " + [i.a, i.b, i.c].filter { $0 >= 0 }.map(n).joined(separator: ", ")
        case .cancelTimers: return "cancelTimers \(machine.states[Int(i.a)].name)"
        case .armTimers: return "armTimers \(machine.states[Int(i.a)].name)"
        case .fire:
            let to = i.b >= 0 ? " -> \(machine.states[Int(i.b)].name)" : " (no target)"
            return "fire transition \(i.a)\(to)" + (i.c != 0 ? ", ends the run" : "")
        case .end: return "end"
        default: return "\(op) \(n(i.a)), \(n(i.b)), \(n(i.c))"
        }
    }

    /// A register's name: what it holds.
    private func register(_ r: Int, string: Bool, fields: [String]) -> String {
        if r < machine.variables.count { return "v." + machine.variables[r].name }
        if r < localBase {
            let k = r - payloadBase
            return k < fields.count ? "f." + fields[k] : "f\(k)"
        }
        if r < constantBase { return "l\(r - localBase)" }
        if r < temporaryBase { return "k:" + (string ? Value.string(initialStrings[r]).json : Value.number(initialNumbers[r]).description) }
        return "t\(r - temporaryBase)"
    }
}
