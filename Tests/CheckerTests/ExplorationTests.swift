import Foundation
import Statecraft
@testable import StatecraftAnalysis
import Testing
import TestSupport

/// The guard-aware analysis on the tricky fixtures and the bundled specs: witnesses that
/// really reach their target, proofs with their reasons, overlaps with a witness payload.
@Suite struct ExplorationTests {
    static func explore(fixture name: String) throws -> (Machine, ExplorationReport) {
        let url = GoldenTests.fixtures.appendingPathComponent(name + ".machine")
        let result = Statecraft.check(SourceFile(path: name, bytes: Repository.bytes(url)))
        return (try #require(result.machine), try #require(result.exploration))
    }

    static func state(_ machine: Machine, _ name: String) -> StateID? {
        machine.states.first { $0.name == name }?.id
    }

    @Test func aClampMakesAThresholdUnreachable() throws {
        let (m, r) = try ExplorationTests.explore(fixture: "guard-clamp")
        let overscroll = try #require(m.transitions.first { $0.guardExpr.map { m.text($0.range) } == "progress > 1" })
        guard case .unreachable(let reason) = r.transitions[overscroll.id.index] else {
            Issue.record("expected a proof, got \(r.transitions[overscroll.id.index])")
            return
        }
        #expect(reason.contains("'progress' is in [0, 1] there"))
        guard case .unreachable(let stateReason)? = ExplorationTests.state(m, "overscrolled").map({ r.states[$0.index] }) else {
            Issue.record("overscrolled should be proven unreachable")
            return
        }
        #expect(stateReason == "no transition into it can ever fire")
        // The threshold itself is reachable, with a pull of at least 110.
        guard case .reached(let steps)? = ExplorationTests.state(m, "refreshing").map({ r.states[$0.index] }),
              case .event(_, let payload, _)? = steps.first else {
            Issue.record("refreshing should be reached")
            return
        }
        #expect((payload.first?.number ?? 0) <= -110)
    }

    @Test func overlappingRangesComeWithAWitnessThatSatisfiesBoth() throws {
        let (m, r) = try ExplorationTests.explore(fixture: "guard-overlap")
        let overlap = try #require(r.overlaps.first)
        #expect(r.overlaps.count == 1)
        #expect(m[overlap.first].target.map { m[$0].name } == "right")
        #expect(m[overlap.second].target.map { m[$0].name } == "left")
        let x = try #require(overlap.payload.first?.number)
        #expect(x > 0 && x < 10)
    }

    @Test func equalityOnAComputedValueIsReachedOrHonestlyNotReached() throws {
        let (m, r) = try ExplorationTests.explore(fixture: "guard-equality")
        guard case .reached(let steps)? = ExplorationTests.state(m, "four").map({ r.states[$0.index] }) else {
            Issue.record("four should be reached")
            return
        }
        #expect(WitnessText.describe(steps, m) == "tap, tap, check")
        #expect(ExplorationTests.state(m, "five").map { r.states[$0.index] } == .notReached)
    }

    @Test func aTimerBeatenByASoonerOneNeverFires() throws {
        let (m, r) = try ExplorationTests.explore(fixture: "timer-race")
        let late = try #require(m.transitions.first { if case .after(let d) = $0.trigger { return m.text(d.range) == "5s" } else { return false } })
        #expect(r.transitions[late.id.index] == .unreachable("the 'after 1s' transition always leaves 'waiting' first"))
        guard case .reached(let steps)? = ExplorationTests.state(m, "timedOut").map({ r.states[$0.index] }) else {
            Issue.record("timedOut should be reached")
            return
        }
        #expect(steps.count == 1)
    }

    @Test func aStringEqualityOnAnEmittedValueIsReached() throws {
        let (m, r) = try ExplorationTests.explore(fixture: "string-emitted")
        guard case .reached(let steps)? = ExplorationTests.state(m, "done").map({ r.states[$0.index] }) else {
            Issue.record("done should be reached")
            return
        }
        #expect(WitnessText.describe(steps, m) == "pick(name: \"💀\"), confirm")
    }

    /// Every witness for the bundled specs, replayed with the runtime, really gets there:
    /// its last step fires the transition, or leaves the state active.
    @Test(arguments: ["Drawer", "VibrantButton", "PullToRefresh", "PeekRating", "SwipeToDismiss"])
    func witnessesOfTheSpecsReachTheirTargets(name: String) throws {
        let url = Repository.specs.appendingPathComponent(name + ".machine")
        let result = Statecraft.check(SourceFile(path: name, bytes: Repository.bytes(url)))
        let machine = try #require(result.machine)
        let report = try #require(result.exploration)
        for t in machine.transitions {
            guard case .reached(let steps) = report.transitions[t.id.index] else {
                Issue.record("transition \(TestGeneration.describe(t, machine)) not reached: \(report.transitions[t.id.index])")
                continue
            }
            #expect(ExplorationTests.run(steps, machine).fired.last == t.id || ExplorationTests.run(steps, machine).firedAtEnd.contains(t.id),
                    "\(TestGeneration.describe(t, machine))")
        }
        for s in machine.states.dropFirst() {
            guard case .reached(let steps) = report.states[s.id.index] else {
                Issue.record("state \(s.name) not reached")
                continue
            }
            #expect(ExplorationTests.run(steps, machine).instance.activeStates.contains(s.id), "\(s.name)")
        }
        #expect(report.overlaps.isEmpty)
    }

    /// Replays a witness; returns the instance and the transitions fired (those of the last step apart).
    static func run(_ steps: [WitnessStep], _ machine: Machine) -> (instance: Instance, fired: [TransitionID], firedAtEnd: [TransitionID]) {
        var instance = Instance(Program(machine))
        _ = instance.start()
        var fired: [TransitionID] = []
        var last: [TransitionID] = []
        for step in steps {
            last = []
            switch step {
            case .event(let e, let payload, let time):
                instance.advance(to: time)
                if case .applied(let t) = instance.send(e, payload: payload).result { last.append(t) }
            case .wait(let until):
                instance.advance(to: until, onStep: { if case .applied(let t) = $0.result { last.append(t) } })
            }
            fired += last
        }
        return (instance, fired, last)
    }
}

/// Model-based test generation: every generated log replays cleanly and together they
/// reach every reachable target.
@Suite struct TestGenerationTests {
    static let specs = ["Drawer", "VibrantButton", "PullToRefresh", "PeekRating", "SwipeToDismiss"]

    @Test(arguments: TestGenerationTests.specs, TestGeneration.Cover.allCases)
    func generatedLogsReplayCleanAndCoverEveryTarget(name: String, cover: TestGeneration.Cover) throws {
        let url = Repository.specs.appendingPathComponent(name + ".machine")
        let result = Statecraft.check(SourceFile(path: name, bytes: Repository.bytes(url)))
        let machine = try #require(result.machine)
        let (logs, targets) = TestGeneration.generate(machine, try #require(result.exploration), cover: cover)
        #expect(targets.count == (cover == .states ? machine.states.count - 1 : machine.transitions.count))
        #expect(targets.allSatisfy { $0.file != nil }, "every target of the bundled specs is reached")
        #expect(logs.count <= targets.count)
        #expect(Set(logs.map(\.file)).count == logs.count)
        for log in logs {
            var reader = EventLogReader(bytes: Array(log.text.utf8))
            var replayer = Replayer(program: Program(machine), options: .init(strict: true))
            while let record = try reader.next() { try replayer.consume(record) }
            let report = replayer.report
            #expect(report.passed, "\(log.file): \(report.cases.first?.failures.first.map { "\($0.subject) \($0.expected) ≠ \($0.actual)" } ?? "")")
            #expect((report.cases.first?.expectations ?? 0) > 1)
        }
    }

    /// Issue 31: a name cut at its end named the line-88 transition `…-line-8.jsonl`. A long
    /// name loses its middle instead, and every file still ends with its target's line.
    @Test func longNamesKeepTheirLineNumber() throws {
        let padding = String(repeating: "    // a comment line\n", count: 83)
        let text = """
            machine LongNames {
                event touchEnded
                event touchCancelled
                initial state draggingTheSheetAcrossTheScreen {
            \(padding)        on touchEnded, touchCancelled -> closedAndRestingAtTheBottomEdge
                }
                state closedAndRestingAtTheBottomEdge { on touchEnded -> draggingTheSheetAcrossTheScreen }
            }
            """
        let result = Statecraft.check(SourceFile(path: "long.machine", bytes: Array(text.utf8)))
        let machine = try #require(result.machine)
        let (logs, targets) = TestGeneration.generate(machine, try #require(result.exploration), cover: .transitions)
        #expect(targets.map(\.name) == [
            "transition draggingTheSheetAcrossTheScreen --touchEnded, touchCancelled--> closedAndRestingAtTheBottomEdge (line 88)",
            "transition closedAndRestingAtTheBottomEdge --touchEnded--> draggingTheSheetAcrossTheScreen (line 90)",
        ])
        #expect(logs.map(\.file) == ["01-transition-draggingTheSheetA--RestingAtTheBottomEdge-line-88.jsonl"])
        // Short names are untouched; long ones keep both ends, never two cuts' worth of `-`.
        #expect(TestGeneration.slug("state a (line 7)") == "state-a-line-7")
        let long = TestGeneration.slug("transition " + String(repeating: "x", count: 200) + " (line 1234567)")
        let x17 = String(repeating: "x", count: 17)
        #expect(long == "transition-\(x17)--\(x17)-line-1234567")
        #expect(long.utf8.count <= TestGeneration.slugLimit)
        let dashes = TestGeneration.slug(String(repeating: "a ", count: 100) + "(line 12)")
        #expect(dashes.utf8.count <= TestGeneration.slugLimit && dashes.hasSuffix("-line-12") && !dashes.contains("---"))
    }

    /// The tree of witnesses gives what following each witness on its own gives: the same
    /// logs, names, texts, and the same targets left without a log and why.
    @Test(arguments: TestGenerationTests.specs + ["MediaPlayer", "CheckoutScreen"], TestGeneration.Cover.allCases)
    func theWitnessTreeMatchesTheReference(name: String, cover: TestGeneration.Cover) throws {
        let url = Repository.specs.appendingPathComponent(name + ".machine")
        let result = Statecraft.check(SourceFile(path: name, bytes: Repository.bytes(url)))
        let machine = try #require(result.machine)
        let report = try #require(result.exploration)
        let fast = TestGeneration.generate(machine, report, cover: cover)
        let plain = TestGeneration.generateReference(machine, report, cover: cover)
        #expect(fast.logs == plain.logs)
        #expect(fast.targets == plain.targets)
    }

    /// Issue 31: an output's arguments are part of what a generated log expects, so that a
    /// change to them fails the log.
    @Test func expectationsCarryOutputArguments() throws {
        let url = Repository.specs.appendingPathComponent("VibrantButton.machine")
        let result = Statecraft.check(SourceFile(path: "v", bytes: Repository.bytes(url)))
        let machine = try #require(result.machine)
        let (logs, _) = TestGeneration.generate(machine, try #require(result.exploration), cover: .transitions)
        let tap = try #require(logs.first { $0.text.contains("\"event\": \"tap\"") })
        #expect(tap.text.contains("\"outputs\": [{\"name\": \"didTap\", \"args\": [0]}]"), "\(tap.text)")
        // An output without fields stays a bare name.
        let pull = Statecraft.check(SourceFile(path: "p", bytes: Repository.bytes(Repository.specs.appendingPathComponent("PullToRefresh.machine"))))
        let pullLogs = TestGeneration.generate(try #require(pull.machine), try #require(pull.exploration), cover: .transitions).logs
        #expect(pullLogs.contains { $0.text.contains("\"outputs\": [\"didRefresh\"]") })
    }

    @Test func prefixesAreMergedIntoLongerLogs() throws {
        let url = Repository.specs.appendingPathComponent("PullToRefresh.machine")
        let result = Statecraft.check(SourceFile(path: "p", bytes: Repository.bytes(url)))
        let machine = try #require(result.machine)
        let (logs, targets) = TestGeneration.generate(machine, try #require(result.exploration), cover: .transitions)
        #expect(logs.count < targets.count)
        #expect(logs.contains { $0.targets.count > 1 })
    }
}

/// The interval analysis proves only from a fixpoint: stopped at its step limit, it claims
/// nothing (issue 16: a fixpoint cut short was used as if final).
@Suite struct IntervalFixpointTests {
    @Test func anAnalysisStoppedEarlyProvesNothing() throws {
        let (machine, _) = try ExplorationTests.explore(fixture: "guard-clamp")
        let finished = IntervalAnalysis(machine)
        #expect(finished.converged)
        #expect(!finished.deadTransitions.isEmpty, "the clamp makes 'progress > 1' impossible")
        let stopped = IntervalAnalysis(machine, stepLimit: 1)
        #expect(!stopped.converged)
        #expect(stopped.deadTransitions.isEmpty)
        #expect(stopped.alwaysFailing.isEmpty)
    }
}

/// The search tells configurations apart only by the variables that can decide something
/// (`VariableRelevance`).
@Suite struct VariableRelevanceTests {
    static func machine(_ name: String) throws -> Machine {
        let url = GoldenTests.fixtures.appendingPathComponent(name + ".machine")
        return try #require(Statecraft.check(SourceFile(path: name, bytes: Repository.bytes(url)), bounds: nil).machine)
    }

    /// In the debounce chain, the keystroke counter and the copy of the last length are
    /// only emitted: they decide nothing, while `valid` (a guard reads it) does.
    @Test func counterAndEmittedCopyAreIrrelevant() throws {
        let machine = try Self.machine("debounce-chain")
        let relevance = VariableRelevance(machine)
        let byName = Dictionary(uniqueKeysWithValues: machine.variables.map { ($0.name, relevance.relevant[$0.id.index]) })
        #expect(byName == ["valid": true, "keystrokes": false, "lastLength": false])
    }

    /// What flows into a variable that decides is relevant, and so is what an expression that
    /// can fail reads, and a counter stepped by something not constant.
    @Test func relevanceFollowsAssignmentsAndFailures() throws {
        let result = Statecraft.check(source: """
            machine M {
                public var a: Number = 0
                public var b: Number = 0
                public var c: Number = 0
                public var d: Number = 0
                public var e: Number = 0
                public var f: String = ""
                event go(x: Number)
                output o(v: Number, s: String)
                initial state s {
                    on go if a > 1 { a = b; d += x; e += 1; f = f + "!"; emit o(e, f) }
                    on go if x == 3 { c = 10 / x; emit o(c * 2, f) }
                }
            }
            """, bounds: nil)
        let machine = try #require(result.machine)
        let relevance = VariableRelevance(machine)
        // a: a guard; b: flows into a; c: read by `c * 2`, which can fail; d: `d += x` can fail;
        // e: a counter, only emitted; f: a concatenation, only emitted.
        #expect(relevance.relevant == [true, true, true, true, false, false])
    }

    /// Merging on them visits fewer configurations and reaches at least as much.
    @Test func mergingVisitsFewerConfigurationsAndLosesNothing() throws {
        let machine = try Self.machine("debounce-chain")
        let bounds = ExplorationBounds(maxDepth: 12, maxConfigurations: 3_000)
        let merged = Exploration.run(machine, bounds: bounds, reference: false, merging: true)
        let apart = Exploration.run(machine, bounds: bounds, reference: false, merging: false)
        #expect(merged.configurations < apart.configurations)
        for (m, a) in zip(merged.states + merged.transitions, apart.states + apart.transitions) {
            if case .reached = a, case .notReached = m { Issue.record("merging lost a witness") }
        }
        let notReached = { (r: ExplorationReport) in (r.states + r.transitions).filter { $0 == .notReached }.count }
        #expect(notReached(merged) <= notReached(apart))
    }

    /// A sent payload that is only compared with constants where it arrives is decided by
    /// regions where it is typed: `typed(length)` is tried with 2, 3 and 4, not sampled.
    @Test func aDebouncedPayloadIsDecidedByRegions() throws {
        let chain = try Self.machine("debounce-chain")
        let regional = RegionalSlots(chain)
        let typed = try #require(chain.events.first { $0.name == "typed" })
        #expect(regional.constants[typed.id.index] == [[.number(3)]])
        let checkout = try Self.machine("debounce-checkout")
        let typedThere = try #require(checkout.events.first { $0.name == "typed" })
        #expect(RegionalSlots(checkout).constants[typedThere.id.index] == [[.number(5), .number(16)]])
        // Every event is then tried completely, and the search settles everything at once.
        let report = Exploration.run(checkout)
        #expect(!report.limits.payloadsSampled)
        #expect(!(report.states + report.transitions).contains(.notReached))
        let deep = Exploration.run(chain, bounds: ExplorationBounds(maxDepth: 30, maxConfigurations: 5_000))
        #expect(!deep.limits.payloadsSampled && !(deep.states + deep.transitions).contains(.notReached))
    }

    /// A copy that meets anything but a constant (another slot, arithmetic, a delay) is not
    /// decided by regions: its field stays sampled.
    @Test func aCopyUsedOtherwiseIsNotRegional() throws {
        let machine = try #require(Statecraft.check(source: """
            machine M {
                public var last: Number = 0
                public var other: Number = 0
                event typed(length: Number)
                event validate(length: Number)
                event paced(length: Number)
                event plain(length: Number)
                initial state s {
                    on typed { send validate(length) after 0.3 }
                    on validate if length > other { last = length }
                    on paced { send validate(length) after length }
                    on plain { last = length }
                }
            }
            """, bounds: nil).machine)
        let regional = RegionalSlots(machine)
        #expect(machine.events.map { regional.constants[$0.id.index] } == [[nil], [nil], [nil], [nil]])
    }
}
