import StatecraftModel

extension Instance {
    /// Why an event that was just sent was ignored, in words: the guard of each transition
    /// of the active states that could have taken it, each false, with the values it read
    /// (`the guard 'submitEnabled' (line 12) is false (submitEnabled = false)`). Nil when
    /// no transition of the active states takes the event at all.
    ///
    /// The event's payload must still be in the registers (as `send` and the replayer leave
    /// it). This is for messages only (`--strict`, traces): it evaluates the guards again.
    public func ignoredBecause(_ event: EventID) -> String? {
        let machine = program.machine
        var copy = self
        copy.makeUnique()  // evaluating a guard writes temporaries
        var reasons: [String] = []
        for source in activeStates {
            for k in program.group(source.index, event.index) {
                let compiled = program.transitions[k]
                let transition = machine[compiled.id]
                guard let guardExpr = transition.guardExpr, compiled.guardPC >= 0 else { continue }
                let verdict: String
                if (try? copy.execute(compiled.guardPC)) == nil {
                    verdict = "cannot be computed"
                } else if copy.registers.numbers[Int(compiled.guardRegister)] == 0 {
                    verdict = "is false"
                } else {
                    verdict = "holds"
                }
                var read: [String] = []
                var seen: Set<String> = []
                guardExpr.visit { e in
                    switch e.kind {
                    case .variable(let id) where seen.insert(machine[id].name).inserted:
                        read.append("\(machine[id].name) = \(variables[id.index])")
                    case .field(let name) where seen.insert(name).inserted:
                        if let value = payloadValue(event, field: name) { read.append("\(name) = \(value)") }
                    default: break
                    }
                }
                let line = machine.source.location(of: guardExpr.range.start).line
                reasons.append("the guard '\(machine.text(guardExpr.range))' (line \(line)) \(verdict)"
                    + (read.isEmpty ? "" : " (\(read.joined(separator: ", ")))"))
            }
        }
        return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }

    /// The value of payload field `name` of `event`, as loaded in the registers.
    func payloadValue(_ event: EventID, field name: String) -> Value? {
        guard let index = program.machine[event].fieldIndex(name) else { return nil }
        let slot = Int(program.payloadStart[event.index]) + index
        let register = program.payloadRegisters[slot]
        let type = program.machine[event].fields[index].type
        return Program.value(type, number: type == .string ? 0 : registers.numbers[Int(register.index)],
                             string: type == .string ? registers.strings[Int(register.index)] : "")
    }
}
