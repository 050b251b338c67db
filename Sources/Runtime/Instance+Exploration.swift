import StatecraftModel

/// What distinguishes one configuration of an instance from another: the active state, the
/// variables and the armed timers (as time left, so configurations reached at different
/// times compare equal when they behave the same from then on).
public struct Configuration: Hashable, Sendable {
    public var state: StateID
    public var variables: [Value]
    /// Each armed timer: its state, its index among that state's timers, the time left.
    public var timers: [Timer]
    public var isFinished: Bool

    /// An armed timer in a configuration.
    public struct Timer: Hashable, Sendable {
        public var state: StateID
        public var index: Int
        public var remaining: Double
    }
}

extension Instance {
    /// The instance's configuration, for exploring the state space.
    public var configuration: Configuration {
        let timers = pending.elements.sorted { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
            .map { Configuration.Timer(state: StateID(Int($0.state)), index: Int($0.timer - program.timerGroups[Int($0.state)]),
                                       remaining: $0.deadline - now) }
        return Configuration(state: state, variables: variables, timers: timers, isFinished: isFinished)
    }

    /// The transitions whose guards hold for `event` with `payload` in the active states, in
    /// the order they would be tried (the first is the one `send` would fire). A guard that
    /// fails to evaluate ends the list: the runtime rejects the event there, so the
    /// transitions after it are never tried. Nothing changes.
    public func enabledTransitions(_ event: EventID, payload: [Value]) -> [TransitionID] {
        guard !isFinished else { return [] }
        var copy = self
        copy.loadPayload(event.index, payload)  // copies the registers: this instance stays as it is
        var enabled: [TransitionID] = []
        for source in activeStates {
            for k in program.group(source.index, event.index) {
                let t = program.transitions[k]
                if t.guardPC >= 0 {
                    guard (try? copy.execute(t.guardPC)) != nil else { return enabled }
                    guard copy.registers.numbers[Int(t.guardRegister)] != 0 else { continue }
                }
                enabled.append(t.id)
            }
        }
        return enabled
    }
}
