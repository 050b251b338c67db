/// The baseline: Drawer and PullToRefresh written by hand as a Swift `switch`, the fastest a
/// replay of these machines could step. They follow Specs/Drawer.machine and
/// Specs/PullToRefresh.machine line by line; `run` checks that they end in the same state
/// with the same variables as the interpreted machine.

/// One pre-decoded event for the hand-written machines: a small event code, up to one
/// number and one flag, and the line's time.
struct HandEvent {
    var code: UInt8
    var number: Double
    var flag: Bool
    var time: Double
}

/// Specs/Drawer.machine by hand.
struct HandDrawer {
    enum State { case open, closed, dragging }
    /// Event codes: the order of the spec's declarations.
    static let events = ["touchBegan", "touchMoved", "touchEnded", "touchCancelled"]

    var state = State.open
    var directionTop = true
    var originY = 0.0
    var startTouchY = 0.0
    var startOriginY = 0.0

    @inline(never)
    mutating func run(_ events: UnsafeBufferPointer<HandEvent>) {
        for e in events { send(e) }
    }

    @inline(__always)
    mutating func send(_ e: HandEvent) {
        switch (state, e.code) {
        case (.open, 0), (.closed, 0), (.dragging, 0):
            guard e.flag else { return }
            startTouchY = e.number
            startOriginY = originY
            state = .dragging
        case (.dragging, 1):
            originY = min(startOriginY + (e.number - startTouchY), 0)
        case (.dragging, 2), (.dragging, 3):
            if e.number < (directionTop ? 100 : 667 - 100) {
                directionTop = true
                state = .closed
                originY = 50 - 667
            } else {
                directionTop = false
                state = .open
                originY = 0
            }
        default:
            break
        }
    }

    /// The state's name in the spec.
    var stateName: String {
        switch state {
        case .open: "open"
        case .closed: "closed"
        case .dragging: "dragging"
        }
    }
}

/// Specs/PullToRefresh.machine by hand, with its 2 s timer as a deadline checked before
/// each event.
struct HandPullToRefresh {
    enum State { case idle, pulling, refreshing }
    static let events = ["scroll", "endDragging", "endRefreshing"]

    var state = State.idle
    var progress = 0.0
    var insetTop = 0.0
    var deadline = Double.infinity
    var refreshes = 0
    var timersFired = 0

    @inline(never)
    mutating func run(_ events: UnsafeBufferPointer<HandEvent>) {
        for e in events {
            if e.time >= deadline {
                timersFired += 1
                leaveRefreshing()
            }
            send(e)
        }
    }

    @inline(__always)
    private static func clampedProgress(_ offsetY: Double, _ insetTop: Double) -> Double {
        min(max(max(-(offsetY + insetTop), 0) / 110, 0), 1)
    }

    private mutating func enterRefreshing(at time: Double) {
        state = .refreshing
        refreshes += 1
        insetTop += 110
        deadline = time + 2
    }

    private mutating func leaveRefreshing() {
        insetTop -= 110
        deadline = .infinity
        state = .idle
    }

    @inline(__always)
    mutating func send(_ e: HandEvent) {
        switch (state, e.code) {
        case (.idle, 0):
            if e.number + insetTop < 0 {
                progress = HandPullToRefresh.clampedProgress(e.number, insetTop)
                state = .pulling
            } else {
                progress = 0
            }
        case (.pulling, 0):
            if e.number + insetTop < 0 {
                progress = HandPullToRefresh.clampedProgress(e.number, insetTop)
            } else {
                progress = 0
                state = .idle
            }
        case (.refreshing, 0):
            progress = HandPullToRefresh.clampedProgress(e.number, insetTop)
        case (.idle, 1), (.pulling, 1):
            if progress >= 1 { enterRefreshing(at: e.time) }
        case (.refreshing, 2):
            leaveRefreshing()
        default:
            return
        }
    }

    var stateName: String {
        switch state {
        case .idle: "idle"
        case .pulling: "pulling"
        case .refreshing: "refreshing"
        }
    }
}
