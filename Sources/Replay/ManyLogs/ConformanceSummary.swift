import StatecraftModel
import StatecraftRuntime

/// What a set of replayed logs adds up to: how many cases follow the spec, how many events
/// it takes, and which transitions the logs use.
///
/// Every field is a count, so the summary of two disjoint sets of logs is the sum of their
/// summaries (`+`), whatever order the logs were replayed in.
public struct ConformanceSummary: Sendable, Equatable {
    /// Logs replayed, to their end or to a malformed line.
    public var logs = 0
    /// Logs that could not be opened (not counted in ``logs``).
    public var unreadableLogs = 0
    /// Logs that stopped at a malformed line (their lines before it are counted).
    public var malformedLogs = 0
    /// Cases replayed over all logs (a log without `case` lines is one case).
    public var cases = 0
    /// Cases with no failed expectation, no rejected event, no broken property and (under
    /// `--strict`, where an ignored event is rejected) no ignored one.
    public var fittingCases = 0
    /// Event lines a transition took.
    public var applied = 0
    /// Event lines no transition took (or that arrived after the run ended).
    public var ignored = 0
    /// Event lines (and timers) whose step failed, or that `--strict` refused.
    public var rejected = 0
    /// Expectation lines read.
    public var expectations = 0
    /// Expectation lines that did not hold.
    public var failedExpectations = 0
    /// By property name: how many cases broke it (each case breaks a property at most once).
    public var propertyViolations: [String: Int] = [:]
    /// By property name: the spec line it is declared on, for each property in
    /// `propertyViolations` (so a merged summary still says where to look).
    public var propertyLines: [String: Int] = [:]
    /// By event name: the lines that sent an event the spec does not declare, counted and
    /// ignored (`replay --unknown-events ignore`).
    public var unknownEvents: [String: Int] = [:]
    /// By `TransitionID`: how many steps took it.
    public var transitionCounts: [Int]
    /// The events not taken, grouped by the states they arrived in (`Deviation.configuration`),
    /// event and kind. Every group is kept, so that merging stays exact; reports show the most
    /// frequent (`shownDeviations`).
    public var deviations: [DeviationKey: DeviationGroup] = [:]
    /// By `StateID`: its visits, and the durations of those that ended.
    public var dwell: [StateDwell]

    /// Where and how events were not taken.
    public struct DeviationKey: Hashable, Sendable {
        /// Where the events arrived, as `Deviation.configuration` says: a flat machine's
        /// active state and its ancestors, a statechart's active states that have a
        /// transition on the event (empty when none has).
        public var configuration: [String]
        /// The event's name.
        public var event: String
        /// Whether the events were ignored or rejected.
        public var kind: Deviation.Kind

        /// Creates a key from a configuration, an event name and a kind.
        public init(configuration: [String], event: String, kind: Deviation.Kind) {
            self.configuration = configuration
            self.event = event
            self.kind = kind
        }
    }

    /// How often, and the first places: the `Deviation.keptLines` smallest (log, line) pairs,
    /// so that the places of a merged summary do not depend on the order of its parts.
    public struct DeviationGroup: Equatable, Sendable {
        /// How many events fell in the group, over all logs.
        public var count: Int
        /// The first places, at most `Deviation.keptLines`, smallest first.
        public var places: [Place]
        /// Why the event at the first place was not taken (`Deviation.why`).
        public var why: [String]

        /// Creates a group from its count, places and explanation.
        public init(count: Int, places: [Place], why: [String] = []) {
            self.count = count
            self.places = places
            self.why = why
        }
    }

    /// Where an event was in the logs: a log's path and a line of it.
    public struct Place: Equatable, Comparable, Sendable {
        /// The log's path, as given to `replay`.
        public var log: String
        /// The 1-based line in that log.
        public var line: Int

        /// Creates a place from a log path and a line.
        public init(log: String, line: Int) {
            self.log = log
            self.line = line
        }
        public static func < (a: Place, b: Place) -> Bool { (a.log, a.line) < (b.log, b.line) }
    }

    /// How many groups of deviations the text and HTML summaries show; the rest are counted.
    public static let shownDeviations = 20

    /// The groups, most frequent first (ties by configuration, event and kind).
    public var deviationsByFrequency: [(key: DeviationKey, group: DeviationGroup)] {
        deviations.map { (key: $0.key, group: $0.value) }.sorted { a, b in
            if a.group.count != b.group.count { return a.group.count > b.group.count }
            let x = (a.key.configuration.joined(separator: "\u{0}"), a.key.event, a.key.kind.rawValue)
            let y = (b.key.configuration.joined(separator: "\u{0}"), b.key.event, b.key.kind.rawValue)
            return x < y
        }
    }

    /// An empty summary for `machine`.
    public init(machine: Machine) {
        self.init(transitions: machine.transitions.count, states: machine.states.count)
    }

    /// An empty summary of a machine with that many transitions.
    public init(transitions: Int, states: Int) {
        transitionCounts = Array(repeating: 0, count: transitions)
        dwell = Array(repeating: StateDwell(), count: states)
    }

    /// Every event line: applied, ignored or rejected.
    public var events: Int { applied + ignored + rejected }

    /// Applied events over all events (nil when there were none).
    public var eventFitness: Double? { events == 0 ? nil : Double(applied) / Double(events) }

    /// Fitting cases over all cases (nil when there were none).
    public var fittingShare: Double? { cases == 0 ? nil : Double(fittingCases) / Double(cases) }

    /// Adds what log `log` gave.
    public mutating func add(_ outcome: ManyLogs.Outcome, log: String) {
        switch outcome {
        case .unreadable:
            unreadableLogs += 1
        case .replayed(let report, let failure):
            logs += 1
            if failure != nil { malformedLogs += 1 }
            for c in report.cases {
                cases += 1
                if c.passed && c.startFailure == nil { fittingCases += 1 }
                for v in c.propertyViolations {
                    propertyViolations[v.property, default: 0] += 1
                    propertyLines[v.property] = v.specLine
                }
                unknownEvents.merge(c.unknownEvents, uniquingKeysWith: +)
                applied += c.applied
                ignored += c.ignored
                rejected += c.rejected
                expectations += c.expectations
                failedExpectations += c.failureCount
            }
            for (t, n) in report.transitionCounts.enumerated() where t < transitionCounts.count {
                transitionCounts[t] += n
            }
            for (s, d) in report.dwell.enumerated() where s < dwell.count { dwell[s] = dwell[s] + d }
            for d in report.deviations {
                add(DeviationKey(configuration: d.configuration, event: d.event, kind: d.kind),
                    DeviationGroup(count: d.count, places: d.lines.map { Place(log: log, line: $0) }, why: d.why))
            }
        }
    }

    /// Adds `group` to the deviations of `key`.
    public mutating func add(_ key: DeviationKey, _ group: DeviationGroup) {
        guard let old = deviations[key] else {
            deviations[key] = DeviationGroup(count: group.count, places: Array(group.places.sorted().prefix(Deviation.keptLines)),
                                             why: group.why)
            return
        }
        // The explanation goes with the first place, whichever part it came from.
        let why = (group.places.min().map { p in old.places.min().map { p < $0 } ?? true } ?? false) ? group.why : old.why
        deviations[key] = DeviationGroup(count: old.count + group.count,
                                         places: Array((old.places + group.places).sorted().prefix(Deviation.keptLines)), why: why)
    }

    /// The summary of both sets of logs.
    public static func + (a: ConformanceSummary, b: ConformanceSummary) -> ConformanceSummary {
        var sum = a
        sum.logs += b.logs
        sum.unreadableLogs += b.unreadableLogs
        sum.malformedLogs += b.malformedLogs
        sum.cases += b.cases
        sum.fittingCases += b.fittingCases
        sum.applied += b.applied
        sum.ignored += b.ignored
        sum.rejected += b.rejected
        sum.expectations += b.expectations
        sum.failedExpectations += b.failedExpectations
        sum.propertyViolations.merge(b.propertyViolations, uniquingKeysWith: +)
        sum.propertyLines.merge(b.propertyLines) { a, _ in a }
        sum.unknownEvents.merge(b.unknownEvents, uniquingKeysWith: +)
        sum.transitionCounts = zip(a.transitionCounts, b.transitionCounts).map(+)
        for (key, group) in b.deviations { sum.add(key, group) }
        sum.dwell = zip(a.dwell, b.dwell).map(+)
        return sum
    }
}
