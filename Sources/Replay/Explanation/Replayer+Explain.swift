import StatecraftModel
import StatecraftRuntime

extension Replayer {
    /// Notes which variables and states the step just taken by `run` changed (`--explain`);
    /// out of line, so that the plain path pays one test of `options.explain` per step.
    @inline(never)
    func noteChanges(of run: Run, line: Int, time: Double, trigger: ChangeHistory.Trigger) {
        run.history?.record(run.instance, ChangeHistory.Step(line: line, trigger: trigger, time: time))
    }

    /// Records why `event`, just sent to `run`, was not taken (`--explain`).
    func explain<L: ReplayLine>(_ event: EventID, in run: Run, afterFinal: Bool, rejected: Bool,
                                nameOffset: Int, _ source: L) {
        run.report.explanationCount += 1
        guard (run.report.explanations?.count ?? 0) < Replayer.keptFailures else { return }
        let instance = run.instance
        let explanation = EventExplanation(
            line: source.lineNumber, column: source.lineColumn(ofByte: nameOffset), event: program.eventNames[event.index],
            time: instance.now, outcome: rejected ? .rejected : .ignored, afterFinal: afterFinal,
            configuration: instance.configuration.names(in: program.machine),
            candidates: afterFinal ? [] : instance.candidates(for: event))
        run.report.explanations?.append(.event(explanation))
    }

    /// Records, for each failure of an expectation on a state or a variable, the last step
    /// of `run` that changed it (`--explain`).
    func explain(_ failures: [ExpectationFailure], in run: Run) {
        guard let history = run.history else { return }
        let machine = program.machine
        for failure in failures {
            let name: String
            let change: ExpectationExplanation.Change?
            if failure.subject == "state", let state = machine.state(named: failure.expected) {
                name = failure.expected
                change = history.stateChange(state, in: machine)
            } else if failure.subject.hasPrefix("vars."),
                      let index = machine.variables.firstIndex(where: { "vars." + $0.name == failure.subject }) {
                name = machine.variables[index].name
                change = history.variableChange(index, in: machine)
            } else {
                continue  // outputs: the window since the previous expectation already says what came
            }
            run.report.explanationCount += 1
            guard (run.report.explanations?.count ?? 0) < Replayer.keptFailures else { continue }
            run.report.explanations?.append(.expectation(ExpectationExplanation(
                line: failure.line, column: failure.column, subject: failure.subject, name: name, lastChange: change,
                caseStart: run.report.firstLine)))
        }
    }
}
