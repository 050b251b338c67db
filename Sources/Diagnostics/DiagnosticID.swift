/// The catalogue of every diagnostic Statecraft reports: a stable id, its default
/// severity and a one-line summary. The table of <doc:Diagnostics> is checked against this
/// list.
public enum DiagnosticID: String, CaseIterable, Sendable {
    // Reading the file.
    /// `empty-file`: the file holds no machine.
    case emptyFile = "empty-file"
    /// `invalid-utf8`: bytes that are not UTF-8.
    case invalidUTF8 = "invalid-utf8"
    // Lexical.
    /// `invalid-character`: a character that cannot start a token.
    case invalidCharacter = "invalid-character"
    /// `invalid-number`: a malformed number or an unknown unit.
    case invalidNumber = "invalid-number"
    /// `invalid-escape`: an unknown escape sequence in a string.
    case invalidEscape = "invalid-escape"
    /// `unterminated-string`: a string without its closing quote on the same line.
    case unterminatedString = "unterminated-string"
    /// `unterminated-comment`: a block comment without its closing `*/`.
    case unterminatedComment = "unterminated-comment"
    // Syntax.
    /// `expected-token`: the parser expected something else; says what, and what it found.
    case expectedToken = "expected-token"
    /// `nesting-too-deep`: expressions, blocks or states nested more than 64 levels (or an expression tree
    /// deeper than 256).
    case nestingTooDeep = "nesting-too-deep"
    /// `too-many-errors`: the checker stopped after 50 errors in one file.
    case tooManyErrors = "too-many-errors"
    // Names.
    /// `duplicate-declaration`: a name declared twice in one namespace; a note shows the first.
    case duplicateDeclaration = "duplicate-declaration"
    /// `invalid-external-name`: the string after an event's `as` is not an event name (dot-separated
    /// words, optionally ending in `.*`).
    case invalidExternalName = "invalid-external-name"
    /// `external-name-clash`: two events answer to one name in logs (an external name that is another
    /// event's name or external name).
    case externalNameClash = "external-name-clash"
    /// `unknown-state`: a transition, `done(x)`, `in(x)` or a history default names a state that does not
    /// exist.
    case unknownState = "unknown-state"
    /// `unknown-event`: a transition, `raise` or `send` names an undeclared event, or a
    /// `send "name"` names none.
    case unknownEvent = "unknown-event"
    /// `unknown-output`: `emit` names an undeclared output.
    case unknownOutput = "unknown-output"
    /// `unknown-name`: a name that is not a constant, variable, payload field or `let` value.
    case unknownName = "unknown-name"
    /// `unknown-function`: a call of a function that is not built in.
    case unknownFunction = "unknown-function"
    /// `unknown-type`: a type other than `Number`, `Bool` or `String`.
    case unknownType = "unknown-type"
    /// `field-not-in-event`: a payload field used where one of the transition's events does not declare it
    /// (or declares another type).
    case fieldNotInEvent = "field-not-in-event"
    /// `shadowed-name`: a payload field or `let` value with the name of a constant, variable, field or
    /// earlier `let`.
    case shadowedName = "shadowed-name"
    // Types.
    /// `type-mismatch`: an operand, guard, condition, initial value, assignment, argument or delay of the
    /// wrong type.
    case typeMismatch = "type-mismatch"
    /// `assign-to-constant`: an assignment to a constant or `pi`.
    case assignToConstant = "assign-to-constant"
    /// `assign-to-payload`: an assignment to a payload field or a `let` value.
    case assignToPayload = "assign-to-payload"
    /// `argument-count`: a function, output or raised event given the wrong number of arguments,
    /// or a `send "name"` of an event with fields.
    case argumentCount = "argument-count"
    /// `non-constant-value`: a constant or initial value that reads a variable, or cannot be computed.
    case nonConstantValue = "non-constant-value"
    /// `use-before-declaration`: a constant used above its own declaration (constants are computed top to
    /// bottom).
    case useBeforeDeclaration = "use-before-declaration"
    // Structure.
    /// `no-initial-state`: no state is marked `initial` among several: at the top level of the machine, or
    /// among the children of a compound state (a sole child needs no mark).
    case noInitialState = "no-initial-state"
    /// `multiple-initial-states`: more than one state is marked `initial` (at the top level, or among the
    /// children of one compound state); a note shows the first.
    case multipleInitialStates = "multiple-initial-states"
    /// `final-state-transition`: a final state with transitions, or a top-level final state with an `exit`
    /// block (a nested final state is exited with its parent, so it may have one).
    case finalStateTransition = "final-state-transition"
    /// `final-state-children`: a final state with child states (a final state is a leaf).
    case finalStateChildren = "final-state-children"
    /// `initial-in-parallel`: a region of a parallel state marked `initial`: every region is entered with it.
    case initialInParallel = "initial-in-parallel"
    /// `invalid-initial-target`: an `initial ->` target outside its state, targets that cannot be active
    /// together, or `initial ->` in a state with no child to choose.
    case invalidInitialTarget = "invalid-initial-target"
    /// `single-region`: a parallel state with fewer than two regions (a compound state says the same).
    case singleRegion = "single-region"
    /// `misplaced-history`: a history state at the top level of the machine, or in a state with no child
    /// states: it has nothing to remember.
    case misplacedHistory = "misplaced-history"
    /// `invalid-history-state`: a history state with a body (child states, `entry`, `exit`, transitions), a
    /// modifier, a history state as its default, or defaults that cannot be active together.
    case invalidHistoryState = "invalid-history-state"
    /// `history-default-outside`: a default of `history state h -> c` is not inside `h`'s parent.
    case historyDefaultOutside = "history-default-outside"
    /// `history-never-active`: `in(h)` of a history state, which is never active, so the test is always
    /// false (or a property's `after entering h`, which never starts).
    case historyNeverActive = "history-never-active"
    /// `never-completes`: `done` written in, or `done(x)` naming, a state that can never complete: an atomic
    /// state, a compound state with no final child, a parallel state with a region that cannot complete.
    case neverCompletes = "never-completes"
    /// `done-data-misplaced`: values written after the name of a state that is not a final state nested in a
    /// compound state: a top-level final state ends the run, so nothing reads its values.
    case doneDataMisplaced = "done-data-misplaced"
    /// `done-data-mismatch`: the final children of one compound state carry different values (names, order or
    /// types): a `done` reads the same fields whichever final child was entered.
    case doneDataMismatch = "done-data-mismatch"
    /// `done-field-not-carried`: a `done` or `done(x)` transition reads a field that the completion it takes
    /// does not carry (a parallel state's completion carries none).
    case doneFieldNotCarried = "done-field-not-carried"
    /// `eventless-cycle`: unguarded (or constant-true) eventless transitions that are certain to be taken
    /// again, so the step never settles: a targetless `always`, `always -> s` in `s`, or a chain that leads
    /// back; the message names the loop.
    case eventlessCycle = "eventless-cycle"
    /// `property-reads-payload`: a property's expression names an event's payload field; a property is about
    /// the machine at rest, which holds no payload.
    case propertyReadsPayload = "property-reads-payload"
    /// `invalid-deadline`: the deadline of `after … within D` is negative (or not a finite number).
    case invalidDeadline = "invalid-deadline"
    // Analysis.
    /// `unreachable-state`: no path of transitions leads from the initial state to this one (guards that are
    /// constant `false` do not count), or every transition into it is proven never to fire.
    case unreachableState = "unreachable-state"
    /// `dead-end-state`: a leaf state that is not final and has no transition to another state; in a
    /// statechart, none of its ancestors or of the states in its parallel ancestors' other regions has one
    /// either (its whole configuration is stuck).
    case deadEndState = "dead-end-state"
    /// `unused-event`: an event no transition handles.
    case unusedEvent = "unused-event"
    /// `unused-variable`: a variable no guard or action reads (mark it `public var` if the app reads it).
    case unusedVariable = "unused-variable"
    /// `unused-output`: an output that is never emitted.
    case unusedOutput = "unused-output"
    /// `unused-constant`: a constant that is never used.
    case unusedConstant = "unused-constant"
    /// `constant-guard`: a guard or `if` condition that is always true or always false once constants are
    /// folded.
    case constantGuard = "constant-guard"
    /// `unreachable-transition`: a transition after one of the same state and trigger (event, `done(x)`, or
    /// `always`) that has no guard (or an always-true one), which always wins.
    case unreachableTransition = "unreachable-transition"
    /// `dead-transition`: a transition proven never to fire: its guard cannot hold given what its state's
    /// variables can be (interval analysis), or a sooner unguarded timer always leaves first.
    case deadTransition = "dead-transition"
    /// `overlapping-guards`: two guarded transitions of one state (the first written wins), or of a state and
    /// its ancestor (the inner one wins), that can both take an event; never two regions, whose transitions
    /// both fire; with a witness payload and variable values.
    case overlappingGuards = "overlapping-guards"
    /// `history-always-default`: a history state that can only ever enter its default: its parent is never
    /// left while active, or it is shallow in a parallel state, or its parent is only left from the child its
    /// default enters.
    case historyAlwaysDefault = "history-always-default"
    /// `unhandled-raise`: a `raise` of an event that no state able to take it can be active to handle: the
    /// transition leaves every state that takes it, or none is active where it is raised; names those states.
    case unhandledRaise = "unhandled-raise"
    /// `cross-region-transition`: a transition between states inside a parallel state (from one region to
    /// another, or written in a region) that leaves the whole parallel state and enters it again, restarting
    /// its other regions.
    case crossRegionTransition = "cross-region-transition"
    /// `not-reached`: a state or transition the search did not reach within its bounds and could not prove
    /// unreachable: not a proof either way; says what stopped the search.
    case notReached = "not-reached"
    /// `start-fails`: the initial state's entry actions fail at run time, so the machine cannot start.
    case startFails = "start-fails"
    /// `constant-fault`: an expression that fails whenever it runs.
    case constantFault = "constant-fault"
    /// `run-time-fault`: a step the search saw fail at run time, with the events that make it fail.
    case runTimeFault = "run-time-fault"
    /// `property-violated`: a run breaks the property; the note gives the shortest run the search found
    /// (`check --counterexamples DIR` writes it as a log that `replay` reproduces).
    case propertyViolated = "property-violated"
    /// `property-not-decided`: the search stopped before it could prove or refute the property; says
    /// which bound stopped it.
    case propertyNotDecided = "property-not-decided"
    /// `property-proven`: no run breaks the property (every reachable configuration, input and order of
    /// timers was tried).
    case propertyProven = "property-proven"
    /// `timer-loop`: timers with no delay that lead back to their own state: time never passes, and the
    /// runtime stops them after 10,000 firings.
    case timerLoop = "timer-loop"
    // Replaying event logs.
    /// `malformed-log-line`: (replay) a log line that breaks the event-log format or the machine's interface;
    /// replay stops there, exit 2.
    case malformedLogLine = "malformed-log-line"
    /// `expectation-failed`: (replay) an expectation line that does not hold; shows expected and actual, exit
    /// 1.
    case expectationFailed = "expectation-failed"
    /// `event-rejected`: (replay) an event whose step failed at run time (undone), or an ignored event under
    /// `--strict`, exit 1.
    case eventRejected = "event-rejected"
    /// `log-header-mismatch`: (replay) a recording's header names another machine, or another version of the
    /// spec (its fingerprint differs); the log is replayed all the same.
    case logHeaderMismatch = "log-header-mismatch"
    /// `truncated-log-line`: (replay) the log's last line stops in its middle (no line end, its object not
    /// closed), as when the app writing it was killed; it is skipped and the lines before it replayed.
    case truncatedLogLine = "truncated-log-line"
    // Importing SCXML (`statecraft import`): positions are in the SCXML document.
    /// `scxml-malformed`: (import) the file is not well-formed XML, or its root is not `<scxml>`; at the
    /// parser's position, exit 1.
    case scxmlMalformed = "scxml-malformed"
    /// `scxml-unsupported`: (import) an element, attribute or expression with no equivalent in the language,
    /// at its `<` or at the character of the expression; names the feature, exit 1.
    case scxmlUnsupported = "scxml-unsupported"
    /// `scxml-nonstandard`: (import) a spelling SCXML does not define that editors and engines commonly
    /// accept (`In(s)` without quotes, `cond=""`), read as they read it, at the attribute; the spec is
    /// written.
    case scxmlNonstandard = "scxml-nonstandard"
    /// `scxml-inert`: (import) part of a document that has no effect, so the spec has nothing for it: a
    /// `<cancel>` of an id no `<send>` has, a transition no event can take, the name of a data model in a
    /// document that evaluates nothing.
    case scxmlInert = "scxml-inert"

    /// Whether the diagnostic is about a spec (`statecraft check`) or an event log (`replay`).
    public var isAboutLogs: Bool {
        switch self {
        case .malformedLogLine, .expectationFailed, .eventRejected, .logHeaderMismatch, .truncatedLogLine: true
        default: false
        }
    }

    /// Whether the diagnostic is about an SCXML document being imported, not a spec.
    public var isAboutImport: Bool {
        switch self {
        case .scxmlMalformed, .scxmlUnsupported, .scxmlNonstandard, .scxmlInert: true
        default: false
        }
    }

    /// Whether the diagnostic is an error or a warning unless options change it.
    public var defaultSeverity: Severity {
        switch self {
        case .deadEndState, .unusedEvent, .unusedVariable, .unusedOutput, .unusedConstant,
             .constantGuard, .unreachableTransition, .deadTransition, .overlappingGuards, .notReached,
             .runTimeFault, .timerLoop, .singleRegion, .neverCompletes, .historyAlwaysDefault, .unhandledRaise,
             .crossRegionTransition, .logHeaderMismatch, .truncatedLogLine, .propertyNotDecided, .scxmlNonstandard:
            return .warning
        case .tooManyErrors, .propertyProven, .scxmlInert:
            return .note
        default:
            return .error
        }
    }

    /// What the diagnostic means, in the words of the table of <doc:Diagnostics> (a test
    /// keeps them the same): the SARIF rule's description and the language server's hover.
    public var summary: String {
        switch self {
        case .emptyFile: "the file holds no machine"
        case .invalidUTF8: "bytes that are not UTF-8"
        case .invalidCharacter: "a character that cannot start a token"
        case .invalidNumber: "a malformed number or an unknown unit"
        case .invalidEscape: "an unknown escape sequence in a string"
        case .unterminatedString: "a string without its closing quote on the same line"
        case .unterminatedComment: "a block comment without its closing `*/`"
        case .expectedToken: "the parser expected something else; says what, and what it found"
        case .nestingTooDeep: "expressions, blocks or states nested more than 64 levels (or an expression tree deeper than 256)"
        case .tooManyErrors: "the checker stopped after 50 errors in one file"
        case .duplicateDeclaration: "a name declared twice in one namespace; a note shows the first"
        case .invalidExternalName: "the string after an event's `as` is not an event name (dot-separated words, optionally ending in `.*`)"
        case .externalNameClash: "two events answer to one name in logs (an external name that is another event's name or external name); a note shows the other"
        case .unknownState: "a transition, `done(x)`, `in(x)` or a history default names a state that does not exist"
        case .unknownEvent: "a transition, `raise` or `send` names an undeclared event, or a `send \"name\"` names none"
        case .unknownOutput: "`emit` names an undeclared output"
        case .unknownName: "a name that is not a constant, variable, payload field or `let` value"
        case .unknownFunction: "a call of a function that is not built in"
        case .unknownType: "a type other than `Number`, `Bool` or `String`"
        case .fieldNotInEvent: "a payload field used where one of the transition's events does not declare it (or declares another type)"
        case .shadowedName: "a payload field or `let` value with the name of a constant, variable, field or earlier `let`"
        case .typeMismatch: "an operand, guard, condition, initial value, assignment, argument or delay of the wrong type"
        case .assignToConstant: "an assignment to a constant or `pi`"
        case .assignToPayload: "an assignment to a payload field or a `let` value"
        case .argumentCount: "a function, output or raised event given the wrong number of arguments, or a `send \"name\"` of an event with fields"
        case .nonConstantValue: "a constant or initial value that reads a variable, or cannot be computed"
        case .useBeforeDeclaration: "a constant used above its own declaration (constants are computed top to bottom)"
        case .noInitialState: "no state is marked `initial` among several: at the top level of the machine, or among the children of a compound state (a sole child needs no mark)"
        case .multipleInitialStates: "more than one state is marked `initial` (at the top level, or among the children of one compound state); a note shows the first"
        case .finalStateTransition: "a final state with transitions, or a top-level final state with an `exit` block (a nested final state is exited with its parent, so it may have one)"
        case .finalStateChildren: "a final state with child states (a final state is a leaf)"
        case .initialInParallel: "a region of a parallel state marked `initial`: every region is entered with it"
        case .invalidInitialTarget: "an `initial ->` target outside its state, targets that cannot be active together, `initial ->` in a state with no child to choose, or actions on the machine's own (top-level) `initial ->`"
        case .singleRegion: "a parallel state with fewer than two regions (a compound state says the same)"
        case .misplacedHistory: "a history state at the top level of the machine, or in a state with no child states: it has nothing to remember"
        case .invalidHistoryState: "a history state with a body (child states, `entry`, `exit`, transitions), a modifier, a history state as its default, or defaults that cannot be active together (`-> a, b` names states in different regions of a parallel state)"
        case .historyDefaultOutside: "a default of `history state h -> c` (or `-> a, b`) is not inside `h`'s parent"
        case .historyNeverActive: "`in(h)` of a history state, which is never active, so the test is always false (or a property's `after entering h`, which never starts)"
        case .neverCompletes: "`done` written in, or `done(x)` naming, a state that can never complete: an atomic state, a compound state with no final child, a parallel state with a region that cannot complete"
        case .doneDataMisplaced: "values written after the name of a state that is not a final state nested in a compound state: a top-level final state ends the run, so nothing reads its values"
        case .doneDataMismatch: "the final children of one compound state carry different values (names, order or types): a `done` reads the same fields whichever final child was entered"
        case .doneFieldNotCarried: "a `done` or `done(x)` transition reads a field that the completion it takes does not carry (a parallel state's completion carries none)"
        case .eventlessCycle: "unguarded (or constant-true) eventless transitions that are certain to be taken again, so the step never settles: a targetless `always`, `always -> s` in `s`, or a chain that leads back; the message names the loop"
        case .propertyReadsPayload: "a property's expression names an event's payload field; a property is about the machine at rest, which holds no payload"
        case .invalidDeadline: "the deadline of `after … within D` is negative (or not a finite number)"
        case .unreachableState: "no path of transitions leads from the initial state to this one (guards that are constant `false` do not count), or every transition into it is proven never to fire"
        case .deadEndState: "a leaf state that is not final and has no transition to another state; in a statechart, none of its ancestors or of the states in its parallel ancestors' other regions has one either (its whole configuration is stuck)"
        case .unusedEvent: "an event no transition handles"
        case .unusedVariable: "a variable no guard or action reads (mark it `public var` if the app reads it)"
        case .unusedOutput: "an output that is never emitted"
        case .unusedConstant: "a constant that is never used"
        case .constantGuard: "a guard or `if` condition that is always true or always false once constants are folded"
        case .unreachableTransition: "a transition after one of the same state and trigger (event, `done(x)`, or `always`) that has no guard (or an always-true one), which always wins"
        case .deadTransition: "a transition proven never to fire: its guard cannot hold given what its state's variables can be (interval analysis), or a sooner unguarded timer always leaves first"
        case .overlappingGuards: "two guarded transitions of one state (the first written wins), or of a state and its ancestor (the inner one wins), that can both take an event; never two regions, whose transitions both fire; with a witness payload and variable values"
        case .historyAlwaysDefault: "a history state that can only ever enter its default: its parent is never left while active, or it is shallow in a parallel state, or its parent is only left from the child its default enters"
        case .unhandledRaise: "a `raise` of an event that no state able to take it can be active to handle: the transition leaves every state that takes it, or none is active where it is raised; names those states"
        case .crossRegionTransition: "a transition between states inside a parallel state (from one region to another, or written in a region) that leaves the whole parallel state and enters it again, restarting its other regions"
        case .notReached: "a state or transition the search did not reach within its bounds and could not prove unreachable: not a proof either way; says what stopped the search"
        case .startFails: "the initial state's entry actions fail at run time, so the machine cannot start"
        case .constantFault: "an expression that fails whenever it runs"
        case .runTimeFault: "a step the search saw fail at run time, with the events that make it fail"
        case .propertyViolated: "a property that some run breaks, with the shortest such run the search found"
        case .propertyNotDecided: "a property the search could neither prove nor refute within its bounds: not a proof either way; says what stopped it"
        case .propertyProven: "a property no run breaks: the search covered every reachable configuration, input and order of timers"
        case .timerLoop: "timers with no delay that lead back to their own state: time never passes, and the runtime stops them after 10,000 firings"
        case .malformedLogLine: "(replay) a log line that breaks the event-log format or the machine's interface; replay stops there, exit 2"
        case .expectationFailed: "(replay) an expectation line that does not hold; shows expected and actual, exit 1"
        case .eventRejected: "(replay) an event whose step failed at run time (undone), or an ignored event under `--strict`, exit 1"
        case .logHeaderMismatch: "(replay) a recording's header names another machine, or another version of the spec (its fingerprint differs); the log is replayed all the same"
        case .truncatedLogLine: "(replay) the log's last line stops in its middle (no line end, its object not closed), as when the app writing it was killed; it is skipped and the lines before it replayed"
        case .scxmlMalformed: "(import) the file is not well-formed XML, or its root is not `<scxml>`; at the parser's position, exit 1"
        case .scxmlUnsupported: "(import) an element, attribute or expression with no equivalent in the language, at its `<` or at the character of the expression; names the feature, exit 1"
        case .scxmlNonstandard: "(import) a spelling SCXML does not define that editors and engines commonly accept (`In(s)` without quotes, `cond=\"\"`), read as they read it, at the attribute; the spec is written"
        case .scxmlInert: "(import) part of a document that has no effect, so the spec has nothing for it: a `<cancel>` of an id no `<send>` has, a transition no event can take, the name of a data model in a document that evaluates nothing"
        }
    }

    /// A short example of what triggers the diagnostic, in Markdown (the example column of
    /// <doc:Diagnostics>).
    public var example: String {
        switch self {
        case .emptyFile: "an empty file, or only comments"
        case .invalidUTF8: "a Latin-1 `é` (byte 0xE9) in a comment"
        case .invalidCharacter: "`x = a @ b`, `a & b` (did you mean `&&`?), `café`"
        case .invalidNumber: "`2min`, `3.`, `1e999`"
        case .invalidEscape: "`\"\\q\"`, `\"\\u{110000}\"`"
        case .unterminatedString: "`const s = \"abc`"
        case .unterminatedComment: "`/* never closed`"
        case .expectedToken: "`var count: Number 0` → expected '=' …, found number 0"
        case .nestingTooDeep: "10,000 `(`"
        case .tooManyErrors: "60 broken lines"
        case .duplicateDeclaration: "two `state idle`, `event tap(x: Number, x: Number)`, `var pi`"
        case .invalidExternalName: "`event reset as \"watch reset\"`, `event any as \"*\"`"
        case .externalNameClash: "`event reset as \"stop\"` beside `event stop`"
        case .unknownState: "`on tap -> runing` (did you mean 'running'?)"
        case .unknownEvent: "`on tapp -> idle`, `raise tock`"
        case .unknownOutput: "`emit don`"
        case .unknownName: "`count = x + amount`"
        case .unknownFunction: "`squareroot(x)`"
        case .unknownType: "`var mode: Strng = \"a\"`"
        case .fieldNotInEvent: "`on move, press if x > 0` where `press` has no `x`"
        case .shadowedName: "`event drag(limit: Number)` beside `const limit`"
        case .typeMismatch: "`on tap if count > \"three\"`, `after \"2s\"`"
        case .assignToConstant: "`size = 3`"
        case .assignToPayload: "`on tap { x = 3 }`"
        case .argumentCount: "`atan2(1)`, `emit shown(label)` for `shown(label, count)`, `raise loaded(3)`"
        case .nonConstantValue: "`var total: Number = total + 1`, `const broken = 1 / 0`"
        case .useBeforeDeclaration: "`const early = later + 1` before `const later = 2`"
        case .noInitialState: "two plain `state` declarations; `state s { state a … state b … }`"
        case .multipleInitialStates: "`initial state a` and `initial state b`"
        case .finalStateTransition: "`final state done { on go -> running }`"
        case .finalStateChildren: "`final state done { state more }`"
        case .initialInParallel: "`parallel state p { initial state a … state b … }`"
        case .invalidInitialTarget: "`initial -> a, b` with `a` and `b` in one region"
        case .singleRegion: "`parallel state p { state only { … } }`"
        case .misplacedHistory: "`machine M { history state h … }`"
        case .invalidHistoryState: "`history state h { on go -> a }`, `initial history state h`"
        case .historyDefaultOutside: "`history state h -> elsewhere`"
        case .historyNeverActive: "`on go if in(resumePoint)`"
        case .neverCompletes: "`done -> idle` in `state leaf { on go -> b }`"
        case .doneDataMisplaced: "`final state finished(code: 200)` at the top level of the machine"
        case .doneDataMismatch: "`final state paid(total: 5)` and `final state refused(reason: \"card\")` in one state"
        case .doneFieldNotCarried: "`done(checkout) if total > 0 -> receipt` where no final state of `checkout` gives `total`"
        case .eventlessCycle: "`state a { always -> b }` and `state b { always -> a }`"
        case .propertyReadsPayload: "`property calm: never offsetY > 100` where `offsetY` is a field of `event scroll(offsetY: Number)`"
        case .invalidDeadline: "`property settles: after tapPay within -2s: in(receipt)`"
        case .unreachableState: "a state nothing targets; a state behind `progress > 1` with `progress` clamped to [0, 1]"
        case .deadEndState: "`state stuck { on pull { progress = 0 } }`"
        case .unusedEvent: "`event neverSent`"
        case .unusedVariable: "`var written: Number = 0`, only assigned"
        case .unusedOutput: "`output neverEmitted`"
        case .unusedConstant: "`const unusedLimit = 3`"
        case .constantGuard: "`on release if enabled` with `const enabled = false`"
        case .unreachableTransition: "`on release -> stuck` then `on release if progress > 2 -> idle`"
        case .deadTransition: "`on release if progress > 1` where `progress = min(max(…, 0), 1)`; `after 5s` beside `after 1s -> x`"
        case .overlappingGuards: "`on drag if x > 0` and `on drag if x < 10` (both hold for `x: 0.5`)"
        case .historyAlwaysDefault: "`history state last` in `wizard`, which is never left, and `on back -> last` inside `wizard`"
        case .unhandledRaise: "`on save -> idle { raise saved }` written in `editing`, the only state with `on saved`"
        case .crossRegionTransition: "`on mute -> muted` from `playing` in region `playback` into region `sound`"
        case .notReached: "`if count == 5` when `count` only grows by 2"
        case .startFails: "`initial state a { entry { r = 1 / divisor } }` with `var divisor: Number = 0`"
        case .constantFault: "`entry { r = sqrt(-1) }`, `x = 1 / 0`"
        case .runTimeFault: "`on tap if 10 / x > 2 { x = x - 1 }` fails at the second tap"
        case .propertyViolated: "`property quiet: never in(loading) && in(errorBanner)` where a failure keeps the spinner"
        case .propertyNotDecided: "`property quiet: never count > 3` with `count` growing by 1 on every tap"
        case .propertyProven: "`property quiet: never in(loading) && in(errorBanner)` where a failure leaves `loading`"
        case .timerLoop: "`after 0s -> c` written in `c`"
        case .malformedLogLine: "`{\"event\": \"touchBegn\"}` (did you mean 'touchBegan'?), `{\"event\": \"tap\", \"force\": 1}`"
        case .expectationFailed: "`{\"expect\": \"open\"}` while the drawer is closed"
        case .eventRejected: "`ratio = width / height` with `\"height\": 0`"
        case .logHeaderMismatch: "`{\"recording\": {\"machine\": \"Drawer\", \"spec\": \"…\"}}` replayed against an edited `Drawer.machine`"
        case .truncatedLogLine: "`{\"time\": 2.5, \"event\": \"touchMo` at the end of the file"
        case .scxmlMalformed: "`<state id=\"a\"></scxml>`"
        case .scxmlUnsupported: "`<invoke>`, `cond=\"typeof x == 'y'\"`, `<send target=\"#_parent\">`"
        case .scxmlNonstandard: "`cond=\"In(dim)\"`, `<transition event=\"tick\" cond=\"\" target=\"slow\"/>`"
        case .scxmlInert: "`<cancel sendid=\"blink\"/>` where no `<send>` has `id=\"blink\"`; `datamodel=\"jexl\"` in a document with no `cond` or `expr`"
        }
    }
}
