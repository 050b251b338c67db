import Statecraft
import Testing

/// A timer's deadline is the time it was armed at plus its delay, in doubles. Near the
/// largest double a 10 s delay rounds away (`t + 10 == t`: the timer would fire at once) or
/// overflows to infinity (it would never fire): replay refuses such a line with an error at
/// its time, on both the record-by-record and the in-place path, instead of firing early.
@Suite struct DeadlineTests {
    static let spec = """
        machine Kettle {
            var boiled: Number = 0
            event heat
            event ping
            initial state cold {
                on heat -> warming
                on ping { send heat after 10s }
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
        // The record-by-record path.
        var replayer = Replayer(program: program)
        var reader = EventLogReader(bytes: Array(log.utf8))
        do throws(LogError) {
            while let record = try reader.next() { try replayer.consume(record) }
            errors.append(nil)
        } catch {
            errors.append(error)
        }
        // The in-place path.
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
        #expect(error.message == "a timer armed at time 1.7976931348623157e+308 cannot be due 10 s later: 1.7976931348623157e+308 + 10 rounds back to 1.7976931348623157e+308")
    }

    /// A delayed send is a deadline too.
    @Test func aDelayedSendWhoseDeadlineRoundsAwayIsRefused() throws {
        let error = try #require(try Self.replayError("""
            {"time": 1e300, "event": "ping"}
            """))
        #expect(error.line == 1)
        #expect(error.message == "a timer armed at time 1e+300 cannot be due 10 s later: 1e+300 + 10 rounds back to 1e+300")
    }

    /// Large times whose deadlines are still later than them replay as before.
    @Test func largeButRepresentableTimesStillWork() throws {
        #expect(try Self.replayError("""
            {"time": 1e15, "event": "heat"}
            {"time": 1.00000000000001e15, "expect": {"state": "boiling", "vars": {"boiled": 1}}}
            """) == nil)
    }
}
