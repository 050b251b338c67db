import StatecraftDiagnostics
import StatecraftModel

/// Writes a machine of the runtime's flat path (one active leaf and its ancestors) as Swift.
/// (The declarations it writes are in `+Declarations`, the step in `+Steps`, actions and
/// expressions in `+Expressions`.)
///
/// The shape of the file, top to bottom: the nested types (states, events, outputs, values,
/// failures, results), the public API (`init`, `send`, `advance(to:)`, the variables), then
/// the step: `take` dispatches on the event and the active leaf to the first transition whose
/// guard holds (innermost state first, in written order), each transition a function of its
/// own, entry and exit actions one `switch` each. Everything a step changes lives in `core`,
/// so a failing step restores it in one assignment.
struct FlatMachineWriter {
    let machine: Machine
    let options: SwiftGenerator.Options
    let typeName: String
    let access: String
    /// `after` transitions, each with its timer slot (their order in this list).
    let timers: [Transition]
    /// Whether the machine needs the statechart step (`ChartWriter`): more than one active leaf,
    /// history, completion, eventless transitions, the internal queue or `in(...)`.
    let isChart: Bool
    /// Each `send` action: the event it sends and where it is written.
    let sendSites: [(EventID, SourceRange)]
    /// Where each send by name (`send "\(kind)"`) is written, in the order of `sendSites`.
    let namedSendSites: [SourceRange]
    /// Whether the machine sends itself events (it has a `send` or a `cancel`).
    let sendsEvents: Bool
    /// Every state but the root, in document order.
    let states: [State]
    /// The history states, each with its slot in `Core` (`history0`, `history1`, …).
    let historyStates: [State]
    /// The timer slot of each `after` transition.
    let timerSlots: [TransitionID: Int]
    /// For a statechart: what in its step can fail (`ChartPlan`).
    private(set) var chartPlan = ChartPlan()
    var out = SwiftWriter()

    /// Whether timers keep the order they were armed in (`armedK` and `sequence`): it breaks a tie
    /// between two equal deadlines, so it takes two timers, or a timer and an event the machine
    /// sent itself (whose order is kept the same way).
    var ordersTimers: Bool { timers.count > 1 || sendsEvents }

    /// Whether entering a state can end the run (a final state at the top level). Without one,
    /// a flat machine finishes only when its start fails.
    var hasTopLevelFinal: Bool { machine[machine.root].children.contains { machine[$0].isFinal } }

    init(_ machine: Machine, _ options: SwiftGenerator.Options) {
        self.machine = machine
        self.options = options
        typeName = options.typeName ?? machine.name
        access = options.isPublic ? "public " : ""
        timers = machine.transitions.filter { if case .after = $0.trigger { true } else { false } }
        states = machine.states.filter { $0.id != machine.root }
        historyStates = machine.states.filter(\.isHistory)
        timerSlots = Dictionary(uniqueKeysWithValues: timers.enumerated().map { ($0.element.id, $0.offset) })
        var sites: [(EventID, SourceRange)] = []
        var named: [SourceRange] = []
        var cancels = false
        for action in machine.transitions.flatMap(\.actions) + machine.states.flatMap(\.allActions) {
            action.visit { a in
                switch a {
                case .send(let e, _, _, let range): sites.append((e, range))
                case .sendNamed(_, _, let range): named.append(range)
                case .cancel: cancels = true
                default: break
                }
            }
        }
        sendSites = sites
        namedSendSites = named
        sendsEvents = !sites.isEmpty || !named.isEmpty || cancels
        // A machine that sends itself events keeps them in a queue beside its timers: the
        // chart step has one (a flat machine is a statechart with one active leaf).
        isChart = machine.firstStatechartConstruct != nil || sendsEvents
        if isChart { chartPlan = chartPlanned() }
    }

    /// The members the file declares on the machine type: a variable or constant of the spec
    /// with one of these names would clash with them.
    static let memberNames: Set<String> = [
        "State", "Event", "Output", "Value", "Failure", "Outcome", "StepResult", "Core",
        "state", "configuration", "isActive", "now", "isFinished", "nextDeadline", "start", "send", "advance",
        "variableValues", "configurationNames", "core", "pending", "take", "enter", "exit", "exitStates", "fireTimer",
        "deliver", "startMachine", "Recorded", "timerSites", "parent", "text", "add", "subtract", "multiply", "divide", "remainder",
        "squareRoot", "Bits", "Chosen", "Internal", "internalQueue", "chosen", "microstepCount", "eventlessMayHold", "beginStep", "endStep",
        "select", "selectEventless", "selectCompletion", "addEnabled", "removeConflictingTransitions", "microstep",
        "enterStates", "completeMacrostep", "runActions", "transitionDomain", "entrySet", "recordHistory", "isInFinalState",
        "atomicStates", "compoundStates", "parallelStates", "lastDescendant", "isDescendant", "descendants", "sourceState", "targetState",
        "staticEntry", "microstepLimit", "regionsOf", "addDescendantStatesToEnter", "addAncestorStatesToEnter", "enterUncoveredRegions", "addAncestorsOfHistoryTargets", "finalChildren", "effectiveTargets", "historyDomain", "timerSites", "SnapshotError", "SnapshotJSON",
        "specFingerprint", "snapshotJSON", "Sent", "sent", "sendToSelf", "sentEntry", "firstSendSite", "statePath", "stateNumber", "isHistoryState", "parentNumber", "afterCount", "timerSlot",
        "unrepresentableDeadline", "refusal", "DeadlineRefusal", "deadlineHolds", "onEachStep", "fireNext", "OutputQueue",
        "takeAlone", "started", "startSaysMore", "enterByDefault", "faultText", "fieldTypes",
    ]

    /// Whether a variable or constant of this name would be declared twice in the generated
    /// type: a member's name, or the numbered names of its transitions' functions
    /// (`transition3`, `transition3_tap`) and of its completion slots (`completion1_0`).
    static func clashesWithMember(_ name: String) -> Bool {
        memberNames.contains(name) || numbered(name, "transition") || numbered(name, "completion")
    }

    mutating func write() throws(SwiftGenerator.Unsupported) -> String {
        try checkSupported()
        header()
        out.open("\(access)struct \(typeName): Sendable, Hashable")
        nestedTypes()
        if isChart {
            chartStorage()
            chartAPI()
            bridge()
            chartStepping()
        } else {
            storage()
            publicAPI()
            bridge()
            stepping()
        }
        snapshots()
        helpers()
        out.close()
        return out.text
    }

    // MARK: - What cannot be generated

    func checkSupported() throws(SwiftGenerator.Unsupported) {
        for v in machine.variables where Self.clashesWithMember(v.name) {
            throw SwiftGenerator.Unsupported(
                message: "variable '\(v.name)' has the name of a member of the generated type; rename it", range: v.range)
        }
        for c in machine.constants where Self.clashesWithMember(c.name) {
            throw SwiftGenerator.Unsupported(
                message: "constant '\(c.name)' has the name of a member of the generated type; rename it", range: c.range)
        }
        // The generated code binds an event's payload fields, and a completion's, as locals of
        // their own names, in functions that also use the type's members and locals of their
        // own: a field of one of those names would hide them, and the file would not compile
        // (or, for a `let` value's slot, would read the wrong value).
        for e in machine.events {
            for field in e.fields {
                if let why = Self.fieldNameProblem(field.name) {
                    throw SwiftGenerator.Unsupported(message: "field '\(field.name)' of event '\(e.name)' \(why); rename it",
                                                     range: field.range)
                }
            }
        }
        for s in machine.states {
            for field in s.doneData {
                if let why = Self.fieldNameProblem(field.name) {
                    throw SwiftGenerator.Unsupported(
                        message: "field '\(field.name)' of final state '\(s.name)' \(why); rename it", range: field.range)
                }
            }
        }
        // An output's fields are only ever labels (`.shown(label: …)`), which backticks make
        // safe, except for the one name Swift never takes as a label.
        for o in machine.outputs {
            for field in o.fields where field.name == "_" {
                throw SwiftGenerator.Unsupported(
                    message: "field '_' of output '\(o.name)' \(Self.unspeakable); rename it", range: field.range)
            }
        }
    }

    /// The locals the generated code declares, or the parameters it takes, and uses after
    /// payload fields are bound beside them: `before` (a failing step's copy of `core`), the
    /// transition a statechart's lone selection chose (`selectedLocal`), and those of the event
    /// initializer (`fields`), of `Recorded.forEachField` (`body`) and of a snapshot's sent
    /// events (`payload`). (Its other locals, `event`, `name`, `error`, are not read where a
    /// field could hide them.)
    static let localNames: Set<String> = ["before", selectedLocal, "fields", "body", "payload"]

    /// What expressions name unqualified besides the type's members: `Double.pi`,
    /// `Swift.min(…)`, `atan2(…)`.
    static let freeNames: Set<String> = ["Double", "Swift", "atan2"]

    /// The members the generated code only ever names through `Self.` (`Self.text(count)`,
    /// `Self.add(…)`), which a local of the same name does not hide: a field may be called
    /// `text`.
    static let qualifiedMembers: Set<String> = ["text", "add", "subtract", "multiply", "divide", "remainder", "squareRoot"]

    static let unspeakable = "is a name Swift keeps for itself, even in backticks"

    /// Why a payload field (an event's or a completion's) of this name cannot be written, if
    /// it cannot: it is bound as a local of its name, so it may not be the name of a member
    /// the code names unqualified (nor that of a completion's slot, `completionN_K`, or of a
    /// transition's function, `transitionN_event`), of a local or of what expressions call
    /// (nor that of a `let` value, `localN`), nor a word that backticks do not make a name.
    static func fieldNameProblem(_ name: String) -> String? {
        if memberNames.contains(name) && !qualifiedMembers.contains(name) || name.hasPrefix("completion")
            || numbered(name, "transition") {
            return "has the name of a member of the generated type"
        }
        if localNames.contains(name) || numbered(name, "local") {
            return "has the name of a local value of the generated code"
        }
        if freeNames.contains(name) { return "has a name the generated code uses for Swift's '\(name)'" }
        if name == "self" || name == "Self" || name == "_" { return unspeakable }
        return nil
    }

    /// Whether `name` is `prefix` followed by a digit (`local3`, `transition12_tap`).
    private static func numbered(_ name: String, _ prefix: String) -> Bool {
        name.hasPrefix(prefix) && name.dropFirst(prefix.count).first?.isASCII == true
            && name.dropFirst(prefix.count).first?.isNumber == true
    }

    // MARK: - Names and places

    func line(_ range: SourceRange) -> Int { machine.source.location(of: range.start).line }
    func site(_ range: SourceRange) -> String {
        let l = machine.source.location(of: range.start)
        return "\(l.line), \(l.column)"
    }
    func stateName(_ s: StateID) -> String { SwiftName.quoted(machine[s].name) }
    func stateCase(_ s: StateID?) -> String { s.map { s in s == machine.root ? "nil" : "." + stateName(s) } ?? "nil" }
    static func swiftType(_ t: ValueType) -> String {
        switch t {
        case .number: "Double"
        case .bool: "Bool"
        case .string: "String"
        }
    }
    func fieldList(_ fields: [Field]) -> String {
        fields.map { "\(SwiftName.quoted($0.name)): \(Self.swiftType($0.type))" }.joined(separator: ", ")
    }
}
