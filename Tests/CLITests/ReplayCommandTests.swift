import Foundation
import Testing
import TestSupport

/// `statecraft replay` through the command line (the driver, in process).
@Suite struct ReplayCommandTests {
    static let machines = ["Drawer", "VibrantButton", "PullToRefresh", "PeekRating", "SwipeToDismiss"]

    /// A temporary folder with the given files, removed by the caller.
    static func folder(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return dir
    }

    @Test(arguments: ReplayCommandTests.machines)
    func shippedSessionLogsReplayClean(machine: String) throws {
        let r = try CLI.run(["replay", "Specs/\(machine).machine", "Specs/\(machine).session.jsonl"])
        #expect(r.status == 0, "\(r.stdout)")
        let summary = r.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(summary.hasPrefix("replayed Specs/\(machine).session.jsonl: "))
        #expect(summary.hasSuffix(" expectations (0 failed)"))
        #expect(summary.contains(" 0 rejected)"))
    }

    /// The Interactions article replays every shipped log (the documentation tests check that
    /// each shows what the command prints).
    @Test func theInteractionsArticleShowsEveryShippedLog() throws {
        let article = try String(contentsOf: Repository.root.appendingPathComponent(
            "Sources/Statecraft/Statecraft.docc/Interactions.md"), encoding: .utf8)
        for m in ReplayCommandTests.machines + ["MediaPlayer", "CheckoutScreen"] {
            #expect(article.contains("$ statecraft replay Specs/\(m).machine Specs/\(m).session.jsonl\n"), "\(m)")
        }
    }

    @Test func aFailedExpectationExitsOneAndNamesLineExpectedAndActual() throws {
        let dir = try ReplayCommandTests.folder(["s.jsonl": """
            {"event": "touchBegan", "y": 300, "onContent": true}
            {"event": "touchMoved", "y": 100}
            {"expect": {"state": "dragging", "vars": {"directionTop": true, "originY": -617}}}
            {"event": "touchEnded", "y": 50}
            {"expect": "open"}

            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["replay", Repository.specs.appendingPathComponent("Drawer.machine").path, "s.jsonl"], in: dir)
        #expect(r.status == 1)
        #expect(r.stdout.contains("s.jsonl:3:76: error: expected originY = -617, found -200 [expectation-failed]\n"))
        #expect(r.stdout.contains("s.jsonl:5:12: error: expected state 'open', found 'closed' [expectation-failed]\n"))
        #expect(r.stdout.contains("  expectations  2 checked, 2 failed\n"))
    }

    @Test func aMalformedLineExitsTwoAndKeepsWhatCameBefore() throws {
        let dir = try ReplayCommandTests.folder(["s.jsonl": """
            {"event": "tap"}
            {"expect": {"outputs": ["didTap"]}}
            {"event": "tap", "force": 1}
            {"event": "tap"}

            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["replay", Repository.specs.appendingPathComponent("VibrantButton.machine").path, "s.jsonl"], in: dir)
        #expect(r.status == 2)
        #expect(r.stdout.contains("s.jsonl:3:18: error: event 'tap' has no field 'force'; it has no payload [malformed-log-line]"))
        #expect(r.stdout.contains("  outputs       didTap(0)\n"))
        #expect(r.stdout.contains("replay stopped at line 3"))
        #expect(r.stdout.hasSuffix("1 case, 1 event (1 applied, 0 ignored, 0 rejected), 1 expectation (0 failed)\n"))
    }

    @Test func badJSONIsReportedWithItsColumn() throws {
        let r = try CLI.run(["replay", "Specs/Drawer.machine", "-"], input: "{\"event\": \"touchMoved\", \"y\": 1,}\n")
        #expect(r.status == 2)
        #expect(r.stdout.contains("<stdin>:1:32: error: expected a string key, found '}' [malformed-log-line]"))
    }

    @Test func standardInputIsTheDefault() throws {
        let log = try String(contentsOf: Repository.specs.appendingPathComponent("Drawer.session.jsonl"), encoding: .utf8)
        let r = try CLI.run(["replay", "Specs/Drawer.machine"], input: log)
        #expect(r.status == 0)
        #expect(r.stdout.contains("replayed <stdin>: 1 case"))
    }

    @Test func aRunTimeErrorRejectsTheEventAndPointsIntoTheSpec() throws {
        let dir = try ReplayCommandTests.folder([
            "m.machine": """
                machine Ratio {
                    public var ratio: Number = 1
                    event measure(width: Number, height: Number)
                    initial state idle {
                        on measure { ratio = width / height }
                    }
                }

                """,
            "s.jsonl": """
                {"event": "measure", "width": 4, "height": 2}
                {"event": "measure", "width": 4, "height": 0}
                {"expect": {"vars": {"ratio": 2}}}

                """,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["replay", "m.machine", "s.jsonl"], in: dir)
        #expect(r.status == 1)
        #expect(r.stdout.contains("s.jsonl:2:11: error: event 'measure' was rejected: division by zero (4 / 0) [event-rejected]"))
        #expect(r.stdout.contains("m.machine:5:30: note: the failing expression in the spec\n"))
        #expect(r.stdout.contains("  expectations  1 checked, 0 failed\n"), "the step was undone: ratio is still 2")
    }

    @Test func strictRejectsIgnoredEvents() throws {
        let log = "{\"event\": \"touchMoved\", \"y\": 5}\n"
        #expect(try CLI.run(["replay", "Specs/Drawer.machine"], input: log).status == 0)
        let strict = try CLI.run(["replay", "--strict", "Specs/Drawer.machine"], input: log)
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("event 'touchMoved' was ignored: no transition of state 'open' takes it (--strict)"))
    }

    @Test func traceLinesShowEachStep() throws {
        let r = try CLI.run(["replay", "--trace", "Specs/PullToRefresh.machine", "Specs/PullToRefresh.session.jsonl"])
        #expect(r.status == 0)
        let lines = r.stdout.components(separatedBy: "\n")
        #expect(lines.contains("line 14, t=1.25: endDragging: pulling -> refreshing; emitted didRefresh; set insetTop = 110"))
        #expect(lines.contains("line 20, t=3.25: after 2s: refreshing -> idle; set insetTop = 0"))
        // An event ignored because a guard was false says which guard, and on what values.
        #expect(lines.contains("line 7, t=0.3: endDragging: ignored in pulling: the guard 'progress >= 1' (line 28) is false (progress = 0.8)"))
        // With no transition for the event at all, there is nothing more to say.
        #expect(lines.contains("line 21, t=3.3: endRefreshing: ignored in idle"))
    }

    /// `--strict` names the false guards, their lines and the values they read, instead of
    /// "no transition of state 'editing' takes it".
    @Test func strictNamesTheGuardThatWasFalse() throws {
        let spec = try AnalysisVerdictTests.spec("""
            machine Form {
                var submitEnabled: Bool = false
                public var count: Number = 0
                event submit(force: Number)
                event type
                initial state editing {
                    on type { submitEnabled = true }
                    on submit if submitEnabled && force > 0.5 -> sent
                    on submit if count > 3 { count += 1 }
                }
                final state sent
            }
            """)
        let r = try CLI.run(["replay", "--strict", spec], input: "{\"event\": \"submit\", \"force\": 0.25}\n")
        #expect(r.status == 1)
        #expect(r.stdout.contains("<stdin>:1:11: error: event 'submit' was ignored: in state 'editing', the guard 'submitEnabled && force > 0.5' (line 8) is false (submitEnabled = false, force = 0.25); the guard 'count > 3' (line 9) is false (count = 0) (--strict) [event-rejected]"))
        let jsonl = try CLI.run(["replay", "--trace", "--format", "jsonl", spec], input: "{\"event\": \"submit\", \"force\": 0.25}\n")
        #expect(jsonl.stdout.contains("\"result\": \"ignored\", \"message\": \"the guard 'submitEnabled && force > 0.5' (line 8) is false"))
    }

    /// In a parallel chart the false guard may belong to another region's state than the one
    /// a step names: `--strict` and `--trace` name the guard's own state (as `--explain`
    /// does) and the `in(state)` test it read (issue 31).
    @Test func ignoredEventInAParallelChartNamesTheGuardsState() throws {
        let spec = try AnalysisVerdictTests.spec("""
            machine Editor {
                var length: Number = 0
                event type
                event compose
                event select
                initial parallel state editor {
                    state input {
                        initial state typing {
                            on type { length += 1 }
                            on compose -> composing
                        }
                        state composing
                    }
                    state selection {
                        initial state caret {
                            on select if length > 0 && !in(composing) -> range
                        }
                        state range
                    }
                }
            }
            """)
        let log = "{\"event\": \"type\"}\n{\"event\": \"type\"}\n{\"event\": \"type\"}\n{\"event\": \"compose\"}\n{\"event\": \"select\"}\n"
        let strict = try CLI.run(["replay", "--strict", spec], input: log)
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("<stdin>:5:11: error: event 'select' was ignored: in state 'caret', the guard 'length > 0 && !in(composing)' (line 16) is false (length = 3, in(composing) = true) (--strict) [event-rejected]"),
                "\(strict.stdout)")
        let trace = try CLI.run(["replay", "--trace", spec], input: log)
        #expect(trace.stdout.components(separatedBy: "\n").contains(
            "line 5, t=0: select: ignored in composing, caret: in state 'caret', the guard 'length > 0 && !in(composing)' (line 16) is false (length = 3, in(composing) = true)"),
                "\(trace.stdout)")
        // With no candidate at all, the strict message names every active leaf.
        let none = try CLI.run(["replay", "--strict", spec], input: "{\"event\": \"compose\"}\n{\"event\": \"compose\"}\n")
        #expect(none.stdout.contains("event 'compose' was ignored: no transition of the active states (composing, caret) takes it (--strict)"),
                "\(none.stdout)")
    }

    /// An event the machine raised, sent itself or completed (`done`) that no transition
    /// took is lost, not an ignored line of the log: the trace says so (issue 31).
    @Test func tracesShowLostEventsAsLost() throws {
        let spec = try AnalysisVerdictTests.spec("""
            machine Lost {
                event go
                event ping
                event echo
                initial state a {
                    on go -> b { raise ping; send echo }
                }
                state b {
                    initial state b1 {
                        on go -> b2
                    }
                    final state b2
                }
            }
            """)
        let log = "{\"event\": \"go\"}\n{\"event\": \"go\"}\n"
        let text = try CLI.run(["replay", "--trace", spec], input: log)
        #expect(text.stdout.hasPrefix("""
            line 1, t=0: go: a -> b1
                on go: exited a; took a -> b (line 6); entered b, b1
                raised ping: lost, no transition takes it
            line 2, t=0: sent echo: lost in b1, no transition takes it
            line 2, t=0: go: b1 -> b2
                on go: exited b1; took b1 -> b2 (line 10); entered b2
                done(b): lost, no transition takes it

            """), "\(text.stdout)")
        #expect(text.stdout.contains("events        2 applied, 0 ignored, 0 rejected"))
        let jsonl = try CLI.run(["replay", "--trace", "--format", "jsonl", spec], input: log)
        let lines = jsonl.stdout.components(separatedBy: "\n")
        #expect(lines[0].hasSuffix(#"{"trigger": "raised", "name": "ping", "transitions": [], "exited": [], "entered": []}]}"#), "\(lines[0])")
        #expect(lines[1].contains(#""event": "echo", "timer": false, "sent": true, "payload": {}, "from": "b1", "to": "b1", "result": "lost", "#),
                "\(lines[1])")
        #expect(lines[2].hasSuffix(#"{"trigger": "done", "name": "b", "transitions": [], "exited": [], "entered": []}]}"#), "\(lines[2])")
    }

    /// `replay LOG SPEC` says the arguments are swapped instead of "expected 'machine',
    /// found '{'" (issue 31); a log without the usual extension is recognised by its `{`,
    /// a spec without `.machine` by parsing as one.
    @Test func swappedArgumentsAreNamed() throws {
        let r = try CLI.run(["replay", "Specs/PullToRefresh.session.jsonl", "Specs/PullToRefresh.machine"])
        #expect(r.status == 2)
        #expect(r.stderr == "error: 'Specs/PullToRefresh.session.jsonl' looks like an event log and 'Specs/PullToRefresh.machine' like a spec: the spec comes first, as in 'statecraft replay Specs/PullToRefresh.machine Specs/PullToRefresh.session.jsonl'\n",
                "\(r.stderr)")
        let dir = try ReplayCommandTests.folder([
            "log.txt": "{\"event\": \"tap\"}\n",
            "spec.txt": String(decoding: Repository.bytes(Repository.specs.appendingPathComponent("Drawer.machine")), as: UTF8.self),
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = try CLI.run(["replay", "log.txt", "spec.txt", "more.jsonl"], in: dir)
        #expect(plain.status == 2)
        #expect(plain.stderr.hasSuffix("the spec comes first, as in 'statecraft replay spec.txt log.txt more.jsonl'\n"), "\(plain.stderr)")
        // A broken spec followed by a log is still reported as a broken spec.
        let broken = try CLI.run(["replay", "Specs/PullToRefresh.session.jsonl", "Specs/Drawer.session.jsonl"])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("has errors; fix them with 'statecraft check' before replaying"), "\(broken.stderr)")
    }

    @Test func jsonReport() throws {
        let r = try CLI.run(["replay", "--format", "json", "Specs/SwipeToDismiss.machine", "Specs/SwipeToDismiss.session.jsonl"])
        #expect(r.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["machine"] as? String == "SwipeToDismiss")
        #expect(object["passed"] as? Bool == true)
        let log = try #require((object["logs"] as? [[String: Any]])?.first)
        let cases = try #require(log["cases"] as? [[String: Any]])
        #expect(cases.map { $0["case"] as? String } == ["snap-back", "fling"])
        #expect(cases[1]["state"] as? String == "dismissed")
        #expect(cases[1]["finished"] as? Bool == true)
        #expect((cases[1]["outputs"] as? [[String: Any]])?.first?["name"] as? String == "dismissed")
        #expect((cases[1]["variables"] as? [String: Any])?["anchorY"] as? Int == 420)
        #expect(cases[1]["ignored"] as? Int == 1)
    }

    @Test func jsonlTraceStreamsOneObjectPerStep() throws {
        let r = try CLI.run(["replay", "--trace", "--format", "jsonl", "Specs/VibrantButton.machine", "Specs/VibrantButton.session.jsonl"])
        #expect(r.status == 0)
        let objects = try r.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 8, "7 steps and the report")
        #expect(objects.first?["event"] as? String == "tap")
        #expect(objects.first?["result"] as? String == "applied")
        #expect((objects.first?["outputs"] as? [[String: Any]])?.first?["args"] as? [Int] == [0])
        #expect(objects[1]["to"] as? String == "selected")
        #expect((objects[1]["changed"] as? [String: Any])?["textColor"] as? String == "black")
        #expect(objects.last?["report"] != nil)
    }

    @Test func specWithErrorsExitsTwo() throws {
        let r = try CLI.run(["replay", "Tests/CheckerTests/Fixtures/done-when.machine"], input: "")
        #expect(r.status == 2)
        #expect(r.stderr.contains("done-when.machine:9:30: error: unknown name 'amount' [unknown-name]"))
        #expect(r.stdout.isEmpty)
    }

    @Test(arguments: [
        (["replay"], "Error: missing the SPEC argument"),
        (["replay", "--trcae", "Specs/Drawer.machine"], "Error: unknown option '--trcae'; did you mean '--trace'?"),
        (["replay", "Specs/Drawer.machine", "missing.jsonl"], "error: cannot read 'missing.jsonl'"),
        (["replay", "nope.machine"], "error: cannot read 'nope.machine'"),
        (["replay", "--format=yaml", "Specs/Drawer.machine"], "Error: --format takes 'text', 'json', 'jsonl', 'junit', 'github' or 'html', not 'yaml'"),
    ])
    func usageAndIOErrorsExitTwo(arguments: [String], message: String) throws {
        let r = try CLI.run(arguments, input: "")
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }
}
