import StatecraftDiagnostics
import StatecraftEventLog
import StatecraftModel

extension Replayer {
    /// Numbers in `vars` expectations are equal within this much.
    public static let tolerance = 1e-9

    /// Compares an expectation line with the run. Names the run cannot have (an unknown
    /// state, variable or output, a value of the wrong type) are errors in the log; a value
    /// that differs is a failed expectation.
    mutating func check(_ expectation: Expectation, runIndex: Int, record: LogRecord) throws(LogError) {
        let machine = program.machine
        var run = runs[runIndex]
        run.report.expectations += 1
        var failures: [ExpectationFailure] = []
        func fail(_ offset: Int, _ subject: String, _ expected: String, _ actual: String) {
            failures.append(ExpectationFailure(line: record.line, column: record.column(ofByte: offset), subject: subject,
                                               expected: expected, actual: actual, text: record.text))
        }
        if let name = expectation.state {
            let offset = expectation.stateOffset ?? expectation.offset
            guard let expected = machine.states.dropFirst().first(where: { $0.name == name }) else {
                var message = "unknown state '\(name)' in expectation"
                if let close = EditDistance.closest(to: name, among: machine.states.dropFirst().map(\.name)) {
                    message += "; did you mean '\(close)'?"
                }
                throw error(record, at: offset, message)
            }
            if !run.instance.activeStates.contains(expected.id) {
                fail(offset, "state", name, machine[run.instance.state].name)
            }
        }
        for member in expectation.vars ?? [] {
            guard let index = machine.variables.firstIndex(where: { $0.name == member.key }) else {
                var message = "unknown variable '\(member.key)' in expectation"
                if let close = EditDistance.closest(to: member.key, among: machine.variables.map(\.name)) {
                    message += "; did you mean '\(close)'?"
                }
                throw error(record, at: member.keyOffset, message)
            }
            let variable = machine.variables[index]
            guard let expected = Replayer.value(member.value, as: variable.type) else {
                throw error(record, at: member.valueOffset,
                            "variable '\(variable.name)' is \(article(variable.type)), but the expectation gives \(describe(member.value))")
            }
            let actual = run.instance.variables[index]
            if !Replayer.same(expected, actual) {
                fail(member.valueOffset, "vars.\(variable.name)", expected.description, actual.description)
            }
        }
        if let names = expectation.outputs {
            let offset = expectation.outputsOffset ?? expectation.offset
            for name in names where !machine.outputs.contains(where: { $0.name == name }) {
                throw error(record, at: offset, "unknown output '\(name)' in expectation")
            }
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
        runs[runIndex] = run
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
