import Foundation
import Statecraft
import Testing
import TestSupport

/// The replay's coverage: how often each transition fired and which states were visited.
@Suite struct CoverageTests {
    static func replayed(_ spec: String, _ log: String) throws -> (Machine, ReplayReport) {
        let program = try program(spec: spec)
        var reader = EventLogReader(bytes: Array(log.utf8))
        var replayer = Replayer(program: program)
        while let record = try reader.next() { try replayer.consume(record) }
        return (program.machine, replayer.report)
    }

    @Test func countsFiredTransitionsAndVisitedStatesOverAllCases() throws {
        let (machine, report) = try CoverageTests.replayed("PullToRefresh", """
            {"case": 1, "event": "scroll", "offsetY": -50}
            {"case": 2, "event": "scroll", "offsetY": -50}
            {"case": 2, "event": "scroll", "offsetY": -200}
            {"case": 2, "event": "endDragging"}
            {"case": 2, "time": 5, "expect": "idle"}
            """)
        func count(_ state: String, _ index: Int) -> Int {
            let s = machine.states.first { $0.name == state }
            return s.map { report.transitionCounts[$0.transitions[index].index] } ?? -1
        }
        #expect(count("idle", 0) == 2, "idle -> pulling, once per case")
        #expect(count("pulling", 0) == 1, "the internal scroll in pulling")
        #expect(count("ready", 0) == 1, "endDragging at full progress")
        #expect(count("refreshing", 1) == 1, "the 2 s timer")
        #expect(count("refreshing", 2) == 0, "endRefreshing never came")
        let visited = machine.states.filter { report.visitedStates[$0.id.index] }.map(\.name)
        #expect(visited == ["ready", "idle", "pulling", "refreshing"], "a parent is visited with its child")
    }

    @Test func statesOnlyPassedThroughByTimersCountAsVisited() throws {
        let (machine, report) = try CoverageTests.replayed("PullToRefresh", """
            {"event": "scroll", "offsetY": -200}
            {"time": 1, "event": "endDragging"}
            {"time": 10, "event": "scroll", "offsetY": 0}
            """)
        #expect(machine.states.filter { report.visitedStates[$0.id.index] }.count == 4)
        #expect(report.transitionCounts.reduce(0, +) == 4)
    }
}
