import StatecraftAnalysis

/// `statecraft paths`' report of the tests it generated: a line per target with the log
/// that reaches it (or why none does), and the targets left without a log.
package enum PathsText {
    /// Why a target has no log, in words.
    package static func whyMissed(_ t: TestGeneration.Target) -> String {
        if let problem = t.problem { return problem }
        switch t.finding {
        case .unreachable(let reason): return "unreachable: \(reason)"
        case .notReached: return "not reached within the bounds (not a proof)"
        case .reached: return "reached, but no log was written"
        }
    }

    /// The table `paths` prints: each target, padded to one width, with the log that
    /// reaches it and its number of steps, or why none does; then the count.
    package static func table(_ targets: [TestGeneration.Target], logs: [TestGeneration.Log], emittedTo dir: String?) -> String {
        let width = min(70, targets.map(\.name.count).max() ?? 0)
        var out = ""
        for t in targets {
            let name = t.name.count < width ? t.name + String(repeating: " ", count: width - t.name.count) : t.name
            switch t.finding {
            case .reached(let steps) where t.file != nil:
                out += "\(name)  \(t.file ?? "")  (\(steps.count) step\(steps.count == 1 ? "" : "s"))\n"
            case .reached:
                out += "\(name)  no log: \(whyMissed(t))\n"
            case .unreachable(let reason):
                out += "\(name)  unreachable: \(reason)\n"
            case .notReached:
                out += "\(name)  not reached within the bounds (not a proof)\n"
            }
        }
        let reached = targets.filter { $0.file != nil }.count
        out += "\(reached) of \(targets.count) targets reached by \(logs.count) log\(logs.count == 1 ? "" : "s")"
        out += dir.map { ", written to \($0)\n" } ?? "; use --emit DIR to write them\n"
        return out
    }

    /// The error naming every target without a log, with why; nil when every target has one.
    package static func missed(_ targets: [TestGeneration.Target]) -> String? {
        let missed = targets.filter { $0.file == nil }
        guard !missed.isEmpty else { return nil }
        var message = "error: \(missed.count) of \(targets.count) targets have no log:\n"
        for t in missed { message += "  \(t.name): \(whyMissed(t))\n" }
        return message
    }
}
