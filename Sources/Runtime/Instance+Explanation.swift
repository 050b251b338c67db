import StatecraftModel

extension Instance {
    /// Why an event that was just sent was ignored, in words: the guard of each transition
    /// of the active states that could have taken it, each false, with the values it read
    /// (`the guard 'submitEnabled' (line 12) is false (submitEnabled = false)`). Nil when
    /// no transition of the active states takes the event at all.
    ///
    /// A statechart is in several states at once, so each of its guards is introduced by
    /// the state it belongs to: `in state 'caret', the guard 'length > 0 && !in(composing)'
    /// (line 14) is false (length = 3, in(composing) = true)`. A flat machine's guards all
    /// belong to the state it is in or to its ancestors: they are not introduced.
    ///
    /// The event's payload must still be in the registers (as `send` and the replayer leave
    /// it). This is for messages only (`--strict`, traces): it evaluates the guards again,
    /// through `candidates(for:)`, so that it says what `--explain` says.
    public func ignoredBecause(_ event: EventID) -> String? {
        ignoredBecause(event, namingStates: chartRun != nil)
    }

    /// `ignoredBecause(_:)`, with each group of guards introduced by its state
    /// (`in state 'caret', the guard ...`) when `namingStates`.
    func ignoredBecause(_ event: EventID, namingStates: Bool) -> String? {
        let machine = program.machine
        var reasons: [String] = []
        var previous: StateID?
        for weighed in weighedCandidates(for: event, guardReads: true) {
            let transition = machine[weighed.candidate.transition]
            guard let guardExpr = transition.guardExpr else { continue }
            let verdict: String = switch weighed.candidate.verdict {
            case .isFalse: "is false"
            case .fault: "cannot be computed"
            case .holds, .unguarded: "holds"
            }
            // Constants are left out: their values are in the spec next to the guard.
            let read = weighed.guardReads.compactMap { r -> String? in
                switch r.kind {
                case .variable, .field: "\(r.name) = \(r.value)"
                case .state: "in(\(r.name)) = \(r.value)"
                case .constant: nil
                }
            }
            let line = machine.source.location(of: guardExpr.range.start).line
            let state = namingStates && weighed.source != previous
                ? "in state '\(machine[weighed.source].name)', " : ""
            previous = weighed.source
            reasons.append(state + "the guard '\(machine.text(guardExpr.range))' (line \(line)) \(verdict)"
                + (read.isEmpty ? "" : " (\(read.joined(separator: ", ")))"))
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
