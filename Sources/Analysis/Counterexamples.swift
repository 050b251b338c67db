import StatecraftModel
import StatecraftRuntime

/// The counterexamples of violated properties as event logs (`check --counterexamples`,
/// and the `counterexample` of `check --format json`): the run from t = 0, each step
/// followed by an expectation of the state, every variable and the outputs, as `paths`
/// writes its logs, so that `replay` of it both follows the search's run and reports the
/// property violated at the line the search names.
package enum Counterexamples {
    /// One violated property's log.
    package struct Log: Sendable, Equatable {
        /// The property's name.
        package var property: String
        /// `NAME.jsonl`.
        package var file: String
        /// The log, one JSON object per line.
        package var lines: [String]
        /// The 1-based line of the log at which the violation is certain: the line whose
        /// step (or the timers due before it) leads to the configuration that breaks the
        /// property, or whose time passes a response's deadline.
        package var violationLine: Int

        /// The log as a file's text.
        package var text: String { lines.joined(separator: "\n") + "\n" }
    }

    /// A log for each violated property, in the order the properties are written.
    package static func logs(_ machine: Machine, _ report: ExplorationReport) -> [Log] {
        guard report.properties.contains(where: { if case .violated = $0 { true } else { false } }) else { return [] }
        let program = Program(machine)
        return zip(machine.properties, report.properties).compactMap { property, verdict in
            guard case .violated(let c) = verdict else { return nil }
            return log(property.name, c.witness, program)
        }
    }

    static func log(_ name: String, _ witness: [WitnessStep], _ program: Program) -> Log {
        let text = TestGeneration.logText(witness, program)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        return Log(property: name, file: name + ".jsonl", lines: lines, violationLine: violationLine(witness))
    }

    /// Where replay sees the last step of `witness` happen in its log. The log is the start's
    /// expectation (line 1), then for each step its event line (events only) and an
    /// expectation line, which for a wait carries the time waited to. Replay fires the
    /// timers due by a line's time before it applies the line, so what a step leaves due at
    /// the instant the clock stands at (a timer of no delay, armed by the step) fires at the
    /// next line: for the start, line 1; for an event, its expectation line; for a wait,
    /// its own line, which fires everything due by its time, this included. A wait that
    /// moves no time belongs to that line.
    static func violationLine(_ witness: [WitnessStep]) -> Int {
        var line = 1
        var instantLine = 1  // the line at which what is due at the clock's instant fires
        var clock = 0.0
        var violation = 1
        for step in witness {
            switch step {
            case .event(_, _, let time):
                clock = time
                violation = line + 1
                instantLine = line + 2
                line += 2
            case .wait(let until):
                if until > clock {
                    clock = until
                    instantLine = line + 1
                }
                violation = instantLine
                line += 1
            }
        }
        return violation
    }
}
