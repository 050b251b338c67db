import Foundation
import Testing
import TestSupport

/// What a newcomer writing their first specs meets in the language, through the command line (the driver, in process).
@Suite struct LanguageMessageTests {
    static let fixtures = "Tests/CheckerTests/Fixtures"

    /// `var f: bool` suggests `Bool`, and its uses (`f = !f`) add nothing.
    @Test func aMisspeltTypeIsOneErrorNotACascade() throws {
        let r = try CLI.run(["check", "\(LanguageMessageTests.fixtures)/unknown-types.machine"])
        #expect(r.status == 1)
        #expect(r.stdout.hasSuffix("checked 1 file: 4 errors, 0 warnings\n"))
        #expect(!r.stdout.contains("[type-mismatch]"))
        #expect(r.stdout.contains("unknown-types.machine:4:12: note: did you mean 'Bool'?"))
        #expect(r.stdout.contains("unknown-types.machine:5:12: note: use 'Number'"))
    }

    @Test func swiftHabitsGetTheirOwnMessages() throws {
        let r = try CLI.run(["check", "\(LanguageMessageTests.fixtures)/swift-habits.machine"])
        #expect(r.status == 1)
        for expected in [
            "swift-habits.machine:8:25: error: '=' assigns; to compare in a guard, write '=='",
            "swift-habits.machine:9:29: error: expected '->' before the target state 'busy'",
            "swift-habits.machine:10:24: error: a transition has one target, and 'else' does not continue it",
            "swift-habits.machine:11:25: error: 'and' is written '&&' here, as in Swift",
            "swift-habits.machine:12:25: error: 'or' is written '||' here, as in Swift",
            "swift-habits.machine:13:19: error: 'not' is written '!' here, as in Swift",
            "swift-habits.machine:15:5: note: did you mean 'initial'?",
            "swift-habits.machine:19:9: note: did you mean 'entry'?",
        ] {
            #expect(r.stdout.contains(expected), "\(expected)")
        }
        #expect(!r.stdout.contains("a new line after the transition"))
    }

    @Test func anUnclosedBracePointsBackAtItsOpening() throws {
        let r = try CLI.run(["check", "\(LanguageMessageTests.fixtures)/unclosed-brace.machine"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("error: expected '}' at the end of state 'a', found end of file"))
        #expect(r.stdout.contains("unclosed-brace.machine:4:21: note: the '{' opened here is never closed"))
    }

    @Test func aByteOrderMarkIsAccepted() throws {
        var bytes: [UInt8] = [0xEF, 0xBB, 0xBF]
        bytes += Repository.bytes(Repository.specs.appendingPathComponent("Drawer.machine"))
        let r = try CLI.run(["check", "-"], input: String(decoding: bytes, as: UTF8.self))
        #expect(r.status == 0)
        #expect(r.stdout == "checked 1 file: 0 errors, 0 warnings, 4 properties proven\n")
        let column = try CLI.run(["check", "\(LanguageMessageTests.fixtures)/bom.machine"])
        #expect(column.stdout.hasPrefix("\(LanguageMessageTests.fixtures)/bom.machine:1:15: error: "))
    }
}

/// String interpolation, Swift's spelling: values as reports and traces print them.
@Suite struct StringInterpolationTests {
    static let spec = """
        machine Login {
            public var attempts: Number = 0
            public var third: Number = 0
            public var message: String = ""
            public var locked: Bool = false
            event fail
            event check(code: String)
            initial state editing {
                on fail {
                    attempts += 1
                    third = attempts / 3
                    locked = attempts >= 2
                    message = "Wrong password \\(attempts) of \\(3), \\(third), \\(-attempts * 1.5) locked: \\(locked)"
                }
                on check { message = "nested \\("code \\(code) #\\(attempts + 1)") done" }
            }
        }
        """

    @Test func valuesReadAsTheTracePrintsThem() throws {
        let path = try AnalysisVerdictTests.spec(StringInterpolationTests.spec)
        #expect(try CLI.run(["check", path]).status == 0)
        let log = """
            {"event": "fail"}
            {"expect": {"vars": {"message": "Wrong password 1 of 3, 0.3333333333333333, -1.5 locked: false"}}}
            {"event": "fail"}
            {"expect": {"vars": {"message": "Wrong password 2 of 3, 0.6666666666666666, -3 locked: true"}}}
            {"event": "check", "code": "🙂\\"x"}
            {"expect": {"vars": {"message": "nested code 🙂\\"x #3 done"}}}

            """
        let r = try CLI.run(["replay", path], input: log)
        #expect(r.status == 0, "\(r.stdout)")
        // The trace prints the numbers with the same digits.
        let trace = try CLI.run(["replay", "--trace", path], input: "{\"event\": \"fail\"}\n")
        #expect(trace.stdout.contains("third = 0.3333333333333333"))
    }

    @Test func addingANumberToAStringSaysToInterpolate() throws {
        let path = try AnalysisVerdictTests.spec("""
            machine M {
                var attempts: Number = 0
                public var s: String = ""
                event e
                initial state a { on e { s = "Wrong password " + attempts } }
            }
            """)
        let r = try CLI.run(["check", path])
        #expect(r.status == 1)
        #expect(r.stdout.contains("5:54: error: '+' joins two 'String's, found 'String' and 'Number' [type-mismatch]"))
        #expect(r.stdout.contains("note: to put a value into a string, interpolate it: \"…\\(attempts)…\""))
    }

    @Test func anInterpolationMustCloseOnItsLine() throws {
        let path = try AnalysisVerdictTests.spec("""
            machine M {
                public var s: String = ""
                event e
                initial state a { on e { s = "x \\(1 + 2" } }
            }
            """)
        let r = try CLI.run(["check", path])
        #expect(r.status == 1)
        #expect(r.stdout.contains("[unterminated-string]"))
    }
}
