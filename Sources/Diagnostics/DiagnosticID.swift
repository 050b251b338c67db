/// The catalogue of every diagnostic Statecraft reports: a stable id, its default
/// severity and a one-line summary. The README's table is checked against this list.
public enum DiagnosticID: String, CaseIterable, Sendable {
    // Reading the file.
    case emptyFile = "empty-file"
    case invalidUTF8 = "invalid-utf8"
    // Lexical.
    case invalidCharacter = "invalid-character"
    case invalidNumber = "invalid-number"
    case invalidEscape = "invalid-escape"
    case unterminatedString = "unterminated-string"
    case unterminatedComment = "unterminated-comment"
    // Syntax.
    case expectedToken = "expected-token"
    case nestingTooDeep = "nesting-too-deep"
    case tooManyErrors = "too-many-errors"
    // Names.
    case duplicateDeclaration = "duplicate-declaration"
    case unknownState = "unknown-state"
    case unknownEvent = "unknown-event"
    case unknownOutput = "unknown-output"
    case unknownName = "unknown-name"
    case unknownFunction = "unknown-function"
    case unknownType = "unknown-type"
    case fieldNotInEvent = "field-not-in-event"
    case shadowedName = "shadowed-name"
    // Types.
    case typeMismatch = "type-mismatch"
    case assignToConstant = "assign-to-constant"
    case assignToPayload = "assign-to-payload"
    case argumentCount = "argument-count"
    case nonConstantValue = "non-constant-value"
    case useBeforeDeclaration = "use-before-declaration"
    // Structure.
    case noInitialState = "no-initial-state"
    case multipleInitialStates = "multiple-initial-states"
    case finalStateTransition = "final-state-transition"
    case finalStateChildren = "final-state-children"
    case initialInParallel = "initial-in-parallel"
    case invalidInitialTarget = "invalid-initial-target"
    case singleRegion = "single-region"
    case misplacedHistory = "misplaced-history"
    case invalidHistoryState = "invalid-history-state"
    case historyDefaultOutside = "history-default-outside"
    case historyNeverActive = "history-never-active"
    case neverCompletes = "never-completes"
    case eventlessCycle = "eventless-cycle"
    // Analysis.
    case unreachableState = "unreachable-state"
    case deadEndState = "dead-end-state"
    case unusedEvent = "unused-event"
    case unusedVariable = "unused-variable"
    case unusedOutput = "unused-output"
    case unusedConstant = "unused-constant"
    case constantGuard = "constant-guard"
    case unreachableTransition = "unreachable-transition"
    case deadTransition = "dead-transition"
    case overlappingGuards = "overlapping-guards"
    case notReached = "not-reached"
    case startFails = "start-fails"
    case constantFault = "constant-fault"
    case runTimeFault = "run-time-fault"
    case timerLoop = "timer-loop"
    // Replaying event logs.
    case malformedLogLine = "malformed-log-line"
    case expectationFailed = "expectation-failed"
    case eventRejected = "event-rejected"
    // Importing SCXML (`statecraft import`): positions are in the SCXML document.
    case scxmlMalformed = "scxml-malformed"
    case scxmlUnsupported = "scxml-unsupported"

    /// Whether the diagnostic is about a spec (`statecraft check`) or an event log (`replay`).
    public var isAboutLogs: Bool {
        switch self {
        case .malformedLogLine, .expectationFailed, .eventRejected: true
        default: false
        }
    }

    /// Whether the diagnostic is about an SCXML document being imported, not a spec.
    public var isAboutImport: Bool {
        switch self {
        case .scxmlMalformed, .scxmlUnsupported: true
        default: false
        }
    }

    /// Whether the diagnostic is an error or a warning unless options change it.
    public var defaultSeverity: Severity {
        switch self {
        case .deadEndState, .unusedEvent, .unusedVariable, .unusedOutput, .unusedConstant,
             .constantGuard, .unreachableTransition, .deadTransition, .overlappingGuards, .notReached,
             .runTimeFault, .timerLoop, .singleRegion, .neverCompletes:
            return .warning
        case .tooManyErrors:
            return .note
        default:
            return .error
        }
    }

    /// What the diagnostic means, for the documentation.
    public var summary: String {
        switch self {
        case .scxmlMalformed: "(import) the file is not well-formed XML, or not an SCXML document"
        case .scxmlUnsupported: "(import) an SCXML element, attribute or expression the language has no equivalent for; names the feature"
        case .emptyFile: "the file holds no machine"
        case .invalidUTF8: "bytes that are not UTF-8"
        case .invalidCharacter: "a character that cannot start a token"
        case .invalidNumber: "a malformed number literal or an unknown unit suffix"
        case .invalidEscape: "an unknown escape sequence in a string"
        case .unterminatedString: "a string without its closing quote on the same line"
        case .unterminatedComment: "a block comment without its closing `*/`"
        case .expectedToken: "the parser expected something else: says what, and what it found"
        case .nestingTooDeep: "expressions, blocks or states nested deeper than the parser allows"
        case .tooManyErrors: "the checker stopped reporting after this many errors"
        case .duplicateDeclaration: "a name declared twice in one namespace; a note shows the first"
        case .unknownState: "a transition, `done(x)`, `in(x)` or a history default names a state that does not exist"
        case .unknownEvent: "a transition or `raise` names an event that is not declared"
        case .unknownOutput: "`emit` names an output that is not declared"
        case .unknownName: "a name that is not a constant, variable, payload field or local"
        case .unknownFunction: "a call of a function that is not built in"
        case .unknownType: "a type other than `Number`, `Bool` or `String`"
        case .fieldNotInEvent: "a payload field used where one of the transition's events lacks it"
        case .shadowedName: "a payload field or local value with the name of a constant or variable"
        case .typeMismatch: "an operand, guard, initial value, argument or duration of the wrong type"
        case .assignToConstant: "an assignment to a constant"
        case .assignToPayload: "an assignment to a payload field or a local value"
        case .argumentCount: "a function, output or raised event given the wrong number of arguments"
        case .nonConstantValue: "a constant or initial value that depends on something not constant"
        case .useBeforeDeclaration: "a constant used (in another constant or an initial value) above its own declaration"
        case .noInitialState: "no state of the machine, or no child of a compound state, is marked `initial`"
        case .multipleInitialStates: "more than one state of the machine, or child of a compound state, is marked `initial`"
        case .finalStateTransition: "a final state with transitions, or a top-level final state with an exit action"
        case .finalStateChildren: "a final state with child states"
        case .invalidInitialTarget: "an `initial ->` target outside its state, targets that cannot be active together, or `initial ->` where no child is chosen"
        case .initialInParallel: "a region of a parallel state marked `initial` (every region is entered)"
        case .singleRegion: "a parallel state with fewer than two regions"
        case .misplacedHistory: "a history state at the top level of the machine or in a state with no child states"
        case .invalidHistoryState: "a history state with a body, a modifier, or a history state as its default"
        case .historyDefaultOutside: "a history state's default that is not inside the history state's parent"
        case .historyNeverActive: "`in(h)` of a history state, which is never active"
        case .neverCompletes: "`done` or `done(x)` for a state that can never complete"
        case .eventlessCycle: "eventless transitions with no guard that are taken forever"
        case .unreachableState: "no path of transitions leads from the initial state to this one"
        case .deadEndState: "a state that is not final and has no transition to another state"
        case .unusedEvent: "an event that no transition handles"
        case .unusedVariable: "a variable whose value is never read"
        case .unusedOutput: "an output that is never emitted"
        case .unusedConstant: "a constant that is never used"
        case .constantGuard: "a guard that is always true or always false"
        case .unreachableTransition: "a transition after one that always takes the same trigger"
        case .deadTransition: "a transition whose guard can never hold in its state, or a timer a sooner one always beats"
        case .overlappingGuards: "two guarded transitions of one state that can both take an event, with a witness"
        case .notReached: "a state or transition the search did not reach within its bounds (not a proof)"
        case .startFails: "the initial state's entry actions fail at run time, so the machine cannot start"
        case .constantFault: "an expression that fails whenever it runs (`1 / 0`, `sqrt(-1)`)"
        case .runTimeFault: "a step the search saw fail at run time, with the events that make it fail"
        case .timerLoop: "timers with no delay that re-enter their own state forever (stopped at run time)"
        case .malformedLogLine: "a log line that breaks the event-log format or the machine's interface"
        case .expectationFailed: "an expectation line that does not hold"
        case .eventRejected: "an event whose step failed at run time, or that --strict refused"
        }
    }
}
