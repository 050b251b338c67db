import Foundation
import Statecraft
import Testing
import TestSupport

/// `replay` watches the spec's properties on every case (`../shared/properties.md`,
/// "Monitoring in replay"): a violation fails the case and names the property, its line in
/// the spec and the log line where it became certain; the fast path agrees with the plain one.
@Suite struct ReplayPropertyTests {
    static let door = PropertySpecs.door

    static func replayed(_ log: String) throws -> (Program, ReplayReport) {
        let program = try program(source: door)
        var reader = EventLogReader(bytes: Array(log.utf8))
        var replayer = Replayer(program: program)
        while let record = try reader.next() { try replayer.consume(record) }
        return (program, replayer.report)
    }

    /// `name@logLine` of every violation of every case, in order.
    static func violations(_ log: String) throws -> [String] {
        let (_, report) = try replayed(log)
        return report.cases.flatMap { $0.propertyViolations.map { "\($0.property)@\($0.line)" } }
    }

    @Test func neverFailsAtTheLineThatEntersTheForbiddenState() throws {
        let (program, report) = try Self.replayed("""
            {"event": "open"}
            {"event": "lock"}
            """)
        #expect(!report.passed)
        let v = try #require(report.cases.first?.propertyViolations.first)
        #expect(v.property == "noLockOpen" && v.line == 2)
        #expect(v.message.contains("lockedOpen"), "\(v.message)")
        // The property is declared on the spec's line 17.
        #expect(program.machine.source.location(of: v.specRange.start).line == 17)
        let text = ReplayText.log(report, path: "door.log", machine: program.machine)
        #expect(text.contains("door.log:2: error: property 'noLockOpen' (spec line 17) violated"), "\(text)")
        #expect(text.contains("1 property violation"), "\(text)")
    }

    @Test func alwaysFailsWhereItsConditionStopsHolding() throws {
        #expect(try Self.violations("""
            {"event": "open"}
            {"time": 1, "event": "close"}
            {"time": 2, "event": "open"}
            """) == ["fewOpens@3"])
    }

    @Test func onlyAfterFailsWhenItsPreconditionNeverHeld() throws {
        let (_, report) = try Self.replayed(#"{"event": "alarm"}"# + "\n")
        let v = try #require(report.cases.first?.propertyViolations.first)
        #expect(v.property == "quiet" && v.line == 1)
        #expect(v.message == "'in(ringing)' holds at t=0, in ringing, and 'in(opened)' has not held before in this run")
    }

    @Test func aResponseAnsweredExactlyAtItsDeadlinePasses() throws {
        let (_, report) = try Self.replayed("""
            {"event": "open"}
            {"time": 5, "event": "close"}
            """)
        #expect(report.passed)
        #expect(report.cases.allSatisfy { $0.propertyViolations.isEmpty })
    }

    @Test func aResponseAnsweredPastItsDeadlineFailsAtThatLine() throws {
        let (_, report) = try Self.replayed("""
            {"event": "open"}
            {"time": 3, "event": "lock"}
            {"time": 6, "event": "close"}
            """)
        // `lock` breaks `noLockOpen` at line 2; the deadline (0 + 5s) is passed at line 3.
        let found = report.cases.flatMap { $0.propertyViolations.map { "\($0.property)@\($0.line)" } }
        #expect(found == ["noLockOpen@2", "shuts@3"])
        let v = try #require(report.cases.first?.propertyViolations.last)
        #expect(v.message.hasPrefix("after the trigger at t=0, ") && v.message.hasSuffix("did not hold by the deadline t=5; the clock passed it at t=6"),
                "\(v.message)")
    }

    @Test func aResponseStillPendingWhenTheLogEndsIsNoViolation() throws {
        #expect(try Self.violations(#"{"event": "open"}"# + "\n").isEmpty)
    }

    @Test func everyCaseHasItsOwnMonitor() throws {
        #expect(try Self.violations("""
            {"case": "a", "event": "alarm"}
            {"case": "b", "event": "open"}
            {"case": "b", "event": "close"}
            {"case": "b", "event": "alarm"}
            """) == ["quiet@1"])
    }

    @Test func theFastPathReportsTheSameViolations() throws {
        let program = try program(source: Self.door)
        let log = PropertySpecs.doorLog
        let slow = ReplayFastPathTests.slow(program, Array(log.utf8), strict: false)
        #expect(slow.cases.joined().contains("noLockOpen@2"))
        #expect(ReplayFastPathTests.fast(program, Array(log.utf8), strict: false) == slow)
    }

    /// A lamp whose properties break in the ways `--explain` tells apart: `always … while G`
    /// (the sub-expressions that decided `X` and `G`), a deadline a timer's step started,
    /// and an expression that cannot be evaluated.
    static let lamp = """
        machine Lamp {
            var level: Number = 0
            var divisor: Number = 1
            event dim
            event bright
            event zero
            initial state off {
                on bright -> lit { level = 3 }
                on zero { divisor = 0 }
            }
            state lit {
                on dim { level -= 1 }
                after 1s -> warm
            }
            state warm {
                on dim -> off { level = 0 }
            }
            property glows: always level > 1 || in(warm) while in(lit)
            property finite: never 10 / divisor > 100
            property cools: after entering warm within 2s: in(off)
        }
        """

    static func explained(_ spec: String, _ log: String) throws -> [PropertyExplanation] {
        let program = try program(source: spec)
        var reader = EventLogReader(bytes: Array(log.utf8))
        var replayer = Replayer(program: program, options: Replayer.Options(explain: true))
        while let record = try reader.next() { try replayer.consume(record) }
        return replayer.report.cases.flatMap { c in
            (c.explanations ?? []).compactMap { e -> PropertyExplanation? in
                if case .property(let p) = e { return p }
                return nil
            }
        }
    }

    /// `'text' is value: reads` of each culprit, as the text report prints them.
    static func words(_ culprits: [Culprit]) -> [String] {
        culprits.map { "'\($0.text)' is \($0.value): " + $0.reads.map(\.description).joined(separator: ", ") }
    }

    @Test func explanationsSayWhatBrokeEachProperty() throws {
        let found = try Self.explained(Self.door, PropertySpecs.doorLog)
        #expect(found.map { "\($0.property)@\($0.line) spec line \($0.specLine) t=\($0.time)" }
                == ["noLockOpen@2 spec line 17 t=3.0", "shuts@4 spec line 20 t=9.0", "quiet@3 spec line 19 t=0.0",
                    "fewOpens@7 spec line 18 t=2.0"])
        guard found.count == 4 else { return }
        #expect(found[0].configuration == ["lockedOpen"])
        guard case .state(let lockOpen) = found[0].reason else { Issue.record("\(found[0])"); return }
        #expect(Self.words(lockOpen) == ["'in(lockedOpen)' is true: in(lockedOpen) = true"])
        // The wait started at the case's first line, at t=0.
        #expect(found[1].reason == .deadline(triggerLine: 1, triggerTime: 0, deadline: 5))
        guard case .precondition(let range, let text, let caseStart) = found[2].reason else { Issue.record("\(found[2])"); return }
        #expect(text == "in(opened)" && caseStart == 3)
        let machine = try program(source: Self.door).machine
        #expect(machine.text(range) == "in(opened)")
        guard case .state(let opens) = found[3].reason else { Issue.record("\(found[3])"); return }
        #expect(Self.words(opens) == ["'opens < 2' is false: opens = 2"])
    }

    @Test func explanationsOfAWhileATimersTriggerAndAFault() throws {
        let found = try Self.explained(Self.lamp, """
            {"event": "bright"}
            {"time": 0.5, "event": "dim"}
            {"time": 0.6, "event": "dim"}
            {"time": 2, "event": "zero"}
            {"time": 5, "event": "dim"}
            {"time": 6, "event": "zero"}
            """)
        #expect(found.map { "\($0.property)@\($0.line)" } == ["glows@3", "cools@5", "finite@6"])
        guard found.count == 3 else { return }
        // `||` is false by both operands; then `G`, which held.
        guard case .state(let glows) = found[0].reason else { Issue.record("\(found[0])"); return }
        #expect(Self.words(glows) == ["'level > 1' is false: level = 1", "'in(warm)' is false: in(warm) = false",
                                       "'in(lit)' is true: in(lit) = true"])
        // The timer that entered warm at t=1 fired at line 4, whose time (2) passed it.
        #expect(found[1].reason == .deadline(triggerLine: 4, triggerTime: 1, deadline: 3))
        #expect(found[1].configuration == ["warm"], "the clock passed the deadline before line 5's step")
        guard case .fault(let reads) = found[2].reason else { Issue.record("\(found[2])"); return }
        #expect(reads.map(\.description) == ["divisor = 0"])
    }
}
