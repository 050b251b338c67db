import StatecraftDiagnostics
import StatecraftModel

/// Why something in a replayed log did not go as the log had it (`replay --explain`): an
/// event line that was ignored or rejected, or an expectation that failed. Data only; the
/// report formats (text, JSON, JSON Lines) render it.
public enum Explanation: Sendable, Equatable {
    /// Why an event line was ignored or rejected.
    case event(EventExplanation)
    /// Where the subject of a failed expectation last changed.
    case expectation(ExpectationExplanation)

    /// The log line it explains.
    public var line: Int {
        switch self {
        case .event(let e): e.line
        case .expectation(let e): e.line
        }
    }
}

/// Why an event line fired no transition: the transitions of the active configuration that
/// could have taken it, each with what stopped it.
public struct EventExplanation: Sendable, Equatable {
    /// What became of the event.
    public enum Outcome: String, Sendable {
        /// No transition took it.
        case ignored
        /// `--strict` refused it because no transition took it, or its step failed.
        case rejected
    }

    /// The log line and the 1-based column of its event name.
    public var line: Int
    /// The 1-based column of the event's name in the log line.
    public var column: Int
    /// The event's name.
    public var event: String
    /// The virtual time the event arrived at.
    public var time: Double
    /// Whether the event was ignored or rejected.
    public var outcome: Outcome
    /// Whether the run had already ended in a final state (then there are no candidates).
    public var afterFinal: Bool
    /// The active states when the event arrived, in document order.
    public var configuration: [String]
    /// The transitions of the active states whose trigger is the event, innermost state
    /// first (a statechart's parallel regions each contribute theirs); empty when no
    /// transition of the configuration takes the event at all.
    public var candidates: [Candidate]

    /// A transition that could have taken the event.
    public struct Candidate: Sendable, Equatable {
        /// The candidate transition, by id.
        public var transition: TransitionID
        /// The state it leaves from.
        public var source: String
        /// Where the transition is written in the spec (from its `on`).
        public var range: SourceRange
        /// Its head as written: `on endDragging if progress >= 1 -> refreshing`.
        public var text: String
        /// What its guard said when the event arrived.
        public var verdict: Verdict

        /// The candidate in one line, without positions (for summaries, which outlive the
        /// spec): `'on endDragging if progress >= 1 -> refreshing' of state 'ready': 'progress >= 1'
        /// is false: progress = 0.62`.
        public var summary: String {
            let what = "'\(text)' of state '\(source)'"
            switch verdict {
            case .unguarded: return what + " was enabled (no guard); its step failed"
            case .holds: return what + " was enabled (its guard holds); its step failed"
            case .fault(let fault): return what + ": its guard cannot be computed: \(fault.message)"
            case .isFalse(let culprits):
                return what + ": " + culprits.map { c in
                    "'\(c.text)' is \(c.value)" + (c.reads.isEmpty ? "" : ": " + c.reads.map(\.description).joined(separator: ", "))
                }.joined(separator: "; ")
            }
        }
    }

    /// What a candidate's guard said when the event arrived.
    public enum Verdict: Sendable, Equatable {
        /// It has no guard: it was enabled (its step failed later, in an action).
        case unguarded
        /// The guard held (its step failed later, in an action or another microstep).
        case holds
        /// The guard was false, decided by these sub-expressions (see `Culprit`).
        case isFalse([Culprit])
        /// The guard could not be computed.
        case fault(ExpressionFault)
    }
}

/// The smallest sub-expression that decides a guard's value: for `a && b` that is false, the
/// culprit of the first false conjunct; for `a || b`, the culprits of both; for `!a`, the
/// culprit of `a` (which holds); anything else is its own culprit.
public struct Culprit: Sendable, Equatable {
    /// Where the sub-expression is in the spec.
    public var range: SourceRange
    /// The sub-expression as written.
    public var text: String
    /// Its value: false, or true under an odd number of `!`.
    public var value: Bool
    /// Every variable, payload field, constant and `in(state)` it reads, in the order they
    /// appear (each name once), with its value when the event arrived.
    public var reads: [Read]

    /// A name a culprit reads, and its value.
    public struct Read: Sendable, Equatable, CustomStringConvertible {
        /// What kind of name it is.
        public enum Kind: String, Sendable {
            /// A variable of the machine.
            case variable
            /// A payload field of the event.
            case field
            /// A constant.
            case constant
            /// A state, read by `in(state)`.
            case state
        }
        /// Whether the name is a variable, a payload field, a constant or a state.
        public var kind: Kind
        /// The name as written (`progress`, `offsetY`, `refreshViewHeight`, a state's name).
        public var name: String
        /// Its value when the event arrived (for a state, whether it was active).
        public var value: Value

        /// `progress = 0.62`, `offsetY = -33 (payload)`, `refreshViewHeight = 110 (constant)`,
        /// `in(refreshing) = false`.
        public var description: String {
            switch kind {
            case .variable: "\(name) = \(value)"
            case .field: "\(name) = \(value) (payload)"
            case .constant: "\(name) = \(value) (constant)"
            case .state: "in(\(name)) = \(value)"
            }
        }
    }
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
