import StatecraftDiagnostics
import StatecraftEventLog
import StatecraftModel
import StatecraftRuntime

/// An output as emitted: its name and argument values.
public struct EmittedOutput: Sendable, Equatable, CustomStringConvertible {
    /// The output's name as declared in the spec.
    public var name: String
    /// The argument values, in the order of the output's fields.
    public var arguments: [Value]

    /// `didTap(0)`, or `didRefresh` without arguments.
    public var description: String {
        arguments.isEmpty ? name : name + "(" + arguments.map(\.description).joined(separator: ", ") + ")"
    }
}

/// An expectation line that did not hold.
public struct ExpectationFailure: Sendable, Equatable {
    /// The log line.
    public var line: Int
    /// The 1-based column of the expected value that failed.
    public var column: Int
    /// What was asserted: `state`, `vars.originY` or `outputs`.
    public var subject: String
    /// The expected value, as the log wrote it.
    public var expected: String
    /// What the run had.
    public var actual: String
    /// The line's text, for the caret.
    public var text: [UInt8]
}

/// An event (or timer) that was rejected: its step failed, or `--strict` refused an ignored event.
public struct Rejection: Sendable, Equatable {
    /// The 1-based log line of the rejected event (for a timer, the line whose time made it fire).
    public var line: Int
    /// The 1-based column the message points at, in characters (1 when it is about the whole line).
    public var column: Int
    /// What went wrong, in the words of the diagnostic (lowercase, no final period).
    public var message: String
    /// The spec expression that failed, when an expression failed.
    public var specRange: SourceRange?
    /// The bytes of the log line, for the source line and caret under the message.
    public var text: [UInt8]
}

/// What happened in one case of a log.
public struct CaseReport: Sendable {
    /// The case key; nil for the lines without a `case`.
    public var key: String?
    /// The first line of the case.
    public var firstLine: Int
    /// The active state at the end (for a statechart, its active atomic states, comma
    /// separated); empty when the machine could not start.
    public var state: String
    /// Every active state at the end, in document order (parents before children).
    public var configuration: [String] = []
    /// Whether the run ended in a final state.
    public var finished: Bool
    /// The variables at the end, in declaration order.
    public var variables: [NamedValue]
    /// The first `Replayer.keptOutputs` outputs, in order.
    public var outputs: [EmittedOutput]
    /// How many outputs were emitted in all.
    public var outputCount: Int
    /// Event lines whose event fired a transition (timers that fired are counted in `timersFired`).
    public var applied = 0
    /// Event lines that no transition took (or that arrived after the run ended).
    public var ignored = 0
    /// Event lines (and timers) whose step failed, or that `--strict` refused.
    public var rejected = 0
    /// With `Replayer.Options.ignoresUnknownEvents`: by name, how many lines sent an event
    /// the spec does not declare (neither applied, ignored nor rejected: not the machine's).
    public var unknownEvents: [String: Int] = [:]
    /// Timers that fired.
    public var timersFired = 0
    /// Events the machine sent itself (`send`) that fired a transition.
    public var sentTaken = 0
    /// Expectation lines read.
    public var expectations = 0
    /// The first `Replayer.keptFailures` failed expectations.
    public var failures: [ExpectationFailure] = []
    /// How many expectations failed in all.
    public var failureCount = 0
    /// The spec's properties this case's run broke, each once, in the order they became
    /// certain. A violation fails the case, as a failed expectation does.
    public var propertyViolations: [PropertyViolationRecord] = []

    /// Whether every expectation held, nothing was rejected and no property was broken:
    /// what passing means for a case, in every report.
    package var passed: Bool { failureCount == 0 && rejected == 0 && propertyViolations.isEmpty }

    /// The first `Replayer.keptFailures` rejections.
    public var rejections: [Rejection] = []
    /// The virtual time at the end.
    public var time: Double = 0
    /// Why the machine could not start (its initial entry failed), if it could not.
    public var startFailure: String?
    /// With `--explain`, why the first `Replayer.keptFailures` ignored or rejected events
    /// were not taken and where the subjects of failed expectations last changed, by line;
    /// nil without `--explain`.
    public var explanations: [Explanation]?
    /// How many explanations there were in all (with `--explain`).
    public var explanationCount = 0
    /// With `--settle`, where the case came to rest after the log; nil without it.
    public var settled: Settled?

    /// Where a case ends up when time passes after its last line (`--settle`).
    public enum Settled: String, Sendable {
        /// No timer is armed any more: nothing happens until the next event.
        case atRest = "at-rest"
        /// The run ended in a top-level final state.
        case final
        /// Timers were still firing after `Replayer.settleLimit` of them (a timer that
        /// re-arms itself forever, say).
        case stillRunning = "still-running"
    }
}

/// Events of a log that the machine did not take the same way, in the same states: ignored
/// (no transition took them) or rejected (a step failed, or `--strict` refused an ignored
/// event).
public struct Deviation: Sendable, Equatable {
    /// How the events of a group deviated.
    public enum Kind: String, Sendable, Comparable {
        /// Events no transition took (or that arrived after the run ended).
        case ignored
        /// Events whose step failed at run time, or ignored events that `--strict` refused.
        case rejected
        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }
    /// Where the events arrived, outermost first: for a flat machine, its active state and
    /// that state's ancestors; for a statechart, the active states that have a transition on
    /// the event (whose guards were false, or whose step failed), empty when none has. (Not a
    /// statechart's whole configuration: one region's state does not split another's groups.)
    public var configuration: [String]
    /// The event's name.
    public var event: String
    /// Whether the events were ignored or rejected.
    public var kind: Kind
    /// How many events of the log fell in this group.
    public var count: Int
    /// The log lines of the first `Deviation.keptLines` occurrences.
    public var lines: [Int]
    /// Why the first occurrence was not taken, a line per candidate transition (or why none
    /// could take it), as `--explain` says it.
    public var why: [String] = []

    /// How many places of each group are kept.
    public static let keptLines = 3

    /// Creates a group from where and how the events deviated, how many there were and their first lines.
    public init(configuration: [String], event: String, kind: Kind, count: Int, lines: [Int]) {
        self.configuration = configuration
        self.event = event
        self.kind = kind
        self.count = count
        self.lines = lines
    }
}

/// What a replay of one log found.
public struct ReplayReport: Sendable {
    /// The cases in the order their first line appeared.
    public var cases: [CaseReport]
    /// The line that could not be read, if the replay stopped early.
    public var error: LogError?
    /// Records read (blank lines are not records).
    public var records: Int
    /// How often each transition fired, over all cases, indexed by `TransitionID`.
    public var transitionCounts: [Int] = []
    /// Which states were active at some point, over all cases, indexed by `StateID`.
    public var visitedStates: [Bool] = []
    /// Events the machine did not take, grouped by where and how (only with
    /// `Replayer.Options.deviations`), in the order each group first occurred.
    public var deviations: [Deviation] = []
    /// By `StateID`: its visits over every case, and how long those that ended lasted (only
    /// with `Replayer.Options.summary`; empty otherwise).
    public var dwell: [StateDwell] = []
    /// What the log holds that does not stop the replay, by line: a recording header that
    /// names another machine or spec version, a last line cut off (`ManyLogs` fills it in
    /// from the reader once the log is read).
    public var warnings: [LogWarning] = []

    /// Whether every expectation held and nothing was rejected (exit status 0).
    public var passed: Bool {
        error == nil && cases.allSatisfy(\.passed)
    }
}

/// A payload field or a variable with its value, in a trace step or a case report.
public struct NamedValue: Sendable, Equatable {
    /// The field's or variable's name.
    public var name: String
    /// Its value.
    public var value: Value

    /// Pairs a name with a value.
    public init(name: String, value: Value) {
        self.name = name
        self.value = value
    }
}

/// One step of a replay, for `--trace`.
public struct TraceStep: Sendable {
    /// What became of the event: taken, ignored, after the end, or rejected with a message.
    public enum Result: Sendable, Equatable {
        /// A transition took the event (or the timer fired).
        case applied
        /// No transition took the event: the machine stayed as it was.
        case ignored
        /// The run had already ended in a final state.
        case afterFinal
        /// The step failed at run time and was undone, or `--strict` refused an ignored event; with the
        /// message.
        case rejected(String)
    }

    /// The 1-based log line the step came from (for a timer, the line whose time made it fire).
    public var line: Int
    /// The case the line belongs to; nil for lines without a `case`.
    public var caseKey: String?
    /// The virtual clock at the step, in seconds, on the same scale as the log's `time` values.
    public var time: Double
    /// The event's name, or `after 2s` for a timer.
    public var event: String
    /// Whether the step was a timer (`after`) firing rather than an event from the log.
    public var isTimer: Bool
    /// Whether the event was one the machine sent itself (`send`), taken after its line.
    public var isSent: Bool = false
    /// The event's payload fields with their values, in declaration order; empty for a timer.
    public var payload: [NamedValue]
    /// The name of the state the step started in.
    public var from: String
    /// The name of the state the step ended in.
    public var to: String
    /// Whether the step was taken, ignored or rejected.
    public var result: Result
    /// The outputs the step emitted, in order.
    public var outputs: [EmittedOutput]
    /// Variables whose value the step changed, with the new value.
    public var changed: [NamedValue]
    /// The event (nil for a timer) and the states of `from` and `to`, by id: for writers
    /// that look names up once per machine rather than once per step.
    public var eventID: EventID?
    /// ``from`` by id.
    public var fromState: StateID
    /// ``to`` by id.
    public var toState: StateID
    /// Whether the step's transition has no target (it runs actions, exits and enters
    /// nothing), as opposed to a self transition, which leaves and re-enters its state.
    public var isTargetless = false
    /// For a statechart, each microstep of the step: what triggered it, the transitions,
    /// the states exited and entered. Empty for a flat machine.
    public var microsteps: [TraceMicrostep] = []
    /// For a statechart, the active configuration after the step; nil for a flat machine.
    public var configuration: [String]?
}

/// One microstep of a statechart's step (SCXML's microstep): its trigger, the transitions it
/// took (in the order their actions ran), the states it exited (children first) and
/// entered (parents first), and for a completion the values it carries.
public struct TraceMicrostep: Sendable, Equatable {
    /// What started the microstep: the event, a timer, a raised event, a completion, eventless transitions or
    /// the start.
    public var trigger: MicrostepLog.Trigger
    /// The transitions taken together, in the order their actions ran.
    public var transitions: [TransitionID]
    /// The states exited, children before parents.
    public var exited: [StateID]
    /// The states entered, parents before children.
    public var entered: [StateID]
    /// For a completion, the values its final state gave, in the order of the completion's
    /// fields (`Machine.completionFields`); empty otherwise.
    public var values: [Value]

    /// Creates a record.
    public init(trigger: MicrostepLog.Trigger, transitions: [TransitionID], exited: [StateID], entered: [StateID],
                values: [Value] = []) {
        self.trigger = trigger
        self.transitions = transitions
        self.exited = exited
        self.entered = entered
        self.values = values
    }
}

/// A property one case's run broke: which, where it is declared, and the log line where the
/// violation became certain.
public struct PropertyViolationRecord: Sendable, Equatable {
    /// The property's name.
    public var property: String
    /// The property's index in `Machine.properties`.
    public var index: Int
    /// Where the property is declared in the spec.
    public var specRange: SourceRange
    /// The 1-based spec line `specRange` starts on: what every report names the property by.
    public var specLine: Int
    /// The log line where the violation became certain.
    public var line: Int
    /// The case's time then.
    public var time: Double
    /// Why, in a sentence: the configuration, the trigger and its deadline, or the fault.
    public var message: String

    /// `property 'quick' (spec line 14) violated: …`: the sentence every report gives it.
    package var sentence: String {
        "property '\(property)' (spec line \(specLine)) violated: \(message)"
    }
}
