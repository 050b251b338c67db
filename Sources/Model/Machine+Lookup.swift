extension Machine {
    /// The state with this name (state names are unique in a machine); nil for none.
    public func state(named name: String) -> StateID? {
        states.dropFirst().first { $0.name == name }?.id
    }
}

// What a log's event name stands for. An event log names an event by its declared name or by
// its external name (`event watch_reset as "watch.reset"`); a name that is neither may be an
// SCXML extension of an event declared with `.*` (`as "DIGIT.*"` takes `DIGIT.5`), where the
// longest such name that is a prefix of it at a `.` wins, as SCXML's descriptor matching
// would pick the most specific transition's event. Replay, the generated harness and
// `Program.event(loggedAs:)` all follow these tables.
extension Machine {
    /// Every name a log line may give an event exactly: each event's declared name, then the
    /// external names, in declaration order. The checker makes them unique.
    package var logNames: [(name: String, event: EventID)] {
        events.map { ($0.name, $0.id) }
            + events.compactMap { e in e.externalName.flatMap { $0.name == e.name ? nil : ($0.name, e.id) } }
    }

    /// The external names written with `.*`, without it: a log name that is one of them
    /// followed by `.` and more stands for the event, when nothing longer matches.
    package var extensionStems: [(name: String, event: EventID)] {
        events.compactMap { e in e.externalName.flatMap { $0.acceptsExtensions ? ($0.name, e.id) : nil } }
    }
}

/// The lookup of `Machine.logNames` and `Machine.extensionStems` by `String`, for the paths
/// that hold a log's name as one (a full record; a library caller).
package struct LogNameTable: Sendable {
    private let exact: [String: EventID]
    private let stems: [String: EventID]

    /// The tables of `machine`.
    package init(_ machine: Machine) {
        exact = Dictionary(machine.logNames.map { ($0.name, $0.event) }, uniquingKeysWith: { a, _ in a })
        stems = Dictionary(machine.extensionStems.map { ($0.name, $0.event) }, uniquingKeysWith: { a, _ in a })
    }

    /// The event `name` stands for in a log, or nil.
    package func event(_ name: String) -> EventID? {
        if let id = exact[name] { return id }
        guard !stems.isEmpty else { return nil }
        var prefix = Substring(name)
        // The longest prefix that ends before a `.` and is a stem.
        while let dot = prefix.lastIndex(of: ".") {
            prefix = prefix[..<dot]
            if let id = stems[String(prefix)] { return id }
        }
        return nil
    }
}
