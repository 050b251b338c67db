// swift-tools-version: 6.1
import PackageDescription

// The pipeline, one target per stage (Sources/README.md draws it): source text → syntax →
// semantics/model → analysis | runtime → replay → report/export/SCXML → language server/CLI.
// Each line is a folder under Sources/ and the targets it depends on; arrows point toward
// the source text (PackageMapTests holds every arrow to the manifest below):
//   Diagnostics
//   Syntax -> Diagnostics
//   Model -> Diagnostics
//   Format -> Syntax, Diagnostics
//   Index -> Syntax, Diagnostics
//   Semantics -> Syntax, Model
//   Recording -> Syntax, Diagnostics
//   Runtime -> Model, Semantics, Recording
//   Analysis -> Model, Runtime
//   EventLog -> Diagnostics
//   Replay -> Runtime, EventLog, Model, Recording
//   Export -> Model
//   Codegen -> Model, Diagnostics
//   SCXML -> Model, Diagnostics, Syntax, Semantics, Format
//   Report -> Diagnostics, Model, Analysis, Index, Replay, Export
//   Statecraft -> Diagnostics, Syntax, Model, Semantics, Analysis, EventLog, Runtime, Export,
//                 SCXML, Format, Report, Index, Replay, Recording, Codegen
//   LanguageServer -> Statecraft
//   Driver -> Statecraft, LanguageServer
//   StatecraftCLI -> Driver
//   GenerateMachinesTool -> Driver
//   GenerateMachinesPlugin -> GenerateMachinesTool
//   Benchmarks -> Statecraft, LanguageServer
// (Runtime parses and resolves spec text for apps, so that the StatecraftRuntime product
// runs a spec with nothing else linked; Recording writes an app's events as an event log,
// in the same product, and fingerprints a spec's tokens, which Replay compares with a
// recording's header and Runtime writes in a snapshot; Analysis explores with the runtime's step function;
// Replay runs logs on the runtime; SCXML import writes our language and reads it back
// through Syntax and Semantics; Report turns what check and replay found into text, JSON,
// SARIF, GitHub annotations and JUnit, so the Driver only parses arguments, reads files and
// writes what a formatter returns; Index finds names and their uses in a syntax tree, whole
// or partial, for the language server.)
let package = Package(
    name: "Statecraft",
    products: [
        // For apps: spec text in, a running machine out (Program(specText:), Instance), and
        // the app's events written as an event log (EventLogWriter), with nothing else linked.
        .library(name: "StatecraftRuntime", targets: ["StatecraftRuntime", "StatecraftRecording"]),
        // For tools: every stage, re-exported by one module.
        .library(name: "Statecraft", targets: ["Statecraft"]),
        .executable(name: "statecraft", targets: ["StatecraftCLI"]),
        // `swift package generate-machines`: the Swift of every spec in a package's targets.
        .plugin(name: "GenerateMachines", targets: ["GenerateMachinesPlugin"]),
    ],
    targets: [
        .target(
            name: "StatecraftDiagnostics",
            path: "Sources/Diagnostics",
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        .target(name: "StatecraftSyntax", dependencies: ["StatecraftDiagnostics"], path: "Sources/Syntax"),
        .target(name: "StatecraftModel", dependencies: ["StatecraftDiagnostics"], path: "Sources/Model"),
        // The canonical layout of specs (`statecraft fmt`), from the tokens, comments and tree.
        .target(name: "StatecraftFormat", dependencies: ["StatecraftSyntax", "StatecraftDiagnostics"], path: "Sources/Format"),
        // Names and where they are used, from the syntax tree alone (whole or partial): go to
        // definition, references and rename for the language server.
        .target(name: "StatecraftIndex", dependencies: ["StatecraftSyntax", "StatecraftDiagnostics"], path: "Sources/Index"),
        .target(
            name: "StatecraftSemantics",
            dependencies: ["StatecraftSyntax", "StatecraftModel"],
            path: "Sources/Semantics"),
        // Analysis explores machines with the runtime's step function (its public API only).
        .target(name: "StatecraftAnalysis", dependencies: ["StatecraftModel", "StatecraftRuntime"], path: "Sources/Analysis"),
        .target(name: "StatecraftEventLog", dependencies: ["StatecraftDiagnostics"], path: "Sources/EventLog"),
        // Recording, for apps: the event-log writer and the spec fingerprint a recording's
        // header carries (the tokens' hash, from the lexer). No log reader: an app writes.
        .target(name: "StatecraftRecording", dependencies: ["StatecraftSyntax", "StatecraftDiagnostics"],
                path: "Sources/Recording"),
        .target(name: "StatecraftExport", dependencies: ["StatecraftModel"], path: "Sources/Export"),
        .target(name: "StatecraftCodegen", dependencies: ["StatecraftModel", "StatecraftDiagnostics"], path: "Sources/Codegen"),
        // SCXML in and out: the importer writes our language from an SCXML document; the
        // exporter writes an SCXML document from a resolved machine.
        // The importer resolves what it writes (Semantics), so that a document whose eventless
        // transitions loop forever is refused where a spec would be, and lays it out as
        // `statecraft fmt` does (Format).
        .target(name: "StatecraftSCXML", dependencies: ["StatecraftModel", "StatecraftDiagnostics", "StatecraftSyntax",
                                                        "StatecraftSemantics", "StatecraftFormat"], path: "Sources/SCXML"),
        .target(
            name: "StatecraftRuntime",
            dependencies: ["StatecraftModel", "StatecraftSemantics", "StatecraftRecording"],
            path: "Sources/Runtime"),
        // Logs replayed against the runtime: cases, expectations, traces, explanations, the
        // in-place and two-thread paths, many logs at once and what they add up to.
        .target(name: "StatecraftReplay", dependencies: ["StatecraftRuntime", "StatecraftEventLog", "StatecraftModel",
                                                         "StatecraftRecording"],
                path: "Sources/Replay"),
        // The reports of check and replay: one model, and a formatter per output format (and
        // their findings and coverage as a diagram's overlay).
        .target(name: "StatecraftReport", dependencies: ["StatecraftDiagnostics", "StatecraftModel", "StatecraftAnalysis",
                                                         "StatecraftIndex", "StatecraftReplay", "StatecraftExport"],
                path: "Sources/Report"),
        .target(
            name: "Statecraft",
            dependencies: ["StatecraftDiagnostics", "StatecraftSyntax", "StatecraftModel",
                           "StatecraftSemantics", "StatecraftAnalysis", "StatecraftEventLog", "StatecraftRuntime",
                           "StatecraftExport", "StatecraftSCXML", "StatecraftFormat", "StatecraftReport",
                           "StatecraftIndex", "StatecraftReplay", "StatecraftRecording", "StatecraftCodegen"],
            path: "Sources/Statecraft"),
        // `statecraft lsp`: the language server (LSP 3.17 over standard input and output) on the
        // library. Editors/ holds files for editors (a TextMate grammar), not code.
        .target(name: "StatecraftLanguageServer", dependencies: ["Statecraft"], path: "Sources/LanguageServer",
                exclude: ["Editors"]),
        .target(name: "StatecraftDriver", dependencies: ["Statecraft", "StatecraftLanguageServer"], path: "Sources/Driver"),
        .executableTarget(name: "StatecraftCLI", dependencies: ["StatecraftDriver"], path: "Sources/StatecraftCLI"),
        .plugin(
            name: "GenerateMachinesPlugin",
            capability: .command(
                intent: .custom(verb: "generate-machines",
                                description: "Regenerate Name.swift beside every Name.machine in the package's targets"),
                permissions: [.writeToPackageDirectory(reason: "it writes Name.swift beside each Name.machine")]),
            dependencies: ["GenerateMachinesTool"],
            path: "Sources/GenerateMachinesPlugin"),
        .executableTarget(name: "GenerateMachinesTool", dependencies: ["StatecraftDriver"],
                          path: "Sources/GenerateMachinesTool"),
        // Measurements, run on purpose in release mode: `swift run -c release statecraft-bench`.
        .executableTarget(
            name: "statecraft-bench",
            dependencies: ["Statecraft", "StatecraftLanguageServer"],
            path: "Sources/Benchmarks",
            // python: the CPython baseline; Machines/*.machine: the specs (links to Specs/)
            // that `swift package generate-machines` turns into Machines/*.swift.
            exclude: ["python", "Machines/CheckoutScreen.machine", "Machines/Drawer.machine", "Machines/MediaPlayer.machine",
                      "Machines/PeekRating.machine", "Machines/PullToRefresh.machine", "Machines/SwipeToDismiss.machine",
                      "Machines/VibrantButton.machine"]),
        // Helpers shared by the test targets: repository paths, golden files, running the CLI
        // (in process through the driver, or as the built executable).
        .target(name: "TestSupport", dependencies: ["StatecraftAnalysis", "StatecraftDriver"], path: "Tests/TestSupport"),
        // Fuzzing (Tests/Fuzz): the oracles are a library, so that the test suite judges every
        // corpus input and reproducer with the code libFuzzer runs; each fuzz-* executable
        // hands one oracle to libFuzzer when Tests/Fuzz/fuzz builds it, and otherwise runs it
        // over the files it is given.
        .target(name: "StatecraftFuzzing", dependencies: ["Statecraft"], path: "Tests/Fuzz/Oracles"),
        .executableTarget(name: "fuzz-spec", dependencies: ["StatecraftFuzzing"], path: "Tests/Fuzz/Targets/spec"),
        .executableTarget(name: "fuzz-log-reader", dependencies: ["StatecraftFuzzing"], path: "Tests/Fuzz/Targets/log-reader"),
        .executableTarget(name: "fuzz-replay", dependencies: ["StatecraftFuzzing"], path: "Tests/Fuzz/Targets/replay"),
        .executableTarget(name: "fuzz-scxml", dependencies: ["StatecraftFuzzing"], path: "Tests/Fuzz/Targets/scxml"),
        .executableTarget(name: "fuzz-format", dependencies: ["StatecraftFuzzing"], path: "Tests/Fuzz/Targets/format"),
        .testTarget(name: "FuzzCorpusTests", dependencies: ["StatecraftFuzzing", "TestSupport"], path: "Tests/Fuzz/CorpusTests"),
        .testTarget(name: "FormatTests", dependencies: ["Statecraft", "TestSupport"], path: "Tests/FormatTests",
                    exclude: ["Golden"]),
        .testTarget(name: "IndexTests", dependencies: ["Statecraft", "TestSupport"], path: "Tests/IndexTests"),
        .testTarget(name: "LanguageServerTests",
                    dependencies: ["Statecraft", "StatecraftLanguageServer", "StatecraftCLI", "TestSupport"],
                    path: "Tests/LanguageServerTests", exclude: ["python"]),
        .testTarget(name: "SyntaxTests", dependencies: ["StatecraftSyntax", "TestSupport"], path: "Tests/SyntaxTests"),
        .testTarget(
            name: "CheckerTests",
            dependencies: ["Statecraft", "StatecraftDriver", "TestSupport"],
            path: "Tests/CheckerTests",
            exclude: ["Fixtures"]),
        // The Swift `statecraft swift` writes for the bundled specs and the fixtures (golden
        // files), compiled as an app compiles them: on their own, in Swift 6 mode, with warnings
        // as errors (a golden that warns fails the build); and the tests that hold it to the runtime.
        .target(name: "GeneratedMachines", path: "Tests/GeneratedMachines",
                swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]),
        .testTarget(name: "CodegenTests", dependencies: ["GeneratedMachines", "Statecraft", "StatecraftDriver", "TestSupport"],
                    path: "Tests/CodegenTests", exclude: ["Logs"]),
        // The event-log writer and the spec fingerprint, read back by the log reader and replay.
        .testTarget(name: "RecordingTests", dependencies: ["Statecraft", "TestSupport"], path: "Tests/RecordingTests"),
        .testTarget(
            name: "EventLogTests",
            dependencies: ["StatecraftEventLog", "TestSupport"],
            path: "Tests/EventLogTests"),
        .testTarget(
            name: "RuntimeTests",
            dependencies: ["Statecraft", "StatecraftRuntime", "TestSupport"],
            path: "Tests/RuntimeTests",
            exclude: ["Golden"]),
        .testTarget(
            name: "ExportTests",
            dependencies: ["Statecraft", "TestSupport"],
            path: "Tests/ExportTests",
            exclude: ["Golden"]),
        .testTarget(
            name: "SCXMLTests",
            dependencies: ["Statecraft", "StatecraftDriver", "StatecraftCLI", "TestSupport"],
            path: "Tests/SCXMLTests",
            exclude: ["W3C", "Schema", "Golden", "python"]),
        // The reports' formats, read back by their consumers (the schemas are vendored).
        .testTarget(
            name: "ReportTests",
            dependencies: ["Statecraft", "StatecraftReport", "StatecraftCLI", "TestSupport"],
            path: "Tests/ReportTests",
            exclude: ["Schema", "python"]),
        // Every code sample of the README and the DocC catalogue, run or checked
        // (Samples/ holds the Swift the documentation shows, compiled here); and the catalogue
        // itself, built by `docc` with warnings as errors.
        .testTarget(name: "DocumentationTests", dependencies: ["Statecraft", "StatecraftCLI", "TestSupport", "GeneratedMachines"],
                    path: "Tests/DocumentationTests", exclude: ["build-docs"]),
        .testTarget(
            name: "CLITests",
            dependencies: ["StatecraftCLI", "StatecraftDriver", "TestSupport"],
            path: "Tests/CLITests",
            exclude: ["Golden"]),
    ]
)
