import Foundation
import Testing
import TestSupport

/// `statecraft replay SPEC FOLDER ... --jobs N`: many logs on every core, reported exactly as
/// one thread replaying them in order would report them.
@Suite struct ReplayManyLogsTests {
    static let session = String(decoding: Repository.bytes(Repository.specs.appendingPathComponent("PullToRefresh.session.jsonl")),
                                as: UTF8.self)

    /// A folder of logs with every kind of outcome: clean sessions, a failed expectation, a
    /// rejected event under --strict, a malformed line, a log in a subfolder, a hidden
    /// folder and a file that is not a log (both left out).
    static func logs() throws -> URL {
        let dir = try ReplayCommandTests.folder([
            "b-clean.jsonl": session,
            "a-clean.jsonl": session,
            "c-failed.jsonl": session + "{\"expect\": \"refreshing\"}\n",
            "d-ignored.jsonl": "{\"event\": \"contentLoaded\"}\n" + session,
            "e-malformed.jsonl": session + "{\"event\": \n",
            "notes.txt": "not a log\n",
        ])
        let sub = dir.appendingPathComponent("z-more")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try session.write(to: sub.appendingPathComponent("f-clean.jsonl"), atomically: true, encoding: .utf8)
        let hidden = dir.appendingPathComponent(".cache")
        try FileManager.default.createDirectory(at: hidden, withIntermediateDirectories: true)
        try session.write(to: hidden.appendingPathComponent("x.jsonl"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test(arguments: ["text", "json", "jsonl", "junit", "github"])
    func everyJobCountGivesTheOneThreadReport(format: String) throws {
        let dir = try Self.logs()
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = ["replay", "Specs/PullToRefresh.machine", dir.path, "--strict", "--format", format]
        let one = try CLI.run(base + ["--jobs", "1"])
        #expect(one.status == 2, "a malformed line exits 2: \(one.stderr)")
        for jobs in ["2", "3", "16"] {
            let many = try CLI.run(base + ["--jobs", jobs])
            #expect(many.status == one.status)
            #expect(many.stdout == one.stdout, "--jobs \(jobs), \(format)")
            #expect(many.stderr == one.stderr, "--jobs \(jobs), \(format)")
        }
    }

    /// A folder stands for its logs, sorted, subfolders included, hidden ones and other
    /// files left out: the text report is the reports of those files one by one.
    @Test func aFolderIsItsLogsInOrder() throws {
        let dir = try Self.logs()
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = ["a-clean.jsonl", "b-clean.jsonl", "c-failed.jsonl", "d-ignored.jsonl", "e-malformed.jsonl", "z-more/f-clean.jsonl"]
        let together = try CLI.run(["replay", "Specs/PullToRefresh.machine", dir.path])
        var separately = ""
        for name in names {
            separately += try CLI.run(["replay", "Specs/PullToRefresh.machine", dir.appendingPathComponent(name).path]).stdout
        }
        #expect(together.stdout == separately)
        let replayed = together.stdout.split(separator: "\n").filter { $0.hasPrefix("replayed ") }
        #expect(replayed.count == names.count, "\(together.stdout)")
        #expect(!together.stdout.contains(".cache") && !together.stdout.contains("notes.txt"))
    }

    @Test func aFolderWithoutLogsAndABadJobCountAreRefused() throws {
        let dir = try ReplayCommandTests.folder(["notes.txt": "x\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let empty = try CLI.run(["replay", "Specs/PullToRefresh.machine", dir.path])
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("no *.jsonl log under folder '\(dir.path)'"), "\(empty.stderr)")
        for bad in ["0", "-1", "many"] {
            let r = try CLI.run(["replay", "Specs/PullToRefresh.machine", "Specs/PullToRefresh.session.jsonl", "--jobs", bad])
            #expect(r.status == 2)
            #expect(r.stderr.contains("--jobs takes a positive whole number, not '\(bad)'"), "\(r.stderr)")
        }
    }

    /// Piped (as here), a run of many logs writes nothing but the report: no progress line.
    @Test func noProgressLineWhenPiped() throws {
        let dir = try Self.logs()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["replay", "Specs/PullToRefresh.machine", dir.path, "--jobs", "2"])
        #expect(!r.stderr.contains("replaying:") && !r.stdout.contains("replaying:"))
    }

    /// `--summary` over two clean sessions and one whose last expectation fails: the counts
    /// a person checks by hand (each session has 14 events, 12 applied, and 14 expectations).
    @Test func theSummaryAddsUpTheLogs() throws {
        let dir = try ReplayCommandTests.folder([
            "a.jsonl": Self.session, "b.jsonl": Self.session, "c.jsonl": Self.session + "{\"expect\": \"refreshing\"}\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["replay", "Specs/PullToRefresh.machine", dir.path, "--summary"])
        #expect(r.status == 1, "a failed expectation exits 1")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(5)) == [
            "summary of 3 logs",
            "  cases         3, fitting 2 (66.7%)",
            "  events        42: 36 applied, 6 ignored, 0 rejected; event fitness 85.7%",
            "  expectations  43 checked, 1 failed",
            "  transitions   8 of 8 taken",
        ], "\(r.stdout)")
        #expect(lines.contains("          6×  ready, line 28: on endDragging if progress >= 1 -> refreshing"), "\(r.stdout)")
        // Each session's two ignored events, grouped by where they arrived, first places by log and line.
        let a = dir.appendingPathComponent("a.jsonl").path, b = dir.appendingPathComponent("b.jsonl").path
        let c = dir.appendingPathComponent("c.jsonl").path
        #expect(Array(lines.suffix(5)) == [
            "  deviations    2 groups of events not taken, most frequent first, with their first places",
            "          3×  endRefreshing ignored in [ready, idle]: \(a):21, \(b):21, \(c):21",
            "              why: no transition of the active states takes it",
            "          3×  endDragging ignored in [ready, pulling]: \(a):7, \(b):7, \(c):7",
            "              why: 'on endDragging if progress >= 1 -> refreshing' of state 'ready': 'progress >= 1' is false: progress = 0.8",
        ], "\(r.stdout)")
        // Under --strict the ignored events are rejected, and no case fits.
        let strict = try CLI.run(["replay", "Specs/PullToRefresh.machine", dir.path, "--summary", "--strict"])
        #expect(strict.stdout.contains("  cases         3, fitting 0 (0.0%)\n"), "\(strict.stdout)")
        #expect(strict.stdout.contains("36 applied, 0 ignored, 6 rejected"), "\(strict.stdout)")
        #expect(strict.stdout.contains("          3×  endDragging rejected in [ready, pulling]: \(a):7, \(b):7, \(c):7\n"))
        // Every job count gives the same summary.
        for jobs in ["1", "3"] {
            #expect(try CLI.run(["replay", "Specs/PullToRefresh.machine", dir.path, "--summary", "--jobs", jobs]).stdout == r.stdout)
        }
    }

    /// A parallel chart of six regions whose configurations rarely repeat: region 0's state
    /// `r0a` has a guarded `probe`; nothing takes `stray`. The deviations are grouped by the
    /// states whose transitions could take the event, not by the whole configuration, so
    /// there are three groups however the other regions stand (issue 31, item 7).
    static let regions = """
        machine Regions {
            var n: Number = 0
            event probe
            event stray
            event flip0
            event flip1
            event flip2
            event flip3
            event flip4
            event flip5
            initial parallel state all {
                state r0 {
                    initial state r0a {
                        on flip0 -> r0b
                        on probe if n > 0 -> r0b
                    }
                    state r0b { on flip0 -> r0a }
                }
                state r1 { initial state r1a { on flip1 -> r1b } state r1b { on flip1 -> r1a } }
                state r2 { initial state r2a { on flip2 -> r2b } state r2b { on flip2 -> r2a } }
                state r3 { initial state r3a { on flip3 -> r3b } state r3b { on flip3 -> r3a } }
                state r4 { initial state r4a { on flip4 -> r4b } state r4b { on flip4 -> r4a } }
                state r5 { initial state r5a { on flip5 -> r5b } state r5b { on flip5 -> r5a } }
            }
        }
        """

    /// Flips in a fixed pseudo-random order, each followed by `probe` or `stray`.
    static func regionsLog(lines: Int, seed: Int) -> String {
        var x = seed
        var out = ""
        for k in 0..<lines {
            x = (x &* 1_103_515_245 &+ 12345) & 0x7FFF_FFFF
            out += k % 2 == 0 ? "{\"event\": \"flip\((x >> 8) % 6)\"}\n"
                : (x >> 9) % 3 == 0 ? "{\"event\": \"stray\"}\n" : "{\"event\": \"probe\"}\n"
        }
        return out
    }

    @Test func aParallelChartsDeviationsAreGroupedByTheCandidatesStates() throws {
        let dir = try ReplayCommandTests.folder(["regions.machine": Self.regions])
        defer { try? FileManager.default.removeItem(at: dir) }
        let logs = dir.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        try Self.regionsLog(lines: 400, seed: 1).write(to: logs.appendingPathComponent("a.jsonl"), atomically: true, encoding: .utf8)
        try Self.regionsLog(lines: 300, seed: 2).write(to: logs.appendingPathComponent("b.jsonl"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["replay", "regions.machine", "logs", "--summary"], in: dir)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("  deviations ") }, "\(r.stdout)")
        let groups = lines[start...].filter { $0.hasPrefix("        ") && $0.contains("×  ") }
        #expect(lines[start] == "  deviations    3 groups of events not taken, most frequent first, with their first places", "\(r.stdout)")
        #expect(groups.count == 3, "\(r.stdout)")
        #expect(groups.contains { $0.contains("×  probe ignored in [r0a]: logs/a.jsonl:") }, "\(r.stdout)")
        #expect(groups.contains { $0.contains("×  probe ignored, no active state takes it: logs/a.jsonl:") }, "\(r.stdout)")
        #expect(groups.contains { $0.contains("×  stray ignored, no active state takes it: logs/a.jsonl:") }, "\(r.stdout)")
        // The summaries of the two logs, merged, are the summary of both.
        let a = try CLI.run(["replay", "regions.machine", "logs/a.jsonl", "--summary", "--format", "json"], in: dir)
        let b = try CLI.run(["replay", "regions.machine", "logs/b.jsonl", "--summary", "--format", "json"], in: dir)
        try a.stdout.write(to: dir.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        try b.stdout.write(to: dir.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
        let both = try CLI.run(["replay", "regions.machine", "logs", "--summary", "--format", "json"], in: dir)
        #expect(try CLI.run(["merge", "b.json", "a.json", "--format", "json"], in: dir).stdout == both.stdout)
    }

    /// The text shows the 20 most frequent groups and counts the rest; the JSON keeps every
    /// group, so that merging stays exact.
    @Test func theTextShowsTheTopGroupsAndCountsTheRest() throws {
        var spec = "machine Ring {\n    event next\n    event odd\n"
        for k in 0..<25 { spec += "    \(k == 0 ? "initial " : "")state s\(k) { on next -> s\((k + 1) % 25) }\n" }
        spec += "}\n"
        // `odd` in each state: state s0 three times, s1 twice, every other once.
        var log = "{\"event\": \"odd\"}\n{\"event\": \"odd\"}\n{\"event\": \"next\"}\n{\"event\": \"odd\"}\n"
        for _ in 0..<25 { log += "{\"event\": \"odd\"}\n{\"event\": \"next\"}\n" }
        let dir = try ReplayCommandTests.folder(["ring.machine": spec, "ring.jsonl": log])
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = try CLI.run(["replay", "ring.machine", "ring.jsonl", "--summary"], in: dir)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("  deviations    25 groups of events not taken, most frequent first, with their first places"),
                "\(text.stdout)")
        #expect(lines.filter { $0.contains("×  odd ignored in [") }.count == 20, "\(text.stdout)")
        #expect(lines.contains("          3×  odd ignored in [s0]: ring.jsonl:1, ring.jsonl:2, ring.jsonl:53"), "\(text.stdout)")
        #expect(lines.last == "    and 5 more groups, 5 events", "\(text.stdout)")
        let json = try CLI.run(["replay", "ring.machine", "ring.jsonl", "--summary", "--format", "json"], in: dir)
        #expect(json.stdout.components(separatedBy: "{\"configuration\": [").count - 1 == 25, "\(json.stdout)")
    }

    /// A transition no log takes is listed as never taken; a malformed log is named on
    /// standard error, with what the summary still counts.
    @Test func theSummaryNamesWhatNoLogTakesAndWhereALogStopped() throws {
        let dir = try ReplayCommandTests.folder([
            "a.jsonl": "{\"event\": \"scroll\", \"offsetY\": -10}\n{\"event\": \n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["replay", "Specs/PullToRefresh.machine", dir.path, "--summary"])
        #expect(r.status == 2)
        #expect(r.stdout.hasPrefix("summary of 1 log (1 stopped at a malformed line)\n"), "\(r.stdout)")
        #expect(r.stdout.contains("  transitions   1 of 8 taken\n          1×  idle, line 32: on scroll if offsetY + insetTop < 0 -> pulling\n  never taken\n"),
                "\(r.stdout)")
        #expect(r.stdout.contains("\n    refreshing, line 64: on endRefreshing -> idle\n"), "\(r.stdout)")
        #expect(r.stderr.contains("a.jsonl:2:"), "\(r.stderr)")
        #expect(r.stderr.contains("replay stopped at line 2; the summary counts the lines before it"), "\(r.stderr)")
    }

    @Test func theSummaryIsTextJSONOrHTML() throws {
        let r = try CLI.run(["replay", "Specs/PullToRefresh.machine", "Specs/PullToRefresh.session.jsonl", "--summary", "--format", "junit"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--summary prints text, JSON or HTML, not --format junit"), "\(r.stderr)")
    }

    /// The time in each state, from the log's own times: idle's visits last 1 s (from the
    /// start) and 0.5 s, pulling's 2.5 s and 0.25 s; the last visit of idle has not ended.
    @Test func theSummaryTimesEachStatesVisits() throws {
        let dir = try ReplayCommandTests.folder(["a.jsonl": """
            {"time": 1, "event": "scroll", "offsetY": -10}
            {"time": 3.5, "event": "scroll", "offsetY": 10}
            {"time": 4, "event": "scroll", "offsetY": -10}
            {"time": 4.25, "event": "scroll", "offsetY": 10}

            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["replay", "Specs/PullToRefresh.machine", dir.path, "--summary", "--format", "json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let summary = try #require(json["summary"] as? [String: Any])
        let states = try #require(summary["states"] as? [[String: Any]])
        func state(_ name: String) throws -> [String: Any] { try #require(states.first { $0["name"] as? String == name }) }
        func near(_ value: Any?, _ expected: Double) -> Bool {
            guard let x = value as? Double else { return false }
            return abs(x - expected) <= expected * 0.0101
        }
        let idle = try state("idle"), pulling = try state("pulling"), ready = try state("ready")
        #expect(idle["visits"] as? Int == 3 && pulling["visits"] as? Int == 2 && ready["visits"] as? Int == 1)
        #expect(near(idle["median"], 0.5) && near(idle["p90"], 1), "\(idle)")
        #expect(near(pulling["median"], 0.25) && near(pulling["p99"], 2.5), "\(pulling)")
        #expect(ready["median"] is NSNull, "ready is never left")
        let text = try CLI.run(["replay", "Specs/PullToRefresh.machine", dir.path, "--summary"])
        // Two visits: their durations are kept, so the percentiles are exact (not 0.249, 2.48).
        #expect(text.stdout.contains("    pulling  2; 0.25, 2.5, 2.5\n"), "\(text.stdout)")
    }
}
