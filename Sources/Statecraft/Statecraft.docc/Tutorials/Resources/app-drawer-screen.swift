import GeneratedMachines
import StatecraftRecording

// The "From spec to app" tutorial's controller: the app's drawer driven by the type that
// `statecraft swift Drawer.machine` generates (here the golden in Tests/GeneratedMachines),
// with its events recorded as an event log and its state kept across a relaunch.

/// What the controller needs of the drawer's view: on iOS the blur view, in a test a fake.
protocol DrawerView: AnyObject {
    /// The view's `frame.origin.y`.
    var originY: Double { get set }
}

/// Owns the drawer's machine: each touch callback becomes one typed event, and the view
/// follows the machine's `originY`.
final class DrawerScreen {
    private(set) var drawer = Drawer()
    let view: DrawerView
    /// Where recorded events go: a file, a ring of the last lines for a crash report.
    var recording: EventLogWriter?

    init(view: DrawerView) {
        self.view = view
        view.originY = drawer.originY
    }

    func touchBegan(y: Double, onContent: Bool, at time: Double) { send(.touchBegan(y: y, onContent: onContent), at: time) }
    func touchMoved(y: Double, at time: Double) { send(.touchMoved(y: y), at: time) }
    func touchEnded(y: Double, at time: Double) { send(.touchEnded(y: y), at: time) }
    func touchCancelled(y: Double, at time: Double) { send(.touchCancelled(y: y), at: time) }

    private func send(_ event: Drawer.Event, at time: Double) {
        if let recording {
            _ = drawer.send(event, at: time, recordingTo: { Self.write($0, to: recording) })
        } else {
            _ = drawer.send(event, at: time)
        }
        view.originY = drawer.originY
    }

    /// One recorded event as a log line (a field marked `private` in the spec arrives empty).
    private static func write(_ event: Drawer.Recorded, to log: EventLogWriter) {
        try? log.event(event.name, time: event.time) { line throws(EventLogWriter.Failure) in
            try event.forEachField { (name: String, value: Drawer.Value) throws(EventLogWriter.Failure) in
                switch value {
                case .number(let n): try line.number(name, n)
                case .bool(let b): try line.bool(name, b)
                case .string(let s): try line.string(name, s)
                }
            }
        }
    }

    /// What to keep when the app goes to the background.
    func save() -> String { drawer.snapshotJSON() }

    /// After a relaunch: the drawer where it was (no entry action runs again).
    func restore(_ snapshot: String) throws(Drawer.SnapshotError) {
        drawer = try Drawer(restoring: snapshot)
        view.originY = drawer.originY
    }
}

#if canImport(UIKit)
import UIKit

/// The UIKit side: the blur view is the drawer's view, and its touches go to the screen.
final class DrawerViewController: UIViewController, DrawerView {
    private lazy var screen = DrawerScreen(view: self)
    let blurView = UIVisualEffectView(effect: UIBlurEffect(style: .dark))

    var originY: Double {
        get { Double(blurView.frame.origin.y) }
        set { blurView.frame.origin.y = CGFloat(newValue) }
    }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = touches.first else { return }
        screen.touchBegan(y: Double(touch.location(in: view).y), onContent: touch.view === blurView.contentView,
                          at: touch.timestamp)
    }

    override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = touches.first else { return }
        screen.touchMoved(y: Double(touch.location(in: view).y), at: touch.timestamp)
    }

    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = touches.first else { return }
        screen.touchEnded(y: Double(touch.location(in: view).y), at: touch.timestamp)
    }

    override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = touches.first else { return }
        screen.touchCancelled(y: Double(touch.location(in: view).y), at: touch.timestamp)
    }
}
#endif
