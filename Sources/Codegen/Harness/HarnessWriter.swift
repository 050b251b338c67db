import StatecraftDiagnostics
import StatecraftModel

/// `statecraft swift SPEC --harness DIR`: a SwiftPM package that replays event logs through the
/// generated type alone, to show that generated code and runtime agree on logs nobody has
/// seen. Its executable, `replay-generated LOG...`, prints the JSON document `statecraft
/// replay --format json SPEC LOG...` prints (same cases, fields, values, property violations
/// and exit status).
///
/// The package depends on nothing: besides the machine's type, it holds its own log reader,
/// replay, property monitor and report writer (`HarnessSources`), which follow the event-log
/// format's rules and `replay`'s messages, and two files written per machine. `+Replay.swift`
/// adapts the type's by-name API (`Event(name:fields:)`, `send(_:emit:)`,
/// `fireNext(dueBy:firedAtOnce:emit:)`, `advance(to:)`, `configurationNames`, `variableValues`,
/// `unrepresentableDeadline`, `Outcome`'s `name` and `failure`) and describes what a log may
/// name in it (states, events and their fields, variables, outputs). `+Properties.swift`
/// holds the spec's properties, their expressions written as the type's own (by
/// `FlatMachineWriter.expression`), reading its variables, constants and `isActive`. The
/// replay uses nothing else of the type, so it runs any type `statecraft swift` writes, and
/// the type is the one `statecraft swift` writes without the harness.
package enum HarnessWriter {
    /// A file of the package: its path inside DIR and its text.
    package struct File: Sendable, Equatable {
        package var path: String
        package var contents: String
    }

    /// The executable's target folder inside the package.
    static let target = "Sources/ReplayGenerated"

    /// The top-level names the harness's own files declare: a machine type of one of these
    /// names would clash with them.
    package static let harnessTypeNames: Set<String> = [
        "LogJSON", "LogMember", "LogExpectation", "LogRecord", "LogHeader", "LineRefusal", "LogText", "LineReader",
        "ParsedLine", "LogError", "LogWarning", "LogReader", "LogPaths", "JSONPrefix", "POSIX", "LogValue", "ValueType",
        "MachineSchema", "EmittedOutput", "StepOutcome", "ReplayMachine", "ExpectationFailure", "Rejection",
        "CaseReport", "Replay", "ReplayRules", "EditDistance", "ReportJSON", "ReplayCommand",
        "PropertySchema", "PropertyFault", "PropertyArithmetic", "PropertyMonitor", "PropertyViolationRecord",
    ]

    /// The standard library's types the harness uses: a machine type of one of these names
    /// would hide them.
    static let standardTypeNames: Set<String> = [
        "String", "Substring", "Character", "Unicode", "Int", "Int32", "Int64", "UInt8", "UInt32", "Double", "Bool",
        "Array", "Set", "Dictionary", "Optional", "Result", "Range", "Error", "Sendable", "Equatable", "Hashable",
        "CommandLine",
    ]

    /// The members the adapter adds to the machine type: a variable or constant of one of
    /// these names would clash with them.
    static let adapterMemberNames: Set<String> = [
        "schema", "startStep", "replaySend", "replayFireNext", "replayAdvance", "variableList", "replayOutcome",
        "replayOutput", "replayValue", "machineValue", "refusedDeadline", "propertySchemas", "propertyValues",
    ]

    /// Every file of the harness for `machine`, in a fixed order: the manifest, the machine's
    /// type (internal, whatever `options` says), its adapter, `main.swift` and the shared
    /// sources. `specPath` is the spec as the report's `spec` names it.
    package static func files(_ machine: Machine, options: SwiftGenerator.Options,
                             specPath: String) throws(SwiftGenerator.Unsupported) -> [File] {
        var options = options
        options.isPublic = false
        let typeName = options.typeName ?? machine.name
        if harnessTypeNames.contains(typeName) {
            throw SwiftGenerator.Unsupported(
                message: "the harness declares a type '\(typeName)' of its own; name the machine's type otherwise with --type-name",
                range: machine.nameRange)
        }
        // The type's file is named after it, beside the harness's own files.
        if HarnessSources.all.contains(where: { $0.name == "\(typeName).swift" }) {
            throw SwiftGenerator.Unsupported(
                message: "the harness has a file '\(typeName).swift' of its own; name the machine's type otherwise with --type-name",
                range: machine.nameRange)
        }
        if standardTypeNames.contains(typeName) {
            throw SwiftGenerator.Unsupported(
                message: "the harness uses the standard library's type '\(typeName)'; name the machine's type otherwise with --type-name",
                range: machine.nameRange)
        }
        for v in machine.variables where adapterMemberNames.contains(v.name) {
            throw SwiftGenerator.Unsupported(
                message: "variable '\(v.name)' has the name of a member the harness adds to the type; rename it", range: v.range)
        }
        for c in machine.constants where adapterMemberNames.contains(c.name) {
            throw SwiftGenerator.Unsupported(
                message: "constant '\(c.name)' has the name of a member the harness adds to the type; rename it", range: c.range)
        }
        let machineText = try SwiftGenerator.generate(machine, options: options)
        var files = [
            File(path: "Package.swift", contents: packageManifest),
            File(path: "\(target)/\(typeName).swift", contents: machineText),
            File(path: "\(target)/\(typeName)+Replay.swift",
                 contents: adapter(machine, typeName: typeName, specPath: specPath, fingerprint: options.fingerprint)),
            File(path: "\(target)/\(typeName)+Properties.swift", contents: properties(machine, options: options, specPath: specPath)),
            File(path: "\(target)/main.swift", contents: main(typeName: typeName)),
        ]
        files += HarnessSources.all.map { File(path: "\(target)/\($0.name)", contents: $0.text) }
        return files
    }

    static let packageManifest = """
        // swift-tools-version: 6.0
        // Written by `statecraft swift --harness`: replays event logs through the generated
        // machine type alone. `swift build`, then `.build/debug/replay-generated LOG...`.
        import PackageDescription

        let package = Package(
            name: "replay-generated",
            products: [.executable(name: "replay-generated", targets: ["ReplayGenerated"])],
            targets: [.executableTarget(name: "ReplayGenerated", path: "Sources/ReplayGenerated")]
        )

        """

    static func main(typeName: String) -> String {
        """
        // Written by `statecraft swift --harness`: `replay-generated LOG...` replays each log
        // (standard input for `-` or none) through \(typeName) and prints one JSON document.
        #if canImport(Glibc)
        import Glibc
        #elseif canImport(Musl)
        import Musl
        #elseif canImport(Darwin)
        import Darwin
        #endif

        exit(ReplayCommand.run(\(typeName).self, arguments: Array(CommandLine.arguments.dropFirst())))

        """
    }

    /// The file that makes the machine's type a `ReplayMachine`: its schema and its by-name
    /// API in the harness's words.
    static func adapter(_ machine: Machine, typeName: String, specPath: String, fingerprint: String) -> String {
        var out = SwiftWriter()
        func literal(_ s: String) -> String { SwiftName.literal(s) }
        func type(_ t: ValueType) -> String {
            switch t {
            case .number: ".number"
            case .bool: ".bool"
            case .string: ".string"
            }
        }
        func fields(_ list: [Field]) -> String {
            "[" + list.map { ".init(name: \(literal($0.name)), type: \(type($0.type)))" }.joined(separator: ", ") + "]"
        }
        out.line("// Written by `statecraft swift --harness` from \(specPath.split(separator: "/").last.map(String.init) ?? specPath): what a log may name in")
        out.line("// \(typeName), and its by-name API in the words of the replay. Do not edit: regenerate.")
        out.line()
        out.line("extension \(typeName): ReplayMachine {")
        out.indent()
        out.line("static let schema = MachineSchema(")
        out.indent()
        out.line("spec: \(literal(specPath)), machine: \(literal(machine.name)), fingerprint: \(literal(fingerprint)),")
        out.line("isChart: \(machine.firstStatechartConstruct != nil), rootName: \(literal(machine[machine.root].name)),")
        out.line("initialState: \(literal(machine.initialState.map { machine[$0].name } ?? "")),")
        out.line("states: [")
        out.indent()
        for s in machine.states where s.id != machine.root {
            out.line(".init(name: \(literal(s.name)), isHistory: \(s.isHistory), isAtomic: \(machine.isAtomic(s.id))),")
        }
        out.dedent()
        out.line("],")
        out.line("events: [")
        out.indent()
        for e in machine.events {
            let external = e.externalName.map {
                ", externalName: \(literal($0.name))" + ($0.acceptsExtensions ? ", acceptsExtensions: true" : "")
            } ?? ""
            out.line(".init(name: \(literal(e.name)), fields: \(fields(e.fields))\(external)),")
        }
        out.dedent()
        out.line("],")
        out.line("variables: [")
        out.indent()
        for v in machine.variables { out.line(".init(name: \(literal(v.name)), type: \(type(v.type))),") }
        out.dedent()
        out.line("],")
        out.line("outputs: [")
        out.indent()
        for o in machine.outputs { out.line(".init(name: \(literal(o.name)), fields: \(fields(o.fields))),") }
        out.dedent()
        out.line("])")
        return out.text + (machine.outputs.isEmpty ? adapterMembersWithoutOutputs : adapterMembers)
    }

    /// The adapter's members, the same for every machine type that has outputs.
    static let adapterMembers = #"""

            var startStep: (StepOutcome, [EmittedOutput]) {
                (Self.replayOutcome(start.outcome), start.outputs.map(Self.replayOutput))
            }

            mutating func replaySend(name: String, fields: [LogValue], emit: (EmittedOutput) -> Void) -> StepOutcome {
                // The replay checked the payload against the schema first: the event is always built.
                guard let event = Event(name: name, fields: fields.map(Self.machineValue)) else { return .ignored }
                return Self.replayOutcome(send(event, emit: { emit(Self.replayOutput($0)) }))
            }

            mutating func replayFireNext(dueBy time: Double, firedAtOnce: inout Int) -> (StepOutcome, [EmittedOutput], String?)? {
                var outputs: [EmittedOutput] = []
                guard let step = fireNext(dueBy: time, firedAtOnce: &firedAtOnce, emit: { outputs.append(Self.replayOutput($0)) })
                else { return nil }
                return (Self.replayOutcome(step.outcome), outputs, step.sentEvent)
            }

            mutating func replayAdvance(to time: Double) {
                advance(to: time)
            }

            var variableList: [(name: String, value: LogValue)] {
                variableValues.map { ($0.name, Self.replayValue($0.value)) }
            }

            var refusedDeadline: (time: Double, delay: Double)? {
                unrepresentableDeadline.map { ($0.time, $0.delay) }
            }

            static func replayOutcome(_ outcome: Outcome) -> StepOutcome {
                if let failure = outcome.failure {
                    return .rejected(message: failure.message, line: failure.line, column: failure.column)
                }
                switch outcome.name {
                case "started": return .started
                case "taken": return .taken
                case "afterFinal": return .afterFinal
                default: return .ignored
                }
            }

            static func replayOutput(_ output: Output) -> EmittedOutput {
                EmittedOutput(name: output.name, arguments: output.arguments.map(replayValue))
            }

            static func replayValue(_ value: Value) -> LogValue {
                switch value {
                case .number(let n): .number(n)
                case .bool(let b): .bool(b)
                case .string(let s): .string(s)
                }
            }

            static func machineValue(_ value: LogValue) -> Value {
                switch value {
                case .number(let n): .number(n)
                case .bool(let b): .bool(b)
                case .string(let s): .string(s)
                }
            }
        }

        """#

    /// The same for a machine without outputs, where code that handles one would never run
    /// (and Swift would say so).
    static let adapterMembersWithoutOutputs = #"""

            var startStep: (StepOutcome, [EmittedOutput]) {
                (Self.replayOutcome(start.outcome), [])
            }

            mutating func replaySend(name: String, fields: [LogValue], emit: (EmittedOutput) -> Void) -> StepOutcome {
                // The replay checked the payload against the schema first: the event is always built.
                guard let event = Event(name: name, fields: fields.map(Self.machineValue)) else { return .ignored }
                return Self.replayOutcome(send(event, emit: { _ in }))
            }

            mutating func replayFireNext(dueBy time: Double, firedAtOnce: inout Int) -> (StepOutcome, [EmittedOutput], String?)? {
                guard let step = fireNext(dueBy: time, firedAtOnce: &firedAtOnce, emit: { _ in }) else { return nil }
                return (Self.replayOutcome(step.outcome), [], step.sentEvent)
            }

            mutating func replayAdvance(to time: Double) {
                advance(to: time)
            }

            var variableList: [(name: String, value: LogValue)] {
                variableValues.map { ($0.name, Self.replayValue($0.value)) }
            }

            var refusedDeadline: (time: Double, delay: Double)? {
                unrepresentableDeadline.map { ($0.time, $0.delay) }
            }

            static func replayOutcome(_ outcome: Outcome) -> StepOutcome {
                if let failure = outcome.failure {
                    return .rejected(message: failure.message, line: failure.line, column: failure.column)
                }
                switch outcome.name {
                case "started": return .started
                case "taken": return .taken
                case "afterFinal": return .afterFinal
                default: return .ignored
                }
            }

            static func replayValue(_ value: Value) -> LogValue {
                switch value {
                case .number(let n): .number(n)
                case .bool(let b): .bool(b)
                case .string(let s): .string(s)
                }
            }

            static func machineValue(_ value: LogValue) -> Value {
                switch value {
                case .number(let n): .number(n)
                case .bool(let b): .bool(b)
                case .string(let s): .string(s)
                }
            }
        }

        """#
}
