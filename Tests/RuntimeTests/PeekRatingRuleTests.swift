import Statecraft
import Testing

/// Peek rating: every rule of its interface (the Interactions article restates the contract),
/// replayed through an event log.
///
/// The cell is at (100, 200), 120 × 160: x in [100, 220), y in [200, 360), the halves meet at y 280.
@Suite struct PeekRatingRuleTests {
    static let press = #"{"event": "pressBegan", "x": 150, "y": 300, "onCell": true, "cellX": 100, "cellY": 200, "cellWidth": 120, "cellHeight": 160}"#
    static let toCommit = [press, #"{"event": "previewUpdate", "progress": 1, "ended": true}"#]

    static func update(_ x: Double, _ y: Double, ended: Bool = false) -> String {
        #"{"event": "commitUpdate", "progress": 0.5, "ended": \#(ended), "x": \#(x), "y": \#(y)}"#
    }

    /// The highlight for a point, judged in a fresh case.
    static func highlight(_ x: Double, _ y: Double) throws -> String? {
        let r = try replayPassing("PeekRating", toCommit + [update(x, y)])
        guard case .string(let s)? = try r.run.value("highlighted") else { return nil }
        return s
    }

    // "`idle` | state | initial"; "`scrollEnabled` ... starts true"; "`previewProgress` ... starts 0"; "`rating` ... starts `""`"
    @Test func startsIdleWithScrollingEnabled() throws {
        try replayPassing("PeekRating", [
            #"{"expect": {"state": "idle", "vars": {"scrollEnabled": true, "previewProgress": 0, "highlighted": "", "rating": ""}}}"#,
        ])
    }

    // "`pressBegan` in `idle`: if `onCell` → `preview`, `scrollEnabled = false`, remember the cell frame; otherwise ... stay `idle`."
    @Test func pressBeganOnACellBeginsThePreview() throws {
        let r = try replayPassing("PeekRating", [
            #"{"event": "pressBegan", "x": 20, "y": 20, "onCell": false, "cellX": 0, "cellY": 0, "cellWidth": 100, "cellHeight": 100}"#,
            #"{"expect": {"state": "idle", "vars": {"scrollEnabled": true, "previewProgress": 0}}}"#,
            Self.press,
            #"{"expect": {"state": "preview", "vars": {"scrollEnabled": false}, "outputs": []}}"#,
        ])
        #expect(try r.run.ignored == 1)
        #expect(try r.run.applied == 1)
        let wrong = try replay("PeekRating", [
            #"{"event": "pressBegan", "x": 20, "y": 20, "onCell": false, "cellX": 0, "cellY": 0, "cellWidth": 100, "cellHeight": 100}"#,
            #"{"expect": {"state": "preview", "vars": {"scrollEnabled": false}}}"#,
        ])
        #expect(wrong.failures == ["2 state: preview / idle", "2 vars.scrollEnabled: false / true"])
    }

    // "`previewUpdate` in `preview`: `previewProgress = progress`; when `ended` → `commit`."
    @Test func previewUpdateFollowsTheForceAndEndsInCommit() throws {
        let r = try replayPassing("PeekRating", [
            Self.press,
            #"{"event": "previewUpdate", "progress": 0.4, "ended": false}"#,
            #"{"expect": {"state": "preview", "vars": {"previewProgress": 0.4, "scrollEnabled": false}}}"#,
            #"{"event": "previewUpdate", "progress": 0.75, "ended": false}"#,
            #"{"expect": {"state": "preview", "vars": {"previewProgress": 0.75}}}"#,
            #"{"event": "previewUpdate", "progress": 1, "ended": true}"#,
            #"{"expect": {"state": "commit", "vars": {"previewProgress": 1, "scrollEnabled": false, "highlighted": ""}, "outputs": []}}"#,
            // in commit, previewUpdate is no longer handled
            #"{"event": "previewUpdate", "progress": 0.2, "ended": false}"#,
            #"{"expect": {"state": "commit", "vars": {"previewProgress": 1}}}"#,
        ])
        #expect(try r.run.ignored == 1)
    }

    // "`commitUpdate` in `commit`, not `ended`: `highlighted` = the rating under (x, y)." — "❤️" is the top half, "💀" the bottom half.
    @Test func commitUpdateHighlightsTheTopHalfAsHeartAndTheBottomHalfAsSkull() throws {
        let r = try replayPassing("PeekRating", Self.toCommit + [
            Self.update(150, 250),
            #"{"expect": {"state": "commit", "vars": {"highlighted": "\u2764\ufe0f"}}}"#,
            Self.update(150, 300),
            #"{"expect": {"state": "commit", "vars": {"highlighted": "💀"}}}"#,
            Self.update(150, 279.999),
            #"{"expect": {"vars": {"highlighted": "❤️"}}}"#,
            Self.update(500, 250),
            #"{"expect": {"state": "commit", "vars": {"highlighted": "", "rating": ""}, "outputs": []}}"#,
        ])
        #expect(try r.run.outputCount == 0)
    }

    // "So `y == cellY + cellHeight/2` is `"💀"`." — the exact midpoint belongs to the bottom half.
    @Test func theExactMidpointIsSkull() throws {
        #expect(try Self.highlight(150, 280) == "💀")
        #expect(try Self.highlight(150, 279.9999) == "❤️")
        // Counter-check: a log that says the midpoint is the heart is reported.
        let wrong = try replay("PeekRating", Self.toCommit + [
            Self.update(150, 280),
            #"{"expect": {"vars": {"highlighted": "❤️"}}}"#,
        ])
        #expect(wrong.failures == [#"4 vars.highlighted: "❤️" / "💀""#])
    }

    // "`minX <= x < maxX` and `minY <= y < maxY`" — the right and bottom edges are outside, the left and top edges inside.
    @Test func cellEdgesAreHalfOpen() throws {
        #expect(try Self.highlight(100, 200) == "❤️", "x == cellX and y == cellY are inside")
        #expect(try Self.highlight(99.999, 250) == "")
        #expect(try Self.highlight(150, 199.999) == "")
        #expect(try Self.highlight(220, 250) == "", "x == cellX + cellWidth is outside")
        #expect(try Self.highlight(219.999, 250) == "❤️")
        #expect(try Self.highlight(150, 360) == "", "y == cellY + cellHeight is outside")
        #expect(try Self.highlight(150, 359.999) == "💀")
        #expect(try Self.highlight(219.999, 359.999) == "💀")
        #expect(try Self.highlight(220, 360) == "")
    }

    // "`commitUpdate` in `commit`, `ended`: `rating` = the rating under (x, y); if it is not `""`, output `rated(rating)`; then ... → `idle`."
    @Test func commitWithARatingEmitsRatedOnce() throws {
        let r = try replayPassing("PeekRating", Self.toCommit + [
            Self.update(150, 250),
            Self.update(140, 210, ended: true),
            #"{"expect": {"state": "idle", "vars": {"rating": "❤️", "scrollEnabled": true, "previewProgress": 0, "highlighted": ""}, "outputs": ["rated"]}}"#,
            // a later commitUpdate in idle does nothing
            Self.update(140, 300, ended: true),
            #"{"expect": {"state": "idle", "vars": {"rating": "❤️"}, "outputs": []}}"#,
        ])
        #expect(try r.run.outputTexts == [#"rated("❤️")"#])
        #expect(try r.run.outputCount == 1)
        #expect(try r.run.ignored == 1)
        // The midpoint commits the skull.
        let skull = try replayPassing("PeekRating", Self.toCommit + [
            Self.update(100, 280, ended: true),
            #"{"expect": {"state": "idle", "vars": {"rating": "💀"}, "outputs": ["rated"]}}"#,
        ])
        #expect(try skull.run.outputTexts == [#"rated("💀")"#])
    }

    // "Where the seed differs: ... We always re-enable scrolling and emit `rated` only for a real rating; `rating` still becomes `""`."
    @Test func commitOutsideTheLabelsEmitsNothingButClearsTheRating() throws {
        let r = try replayPassing("PeekRating", Self.toCommit + [
            Self.update(150, 250, ended: true),
            #"{"expect": {"state": "idle", "vars": {"rating": "❤️"}, "outputs": ["rated"]}}"#,
        ] + Self.toCommit + [
            Self.update(150, 300),
            Self.update(220, 300, ended: true),
            #"{"expect": {"state": "idle", "vars": {"rating": "", "scrollEnabled": true, "previewProgress": 0, "highlighted": ""}, "outputs": []}}"#,
        ])
        #expect(try r.run.outputCount == 1)
        #expect(try r.run.value("rating") == .string(""))
        let wrong = try replay("PeekRating", Self.toCommit + [
            Self.update(150, 360, ended: true),
            #"{"expect": {"outputs": ["rated"]}}"#,
        ])
        #expect(wrong.failures == [#"4 outputs: ["rated"] / []"#])
    }

    // "`cancel` in `preview` or `commit` → `idle`, `scrollEnabled = true`, `previewProgress = 0`, `highlighted = ""`."
    @Test func cancelInPreviewOrCommitResetsTheInteraction() throws {
        let r = try replayPassing("PeekRating", [
            #"{"case": "preview", "event": "pressBegan", "x": 150, "y": 300, "onCell": true, "cellX": 100, "cellY": 200, "cellWidth": 120, "cellHeight": 160}"#,
            #"{"case": "preview", "event": "previewUpdate", "progress": 0.7, "ended": false}"#,
            #"{"case": "preview", "expect": {"state": "preview", "vars": {"scrollEnabled": false, "previewProgress": 0.7}}}"#,
            #"{"case": "preview", "event": "cancel"}"#,
            #"{"case": "preview", "expect": {"state": "idle", "vars": {"scrollEnabled": true, "previewProgress": 0, "highlighted": "", "rating": ""}, "outputs": []}}"#,
            #"{"case": "commit", "event": "pressBegan", "x": 150, "y": 300, "onCell": true, "cellX": 100, "cellY": 200, "cellWidth": 120, "cellHeight": 160}"#,
            #"{"case": "commit", "event": "previewUpdate", "progress": 0.9, "ended": true}"#,
            #"{"case": "commit", "event": "commitUpdate", "progress": 0.3, "ended": false, "x": 150, "y": 300}"#,
            #"{"case": "commit", "expect": {"state": "commit", "vars": {"scrollEnabled": false, "previewProgress": 0.9, "highlighted": "💀"}}}"#,
            #"{"case": "commit", "event": "cancel"}"#,
            #"{"case": "commit", "expect": {"state": "idle", "vars": {"scrollEnabled": true, "previewProgress": 0, "highlighted": "", "rating": ""}, "outputs": []}}"#,
        ])
        #expect(r.report.cases.allSatisfy { $0.outputCount == 0 && $0.ignored == 0 })
    }

    // "An event that the current state does not handle is ignored": cancel in idle, a second press, commit updates during the peek.
    @Test func eventsOutsideTheirPhaseAreIgnored() throws {
        let r = try replayPassing("PeekRating", [
            #"{"event": "cancel"}"#,
            #"{"event": "previewUpdate", "progress": 0.5, "ended": true}"#,
            Self.update(150, 250, ended: true),
            #"{"expect": {"state": "idle", "vars": {"previewProgress": 0, "rating": ""}, "outputs": []}}"#,
            Self.press,
            #"{"event": "pressBegan", "x": 10, "y": 10, "onCell": true, "cellX": 0, "cellY": 0, "cellWidth": 50, "cellHeight": 50}"#,
            Self.update(150, 250, ended: true),
            #"{"expect": {"state": "preview", "vars": {"rating": "", "highlighted": ""}, "outputs": []}}"#,
            #"{"event": "previewUpdate", "progress": 1, "ended": true}"#,
            // the frame kept is the first press's: (110, 230) is inside it, not inside the second one
            Self.update(110, 230),
            #"{"expect": {"state": "commit", "vars": {"highlighted": "❤️"}}}"#,
        ])
        #expect(try r.run.ignored == 5)
    }
}
