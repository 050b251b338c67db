import StatecraftConformance
import StatecraftModel

/// `statecraft replay --summary`: what many logs add up to, for a person.
public enum ReplaySummaryText {
    public static func render(_ summary: ConformanceSummary, machine: Machine) -> String {
        var logs = "\(summary.logs) \(summary.logs == 1 ? "log" : "logs")"
        var notes: [String] = []
        if summary.malformedLogs > 0 { notes.append("\(summary.malformedLogs) stopped at a malformed line") }
        if summary.unreadableLogs > 0 { notes.append("\(summary.unreadableLogs) could not be read") }
        if !notes.isEmpty { logs += " (" + notes.joined(separator: ", ") + ")" }
        var lines = ["summary of \(logs)"]
        lines.append("  cases         \(summary.cases), fitting \(summary.fittingCases)" + percent(summary.fittingShare))
        lines.append("  events        \(summary.events): \(summary.applied) applied, \(summary.ignored) ignored, "
                     + "\(summary.rejected) rejected; event fitness" + percent(summary.eventFitness, bare: true))
        lines.append("  expectations  \(summary.expectations) checked, \(summary.failedExpectations) failed")
        let taken = machine.transitions.filter { summary.transitionCounts[$0.id.index] > 0 }
        let never = machine.transitions.filter { summary.transitionCounts[$0.id.index] == 0 }
        lines.append("  transitions   \(taken.count) of \(machine.transitions.count) taken")
        // Most taken first (then in the order of the spec): where the field's sessions go.
        for t in taken.sorted(by: { (-summary.transitionCounts[$0.id.index], $0.id.index) < (-summary.transitionCounts[$1.id.index], $1.id.index) }) {
            lines.append("    \(pad(summary.transitionCounts[t.id.index]))  \(describe(t, machine))")
        }
        if !never.isEmpty {
            lines.append("  never taken")
            for t in never { lines.append("    \(describe(t, machine))") }
        }
        let deviations = summary.deviationsByFrequency
        if !deviations.isEmpty {
            lines.append("  deviations    \(deviations.count) \(deviations.count == 1 ? "group" : "groups") of events not taken, most frequent first, with their first places")
            for (key, group) in deviations {
                let places = group.places.map { "\($0.log):\($0.line)" }.joined(separator: ", ")
                lines.append("    \(pad(group.count))  \(key.event) \(key.kind.rawValue) in [\(key.configuration.joined(separator: ", "))]: \(places)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// ` (71.4%)`, or ` 71.4%` when `bare`; ` n/a` without a denominator.
    static func percent(_ share: Double?, bare: Bool = false) -> String {
        guard let share else { return " n/a" }
        let text = String(Double((share * 1000).rounded()) / 10) + "%"
        return bare ? " " + text : " (" + text + ")"
    }

    static func pad(_ n: Int) -> String {
        let s = "\(n)×"
        return String(repeating: " ", count: max(0, 8 - s.count)) + s
    }

    /// `line 20: on pull if progress >= 1 -> refreshing` (the transition's first line in the
    /// spec, with its state).
    static func describe(_ t: Transition, _ machine: Machine) -> String {
        let source = machine.source
        let line = source.lineIndex(of: t.keywordRange.start)
        let range = source.lineRange(line)
        let text = withoutComment(String(decoding: source.bytes[range], as: UTF8.self))
            .trimmingCharacters(in: " \t\r{")
        return "\(machine[t.source].name), line \(line + 1): \(text)"
    }
}

/// The line without a trailing `//` comment (one outside a string literal).
func withoutComment(_ line: String) -> String {
    var inString = false
    var escaped = false
    var previous: Character?
    for (offset, c) in line.enumerated() {
        if inString {
            if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
        } else if c == "\"" {
            inString = true
        } else if c == "/" && previous == "/" {
            return String(line.prefix(offset - 1))
        }
        previous = inString ? nil : c
    }
    return line
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        let chars = Set(set)
        var s = Substring(self)
        while let c = s.first, chars.contains(c) { s.removeFirst() }
        while let c = s.last, chars.contains(c) { s.removeLast() }
        return String(s)
    }
}
