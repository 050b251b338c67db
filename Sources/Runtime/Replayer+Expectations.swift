import StatecraftDiagnostics
import StatecraftEventLog
import StatecraftModel

extension Replayer {
    /// Numbers in `vars` expectations are equal within this much.
    public static let tolerance = 1e-9

    /// Checks that an expectation names only states, variables and outputs the machine has,
    /// with values of the variables' types; a line that does not is an error in the log.
    func validate(_ expectation: Expectation, record: LogRecord) throws(LogError) {
        let machine = program.machine
        if let name = expectation.state, !machine.states.dropFirst().contains(where: { $0.name == name }) {
            throw unknown("state", name, among: machine.states.dropFirst().map(\.name),
                          at: expectation.stateOffset ?? expectation.offset, record)
        }
        for member in expectation.vars ?? [] {
            guard let variable = machine.variables.first(where: { $0.name == member.key }) else {
                throw unknown("variable", member.key, among: machine.variables.map(\.name), at: member.keyOffset, record)
            }
            if Replayer.value(member.value, as: variable.type) == nil {
                throw error(record, at: member.valueOffset,
                            "variable '\(variable.name)' is \(article(variable.type)), but the expectation gives \(describe(member.value))")
            }
        }
        for (i, name) in (expectation.outputs ?? []).enumerated() where !machine.outputs.contains(where: { $0.name == name }) {
            let offset = expectation.outputOffsets.flatMap { i < $0.count ? $0[i] : nil }
                ?? expectation.outputsOffset ?? expectation.offset
            throw unknown("output", name, among: machine.outputs.map(\.name), at: offset, record)
        }
    }

    private func unknown(_ kind: String, _ name: String, among names: [String], at offset: Int,
                         _ record: LogRecord) -> LogError {
        var message = "unknown \(kind) '\(name)' in expectation"
        if let close = EditDistance.closest(to: name, among: names) { message += "; did you mean '\(close)'?" }
        return error(record, at: offset, message)
    }

    /// Compares a validated expectation line with the run; a value that differs is a failed
    /// expectation.
    mutating func check(_ expectation: Expectation, runIndex: Int, record: LogRecord) {
        let machine = program.machine
        let run = runs[runIndex]
        run.report.expectations += 1
        var failures: [ExpectationFailure] = []
        func fail(_ offset: Int, _ subject: String, _ expected: String, _ actual: String) {
            failures.append(ExpectationFailure(line: record.line, column: record.column(ofByte: offset), subject: subject,
                                               expected: expected, actual: actual, text: record.text))
        }
        if let name = expectation.state, let expected = machine.states.dropFirst().first(where: { $0.name == name }),
           !run.instance.activeStates.contains(expected.id) {
            fail(expectation.stateOffset ?? expectation.offset, "state", name, machine[run.instance.state].name)
        }
        for member in expectation.vars ?? [] {
            guard let index = machine.variables.firstIndex(where: { $0.name == member.key }),
                  let expected = Replayer.value(member.value, as: machine.variables[index].type) else { continue }
            let actual = run.instance.variables[index]
            if !Replayer.same(expected, actual) {
                fail(member.valueOffset, "vars.\(member.key)", expected.description, actual.description)
            }
        }
        if let names = expectation.outputs {
            let offset = expectation.outputsOffset ?? expectation.offset
            let actual = run.window.map { machine[$0].name }
            if run.windowOverflowed {
                fail(offset, "outputs", list(names),
                     "more than \(Replayer.outputWindow) outputs since the previous expectation; they cannot be compared")
            } else if actual != names {
                fail(offset, "outputs", list(names), list(actual))
            }
        }
        run.window.removeAll(keepingCapacity: true)
        run.windowOverflowed = false
        run.report.failureCount += failures.count
        for f in failures where run.report.failures.count < Replayer.keptFailures { run.report.failures.append(f) }
    }

    /// Equality for expectations: numbers within `tolerance`, everything else exactly.
    static func same(_ a: Value, _ b: Value) -> Bool {
        if case .number(let x) = a, case .number(let y) = b { return abs(x - y) <= tolerance }
        return a == b
    }

    private func list(_ names: [String]) -> String {
        "[" + names.map { StringEscaping.quoted($0, style: .json) }.joined(separator: ", ") + "]"
    }
}
