import Statecraft
import Testing

/// Drawer: every rule of its interface (the Interactions article restates the contract),
/// replayed through an event log.
@Suite struct DrawerRuleTests {
    // "Initial state `open`, with `directionTop = true`" (and the view at rest: originY 0).
    @Test func startsOpenWithDirectionTopTrue() throws {
        let r = try replayPassing("Drawer", [
            #"{"expect": {"state": "open", "vars": {"directionTop": true, "originY": 0}}}"#,
        ])
        let run = try r.run
        #expect(run.state == "open")
        #expect(run.value("directionTop") == .bool(true))
        #expect(run.value("originY") == .number(0))
    }

    // "`touchBegan` with `onContent` in `open`, `closed` or `dragging` → `dragging`; remember the touch's y and the current `originY`"
    @Test func touchBeganOnContentStartsADragFromEveryState() throws {
        let r = try replayPassing("Drawer", [
            // from open (originY 0)
            #"{"case": "open", "event": "touchBegan", "y": 300, "onContent": true}"#,
            #"{"case": "open", "expect": {"state": "dragging", "vars": {"originY": 0}}}"#,
            #"{"case": "open", "event": "touchMoved", "y": 250}"#,
            #"{"case": "open", "expect": {"vars": {"originY": -50}}}"#,
            // from closed (originY -617)
            #"{"case": "closed", "event": "touchBegan", "y": 500, "onContent": true}"#,
            #"{"case": "closed", "event": "touchEnded", "y": 10}"#,
            #"{"case": "closed", "expect": {"state": "closed", "vars": {"originY": -617}}}"#,
            #"{"case": "closed", "event": "touchBegan", "y": 20, "onContent": true}"#,
            #"{"case": "closed", "expect": {"state": "dragging", "vars": {"originY": -617}}}"#,
            #"{"case": "closed", "event": "touchMoved", "y": 120}"#,
            #"{"case": "closed", "expect": {"vars": {"originY": -517}}}"#,
            // from dragging: the drag restarts from where the view is now
            #"{"case": "dragging", "event": "touchBegan", "y": 300, "onContent": true}"#,
            #"{"case": "dragging", "event": "touchMoved", "y": 100}"#,
            #"{"case": "dragging", "expect": {"vars": {"originY": -200}}}"#,
            #"{"case": "dragging", "event": "touchBegan", "y": 50, "onContent": true}"#,
            #"{"case": "dragging", "expect": {"state": "dragging", "vars": {"originY": -200}}}"#,
            #"{"case": "dragging", "event": "touchMoved", "y": 60}"#,
            #"{"case": "dragging", "expect": {"vars": {"originY": -190}}}"#,
        ])
        #expect(try r.run("open").applied == 2)
        #expect(try r.run("dragging").applied == 4)
        #expect(try r.run("dragging").ignored == 0)
        // Counter-check: with the old start kept, the last move would give -200 + (60 - 300) = -440.
        #expect(try r.run("dragging").value("originY") == .number(-190))
    }

    // "`onContent`: ... otherwise the seed ignores it" — in every state.
    @Test func touchBeganOffTheContentIsIgnoredInEveryState() throws {
        let r = try replayPassing("Drawer", [
            #"{"case": "open", "event": "touchBegan", "y": 300, "onContent": false}"#,
            #"{"case": "open", "expect": {"state": "open", "vars": {"originY": 0}}}"#,
            #"{"case": "closed", "event": "touchBegan", "y": 300, "onContent": true}"#,
            #"{"case": "closed", "event": "touchEnded", "y": 50}"#,
            #"{"case": "closed", "event": "touchBegan", "y": 20, "onContent": false}"#,
            #"{"case": "closed", "expect": {"state": "closed", "vars": {"originY": -617}}}"#,
            #"{"case": "dragging", "event": "touchBegan", "y": 300, "onContent": true}"#,
            #"{"case": "dragging", "event": "touchMoved", "y": 200}"#,
            #"{"case": "dragging", "event": "touchBegan", "y": 10, "onContent": false}"#,
            #"{"case": "dragging", "expect": {"state": "dragging", "vars": {"originY": -100}}}"#,
            // the drag still measures from its own start (300), not from the ignored touch (10)
            #"{"case": "dragging", "event": "touchMoved", "y": 150}"#,
            #"{"case": "dragging", "expect": {"vars": {"originY": -150}}}"#,
        ])
        #expect(try r.run("open").ignored == 1)
        #expect(try r.run("closed").ignored == 1)
        #expect(try r.run("dragging").ignored == 1)
        #expect(try r.run("dragging").applied == 3)
    }

    // "`touchMoved` in `dragging`: `originY = startOriginY + (y - startTouchY)`, but never above 0 ... No lower clamp."
    @Test func touchMovedFollowsTheFingerClampedAtZeroWithNoLowerClamp() throws {
        let r = try replayPassing("Drawer", [
            // from closed: start -617 at y 30; y 647 lands exactly on 0
            #"{"event": "touchBegan", "y": 300, "onContent": true}"#,
            #"{"event": "touchEnded", "y": 0}"#,
            #"{"event": "touchBegan", "y": 30, "onContent": true}"#,
            #"{"event": "touchMoved", "y": 646}"#,
            #"{"expect": {"vars": {"originY": -1}}}"#,
            #"{"event": "touchMoved", "y": 647}"#,
            #"{"expect": {"vars": {"originY": 0}}}"#,
            #"{"event": "touchMoved", "y": 648}"#,
            #"{"expect": {"vars": {"originY": 0}}}"#,
            #"{"event": "touchMoved", "y": 5000}"#,
            #"{"expect": {"vars": {"originY": 0}}}"#,
            // clamping does not move the start: coming back down is measured from it
            #"{"event": "touchMoved", "y": 646.5}"#,
            #"{"expect": {"vars": {"originY": -0.5}}}"#,
            // no lower clamp: far above the top of the screen
            #"{"event": "touchMoved", "y": -1000}"#,
            #"{"expect": {"state": "dragging", "vars": {"originY": -1647}}}"#,
        ])
        #expect(try r.run.value("originY") == .number(-1647))
        // Counter-check: a wrong lower bound is reported with the value the formula gives.
        let wrong = try replay("Drawer", [
            #"{"event": "touchBegan", "y": 600, "onContent": true}"#,
            #"{"event": "touchMoved", "y": -2000}"#,
            #"{"expect": {"vars": {"originY": -617}}}"#,
        ])
        #expect(wrong.failures == ["3 vars.originY: -617 / -2600"])
    }

    // "`touchEnded`/`touchCancelled` in `dragging`: boundaryY = directionTop ? 100 : 567; directionTop = y < boundaryY" — first release: directionTop is still true, so y < 100.
    @Test func firstReleaseUsesTheTopBoundary() throws {
        let r = try replayPassing("Drawer", [
            #"{"case": "below", "event": "touchBegan", "y": 300, "onContent": true}"#,
            #"{"case": "below", "event": "touchEnded", "y": 99.9}"#,
            #"{"case": "below", "expect": {"state": "closed", "vars": {"directionTop": true, "originY": -617}}}"#,
            #"{"case": "at", "event": "touchBegan", "y": 300, "onContent": true}"#,
            #"{"case": "at", "event": "touchEnded", "y": 100}"#,
            #"{"case": "at", "expect": {"state": "open", "vars": {"directionTop": false, "originY": 0}}}"#,
            // well below 567: a bottom boundary would have closed this one
            #"{"case": "middle", "event": "touchBegan", "y": 300, "onContent": true}"#,
            #"{"case": "middle", "event": "touchEnded", "y": 300}"#,
            #"{"case": "middle", "expect": {"state": "open", "vars": {"directionTop": false}}}"#,
        ])
        #expect(try r.run("below").state == "closed")
        #expect(try r.run("at").state == "open")
        // Counter-check: claiming the release at exactly 100 closes is reported.
        let wrong = try replay("Drawer", [
            #"{"event": "touchBegan", "y": 300, "onContent": true}"#,
            #"{"event": "touchEnded", "y": 100}"#,
            #"{"expect": {"state": "closed", "vars": {"directionTop": true}}}"#,
        ])
        #expect(wrong.failures == ["3 state: closed / open", "3 vars.directionTop: true / false"])
    }

    // "boundaryY = directionTop ? boundaryAdjustmentY : viewHeight - boundaryAdjustmentY" — after it opened, y < 567 closes.
    @Test func releaseAfterOpeningUsesTheBottomBoundary() throws {
        let opened = [
            #"{"event": "touchBegan", "y": 300, "onContent": true}"#,
            #"{"event": "touchEnded", "y": 300}"#,
            #"{"expect": {"state": "open", "vars": {"directionTop": false}}}"#,
            #"{"event": "touchBegan", "y": 300, "onContent": true}"#,
        ]
        let below = try replayPassing("Drawer", opened + [
            #"{"event": "touchEnded", "y": 566.9}"#,
            #"{"expect": {"state": "closed", "vars": {"directionTop": true, "originY": -617}}}"#,
        ])
        #expect(try below.run.state == "closed")
        let at = try replayPassing("Drawer", opened + [
            #"{"event": "touchEnded", "y": 567}"#,
            #"{"expect": {"state": "open", "vars": {"directionTop": false, "originY": 0}}}"#,
        ])
        #expect(try at.run.state == "open")
        // Counter-check: claiming 567 closes is reported.
        let wrong = try replay("Drawer", opened + [
            #"{"event": "touchEnded", "y": 567}"#,
            #"{"expect": "closed"}"#,
        ])
        #expect(wrong.failures == ["6 state: closed / open"])
    }

    // "directionTop = y < boundaryY" — after it closed, the boundary is 100 from the top again.
    @Test func releaseAfterClosingUsesTheTopBoundaryAgain() throws {
        let r = try replayPassing("Drawer", [
            #"{"event": "touchBegan", "y": 300, "onContent": true}"#,
            #"{"event": "touchEnded", "y": 300}"#,
            #"{"event": "touchBegan", "y": 300, "onContent": true}"#,
            #"{"event": "touchEnded", "y": 500}"#,
            #"{"expect": {"state": "closed", "vars": {"directionTop": true}}}"#,
            #"{"event": "touchBegan", "y": 20, "onContent": true}"#,
            #"{"event": "touchEnded", "y": 99.9}"#,
            #"{"expect": {"state": "closed", "vars": {"directionTop": true}}}"#,
            #"{"event": "touchBegan", "y": 20, "onContent": true}"#,
            #"{"event": "touchEnded", "y": 100}"#,
            #"{"expect": {"state": "open", "vars": {"directionTop": false}}}"#,
        ])
        #expect(try r.run.applied == 8)
    }

    // "`touchEnded(y: Number)`, `touchCancelled(y: Number)` | events | both handled the same way"
    @Test func touchCancelledBehavesLikeTouchEnded() throws {
        // The same four boundary releases, ended and cancelled, must reach the same states.
        for release in ["touchEnded", "touchCancelled"] {
            let r = try replayPassing("Drawer", [
                #"{"case": "first-below", "event": "touchBegan", "y": 300, "onContent": true}"#,
                #"{"case": "first-below", "event": "\#(release)", "y": 99.9}"#,
                #"{"case": "first-below", "expect": {"state": "closed", "vars": {"directionTop": true, "originY": -617}}}"#,
                #"{"case": "first-at", "event": "touchBegan", "y": 300, "onContent": true}"#,
                #"{"case": "first-at", "event": "\#(release)", "y": 100}"#,
                #"{"case": "first-at", "expect": {"state": "open", "vars": {"directionTop": false, "originY": 0}}}"#,
                #"{"case": "then-below", "event": "touchBegan", "y": 300, "onContent": true}"#,
                #"{"case": "then-below", "event": "\#(release)", "y": 300}"#,
                #"{"case": "then-below", "event": "touchBegan", "y": 300, "onContent": true}"#,
                #"{"case": "then-below", "event": "\#(release)", "y": 566.9}"#,
                #"{"case": "then-below", "expect": {"state": "closed", "vars": {"directionTop": true}}}"#,
                #"{"case": "then-at", "event": "touchBegan", "y": 300, "onContent": true}"#,
                #"{"case": "then-at", "event": "\#(release)", "y": 300}"#,
                #"{"case": "then-at", "event": "touchBegan", "y": 300, "onContent": true}"#,
                #"{"case": "then-at", "event": "\#(release)", "y": 567}"#,
                #"{"case": "then-at", "expect": {"state": "open", "vars": {"directionTop": false}}}"#,
            ])
            #expect(r.report.cases.map { $0.state } == ["closed", "open", "closed", "open"], "\(release)")
            #expect(r.report.cases.allSatisfy { $0.ignored == 0 }, "\(release)")
        }
    }

    // "An event that the current state does not handle is ignored": moves and releases outside a drag.
    @Test func movesAndReleasesOutsideADragAreIgnored() throws {
        let r = try replayPassing("Drawer", [
            #"{"event": "touchMoved", "y": 300}"#,
            #"{"event": "touchEnded", "y": 10}"#,
            #"{"event": "touchCancelled", "y": 10}"#,
            #"{"expect": {"state": "open", "vars": {"directionTop": true, "originY": 0}}}"#,
            #"{"event": "touchBegan", "y": 300, "onContent": true}"#,
            #"{"event": "touchEnded", "y": 10}"#,
            #"{"event": "touchMoved", "y": 300}"#,
            #"{"event": "touchEnded", "y": 500}"#,
            #"{"expect": {"state": "closed", "vars": {"directionTop": true, "originY": -617}}}"#,
        ])
        #expect(try r.run.ignored == 5)
        #expect(try r.run.applied == 2)
        let strict = try replay("Drawer", [#"{"event": "touchMoved", "y": 300}"#], strict: true)
        #expect(try strict.run.rejected == 1)
        #expect(try strict.run.ignored == 0)
    }

    // "entering a resting state sets the variables to where the animation ends": open 0, closed -617.
    @Test func restingStatesSetOriginYWhereTheViewComesToRest() throws {
        let r = try replayPassing("Drawer", [
            #"{"event": "touchBegan", "y": 300, "onContent": true}"#,
            #"{"event": "touchMoved", "y": 200}"#,
            #"{"event": "touchEnded", "y": 50}"#,
            #"{"expect": {"state": "closed", "vars": {"originY": -617}}}"#,
            #"{"event": "touchBegan", "y": 20, "onContent": true}"#,
            #"{"event": "touchMoved", "y": 220}"#,
            #"{"expect": {"vars": {"originY": -417}}}"#,
            #"{"event": "touchEnded", "y": 220}"#,
            #"{"expect": {"state": "open", "vars": {"originY": 0}}}"#,
        ])
        #expect(try r.run.outputCount == 0)
    }
}
