import Statecraft
import Testing

/// Swipe to dismiss: every rule of its interface (the Interactions article restates the contract),
/// replayed through an event log.
@Suite struct SwipeToDismissRuleTests {
    static func begin(_ x: Double = 160, _ y: Double = 300) -> String {
        #"{"event": "panBegan", "x": \#(x), "y": \#(y)}"#
    }

    static func end(_ vx: Double, _ vy: Double) -> String {
        #"{"event": "panEnded", "vx": \#(vx), "vy": \#(vy)}"#
    }

    /// The state a drag released with (vx, vy) ends in.
    static func release(_ vx: Double, _ vy: Double) throws -> String {
        try replayPassing("SwipeToDismiss", [begin(), end(vx, vy)]).run.state
    }

    // "`idle` | state | initial"; "`anchorX, anchorY` ... both start 0"
    @Test func startsIdleWithTheAnchorAtZero() throws {
        try replayPassing("SwipeToDismiss", [
            #"{"expect": {"state": "idle", "vars": {"anchorX": 0, "anchorY": 0}, "outputs": []}}"#,
        ])
    }

    // "`panBegan` in `idle`, `snappingBack` or `flinging` → `dragging` (all behaviours removed); anchor = (x, y)."
    @Test func panBeganStartsADragWithTheAnchorFromIdleSnappingBackAndFlinging() throws {
        let r = try replayPassing("SwipeToDismiss", [
            Self.begin(10, 20),
            #"{"expect": {"state": "dragging", "vars": {"anchorX": 10, "anchorY": 20}}}"#,
            Self.end(0, -800),
            #"{"expect": "snappingBack"}"#,
            Self.begin(30, 40),
            #"{"expect": {"state": "dragging", "vars": {"anchorX": 30, "anchorY": 40}}}"#,
            Self.end(0, 800),
            #"{"expect": "flinging"}"#,
            Self.begin(50.5, -60.25),
            #"{"expect": {"state": "dragging", "vars": {"anchorX": 50.5, "anchorY": -60.25}, "outputs": []}}"#,
        ])
        #expect(try r.run.applied == 5)
        // In dragging, panBegan is not handled: the anchor stays.
        let again = try replayPassing("SwipeToDismiss", [
            Self.begin(10, 20),
            Self.begin(70, 80),
            #"{"expect": {"state": "dragging", "vars": {"anchorX": 10, "anchorY": 20}}}"#,
        ])
        #expect(try again.run.ignored == 1)
    }

    // "`panChanged` in `dragging`: anchor = (x, y)."
    @Test func panChangedMovesTheAnchor() throws {
        let r = try replayPassing("SwipeToDismiss", [
            #"{"event": "panChanged", "x": 1, "y": 2}"#,
            #"{"expect": {"state": "idle", "vars": {"anchorX": 0, "anchorY": 0}}}"#,
            Self.begin(160, 300),
            #"{"event": "panChanged", "x": 170, "y": 280}"#,
            #"{"expect": {"state": "dragging", "vars": {"anchorX": 170, "anchorY": 280}}}"#,
            #"{"event": "panChanged", "x": -5, "y": 900.5}"#,
            #"{"expect": {"state": "dragging", "vars": {"anchorX": -5, "anchorY": 900.5}}}"#,
            Self.end(0, 800),
            #"{"event": "panChanged", "x": 1, "y": 2}"#,
            #"{"expect": {"state": "flinging", "vars": {"anchorX": -5, "anchorY": 900.5}}}"#,
        ])
        #expect(try r.run.ignored == 2)
        // Counter-check (the Swift 3 port never moves the anchor): that claim is reported.
        let wrong = try replay("SwipeToDismiss", [
            Self.begin(160, 300),
            #"{"event": "panChanged", "x": 170, "y": 280}"#,
            #"{"expect": {"vars": {"anchorX": 160, "anchorY": 300}}}"#,
        ])
        #expect(wrong.failures == ["3 vars.anchorX: 160 / 170", "3 vars.anchorY: 300 / 280"])
    }

    // "Note the boundary: velocity (500, 500) is exactly 45° and flings."
    @Test func exactlyFortyFiveDegreesFlings() throws {
        #expect(try Self.release(500, 500) == "flinging")
        #expect(try Self.release(501, 500) == "snappingBack")
        #expect(try Self.release(500, 501) == "flinging")
        // Counter-check through expectations on both sides.
        let wrong = try replay("SwipeToDismiss", [
            #"{"case": "45", "event": "panBegan", "x": 0, "y": 0}"#,
            #"{"case": "45", "event": "panEnded", "vx": 500, "vy": 500}"#,
            #"{"case": "45", "expect": "snappingBack"}"#,
            #"{"case": "past", "event": "panBegan", "x": 0, "y": 0}"#,
            #"{"case": "past", "event": "panEnded", "vx": 501, "vy": 500}"#,
            #"{"case": "past", "expect": "flinging"}"#,
        ])
        #expect(wrong.failures == ["3 state: snappingBack / flinging", "6 state: flinging / snappingBack"])
    }

    // "if `abs(atan2(vy, vx) - pi/2) > pi/4` (not moving downward within 45°) → `snappingBack`, else → `flinging`."
    @Test func panEndedFlingsDownwardAndSnapsBackOtherwise() throws {
        #expect(try Self.release(0, 800) == "flinging", "straight down")
        #expect(try Self.release(0, 0.001) == "flinging")
        #expect(try Self.release(-300, 800) == "flinging", "down and to the left, within 45°")
        #expect(try Self.release(0, -800) == "snappingBack", "straight up")
        #expect(try Self.release(800, -200) == "snappingBack")
        #expect(try Self.release(800, 0) == "snappingBack", "sideways")
        #expect(try Self.release(-800, 0) == "snappingBack")
        #expect(try Self.release(-501, 500) == "snappingBack")
        #expect(try Self.release(0, 0) == "snappingBack", "no velocity: atan2(0, 0) = 0 is not downward")
    }

    // The mirror of the 45° boundary: (-500, 500) is exactly 45° to the other side of straight down.
    @Test func exactlyFortyFiveDegreesToTheLeftFlings() throws {
        // abs(atan2(500, -500) - pi/2) is pi/4 in exact arithmetic; in doubles it may land one ulp off.
        #expect(try Self.release(-500, 500) == "flinging")
    }

    // "`snapped` in `snappingBack` → `idle`."
    @Test func snappedReturnsToIdle() throws {
        let r = try replayPassing("SwipeToDismiss", [
            #"{"event": "snapped"}"#,
            Self.begin(),
            #"{"event": "snapped"}"#,
            Self.end(800, -200),
            #"{"event": "snapped"}"#,
            #"{"expect": {"state": "idle", "outputs": []}}"#,
            Self.begin(),
            Self.end(0, 800),
            #"{"event": "snapped"}"#,
            #"{"expect": "flinging"}"#,
        ])
        #expect(try r.run.ignored == 3)
    }

    // "`leftScreen` in `flinging` → `dismissed`, output `dismissed`."
    @Test func leftScreenDismissesWithOutputDismissed() throws {
        let r = try replayPassing("SwipeToDismiss", [
            #"{"event": "leftScreen"}"#,
            Self.begin(),
            #"{"event": "leftScreen"}"#,
            Self.end(800, -200),
            #"{"event": "leftScreen"}"#,
            #"{"expect": {"state": "snappingBack", "outputs": []}}"#,
            Self.begin(),
            Self.end(0, 800),
            #"{"event": "leftScreen"}"#,
            #"{"expect": {"state": "dismissed", "outputs": ["dismissed"]}}"#,
        ])
        let run = try r.run
        #expect(run.finished)
        #expect(run.outputTexts == ["dismissed"])
        #expect(run.ignored == 3)
    }

    // "Nothing leaves `dismissed`." — "Final states. Entering a final state ends the run: later events are ignored and counted (rejected with --strict)"
    @Test func nothingLeavesDismissed() throws {
        let dismissed = [Self.begin(160, 300), Self.end(0, 800), #"{"event": "leftScreen"}"#]
        let later = [
            Self.begin(1, 1),
            #"{"event": "panChanged", "x": 2, "y": 2}"#,
            Self.end(0, -800),
            #"{"event": "snapped"}"#,
            #"{"event": "leftScreen"}"#,
        ]
        let r = try replayPassing("SwipeToDismiss", dismissed + later + [
            #"{"expect": {"state": "dismissed", "vars": {"anchorX": 160, "anchorY": 300}, "outputs": ["dismissed"]}}"#,
        ])
        let run = try r.run
        #expect(run.state == "dismissed" && run.finished)
        #expect(run.applied == 3)
        #expect(run.ignored == 5)
        #expect(run.outputCount == 1)
        let strict = try replay("SwipeToDismiss", dismissed + later, strict: true)
        #expect(try strict.run.rejected == 5)
        #expect(try strict.run.ignored == 0)
        #expect(try strict.run.rejections.map(\.line) == [4, 5, 6, 7, 8])
        #expect(try strict.run.rejections.allSatisfy { $0.message.contains("final state 'dismissed'") })
        #expect(!strict.report.passed)
    }
}
