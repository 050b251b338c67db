import StatecraftModel
import StatecraftRuntime

/// A summary with what it needs to be shown and merged without the spec: which spec and
/// machine it is about, and how each transition reads (`statecraft merge` has only reports).
public struct SummaryDocument: Sendable, Equatable {
    /// The spec's path, as given to `replay`.
    public var spec: String
    /// The machine's name.
    public var machine: String
    /// By `TransitionID`: the transition as the summary names it.
    public var transitions: [TransitionName]
    /// By `StateID`: the state's name (the root's is the machine's).
    public var states: [String]
    /// The counts the replays added up to.
    public var summary: ConformanceSummary
    /// By property name: the spec line it is declared on, for the HTML page's violations.
    /// Only a document made from the machine has them: the JSON summary, and so `merge`,
    /// keep the counts alone, and a line not known is shown as such.
    package var propertyLines: [String: Int] = [:]

    /// How a summary names a transition without the spec: its state, line and text.
    public struct TransitionName: Sendable, Equatable {
        /// Its state, the line it starts on, and that line as written (without a comment).
        public var state: String
        /// The 1-based line of the spec the transition starts on.
        public var line: Int
        /// That line as written, without its comment.
        public var text: String

        /// Creates a name from a state's name, a line and its text.
        public init(state: String, line: Int, text: String) {
            self.state = state
            self.line = line
            self.text = text
        }
    }

    /// Creates a document from its parts (a merge or a reader of a JSON summary builds one this way).
    public init(spec: String, machine: String, transitions: [TransitionName], states: [String], summary: ConformanceSummary) {
        self.spec = spec
        self.machine = machine
        self.transitions = transitions
        self.states = states
        self.summary = summary
    }

    /// The document of a summary of replays of `machine` (from the spec at `spec`).
    public init(spec: String, machine: Machine, summary: ConformanceSummary) {
        let source = machine.source
        let names = machine.transitions.map { t -> TransitionName in
            let line = source.lineIndex(of: t.keywordRange.start)
            let text = String(decoding: source.bytes[source.lineRange(line)], as: UTF8.self)
            return TransitionName(state: machine[t.source].name, line: line + 1, text: SummaryDocument.firstLine(text))
        }
        self.init(spec: spec, machine: machine.name, transitions: names, states: machine.states.map(\.name), summary: summary)
        for p in machine.properties { propertyLines[p.name] = source.location(of: p.range.start).line }
    }

    /// Why two documents cannot be added, or nil: they must summarise one machine.
    public func mismatch(_ other: SummaryDocument) -> String? {
        if machine != other.machine { return "machine '\(other.machine)' is not '\(machine)'" }
        if transitions != other.transitions || states != other.states {
            return "the states or transitions of machine '\(machine)' differ (another version of the spec)"
        }
        return nil
    }

    /// The transition's line without a trailing `//` comment (one outside a string literal)
    /// or the `{` that opens its actions.
    static func firstLine(_ line: String) -> String {
        var inString = false
        var escaped = false
        var previous: Character?
        var end = line.endIndex
        for index in line.indices {
            let c = line[index]
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
            } else if c == "\"" {
                inString = true
            } else if c == "/" && previous == "/" {
                end = line.index(before: index)
                break
            }
            previous = inString ? nil : c
        }
        var s = line[..<end]
        let trimmed: Set<Character> = [" ", "\t", "\r", "{"]
        while let c = s.first, trimmed.contains(c) { s.removeFirst() }
        while let c = s.last, trimmed.contains(c) { s.removeLast() }
        return String(s)
    }
}
