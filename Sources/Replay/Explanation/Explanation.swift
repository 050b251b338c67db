import StatecraftDiagnostics
import StatecraftModel
import StatecraftRuntime

/// Why something in a replayed log did not go as the log had it (`replay --explain`): an
/// event line that was ignored or rejected, an expectation that failed, or a property the
/// case broke. Data only; the report formats (text, JSON, JSON Lines) render it.
public enum Explanation: Sendable, Equatable {
    /// Why an event line was ignored or rejected.
    case event(EventExplanation)
    /// Where the subject of a failed expectation last changed.
    case expectation(ExpectationExplanation)
    /// What broke a property.
    case property(PropertyExplanation)

    /// The log line it explains.
    public var line: Int {
        switch self {
        case .event(let e): e.line
        case .expectation(let e): e.line
        case .property(let e): e.line
        }
    }
}

/// Why an event line fired no transition: the transitions of the active configuration that
/// could have taken it, each with what stopped it.
public struct EventExplanation: Sendable, Equatable {
    /// The log line and the 1-based column of its event name.
    public var line: Int
    /// The 1-based column of the event's name in the log line.
    public var column: Int
    /// The event's name.
    public var event: String
    /// The virtual time the event arrived at.
    public var time: Double
    /// Whether the event was ignored or rejected.
    public var outcome: Deviation.Kind
    /// Whether the run had already ended in a final state (then there are no candidates).
    public var afterFinal: Bool
    /// The active states when the event arrived, in document order.
    public var configuration: [String]
    /// The transitions of the active states whose trigger is the event, innermost state
    /// first (a statechart's parallel regions each contribute theirs); empty when no
    /// transition of the configuration takes the event at all.
    public var candidates: [Candidate]

    /// A transition that could have taken the event (the runtime's structured answer).
    public typealias Candidate = TransitionCandidate
    /// What a candidate's guard said when the event arrived.
    public typealias Verdict = TransitionCandidate.Verdict
}

/// Why an expectation on a variable or on a state failed: the last step that changed it.
public struct ExpectationExplanation: Sendable, Equatable {
    /// The expectation's line and the 1-based column of the expected value.
    public var line: Int
    /// The 1-based column of the expected value in the log line.
    public var column: Int
    /// `state` or `vars.name`, as in `ExpectationFailure`.
    public var subject: String
    /// The variable's or state's name.
    public var name: String
    /// The last step that changed the variable's value, or entered or left the state; nil
    /// when no step did since the case began (its first line).
    public var lastChange: Change?
    /// The case's first line, for "nothing changed it since line N".
    public var caseStart: Int

    /// A step of the case: where it came from in the log.
    public struct Change: Sendable, Equatable {
        /// The log line that caused it (a timer fires at the line whose time passed its deadline).
        public var line: Int
        /// The event's name, or `after 2s` for a timer.
        public var event: String
        /// The virtual time of the step.
        public var time: Double

        /// Creates a record.
        public init(line: Int, event: String, time: Double) {
            self.line = line
            self.event = event
            self.time = time
        }
    }
}

/// What broke a property in a case: for a response, the step that started the wait and its
/// deadline; for `X only after Y`, that `Y` had not held; for `never` and `always`, what
/// their expressions read in the configuration that broke them.
public struct PropertyExplanation: Sendable, Equatable {
    /// The log line where the violation became certain (as in `PropertyViolationRecord`).
    public var line: Int
    /// The property's name.
    public var property: String
    /// The spec line the property is declared on.
    public var specLine: Int
    /// The case's time when the violation became certain.
    public var time: Double
    /// The active states when the violation was found, in document order.
    public var configuration: [String]
    /// What broke it.
    public var reason: Reason

    /// What broke a property, by its form.
    public enum Reason: Sendable, Equatable {
        /// `after … within D: X`: the step of log line `triggerLine` (nil when not known)
        /// started the wait at `triggerTime`, and the clock passed `deadline` with `X` not
        /// holding since.
        case deadline(triggerLine: Int?, triggerTime: Double, deadline: Double)
        /// `X only after Y`: `X` held, and `Y` (`condition`: its range and text in the spec)
        /// had held in no stable configuration of the case since its first line, `caseStart`.
        case precondition(condition: SourceRange, text: String, caseStart: Int)
        /// `never X` / `always X` (with `while G`): the sub-expressions that decided `X`, then
        /// those that decided `G`, each with the names it read (as a false guard's culprits).
        case state([Culprit])
        /// The property's expression failed: every name its expressions read, with its value.
        case fault([Culprit.Read])
    }
}
