import StatecraftDiagnostics
import StatecraftEventLog
import StatecraftModel
import StatecraftRuntime

extension Replayer {
    /// Numbers in `vars` expectations are equal within this much.
    public static let tolerance = 1e-9

    /// Checks that an expectation names only states, variables and outputs the machine has,
    /// with values of the variables' types; a line that does not is an error in the log.
    func validate(_ expectation: Expectation, record: LogRecord) throws(LogError) {
        let machine = program.machine
        for (k, name) in (expectation.states ?? []).enumerated() {
            let offset = expectation.stateOffsets.flatMap { k < $0.count ? $0[k] : nil } ?? expectation.offset
            guard let state = machine.state(named: name).map({ machine[$0] }) else {
                throw unknown("state", name, among: machine.states.dropFirst().filter { !$0.isHistory }.map(\.name),
                              at: offset, record)
            }
            if state.isHistory {
                throw error(record, at: offset, "'\(name)' is a history state, which is never active; name a state")
            }
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
        for (i, name) in (expectation.outputs ?? []).enumerated() {
            let offset = expectation.outputOffsets.flatMap { i < $0.count ? $0[i] : nil }
                ?? expectation.outputsOffset ?? expectation.offset
            guard let output = machine.outputs.first(where: { $0.name == name }) else {
                throw unknown("output", name, among: machine.outputs.map(\.name), at: offset, record)
            }
            guard let expected = expectation.outputArguments.flatMap({ i < $0.count ? $0[i] : nil }) else { continue }
            guard expected.values.count == output.fields.count else {
                let takes = output.fields.count == 1 ? "1 argument" : "\(output.fields.count) arguments"
                throw error(record, at: expected.offset,
                            "output '\(name)' takes \(takes), but the expectation gives \(expected.values.count)")
            }
            for (k, (value, field)) in zip(expected.values, output.fields).enumerated()
            where Replayer.value(value, as: field.type) == nil {
                throw error(record, at: expected.valueOffsets[k],
                            "argument '\(field.name)' of '\(name)' is \(article(field.type)), but the expectation gives \(describe(value))")
            }
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
        for (k, name) in (expectation.states ?? []).enumerated() {
            guard let expected = machine.state(named: name), !run.instance.isActive(expected) else { continue }
            let offset = expectation.stateOffsets.flatMap { k < $0.count ? $0[k] : nil } ?? expectation.offset
            // A flat machine has one active leaf; a statechart is described by every active state.
            let actual = program.chart == nil ? machine[run.instance.state].name
                : run.instance.configuration.names(in: machine).joined(separator: ", ")
            fail(offset, "state", name, actual)
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
            let arguments = expectation.outputArguments
            if run.windowOverflowed {
                fail(offset, "outputs", list(names),
                     "more than \(Replayer.outputWindow) outputs since the previous expectation; they cannot be compared")
            } else if actual != names {
                fail(offset, "outputs", expectedList(names, arguments), actualList(run, withArguments: arguments != nil))
            } else if let arguments {
                // Same names: compare the arguments of the elements that give them.
                var start = 0
                for (i, output) in run.window.enumerated() {
                    let count = machine[output].fields.count
                    let actualArgs = Array(run.windowArguments[start..<min(start + count, run.windowArguments.count)])
                    start += count
                    guard i < arguments.count, let expected = arguments[i] else { continue }
                    let wanted = zip(expected.values, machine[output].fields).compactMap { Replayer.value($0, as: $1.type) }
                    if wanted.count != actualArgs.count || zip(wanted, actualArgs).contains(where: { !Replayer.same($0, $1) }) {
                        fail(expected.offset, "outputs", expectedList(names, arguments), actualList(run, withArguments: true))
                        break
                    }
                }
            }
        }
        run.window.removeAll(keepingCapacity: true)
        run.windowArguments.removeAll(keepingCapacity: true)
        run.windowOverflowed = false
        run.report.failureCount += failures.count
        if run.history != nil { explain(failures, in: run) }
        for f in failures where run.report.failures.count < Replayer.keptFailures { run.report.failures.append(f) }
    }

    /// Equality for expectations: numbers within `tolerance`, everything else exactly.
    static func same(_ a: Value, _ b: Value) -> Bool {
        if case .number(let x) = a, case .number(let y) = b { return abs(x - y) <= tolerance }
        return a == b
    }

    /// `["didRefresh", rated("❤️")]`: the expected outputs, with arguments where given.
    private func expectedList(_ names: [String], _ arguments: [Expectation.ExpectedArguments?]?) -> String {
        "[" + names.enumerated().map { i, name in
            let quoted = StringEscaping.quoted(name, style: .json)
            guard let args = arguments.flatMap({ i < $0.count ? $0[i] : nil }), !args.values.isEmpty else { return quoted }
            return name + "(" + args.values.map(jsonText).joined(separator: ", ") + ")"
        }.joined(separator: ", ") + "]"
    }

    /// The outputs since the previous expectation, with their arguments when compared.
    private func actualList(_ run: Run, withArguments: Bool) -> String {
        let machine = program.machine
        var start = 0
        return "[" + run.window.map { output in
            let count = machine[output].fields.count
            let args = run.windowArguments[min(start, run.windowArguments.count)..<min(start + count, run.windowArguments.count)]
            start += count
            let name = machine[output].name
            // An output without fields has no arguments to show: it is spelled as the log
            // spells it, `"name"`, on both sides of the message.
            return withArguments && count > 0 ? name + "(" + args.map(\.description).joined(separator: ", ") + ")"
                : StringEscaping.quoted(name, style: .json)
        }.joined(separator: ", ") + "]"
    }

    private func jsonText(_ value: JSONValue) -> String {
        switch value {
        case .number(let n): Value.number(n).description
        case .bool(let b): b ? "true" : "false"
        case .string(let s): Value.string(s).description
        default: "\(value)"
        }
    }

    private func list(_ names: [String]) -> String {
        "[" + names.map { StringEscaping.quoted($0, style: .json) }.joined(separator: ", ") + "]"
    }
}
