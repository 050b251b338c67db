import Foundation
import Statecraft

// The app glue of the EmbedTheRuntime tutorial, in three files: this one loads the spec and
// starts it, +Gestures sends it what the scroll view reports, +View reads what to draw.
// Nothing here imports UIKit, so it compiles on every platform; `PullToRefreshControllerTests`
// holds it to the behaviour the tutorial describes.

/// A spec the app cannot run: its diagnostics, rendered as `statecraft check` prints them.
struct SpecProblem: Error, CustomStringConvertible {
    var description: String
}

/// Runs the pull-to-refresh spec for one list; its view controller owns one.
final class PullToRefreshController {
    let machine: Machine
    /// The running copy of the machine: its state, variables and timers.
    var instance: Instance

    /// Called when the machine emits `didRefresh`: the app starts fetching new data.
    var onRefresh: () -> Void = {}
    /// Why the last event sent was not taken (ignored, rejected, or unknown to the spec), in
    /// words; nil when a transition took it.
    var whyNotTaken: String?

    /// Checks the spec's text and starts a run of it; throws when the spec has errors.
    init(specText: String, path: String = "PullToRefresh.machine") throws {
        // `bounds: nil` skips the reachability search: the app only needs the machine.
        let result = Statecraft.check(source: specText, path: path, bounds: nil)
        guard let machine = result.machine, result.errorCount == 0 else {
            let renderer = DiagnosticRenderer()
            throw SpecProblem(description: result.diagnostics.map { renderer.render($0, in: result.file) }.joined())
        }
        self.machine = machine
        instance = Instance(Program(machine))
        _ = instance.start()        // enters ready and idle
    }

    /// Hands the machine's outputs to the app.
    func deliver(_ output: OutputID, _ arguments: [Value]) {
        if machine[output].name == "didRefresh" { onRefresh() }
    }
}
