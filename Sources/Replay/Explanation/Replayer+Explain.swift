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

    /// Records what broke a property (`--explain`), from `run` as it is right after the
    /// violation was found: for `never`/`always`, in the stable configuration that broke it.
    func explain(_ violation: PropertyViolation, _ record: PropertyViolationRecord, in run: Run) {
        run.report.explanationCount += 1
        guard (run.report.explanations?.count ?? 0) < Replayer.keptFailures else { return }
        let machine = program.machine
        let property = machine.properties[violation.property]
        let reason: PropertyExplanation.Reason
        switch (violation.reason, property.form) {
        case (.deadlinePassed(let trigger, let deadline, let tag), _):
            // The tag is the line `observe` gave the monitor; anything else is not a line.
            reason = .deadline(triggerLine: tag > 0 ? tag : nil, triggerTime: trigger, deadline: deadline)
        case (.beforePrecondition, .precedence(_, let y)):
            reason = .precondition(condition: y.range, text: machine.text(y.range), caseStart: run.report.firstLine)
        case (.stateBreaksIt, .never(let x, let g)):
            reason = .state(run.instance.culprits(ofProperty: x, whichIs: true)
                            + (g.map { run.instance.culprits(ofProperty: $0, whichIs: true) } ?? []))
        case (.stateBreaksIt, .always(let x, let g)):
            reason = .state(run.instance.culprits(ofProperty: x, whichIs: false)
                            + (g.map { run.instance.culprits(ofProperty: $0, whichIs: true) } ?? []))
        default:
            // A fault (or a reason the monitor never pairs with this form): the values the
            // property's expressions read, each name once.
            var reads: [Culprit.Read] = []
            for e in property.form.expressions {
                for read in run.instance.reads(ofProperty: e) where !reads.contains(read) { reads.append(read) }
            }
            reason = .fault(reads)
        }
        run.report.explanations?.append(.property(PropertyExplanation(
            line: record.line, property: record.property, specLine: record.specLine, time: record.time,
            configuration: run.instance.configuration.names(in: machine), reason: reason)))
    }
}
