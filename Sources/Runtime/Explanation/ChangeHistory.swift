import StatecraftModel

/// For `replay --explain`: the last step of a case that changed each variable and entered
/// or left each state, so that a failed expectation can say where its subject last moved.
///
/// Only a replay that explains keeps one (the plain path never pays for it): after every
/// step it compares the variables and active states with the copy taken after the previous
/// step, which costs time in the number of variables and states.
final class ChangeHistory {
    private var numbers: [Double]
    private var strings: [String]
    private var active: [Bool]
    private(set) var variableChanges: [ExpectationExplanation.Change?]
    private(set) var stateChanges: [ExpectationExplanation.Change?]

    /// Starts from the instance as its case began (after its initial entry).
    init(_ instance: Instance) {
        let program = instance.program
        numbers = Array(UnsafeBufferPointer(start: instance.registers.numbers, count: program.variableTypes.count))
        strings = program.variableTypes.indices.map { program.variableTypes[$0] == .string ? instance.registers.strings[$0] : "" }
        active = program.machine.states.indices.map { instance.isActive($0) }
        variableChanges = Array(repeating: nil, count: program.variableTypes.count)
        stateChanges = Array(repeating: nil, count: program.machine.states.count)
    }

    /// Notes what the step just taken changed, as `change`.
    func record(_ instance: Instance, as change: ExpectationExplanation.Change) {
        let program = instance.program
        let registers = instance.registers
        for slot in numbers.indices {
            if program.variableTypes[slot] == .string {
                let value = registers.strings[slot]
                if value != strings[slot] {
                    strings[slot] = value
                    variableChanges[slot] = change
                }
            } else if registers.numbers[slot] != numbers[slot] {
                numbers[slot] = registers.numbers[slot]
                variableChanges[slot] = change
            }
        }
        for s in active.indices where instance.isActive(s) != active[s] {
            active[s].toggle()
            stateChanges[s] = change
        }
    }
}
