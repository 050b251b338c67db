import Foundation
import Statecraft
import Testing
import TestSupport

/// `replay` watches the spec's properties on every case (`../shared/properties.md`,
/// "Monitoring in replay"): a violation fails the case and names the property, its line in
/// the spec and the log line where it became certain; the fast path agrees with the plain one.
@Suite struct ReplayPropertyTests {
    static let door = """
        machine Door {
            var opens: Number = 0
            event open
            event close
            event lock
            event alarm
            initial state closed {
                on open -> opened { opens += 1 }
                on alarm -> ringing
            }
            state opened {
                on close -> closed
                on lock -> lockedOpen
            }
            state lockedOpen
            state ringing
            property noLockOpen: never in(lockedOpen)
            property fewOpens: always opens < 2
            property quiet: in(ringing) only after in(opened)
            property shuts: after open within 5s: in(closed)
        }
        """

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
        let log = """
            {"case": "a", "event": "open"}
            {"case": "a", "time": 3, "event": "lock"}
            {"case": "b", "event": "alarm"}
            {"case": "a", "time": 9, "event": "close"}
            {"case": "c", "event": "open"}
            {"case": "c", "time": 1, "event": "close"}
            {"case": "c", "time": 2, "event": "open"}
            """
        let slow = ReplayFastPathTests.slow(program, Array(log.utf8), strict: false)
        #expect(slow.cases.joined().contains("noLockOpen@2"))
        #expect(ReplayFastPathTests.fast(program, Array(log.utf8), strict: false) == slow)
    }
}
