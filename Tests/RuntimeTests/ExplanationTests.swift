import Foundation
import Statecraft
import Testing
import TestSupport

/// `replay --explain` in the library: for each ignored or rejected event, the candidate
/// transitions and the sub-expressions that made their guards false, with the values they
/// read; for each failed expectation, the step that last changed its subject. The logs are
/// in `Golden/Explain/`; `Panel.machine` is a two-region statechart whose guards take every
/// form (`&&`, `||`, `!`, a division that fails, payload fields, a constant, a string, `in`).
@Suite struct ExplanationTests {
    static let folder = Repository.root.appendingPathComponent("Tests/RuntimeTests/Golden/Explain")

    /// Replays a log of `Golden/Explain/` against a spec (a bundled one, or the folder's Panel).
    static func explained(spec: URL, log: String, strict: Bool = false) throws -> CaseReport {
        let result = Statecraft.check(SourceFile(path: spec.lastPathComponent, bytes: Repository.bytes(spec)), bounds: nil)
        let program = Program(try #require(result.machine))
        var replayer = Replayer(program: program, options: Replayer.Options(strict: strict, explain: true))
        var reader = EventLogReader(bytes: Repository.bytes(folder.appendingPathComponent(log)))
        try replayer.replay(&reader)
        return try #require(replayer.report.cases.first)
    }

    static func panel(strict: Bool = false) throws -> CaseReport {
        try explained(spec: folder.appendingPathComponent("Panel.machine"), log: "panel.jsonl", strict: strict)
    }

    static func pullToRefresh() throws -> CaseReport {
        try explained(spec: Repository.specs.appendingPathComponent("PullToRefresh.machine"), log: "pull-to-refresh.jsonl")
    }

    /// The explanation of the event at `line`.
    static func event(_ c: CaseReport, line: Int) throws -> EventExplanation {
        let found = c.explanations?.compactMap { e -> EventExplanation? in
            if case .event(let x) = e, x.line == line { return x }
            return nil
        }.first
        return try #require(found, "no explanation of line \(line)")
    }

    static func expectation(_ c: CaseReport, subject: String) throws -> ExpectationExplanation {
        let found = c.explanations?.compactMap { e -> ExpectationExplanation? in
            if case .expectation(let x) = e, x.subject == subject { return x }
            return nil
        }.first
        return try #require(found, "no explanation of \(subject)")
    }

    static func culprits(_ candidate: EventExplanation.Candidate) throws -> [Culprit] {
        guard case .isFalse(let culprits) = candidate.verdict else {
            Issue.record("the guard of '\(candidate.text)' is \(candidate.verdict), not false")
            return []
        }
        return culprits
    }

    /// `progress = 0.62`, as the text report writes a read.
    static func reads(_ culprit: Culprit) -> [String] {
        culprit.reads.map { "\($0.kind.rawValue) \($0.name) = \($0.value)" }
    }

    // "Releasing a full pull (progress reaches 1) starts one": a release at 0.62 is ignored,
    // and the explanation names `progress >= 1` with the value progress had.
    @Test func aFalseComparisonNamesItsValues() throws {
        let c = try Self.pullToRefresh()
        let e = try Self.event(c, line: 2)
        #expect(e.event == "endDragging" && e.outcome == .ignored && !e.afterFinal)
        #expect(e.configuration == ["ready", "pulling"])
        let candidate = try #require(e.candidates.first)
        #expect(e.candidates.count == 1)
        #expect(candidate.text == "on endDragging if progress >= 1 -> refreshing")
        #expect(candidate.source == "ready")
        let culprit = try #require(try Self.culprits(candidate).first)
        #expect(culprit.text == "progress >= 1" && culprit.value == false)
        #expect(Self.reads(culprit) == ["variable progress = 0.62"])
    }

    // The refreshing state has no endDragging, and `ready` is not active: no candidate at all,
    // with the configuration the event met.
    @Test func anEventNoTransitionTakesSaysSo() throws {
        let e = try Self.event(try Self.pullToRefresh(), line: 5)
        #expect(e.candidates.isEmpty)
        #expect(e.configuration == ["refreshing"])
    }

    // A failed expectation on a state names the step that left it (here the 2 s timer, fired
    // when line 6's time passed its deadline), and on a variable the step that last set it.
    @Test func aFailedExpectationNamesTheStepThatLastChangedItsSubject() throws {
        let c = try Self.pullToRefresh()
        let state = try Self.expectation(c, subject: "state")
        #expect(state.name == "refreshing")
        #expect(state.lastChange == .init(line: 6, event: "after 2s", time: 2.3))
        let inset = try Self.expectation(c, subject: "vars.insetTop")
        #expect(inset.lastChange == .init(line: 6, event: "after 2s", time: 2.3))
    }

    // `armed && force > limit`: the first false conjunct, `armed` at first, then (armed) the
    // comparison, with the payload field and the constant it reads.
    @Test func aConjunctionIsDecidedByItsFirstFalseConjunct() throws {
        let c = try Self.panel()
        let first = try Self.event(c, line: 1)
        let waiting = try #require(first.candidates.first { $0.source == "waiting" })
        #expect(try Self.culprits(waiting).map(\.text) == ["armed"])
        #expect(try Self.culprits(waiting).map(Self.reads) == [["variable armed = false"]])
        let later = try Self.event(c, line: 6)
        let again = try #require(later.candidates.first)
        #expect(later.candidates.count == 1)
        let culprit = try #require(try Self.culprits(again).first)
        #expect(culprit.text == "force > limit")
        #expect(Self.reads(culprit) == ["field force = 2", "constant limit = 3"])
    }

    // `count >= limit || label == "ready"`: both disjuncts, each false, each with its values.
    @Test func aDisjunctionListsBothDisjuncts() throws {
        let e = try Self.event(try Self.panel(), line: 2)
        let waiting = try #require(e.candidates.first { $0.source == "waiting" })
        let culprits = try Self.culprits(waiting)
        #expect(culprits.map(\.text) == ["count >= limit", #"label == "ready""#])
        #expect(culprits.map(\.value) == [false, false])
        #expect(culprits.map(Self.reads) == [["variable count = 0", "constant limit = 3"], [#"variable label = "idle""#]])
    }

    // `!long`: the operand, which holds; and `in(done)`, whose value is the state's activity.
    @Test func aNegationNamesItsOperandThatHolds() throws {
        let c = try Self.panel()
        let idle = try #require(try Self.event(c, line: 1).candidates.first { $0.source == "idle" })
        let culprit = try #require(try Self.culprits(idle).first)
        #expect(culprit.text == "long" && culprit.value == true)
        #expect(Self.reads(culprit) == ["field long = true"])
        let tap = try #require(try Self.event(c, line: 2).candidates.first { $0.source == "idle" })
        #expect(try Self.culprits(tap).map(Self.reads) == [["state done = false"]])
    }

    // Both regions of the parallel state offer a transition on `press` and on `tap`: each is
    // a candidate, innermost (last in document order) first.
    @Test func eachParallelRegionContributesItsCandidates() throws {
        let c = try Self.panel()
        #expect(try Self.event(c, line: 1).candidates.map(\.source) == ["idle", "waiting"])
        #expect(try Self.event(c, line: 2).candidates.map(\.source) == ["idle", "waiting"])
        #expect(try Self.event(c, line: 1).configuration == ["panel", "left", "waiting", "right", "idle"])
    }

    // `10 / by > 1` with `by` 0: the step is rejected, and the explanation carries the fault
    // where it happened (`10 / by`).
    @Test func aGuardThatCannotBeComputedSaysWhy() throws {
        let c = try Self.panel()
        let e = try Self.event(c, line: 3)
        #expect(e.outcome == .rejected)
        let candidate = try #require(e.candidates.first)
        guard case .fault(let fault) = candidate.verdict else {
            Issue.record("expected a fault, found \(candidate.verdict)")
            return
        }
        #expect(fault.message == "division by zero (10 / 0)")
    }

    // `reset` in `idle` and `waiting`: no transition takes it; the configuration is kept.
    @Test func noTransitionInAStatechartKeepsTheConfiguration() throws {
        let e = try Self.event(try Self.panel(), line: 9)
        #expect(e.candidates.isEmpty && e.outcome == .ignored)
        #expect(e.configuration == ["panel", "left", "waiting", "right", "idle"])
    }

    // Under --strict every ignored event is rejected, and explained the same way.
    @Test func strictRejectionsAreExplained() throws {
        let plain = try Self.panel(), strict = try Self.panel(strict: true)
        let outcomes = strict.explanations?.compactMap { e -> Deviation.Kind? in
            if case .event(let x) = e { return x.outcome }
            return nil
        }
        #expect(outcomes == [.rejected, .rejected, .rejected, .rejected, .rejected])
        #expect(strict.rejected == 5)
        let withoutOutcome = { (c: CaseReport) in
            c.explanations?.map { e -> Explanation in
                guard case .event(var x) = e else { return e }
                x.outcome = .ignored
                return .event(x)
            }
        }
        #expect(withoutOutcome(plain) == withoutOutcome(strict))
    }

    // In the statechart: `busy` was left by line 7's reset, `count` last set by `arm`, and
    // `label` never changed since the case began.
    @Test func expectationsInAStatechart() throws {
        let c = try Self.panel()
        #expect(try Self.expectation(c, subject: "state").lastChange == .init(line: 7, event: "reset", time: 6))
        #expect(try Self.expectation(c, subject: "vars.count").lastChange == .init(line: 4, event: "arm", time: 3))
        let label = try Self.expectation(c, subject: "vars.label")
        #expect(label.lastChange == nil && label.caseStart == 1)
        #expect(c.explanations?.map(\.line) == [1, 2, 3, 6, 8, 8, 8, 9])
        #expect(c.explanationCount == 8)
    }

    // An event after the run ended in a final state: no candidates, and the text says the run
    // had ended. A guard that holds before an action fails is shown as enabled.
    @Test func afterTheFinalStateAndAFailingAction() throws {
        let program = try program(source: """
            machine M {
                var n: Number = 0
                event go(d: Number)
                event stop
                initial state a {
                    on go if d >= 0 { n = 1 / d }
                    on stop -> done
                }
                final state done
            }
            """)
        var replayer = Replayer(program: program, options: Replayer.Options(explain: true))
        var reader = EventLogReader(bytes: Array("""
            {"event": "go", "d": 0}
            {"event": "stop"}
            {"event": "stop"}
            """.utf8))
        try replayer.replay(&reader)
        let c = try #require(replayer.report.cases.first)
        let failed = try Self.event(c, line: 1)
        #expect(failed.outcome == .rejected && failed.candidates.map(\.verdict) == [.holds])
        let late = try Self.event(c, line: 3)
        #expect(late.afterFinal && late.candidates.isEmpty && late.configuration == ["done"])
        let text = ReplayExplanations.text(c, path: "log.jsonl", machine: program.machine)
        #expect(text.contains("log.jsonl:1:11: note: why event 'go' was rejected: in a, 1 transition could take it\n"
                              + "<input>:6:9: note: 'on go if d >= 0' of state 'a' was enabled (its guard holds); its step failed\n"))
        #expect(text.hasSuffix("log.jsonl:3:11: note: why event 'stop' was ignored: the run had already ended (in done)\n"))
    }

    // Without --explain nothing is recorded: the report is what it always was.
    @Test func withoutExplainThereAreNoExplanations() throws {
        let spec = Self.folder.appendingPathComponent("Panel.machine")
        let result = Statecraft.check(SourceFile(path: "Panel.machine", bytes: Repository.bytes(spec)), bounds: nil)
        var replayer = Replayer(program: Program(try #require(result.machine)))
        var reader = EventLogReader(bytes: Repository.bytes(Self.folder.appendingPathComponent("panel.jsonl")))
        try replayer.replay(&reader)
        let c = try #require(replayer.report.cases.first)
        #expect(c.explanations == nil && c.explanationCount == 0)
        #expect(c.ignored == 4 && c.rejected == 1)
    }
}
