import StatecraftModel
import StatecraftRuntime

/// "Why was this event not taken?" in words, rendered from the runtime's structured answer
/// (`Instance.candidates(for:)`), so that `--strict`, traces and `--explain` never disagree:
/// the guard of each candidate transition, each false, with the values it read
/// (`the guard 'submitEnabled' (line 12) is false (submitEnabled = false)`).
public enum WhyNotTaken {
    /// The sentence for `candidates`, or nil when there are none with a guard (no
    /// transition of the active states takes the event at all, or only unguarded ones did).
    ///
    /// A statechart is in several states at once, so each of its guards is introduced by
    /// the state it belongs to (`namingStates`): `in state 'caret', the guard 'length > 0 &&
    /// !in(composing)' (line 14) is false (length = 3, in(composing) = true)`. A flat
    /// machine's guards all belong to the state it is in or to its ancestors: they are not
    /// introduced.
    public static func sentence(_ candidates: [TransitionCandidate], in machine: Machine,
                                namingStates: Bool) -> String? {
        var reasons: [String] = []
        var previous: StateID?
        for candidate in candidates {
            let transition = machine[candidate.transition]
            guard let guardExpr = transition.guardExpr else { continue }
            let verdict: String = switch candidate.verdict {
            case .isFalse: "is false"
            case .fault: "cannot be computed"
            case .holds, .unguarded: "holds"
            }
            // Constants are left out: their values are in the spec next to the guard.
            let read = candidate.guardReads.compactMap { r -> String? in
                switch r.kind {
                case .variable, .field: "\(r.name) = \(r.value)"
                case .state: "in(\(r.name)) = \(r.value)"
                case .constant: nil
                }
            }
            let line = machine.source.location(of: guardExpr.range.start).line
            let state = namingStates && candidate.state != previous
                ? "in state '\(machine[candidate.state].name)', " : ""
            previous = candidate.state
            reasons.append(state + "the guard '\(machine.text(guardExpr.range))' (line \(line)) \(verdict)"
                + (read.isEmpty ? "" : " (\(read.joined(separator: ", ")))"))
        }
        return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }

    /// Why `event`, just sent to `instance` and not taken, was not taken, in words (nil
    /// when no transition of its active states takes it): `sentence` over the instance's
    /// candidates, naming each guard's state when the machine is a statechart. The event's
    /// payload must still be in the registers (as `send` and the replayer leave it).
    public static func sentence(for event: EventID, in instance: Instance) -> String? {
        sentence(instance.candidates(for: event), in: instance.program.machine,
                 namingStates: instance.program.isStatechart)
    }
}
