import Foundation
import Statecraft
import Testing
import TestSupport

/// Snapshots an app keeps (`Instance.snapshotJSON()`, `Instance(restoring:program:)`): a
/// restored instance continues exactly as the original would, and a snapshot the spec cannot
/// take is refused with every name it lacks.
@Suite struct InstanceSnapshotTests {
    static let numbers: [Double] = [0, -0.0, 1, -1, 0.5, 2, 10, 100, 0.1, 1e-7, 123456.789]
    static let strings = ["", "\u{E9}", "e\u{301}", "a", "quote \" back\\slash\nline\u{1}", "\u{1F600}"]
    static let gaps: [Double] = [0, 0.05, 0.3, 1, 2.5, 10]

    /// One random move: an event with a drawn payload, or time passing (by a gap, or to the
    /// next deadline). Applied to two instances, it must do the same to both.
    enum Move { case send(EventID, [Value]), advance(Double), toDeadline }

    static func randomMove(_ machine: Machine, _ rng: inout SplitMix64) -> Move {
        func pick<T>(_ list: [T]) -> T { list[Int(rng.next() % UInt64(list.count))] }
        switch rng.next() % 6 {
        case 0: return .toDeadline
        case 1: return .advance(pick(gaps))
        default:
            guard !machine.events.isEmpty else { return .advance(pick(gaps)) }
            let event = pick(machine.events)
            return .send(event.id, event.fields.map { field -> Value in
                switch field.type {
                case .number: .number(pick(numbers))
                case .bool: .bool(rng.next() % 2 == 0)
                case .string: .string(pick(strings))
                }
            })
        }
    }

    /// What a move did: every step with its outputs, in order.
    static func apply(_ move: Move, to instance: inout Instance) -> [String] {
        var seen: [String] = []
        let emit: (OutputID, [Value]) -> Void = { seen.append("output \($0.index) \($1)") }
        switch move {
        case .send(let event, let payload):
            seen.append("\(instance.send(event, payload: payload, emit: emit))")
        case .advance(let gap):
            instance.advance(to: instance.now + gap, emit: emit, onStep: { seen.append("\($0)") })
        case .toDeadline:
            if let deadline = instance.nextDeadline {
                instance.advance(to: deadline, emit: emit, onStep: { seen.append("\($0)") })
            }
        }
        return seen
    }

    /// Takes `count` snapshots along random walks of `program`; for each, restores it and runs
    /// the original and the restored instance side by side for `continuation` moves. Returns
    /// the first difference (nil when none) and how many snapshots had a pending timer.
    static func check(_ program: Program, seed: UInt64, count: Int, continuation: Int = 6) -> (String?, pending: Int) {
        var rng = SplitMix64(seed: seed)
        let machine = program.machine
        var taken = 0, withPending = 0
        while taken < count {
            var original = Instance(program)
            _ = original.start()
            for _ in 0..<10 where taken < count {
                _ = apply(randomMove(machine, &rng), to: &original)
                taken += 1
                let json = original.snapshotJSON()
                var restored: Instance
                do {
                    restored = try Instance(restoring: json, program: program)
                } catch {
                    return ("snapshot \(taken): refused: \(error)\n\(json)", withPending)
                }
                if original.nextDeadline != nil { withPending += 1 }
                guard restored.snapshot == original.snapshot, restored.now == original.now else {
                    return ("snapshot \(taken): restored \(restored.snapshot) at \(restored.now)\noriginal \(original.snapshot) at \(original.now)\n\(json)", withPending)
                }
                guard restored.snapshotJSON() == json else {
                    return ("snapshot \(taken): the restored instance's JSON differs:\n\(restored.snapshotJSON())\n\(json)", withPending)
                }
                var a = original, b = restored
                for step in 0..<continuation {
                    let move = randomMove(machine, &rng)
                    let seenA = apply(move, to: &a), seenB = apply(move, to: &b)
                    if seenA != seenB || a.configuration != b.configuration || a.variables != b.variables
                        || a.nextDeadline != b.nextDeadline || a.isFinished != b.isFinished {
                        return ("snapshot \(taken), step \(step) after restoring (\(move)):\noriginal \(seenA) \(a.configuration) \(a.variables)\nrestored \(seenB) \(b.configuration) \(b.variables)\n\(json)", withPending)
                    }
                }
            }
        }
        return (nil, withPending)
    }

    static let bundled = ["Drawer", "MediaPlayer", "PeekRating", "PullToRefresh", "SwipeToDismiss", "VibrantButton", "CheckoutScreen"]

    /// 10,600 snapshots in all: 600 per bundled spec, 100 per generated chart (parallel
    /// regions, deep and shallow history, timers, raised and delayed sent events).
    @Test func restoredInstancesContinueAsTheOriginals() throws {
        var pending = 0
        for (k, name) in Self.bundled.enumerated() {
            let (difference, p) = Self.check(try program(spec: name), seed: UInt64(k), count: 600)
            pending += p
            #expect(difference == nil, "\(name): \(difference ?? "")")
        }
        for seed in 0..<64 as Range<UInt64> {
            var generator = ChartGenerator(seed: seed)
            let source = generator.spec()
            let (difference, p) = Self.check(try program(source: source), seed: seed, count: 100)
            pending += p
            #expect(difference == nil, "chart \(seed): \(difference ?? "")\n\(source)")
        }
        // The walks must leave timers pending often, or the deadlines were never tested.
        #expect(pending > 1000, "\(pending)")
    }

    static let spec = """
        machine Player {
            event play
            event stop
            event ping(n: Number, label: String)
            var count: Number = 0
            var muted: Bool = false
            var title: String = "x"
            initial state idle {
                on play if !muted -> playing
            }
            state playing {
                after 2s -> idle
                initial state loud {
                    on stop -> quiet
                }
                state quiet {
                    on ping if label != title { count = count + n; send ping(1, label) after 1s }
                }
            }
        }
        """

    @Test func aSnapshotNamesEverythingByName() throws {
        let program = try program(source: Self.spec)
        var instance = Instance(program)
        _ = instance.start()
        _ = instance.send("play")
        instance.advance(to: 0.5)
        _ = instance.send("stop")
        _ = instance.send("ping", ["n": .number(0.1), "label": .string("a\"b")])
        let fingerprint = SpecFingerprint(specText: Self.spec)
        #expect(instance.snapshotJSON() == """
            {
              "snapshot": 1,
              "machine": "Player",
              "spec": "\(fingerprint)",
              "now": 0.5,
              "finished": false,
              "configuration": ["playing", "playing.quiet"],
              "history": {},
              "variables": {
                "count": 0.1,
                "muted": false,
                "title": "x"
              },
              "pending": [
                {"send": "ping", "payload": {"n": 1, "label": "a\\"b"}, "deadline": 1.5},
                {"after": "playing", "index": 0, "deadline": 2}
              ]
            }

            """)
    }

    /// Every name the spec lacks is listed, not just the first, and nothing is restored.
    @Test func aSnapshotNamingWhatTheSpecLacksIsRefused() throws {
        let program = try program(source: Self.spec)
        let json = """
            {"snapshot": 1, "machine": "Player", "spec": "0000000000000000", "now": 3, "finished": false,
             "configuration": ["playing", "playing.gone"], "history": {"playing.H": ["playing.loud"]},
             "variables": {"count": true, "volume": 3, "title": "t"},
             "pending": [{"after": "playing", "index": 4, "deadline": 5}, {"after": "off", "index": 0, "deadline": 5},
                         {"send": "pong", "payload": {}, "deadline": 4},
                         {"send": "ping", "payload": {"n": "1", "extra": 1}, "deadline": 4}]}
            """
        #expect(throws: SnapshotError.self) { try Instance(restoring: json, program: program) }
        do {
            _ = try Instance(restoring: json, program: program)
        } catch {
            #expect(error.problems == [
                "configuration: no state 'playing.gone' in the spec",
                "history: no state 'playing.H' in the spec",
                "variable 'count' is Number in the spec, Bool in the snapshot",
                "variables: no variable 'volume' in the spec",
                "pending[0]: state 'playing' has no 'after' transition 4 (it has 1)",
                "pending[1]: no state 'off' in the spec",
                "pending[2]: no event 'pong' in the spec",
                "pending[3] field 'n' is Number in the spec, String in the snapshot",
                "pending[3]: event 'ping' has field 'label', missing in the snapshot",
                "pending[3]: event 'ping' has no field 'extra' in the spec",
            ])
        }
    }

    /// A statechart's snapshot restores only a configuration the machine can be in: an active
    /// compound state (the machine itself too) with exactly one active state, an active
    /// parallel state with every region. The generated types count on it.
    @Test func aStatechartsConfigurationMustBeOneItCanBeIn() throws {
        let program = try program(source: """
            machine Panel {
                event go
                initial parallel state p {
                    state a {
                        initial state a1 { on go -> a2 }
                        state a2
                    }
                    state b {
                        initial state b1
                        state b2
                    }
                }
                state done
            }
            """)
        func problems(_ configuration: String) -> [String] {
            let json = """
                {"snapshot": 1, "machine": "Panel", "spec": "0000000000000000", "now": 0, "finished": false,
                 "configuration": [\(configuration)], "history": {}, "variables": {}, "pending": []}
                """
            do {
                _ = try Instance(restoring: json, program: program)
                return []
            } catch {
                return error.problems
            }
        }
        #expect(problems(#""p", "p.a", "p.a.a1", "p.b", "p.b.b2""#) == [])
        #expect(problems(#""p", "p.a", "p.a.a1", "p.b""#) == ["configuration: 'p.b' is active but none of its states is"])
        #expect(problems(#""p", "p.a", "p.a.a1""#) == ["configuration: 'p' is active but not every one of its regions is"])
        #expect(problems(#""p", "p.a", "p.a.a1", "p.a.a2", "p.b", "p.b.b1""#)
                == ["configuration: 'p.a' is active but more than one of its states is"])
        #expect(problems(#""p", "p.a", "p.a.a1", "p.b", "p.b.b1", "done""#)
                == ["configuration: the machine is active but more than one of its states is"])
    }

    @Test func aSnapshotOfAnotherMachineIsRefused() throws {
        let drawer = try program(spec: "Drawer")
        var instance = Instance(try program(source: Self.spec))
        _ = instance.start()
        #expect(throws: SnapshotError.self) { try Instance(restoring: instance.snapshotJSON(), program: drawer) }
        do { _ = try Instance(restoring: instance.snapshotJSON(), program: drawer) } catch {
            #expect(error.problems == ["snapshot of machine 'Player', not 'Drawer'"])
        }
    }

    /// A flat machine finishes by entering a final state at the top level (or when its start
    /// fails, and then nothing is active), and the generated types count on it: a snapshot that
    /// says finished anywhere else is refused, and one that finished in a final state restores
    /// finished.
    @Test func finishedOutsideAFinalStateIsRefused() throws {
        let program = try program(source: """
            machine Door {
                event open
                event lock
                initial state closed {
                    on open -> opened
                    on lock -> locked
                }
                state opened {}
                final state locked
            }
            """)
        var instance = Instance(program)
        _ = instance.start()
        let closed = instance.snapshotJSON()
        #expect(closed.contains("\"finished\": false"))
        do {
            _ = try Instance(restoring: closed.replacingOccurrences(of: "\"finished\": false", with: "\"finished\": true"),
                             program: program)
            Issue.record("restored a machine finished in 'closed'")
        } catch {
            #expect(error.problems == ["field 'finished' is true, but no final state at the top level is active"])
        }
        _ = instance.send(try #require(program.event(named: "lock")), payload: [])
        #expect(instance.isFinished)
        var restored = try Instance(restoring: instance.snapshotJSON(), program: program)
        #expect(restored.isFinished)
        let after = restored.send(try #require(program.event(named: "open")), payload: [])
        if case .afterFinal = after.result {} else { Issue.record("the restored machine took 'open': \(after.result)") }
    }

    @Test func anotherVersionIsRefused() throws {
        let program = try program(source: Self.spec)
        do {
            _ = try Instance(restoring: #"{"snapshot": 2, "machine": "Player"}"#, program: program)
            Issue.record("restored a snapshot of version 2")
        } catch {
            #expect(error.problems == ["unsupported snapshot version (this runtime reads version 1)"])
        }
    }

    @Test func malformedJSONIsRefusedWithLineAndColumn() throws {
        let program = try program(source: Self.spec)
        do {
            _ = try Instance(restoring: "{\n  \"snapshot\": 1,\n  \"machine\" \"Player\"\n}", program: program)
            Issue.record("restored malformed JSON")
        } catch {
            #expect(error.problems == ["3:13: expected ':'"])
        }
    }

    /// An app update that adds a state and a variable still restores an old snapshot (its
    /// fingerprint differs); the new variable keeps its initial value.
    @Test func aSnapshotOfAnEarlierVersionRestoresWhenEveryNameResolves() throws {
        var instance = Instance(try program(source: Self.spec))
        _ = instance.start()
        _ = instance.send("play")
        let updated = Self.spec.replacingOccurrences(of: "var title: String = \"x\"", with: "var title: String = \"x\"\n    var extra: Number = 7")
            .replacingOccurrences(of: "state quiet {", with: "state silent {}\n        state quiet {")
        let restored = try Instance(restoring: instance.snapshotJSON(), program: try program(source: updated))
        #expect(restored.value(of: "extra") == .number(7))
        #expect(restored.configuration.map { restored.program.machine[$0].name } == ["playing", "loud"])
        #expect(restored.nextDeadline == 2)
    }
}
