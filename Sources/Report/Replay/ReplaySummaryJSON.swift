import StatecraftReplay
import StatecraftDiagnostics
import StatecraftEventLog
import StatecraftRuntime

/// `statecraft replay --summary --format json`: the summary as a partial result that
/// `statecraft merge` adds to others. Reading one back and writing it again gives the same
/// bytes, and so does merging the summaries of a split of the logs.
public enum ReplaySummaryJSON {
    /// Writes the summary document as one JSON object (the file `statecraft merge` reads back).
    public static func render(_ document: SummaryDocument) -> String {
        let s = document.summary
        let transitions = document.transitions.indices.map { t -> JSON in
            let name = document.transitions[t]
            return .object(["state": .string(name.state), "line": .integer(name.line), "text": .string(name.text),
                            "taken": .integer(s.transitionCounts[t])])
        }
        let deviations = s.deviationsByFrequency.map { key, group -> JSON in
            .object(["configuration": .array(key.configuration.map(JSON.string)), "event": .string(key.event),
                     "kind": .string(key.kind.rawValue), "count": .integer(group.count),
                     "places": .array(group.places.map { .object(["log": .string($0.log), "line": .integer($0.line)]) }),
                     "why": .array(group.why.map(JSON.string))])
        }
        let states = document.states.indices.dropFirst().map { k -> JSON in
            let d = s.dwell[k]
            return .object(["name": .string(document.states[k]), "visits": .integer(d.visits),
                            "median": .optional(d.durations.quantile(0.5).map(JSON.number)),
                            "p90": .optional(d.durations.quantile(0.9).map(JSON.number)),
                            "p99": .optional(d.durations.quantile(0.99).map(JSON.number)),
                            "zeros": .integer(d.durations.zeros),
                            "exact": .optional(d.durations.exact.map { .array($0.map(JSON.number)) }),
                            "buckets": .array(d.durations.bucketsInOrder.map { .array([.integer($0.index), .integer($0.count)]) })])
        }
        var fields = JSONObject([
            ("spec", .string(document.spec)), ("machine", .string(document.machine)),
            ("logs", .integer(s.logs)), ("unreadableLogs", .integer(s.unreadableLogs)), ("malformedLogs", .integer(s.malformedLogs)),
            ("cases", .integer(s.cases)), ("fittingCases", .integer(s.fittingCases)),
            ("events", .integer(s.events)), ("applied", .integer(s.applied)), ("ignored", .integer(s.ignored)),
            ("rejected", .integer(s.rejected)), ("eventFitness", .optional(s.eventFitness.map(JSON.number))),
            ("expectations", .integer(s.expectations)), ("failedExpectations", .integer(s.failedExpectations)),
            ("transitions", .array(transitions)), ("deviations", .array(deviations)), ("states", .array(states)),
        ])
        // Only where a property failed, so a summary of a spec without properties is unchanged.
        if !s.propertyViolations.isEmpty {
            fields["propertyViolations"] = Self.byName(s.propertyViolations)
            fields["propertyLines"] = Self.byName(s.propertyLines)
        }
        if !s.unknownEvents.isEmpty { fields["unknownEvents"] = Self.byName(s.unknownEvents) }
        let summary: JSON = .object(fields)
        return JSON.object(["summary": summary]).rendered(.outline(levels: 3)) + "\n"
    }

    /// Reads a document `render` wrote; the error says what is wrong, in words.
    public static func read(_ bytes: [UInt8]) -> Result<SummaryDocument, SummaryError> {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            return .failure(SummaryError("not JSON: \(error.message) (byte \(error.offset + 1))"))
        }
        guard let s = value["summary"] else { return .failure(SummaryError("not a summary: no \"summary\" object")) }
        func int(_ key: String) throws(SummaryError) -> Int {
            guard let n = s[key]?.intValue, n >= 0 else { throw SummaryError("\"\(key)\" is not a count") }
            return n
        }
        func string(_ v: JSONValue?, _ key: String) throws(SummaryError) -> String {
            guard let text = v?[key]?.stringValue else { throw SummaryError("\"\(key)\" is not a string") }
            return text
        }
        do throws(SummaryError) {
            let transitionValues = s["transitions"]?.arrayValue ?? []
            let stateValues = s["states"]?.arrayValue ?? []
            var names: [SummaryDocument.TransitionName] = []
            var summary = ConformanceSummary(transitions: transitionValues.count, states: stateValues.count + 1)
            var stateNames = [try string(s, "machine")]
            for (k, v) in stateValues.enumerated() {
                guard let visits = v["visits"]?.intValue, let zeros = v["zeros"]?.intValue, visits >= 0, zeros >= 0 else {
                    throw SummaryError("state \(k + 1) has no visits or zeros count")
                }
                var buckets: [Int: Int] = [:]
                for b in v["buckets"]?.arrayValue ?? [] {
                    guard let pair = b.arrayValue, pair.count == 2, let i = pair[0].intValue, let n = pair[1].intValue, n > 0 else {
                        throw SummaryError("a bucket of state \(k + 1) is not [index, count]")
                    }
                    buckets[i] = n
                }
                // (A summary written before exact durations were kept has none: its
                // percentiles stay estimates.)
                var exact: [Double]?
                if let values = v["exact"]?.arrayValue {
                    exact = try values.map { x throws(SummaryError) -> Double in
                        guard case .number(let n) = x, n >= 0 else { throw SummaryError("a duration of state \(k + 1) is not a number of seconds") }
                        return n
                    }
                }
                stateNames.append(try string(v, "name"))
                summary.dwell[k + 1] = StateDwell(visits: visits,
                                                  durations: DurationSketch(zeros: zeros, buckets: buckets, exact: exact))
            }
            for (t, v) in transitionValues.enumerated() {
                guard let line = v["line"]?.intValue, let taken = v["taken"]?.intValue, taken >= 0 else {
                    throw SummaryError("transition \(t + 1) has no line or count")
                }
                names.append(SummaryDocument.TransitionName(state: try string(v, "state"), line: line, text: try string(v, "text")))
                summary.transitionCounts[t] = taken
            }
            summary.logs = try int("logs")
            summary.unreadableLogs = try int("unreadableLogs")
            summary.malformedLogs = try int("malformedLogs")
            summary.cases = try int("cases")
            summary.fittingCases = try int("fittingCases")
            summary.applied = try int("applied")
            summary.ignored = try int("ignored")
            summary.rejected = try int("rejected")
            summary.expectations = try int("expectations")
            summary.failedExpectations = try int("failedExpectations")
            // An object of names and whole numbers of at least `least`, each checked.
            func byName(_ key: String, least: Int, _ problem: (String) -> String) throws(SummaryError) -> [(String, Int)] {
                guard case .object(let members)? = s[key] else { return [] }
                var pairs: [(String, Int)] = []
                for m in members {
                    guard let n = m.value.intValue, n >= least else { throw SummaryError(problem(m.key)) }
                    pairs.append((m.key, n))
                }
                return pairs
            }
            for (name, n) in try byName("propertyViolations", least: 0, { "property '\($0)' has no violation count" }) {
                summary.propertyViolations[name, default: 0] += n
            }
            for (name, line) in try byName("propertyLines", least: 1, { "property '\($0)' has no spec line" })
            where summary.propertyLines[name] == nil {
                summary.propertyLines[name] = line
            }
            for (name, n) in try byName("unknownEvents", least: 0, { "unknown event '\($0)' has no count" }) {
                summary.unknownEvents[name, default: 0] += n
            }
            for (k, v) in (s["deviations"]?.arrayValue ?? []).enumerated() {
                guard let kind = v["kind"]?.stringValue.flatMap(Deviation.Kind.init(rawValue:)),
                      let count = v["count"]?.intValue, count > 0,
                      let configuration = v["configuration"]?.arrayValue?.compactMap(\.stringValue) else {
                    throw SummaryError("deviation \(k + 1) is incomplete")
                }
                var places: [ConformanceSummary.Place] = []
                for p in v["places"]?.arrayValue ?? [] {
                    guard let line = p["line"]?.intValue else { throw SummaryError("a place of deviation \(k + 1) has no line") }
                    places.append(ConformanceSummary.Place(log: try string(p, "log"), line: line))
                }
                summary.add(ConformanceSummary.DeviationKey(configuration: configuration, event: try string(v, "event"), kind: kind),
                            ConformanceSummary.DeviationGroup(count: count, places: places,
                                                              why: v["why"]?.arrayValue?.compactMap(\.stringValue) ?? []))
            }
            return .success(SummaryDocument(spec: try string(s, "spec"), machine: try string(s, "machine"),
                                            transitions: names, states: stateNames, summary: summary))
        } catch {
            return .failure(error)
        }
    }

    /// Why a file is not a summary `render` wrote.
    public struct SummaryError: Error {
        /// What is wrong with the file: not JSON, or a member missing or of the wrong type.
        public var message: String
        init(_ message: String) { self.message = message }
    }

    /// Counts or lines by name, as a JSON object in name order (the summary's and a case's
    /// `propertyViolations`, `propertyLines`, `unknownEvents`).
    static func byName(_ values: [String: Int]) -> JSON {
        .object(JSONObject(values.sorted { $0.key < $1.key }.map { ($0.key, JSON.integer($0.value)) }))
    }
}
