import StatecraftReplay
import StatecraftModel
import StatecraftRuntime

/// `statecraft replay --summary` (and `statecraft merge`): what many logs add up to, for a person.
public enum ReplaySummaryText {
    /// Writes the summary as text for a person to read, the way `replay --summary` prints it.
    public static func render(_ document: SummaryDocument) -> String {
        let summary = document.summary
        var logs = "\(summary.logs) \(summary.logs == 1 ? "log" : "logs")"
        var notes: [String] = []
        if summary.malformedLogs > 0 { notes.append("\(summary.malformedLogs) stopped at a malformed line") }
        if summary.unreadableLogs > 0 { notes.append("\(summary.unreadableLogs) could not be read") }
        if !notes.isEmpty { logs += " (" + notes.joined(separator: ", ") + ")" }
        var lines = ["summary of \(logs)"]
        lines.append("  cases         \(summary.cases), fitting \(summary.fittingCases)" + percent(summary.fittingShare))
        lines.append("  events        \(summary.events): \(summary.applied) applied, \(summary.ignored) ignored, "
                     + "\(summary.rejected) rejected; event fitness" + percent(summary.eventFitness, bare: true))
        if !summary.unknownEvents.isEmpty { lines.append("  unknown       " + ReplayText.unknownEvents(summary.unknownEvents)) }
        lines.append("  expectations  \(summary.expectations) checked, \(summary.failedExpectations) failed")
        if !summary.propertyViolations.isEmpty {
            lines.append("  properties    " + summary.propertyViolations.sorted { $0.key < $1.key }
                .map { name, cases in
                    let line = summary.propertyLines[name].map { " (line \($0))" } ?? ""
                    return "\(name)\(line) violated in \(cases) case\(cases == 1 ? "" : "s")"
                }.joined(separator: ", "))
        }
        let counts = summary.transitionCounts
        let all = document.transitions.indices
        let taken = all.filter { counts[$0] > 0 }
        let never = all.filter { counts[$0] == 0 }
        lines.append("  transitions   \(taken.count) of \(all.count) taken")
        // Most taken first (then in the order of the spec): where the field's sessions go.
        for t in taken.sorted(by: { (-counts[$0], $0) < (-counts[$1], $1) }) {
            lines.append("    \(pad(counts[t]))  \(describe(document.transitions[t]))")
        }
        if !never.isEmpty {
            lines.append("  never taken")
            for t in never { lines.append("    \(describe(document.transitions[t]))") }
        }
        let visited = document.states.indices.dropFirst().filter { summary.dwell[$0].visits > 0 }
        if !visited.isEmpty {
            let width = visited.map { document.states[$0].count }.max() ?? 0
            lines.append("  time in states  visits; median, p90, p99 of the visits that ended (virtual seconds; exact up to \(DurationSketch.exactLimit) visits ended, else within 1%)")
            for k in visited {
                let d = summary.dwell[k]
                let name = document.states[k] + String(repeating: " ", count: width - document.states[k].count)
                let quantiles = [0.5, 0.9, 0.99].map { d.durations.quantile($0).map(seconds) ?? "-" }.joined(separator: ", ")
                lines.append("    \(name)  \(d.visits)\(d.durations.count == 0 ? "" : "; " + quantiles)")
            }
        }
        let deviations = summary.deviationsByFrequency
        if !deviations.isEmpty {
            lines.append("  deviations    \(deviations.count) \(deviations.count == 1 ? "group" : "groups") of events not taken, "
                         + "most frequent first, with their first places")
            for (key, group) in deviations.prefix(ConformanceSummary.shownDeviations) {
                let places = group.places.map { "\($0.log):\($0.line)" }.joined(separator: ", ")
                lines.append("    \(pad(group.count))  \(key.event) \(key.kind.rawValue)\(whereTaken(key)): \(places)")
                for why in group.why { lines.append("              why: " + why) }
            }
            if deviations.count > ConformanceSummary.shownDeviations {
                let rest = deviations.dropFirst(ConformanceSummary.shownDeviations)
                let events = rest.reduce(0) { $0 + $1.group.count }
                lines.append("    and \(rest.count) more \(rest.count == 1 ? "group" : "groups"), \(events) \(events == 1 ? "event" : "events")")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// ` in [ready, pulling]`: where a group's events arrived; `, no active state takes it`
    /// for a statechart's events that no active state has a transition on.
    static func whereTaken(_ key: ConformanceSummary.DeviationKey) -> String {
        key.configuration.isEmpty ? ", no active state takes it" : " in [\(key.configuration.joined(separator: ", "))]"
    }

    /// ` (71.4%)`, or ` 71.4%` when `bare`; ` n/a` without a denominator.
    static func percent(_ share: Double?, bare: Bool = false) -> String {
        guard let share else { return " n/a" }
        let text = String(Double((share * 1000).rounded()) / 10) + "%"
        return bare ? " " + text : " (" + text + ")"
    }

    /// Three significant digits: `0.523`, `12.4`, `310`.
    static func seconds(_ x: Double) -> String {
        if x == 0 { return "0" }
        var digits = 2
        var magnitude = abs(x)
        while magnitude >= 10 && digits > 0 {
            magnitude /= 10
            digits -= 1
        }
        while magnitude < 1 && digits < 9 {
            magnitude *= 10
            digits += 1
        }
        let scale = Double(Int(pow10(digits)))
        let rounded = (x * scale).rounded() / scale
        var text = String(rounded)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    private static func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { r, _ in r * 10 } }

    static func pad(_ n: Int) -> String {
        let s = "\(n)×"
        return String(repeating: " ", count: max(0, 8 - s.count)) + s
    }

    /// `idle, line 32: on scroll if offsetY + insetTop < 0 -> pulling`
    static func describe(_ t: SummaryDocument.TransitionName) -> String {
        "\(t.state), line \(t.line): \(t.text)"
    }
}
