extension HarnessSources {
    /// `Replay.swift` of the harness: the replay of records through a `ReplayMachine`.
    static let replay = #"""
        // Replaying a log through a generated machine type: one machine per case, payloads checked
        // against the events' declared fields, timers fired by the log's time, expectations compared.
        // The rules and messages are `statecraft replay`'s, so that both print the same report.

        /// A payload field's, variable's or output argument's value.
        enum LogValue: Equatable {
            case number(Double)
            case bool(Bool)
            case string(String)

            /// As reports write a value in a message: numbers as JSON writes them, strings quoted as
            /// a spec writes them.
            var description: String {
                switch self {
                case .number(let n): n.isFinite ? ReportJSON.number(n) : "\(n)"
                case .bool(let b): b ? "true" : "false"
                case .string(let s): ReportJSON.quoted(s, controlEscape: .spec)
                }
            }
        }

        /// A declared type.
        enum ValueType: Sendable {
            case number, bool, string

            var article: String {
                switch self {
                case .number: "a Number"
                case .bool: "a Bool"
                case .string: "a String"
                }
            }

            /// The log's value as a value of this type, or nil when it is not one.
            func value(_ json: LogJSON) -> LogValue? {
                switch (json, self) {
                case (.number(let n), .number): .number(n)
                case (.bool(let b), .bool): .bool(b)
                case (.string(let s), .string): .string(s)
                default: nil
                }
            }
        }

        /// What a log can name in a machine: its states, events, variables and outputs, as the spec
        /// declares them (written by `statecraft swift --harness` beside the machine).
        struct MachineSchema: Sendable {
            struct State: Sendable {
                var name: String
                var isHistory: Bool
                var isAtomic: Bool
            }
            struct Field: Sendable {
                var name: String
                var type: ValueType
            }
            struct Event: Sendable {
                var name: String
                var fields: [Field]
                /// The name other systems use (`as "watch.reset"` in the spec), without `.*`.
                var externalName: String? = nil
                /// Whether the external name was written with `.*`: the event also answers to
                /// the name's SCXML extensions (`DIGIT.5` for `DIGIT.*`).
                var acceptsExtensions = false
            }
            struct Output: Sendable {
                var name: String
                var fields: [Field]
            }

            /// The spec's path, as the report's `spec` names it.
            var spec: String
            var machine: String
            /// The spec's fingerprint, which a recording's header carries.
            var fingerprint: String
            /// Whether the runtime runs the machine as a statechart (its reports then describe every
            /// active state where a flat machine's name its leaf).
            var isChart: Bool
            /// The machine's own name as a state (what a flat machine that could not start is in).
            var rootName: String
            /// The state a failed start names.
            var initialState: String
            /// The states in document order, without the machine itself.
            var states: [State]
            var events: [Event]
            var variables: [Field]
            /// The names a log may give the events exactly: declared names, then external names.
            var eventsByLogName: [String: Int] {
                var table: [String: Int] = [:]
                for (k, e) in events.enumerated() { table[e.name] = k }
                for (k, e) in events.enumerated() { if let x = e.externalName, table[x] == nil { table[x] = k } }
                return table
            }
            /// The external names written with `.*`, which also stand for their extensions.
            var eventsByStem: [String: Int] {
                var table: [String: Int] = [:]
                for (k, e) in events.enumerated() where e.acceptsExtensions { if let x = e.externalName { table[x] = k } }
                return table
            }
            /// Every name a log may give an event exactly, for "did you mean".
            var logNames: [String] { events.map(\.name) + events.compactMap { $0.externalName == $0.name ? nil : $0.externalName } }
            var outputs: [Output]
        }

        /// An output as emitted: its name and arguments.
        struct EmittedOutput {
            var name: String
            var arguments: [LogValue]
        }

        /// What became of a step, in the words of the generated type's `Outcome`.
        enum StepOutcome {
            case started
            case taken
            case ignored
            case afterFinal
            case rejected(message: String, line: Int, column: Int)
        }

        /// What the replay needs of a generated machine type: only its by-name API.
        protocol ReplayMachine {
            static var schema: MachineSchema { get }
            init()
            /// What starting did, and its outputs.
            var startStep: (StepOutcome, [EmittedOutput]) { get }
            /// Sends the event named `name` with its fields in the spec's order.
            mutating func replaySend(name: String, fields: [LogValue], emit: (EmittedOutput) -> Void) -> StepOutcome
            /// Fires the timer (or takes the event the machine sent itself) due first by `time`, as
            /// its own step: its outcome, its outputs, and the sent event's name (nil for a timer);
            /// nil when nothing is due by `time`. `firedAtOnce` counts the steps at one instant (0
            /// before the first for a time), as the machine's own `advance` does.
            mutating func replayFireNext(dueBy time: Double, firedAtOnce: inout Int) -> (StepOutcome, [EmittedOutput], String?)?
            /// Moves the clock to `time`, once nothing is due by then.
            mutating func replayAdvance(to time: Double)
            var now: Double { get }
            var isFinished: Bool { get }
            var configurationNames: [String] { get }
            var variableList: [(name: String, value: LogValue)] { get }
            /// The first timer armed at a time too large for its deadline to mean its delay.
            var refusedDeadline: (time: Double, delay: Double)? { get }
            /// The spec's properties a run can break (`Properties.swift`).
            static var propertySchemas: [PropertySchema] { get }
            /// Property `k`'s values in the machine's configuration: `X`, then `G` or `Y` (nil for a
            /// form without one), each evaluated in that order, and whether the state an `after
            /// entering` response waits for is active. An expression that fails throws.
            func propertyValues(_ k: Int) throws(PropertyFault) -> (x: Bool, other: Bool?, inTrigger: Bool)
        }

        /// A failed expectation.
        struct ExpectationFailure {
            var line: Int
            var column: Int
            var subject: String
            var expected: String
            var actual: String
        }

        /// A rejected step: its log line and column, and the spec position its failure names.
        struct Rejection {
            var line: Int
            var column: Int
            var message: String
            var specLine: Int
            var specColumn: Int
        }

        /// What happened in one case of a log.
        struct CaseReport {
            var key: String?
            var firstLine: Int
            var state = ""
            var configuration: [String] = []
            var finished = false
            var startFailure: String?
            var time: Double = 0
            var variables: [(name: String, value: LogValue)] = []
            var outputs: [EmittedOutput] = []
            var outputCount = 0
            var applied = 0
            var ignored = 0
            var rejected = 0
            var timersFired = 0
            var sentTaken = 0
            var expectations = 0
            var failureCount = 0
            var failures: [ExpectationFailure] = []
            var rejections: [Rejection] = []
            var propertyViolations: [PropertyViolationRecord] = []

            /// Whether every expectation held, nothing was rejected and no property was broken.
            var passed: Bool { failureCount == 0 && rejected == 0 && propertyViolations.isEmpty }
        }

        /// Replays the records of one log through machines of type `M`.
        struct Replay<M: ReplayMachine> {
            /// One case's run. A class, so that a step changes it in place.
            final class Run {
                var machine: M
                var report: CaseReport
                /// The outputs since the previous expectation of this case, with their arguments.
                var window: [EmittedOutput] = []
                var windowOverflowed = false
                /// The spec's properties watched on this run, and what it found at the last step
                /// (recorded in the report at once).
                var monitor = PropertyMonitor(count: M.propertySchemas.count)
                var found: [PropertyMonitor.Found] = []

                init(machine: M, report: CaseReport) {
                    self.machine = machine
                    self.report = report
                }
            }

            let schema = M.schema
            let eventsByLogName = M.schema.eventsByLogName
            let eventsByStem = M.schema.eventsByStem
            let properties = M.propertySchemas
            var runs: [Run] = []
            /// The run of each case, by its key's bytes (as replay tells cases apart: two spellings of
            /// one character are two cases).
            var runByKey: [[UInt8]: Int] = [:]
            var defaultRun: Int?

            /// The cases so far, each with where its machine is now.
            var cases: [CaseReport] {
                runs.map { run in
                    var report = run.report
                    report.state = atomicStates(run.machine)
                    report.configuration = sortedConfiguration(run.machine)
                    report.finished = run.machine.isFinished
                    report.variables = run.machine.variableList
                    report.time = run.machine.now
                    return report
                }
            }

            /// The active states in document order.
            func sortedConfiguration(_ machine: M) -> [String] {
                let names = machine.configurationNames
                let order = Dictionary(schema.states.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
                return names.sorted { (order[$0] ?? Int.max) < (order[$1] ?? Int.max) }
            }

            /// The active atomic states in document order, as the report's `state` and a property
            /// violation's message name them.
            func atomicStates(_ machine: M) -> String {
                let atomic = Set(schema.states.filter(\.isAtomic).map(\.name))
                return sortedConfiguration(machine).filter { atomic.contains($0) }.joined(separator: ", ")
            }

            func error(_ record: LogRecord, at offset: Int, _ message: String) -> LogError {
                LogError(line: record.line, column: record.column(ofByte: offset), message: message)
            }

            /// Applies one record: checks it against the machine and its case's time (a line that
            /// breaks the log's contract throws, before it opens a case), fires the timers due by its
            /// time, then sends its event or compares its expectation.
            mutating func consume(_ record: LogRecord) throws(LogError) {
                var resolved: [LogValue]?
                var declaredName = ""
                switch record.body {
                case .event(let name, let nameOffset, let payload):
                    (declaredName, resolved) = try resolve(event: name, at: nameOffset, payload: payload, record: record)
                case .expect(let expectation):
                    try validate(expectation, record: record)
                }
                let existing = record.caseKey.map { runByKey[Array($0.utf8)] } ?? defaultRun
                let now = existing.map { runs[$0].machine.now } ?? 0
                var time = now
                if let t = record.time {
                    if t < now {
                        let owner = record.caseKey.map { "case '\($0)'" } ?? "the lines without a case"
                        throw error(record, at: record.timeOffset ?? 0,
                                    "time goes backwards: \(LogValue.number(t).description) is before \(LogValue.number(now).description), the latest time of \(owner)")
                    }
                    time = t
                }
                let index = existing ?? openRun(for: record.caseKey, line: record.line)
                let run = runs[index]
                fireTimers(run, to: time, line: record.line)
                switch record.body {
                case .event(_, let nameOffset, _):
                    apply(declaredName, resolved ?? [], to: run, column: record.column(ofByte: nameOffset), line: record.line)
                case .expect(let expectation):
                    check(expectation, run: run, record: record)
                }
                // A timer armed on the way to this line, or by it, whose deadline does not mean its
                // delay: the line is refused (after it was applied; the report covers it).
                if let refused = run.machine.refusedDeadline {
                    let (time, delay) = (LogValue.number(refused.time).description, LogValue.number(refused.delay).description)
                    let sum = refused.time + refused.delay
                    let why = sum.isFinite ? "\(time) + \(delay) rounds to \(LogValue.number(sum).description)"
                        : "\(time) + \(delay) is beyond the largest number"
                    var offset = record.timeOffset ?? 0
                    if record.timeOffset == nil, case .event(_, let nameOffset, _) = record.body { offset = nameOffset }
                    throw error(record, at: offset, "time \(time) is too large for a timer armed at it to be due \(delay) s later: \(why)")
                }
            }

            /// After the last line (`line`): what is due at each case's current instant.
            mutating func finish(afterLine line: Int) {
                for run in runs { fireTimers(run, to: run.machine.now, line: line) }
            }

            /// Starts the run of a case seen for the first time, at its first line.
            mutating func openRun(for key: String?, line: Int) -> Int {
                let machine = M()
                let (outcome, outputs) = machine.startStep
                let run = Run(machine: machine, report: CaseReport(key: key, firstLine: line))
                // The start's outputs are all kept (a spec's entry actions emit a bounded number).
                for output in outputs {
                    run.report.outputCount += 1
                    run.report.outputs.append(output)
                    run.window.append(output)
                }
                if case .rejected(let message, let specLine, let specColumn) = outcome {
                    let text = "the machine could not start: entering '\(schema.initialState)' failed: \(message)"
                    run.report.rejected += 1
                    run.report.startFailure = text
                    run.report.rejections.append(Rejection(line: line, column: 1, message: text, specLine: specLine,
                                                           specColumn: specColumn))
                } else {
                    // The start is the case's first stable configuration (a machine that could not
                    // start has none).
                    observe(run, took: nil, line: line)
                }
                runs.append(run)
                let index = runs.count - 1
                if let key { runByKey[Array(key.utf8)] = index } else { defaultRun = index }
                return index
            }

            /// Fires the timers of `run` due by `time` one step at a time (each reported at `line`),
            /// watching the properties between them, then moves its clock there.
            func fireTimers(_ run: Run, to time: Double, line: Int) {
                var firedAtOnce = 0
                while let step = run.machine.replayFireNext(dueBy: time, firedAtOnce: &firedAtOnce) {
                    let (outcome, outputs, sent) = step
                    collect(outputs, into: run)
                    // A deadline passed before the step is certain at the step's time; the
                    // configuration the step left is judged after it.
                    clockMoves(run, to: run.machine.now, line: line)
                    switch outcome {
                    case .taken:
                        if sent != nil { run.report.sentTaken += 1 } else { run.report.timersFired += 1 }
                        observe(run, took: sent, line: line)
                    case .rejected(let message, let specLine, let specColumn):
                        // (A failed step was undone: it left no configuration to judge.)
                        run.report.rejected += 1
                        let text = sent.map { "step of sent event '\($0)' failed: \(message)" } ?? "timer step failed: \(message)"
                        if run.report.rejections.count < ReplayRules.keptFailures {
                            run.report.rejections.append(Rejection(line: line, column: 1, message: text,
                                                                   specLine: specLine, specColumn: specColumn))
                        }
                    default:
                        // A sent event not taken: a stable configuration all the same, which took nothing.
                        observe(run, took: nil, line: line)
                    }
                }
                // Timers first: one of them may have answered a response whose deadline `time` passes.
                clockMoves(run, to: time, line: line)
                run.machine.replayAdvance(to: time)
            }

            // MARK: - Properties

            /// The case's clock moves to `time` (line `line`): responses whose deadline it passes break.
            func clockMoves(_ run: Run, to time: Double, line: Int) {
                run.monitor.clockMoves(to: time, properties, found: &run.found)
                record(run, line: line)
            }

            /// Judges the run's stable configuration, left by line `line`'s step (or its timers), a
            /// step that took the event named `event` (nil: none).
            func observe(_ run: Run, took event: String?, line: Int) {
                run.monitor.observe(run.machine, at: run.machine.now, took: event, found: &run.found)
                record(run, line: line)
            }

            /// Moves what the monitor found into the case's report, worded in the configuration the
            /// run is in.
            func record(_ run: Run, line: Int) {
                guard !run.found.isEmpty else { return }
                let leaves = atomicStates(run.machine)
                for f in run.found {
                    let p = properties[f.property]
                    run.report.propertyViolations.append(PropertyViolationRecord(
                        property: p.name, specLine: p.specLine, line: line, time: f.time,
                        message: PropertyMonitor.message(p, f.reason, time: f.time, leaves: leaves)))
                }
                run.found.removeAll()
            }

            func collect(_ outputs: [EmittedOutput], into run: Run) {
                guard !outputs.isEmpty else { return }
                for output in outputs {
                    run.window.append(output)
                    run.report.outputCount += 1
                    if run.report.outputs.count < ReplayRules.keptOutputs { run.report.outputs.append(output) }
                }
                if run.window.count > ReplayRules.outputWindow {
                    run.window.removeAll(keepingCapacity: true)
                    run.windowOverflowed = true
                }
            }

            func apply(_ name: String, _ fields: [LogValue], to run: Run, column: Int, line: Int) {
                var outputs: [EmittedOutput] = []
                let outcome = run.machine.replaySend(name: name, fields: fields) { outputs.append($0) }
                switch outcome {
                case .started, .taken:
                    run.report.applied += 1
                    collect(outputs, into: run)
                    // (An event not taken changed nothing: its configuration was judged already.)
                    observe(run, took: name, line: line)
                case .ignored, .afterFinal:
                    run.report.ignored += 1
                case .rejected(let message, let specLine, let specColumn):
                    run.report.rejected += 1
                    if run.report.rejections.count < ReplayRules.keptFailures {
                        run.report.rejections.append(Rejection(line: line, column: column,
                                                               message: "event '\(name)' was rejected: \(message)",
                                                               specLine: specLine, specColumn: specColumn))
                    }
                }
            }

            // MARK: - Lines against the machine

            /// The event a log's name stands for, as the spec declares it: its declared or external
            /// name, else the longest external name written with `.*` that is a prefix of it at a `.`.
            func event(loggedAs name: String) -> MachineSchema.Event? {
                if let k = eventsByLogName[name] { return schema.events[k] }
                var prefix = Substring(name)
                while let dot = prefix.lastIndex(of: ".") {
                    prefix = prefix[..<dot]
                    if let k = eventsByStem[String(prefix)] { return schema.events[k] }
                }
                return nil
            }

            /// The event's declared name and its payload in field order.
            func resolve(event name: String, at offset: Int, payload: [LogMember], record: LogRecord) throws(LogError) -> (String, [LogValue]) {
                guard let event = event(loggedAs: name) else {
                    var message = "unknown event '\(name)'"
                    if let close = EditDistance.closest(to: name, among: schema.logNames) { message += "; did you mean '\(close)'?" }
                    throw error(record, at: offset, message)
                }
                // Named as the spec declares it, with the log's name beside it when it differs.
                let called = name == event.name ? "event '\(name)'" : "event '\(event.name)' (logged as '\(name)')"
                var values = Array(repeating: LogValue.number(0), count: event.fields.count)
                var seen = Array(repeating: false, count: event.fields.count)
                for member in payload {
                    guard let slot = event.fields.firstIndex(where: { $0.name == member.key }) else {
                        let declared = event.fields.isEmpty ? "it has no payload"
                            : "its fields are " + event.fields.map { "'\($0.name)'" }.joined(separator: ", ")
                        throw error(record, at: member.keyOffset, "\(called) has no field '\(member.key)'; \(declared)")
                    }
                    let field = event.fields[slot]
                    guard let value = field.type.value(member.value) else {
                        throw error(record, at: member.valueOffset,
                                    "field '\(field.name)' of \(called) must be \(field.type.article), found \(ReplayRules.describe(member.value))")
                    }
                    values[slot] = value
                    seen[slot] = true
                }
                if let missing = seen.firstIndex(of: false) {
                    throw error(record, at: offset, "\(called) is missing its field '\(event.fields[missing].name)'")
                }
                return (event.name, values)
            }

            /// Refuses an expectation that names a state, variable or output the machine does not
            /// have, or a value of the wrong type.
            func validate(_ expectation: LogExpectation, record: LogRecord) throws(LogError) {
                for (k, name) in (expectation.states ?? []).enumerated() {
                    let offset = k < expectation.stateOffsets.count ? expectation.stateOffsets[k] : expectation.offset
                    guard let state = schema.states.first(where: { $0.name == name }) else {
                        throw unknown("state", name, among: schema.states.filter { !$0.isHistory }.map(\.name), at: offset, record)
                    }
                    if state.isHistory {
                        throw error(record, at: offset, "'\(name)' is a history state, which is never active; name a state")
                    }
                }
                for member in expectation.vars ?? [] {
                    guard let variable = schema.variables.first(where: { $0.name == member.key }) else {
                        throw unknown("variable", member.key, among: schema.variables.map(\.name), at: member.keyOffset, record)
                    }
                    if variable.type.value(member.value) == nil {
                        throw error(record, at: member.valueOffset,
                                    "variable '\(variable.name)' is \(variable.type.article), but the expectation gives \(ReplayRules.describe(member.value))")
                    }
                }
                for (i, name) in (expectation.outputs ?? []).enumerated() {
                    let offset = i < expectation.outputOffsets.count ? expectation.outputOffsets[i] : expectation.outputsOffset
                    guard let output = schema.outputs.first(where: { $0.name == name }) else {
                        throw unknown("output", name, among: schema.outputs.map(\.name), at: offset, record)
                    }
                    guard let arguments = expectation.outputArguments, i < arguments.count, let expected = arguments[i] else { continue }
                    guard expected.values.count == output.fields.count else {
                        let takes = output.fields.count == 1 ? "1 argument" : "\(output.fields.count) arguments"
                        throw error(record, at: expected.offset,
                                    "output '\(name)' takes \(takes), but the expectation gives \(expected.values.count)")
                    }
                    for (k, (value, field)) in zip(expected.values, output.fields).enumerated() where field.type.value(value) == nil {
                        throw error(record, at: expected.valueOffsets[k],
                                    "argument '\(field.name)' of '\(name)' is \(field.type.article), but the expectation gives \(ReplayRules.describe(value))")
                    }
                }
            }

            func unknown(_ kind: String, _ name: String, among names: [String], at offset: Int, _ record: LogRecord) -> LogError {
                var message = "unknown \(kind) '\(name)' in expectation"
                if let close = EditDistance.closest(to: name, among: names) { message += "; did you mean '\(close)'?" }
                return error(record, at: offset, message)
            }

            /// Compares a validated expectation with the run.
            func check(_ expectation: LogExpectation, run: Run, record: LogRecord) {
                run.report.expectations += 1
                var failures: [ExpectationFailure] = []
                func fail(_ offset: Int, _ subject: String, _ expected: String, _ actual: String) {
                    failures.append(ExpectationFailure(line: record.line, column: record.column(ofByte: offset), subject: subject,
                                                       expected: expected, actual: actual))
                }
                let active = run.machine.configurationNames
                for (k, name) in (expectation.states ?? []).enumerated() where !active.contains(name) {
                    let offset = k < expectation.stateOffsets.count ? expectation.stateOffsets[k] : expectation.offset
                    // A flat machine is in one leaf (the machine itself when it could not start); a
                    // statechart is described by every active state.
                    let actual = schema.isChart ? sortedConfiguration(run.machine).joined(separator: ", ")
                        : active.last ?? schema.rootName
                    fail(offset, "state", name, actual)
                }
                let variables = run.machine.variableList
                for member in expectation.vars ?? [] {
                    guard let index = schema.variables.firstIndex(where: { $0.name == member.key }),
                          let expected = schema.variables[index].type.value(member.value) else { continue }
                    let actual = variables[index].value
                    if !ReplayRules.same(expected, actual) {
                        fail(member.valueOffset, "vars.\(member.key)", expected.description, actual.description)
                    }
                }
                if let names = expectation.outputs {
                    let offset = expectation.outputsOffset
                    let arguments = expectation.outputArguments
                    if run.windowOverflowed {
                        fail(offset, "outputs", "[" + names.map { ReportJSON.quoted($0, controlEscape: .json) }.joined(separator: ", ") + "]",
                             "more than \(ReplayRules.outputWindow) outputs since the previous expectation; they cannot be compared")
                    } else if run.window.map(\.name) != names {
                        fail(offset, "outputs", expectedList(names, arguments), actualList(run, withArguments: arguments != nil))
                    } else if let arguments {
                        for (i, output) in run.window.enumerated() {
                            guard i < arguments.count, let expected = arguments[i] else { continue }
                            let fields = schema.outputs.first(where: { $0.name == output.name })?.fields ?? []
                            let wanted = zip(expected.values, fields).compactMap { $1.type.value($0) }
                            if wanted.count != output.arguments.count
                                || zip(wanted, output.arguments).contains(where: { !ReplayRules.same($0, $1) }) {
                                fail(expected.offset, "outputs", expectedList(names, arguments), actualList(run, withArguments: true))
                                break
                            }
                        }
                    }
                }
                run.window.removeAll(keepingCapacity: true)
                run.windowOverflowed = false
                run.report.failureCount += failures.count
                for f in failures where run.report.failures.count < ReplayRules.keptFailures { run.report.failures.append(f) }
            }

            /// `["didRefresh", rated("❤️")]`: the expected outputs, with arguments where given.
            func expectedList(_ names: [String], _ arguments: [LogExpectation.ExpectedArguments?]?) -> String {
                "[" + names.enumerated().map { i, name in
                    let quoted = ReportJSON.quoted(name, controlEscape: .json)
                    guard let arguments, i < arguments.count, let args = arguments[i], !args.values.isEmpty else { return quoted }
                    return name + "(" + args.values.map(ReplayRules.jsonText).joined(separator: ", ") + ")"
                }.joined(separator: ", ") + "]"
            }

            /// The outputs since the previous expectation, with their arguments when compared.
            func actualList(_ run: Run, withArguments: Bool) -> String {
                "[" + run.window.map { output in
                    withArguments && !output.arguments.isEmpty
                        ? output.name + "(" + output.arguments.map(\.description).joined(separator: ", ") + ")"
                        : ReportJSON.quoted(output.name, controlEscape: .json)
                }.joined(separator: ", ") + "]"
            }

        }

        /// The constants and wording the replay shares with `statecraft replay`.
        enum ReplayRules {
            /// How many outputs, failed expectations and rejections a case keeps for its report.
            static let keptOutputs = 100
            static let keptFailures = 100
            /// How many outputs an `outputs` expectation can compare since the previous one.
            static let outputWindow = 100_000
            /// Numbers in expectations are equal within this much.
            static let tolerance = 1e-9

            static func describe(_ json: LogJSON) -> String {
                switch json {
                case .null: "null"
                case .bool(let b): "\(b)"
                case .number(let n): "the number \(LogValue.number(n).description)"
                case .string(let s): "the string \(ReportJSON.quoted(s, controlEscape: .json))"
                case .array: "an array"
                case .object: "an object"
                }
            }

            static func same(_ a: LogValue, _ b: LogValue) -> Bool {
                if case .number(let x) = a, case .number(let y) = b { return abs(x - y) <= tolerance }
                return a == b
            }

            static func jsonText(_ value: LogJSON) -> String {
                switch value {
                case .number(let n): LogValue.number(n).description
                case .bool(let b): b ? "true" : "false"
                case .string(let s): LogValue.string(s).description
                default: "\(value)"
                }
            }
        }

        /// Levenshtein distance with swaps of neighbours, for "did you mean".
        enum EditDistance {
            static func closest(to name: String, among candidates: [String]) -> String? {
                let limit = max(1, name.count / 3)
                var best: (String, Int)?
                for candidate in candidates where candidate != name {
                    let d = distance(Array(name.utf8), Array(candidate.utf8), limit: limit)
                    guard d <= limit else { continue }
                    if let (bestName, bestDistance) = best, bestDistance < d || (bestDistance == d && bestName < candidate) { continue }
                    best = (candidate, d)
                }
                return best?.0
            }

            static func distance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
                if abs(a.count - b.count) > limit { return limit + 1 }
                if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
                var beforePrevious = [Int](repeating: 0, count: b.count + 1)
                var previous = Array(0...b.count)
                var current = [Int](repeating: 0, count: b.count + 1)
                for i in 1...a.count {
                    current[0] = i
                    var rowMin = i
                    for j in 1...b.count {
                        let cost = a[i - 1] == b[j - 1] ? 0 : 1
                        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                            current[j] = min(current[j], beforePrevious[j - 2] + 1)
                        }
                        rowMin = min(rowMin, current[j])
                    }
                    if rowMin > limit { return limit + 1 }
                    (beforePrevious, previous, current) = (previous, current, beforePrevious)
                }
                return previous[b.count]
            }
        }

        """#
}
