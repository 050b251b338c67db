import Statecraft
import Testing

/// A timer's deadline is the time it was armed at plus its delay, rounded to a double. Near
/// the largest double a 10 s delay rounds away (`t + 10 == t`: the timer would fire at once)
/// or overflows (it would never fire): replay refuses the line that armed it, on the
/// record-by-record and the in-place path alike. Every delay the language can write, down
/// to the smallest double, still replays at an ordinary time (`Instance.deadlineHolds`).
@Suite struct DeadlineTests {
    static let spec = """
        machine Kettle {
            var boiled: Number = 0
            event heat
            event ping
            event tick(delay: Number)
            initial state cold {
                on heat -> warming
                on ping { send heat after 10s }
                on tick { send heat after delay }
            }
            state warming {
                after 10s -> boiling
            }
            state boiling {
                entry { boiled += 1 }
            }
        }
        """

    /// Replays `log` both ways; both must give the same error (nil when there is none).
    static func replayError(_ log: String) throws -> LogError? {
        let program = try program(source: spec)
        var errors: [LogError?] = []
        var replayer = Replayer(program: program)
        var reader = EventLogReader(bytes: Array(log.utf8))
        do throws(LogError) {
            while let record = try reader.next() { try replayer.consume(record) }
            errors.append(nil)
        } catch {
            errors.append(error)
        }
        var raw = Replayer(program: program)
        var rawReader = EventLogReader(bytes: Array(log.utf8))
        do throws(LogError) {
            try raw.replay(&rawReader)
            errors.append(nil)
        } catch {
            errors.append(error)
        }
        #expect(errors[0]?.line == errors[1]?.line && errors[0]?.column == errors[1]?.column
                && errors[0]?.message == errors[1]?.message, "\(errors)")
        return errors[0]
    }

    @Test func aTimerWhoseDeadlineRoundsAwayIsRefusedAtItsLine() throws {
        let error = try #require(try Self.replayError("""
            {"time": 5, "expect": {"state": "cold"}}
            {"time": 1.7976931348623157e308, "event": "heat"}
            {"time": 1.7976931348623157e308, "expect": {"state": "warming"}}
            """))
        #expect(error.line == 2)
        #expect(error.column == 10, "the time's column")
        #expect(error.message == "time 1.7976931348623157e+308 is too large for a timer armed at it to be due 10 s later: "
            + "1.7976931348623157e+308 + 10 rounds to 1.7976931348623157e+308")
    }

    /// A delayed send is a deadline too; a line without a time is refused at its event.
    @Test func aDelayedSendIsRefusedAndALineWithoutTimeAtItsEvent() throws {
        let error = try #require(try Self.replayError("""
            {"time": 1e300, "expect": "cold"}
            {"event": "ping"}
            """))
        #expect(error.line == 2)
        #expect(error.column == 11)
        #expect(error.message == "time 1e+300 is too large for a timer armed at it to be due 10 s later: 1e+300 + 10 rounds to 1e+300")
    }

    @Test func aDeadlineBeyondTheLargestNumberIsRefused() throws {
        let error = try #require(try Self.replayError("""
            {"time": 1e308, "event": "tick", "delay": 1e308}
            """))
        #expect(error.message == "time 1e+308 is too large for a timer armed at it to be due 1e+308 s later: 1e+308 + 1e+308 is beyond the largest number")
    }

    /// The smallest delays at ordinary times, huge delays, and ordinary delays at Unix-epoch
    /// times all replay as before, though most of them are rounded.
    @Test func everyWritableDelayAtAnOrdinaryTimeReplays() throws {
        for (time, delay) in [(0.5, 1e-300), (0.5, Double.leastNonzeroMagnitude), (1.7e9, 0.3), (1.7e9, 1e-300), (0.3, 1e14),
                              (8e12, 0.0003), (1e300, 1e300), (2e300, 1e-300)] {
            #expect(try Self.replayError("""
                {"time": \(time), "event": "tick", "delay": \(delay)}
                """) == nil, "\(time) + \(delay)")
        }
        #expect(try Self.replayError("""
            {"time": 1e15, "event": "heat"}
            {"time": 1.00000000000001e15, "expect": {"state": "boiling", "vars": {"boiled": 1}}}
            """) == nil)
    }

    /// The rule itself, at its edges: rounding by a millisecond or a thousandth of the delay
    /// is tolerated, more is not.
    @Test func theRule() {
        #expect(Instance.deadlineHolds(at: 0, after: 5e-324))
        #expect(Instance.deadlineHolds(at: 0x1p43, after: 0.3))  // spacing 2^-9: off by at most 2^-10 < 1 ms
        #expect(!Instance.deadlineHolds(at: 0x1p45, after: 0.3))  // spacing 2^-7: 0.3 is off by 0.003
        #expect(Instance.deadlineHolds(at: 0x1p45, after: 2))  // but 2 s is exact there
        #expect(Instance.deadlineHolds(at: 1e20, after: 1e19))  // off by a thousandth of nothing
        #expect(!Instance.deadlineHolds(at: 2e300, after: 2))
        #expect(!Instance.deadlineHolds(at: 1.7976931348623157e308, after: 10))
        #expect(!Instance.deadlineHolds(at: 1e308, after: 1e308))
    }
}
