import Foundation
import Testing
import TestSupport

/// The repros of issue 16, where `check` claimed a proof or gave a witness that replay then
/// contradicted. Each now gets a sound answer, checked against the real `replay`.
@Suite struct SoundnessReproTests {
    static func spec(_ text: String) throws -> String { try AnalysisVerdictTests.spec(text) }

    /// The witness `check --format json` gives for a state, as an event log for `replay`
    /// ending with an expectation that the state is active.
    static func witnessLog(_ json: String, state: String) throws -> String? {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let exploration = try #require((object["exploration"] as? [[String: Any]])?.first)
        let states = try #require(exploration["states"] as? [[String: Any]])
        guard let entry = states.first(where: { $0["name"] as? String == state }), entry["status"] as? String == "reached",
              let witness = entry["witness"] as? [[String: Any]] else { return nil }
        var (lines, time) = try logLines(witness)
        lines.append("{\"time\": \(time), \"expect\": \"\(state)\"}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The event lines of a JSON witness, and the time it ends at. A wait is the time of the
    /// next line: the timers due by then fire before it.
    static func logLines(_ witness: [[String: Any]]) throws -> (lines: [String], time: Double) {
        var lines: [String] = []
        var time = 0.0
        for step in witness {
            if let event = step["event"] as? String {
                var line: [String: Any] = (step["payload"] as? [String: Any]) ?? [:]
                line["event"] = event
                time = max(time, (step["time"] as? Double) ?? 0)
                line["time"] = time
                lines.append(String(decoding: try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]), as: UTF8.self))
            } else if let wait = step["wait"] as? Double {
                time = wait
            }
        }
        return (lines, time)
    }

    /// 1. A sooner timer whose step fails does not beat the later one: that step is undone
    /// and the two-second timer fires.
    @Test func aSoonerTimerWhoseStepFailsDoesNotAlwaysWin() throws {
        let path = try SoundnessReproTests.spec(PathsCommandTests.soonerFails)
        let r = try CLI.run(["check", path])
        #expect(!r.stdout.contains("[unreachable-state]"))
        #expect(!r.stdout.contains("[dead-transition]"))
        let replay = try CLI.run(["replay", path], input: """
            {"event": "dec"}
            {"event": "go"}
            {"time": 3, "expect": "d"}

            """)
        #expect(replay.stdout.contains("1 rejected"))
        #expect(!replay.stdout.contains("expectation-failed"))
    }

    /// 2. `after 0.1 + 0.2` against `after 0.3`: entered at t=1 both deadlines are 1.3 and
    /// the one armed first wins, so neither is proven dead.
    @Test func roundedDeadlinesCanTie() throws {
        let path = try SoundnessReproTests.spec("""
            machine Tie {
                event go
                initial state a { on go -> b }
                state b {
                    after 0.1 + 0.2 -> c
                    after 0.3 -> d
                }
                state c { on go -> a }
                state d { on go -> a }
            }
            """)
        let r = try CLI.run(["check", path])
        #expect(!r.stdout.contains("[unreachable-state]"))
        #expect(!r.stdout.contains("[dead-transition]"))
        #expect(r.stdout.contains("the order in which a state's timers fire can depend on when it is entered"))
        let replay = try CLI.run(["replay", path], input: "{\"time\": 1, \"event\": \"go\"}\n{\"time\": 2, \"expect\": \"c\"}\n")
        #expect(replay.status == 0)
    }

    /// 3. A step that always overflows contributes nothing, instead of NaN bounds that make
    /// `v == 0` "impossible" although the other way in sets it.
    @Test func anOverflowingStepDoesNotPoisonTheIntervals() throws {
        let path = try SoundnessReproTests.spec("""
            machine Overflow {
                public var big: Number = 1e300
                public var v: Number = 1
                event bad
                event good
                event leave
                initial state a {
                    on bad -> s { v = big * big - big * big }
                    on good -> s { v = 0 }
                }
                state s {
                    on leave if v == 0 -> done
                }
                final state done
            }
            """)
        let r = try CLI.run(["check", "--format", "json", path])
        #expect(!r.stdout.contains("can never hold"))
        let log = try #require(try SoundnessReproTests.witnessLog(r.stdout, state: "done"))
        #expect(try CLI.run(["replay", "--strict", path], input: log).status == 0)
        let text = try CLI.run(["check", path])
        #expect(text.stdout.contains("its step fails at run time every time: 'big * big' (line 8) always fails"))
    }

    /// 5. A timer due at once fires before the next event: the search does not send an
    /// event past it, so `on x -> d` is not "reached by go, x".
    @Test func aDueTimerFiresBeforeTheNextEvent() throws {
        let path = try SoundnessReproTests.spec("""
            machine Due {
                event go
                event x
                initial state a { on go -> b }
                state b {
                    after -1 -> c
                    on x -> d
                }
                state c { on go -> a }
                state d { on go -> a }
            }
            """)
        let r = try CLI.run(["check", "--format", "json", path])
        #expect(try SoundnessReproTests.witnessLog(r.stdout, state: "d") == nil)
        let c = try #require(try SoundnessReproTests.witnessLog(r.stdout, state: "c"))
        #expect(try CLI.run(["replay", "--strict", path], input: c).status == 0)
        let replay = try CLI.run(["replay", path], input: "{\"event\": \"go\"}\n{\"event\": \"x\"}\n{\"expect\": \"c\"}\n")
        #expect(replay.status == 0)
    }

    /// 7. Overlaps: the payload of the event that was tried, and no overlap behind a first
    /// guard that faults (the event is rejected there).
    @Test func overlapWitnessesFireTheFirstTransition() throws {
        let path = try SoundnessReproTests.spec("""
            machine Overlaps {
                public var x: Number = 0
                event tap(x2: Number)
                event press(x2: Number, force: Number)
                event drag
                event set(v: Number)
                initial state a {
                    on set { x = v }
                    on press, tap if x2 > 0 -> b
                    on press, tap if x2 < 10 -> c
                    on drag if 1 / x > 2 -> b
                    on drag if x < 1 -> c
                    on drag if x > -1 -> d
                }
                state b { on drag -> a }
                state c { on drag -> a }
                state d { on drag -> a }
            }
            """)
        let r = try CLI.run(["check", "--format", "json", path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let overlaps = try #require((object["exploration"] as? [[String: Any]])?.first?["overlaps"] as? [[String: Any]])
        #expect(!overlaps.isEmpty)
        for overlap in overlaps {
            let witness = try #require(overlap["witness"] as? [[String: Any]])
            let last = try #require(witness.last)
            let payload = (last["payload"] as? [String: Any]) ?? [:]
            // The payload belongs to the event it is sent with.
            if last["event"] as? String == "press" { #expect(payload["force"] != nil) }
            if last["event"] as? String == "tap" { #expect(payload["force"] == nil) }
            // Time never goes backwards along the witness, as in a log.
            let times = witness.compactMap { ($0["time"] as? Double) ?? ($0["wait"] as? Double) }
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
            // Replaying the witness fires the first transition of the pair.
            var (lines, _) = try SoundnessReproTests.logLines(witness)
            let first = try #require(overlap["first"] as? String)
            let target = try #require(first.components(separatedBy: "--> ").last?.components(separatedBy: " ").first)
            lines.append("{\"expect\": \"\(target)\"}")
            let replay = try CLI.run(["replay", "--strict", path], input: lines.joined(separator: "\n") + "\n")
            #expect(replay.status == 0, "\(first): \(replay.stdout)")
        }
        // With x = 0 the first drag guard faults: the 2nd and 3rd are not an overlap there.
        #expect(!overlaps.contains { ($0["witness"] as? [[String: Any]])?.count == 1 && ($0["first"] as? String)?.contains("--drag--> c") == true })
    }

    /// 8. A state entered and left at one instant (a zero-delay timer) is reached.
    @Test func aPassThroughStateIsReached() throws {
        let path = try SoundnessReproTests.spec("""
            machine PassThrough {
                event go
                initial state a { on go -> b }
                state b { after 1s -> c }
                state c { after 0s -> d }
                state d { on go -> a }
            }
            """)
        let r = try CLI.run(["check", "--witnesses", path])
        #expect(r.stdout.contains("state c"))
        #expect(!r.stdout.contains("not-reached"))
        let row = try #require(r.stdout.split(separator: "\n").first { $0.contains("state c ") })
        #expect(row.contains("reached by go, wait until t=1"))
    }
}
