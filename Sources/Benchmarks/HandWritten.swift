import Foundation  // atan2, as the generated machines use it

/// The baseline: the bundled flat machines and the small statecharts written by hand as a
/// Swift `switch`, the fastest a replay of these machines could step. Each follows its spec in
/// Specs/ line by line (guards in written order, entry actions, outputs counted, timers as a
/// deadline checked before each event, firing when the event's time is at or past it, as the
/// runtime fires them); `run` checks that they end in the same state with the same variables
/// as the interpreted machine. Strings are Swift `String`s, as an app's would be.
///
/// Drawer and PullToRefresh step `HandEvent`s; the later twins step an event type of their
/// own, an enum carrying the fields the machine reads, as an app's handler would receive
/// them, and the line's time (every twin's events carry it, used or not, as the generated
/// machines are handed it).

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

    /// The active states' names, outermost first, as the interpreter lists them.
    var configurationNames: [String] { ["drawer", stateName] }
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

    var configurationNames: [String] { state == .refreshing ? ["refreshing"] : ["ready", stateName] }
}

/// Specs/VibrantButton.machine by hand: `shown` holds the two appearances, and a tap in
/// either only tells the delegate (`didTap`, counted).
struct HandVibrantButton {
    enum State { case unselected, selected }
    enum Kind { case tap, select, deselect }
    struct Event {
        var kind: Kind
        var time: Double
    }

    var state = State.unselected
    var alpha = 0.2
    var textColor = "white"
    var taps = 0

    static func event(_ line: HandLine) -> Event? {
        switch line.name {
        case "tap": Event(kind: .tap, time: line.time)
        case "select": Event(kind: .select, time: line.time)
        case "deselect": Event(kind: .deselect, time: line.time)
        default: nil
        }
    }

    @inline(never)
    mutating func run(_ events: UnsafeBufferPointer<Event>) {
        for e in events { send(e) }
    }

    @inline(__always)
    mutating func send(_ e: Event) {
        switch (state, e.kind) {
        case (_, .tap):
            taps += 1  // emit didTap(index)
        case (.unselected, .select):
            state = .selected
            alpha = 0.7
            textColor = "black"
        case (.selected, .deselect):
            state = .unselected
            alpha = 0.2
            textColor = "white"
        default:
            break
        }
    }

    /// The active states' names, outermost first, as the interpreter lists them.
    var configurationNames: [String] { ["shown", state == .selected ? "selected" : "unselected"] }
}

/// Specs/PeekRating.machine by hand: idle, then the peek (`preview`) and the commit, both
/// inside `pressing`, which a cancel leaves from either.
struct HandPeekRating {
    enum State { case idle, preview, commit }
    enum Kind {
        case pressBegan(onCell: Bool, cellX: Double, cellY: Double, cellWidth: Double, cellHeight: Double)
        case previewUpdate(progress: Double, ended: Bool)
        case commitUpdate(ended: Bool, x: Double, y: Double)
        case cancel
    }
    struct Event {
        var kind: Kind
        var time: Double
    }

    var state = State.idle
    var scrollEnabled = true
    var previewProgress = 0.0
    var highlighted = ""
    var rating = ""
    var cellMinX = 0.0
    var cellMaxX = 0.0
    var cellMinY = 0.0
    var cellMidY = 0.0
    var cellMaxY = 0.0
    var ratings = 0

    static func event(_ line: HandLine) -> Event? {
        let kind: Kind
        switch line.name {
        case "pressBegan":
            kind = .pressBegan(onCell: line.flag("onCell"), cellX: line.number("cellX"), cellY: line.number("cellY"),
                               cellWidth: line.number("cellWidth"), cellHeight: line.number("cellHeight"))
        case "previewUpdate": kind = .previewUpdate(progress: line.number("progress"), ended: line.flag("ended"))
        case "commitUpdate": kind = .commitUpdate(ended: line.flag("ended"), x: line.number("x"), y: line.number("y"))
        case "cancel": kind = .cancel
        default: return nil
        }
        return Event(kind: kind, time: line.time)
    }

    @inline(never)
    mutating func run(_ events: UnsafeBufferPointer<Event>) {
        for e in events { send(e) }
    }

    /// The rating label under (x, y): "❤️" in the cell's top half, "💀" in its bottom half,
    /// "" outside; half-open intervals, as UIKit's point(inside:).
    @inline(__always)
    private func label(_ x: Double, _ y: Double) -> String {
        let inside = x >= cellMinX && x < cellMaxX && y >= cellMinY && y < cellMaxY
        return inside ? (y < cellMidY ? "❤️" : "💀") : ""
    }

    private mutating func enterIdle() {
        state = .idle
        scrollEnabled = true
        previewProgress = 0
        highlighted = ""
    }

    @inline(__always)
    mutating func send(_ e: Event) {
        switch (state, e.kind) {
        case (.idle, .pressBegan(let onCell, let cellX, let cellY, let cellWidth, let cellHeight)):
            guard onCell else { return }
            scrollEnabled = false
            cellMinX = cellX
            cellMaxX = cellX + cellWidth
            cellMinY = cellY
            cellMidY = cellY + cellHeight / 2
            cellMaxY = cellY + cellHeight
            state = .preview
        case (.preview, .cancel), (.commit, .cancel):
            enterIdle()
        case (.preview, .previewUpdate(let progress, let ended)):
            previewProgress = progress
            if ended { state = .commit }
        case (.commit, .commitUpdate(let ended, let x, let y)):
            if ended {
                rating = label(x, y)
                if !rating.isEmpty { ratings += 1 }  // emit rated(rating)
                enterIdle()
            } else {
                highlighted = label(x, y)
            }
        default:
            break
        }
    }

    var configurationNames: [String] {
        switch state {
        case .idle: ["idle"]
        case .preview: ["pressing", "preview"]
        case .commit: ["pressing", "commit"]
        }
    }
}

/// Specs/SwipeToDismiss.machine by hand: one per view (the log's cases), each event sent to
/// its view's machine.
struct HandSwipeToDismiss {
    enum State { case idle, snappingBack, flinging, dragging, dismissed }
    enum Kind {
        case panBegan(x: Double, y: Double)
        case panChanged(x: Double, y: Double)
        case panEnded(vx: Double, vy: Double)
        case snapped, leftScreen
    }
    struct Event {
        var kind: Kind
        /// The view (the line's case).
        var view: Int32
        var time: Double
    }

    var state = State.idle
    var anchorX = 0.0
    var anchorY = 0.0
    var dismissals = 0

    static func event(_ line: HandLine) -> Event? {
        let kind: Kind
        switch line.name {
        case "panBegan": kind = .panBegan(x: line.number("x"), y: line.number("y"))
        case "panChanged": kind = .panChanged(x: line.number("x"), y: line.number("y"))
        case "panEnded": kind = .panEnded(vx: line.number("vx"), vy: line.number("vy"))
        case "snapped": kind = .snapped
        case "leftScreen": kind = .leftScreen
        default: return nil
        }
        return Event(kind: kind, view: Int32(line.run), time: line.time)
    }

    @inline(never)
    static func run(_ views: UnsafeMutableBufferPointer<HandSwipeToDismiss>, _ events: UnsafeBufferPointer<Event>) {
        for e in events { views[Int(e.view)].send(e) }
    }

    @inline(__always)
    mutating func send(_ e: Event) {
        switch (state, e.kind) {
        case (.idle, .panBegan(let x, let y)), (.snappingBack, .panBegan(let x, let y)), (.flinging, .panBegan(let x, let y)):
            anchorX = x
            anchorY = y
            state = .dragging
        case (.snappingBack, .snapped):
            state = .idle
        case (.flinging, .leftScreen):
            dismissals += 1  // emit dismissed
            state = .dismissed
        case (.dragging, .panChanged(let x, let y)):
            anchorX = x
            anchorY = y
        case (.dragging, .panEnded(let vx, let vy)):
            // Not moving downward within 45° of straight down: snap back (strictly, so 45° flings).
            state = abs(atan2(vy, vx) - .pi / 2) > .pi / 4 ? .snappingBack : .flinging
        default:
            break
        }
    }

    var configurationNames: [String] {
        switch state {
        case .idle: ["released", "idle"]
        case .snappingBack: ["released", "snappingBack"]
        case .flinging: ["released", "flinging"]
        case .dragging: ["dragging"]
        case .dismissed: ["dismissed"]
        }
    }
}

/// Specs/CheckoutScreen.machine by hand: one per visit (the log's cases). The two regions
/// are two fields; the banner follows `errorMessage` in the step that changes it (the spec's
/// eventless transitions); the payment timeout is a deadline checked before each event of
/// the visit.
struct HandCheckoutScreen {
    enum Button { case reviewing, paying, receipt }
    enum Kind {
        case tapPay, paid, closeBanner
        case failed(message: String)
    }
    struct Event {
        var kind: Kind
        /// The visit (the line's case).
        var visit: Int32
        var time: Double
    }

    static let paymentTimeout = 10.0
    static let genericFailure = "The payment did not go through."
    static let timedOutMessage = "The payment timed out. Check your connection and try again."

    var button = Button.reviewing
    var bannerShown = false
    var errorMessage = ""
    var deadline = Double.infinity
    var payments = 0
    var cancellations = 0
    var timersFired = 0

    static func event(_ line: HandLine) -> Event? {
        let kind: Kind
        switch line.name {
        case "tapPay": kind = .tapPay
        case "paid": kind = .paid
        case "failed": kind = .failed(message: line.string("message"))
        case "closeBanner": kind = .closeBanner
        default: return nil
        }
        return Event(kind: kind, visit: Int32(line.run), time: line.time)
    }

    @inline(never)
    static func run(_ visits: UnsafeMutableBufferPointer<HandCheckoutScreen>, _ events: UnsafeBufferPointer<Event>) {
        for e in events {
            let k = Int(e.visit)
            if e.time >= visits[k].deadline { visits[k].timeOut() }
            visits[k].send(e)
        }
    }

    /// Back to reviewing with a message: the banner shows it.
    @inline(__always)
    private mutating func stopPaying(_ message: String) {
        deadline = .infinity
        errorMessage = message
        button = .reviewing
        bannerShown = !errorMessage.isEmpty
    }

    private mutating func timeOut() {
        timersFired += 1
        cancellations += 1  // emit cancelPayment
        stopPaying(HandCheckoutScreen.timedOutMessage)
    }

    @inline(__always)
    mutating func send(_ e: Event) {
        switch (button, e.kind) {
        case (.reviewing, .tapPay):
            errorMessage = ""
            button = .paying
            payments += 1  // emit startPayment
            deadline = e.time + HandCheckoutScreen.paymentTimeout
            bannerShown = false
        case (.paying, .paid):
            deadline = .infinity
            button = .receipt
        case (.paying, .failed(let message)):
            stopPaying(message.isEmpty ? HandCheckoutScreen.genericFailure : message)
        case (.reviewing, .closeBanner), (.paying, .closeBanner):
            guard bannerShown else { return }
            errorMessage = ""
            bannerShown = false
        default:
            break
        }
    }

    var configurationNames: [String] {
        button == .receipt ? ["receipt"]
            : ["checkout", "button", button == .paying ? "paying" : "reviewing", "banner", bannerShown ? "errorBanner" : "bannerHidden"]
    }
}
