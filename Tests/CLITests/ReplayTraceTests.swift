import Foundation
import Testing
import TestSupport

/// `statecraft replay --trace` output through the command line (the driver, in process): the
/// exact bytes (golden files recorded before trace output was buffered), and that buffered
/// output comes out whole and in order, whatever stops the replay.
@Suite struct ReplayTraceTests {
    static let golden = Repository.root.appendingPathComponent("Tests/CLITests/Golden")

    /// A hostile machine and log (quotes, backslashes, control characters, emoji, huge and
    /// tiny numbers, cases, timers, rejections, events after the final state).
    @Test(arguments: [
        (["--trace"], "hostile.jsonl", "replay-trace.txt", Int32(1)),
        (["--trace", "--format", "jsonl"], "hostile.jsonl", "replay-trace.jsonl", 1),
        (["--trace", "--format", "json"], "hostile.jsonl", "replay-trace.json", 1),
        (["--trace", "--strict", "--format", "jsonl"], "hostile.jsonl", "replay-trace-strict.jsonl", 1),
        (["--trace"], "hostile-bad.jsonl", "replay-trace-bad.txt", 2),
        (["--trace", "--format", "jsonl"], "hostile-bad.jsonl", "replay-trace-bad.jsonl", 2),
    ])
    func traceOutputIsUnchanged(options: [String], log: String, expected: String, status: Int32) throws {
        let r = try CLI.run(["replay"] + options + ["Hostile.machine", log], in: ReplayTraceTests.golden)
        #expect(r.status == status)
        #expect(Golden.compare(r.stdout, to: ReplayTraceTests.golden.appendingPathComponent(expected)) == nil)
    }

    /// A statechart's trace: each step's leaves before and after, then one line per
    /// microstep (golden text); in JSON Lines, every line parses and a step carries its
    /// configuration and microsteps.
    @Test func aStatechartsTraceShowsEveryMicrostep() throws {
        let spec = "Specs/MediaPlayer.machine", log = "Specs/MediaPlayer.session.jsonl"
        let text = try CLI.run(["replay", "--trace", spec, log])
        #expect(text.status == 0)
        #expect(Golden.compare(text.stdout, to: ReplayTraceTests.golden.appendingPathComponent("media-player-trace.txt")) == nil)
        let jsonl = try CLI.run(["replay", "--trace", "--format", "jsonl", spec, log])
        #expect(jsonl.status == 0)
        let objects = try jsonl.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let prerolled = try #require(objects.first { $0["line"] as? Int == 4 })
        let microsteps = try #require(prerolled["microsteps"] as? [[String: Any]])
        #expect(microsteps.map { $0["trigger"] as? String } == ["event", "done", "raised"])
        #expect(microsteps.map { $0["name"] as? String } == ["prerolled", "loading", "play"])
        #expect(microsteps.last?["entered"] as? [String] == ["playing", "streaming"])
        #expect((prerolled["configuration"] as? [String])?.contains("streaming") == true)
        let tick = try #require(objects.first { $0["line"] as? Int == 6 })
        #expect(tick["targetless"] as? Bool == true)
    }

    /// `count` Drawer events, each traced as a JSON line of about 250 bytes.
    static func drawerLog(_ count: Int) -> String {
        (1...count).map { "{\"time\": \(Double($0) / 100), \"event\": \"touchMoved\", \"y\": \($0).5}\n" }.joined()
    }

    static func jsonObjects(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// Many times the output buffer: every step once, in order, then the report.
    @Test func aLargeTraceComesOutWholeAndInOrder() throws {
        let steps = 6000
        let dir = try ReplayCommandTests.folder(["big.jsonl": ReplayTraceTests.drawerLog(steps)])
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = Repository.specs.appendingPathComponent("Drawer.machine").path
        let r = try CLI.run(["replay", "--trace", "--format", "jsonl", spec, "big.jsonl"], in: dir)
        #expect(r.status == 0)
        #expect(r.stdout.utf8.count > 4 * 65536)
        let objects = try ReplayTraceTests.jsonObjects(r.stdout)
        #expect(objects.count == steps + 1)
        #expect(objects.dropLast().map { $0["line"] as? Int } == (1...steps).map { $0 })
        #expect(objects.last?["report"] != nil)

        let text = try CLI.run(["replay", "--trace", spec, "big.jsonl"], in: dir)
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.prefix(steps).enumerated().allSatisfy { $0.element.hasPrefix("line \($0.offset + 1), t=") })
        #expect(text.stdout.hasSuffix("1 case, \(steps) events (0 applied, \(steps) ignored, 0 rejected), 0 expectations (0 failed)\n"))
    }

    /// A malformed line after several buffers' worth of trace: everything before it is
    /// written, then the report that names it, and the exit status says so.
    @Test(arguments: ["text", "jsonl"])
    func aMalformedLineKeepsEverythingProducedBeforeIt(format: String) throws {
        let before = 3000
        let log = ReplayTraceTests.drawerLog(before) + "{\"event\": \"touchMoved\", \"y\": }\n" + ReplayTraceTests.drawerLog(5)
        let dir = try ReplayCommandTests.folder(["bad.jsonl": log])
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = Repository.specs.appendingPathComponent("Drawer.machine").path
        let r = try CLI.launch(["replay", "--trace", "--format", format, spec, "bad.jsonl"], in: dir)
        #expect(r.status == 2)
        #expect(r.exitedNormally)
        if format == "jsonl" {
            let objects = try ReplayTraceTests.jsonObjects(r.stdout)
            #expect(objects.count == before + 1)
            #expect(objects.dropLast().map { $0["line"] as? Int } == (1...before).map { $0 })
            let report = try #require(objects.last?["report"] as? [String: Any])
            #expect((report["error"] as? [String: Any])?["line"] as? Int == before + 1)
        } else {
            let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines[before - 1].hasPrefix("line \(before), t="))
            #expect(r.stdout.contains("bad.jsonl: note: replay stopped at line \(before + 1)"))
            #expect(r.stdout.hasSuffix("\(before) events (0 applied, \(before) ignored, 0 rejected), 0 expectations (0 failed)\n"))
        }
    }

    /// Standard input (a pipe here, written line by line) gives the same trace as a file.
    @Test func standardInputTracesLikeAFile() throws {
        let log = ReplayTraceTests.drawerLog(1500)
        let dir = try ReplayCommandTests.folder(["in.jsonl": log])
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = Repository.specs.appendingPathComponent("Drawer.machine").path
        for format in ["text", "jsonl", "json"] {
            let file = try CLI.run(["replay", "--trace", "--format", format, spec, "in.jsonl"], in: dir)
            let piped = try CLI.run(["replay", "--trace", "--format", format, spec, "-"], in: dir, input: log)
            #expect(piped.status == 0)
            #expect(piped.stdout == file.stdout.replacingOccurrences(of: "in.jsonl", with: "<stdin>"), "\(format)")
        }
    }

    /// Several logs, one missing: each log's steps and report come out before the next log's;
    /// the missing one gets a failed report in the stream and an error on standard error.
    @Test func logsComeOutInOrderAroundAMissingOne() throws {
        let dir = try ReplayCommandTests.folder(["one.jsonl": ReplayTraceTests.drawerLog(400), "two.jsonl": ReplayTraceTests.drawerLog(300)])
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = Repository.specs.appendingPathComponent("Drawer.machine").path
        let r = try CLI.run(["replay", "--trace", "--format", "jsonl", spec, "one.jsonl", "missing.jsonl", "two.jsonl"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("error: cannot read 'missing.jsonl'"))
        let objects = try ReplayTraceTests.jsonObjects(r.stdout)
        #expect(objects.count == 703)
        #expect(objects[0..<400].allSatisfy { $0["log"] as? String == "one.jsonl" })
        #expect((objects[400]["report"] as? [String: Any])?["log"] as? String == "one.jsonl")
        let missing = objects[401]["report"] as? [String: Any]
        #expect(missing?["log"] as? String == "missing.jsonl")
        #expect(missing?["passed"] as? Bool == false)
        #expect(objects[402..<702].allSatisfy { $0["log"] as? String == "two.jsonl" })
        #expect((objects[702]["report"] as? [String: Any])?["log"] as? String == "two.jsonl")
    }

    /// A completion carries the values its final state gave (`final state settled(code: 200, …)`):
    /// its `done` microstep shows them as a step shows its event's payload, in text (`done(x)(code:
    /// 200, …)`) and in JSON Lines (`"payload"`), taken or lost.
    @Test func aCompletionShowsItsValues() throws {
        let spec = """
            machine Request {
                var total: Number = 1
                public var status: String = ""
                event ok
                event fail
                event again
                initial state loading {
                    initial state waiting {
                        on ok -> settled
                        on fail -> failed
                    }
                    final state settled(code: 200, count: total + 1, fine: true, note: "fine")
                    final state failed(code: 500, count: 0, fine: false, note: "bad \\"x\\"")
                    done if fine -> shown { status = note }
                }
                state shown { on again -> loading }
            }

            """
        let log = """
            {"time": 0, "event": "ok"}
            {"time": 1, "event": "again"}
            {"time": 2, "event": "fail"}

            """
        let dir = try ReplayCommandTests.folder(["request.machine": spec, "request.jsonl": log])
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = try CLI.run(["replay", "--trace", "request.machine", "request.jsonl"], in: dir)
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("    done(loading)(code: 200, count: 2, fine: true, note: \"fine\"): exited settled, loading; "
                               + "took loading -> shown (line 14); entered shown"), "\(text.stdout)")
        #expect(lines.contains("    done(loading)(code: 500, count: 0, fine: false, note: \"bad \\\"x\\\"\"): lost, no transition takes it"),
                "\(text.stdout)")
        let jsonl = try CLI.run(["replay", "--trace", "--format", "jsonl", "request.machine", "request.jsonl"], in: dir)
        #expect(jsonl.status == 0)
        let objects = try ReplayTraceTests.jsonObjects(jsonl.stdout)
        let done = objects.prefix(3).compactMap { ($0["microsteps"] as? [[String: Any]])?.first { $0["trigger"] as? String == "done" } }
        #expect(done.count == 2)
        let taken = try #require(done.first?["payload"] as? [String: Any])
        #expect(taken["code"] as? Int == 200 && taken["count"] as? Int == 2 && taken["fine"] as? Bool == true
                && taken["note"] as? String == "fine", "\(taken)")
        let lost = try #require(done.last?["payload"] as? [String: Any])
        #expect(lost["code"] as? Int == 500 && lost["fine"] as? Bool == false && lost["note"] as? String == "bad \"x\"", "\(lost)")
        // Other microsteps carry no payload.
        let first = try #require(objects.first?["microsteps"] as? [[String: Any]])
        #expect(first.first?["payload"] == nil)
    }

    /// A statechart's step may write its event's payload registers again (a completion's
    /// values go there): the trace shows the payload the line gave, not what the step left.
    @Test func aStepShowsTheEventsPayloadEvenWhereACompletionReusedItsRegisters() throws {
        let spec = """
            machine Till {
                public var paid: Number = 0
                event pay(amount: Number)
                initial state open {
                    initial state waiting {
                        on pay if amount >= 0 -> settled { paid = amount }
                    }
                    final state settled(ok: true)
                    done -> closed
                }
                state closed
            }

            """
        let dir = try ReplayCommandTests.folder(["till.machine": spec, "till.jsonl": "{\"time\": 0, \"event\": \"pay\", \"amount\": 30}\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = try CLI.run(["replay", "--trace", "till.machine", "till.jsonl"], in: dir)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("pay(amount: 30)"), "\(text.stdout)")
        let jsonl = try CLI.run(["replay", "--trace", "--format", "jsonl", "till.machine", "till.jsonl"], in: dir)
        let step = try #require(try ReplayTraceTests.jsonObjects(jsonl.stdout).first)
        #expect((step["payload"] as? [String: Any])?["amount"] as? Int == 30, "\(step)")

        // The same for an event the machine sent itself, taken when its timer fires.
        let sent = spec.replacingOccurrences(of: "event pay(amount: Number)", with: "event pay(amount: Number)\n    event start")
            .replacingOccurrences(of: "initial state waiting {", with: "initial state waiting {\n            on start { send pay(30) after 1s }")
        try Data(sent.utf8).write(to: dir.appendingPathComponent("sent.machine"))
        try Data("{\"time\": 0, \"event\": \"start\"}\n{\"time\": 2, \"expect\": {\"state\": \"closed\"}}\n".utf8)
            .write(to: dir.appendingPathComponent("sent.jsonl"))
        let timed = try CLI.run(["replay", "--trace", "sent.machine", "sent.jsonl"], in: dir)
        #expect(timed.status == 0, "\(timed.stderr)")
        #expect(timed.stdout.contains("pay(amount: 30)") && !timed.stdout.contains("pay(amount: 1)"), "\(timed.stdout)")
    }
}
