import StatecraftModel

extension PropertyViolation {
    /// What broke `property`, in the words both `check` (a counterexample's reason) and
    /// `replay` (a case's violation) use, so a counterexample replayed reads as it was found:
    /// the property's own expressions quoted from the spec, the time, and the atomic states
    /// of `configuration`, the stable configuration the violation was seen in.
    package func describe(_ property: Property, in configuration: Configuration, of machine: Machine) -> String {
        func quoted(_ e: Expr) -> String { "'" + machine.text(e.range) + "'" }
        let leaves = configuration.atomicStates(in: machine).map { machine[$0].name }.joined(separator: ", ")
        let at = "at t=\(Value.number(time)), in \(leaves)"
        switch (reason, property.form) {
        case (.fault(let fault), _):
            return "the property cannot be evaluated \(at): \(fault.message) in '\(machine.text(fault.range))'"
        case (.deadlinePassed(let trigger, let deadline, _), .response(_, _, let x)):
            return "after the trigger at t=\(Value.number(trigger)), \(quoted(x)) did not hold by the deadline "
                + "t=\(Value.number(deadline)); the clock passed it at t=\(Value.number(time))"
        case (.stateBreaksIt, .never(let x, let g)):
            return "\(quoted(x)) holds \(at)" + (g.map { " (where \(quoted($0)) holds)" } ?? "")
        case (.stateBreaksIt, .always(let x, let g)):
            return "\(quoted(x)) is false \(at)" + (g.map { " (where \(quoted($0)) holds)" } ?? "")
        case (.beforePrecondition, .precedence(let x, let y)):
            return "\(quoted(x)) holds \(at), and \(quoted(y)) has not held before in this run"
        default:
            // A reason of another form: the monitor never pairs them, but a wrong pairing
            // should still read as a violation rather than stop the report.
            return "the run breaks it \(at)"
        }
    }
}
