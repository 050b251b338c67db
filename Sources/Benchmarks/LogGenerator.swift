import Statecraft
/// Writes deterministic, realistic event logs for the machines in `Specs/`: JSON Lines with a
/// `time` on every line and no expectation lines.
///
/// The same machine, count and seed always give the same bytes. Numbers are written with at
/// most three decimals, like real touch and scroll data.
struct LogGenerator {
    /// The machines the generator knows.
    static let machines = ["Drawer", "VibrantButton", "PullToRefresh", "PeekRating", "SwipeToDismiss", "CheckoutScreen", "MediaPlayer"]
    /// The ones `run` and `properties` measure unless told (`--machine`): CheckoutScreen's log
    /// is a case per 2.5 lines, and creating a runtime instance per case makes its replay rows
    /// take minutes at these sizes; it is measured when named.
    static let measuredByDefault = machines.filter { $0 != "CheckoutScreen" }

    private var random: SplitMix64
    private var ms = 0
    private var writer: FileWriter
    private var written = 0
    private let limit: Int

    /// Writes `events` lines for `machine` to `path`; false for an unknown machine or a file
    /// that cannot be written.
    static func generate(machine: String, events: Int, path: String, seed: UInt64 = 1) -> Bool {
        guard let writer = FileWriter(path: path) else { return false }
        var generator = LogGenerator(random: SplitMix64(seed: seed ^ UInt64(machine.utf8.count) << 32),
                                     writer: writer, limit: events)
        switch machine {
        case "Drawer": while !generator.done { generator.drawerGesture() }
        case "VibrantButton": while !generator.done { generator.buttonAction() }
        case "PullToRefresh": while !generator.done { generator.pullGesture() }
        case "PeekRating": while !generator.done { generator.peek() }
        case "SwipeToDismiss": while !generator.done { generator.swipe() }
        case "CheckoutScreen":
            var visit = 0
            while !generator.done {
                visit += 1
                generator.checkout(visit)
            }
        case "MediaPlayer":
            generator.line("loaded", ["itemDuration": "600"], after: 300)
            generator.line("prerolled", after: 120)
            var position = 0
            while !generator.done { generator.watch(&position) }
        default:
            generator.writer.close()
            return false
        }
        generator.writer.close()
        return true
    }

    private init(random: SplitMix64, writer: FileWriter, limit: Int) {
        self.random = random
        self.writer = writer
        self.limit = limit
    }

    private var done: Bool { written >= limit }

    /// One line: time, event name, then the payload (already formatted JSON values).
    mutating func line(_ event: String, _ fields: KeyValuePairs<String, String> = [:], after delay: Int,
                               caseKey: String? = nil) {
        guard !done else { return }
        ms += delay
        var text = "{\"time\": " + LogGenerator.decimal(ms, places: 3)
        if let caseKey { text += ", \"case\": \"" + caseKey + "\"" }
        text += ", \"event\": \"" + event + "\""
        for (key, value) in fields { text += ", \"" + key + "\": " + value }
        writer.write(text + "}\n")
        written += 1
    }

    private mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    private mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    /// `tenths` / 10 as JSON: `312.5`, `-40`.
    private static func tenths(_ tenths: Int) -> String { decimal(tenths, places: 1) }

    /// `value` / 10^places, without trailing zeros: decimal(16, places: 3) is "0.016".
    static func decimal(_ value: Int, places: Int) -> String {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let sign = value < 0 ? "-" : ""
        let whole = abs(value) / scale
        var fraction = abs(value) % scale
        guard fraction != 0 else { return sign + String(whole) }
        var digits = places
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        let text = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: digits - text.count) + text
    }

    // MARK: Machines

    /// A drag of the drawer: touchBegan, 3-40 moves a frame apart, then ended or cancelled.
    private mutating func drawerGesture() {
        var y = int(0...6670)
        let onContent = chance(92) ? "true" : "false"
        line("touchBegan", ["y": LogGenerator.tenths(y), "onContent": onContent], after: int(300...3000))
        for _ in 0..<int(3...40) {
            y = max(0, min(6670, y + int(-400...400)))
            line("touchMoved", ["y": LogGenerator.tenths(y)], after: 16)
        }
        line(chance(90) ? "touchEnded" : "touchCancelled", ["y": LogGenerator.tenths(y)], after: 16)
    }

    /// Taps mostly; the owner selects and deselects now and then.
    private mutating func buttonAction() {
        let roll = int(0...99)
        line(roll < 60 ? "tap" : roll < 80 ? "select" : "deselect", after: int(100...2000))
    }

    /// A pull: scrolls down frame by frame, a release, then (for a full pull) a refresh that
    /// either runs into its 2 s timer or is ended early, and a scroll back.
    private mutating func pullGesture() {
        let depth = int(100...2000)
        var offset = 0
        line("scroll", ["offsetY": "0"], after: int(500...4000))
        while offset > -depth {
            offset -= int(50...250)
            line("scroll", ["offsetY": LogGenerator.tenths(offset)], after: 16)
        }
        line("endDragging", after: 16)
        let refreshing = depth > 1100
        if refreshing && chance(30) {
            line("endRefreshing", after: int(300...1500))
        }
        // Settling back; for a refresh still running, a pause past 2 s fires its timer.
        let pause = refreshing && chance(70) ? int(2100...3000) : int(16...400)
        line("scroll", ["offsetY": LogGenerator.tenths(offset / 2)], after: pause)
        line("scroll", ["offsetY": "0"], after: 16)
        if chance(10) { line("endRefreshing", after: int(16...200)) }
    }

    /// A press on a cell, the peek growing, then a commit at a point or a cancel.
    private mutating func peek() {
        let cellX = int(0...200), cellY = int(0...1200), width = int(80...200), height = int(80...240)
        line("pressBegan", ["x": String(cellX + int(0...width)), "y": String(cellY + int(0...height)),
                            "onCell": chance(90) ? "true" : "false", "cellX": String(cellX), "cellY": String(cellY),
                            "cellWidth": String(width), "cellHeight": String(height)], after: int(500...5000))
        let steps = int(2...12)
        for k in 1...steps {
            line("previewUpdate", ["progress": LogGenerator.decimal(k * 1000 / steps, places: 3),
                                   "ended": k == steps ? "true" : "false"], after: 16)
        }
        if chance(20) {
            line("cancel", after: int(16...300))
            return
        }
        let moves = int(1...10)
        for k in 1...moves {
            line("commitUpdate", ["progress": LogGenerator.decimal(k * 1000 / moves, places: 3),
                                  "ended": k == moves ? "true" : "false",
                                  "x": String(cellX + int(-20...width + 20)), "y": String(cellY + int(-20...height + 20))],
                 after: 16)
        }
    }

    /// A stretch of watching the video: mostly the periodic time observer's ticks (four a
    /// second), then one of the things a viewer or the system does: pause and play, a seek
    /// (which buffers), a stall (one in five outlasts the 10 s buffering limit), the volume
    /// (sometimes all the way down, which mutes), mute, fullscreen, picture in picture, a
    /// phone call that resumes or not, the end of the item and a replay.
    private mutating func watch(_ position: inout Int) {
        for _ in 0..<int(4...80) {
            position += 250
            line("tick", ["seconds": LogGenerator.decimal(position, places: 3)], after: 250)
        }
        switch int(0...99) {
        case 0..<15:
            line("pause", after: int(100...400))
            line("play", after: int(500...8000))
        case 15..<30:
            position = int(0...590_000)
            line("seek", ["to": LogGenerator.decimal(position, places: 3)], after: int(100...400))
            line("likelyToKeepUp", after: int(100...1500))
        case 30..<40:
            line("stalled", after: int(16...250))
            if chance(20) {
                line("likelyToKeepUp", after: int(10_500...14_000))  // too late: the player gave up
                line("play", after: int(500...3000))
            } else {
                line("likelyToKeepUp", after: int(200...4000))
            }
        case 40..<55:
            let level = chance(15) ? 0 : int(1...100)
            line("volumeChanged", ["level": LogGenerator.decimal(level, places: 2)], after: int(100...600))
            if level == 0 { line("unmute", after: int(500...4000)) }
        case 55..<65:
            line("mute", after: int(100...600))
            line("unmute", after: int(1000...9000))
        case 65..<75:
            line("enterFullscreen", after: int(100...600))
            line("exitFullscreen", after: int(5000...60000))
        case 75..<85:
            line("startPictureInPicture", after: int(100...600))
            line("stopPictureInPicture", after: int(5000...60000))
        case 85..<93:
            line("interruptionBegan", after: int(100...600))
            line("interruptionEnded", ["shouldResume": chance(70) ? "true" : "false"], after: int(5000...120_000))
            line("play", after: int(100...600))
        default:
            line("reachedEnd", after: int(100...600))
            line("replay", after: int(1000...5000))
            position = 0
        }
    }

    /// A pan on one of four interleaved views (cases): drag, release, then a snap back or a
    /// fling caught by the next pan (views never leave the screen, so no case ends).
    private mutating func swipe() {
        let caseKey = "view" + String(int(1...4))
        var x = int(100...300), y = int(100...600)
        line("panBegan", ["x": String(x), "y": String(y)], after: int(200...2000), caseKey: caseKey)
        for _ in 0..<int(3...30) {
            x += int(-15...15)
            y += int(-10...30)
            line("panChanged", ["x": String(x), "y": String(y)], after: 16, caseKey: caseKey)
        }
        line("panEnded", ["vx": String(int(-900...900)), "vy": String(int(-900...900))], after: 16, caseKey: caseKey)
        if chance(60) { line("snapped", after: int(200...600), caseKey: caseKey) }
    }

    /// Failure messages a payment service gives; "" is a failure without one.
    private static let failureMessages = [
        "Your card was declined.", "Your card has expired.", "Your card has insufficient funds.",
        "Your card's security code is incorrect.", "",
    ]

    /// One visit to the checkout screen, a case of its own (the receipt ends a run, and the
    /// next order opens a new screen): the user reads the order and taps Pay (now and then a
    /// second tap lands on the spinner, ignored); the service answers that the payment went
    /// through (most attempts) or that it failed, with a message or without; or it never
    /// answers, and the screen's 10 s timer gives up, fired by the next line (the service's
    /// late refusal, which the screen no longer waits for, the user closing the banner, or the
    /// user's retry). After a failure the user closes the banner or not, then retries or
    /// leaves.
    mutating func checkout(_ visit: Int) {
        let caseKey = "visit " + String(visit)
        ms += int(30_000...300_000)  // browsing between orders
        var delay = int(2_000...40_000)  // reading the order before the first tap
        for _ in 0..<4 {
            line("tapPay", after: delay, caseKey: caseKey)
            if chance(5) { line("tapPay", after: int(150...600), caseKey: caseKey) }
            let answer = int(0...99)
            if answer < 80 {
                line("paid", after: int(600...4_000), caseKey: caseKey)
                return
            }
            delay = int(2_000...15_000)  // reading the banner before a retry
            if answer < 95 {
                let message = LogGenerator.failureMessages[int(0...LogGenerator.failureMessages.count - 1)]
                line("failed", ["message": "\"" + message + "\""], after: int(600...4_000), caseKey: caseKey)
                if chance(50) { line("closeBanner", after: int(1_000...6_000), caseKey: caseKey) }
            } else {
                let late = int(10_500...25_000)
                switch int(0...2) {
                case 0: line("failed", ["message": "\"The request timed out.\""], after: late, caseKey: caseKey)
                case 1: line("closeBanner", after: late, caseKey: caseKey)
                default:
                    delay = late  // the retry is the line that fires the timer
                    continue
                }
            }
            if chance(20) { return }  // leaves without paying
        }
    }
}
