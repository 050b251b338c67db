import Foundation
import Statecraft
import Testing
import TestSupport

/// The search keys the configurations it has seen on `writeSnapshotKey`'s packed words
/// instead of `snapshot` (which allocates a dozen arrays per step). The words must tell two
/// instances apart exactly when their snapshots differ, or the search would merge
/// configurations that behave differently, or explore one twice.
@Suite struct SnapshotKeyTests {
    /// Payload values a walk draws from: 0 and -0 (equal numbers, different bits), and a
    /// string written composed and decomposed (equal strings, different bytes).
    static let numbers: [Double] = [0, -0.0, 1, -1, 0.5, 2, 10, 100]
    static let strings = ["", "\u{E9}", "e\u{301}", "a"]

    /// Instances met on random walks: events with drawn payloads, and waits for timers.
    static func instances(_ program: Program, seed: UInt64, count: Int) -> [Instance] {
        var rng = SplitMix64(seed: seed)
        func pick<T>(_ list: [T]) -> T { list[Int(rng.next() % UInt64(list.count))] }
        let machine = program.machine
        var result: [Instance] = []
        while result.count < count {
            var instance = Instance(program)
            _ = instance.start()
            result.append(instance)
            for _ in 0..<12 where result.count < count {
                if rng.next() % 4 == 0, let deadline = instance.nextDeadline {
                    instance.advance(to: deadline)
                } else if let event = machine.events.isEmpty ? nil : pick(machine.events) {
                    let payload = event.fields.map { field -> Value in
                        switch field.type {
                        case .number: .number(pick(numbers))
                        case .bool: .bool(rng.next() % 2 == 0)
                        case .string: .string(pick(strings))
                        }
                    }
                    _ = instance.send(event.id, payload: payload)
                }
                result.append(instance)
            }
        }
        return result
    }

    /// Checks every pair of instances met on a walk; returns how many configurations it met.
    @discardableResult
    static func agree(_ program: Program, seed: UInt64) -> Int {
        let instances = Self.instances(program, seed: seed, count: 160)
        var strings = SnapshotStrings()
        let keys = instances.map { instance -> [UInt64] in
            var key: [UInt64] = []
            instance.writeSnapshotKey(into: &key, strings: &strings)
            return key
        }
        let snapshots = instances.map(\.snapshot)
        for i in instances.indices {
            for j in instances.indices where j > i && (snapshots[i] == snapshots[j]) != (keys[i] == keys[j]) {
                Issue.record("\(program.machine.name): instances \(i) and \(j): snapshots equal \(snapshots[i] == snapshots[j]), keys equal \(keys[i] == keys[j])")
                return 0
            }
        }
        return Set(keys).count
    }

    @Test(arguments: ["CheckoutScreen", "Drawer", "MediaPlayer", "PeekRating", "PullToRefresh", "SwipeToDismiss", "VibrantButton"])
    func bundledSpecs(_ name: String) throws {
        let program = try program(spec: name)
        let met = (0..<4 as Range<UInt64>).map { Self.agree(program, seed: $0) }
        // The walks must meet several configurations, or the test proves nothing.
        #expect(met.allSatisfy { $0 > 1 }, "\(met)")
    }

    /// Generated statecharts: parallel regions, history and internal queues in the key.
    /// (Many end in a final state, or take no event, within a few steps; ten must not.)
    @Test func generatedCharts() throws {
        var met: [Int] = []
        for seed in 0..<30 as Range<UInt64> {
            var generator = ChartGenerator(seed: seed)
            met.append(Self.agree(try program(source: generator.spec()), seed: seed))
        }
        #expect(met.filter { $0 > 5 }.count >= 10, "\(met)")
    }

    /// 0 and -0, and a string composed or decomposed, are the same value: one key.
    @Test func equalValuesWithDifferentBitsShareAKey() throws {
        let program = try program(source: """
            machine Keys {
                event set(n: Number, t: String)
                var x: Number = 0
                var s: String = ""
                initial state idle {
                    on set { x = n; s = t }
                }
            }
            """)
        var a = Instance(program), b = Instance(program)
        _ = a.start()
        _ = b.start()
        _ = a.send("set", ["n": .number(0), "t": .string("\u{E9}")])
        _ = b.send("set", ["n": .number(-0.0), "t": .string("e\u{301}")])
        var strings = SnapshotStrings()
        var ka: [UInt64] = [], kb: [UInt64] = []
        a.writeSnapshotKey(into: &ka, strings: &strings)
        b.writeSnapshotKey(into: &kb, strings: &strings)
        #expect(a.snapshot == b.snapshot)
        #expect(ka == kb)
    }
}
