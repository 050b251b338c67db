import Foundation
import Statecraft
import Testing
import TestSupport
@testable import StatecraftAnalysis

/// The analyses on statecharts: verdicts are about configurations, every kind of transition
/// counts, history states are not states to reach, and `paths` covers everything reachable
/// with logs that replay under `--strict`.
@Suite struct StatechartAnalysisTests {
    static let fixtures = ["parallel", "completion-reached", "eventless", "history-entry", "nested", "player"]

    static func check(_ text: String) throws -> (Machine, ExplorationReport) {
        let result = Statecraft.check(source: text, path: "chart.machine")
        return (try #require(result.machine), try #require(result.exploration))
    }

    static func fixture(_ name: String) -> String {
        String(decoding: Repository.bytes(GoldenTests.fixtures.appendingPathComponent(name + ".machine")), as: UTF8.self)
    }

    @Test(arguments: StatechartAnalysisTests.fixtures, TestGeneration.Cover.allCases)
    func pathsCoverEveryReachableTargetAndReplayStrictly(name: String, cover: TestGeneration.Cover) throws {
        let (machine, report) = try StatechartAnalysisTests.check(StatechartAnalysisTests.fixture(name))
        let (logs, targets) = TestGeneration.generate(machine, report, cover: cover)
        let reference = TestGeneration.generateReference(machine, report, cover: cover)
        #expect(logs == reference.logs && targets == reference.targets, "\(name): the witness tree differs from its reference")
        let states = machine.states.dropFirst().filter { !$0.isHistory }.count
        #expect(targets.count == (cover == .states ? states : machine.transitions.count))
        for target in targets {
            if case .unreachable = target.finding { continue }
            #expect(target.file != nil, "\(name): \(target.name) has no log")
        }
        for log in logs {
            var reader = EventLogReader(bytes: Array(log.text.utf8))
            var replayer = Replayer(program: Program(machine), options: .init(strict: true))
            while let record = try reader.next() { try replayer.consume(record) }
            let c = replayer.report.cases.first
            let why = "\(name) \(log.file): \(c?.rejections.first?.message ?? "") "
                + "\(c?.failures.first.map { "\($0.subject) \($0.expected) ≠ \($0.actual)" } ?? "")"
            #expect(replayer.report.passed, Comment(rawValue: why))
        }
    }

    @Test func everyStateOfThePlayerIsReachedAndOnlyTheTrueFindingsRemain() throws {
        let (machine, report) = try StatechartAnalysisTests.check(StatechartAnalysisTests.fixture("player"))
        for s in machine.states.dropFirst() {
            guard case .reached = report.states[s.id.index] else {
                Issue.record("state \(s.name) is \(report.states[s.id.index])")
                continue
            }
        }
        // `done(playback)` is taken inside the macrostep of the timer that enters `finished`.
        let done = try #require(machine.transitions.first { if case .done = $0.trigger { return true } else { return false } })
        guard case .reached(let witness) = report.transitions[done.id.index] else {
            Issue.record("done(playback) is \(report.transitions[done.id.index])")
            return
        }
        #expect(witness.contains { if case .wait = $0 { return true } else { return false } })
        #expect(Checker.unreachableStates(machine).isEmpty)
    }

    @Test func regionsDoNotOverlapButAStateAndItsAncestorDo() throws {
        let text = """
            machine Overlaps {
                var n: Number = 0
                event tap(x: Number)
                initial parallel state p {
                    state left {
                        initial state l1 { on tap if x > 1 -> l2 }
                        state l2 { on tap if x > 1 -> l1 }
                    }
                    state right {
                        initial state r1 { on tap if x > 0 { n += 1 } }
                    }
                }
            }
            machine Nested {
                event tap(x: Number)
                initial state outer {
                    on tap if x > 0 -> other
                    initial state inner { on tap if x > 1 -> other }
                }
                state other { on tap -> outer }
            }
            """
        let parts = text.components(separatedBy: "machine Nested")
        let (regions, regionReport) = try StatechartAnalysisTests.check(parts[0])
        #expect(regionReport.overlaps.isEmpty, "\(regionReport.overlaps.map { regions[$0.second].keywordRange })")
        let (nested, nestedReport) = try StatechartAnalysisTests.check("machine Nested" + parts[1])
        let overlap = try #require(nestedReport.overlaps.first)
        #expect(nested[overlap.first].source == nested.states.first { $0.name == "inner" }?.id)
        #expect(nested[overlap.second].source == nested.states.first { $0.name == "outer" }?.id)
        let result = Statecraft.check(source: "machine Nested" + parts[1], path: "n.machine")
        #expect(result.diagnostics.contains { $0.message.contains("the one in the inner state wins") })
    }

    @Test func aLeafIsNoDeadEndWhileAnotherRegionCanLeave() throws {
        let text = """
            machine Stuck {
                event go
                initial parallel state p {
                    state a { initial state waiting }
                    state b { initial state b1 { on go -> done } }
                }
                state done { on go -> p }
                state lonely
                state trap { on go -> lonely }
            }
            """
        let result = Statecraft.check(source: text, path: "stuck.machine")
        let deadEnds = result.diagnostics.filter { $0.id == .deadEndState }.map(\.message)
        #expect(deadEnds == ["state 'lonely' is not final and has no way out"])
    }

    @Test func historyStatesAreNeverReportedAsStates() throws {
        let (machine, report) = try StatechartAnalysisTests.check(StatechartAnalysisTests.fixture("history-entry"))
        for h in machine.states where h.isHistory {
            guard case .reached = report.states[h.id.index] else {
                Issue.record("history \(h.name): \(report.states[h.id.index])")
                continue
            }
        }
        let result = Statecraft.check(source: StatechartAnalysisTests.fixture("history-entry"), path: "h.machine")
        #expect(result.diagnostics.isEmpty)
    }

    @Test func aSearchWithTimersInTwoActiveStatesIsNoProof() throws {
        let text = """
            machine Timers {
                event go
                initial state outer {
                    after 1s -> late
                    initial state inner {
                        on go -> inner2
                    }
                    state inner2 { after 0.6s -> early }
                }
                state late
                state early
            }
            """
        let (machine, report) = try StatechartAnalysisTests.check(text)
        #expect(report.limits.timerOrderVaries && report.limits.timedStatesOverlap)
        for s in machine.states.dropFirst() {
            if case .unreachable(let reason) = report.states[s.id.index] { Issue.record("\(s.name): \(reason)") }
        }
    }

    /// Leaving a nested state runs the exit actions of every state it leaves, and entering
    /// a compound state enters its initial child: the interval analysis follows the model's
    /// exit and entry sets (it used to run only the leaf's exit and stop at compound targets).
    @Test func theIntervalAnalysisRunsWholeExitAndEntrySets() throws {
        let text = """
            machine N {
                var x: Number = 0
                event go
                initial state a {
                    exit { x = 1 }
                    initial state a1 { on go -> b }
                }
                state b {
                    on go if x == 1 -> c
                }
                state c {
                    on go -> d
                }
                state d {
                    entry { x = 5 }
                    initial state inner { on go if x == 5 -> a }
                }
            }
            """
        let (machine, _) = try StatechartAnalysisTests.check(text)
        let intervals = IntervalAnalysis(machine)
        #expect(intervals.converged)
        #expect(intervals.deadTransitions.isEmpty, "\(intervals.deadTransitions.values)")
        for s in machine.states.dropFirst() {
            #expect(intervals.environments[s.id.index] != nil, "\(s.name) has no environment")
        }
    }

    /// The statechart invariant: a guard no block can make true is dead, and what only it
    /// leads to gets no environment.
    @Test func theStatechartInvariantProvesGuardsDead() throws {
        let (machine, _) = try StatechartAnalysisTests.check(StatechartAnalysisTests.fixture("player"))
        let intervals = IntervalAnalysis(machine, isStatechart: true)
        #expect(intervals.converged)
        let always = try #require(machine.transitions.first { $0.trigger == .always })
        #expect(intervals.deadTransitions[always.id] != nil)
        let interrupted = try #require(machine.states.first { $0.name == "interrupted" })
        #expect(intervals.environments[interrupted.id.index] != nil, "also entered by 'interrupt'")
    }

    /// A zero-delay timer back into its state is no certain loop when an eventless
    /// transition of another region leaves first (timers fire only once the step settles).
    @Test func noTimerLoopWhereAnEventlessTransitionLeavesFirst() throws {
        let text = """
            machine TL {
                event go
                initial parallel state p {
                    state r1 { initial state c { after 0 -> c } }
                    state r2 { initial state x { always -> out } }
                }
                state out { on go -> p }
            }
            """
        let result = Statecraft.check(source: text, path: "tl.machine")
        #expect(!result.diagnostics.contains { $0.id == .timerLoop })
    }
}
