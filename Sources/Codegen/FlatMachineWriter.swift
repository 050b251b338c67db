import StatecraftDiagnostics
import StatecraftModel

/// Writes a machine of the runtime's flat path (one active leaf and its ancestors) as Swift.
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
    var out = SwiftWriter()

    init(_ machine: Machine, _ options: SwiftGenerator.Options) {
        self.machine = machine
        self.options = options
        typeName = options.typeName ?? machine.name
        access = options.isPublic ? "public " : ""
        timers = machine.transitions.filter { if case .after = $0.trigger { true } else { false } }
    }

    /// The members the file declares on the machine type: a variable or constant of the spec
    /// with one of these names would clash with them.
    static let memberNames: Set<String> = [
        "State", "Event", "Output", "Value", "Failure", "Outcome", "StepResult", "Core",
        "state", "configuration", "isActive", "now", "isFinished", "nextDeadline", "start", "send", "advance",
        "variableValues", "configurationNames", "core", "pending", "take", "enter", "exit", "exitStates", "fireTimer",
        "deliver", "startMachine", "Recorded", "timerSites", "parent", "text", "add", "subtract", "multiply", "divide", "remainder",
        "squareRoot",
    ]

    mutating func write() throws(SwiftGenerator.Unsupported) -> String {
        try checkSupported()
        header()
        out.open("\(access)struct \(typeName): Sendable, Hashable")
        nestedTypes()
        storage()
        publicAPI()
        bridge()
        stepping()
        helpers()
        out.close()
        return out.text
    }

    // MARK: - What is not generated yet

    private func checkSupported() throws(SwiftGenerator.Unsupported) {
        func refuse(_ message: String, _ range: SourceRange) -> SwiftGenerator.Unsupported {
            SwiftGenerator.Unsupported(message: message + " (statecharts are not generated yet)", range: range)
        }
        for s in machine.states where s.id != machine.root {
            if s.kind == .parallel { throw refuse("parallel state '\(s.name)'", s.range) }
            if s.kind == .history { throw refuse("history state '\(s.name)'", s.range) }
            if !s.initialTargets.isEmpty { throw refuse("'initial ->' in state '\(s.name)'", s.range) }
        }
        for t in machine.transitions {
            switch t.trigger {
            case .done: throw refuse("a 'done' transition", t.keywordRange)
            case .always: throw refuse("an 'always' transition", t.keywordRange)
            case .events, .after: break
            }
            if t.isInternal { throw refuse("an internal transition", t.keywordRange) }
        }
        var refusal: SwiftGenerator.Unsupported?
        func scan(_ actions: [Action]) {
            for action in actions {
                action.visit { a in
                    switch a {
                    case .raise(_, _, let range): refusal = refusal ?? refuse("'raise'", range)
                    case .send(_, _, _, let range): refusal = refusal ?? refuse("'send'", range)
                    case .cancel(_, let range): refusal = refusal ?? refuse("'cancel'", range)
                    default: break
                    }
                }
                action.visitExpressions { e in
                    e.visit { if case .inState = $0.kind { refusal = refusal ?? refuse("'in(...)'", $0.range) } }
                }
            }
        }
        for t in machine.transitions {
            t.guardExpr?.visit { if case .inState = $0.kind { refusal = refusal ?? refuse("'in(...)'", $0.range) } }
            scan(t.actions)
        }
        for s in machine.states {
            scan(s.entry)
            scan(s.exit)
        }
        if let refusal { throw refusal }
        for v in machine.variables where Self.memberNames.contains(v.name) {
            throw SwiftGenerator.Unsupported(
                message: "variable '\(v.name)' has the name of a member of the generated type; rename it", range: v.range)
        }
        for c in machine.constants where Self.memberNames.contains(c.name) {
            throw SwiftGenerator.Unsupported(
                message: "constant '\(c.name)' has the name of a member of the generated type; rename it", range: c.range)
        }
    }

    // MARK: - Names and places

    private func line(_ range: SourceRange) -> Int { machine.source.location(of: range.start).line }
    private func site(_ range: SourceRange) -> String {
        let l = machine.source.location(of: range.start)
        return "\(l.line), \(l.column)"
    }
    private func stateName(_ s: StateID) -> String { SwiftName.quoted(machine[s].name) }
    private func stateCase(_ s: StateID?) -> String { s.map { s in s == machine.root ? "nil" : "." + stateName(s) } ?? "nil" }
    private static func swiftType(_ t: ValueType) -> String {
        switch t {
        case .number: "Double"
        case .bool: "Bool"
        case .string: "String"
        }
    }
    private var states: [State] { machine.states.filter { $0.id != machine.root } }
    private func fieldList(_ fields: [Field]) -> String {
        fields.map { "\(SwiftName.quoted($0.name)): \(Self.swiftType($0.type))" }.joined(separator: ", ")
    }

    // MARK: - Header and types

    private mutating func header() {
        out.line("// \(typeName).swift: generated by `statecraft swift` from \(options.specName)")
        out.line("// (spec fingerprint \(options.fingerprint)). Do not edit: change the spec and regenerate.")
        out.line("// `statecraft swift \(options.specName) -o FILE --check` fails while this file is stale.")
        out.line()
        if usesFoundation { out.line("import Foundation"); out.line() }
        out.doc("The \(machine.name) machine of `\(options.specName)`: a value type stepped with the runtime's semantics.")
    }

    /// Whether the spec calls a math function that needs Foundation: `atan2`, and the roundings
    /// and `sqrt`, which the standard library leaves to the C math library that an app on
    /// Linux links only through Foundation (or Glibc).
    private var usesFoundation: Bool { !calledFunctions.intersection([.atan2, .sqrt, .floor, .ceil, .round]).isEmpty }

    private var calledFunctions: Set<BuiltinFunction> {
        var found = Set<BuiltinFunction>()
        func look(_ e: Expr) { e.visit { if case .call(let f, _) = $0.kind { found.insert(f) } } }
        for t in machine.transitions {
            t.guardExpr.map(look)
            if case .after(let d) = t.trigger { look(d) }
            for a in t.actions { a.visitExpressions(look) }
        }
        for s in machine.states { for a in s.entry + s.exit { a.visitExpressions(look) } }
        return found
    }

    private mutating func nestedTypes() {
        out.doc("The states, in the spec's order.")
        out.open("\(access)enum State: Int, Sendable, Hashable, CaseIterable")
            for s in states { out.line("case \(SwiftName.quoted(s.name))  // line \(line(s.range))") }
            if !states.isEmpty { out.line() }
            out.doc("The state's name in the spec.")
            nameProperty(states.map(\.name))
        out.close()
        out.line()
        out.doc("The events the app sends, with their payloads.")
        out.open("\(access)enum Event: Sendable, Hashable")
            for e in machine.events {
                let fields = e.fields.isEmpty ? "" : "(" + fieldList(e.fields) + ")"
                out.line("case \(SwiftName.quoted(e.name))\(fields)  // line \(line(e.range))")
            }
            if !machine.events.isEmpty { out.line() }
            out.doc("The event's name in the spec.")
            nameProperty(machine.events.map(\.name))
            out.doc("The payload in the spec's field order, by name.")
            valuesProperty("fields: [(name: String, value: Value)]", machine.events.map { ($0.name, $0.fields) }, named: true)
            eventInitializer()
        out.close()
        out.line()
        out.doc("What the machine tells the app.")
        out.open("\(access)enum Output: Sendable, Hashable")
            for o in machine.outputs {
                let fields = o.fields.isEmpty ? "" : "(" + fieldList(o.fields) + ")"
                out.line("case \(SwiftName.quoted(o.name))\(fields)  // line \(line(o.range))")
            }
            if !machine.outputs.isEmpty { out.line() }
            out.doc("The output's name in the spec.")
            nameProperty(machine.outputs.map(\.name))
            out.doc("The arguments in the spec's field order.")
            valuesProperty("arguments: [Value]", machine.outputs.map { ($0.name, $0.fields) }, named: false)
        out.close()
        out.line()
        out.doc("A payload field's, variable's or output argument's value, for tools that work by name.")
        out.open("\(access)enum Value: Sendable, Hashable")
            out.line("case number(Double)")
            out.line("case bool(Bool)")
            out.line("case string(String)")
            out.line()
            out.line("\(access)var numberValue: Double? { if case .number(let n) = self { n } else { nil } }")
            out.line("\(access)var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }")
            out.line("\(access)var stringValue: String? { if case .string(let s) = self { s } else { nil } }")
        out.close()
        out.line()
        out.doc("Why a step was rejected (and undone): the runtime's message and the spec position it names.")
        out.open("\(access)struct Failure: Error, Sendable, Hashable")
            out.line("\(access)var message: String")
            out.line("\(access)var line: Int")
            out.line("\(access)var column: Int")
        out.close()
        out.line()
        out.doc("What became of a step.")
        out.open("\(access)enum Outcome: Sendable, Hashable")
            out.line("/// The machine entered its initial state.")
            out.line("case started")
            out.line("/// A transition took the event (or the timer's transition fired): its index in the spec's")
            out.line("/// order of transitions.")
            out.line("case taken(transition: Int)")
            out.line("/// No transition of the active states takes the event (or every guard was false).")
            out.line("case ignored")
            out.line("/// The run had already ended in a final state.")
            out.line("case afterFinal")
            out.line("/// The step failed and was undone.")
            out.line("case rejected(Failure)")
            out.line()
            out.line("/// The case's name: `started`, `taken`, `ignored`, `afterFinal` or `rejected`.")
            out.open("\(access)var name: String")
            out.line("switch self {")
            out.line("case .started: \"started\"")
            out.line("case .taken: \"taken\"")
            out.line("case .ignored: \"ignored\"")
            out.line("case .afterFinal: \"afterFinal\"")
            out.line("case .rejected: \"rejected\"")
            out.line("}")
            out.close()
            out.line("/// The transition taken, if one was.")
            out.line("\(access)var transition: Int? { if case .taken(let t) = self { t } else { nil } }")
            out.line("/// Why the step was rejected, if it was.")
            out.line("\(access)var failure: Failure? { if case .rejected(let f) = self { f } else { nil } }")
        out.close()
        out.line()
        out.doc("A step's outcome, with the outputs it emitted in order (and, for `send(_:at:)`, the outcomes\nof the timers that fired first).")
        out.open("\(access)struct StepResult: Sendable, Hashable")
            out.line("\(access)var outcome: Outcome")
            out.line("\(access)var outputs: [Output]")
            out.line("\(access)var timers: [Outcome] = []")
        out.close()
        out.line()
        recordedType()
    }

    /// `var name: String`: each case's spec name.
    private mutating func nameProperty(_ names: [String]) {
        out.open("\(access)var name: String")
        if names.isEmpty {
            out.line("switch self {}")
        } else {
            out.line("switch self {")
            for n in names { out.line("case .\(SwiftName.quoted(n)): \(SwiftName.literal(n))") }
            out.line("}")
        }
        out.close()
    }

    /// A property listing each case's associated values as `Value`s, in field order.
    private mutating func valuesProperty(_ declaration: String, _ cases: [(String, [Field])], named: Bool) {
        out.open("\(access)var \(declaration)")
        if cases.isEmpty {
            out.line("switch self {}")
        } else {
            out.line("switch self {")
            for (name, fields) in cases {
                if fields.isEmpty {
                    out.line("case .\(SwiftName.quoted(name)): []")
                    continue
                }
                let bindings = fields.map { "let \(SwiftName.quoted($0.name))" }
                let values = fields.map { field -> String in
                    let value = wrap(field.type, SwiftName.quoted(field.name))
                    return named ? "(\(SwiftName.literal(field.name)), \(value))" : value
                }
                let pattern = "(" + bindings.joined(separator: ", ") + ")"
                out.line("case .\(SwiftName.quoted(name))\(pattern): [\(values.joined(separator: ", "))]")
            }
            out.line("}")
        }
        out.close()
    }

    /// `init?(name:fields:)`: the event of that name with its fields in declaration order (nil
    /// for another name, count or type), for tools that read events from a log.
    private mutating func eventInitializer() {
        out.doc("The event named `name` with `fields` in the spec's order; nil for an unknown name, or fields\nof another count or type.")
        out.open("\(access)init?(name: String, fields: [Value])")
        out.line("switch name {")
        for e in machine.events {
            out.line("case \(SwiftName.literal(e.name)):")
            out.indent()
            if e.fields.isEmpty {
                out.line("guard fields.isEmpty else { return nil }")
                out.line("self = .\(SwiftName.quoted(e.name))")
            } else {
                let conditions = e.fields.enumerated().map { k, f -> String in
                    let kind = f.type == .number ? "number" : f.type == .bool ? "bool" : "string"
                    return "case .\(kind)(let \(SwiftName.quoted(f.name))) = fields[\(k)]"
                }
                out.line("guard fields.count == \(e.fields.count), " + conditions.joined(separator: ", ") + " else { return nil }")
                let labels = e.fields.map { "\(SwiftName.quoted($0.name)): \(SwiftName.quoted($0.name))" }
                out.line("self = .\(SwiftName.quoted(e.name))(\(labels.joined(separator: ", ")))")
            }
            out.dedent()
        }
        out.line("default:")
        out.line("    return nil")
        out.line("}")
        out.close()
    }

    /// `Recorded`: what a recorder may see of an event, private fields emptied.
    private mutating func recordedType() {
        out.doc("An event as a recording keeps it: its name, its time, and its payload fields in the spec's\norder, each `private` one emptied (`\"\"`, `0` or `false`). Handing fields to a closure, it\nallocates nothing.")
        out.open("\(access)struct Recorded: Sendable")
        out.line("let event: Event")
        out.doc("The time the event was sent at.")
        out.line("\(access)let time: Double")
        out.doc("The event's name in the spec.")
        out.line("\(access)var name: String { event.name }")
        out.doc("Calls `body` with each payload field's name and value, in the spec's order.")
        out.open("\(access)func forEachField<E: Error>(_ body: (String, Value) throws(E) -> Void) throws(E)")
        let any = machine.events.contains { !$0.fields.isEmpty }
        if !any {
            out.line("_ = body")
        } else if machine.events.isEmpty {
            out.line("switch event {}")
        } else {
            out.line("switch event {")
            for e in machine.events {
                if e.fields.isEmpty {
                    out.line("case .\(SwiftName.quoted(e.name)):")
                    out.line("    break")
                    continue
                }
                let bindings = e.fields.map { $0.isPrivate ? "_" : "let \(SwiftName.quoted($0.name))" }
                let pattern = e.fields.allSatisfy(\.isPrivate) ? "" : "(" + bindings.joined(separator: ", ") + ")"
                out.line("case .\(SwiftName.quoted(e.name))\(pattern):")
                for f in e.fields {
                    let value = f.isPrivate ? literal(f.type.zero) : SwiftName.quoted(f.name)
                    out.line("    try body(\(SwiftName.literal(f.name)), \(wrap(f.type, value)))")
                }
            }
            out.line("}")
        }
        out.close()
        out.close()
        out.line()
    }

    // MARK: - Storage

    private mutating func storage() {
        if !machine.constants.isEmpty {
            for c in machine.constants {
                out.line("static let \(SwiftName.quoted(c.name)): \(Self.swiftType(c.value.type)) = \(literal(c.value))  // line \(line(c.range))")
            }
            out.line()
        }
        out.doc("Everything a step changes: a failing step puts it back as it was.")
        out.open("struct Core: Sendable, Hashable")
            out.line("var state: State?")
            out.line("var isFinished = false")
            out.line("var now: Double = 0")
            for v in machine.variables {
                out.line("var \(SwiftName.quoted(v.name)): \(Self.swiftType(v.type)) = \(literal(v.initialValue))")
            }
            if !timers.isEmpty {
                out.line("/// Each `after` transition's deadline while its state is active (NaN when not armed),")
                out.line("/// and the order it was armed in (earlier first among equal deadlines).")
                for (k, t) in timers.enumerated() {
                    out.line("var deadline\(k) = Double.nan, armed\(k) = 0  // line \(line(t.keywordRange))")
                }
                out.line("var sequence = 0")
            }
        out.close()
        out.line()
        out.line("private(set) var core = Core()")
        out.line("private var pending: [Output] = []")
        out.doc("What starting did: `.started`, or `.rejected` when an entry action failed (the machine\nthen takes no events).")
        out.line("\(access)private(set) var start = StepResult(outcome: .started, outputs: [])")
        out.line()
    }

    private func literal(_ v: Value) -> String {
        switch v {
        case .number(let n): SwiftName.number(n)
        case .bool(let b): b ? "true" : "false"
        case .string(let s): SwiftName.literal(s)
        }
    }

    // MARK: - Public API

    private mutating func publicAPI() {
        let a = access
        let initial = machine.initialEntrySet.last.map(stateCase) ?? "nil"
        out.doc("Enters the initial state, running its entry actions (`start` says what that did).")
        out.open("\(a)init()")
            out.line("let outcome = startMachine()")
            out.line("start = StepResult(outcome: outcome, outputs: pending)")
            out.line("if !pending.isEmpty { pending.removeAll(keepingCapacity: true) }")
        out.close()
        out.line()
        out.doc("The active state: the innermost one (the initial one if starting failed).")
        out.line("\(a)var state: State { core.state ?? \(initial == "nil" ? "State.allCases[0]" : initial) }")
        out.doc("The active states, outermost first (none if starting failed).")
        out.open("\(a)var configuration: [State]")
            out.line("var states: [State] = []")
            out.line("var s = core.state")
            out.open("while let current = s")
                out.line("states.insert(current, at: 0)")
                out.line("s = Self.parent(of: current)")
            out.close()
            out.line("return states")
        out.close()
        out.doc("Whether `s` is active.")
        out.open("\(a)func isActive(_ s: State) -> Bool")
            out.line("var current = core.state")
            out.open("while let c = current")
                out.line("if c == s { return true }")
                out.line("current = Self.parent(of: c)")
            out.close()
            out.line("return false")
        out.close()
        out.doc("Virtual time, in seconds: the latest time the machine was advanced to.")
        out.line("\(a)var now: Double { core.now }")
        out.doc("Whether the run ended in a final state.")
        out.line("\(a)var isFinished: Bool { core.isFinished }")
        for v in machine.variables {
            out.line("\(v.isPublic ? a : "")var \(SwiftName.quoted(v.name)): \(Self.swiftType(v.type)) { core.\(SwiftName.quoted(v.name)) }  // line \(line(v.range))")
        }
        out.line()
        out.doc("The earliest deadline of an armed timer, or nil.")
        out.open("\(a)var nextDeadline: Double?")
            if timers.isEmpty {
                out.line("nil")
            } else {
                out.line("guard !core.isFinished else { return nil }")
                out.line("var earliest = Double.nan")
                for k in timers.indices {
                    out.line("if core.deadline\(k) < earliest || earliest.isNaN { earliest = core.deadline\(k) }")
                }
                out.line("return earliest.isNaN ? nil : earliest")
            }
        out.close()
        out.line()
        out.doc("Sends `event` at `time` (nil: at `now`): the timers due by then fire first, each its own step.")
        out.open("\(a)mutating func send(_ event: Event, at time: Double? = nil) -> StepResult")
            if machine.outputs.isEmpty {
                // (No outputs: a closure that appended one would never run, and Swift says so.)
                out.line("var timerOutcomes: [Outcome] = []")
                out.line("if let time { advance(to: time, emit: { _ in }, onStep: { timerOutcomes.append($0) }) }")
                out.line("let outcome = send(event, emit: { _ in })")
                out.line("return StepResult(outcome: outcome, outputs: [], timers: timerOutcomes)")
            } else {
                out.line("var outputs: [Output] = []")
                out.line("var timerOutcomes: [Outcome] = []")
                out.line("if let time { advance(to: time, emit: { outputs.append($0) }, onStep: { timerOutcomes.append($0) }) }")
                out.line("let outcome = send(event, emit: { outputs.append($0) })")
                out.line("return StepResult(outcome: outcome, outputs: outputs, timers: timerOutcomes)")
            }
        out.close()
        out.line()
        out.doc("`send(_:at:)`, handing the event to `record` first, as a log line would hold it: with every\n`private` payload field emptied, so its value never reaches the recording.")
        out.open("\(a)mutating func send(_ event: Event, at time: Double? = nil, recordingTo record: (Recorded) -> Void) -> StepResult")
            out.line("record(Recorded(event: event, time: Swift.max(time ?? core.now, core.now)))")
            out.line("return send(event, at: time)")
        out.close()
        out.line()
        out.doc("Sends `event` now, handing its outputs to `emit` in order (nothing is allocated).")
        out.open("\(a)mutating func send(_ event: Event, emit: (Output) -> Void) -> Outcome")
            out.line("if core.isFinished { return .afterFinal }")
            out.line("let before = core")
            out.open("do")
                out.line("guard let taken = try take(event) else { return .ignored }")
                out.line("if !pending.isEmpty { deliver(emit) }")
                out.line("return .taken(transition: taken)")
            out.reopen("catch")
                out.line("core = before")
                out.line("if !pending.isEmpty { pending.removeAll(keepingCapacity: true) }")
                out.line("return .rejected(error)")
            out.close()
        out.close()
        out.line()
        out.doc("Moves time to `time`, firing every timer due by then in deadline order, each its own step:\n`emit` gets its outputs, `onStep` its outcome.")
        out.open("\(a)mutating func advance(to time: Double, emit: (Output) -> Void = { _ in }, onStep: (Outcome) -> Void = { _ in })")
            if timers.isEmpty {
                out.line("if time > core.now { core.now = time }")
                out.close()
                out.line()
                return
            }
            out.line("var firedAtOnce = 0")
            out.open("while !core.isFinished")
                out.line("var next = -1")
                out.line("var deadline = Double.nan")
                out.line("var order = 0")
                for k in timers.indices {
                    out.line("if core.deadline\(k) <= time && (next < 0 || core.deadline\(k) < deadline || (core.deadline\(k) == deadline && core.armed\(k) < order)) { next = \(k); deadline = core.deadline\(k); order = core.armed\(k) }")
                }
                out.line("guard next >= 0 else { break }")
                out.line("let instant = core.now")
                out.line("if deadline > core.now { core.now = deadline }")
                out.line("firedAtOnce = core.now == instant ? firedAtOnce + 1 : 1")
                out.line("let outcome = fireTimer(next, firedAtOnce: firedAtOnce)")
                out.line("if !pending.isEmpty { deliver(emit) }")
                out.line("onStep(outcome)")
            out.close()
            out.line("if time > core.now { core.now = time }")
        out.close()
        out.line()
    }

    // MARK: - The bridge for tools

    private mutating func bridge() {
        let a = access
        out.line("// MARK: - By name, for tools (a log harness, a recorder, a differential test)")
        out.line()
        out.doc("The variables in the spec's order, by name.")
        out.open("\(a)var variableValues: [(name: String, value: Value)]")
            if machine.variables.isEmpty {
                out.line("[]")
                out.close()
                out.line()
                out.doc("The active states' names, outermost first.")
                out.line("\(a)var configurationNames: [String] { configuration.map(\\.name) }")
                out.line()
                return
            }
            out.line("[")
            for v in machine.variables {
                out.line("    (\(SwiftName.literal(v.name)), \(wrap(v.type, "core.\(SwiftName.quoted(v.name))"))),")
            }
            out.line("]")
        out.close()
        out.line()
        out.doc("The active states' names, outermost first.")
        out.line("\(a)var configurationNames: [String] { configuration.map(\\.name) }")
        out.line()
    }

    private func wrap(_ type: ValueType, _ expr: String) -> String {
        switch type {
        case .number: ".number(\(expr))"
        case .bool: ".bool(\(expr))"
        case .string: ".string(\(expr))"
        }
    }

    // MARK: - Stepping

    private mutating func stepping() {
        out.line("// MARK: - Steps")
        out.line()
        startFunction()
        dispatch()
        for t in machine.transitions { transitionFunction(t) }
        entryAndExit()
        if !timers.isEmpty { timerFunction() }
        parentTable()
    }

    private mutating func startFunction() {
        out.open("private mutating func startMachine() -> Outcome")
            out.line("let before = core")
            out.open("do")
                for s in machine.initialEntrySet { out.line("try enter(\(stateCase(s)))") }
                out.line("return .started")
            out.reopen("catch")
                out.line("core = before")
                out.line("core.isFinished = true")
                out.line("if !pending.isEmpty { pending.removeAll(keepingCapacity: true) }")
                out.line("return .rejected(error)")
            out.close()
        out.close()
        out.line()
    }

    /// `take`: the event and the active leaf to the first transition whose guard holds.
    private mutating func dispatch() {
        out.doc("The first transition of the active states (innermost first, in written order) that takes\n`event` and whose guard holds, taken; nil when none does.")
        out.open("private mutating func take(_ event: Event) throws(Failure) -> Int?")
            let leaves = states.filter { machine.isAtomic($0.id) }
            out.line("guard let leaf = core.state else { return nil }")
            out.line("switch event {")
            for e in machine.events {
                // Candidates per leaf, innermost state first, in written order.
                var candidates: [(StateID, [Transition])] = []
                for leaf in leaves {
                    var list: [Transition] = []
                    for s in machine.selfAndAncestors(leaf.id) {
                        for id in machine[s].transitions {
                            let t = machine[id]
                            if case .events(let events) = t.trigger, events.contains(e.id), !t.isBroken { list.append(t) }
                        }
                    }
                    if !list.isEmpty { candidates.append((leaf.id, list)) }
                }
                let used = usedFields(e, in: candidates.flatMap(\.1))
                let bindings = e.fields.map { used.contains($0.name) ? "let \(SwiftName.quoted($0.name))" : "_" }
                let pattern = e.fields.isEmpty || used.isEmpty ? "" : "(" + bindings.joined(separator: ", ") + ")"
                out.line("case .\(SwiftName.quoted(e.name))\(pattern):")
                out.indent()
                if candidates.isEmpty {
                    out.line("return nil")
                    out.dedent()
                    continue
                }
                out.line("switch leaf {")
                for (leaf, list) in candidates {
                    out.line("case .\(stateName(leaf)):")
                    out.indent()
                    var returned = false
                    for t in list {
                        let call = "try \(functionName(t, e))(\(arguments(t, e)))"
                        out.line("// line \(line(t.range)): \(describe(t))")
                        if let g = t.guardExpr {
                            let (code, throwing) = expression(g, fields: used)
                            out.line("if \(throwing ? "try " : "")\(code) {")
                            out.line("    \(call)")
                            out.line("    return \(t.id.index)")
                            out.line("}")
                        } else {
                            out.line(call)
                            out.line("return \(t.id.index)")
                            returned = true
                            break
                        }
                    }
                    if !returned { out.line("return nil") }
                    out.dedent()
                }
                if candidates.count < states.count { out.line("default:"); out.line("    return nil") }
                out.line("}")
                out.dedent()
            }
            out.line("}")
        out.close()
        out.line()
    }

    private func describe(_ t: Transition) -> String {
        var text: String
        switch t.trigger {
        case .events(let events): text = "on " + events.map { machine[$0].name }.joined(separator: ", ")
        case .after: text = "after"
        case .done(let s): text = "done(\(machine[s].name))"
        case .always: text = "always"
        }
        text += " in \(machine[t.source].name)"
        if let target = t.target { text += " -> \(machine[target].name)" }
        return text
    }

    private func functionName(_ t: Transition, _ e: Event?) -> String {
        "transition\(t.id.index)" + (e.map { "_" + $0.name } ?? "")
    }

    private func arguments(_ t: Transition, _ e: Event) -> String {
        let used = usedFields(e, in: [t], guards: false)
        return e.fields.filter { used.contains($0.name) }.map { "\($0.name): \(SwiftName.quoted($0.name))" }.joined(separator: ", ")
    }

    /// The payload fields of `e` that the transitions' guards (and actions) read.
    private func usedFields(_ e: Event, in transitions: [Transition], guards: Bool = true) -> Set<String> {
        var used = Set<String>()
        func look(_ x: Expr) { x.visit { if case .field(let name) = $0.kind { used.insert(name) } } }
        for t in transitions {
            if guards { t.guardExpr.map(look) }
            for a in t.actions { a.visitExpressions(look) }
        }
        return used.intersection(e.fields.map(\.name))
    }

    /// One function per transition and event it takes: exit, actions, enter.
    private mutating func transitionFunction(_ t: Transition) {
        guard !t.isBroken else { return }
        switch t.trigger {
        case .events(let events):
            for id in events {
                let e = machine[id]
                let used = usedFields(e, in: [t], guards: false)
                let parameters = e.fields.filter { used.contains($0.name) }
                    .map { "\(SwiftName.quoted($0.name)): \(Self.swiftType($0.type))" }.joined(separator: ", ")
                out.doc("Line \(line(t.range)): \(describe(t)).")
                out.open("private mutating func \(functionName(t, e))(\(parameters)) throws(Failure)")
                microstep(t, fields: used)
                out.close()
                out.line()
            }
        case .after:
            out.doc("Line \(line(t.range)): \(describe(t)).")
            out.open("private mutating func \(functionName(t, nil))() throws(Failure)")
            microstep(t, fields: [])
            out.close()
            out.line()
        case .done, .always:
            break
        }
    }

    private mutating func microstep(_ t: Transition, fields: Set<String>) {
        guard t.target != nil else {
            actions(t.actions, fields: fields)
            return
        }
        let domain = machine.transitionDomain(t.shape, historyValue: { _ in nil })
        out.line("try exitStates(upTo: \(stateCase(domain)))")
        actions(t.actions, fields: fields)
        for s in machine.entrySet([t.shape], historyValue: { _ in nil }) { out.line("try enter(\(stateCase(s)))") }
    }

    private mutating func entryAndExit() {
        let timerSlots = Dictionary(uniqueKeysWithValues: timers.enumerated().map { ($0.element.id, $0.offset) })
        out.doc("Enters `s`: it becomes the active leaf (for now), its entry actions run, its timers are armed.")
        out.open("private mutating func enter(_ s: State) throws(Failure)")
            out.line("core.state = s")
            out.line("switch s {")
                for s in states {
                    out.line("case .\(stateName(s.id)):")
                    out.indent()
                    let before = out.text
                    actions(s.entry, fields: [])
                    for id in s.transitions {
                        guard let slot = timerSlots[id], case .after(let delay) = machine[id].trigger else { continue }
                        let (code, throwing) = expression(delay, fields: [])
                        out.line("let delay\(slot): Double = \(throwing ? "try " : "")\(code)")
                        out.line("core.deadline\(slot) = core.now + Swift.max(0, delay\(slot))")
                        out.line("core.sequence += 1")
                        out.line("core.armed\(slot) = core.sequence")
                    }
                    if s.isFinal && s.parent == machine.root {
                        out.line("core.isFinished = true")
                        for k in timers.indices { out.line("core.deadline\(k) = .nan") }
                    }
                    if out.text == before { out.line("break") }
                    out.dedent()
                }
            out.line("}")
        out.close()
        out.line()
        out.doc("Exits `s`: its exit actions run, its timers are cancelled.")
        out.open("private mutating func exit(_ s: State) throws(Failure)")
            out.line("switch s {")
                for s in states {
                    out.line("case .\(stateName(s.id)):")
                    out.indent()
                    let before = out.text
                    actions(s.exit, fields: [])
                    for id in s.transitions {
                        if let slot = timerSlots[id] { out.line("core.deadline\(slot) = .nan") }
                    }
                    if out.text == before { out.line("break") }
                    out.dedent()
                }
            out.line("}")
        out.close()
        out.line()
        out.doc("Exits the active states from the leaf up to, not including, `domain` (nil: the machine).")
        out.open("private mutating func exitStates(upTo domain: State?) throws(Failure)")
            out.line("var s = core.state")
            out.open("while let current = s, current != domain")
                out.line("try exit(current)")
                out.line("s = Self.parent(of: current)")
            out.close()
        out.close()
        out.line()
    }

    private mutating func timerFunction() {
        out.doc("Fires timer `slot` as a step of its own (time has moved to its deadline).")
        out.open("private mutating func fireTimer(_ slot: Int, firedAtOnce: Int) -> Outcome")
            out.line("if !pending.isEmpty { pending.removeAll(keepingCapacity: true) }")
            out.open("if firedAtOnce > 10_000")
                for k in timers.indices { out.line("core.deadline\(k) = .nan") }
                out.line("let (line, column) = Self.timerSites[slot]")
                out.line("return .rejected(Failure(message: \"timers fired 10000 times at t=\\(Self.text(core.now)) without time passing; stopped them\", line: line, column: column))")
            out.close()
            out.line("let before = core")
            out.open("do")
                out.line("switch slot {")
                    for (k, t) in timers.enumerated() {
                        out.line("case \(k):")
                        out.line("    core.deadline\(k) = .nan")
                        if let g = t.guardExpr {
                            let (code, throwing) = expression(g, fields: [])
                            out.line("    guard \(throwing ? "try " : "")\(code) else { return .ignored }")
                        }
                        out.line("    try \(functionName(t, nil))()")
                        out.line("    return .taken(transition: \(t.id.index))")
                    }
                    out.line("default:")
                    out.line("    return .ignored")
                out.line("}")
            out.reopen("catch")
                out.line("core = before")
                out.line("if !pending.isEmpty { pending.removeAll(keepingCapacity: true) }")
                out.line("return .rejected(error)")
            out.close()
        out.close()
        out.line()
        out.line("private static let timerSites: [(Int, Int)] = [\(timers.map { "(\(site($0.keywordRange)))" }.joined(separator: ", "))]")
        out.line()
    }

    private mutating func parentTable() {
        out.doc("The state that contains `s` (nil at the top level).")
        out.open("static func parent(of s: State) -> State?")
            out.line("switch s {")
                for s in states {
                    out.line("case .\(stateName(s.id)): \(stateCase(s.parent))")
                }
            out.line("}")
        out.close()
        out.line()
    }

    // MARK: - Actions and expressions

    /// The Swift of an action list; `let` values whose value nobody reads are evaluated into `_`.
    private mutating func actions(_ list: [Action], fields: Set<String>) {
        var read = Set<Int>()
        for a in list { a.visitExpressions { $0.visit { if case .local(let slot) = $0.kind { read.insert(slot) } } } }
        emit(list, fields: fields, readLocals: read)
    }

    private mutating func emit(_ list: [Action], fields: Set<String>, readLocals: Set<Int>) {
        for action in list {
            switch action {
            case .assign(let v, let op, let e, let range):
                let name = "core.\(SwiftName.quoted(machine[v].name))"
                let (code, throwing) = expression(e, fields: fields)
                let value = (throwing ? "try " : "") + code
                switch (op, machine[v].type) {
                case (nil, _):
                    out.line("\(name) = \(value)")
                case (.add?, .string):
                    out.line("\(name) += \(value)")
                case (let op?, .number):
                    out.line("\(name) = try Self.\(arithmeticHelper(op))(\(name), \(code), compound: true, \(site(range)))")
                default:
                    out.line("throw Failure(message: \(SwiftName.literal("'\(op?.rawValue ?? "=")' is not an assignment operator")), line: \(line(range)), column: \(machine.source.location(of: range.start).column))")
                }
            case .emit(let o, let args, _):
                let output = machine[o]
                var parts: [String] = []
                var throwing = false
                for (field, arg) in zip(output.fields, args) {
                    let (code, t) = expression(arg, fields: fields)
                    parts.append("\(SwiftName.quoted(field.name)): \(code)")
                    throwing = throwing || t
                }
                let value = ".\(SwiftName.quoted(output.name))\(parts.isEmpty ? "" : "(" + parts.joined(separator: ", ") + ")")"
                out.line(throwing ? "pending.append(try \(value))" : "pending.append(\(value))")
            case .setLocal(let slot, let e, _):
                let (code, throwing) = expression(e, fields: fields)
                let lhs = readLocals.contains(slot) ? "let local\(slot)" : "_"
                out.line("\(lhs) = \(throwing ? "try " : "")\(code)")
            case .ifAction(let c, let then, let otherwise, _):
                let (code, throwing) = expression(c, fields: fields)
                out.line("if \(throwing ? "try " : "")\(code) {")
                indentBlock { $0.emit(then, fields: fields, readLocals: readLocals) }
                if otherwise.isEmpty {
                    out.line("}")
                } else {
                    out.line("} else {")
                    indentBlock { $0.emit(otherwise, fields: fields, readLocals: readLocals) }
                    out.line("}")
                }
            case .raise, .send, .cancel:
                break  // refused by checkSupported
            }
        }
    }

    /// Writes `body`'s lines one level deeper.
    private mutating func indentBlock(_ body: (inout FlatMachineWriter) -> Void) {
        out.indent()
        body(&self)
        out.dedent()
    }

    private func arithmeticHelper(_ op: BinaryOp) -> String {
        switch op {
        case .add: "add"
        case .subtract: "subtract"
        case .multiply: "multiply"
        case .divide: "divide"
        default: "remainder"
        }
    }

    /// The Swift of an expression, and whether evaluating it can throw. The code has no `try`
    /// of its own: one `try` before a whole expression covers every call in it, and Swift
    /// allows no `try` to the right of an operator.
    func expression(_ e: Expr, fields: Set<String>) -> (String, Bool) {
        switch e.kind {
        case .literal(let v): return (literal(v), false)
        case .pi: return ("Double.pi", false)
        case .constant(let id): return ("Self.\(SwiftName.quoted(machine.constants[id.index].name))", false)
        case .variable(let id): return ("core.\(SwiftName.quoted(machine[id].name))", false)
        case .field(let name): return fields.contains(name) ? (SwiftName.quoted(name), false) : (literal(e.type.zero), false)
        case .local(let slot): return ("local\(slot)", false)
        case .inState, .invalid: return (literal(e.type.zero), false)
        case .unary(.not, let x):
            let (c, t) = expression(x, fields: fields)
            return ("!\(c)", t)
        case .unary(.negate, let x):
            let (c, t) = expression(x, fields: fields)
            return ("-\(c)", t)
        case .binary(let op, let l, let r):
            let (a, ta) = expression(l, fields: fields)
            let (b, tb) = expression(r, fields: fields)
            switch op {
            // The right operand is evaluated only when it decides; a conditional, not `&&`,
            // whose autoclosure would not take a typed throw.
            case .and: return ("(\(a) ? \(b) : false)", ta || tb)
            case .or: return ("(\(a) ? true : \(b))", ta || tb)
            case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual:
                return ("(\(a) \(op.rawValue) \(b))", ta || tb)
            case .add where l.type == .string:
                return ("(\(a) + \(b))", ta || tb)
            case .add, .subtract, .multiply, .divide, .remainder:
                return ("Self.\(arithmeticHelper(op))(\(a), \(b), compound: false, \(site(e.range)))", true)
            }
        case .conditional(let c, let t, let f):
            let (cc, tc) = expression(c, fields: fields)
            let (tt, tt2) = expression(t, fields: fields)
            let (ff, tf) = expression(f, fields: fields)
            return ("(\(cc) ? \(tt) : \(ff))", tc || tt2 || tf)
        case .call(let f, let args):
            let parts = args.map { expression($0, fields: fields) }
            let list = parts.map(\.0)
            let throwing = parts.contains { $0.1 }
            switch f {
            case .min: return ("Swift.min(\(list.joined(separator: ", ")))", throwing)
            case .max: return ("Swift.max(\(list.joined(separator: ", ")))", throwing)
            case .abs: return ("Swift.abs(\(list[0]))", throwing)
            case .floor: return ("(\(list[0])).rounded(.down)", throwing)
            case .ceil: return ("(\(list[0])).rounded(.up)", throwing)
            case .round: return ("(\(list[0])).rounded(.toNearestOrAwayFromZero)", throwing)
            case .sqrt: return ("Self.squareRoot(\(list[0]), \(site(e.range)))", true)
            case .atan2: return ("atan2(\(list[0]), \(list[1]))", throwing)
            }
        case .text(let x):
            let (c, t) = expression(x, fields: fields)
            switch x.type {
            case .number: return ("Self.text(\(c))", t)
            case .bool: return ("(\(c) ? \"true\" : \"false\")", t)
            case .string: return (c, t)
            }
        }
    }

    // MARK: - Helpers in the generated type

    private mutating func helpers() {
        out.doc("Hands the step's outputs to `emit`, in order. (Outputs wait in `pending` until the step\nsucceeds: a failing step emits nothing.)")
        out.open("private mutating func deliver(_ emit: (Output) -> Void)")
        out.line("for output in pending { emit(output) }")
        out.line("pending.removeAll(keepingCapacity: true)")
        out.close()
        out.line()
        out.line("// MARK: - Arithmetic as the runtime does it: a result that is not a finite number fails")
        out.line()
        let ops: [(String, String, String)] = [("add", "+", "a + b"), ("subtract", "-", "a - b"), ("multiply", "*", "a * b"),
                                               ("divide", "/", "a / b"), ("remainder", "%", "a.truncatingRemainder(dividingBy: b)")]
        for (name, symbol, formula) in ops {
            out.open("private static func \(name)(_ a: Double, _ b: Double, compound: Bool, _ line: Int, _ column: Int) throws(Failure) -> Double")
                out.line("let result = \(formula)")
                out.line("if result.isFinite { return result }")
                if symbol == "/" || symbol == "%" {
                    let what = symbol == "/" ? "division" : "remainder"
                    out.open("if b == 0 && !compound")
                        out.line("throw Failure(message: \"\(what) by zero (\\(text(a)) \(symbol) 0)\", line: line, column: column)")
                    out.close()
                }
                out.line("throw Failure(message: \"\\(text(a)) \(symbol) \\(text(b)) is not a finite number\", line: line, column: column)")
            out.close()
            out.line()
        }
        if calledFunctions.contains(.sqrt) {
            out.open("private static func squareRoot(_ a: Double, _ line: Int, _ column: Int) throws(Failure) -> Double")
            out.line("let result = a.squareRoot()")
            out.line("if result.isFinite { return result }")
            out.line("throw Failure(message: \"'sqrt' of \\(text(a)) is not a finite number\", line: line, column: column)")
            out.close()
            out.line()
        }
        out.doc("A number as text: whole numbers below 10^15 without a fraction, others as Swift's shortest\nround-trip form (as the runtime writes them).")
        out.open("static func text(_ n: Double) -> String")
            out.line("if n.isFinite && Swift.abs(n) < 1e15 && Double(Int64(n)) == n { return String(Int64(n)) }")
            out.line("return \"\\(n)\"")
        out.close()
    }
}

