import Statecraft
import Testing

/// Pull to refresh: every rule of its interface (the Interactions article restates the contract),
/// replayed through an event log.
@Suite struct PullToRefreshRuleTests {
    /// Pull fully at time `t` and release: the case is refreshing from `t`.
    static func refresh(at t: Double, case key: String? = nil) -> [String] {
        let c = key.map { #""case": "\#($0)", "# } ?? ""
        return [
            #"{\#(c)"time": \#(t), "event": "scroll", "offsetY": -120}"#,
            #"{\#(c)"time": \#(t), "event": "endDragging"}"#,
            #"{\#(c)"expect": {"state": "refreshing", "vars": {"insetTop": 110}, "outputs": ["didRefresh"]}}"#,
        ]
    }

    // "`idle` | state | initial"; "`progress` ... starts 0"; "`insetTop` ... starts 0"
    @Test func startsIdleWithNothingPulled() throws {
        try replayPassing("PullToRefresh", [
            #"{"expect": {"state": "idle", "vars": {"progress": 0, "insetTop": 0}, "outputs": []}}"#,
        ])
    }

    // "`scroll`, in every state: `progress = min(max(max(-(offsetY + insetTop), 0) / 110, 0), 1)`" — idle and pulling.
    @Test func scrollComputesProgressInIdleAndPulling() throws {
        let r = try replayPassing("PullToRefresh", [
            #"{"event": "scroll", "offsetY": -55}"#,
            #"{"expect": {"state": "pulling", "vars": {"progress": 0.5}}}"#,
            #"{"event": "scroll", "offsetY": -33}"#,
            #"{"expect": {"state": "pulling", "vars": {"progress": 0.3}}}"#,
            #"{"event": "scroll", "offsetY": -110}"#,
            #"{"expect": {"vars": {"progress": 1}}}"#,
            #"{"event": "scroll", "offsetY": -500}"#,
            #"{"expect": {"state": "pulling", "vars": {"progress": 1}}}"#,
            #"{"event": "scroll", "offsetY": 40}"#,
            #"{"expect": {"state": "idle", "vars": {"progress": 0}}}"#,
            #"{"event": "scroll", "offsetY": 80}"#,
            #"{"expect": {"state": "idle", "vars": {"progress": 0}}}"#,
            #"{"event": "scroll", "offsetY": -1.1}"#,
            #"{"expect": {"state": "pulling", "vars": {"progress": 0.01}}}"#,
        ])
        #expect(try r.run.applied == 7)
        #expect(try r.run.outputCount == 0)
    }

    // "`scroll`, in every state" — in `refreshing` the formula includes insetTop (110) and the state does not follow.
    @Test func scrollComputesProgressWhileRefreshingWithTheInset() throws {
        let r = try replayPassing("PullToRefresh", Self.refresh(at: 0) + [
            #"{"event": "scroll", "offsetY": -165}"#,
            #"{"expect": {"state": "refreshing", "vars": {"progress": 0.5, "insetTop": 110}}}"#,
            #"{"event": "scroll", "offsetY": -110}"#,
            #"{"expect": {"state": "refreshing", "vars": {"progress": 0}}}"#,
            #"{"event": "scroll", "offsetY": 0}"#,
            #"{"expect": {"state": "refreshing", "vars": {"progress": 0}}}"#,
            #"{"event": "scroll", "offsetY": -220}"#,
            #"{"expect": {"state": "refreshing", "vars": {"progress": 1}}}"#,
            #"{"event": "scroll", "offsetY": -400}"#,
            #"{"expect": {"state": "refreshing", "vars": {"progress": 1}, "outputs": []}}"#,
        ])
        #expect(try r.run.state == "refreshing")
        // Counter-check: the formula without insetTop would give 1 for offsetY -165.
        let wrong = try replay("PullToRefresh", Self.refresh(at: 0) + [
            #"{"event": "scroll", "offsetY": -165}"#,
            #"{"expect": {"vars": {"progress": 1}}}"#,
        ])
        #expect(wrong.failures == ["5 vars.progress: 1 / 0.5"])
    }

    // "In `idle`/`pulling` the state follows: `pulling` when `progress > 0`, `idle` when it is 0."
    @Test func idleAndPullingFollowProgress() throws {
        let r = try replayPassing("PullToRefresh", [
            #"{"event": "scroll", "offsetY": 0}"#,
            #"{"expect": {"state": "idle", "vars": {"progress": 0}}}"#,
            #"{"event": "scroll", "offsetY": -0.011}"#,
            #"{"expect": {"state": "pulling", "vars": {"progress": 0.0001}}}"#,
            #"{"event": "scroll", "offsetY": -50}"#,
            #"{"expect": "pulling"}"#,
            #"{"event": "scroll", "offsetY": 0}"#,
            #"{"expect": {"state": "idle", "vars": {"progress": 0}}}"#,
            #"{"event": "scroll", "offsetY": -10}"#,
            #"{"event": "scroll", "offsetY": 10}"#,
            #"{"expect": {"state": "idle", "vars": {"progress": 0}}}"#,
        ])
        #expect(try r.run.applied == 6)
        #expect(try r.run.ignored == 0)
    }

    // "`endDragging` when not refreshing and `progress >= 1` → `refreshing`: output `didRefresh`, `insetTop += 110`. Otherwise nothing happens."
    @Test func endDraggingRefreshesOnlyAtFullProgress() throws {
        let r = try replayPassing("PullToRefresh", [
            #"{"case": "0.99", "event": "scroll", "offsetY": -108.9}"#,
            #"{"case": "0.99", "expect": {"vars": {"progress": 0.99}}}"#,
            #"{"case": "0.99", "event": "endDragging"}"#,
            #"{"case": "0.99", "expect": {"state": "pulling", "vars": {"progress": 0.99, "insetTop": 0}, "outputs": []}}"#,
            #"{"case": "1", "event": "scroll", "offsetY": -110}"#,
            #"{"case": "1", "expect": {"vars": {"progress": 1}}}"#,
            #"{"case": "1", "event": "endDragging"}"#,
            #"{"case": "1", "expect": {"state": "refreshing", "vars": {"insetTop": 110}, "outputs": ["didRefresh"]}}"#,
            #"{"case": "idle", "event": "endDragging"}"#,
            #"{"case": "idle", "expect": {"state": "idle", "vars": {"insetTop": 0}, "outputs": []}}"#,
        ])
        #expect(try r.run("0.99").ignored == 1)
        #expect(try r.run("idle").ignored == 1)
        #expect(try r.run("1").outputTexts == ["didRefresh"])
        // Counter-check: claiming 0.99 refreshes is reported with what happened.
        let wrong = try replay("PullToRefresh", [
            #"{"event": "scroll", "offsetY": -108.9}"#,
            #"{"event": "endDragging"}"#,
            #"{"expect": {"state": "refreshing", "outputs": ["didRefresh"]}}"#,
        ])
        #expect(wrong.failures == [#"3 state: refreshing / pulling"#, #"3 outputs: ["didRefresh"] / []"#])
    }

    // "`endDragging` when not refreshing" — a release while refreshing does nothing (no second didRefresh, no second inset).
    @Test func endDraggingWhileRefreshingDoesNothing() throws {
        let r = try replayPassing("PullToRefresh", Self.refresh(at: 0) + [
            #"{"event": "scroll", "offsetY": -400}"#,
            #"{"event": "endDragging"}"#,
            #"{"expect": {"state": "refreshing", "vars": {"insetTop": 110, "progress": 1}, "outputs": []}}"#,
        ])
        #expect(try r.run.ignored == 1)
        #expect(try r.run.outputCount == 1)
    }

    // "Refreshing ends 2 s after it began ...: `insetTop -= 110` → `idle`." — just before, at and after the deadline.
    @Test func refreshingEndsTwoSecondsAfterItBegan() throws {
        let r = try replayPassing("PullToRefresh", Self.refresh(at: 1.25) + [
            #"{"time": 3.249, "expect": {"state": "refreshing", "vars": {"insetTop": 110}}}"#,
            #"{"time": 3.25, "expect": {"state": "idle", "vars": {"insetTop": 0}, "outputs": []}}"#,
            #"{"time": 3.5, "expect": {"state": "idle", "vars": {"insetTop": 0}}}"#,
            #"{"time": 10, "expect": {"state": "idle", "vars": {"insetTop": 0}}}"#,
        ])
        #expect(try r.run.timersFired == 1)
        // Each side on its own: a line at the deadline fires the timer before it is applied; a line just before does not.
        let before = try replayPassing("PullToRefresh", Self.refresh(at: 1.25) + [
            #"{"time": 3.249, "event": "scroll", "offsetY": -165}"#,
        ])
        #expect(try before.run.state == "refreshing")
        #expect(try before.run.timersFired == 0)
        #expect(try before.run.value("progress") == .number(0.5))
        let at = try replayPassing("PullToRefresh", Self.refresh(at: 1.25) + [
            #"{"time": 3.25, "event": "scroll", "offsetY": -165}"#,
        ])
        #expect(try at.run.timersFired == 1)
        #expect(try at.run.state == "pulling", "the timer ends the refresh, then the scroll (inset 0) pulls 1")
        #expect(try at.run.value("progress") == .number(1))
        let after = try replayPassing("PullToRefresh", Self.refresh(at: 1.25) + [
            #"{"time": 4, "event": "scroll", "offsetY": -55}"#,
        ])
        #expect(try after.run.state == "pulling")
        #expect(try after.run.value("progress") == .number(0.5))
        #expect(try after.run.value("insetTop") == .number(0))
    }

    // "or earlier on `endRefreshing` ... Leaving `refreshing` cancels the timer" — the inset is restored once, not twice.
    @Test func endRefreshingEarlierCancelsTheTimer() throws {
        let r = try replayPassing("PullToRefresh", Self.refresh(at: 1) + [
            #"{"time": 2, "event": "endRefreshing"}"#,
            #"{"expect": {"state": "idle", "vars": {"insetTop": 0}, "outputs": []}}"#,
            #"{"time": 3, "expect": {"state": "idle", "vars": {"insetTop": 0}}}"#,
            #"{"time": 100, "expect": {"state": "idle", "vars": {"insetTop": 0}}}"#,
        ])
        #expect(try r.run.timersFired == 0)
        #expect(try r.run.value("insetTop") == .number(0))
        // Counter-check: the seed's double shrink (-110) is reported as wrong.
        let wrong = try replay("PullToRefresh", Self.refresh(at: 1) + [
            #"{"time": 2, "event": "endRefreshing"}"#,
            #"{"time": 3, "expect": {"vars": {"insetTop": -110}}}"#,
        ])
        #expect(wrong.failures == ["5 vars.insetTop: -110 / 0"])
        // A second refresh after the early end gets its own full 2 s.
        let again = try replayPassing("PullToRefresh", Self.refresh(at: 1) + [
            #"{"time": 2, "event": "endRefreshing"}"#,
        ] + Self.refresh(at: 2.5) + [
            #"{"time": 3, "expect": "refreshing"}"#,
            #"{"time": 4.499, "expect": {"state": "refreshing", "vars": {"insetTop": 110}}}"#,
            #"{"time": 4.5, "expect": {"state": "idle", "vars": {"insetTop": 0}}}"#,
        ])
        #expect(try again.run.timersFired == 1)
    }

    // "`endRefreshing` outside `refreshing` is ignored"
    @Test func endRefreshingOutsideRefreshingIsIgnored() throws {
        let r = try replayPassing("PullToRefresh", [
            #"{"event": "endRefreshing"}"#,
            #"{"expect": {"state": "idle", "vars": {"insetTop": 0}}}"#,
            #"{"event": "scroll", "offsetY": -55}"#,
            #"{"event": "endRefreshing"}"#,
            #"{"expect": {"state": "pulling", "vars": {"insetTop": 0, "progress": 0.5}}}"#,
        ] + Self.refresh(at: 1) + [
            #"{"time": 3, "expect": "idle"}"#,
            #"{"event": "endRefreshing"}"#,
            #"{"expect": {"state": "idle", "vars": {"insetTop": 0}, "outputs": []}}"#,
        ])
        #expect(try r.run.ignored == 3)
        #expect(try r.run.value("insetTop") == .number(0))
    }

    // "`progress` keeps its value until the next `scroll` recomputes it."
    @Test func progressKeepsItsValueAfterARefreshUntilTheNextScroll() throws {
        let r = try replayPassing("PullToRefresh", Self.refresh(at: 0) + [
            #"{"time": 2, "expect": {"state": "idle", "vars": {"progress": 1, "insetTop": 0}}}"#,
            #"{"event": "scroll", "offsetY": 0}"#,
            #"{"expect": {"state": "idle", "vars": {"progress": 0}}}"#,
            // the value computed while refreshing (with the inset) is the one kept
        ] + Self.refresh(at: 3) + [
            #"{"event": "scroll", "offsetY": -165}"#,
            #"{"event": "endRefreshing"}"#,
            #"{"expect": {"state": "idle", "vars": {"progress": 0.5, "insetTop": 0}}}"#,
            #"{"event": "scroll", "offsetY": -165}"#,
            #"{"expect": {"state": "pulling", "vars": {"progress": 1}}}"#,
        ])
        #expect(try r.run.outputCount == 2)
    }

    // "`endDragging` when not refreshing and `progress >= 1`" — a kept progress of 1 in idle starts a new refresh.
    @Test func endDraggingRightAfterARefreshUsesTheKeptProgress() throws {
        let r = try replayPassing("PullToRefresh", Self.refresh(at: 0) + [
            #"{"time": 2, "event": "endDragging"}"#,
            #"{"expect": {"state": "refreshing", "vars": {"insetTop": 110, "progress": 1}, "outputs": ["didRefresh"]}}"#,
            #"{"time": 4, "expect": {"state": "idle", "vars": {"insetTop": 0}}}"#,
        ])
        #expect(try r.run.timersFired == 2)
        #expect(try r.run.outputTexts == ["didRefresh", "didRefresh"])
    }
}
