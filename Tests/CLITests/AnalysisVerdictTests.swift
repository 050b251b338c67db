import Foundation
import Testing
import TestSupport

/// `statecraft check`'s verdicts as a user meets them: the repros of issue 15 that used to
/// get a wrong or unhelpful answer, run through the command line (the driver, in process).
@Suite struct AnalysisVerdictTests {
    static let fixtures = "Tests/CheckerTests/Fixtures"

    /// Writes `text` to a fresh temporary spec file and returns its path.
    static func spec(_ text: String, name: String = "spec.machine") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-verdicts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Sixteen tab constants no longer crowd out `dy > 100`: the search tries 101 for `dy`.
    @Test func largeGuardConstantsAreTriedForTheFieldTheyGuard() throws {
        let r = try CLI.run(["check", "--witnesses", "\(AnalysisVerdictTests.fixtures)/payload-constants.machine"])
        #expect(r.status == 0)
        #expect(!r.stdout.contains("not-reached"))
        #expect(r.stdout.contains("state searching"))
        let searching = try #require(r.stdout.split(separator: "\n").first { $0.contains("state searching") })
        #expect(searching.contains("reached by pull(dy: 101)"))
        // Whatever the bounds, it does not come back as "not reached".
        let small = try CLI.run(["check", "--max-configurations", "40", "\(AnalysisVerdictTests.fixtures)/payload-constants.machine"])
        #expect(!small.stdout.contains("not-reached"))
    }

    /// A machine whose initial entry fails is one error at the failing expression.
    @Test func aMachineThatCannotStartIsAnError() throws {
        let r = try CLI.run(["check", "\(AnalysisVerdictTests.fixtures)/start-fails.machine"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("start-fails.machine:10:21: error: the machine cannot start: entering 'a' fails at run time (division by zero (1 / 0))"))
        #expect(!r.stdout.contains("not-reached"))
        #expect(r.stdout.hasSuffix("checked 1 file: 1 error, 0 warnings\n"))
        let witnesses = try CLI.run(["check", "--witnesses", "\(AnalysisVerdictTests.fixtures)/start-fails.machine"])
        #expect(witnesses.stdout.contains("state a"))
        #expect(witnesses.stdout.contains("unreachable: the machine cannot start"))
    }

    /// A state behind an entry that always fails is explained by the failure, and the
    /// constant fault is an error where it is written.
    @Test func aConstantFaultIsExplainedWhereItIsWritten() throws {
        let r = try CLI.run(["check", "\(AnalysisVerdictTests.fixtures)/run-time-faults.machine"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("run-time-faults.machine:14:11: error: state 'b' is unreachable: every way into it fails at run time: 'sqrt(-1)' (line 15) always fails [unreachable-state]"))
        #expect(r.stdout.contains("run-time-faults.machine:15:21: error: 'sqrt(-1)' always fails at run time: 'sqrt' of -1 is not a finite number [constant-fault]"))
        #expect(!r.stdout.contains("no transition into it can ever fire"))
    }

    /// `on tap if 10 / x > 2` with x counted down to 0: a warning with the taps that make it fail.
    @Test func aRunTimeFaultTheSearchFindsIsAWarningWithItsWitness() throws {
        let r = try CLI.run(["check", "\(AnalysisVerdictTests.fixtures)/run-time-faults.machine"])
        #expect(r.stdout.contains("run-time-faults.machine:12:19: warning: this can fail at run time: division by zero (10 / 0); the step is rejected and undone [run-time-fault]"))
        #expect(r.stdout.contains("note: it fails at the last of these steps: tap, tap"))
    }

    @Test func zeroDelayTimersThatComeBackAreALoop() throws {
        let r = try CLI.run(["check", "\(AnalysisVerdictTests.fixtures)/timer-loop.machine"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("timer-loop.machine:12:9: warning: timers with no delay loop forever ('spinning' -> 'spinning')"))
        #expect(r.stdout.contains("timer-loop.machine:15:18: warning: timers with no delay loop forever ('ping' -> 'pong' -> 'ping')"))
        #expect(!r.stdout.contains("run-time-fault"))
        #expect(!r.stdout.contains("'idle' -> 'idle'"))
    }

    /// "Not reached" says what stopped the search, and what would help.
    @Test func notReachedSaysWhy() throws {
        let depth = try CLI.run(["check", "\(AnalysisVerdictTests.fixtures)/guard-equality.machine"])
        #expect(depth.stdout.contains("guard-equality.machine:15:17: warning: state 'five' was not reached within the search's limits [not-reached]\n"))
        #expect(depth.stdout.contains("guard-equality.machine: note: why, for the 2 not-reached findings of this spec: "
            + "witnesses longer than 12 steps were not tried (raise it with --max-depth)"))
        let configurations = try CLI.run(["check", "--max-configurations", "3", "\(AnalysisVerdictTests.fixtures)/guard-equality.machine"])
        #expect(configurations.stdout.contains("the search stopped at its bound of 3 configurations (raise it with --max-configurations)"))
        // A search that ran out of configurations with every input tried is a proof.
        let proof = try CLI.run(["check", "\(AnalysisVerdictTests.fixtures)/exhaustive-proof.machine"])
        #expect(proof.stdout.contains("state 'odd' is unreachable: the search visited every reachable configuration (4) and tried every distinct input in each"))
        #expect(!proof.stdout.contains("not-reached"))
    }

    /// Every output format says why items were not reached once per spec, in a note on the
    /// first of them, and each item in one short line: a spec with many of them stays usable
    /// in CI.
    @Test func notReachedReasonIsSaidOncePerSpecInEveryFormat() throws {
        let path = "\(AnalysisVerdictTests.fixtures)/not-reached-collapse.machine"
        for format in ["text", "json", "sarif", "github"] {
            let r = try CLI.run(["check", "--format", format, path])
            #expect(r.status == 0)
            let reasons = r.stdout.components(separatedBy: "raise it with --max-depth").count - 1
            // (JSON's reachability lists the reason of each of the 8 items too, for tools.)
            #expect(reasons == (format == "json" ? 1 + 8 : 1), "\(format)")
            #expect(r.stdout.components(separatedBy: "was not reached within the search's limits").count - 1 == 4, "\(format)")
        }
    }

    /// The JSON report carries the faults, the search's limits and why an item was not reached.
    @Test func jsonCarriesFaultsLimitsAndReasons() throws {
        let r = try CLI.run(["check", "--format", "json", "\(AnalysisVerdictTests.fixtures)/run-time-faults.machine",
                             "\(AnalysisVerdictTests.fixtures)/guard-equality.machine"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let explorations = try #require(object["exploration"] as? [[String: Any]])
        #expect(explorations.count == 2)
        let faults = try #require(explorations.first?["faults"] as? [[String: Any]])
        let fault = try #require(faults.first { $0["line"] as? Int == 12 })
        #expect(fault["message"] as? String == "division by zero (10 / 0)")
        #expect((fault["witness"] as? [[String: Any]])?.count == 2)
        let parity = explorations[1]
        #expect((parity["limits"] as? [String: Any])?["depthBoundHit"] as? Bool == true)
        let five = try #require((parity["states"] as? [[String: Any]])?.first { $0["name"] as? String == "five" })
        #expect(five["status"] as? String == "not-reached")
        #expect((five["reason"] as? String)?.contains("raise it with --max-depth") == true)
    }

    /// Hundreds of transitions the search cannot reach in one state are one warning, not hundreds.
    @Test func notReachedTransitionsCollapsePerState() throws {
        var lines = ["machine Many {", "    var count: Number = 0", "    event tick", "    event check", "    initial state counting {",
                     "        on tick { count += 1 }"]
        for k in 100..<400 { lines.append("        on check if count == \(k) -> done") }
        lines += ["    }", "    final state done", "}"]
        let path = try AnalysisVerdictTests.spec(lines.joined(separator: "\n") + "\n")
        let r = try CLI.run(["check", path])
        #expect(r.status == 0)
        #expect(r.stdout.contains("warning: 300 transitions of state 'counting' were not reached within the search's limits [not-reached]\n"))
        #expect(r.stdout.contains("note: why, for the 2 not-reached findings of this spec: witnesses longer than 12 steps were not tried"))
        #expect(r.stdout.hasSuffix("checked 1 file: 0 errors, 2 warnings\n"))
    }

    /// When numbers the spec uses were not tried as payload values, the message names them.
    @Test func untriedNumbersAreNamed() throws {
        var lines = ["machine Sampled {", "    public var total: Number = 0", "    event add(amount: Number)", "    event check",
                     "    initial state adding {"]
        // The field feeds arithmetic, so payloads are sampled; 60 constants exceed the 48 tried.
        for k in 1...60 { lines.append("        on add if total + amount == \(k * 1000) { total = total + amount * \(k) }") }
        lines += ["        on check if total == 123456789 -> done", "    }", "    final state done", "}"]
        let path = try AnalysisVerdictTests.spec(lines.joined(separator: "\n") + "\n")
        let r = try CLI.run(["check", "--max-depth", "2", path])
        #expect(r.stdout.contains("payloads were sampled"))
        #expect(r.stdout.contains("numbers of the spec tried only for the fields whose guards use them: "))
    }
}
