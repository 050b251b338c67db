import Foundation
import Statecraft

/// One line on standard error, redrawn in place while many logs replay: logs done, events
/// per second, time left. Shown only on a terminal (a pipe or a CI log gets nothing extra),
/// and at most ten times a second.
final class ProgressLine {
    private let console: Console
    private let enabled: Bool
    private let start = DispatchTime.now().uptimeNanoseconds
    private var lastShown: UInt64 = 0
    private var shown = false

    init(console: Console, enabled: Bool) {
        self.console = console
        self.enabled = enabled
    }

    func show(_ progress: ManyLogs.Progress) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastShown >= 100_000_000 || progress.logsDone == progress.logs else { return }
        lastShown = now
        let seconds = Double(now - start) / 1e9
        let rate = seconds > 0 ? Double(progress.events) / seconds : 0
        var line = "replaying: \(progress.logsDone)/\(progress.logs) logs, \(Self.events(rate)) events/s"
        if progress.logsDone > 0 && progress.logsDone < progress.logs {
            let left = seconds / Double(progress.logsDone) * Double(progress.logs - progress.logsDone)
            line += ", \(Int(left.rounded(.up))) s left"
        }
        console.err("\r\u{1B}[K" + line)
        shown = true
    }

    /// Erases the line, before other text goes to standard error, and at the end.
    func clear() {
        guard shown else { return }
        console.err("\r\u{1B}[K")
        shown = false
    }

    static func events(_ rate: Double) -> String {
        switch rate {
        case 1e6...: String(format: "%.1f M", rate / 1e6)
        case 1e3...: String(format: "%.1f k", rate / 1e3)
        default: String(Int(rate))
        }
    }
}
