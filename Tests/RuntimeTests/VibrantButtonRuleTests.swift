import Statecraft
import Testing

/// Vibrant button: every rule of its interface (the Interactions article restates the contract),
/// replayed through an event log.
@Suite struct VibrantButtonRuleTests {
    // "`unselected` | state | initial; `alpha = 0.2`, `textColor = "white"`"
    @Test func startsUnselectedWithItsAppearance() throws {
        let r = try replayPassing("VibrantButton", [
            #"{"expect": {"state": "unselected", "vars": {"alpha": 0.2, "textColor": "white"}, "outputs": []}}"#,
        ])
        #expect(try r.run.value("textColor") == .string("white"))
    }

    // "a tap does **not** change the state by itself: it calls the delegate with the button's index, in either state."
    @Test func tapEmitsDidTapWithTheIndexInBothStatesWithoutChangingState() throws {
        let r = try replayPassing("VibrantButton", [
            #"{"event": "tap"}"#,
            #"{"expect": {"state": "unselected", "vars": {"alpha": 0.2, "textColor": "white"}, "outputs": ["didTap"]}}"#,
            #"{"event": "select"}"#,
            #"{"expect": {"state": "selected", "outputs": []}}"#,
            #"{"event": "tap"}"#,
            #"{"event": "tap"}"#,
            #"{"expect": {"state": "selected", "vars": {"alpha": 0.7, "textColor": "black"}, "outputs": ["didTap", "didTap"]}}"#,
        ])
        let run = try r.run
        #expect(run.outputTexts == ["didTap(0)", "didTap(0)", "didTap(0)"])
        #expect(run.applied == 4 && run.ignored == 0)
        // Counter-check: asserting that a tap selects, or emits nothing, is reported.
        let wrong = try replay("VibrantButton", [
            #"{"event": "tap"}"#,
            #"{"expect": {"state": "selected", "outputs": []}}"#,
        ])
        #expect(wrong.failures == [#"2 state: selected / unselected"#, #"2 outputs: [] / ["didTap"]"#])
    }

    // "`select`/`deselect` set the state and its appearance ... the model records the end values."
    @Test func selectAndDeselectSetTheStateAndItsAppearance() throws {
        let r = try replayPassing("VibrantButton", [
            #"{"event": "select"}"#,
            #"{"expect": {"state": "selected", "vars": {"alpha": 0.7, "textColor": "black"}, "outputs": []}}"#,
            #"{"event": "deselect"}"#,
            #"{"expect": {"state": "unselected", "vars": {"alpha": 0.2, "textColor": "white"}, "outputs": []}}"#,
            #"{"event": "select"}"#,
            #"{"expect": {"state": "selected", "vars": {"alpha": 0.7, "textColor": "black"}}}"#,
        ])
        #expect(try r.run.applied == 3)
        let wrong = try replay("VibrantButton", [
            #"{"event": "select"}"#,
            #"{"expect": {"vars": {"alpha": 0.2, "textColor": "white"}}}"#,
        ])
        #expect(wrong.failures == [#"2 vars.alpha: 0.2 / 0.7"#, #"2 vars.textColor: "white" / "black""#])
    }

    // "Setting the state it already has changes nothing."
    @Test func settingTheSameStateIsIgnored() throws {
        let r = try replayPassing("VibrantButton", [
            #"{"event": "deselect"}"#,
            #"{"expect": {"state": "unselected", "vars": {"alpha": 0.2, "textColor": "white"}, "outputs": []}}"#,
            #"{"event": "select"}"#,
            #"{"event": "select"}"#,
            #"{"expect": {"state": "selected", "vars": {"alpha": 0.7, "textColor": "black"}, "outputs": []}}"#,
        ])
        #expect(try r.run.ignored == 2)
        #expect(try r.run.applied == 1)
        // With --strict, each redundant set is a rejection on its own line.
        let strict = try replay("VibrantButton", [
            #"{"event": "deselect"}"#,
            #"{"event": "select"}"#,
            #"{"event": "select"}"#,
        ], strict: true)
        #expect(try strict.run.rejections.map(\.line) == [1, 3])
        #expect(try strict.run.state == "selected")
    }
}
