import Foundation
import Statecraft
import Testing

/// The EventLogFormat article and the Semantics article's "Replaying a log": cases, time,
/// timers, expectations, --strict and log errors, replayed through the bundled specs.
@Suite struct ReplaySemanticsTests {
    /// The 1-based column (in Unicode scalars) where `needle` first starts in `line`.
    static func column(of needle: String, in line: String) -> Int {
        guard let range = line.range(of: needle) else { return -1 }
        return line.unicodeScalars.distance(from: line.startIndex, to: range.lowerBound) + 1
    }

    /// Replays `lines` and requires a LogError on line `line` at the column where `needle` starts.
    @discardableResult
    static func expectError(_ spec: String, _ lines: [String], line: Int, at needle: String, message: String,
                            sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Replay {
        let r = try replay(spec, lines)
        let error = try #require(r.error, "no LogError", sourceLocation: sourceLocation)
        #expect(error.line == line, sourceLocation: sourceLocation)
        #expect(error.column == Self.column(of: needle, in: lines[line - 1]), "\(error.message)", sourceLocation: sourceLocation)
        #expect(error.message.contains(message), "\(error.message)", sourceLocation: sourceLocation)
        #expect(error.text == Array(lines[line - 1].utf8), sourceLocation: sourceLocation)
        #expect(!r.report.passed, sourceLocation: sourceLocation)
        return r
    }

    // MARK: - Cases

    // "lines with the same case form one independent run of the machine, each starting from the initial state; lines of different cases may interleave. Lines without case form one run of their own."
    @Test func interleavedCasesAreIndependent() throws {
        let r = try replayPassing("VibrantButton", [
            #"{"case": "a", "event": "select"}"#,
            #"{"case": "b", "event": "tap"}"#,
            #"{"event": "deselect"}"#,
            #"{"case": "a", "expect": {"state": "selected", "vars": {"alpha": 0.7}, "outputs": []}}"#,
            #"{"case": "b", "event": "tap"}"#,
            #"{"case": "b", "expect": {"state": "unselected", "vars": {"alpha": 0.2}, "outputs": ["didTap", "didTap"]}}"#,
            #"{"case": "a", "event": "tap"}"#,
            #"{"expect": {"state": "unselected", "outputs": []}}"#,
            #"{"case": "a", "event": "deselect"}"#,
            #"{"case": "a", "expect": {"state": "unselected", "outputs": ["didTap"]}}"#,
        ])
        #expect(r.report.cases.map(\.key) == ["a", "b", nil])
        #expect(r.report.cases.map(\.firstLine) == [1, 2, 3])
        #expect(r.report.cases.map(\.applied) == [3, 2, 0])
        #expect(r.report.cases.map(\.ignored) == [0, 0, 1])
        #expect(r.report.cases.map(\.expectations) == [2, 1, 1])
        #expect(r.report.cases.map(\.outputCount) == [1, 2, 0])
        #expect(r.report.records == 10)
    }

    // "An integer case 7 and the string "7" are the same case."
    @Test func integerCaseAndStringCaseAreOneCase() throws {
        let r = try replayPassing("VibrantButton", [
            #"{"case": 7, "event": "select"}"#,
            #"{"case": "7", "expect": "selected"}"#,
            #"{"case": "07", "expect": "unselected"}"#,
            #"{"case": "7", "event": "tap"}"#,
            #"{"case": 7, "expect": {"state": "selected", "outputs": ["didTap"]}}"#,
            #"{"expect": "unselected"}"#,
        ])
        #expect(r.report.cases.map(\.key) == ["7", "07", nil])
        #expect(try r.run("7").applied == 2)
        #expect(try r.run("7").expectations == 2)
        // Counter-check: if 7 and "7" were two cases, "7" would still be unselected.
        let wrong = try replay("VibrantButton", [
            #"{"case": 7, "event": "select"}"#,
            #"{"case": "7", "expect": "unselected"}"#,
        ])
        #expect(wrong.failures == ["2 state: unselected / selected"])
    }

    // MARK: - Time and timers

    // "A line without time happens at the case's latest time (0 at the start)."
    @Test func linesWithoutTimeUseTheCaseLatestTime() throws {
        let r = try replayPassing("PullToRefresh", [
            #"{"case": "a", "time": 1, "event": "scroll", "offsetY": -120}"#,
            #"{"case": "a", "event": "endDragging"}"#,
            #"{"case": "b", "event": "scroll", "offsetY": -120}"#,
            #"{"case": "b", "event": "endDragging"}"#,
            // a's refresh began at 1 (the scroll's time), so it ends at 3, not at 2
            #"{"case": "a", "time": 2.5, "expect": "refreshing"}"#,
            #"{"case": "a", "event": "scroll", "offsetY": -165}"#,
            #"{"case": "a", "expect": {"state": "refreshing", "vars": {"progress": 0.5}}}"#,
            #"{"case": "a", "time": 3, "expect": "idle"}"#,
            // b's refresh began at 0 (no time anywhere in b)
            #"{"case": "b", "time": 1.999, "expect": "refreshing"}"#,
            #"{"case": "b", "time": 2, "expect": "idle"}"#,
        ])
        #expect(try r.run("a").time == 3)
        #expect(try r.run("b").time == 2)
        #expect(r.report.cases.map(\.timersFired) == [1, 1])
    }

    // "Within a case it never decreases." — a backwards time is a LogError at its line and column; another case may be earlier.
    @Test func timeGoingBackwardsWithinACaseIsAnError() throws {
        let lines = [
            #"{"case": "a", "time": 5, "event": "tap"}"#,
            #"{"case": "b", "time": 1, "event": "tap"}"#,
            #"{"case": "a", "event": "tap"}"#,
            #"{"case": "a", "time": 5, "event": "select"}"#,
            #"{"case": "a", "time": 4.5, "event": "tap"}"#,
            #"{"case": "a", "event": "tap"}"#,
        ]
        let r = try Self.expectError("VibrantButton", lines, line: 5, at: "4.5", message: "time goes backwards")
        #expect(r.report.cases.map(\.key) == ["a", "b"])
        #expect(try r.run("a").state == "selected")
        #expect(try r.run("a").outputCount == 2)
        #expect(try r.run("a").time == 5)
        #expect(try r.run("b").time == 1)
        // The same within the lines without a case, on an expectation line.
        try Self.expectError("VibrantButton", [
            #"{"time": 2, "event": "tap"}"#,
            #"{"time": 1.999, "expect": "unselected"}"#,
        ], line: 2, at: "1.999", message: "time goes backwards")
    }

    // "Timers still pending at the end of the log do not fire." — not even when another case's clock runs far ahead.
    @Test func timersPendingAtTheEndOfTheLogDoNotFire() throws {
        let r = try replayPassing("PullToRefresh", [
            #"{"case": "a", "time": 1, "event": "scroll", "offsetY": -120}"#,
            #"{"case": "a", "time": 1, "event": "endDragging"}"#,
            #"{"case": "a", "time": 2.999, "event": "scroll", "offsetY": -110}"#,
            #"{"case": "b", "time": 100, "event": "scroll", "offsetY": 0}"#,
        ])
        let a = try r.run("a")
        #expect(a.state == "refreshing")
        #expect(a.value("insetTop") == .number(110))
        #expect(a.timersFired == 0)
        #expect(a.time == 2.999)
    }

    // "Before a line is applied, every timer due at or before its time fires" — expectation lines included.
    @Test func anExpectationLineWithATimeFiresDueTimers() throws {
        let r = try replayPassing("PullToRefresh", [
            #"{"time": 1, "event": "scroll", "offsetY": -120}"#,
            #"{"event": "endDragging"}"#,
            #"{"expect": "refreshing"}"#,
            #"{"time": 3, "expect": {"state": "idle", "vars": {"insetTop": 0}}}"#,
        ])
        #expect(try r.run.timersFired == 1)
        #expect(try r.run.time == 3)
        // Counter-check: without the time, the same expectation fails (nothing fires).
        let wrong = try replay("PullToRefresh", [
            #"{"time": 1, "event": "scroll", "offsetY": -120}"#,
            #"{"event": "endDragging"}"#,
            #"{"expect": {"state": "idle", "vars": {"insetTop": 0}}}"#,
        ])
        #expect(wrong.failures == ["3 state: idle / refreshing", "3 vars.insetTop: 0 / 110"])
    }

    // MARK: - Expectations

    // "`outputs`: the names of the outputs emitted since the previous expectation line of the same case (or since the start), in order"
    @Test func outputsCompareOnlyWhatCameSinceThePreviousExpectationOfTheSameCase() throws {
        try replayPassing("VibrantButton", [
            #"{"case": "a", "event": "tap"}"#,
            #"{"case": "a", "expect": "unselected"}"#,
            #"{"case": "a", "event": "tap"}"#,
            #"{"case": "b", "expect": {"outputs": []}}"#,
            #"{"case": "a", "expect": {"outputs": ["didTap"]}}"#,
            #"{"case": "a", "expect": {"outputs": []}}"#,
            #"{"case": "a", "event": "select"}"#,
            #"{"case": "a", "event": "tap"}"#,
            #"{"case": "a", "event": "deselect"}"#,
            #"{"case": "a", "event": "tap"}"#,
            #"{"case": "a", "expect": {"vars": {"alpha": 0.2}}}"#,
            #"{"case": "a", "expect": {"outputs": []}}"#,
        ])
        // Counter-check: without the state-only expectation, both taps are in the window.
        let wrong = try replay("VibrantButton", [
            #"{"event": "tap"}"#,
            #"{"event": "tap"}"#,
            #"{"expect": {"outputs": ["didTap"]}}"#,
        ])
        #expect(wrong.failures == [#"3 outputs: ["didTap"] / ["didTap", "didTap"]"#])
    }

    // "`vars`: variable name → expected value (numbers equal within 1e-9)"
    @Test func numbersCompareWithinOneBillionth() throws {
        let r = try replay("VibrantButton", [
            #"{"expect": {"vars": {"alpha": 0.2000000001}}}"#,
            #"{"expect": {"vars": {"alpha": 0.1999999999}}}"#,
            #"{"expect": {"vars": {"alpha": 2e-1}}}"#,
            #"{"expect": {"vars": {"alpha": 0.20000001}}}"#,
            #"{"expect": {"vars": {"alpha": 0.19999999}}}"#,
        ])
        #expect(r.failures == ["4 vars.alpha: 0.20000001 / 0.2", "5 vars.alpha: 0.19999999 / 0.2"])
        let failure = try #require(try r.run.failures.first)
        #expect(failure.column == Self.column(of: "0.20000001", in: #"{"expect": {"vars": {"alpha": 0.20000001}}}"#))
        // Strings and Bools compare exactly.
        let exact = try replay("Drawer", [
            #"{"expect": {"vars": {"directionTop": false}}}"#,
        ])
        #expect(exact.failures == ["1 vars.directionTop: false / true"])
    }

    // "`state`: the current state" — a failed expectation is reported, the replay goes on, and the report does not pass.
    @Test func failedExpectationsAreReportedWithLineAndColumnAndTheReplayGoesOn() throws {
        let lines = [
            #"{"event": "select"}"#,
            #"{"expect": {"state": "unselected", "outputs": ["didTap"]}}"#,
            #"{"event": "deselect"}"#,
            #"{"expect": "unselected"}"#,
        ]
        let r = try replay("VibrantButton", lines)
        #expect(r.error == nil)
        let run = try r.run
        #expect(run.failureCount == 2)
        #expect(run.failures.map(\.column) == [Self.column(of: #""unselected""#, in: lines[1]),
                                               Self.column(of: "[", in: lines[1])])
        #expect(run.state == "unselected")
        #expect(run.expectations == 2)
        #expect(!r.report.passed)
    }

    // MARK: - --strict

    // "An event that the current state does not handle is ignored ...; replay counts it as ignored, and `--strict` makes it an error."
    @Test func strictTurnsIgnoredEventsIntoRejections() throws {
        let lines = [
            #"{"event": "deselect"}"#,
            #"{"event": "select"}"#,
            #"{"time": 1, "event": "select"}"#,
            #"{"expect": {"state": "selected", "vars": {"alpha": 0.7}}}"#,
        ]
        let lenient = try replayPassing("VibrantButton", lines)
        #expect(try lenient.run.ignored == 2)
        #expect(lenient.report.passed)
        let strict = try replay("VibrantButton", lines, strict: true)
        #expect(strict.error == nil)
        let run = try strict.run
        #expect(run.ignored == 0)
        #expect(run.rejected == 2)
        #expect(run.applied == 1)
        #expect(run.failureCount == 0)
        #expect(run.state == "selected")
        #expect(run.rejections.map(\.line) == [1, 3])
        #expect(run.rejections.map(\.column) == [Self.column(of: #""deselect""#, in: lines[0]),
                                                 Self.column(of: #""select""#, in: lines[2])])
        #expect(run.rejections.allSatisfy { $0.message.contains("(--strict)") })
        #expect(!strict.report.passed)
    }

    // MARK: - Errors in the log

    // "A field the event does not declare, a missing declared field, or a value of the wrong type is an error on that line." — and an unknown event.
    @Test func unknownEventIsAnError() throws {
        let r = try Self.expectError("VibrantButton", [
            #"{"event": "tap"}"#,
            #"{"event": "tapp"}"#,
            #"{"event": "tap"}"#,
        ], line: 2, at: #""tapp""#, message: "unknown event 'tapp'; did you mean 'tap'?")
        #expect(try r.run.outputCount == 1)
    }

    @Test func missingFieldIsAnError() throws {
        try Self.expectError("Drawer", [
            #"{"event": "touchBegan", "y": 40, "onContent": true}"#,
            #"{"event": "touchBegan", "y": 40}"#,
        ], line: 2, at: #""touchBegan""#, message: "event 'touchBegan' is missing its field 'onContent'")
        try Self.expectError("SwipeToDismiss", [
            #"{"event": "panEnded", "vy": 1}"#,
        ], line: 1, at: #""panEnded""#, message: "missing its field 'vx'")
    }

    @Test func extraFieldIsAnError() throws {
        try Self.expectError("Drawer", [
            #"{"event": "touchMoved", "y": 1, "x": 2}"#,
        ], line: 1, at: #""x""#, message: "event 'touchMoved' has no field 'x'")
        try Self.expectError("PullToRefresh", [
            #"{"event": "endDragging", "offsetY": 2}"#,
        ], line: 1, at: #""offsetY""#, message: "has no field 'offsetY'; it has no payload")
    }

    @Test func wrongFieldTypeIsAnError() throws {
        try Self.expectError("Drawer", [
            #"{"event": "touchMoved", "y": "1"}"#,
        ], line: 1, at: #""1""#, message: "field 'y' of event 'touchMoved' must be a Number, found the string")
        try Self.expectError("Drawer", [
            #"{"event": "touchBegan", "y": 1, "onContent": 1}"#,
        ], line: 1, at: "1}", message: "must be a Bool")
        try Self.expectError("PeekRating", [
            #"{"event": "previewUpdate", "progress": null, "ended": false}"#,
        ], line: 1, at: "null", message: "must be a Number, found null")
    }

    // "Names the run cannot have (an unknown state, variable or output, a value of the wrong type) are errors in the log"
    @Test func unknownStateInAnExpectationIsAnError() throws {
        try Self.expectError("Drawer", [
            #"{"expect": "open"}"#,
            #"{"expect": "opne"}"#,
        ], line: 2, at: #""opne""#, message: "unknown state 'opne' in expectation")
        try Self.expectError("Drawer", [
            #"{"expect": {"vars": {"originY": 0}, "state": "shut"}}"#,
        ], line: 1, at: #""shut""#, message: "unknown state 'shut'")
    }

    @Test func unknownVariableInAnExpectationIsAnError() throws {
        try Self.expectError("Drawer", [
            #"{"expect": {"state": "open", "vars": {"originY": 0, "origin": 0}}}"#,
        ], line: 1, at: #""origin""#, message: "unknown variable 'origin' in expectation")
        // A constant is not a variable.
        try Self.expectError("Drawer", [
            #"{"expect": {"vars": {"viewHeight": 667}}}"#,
        ], line: 1, at: #""viewHeight""#, message: "unknown variable 'viewHeight'")
    }

    @Test func wrongValueTypeInAnExpectationIsAnError() throws {
        try Self.expectError("Drawer", [
            #"{"expect": {"vars": {"originY": "0"}}}"#,
        ], line: 1, at: #""0""#, message: "variable 'originY' is a Number, but the expectation gives the string")
    }

    @Test func unknownOutputInAnExpectationIsAnError() throws {
        let lines = [
            #"{"event": "tap"}"#,
            #"{"expect": {"outputs": ["didTap", "didtap"]}}"#,
        ]
        let r = try replay("VibrantButton", lines)
        let error = try #require(r.error)
        #expect(error.line == 2)
        #expect(error.message.contains("unknown output 'didtap' in expectation"))
        // Replayer bug: Expectation.outputOffsets exist "so an unknown output name can be pointed at",
        // but the replayer reports the column of the array's `[` (24) instead of the name's (35).
        #expect(error.column == Self.column(of: #""didtap""#, in: lines[1]), "column \(error.column)")
    }

    // "a malformed line is reported with its line number and column" — out-of-range numbers included.
    @Test func outOfRangeTimeIsAnError() throws {
        try Self.expectError("VibrantButton", [
            #"{"event": "tap"}"#,
            #"{"time": 1e999, "event": "tap"}"#,
        ], line: 2, at: "1e999", message: "out of range")
    }

    // "nothing before it is lost from the report"
    @Test func whatCameBeforeAnErrorIsStillInTheReport() throws {
        var replayer = Replayer(program: try program(spec: "PullToRefresh"))
        let lines = [
            #"{"case": 1, "time": 1, "event": "scroll", "offsetY": -120}"#,
            #"{"case": 1, "event": "endDragging"}"#,
            #"{"case": 2, "event": "scroll", "offsetY": -55}"#,
            #"{"case": 1, "expect": "idle"}"#,
            #"{"case": 2, "event": "endDraging"}"#,
            #"{"case": 2, "event": "endDragging"}"#,
        ]
        var reader = EventLogReader(bytes: Array(lines.joined(separator: "\r\n").utf8))
        var caught: LogError?
        do throws(LogError) {
            while let record = try reader.next() { try replayer.consume(record) }
        } catch {
            caught = error
        }
        #expect(caught?.line == 5)
        #expect(caught?.message.contains("did you mean 'endDragging'?") == true)
        let report = replayer.report
        #expect(report.records == 5)
        #expect(report.cases.map(\.key) == ["1", "2"])
        let one = report.cases[0]
        #expect(one.state == "refreshing")
        #expect(one.value("insetTop") == .number(110))
        #expect(one.outputTexts == ["didRefresh"])
        #expect(one.failures.map(\.summary) == ["4 state: idle / refreshing"])
        let two = report.cases[1]
        #expect(two.state == "pulling")
        #expect(two.value("progress") == .number(0.5))
        #expect(two.applied == 1)
    }

    // "Events checked before they open a case": a bad event line does not open a case.
    @Test func aBadEventLineDoesNotOpenACase() throws {
        let r = try Self.expectError("VibrantButton", [
            #"{"case": "a", "event": "tap"}"#,
            #"{"case": "b", "event": "push"}"#,
        ], line: 2, at: #""push""#, message: "unknown event 'push'")
        #expect(r.report.cases.map(\.key) == ["a"])
    }
    // The same for the other lines that throw: an expectation naming an unknown state or variable.
    @Test func aBadExpectationLineDoesNotOpenACase() throws {
        let r = try Self.expectError("VibrantButton", [
            #"{"case": "a", "event": "tap"}"#,
            #"{"case": "b", "expect": "pressed"}"#,
        ], line: 2, at: #""pressed""#, message: "unknown state 'pressed'")
        // Replayer bug: `run(for:)` opens case "b" before the expectation is checked, so the report
        // gains an empty case whose firstLine is the bad line (events are resolved first; expectations
        // and a backwards first `time` are not).
        #expect(r.report.cases.map(\.key) == ["a"])
    }
}
