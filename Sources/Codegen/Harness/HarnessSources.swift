/// The harness's own sources, the same for every machine: Swift text that
/// `statecraft swift --harness` writes into the package beside the machine's type. Each is
/// a whole file, kept as a string literal in a file of its own here (`HarnessSources+*.swift`)
/// so that the generator needs no resources; the harness tests build them.
///
/// They follow `Sources/EventLog` (the format's rules and messages), `Sources/Replay` (cases,
/// timers, expectations), `Sources/Runtime/Properties` (watching properties) and the JSON writer of `Sources/Diagnostics` (numbers, strings, the
/// report's layout), written again for a package that depends on nothing.
package enum HarnessSources {
    /// File name and text, in the order the package lists them.
    package static let all: [(name: String, text: String)] = [
        ("LogLine.swift", logLine),
        ("LogLine+Record.swift", logLineRecord),
        ("LogReader.swift", logReader),
        ("Replay.swift", replay),
        ("Properties.swift", properties),
        ("ReportJSON.swift", reportJSON),
    ]
}
