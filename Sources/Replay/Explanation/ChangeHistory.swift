import StatecraftModel
import StatecraftRuntime

/// For `replay --explain`: the last step of a case that changed each variable and entered
/// or left each state, so that a failed expectation can say where its subject last moved.
///
/// Only a replay that explains keeps one (the plain path never pays for it): after every
/// step it compares the variables (and, when the active states may have changed, the
/// states) with the copy taken after the previous step. Steps are kept as numbers; names
/// are looked up only for the failures that are reported.
final class ChangeHistory {
    /// A step as recorded: its log line, what triggered it and its time.
    struct Step {
        var line: Int
        var trigger: Trigger
        var time: Double
    }

    /// What triggered a step: an event (from the log, or sent by the machine), or a timer.
    enum Trigger {
        case event(EventID)
        case timer(TransitionID)
    }

    private var numbers: [Double]
    private var strings: [String]
    private var active: [Bool]
    /// The active leaf after the previous step, for a flat machine: while it stays, so do
    /// the active states (a statechart's are compared every step).
    private var leaf: StateID
    private var variableSteps: [Step?]
    private var stateSteps: [Step?]

    /// Starts from the instance as its case began (after its initial entry).
    init(_ instance: Instance) {
        let program = instance.program
        numbers = Array(UnsafeBufferPointer(start: instance.registers.numbers, count: program.variableTypes.count))
        strings = program.variableTypes.indices.map { program.variableTypes[$0] == .string ? instance.registers.string(at: $0) : "" }
        active = program.machine.states.indices.map { instance.isActive($0) }
        leaf = instance.state
        variableSteps = Array(repeating: nil, count: program.variableTypes.count)
        stateSteps = Array(repeating: nil, count: program.machine.states.count)
    }

    /// Notes what the step just taken changed.
    func record(_ instance: Instance, _ step: Step) {
        let program = instance.program
        let registers = instance.registers
        for slot in numbers.indices {
            if program.variableTypes[slot] == .string {
                let value = registers.string(at: slot)
                if value != strings[slot] {
                    strings[slot] = value
                    variableSteps[slot] = step
                }
            } else if registers.numbers[slot] != numbers[slot] {
                numbers[slot] = registers.numbers[slot]
                variableSteps[slot] = step
            }
        }
        // A flat machine's self transition leaves and re-enters its state: not a change of
        // whether it is active.
        guard program.chart != nil || instance.state != leaf else { return }
        leaf = instance.state
        for s in active.indices where instance.isActive(s) != active[s] {
            active[s].toggle()
            stateSteps[s] = step
        }
    }

    /// The last step that changed variable `index`, named.
    func variableChange(_ index: Int, in machine: Machine) -> ExpectationExplanation.Change? {
        variableSteps[index].map { Self.named($0, machine) }
    }

    /// The last step that entered or left state `s`, named.
    func stateChange(_ s: StateID, in machine: Machine) -> ExpectationExplanation.Change? {
        stateSteps[s.index].map { Self.named($0, machine) }
    }

    private static func named(_ step: Step, _ machine: Machine) -> ExpectationExplanation.Change {
        let event = switch step.trigger {
        case .event(let e): machine[e].name
        case .timer(let t): TraceBatch.timerName(machine, t)
        }
        return ExpectationExplanation.Change(line: step.line, event: event, time: step.time)
    }
}
