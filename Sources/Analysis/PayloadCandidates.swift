import StatecraftModel
import StatecraftRuntime

/// The payloads the explorer tries for each event: values drawn from what the spec itself
/// compares and computes with, since guards change their verdict around those values.
struct PayloadCandidates {
    /// Numbers: every constant subexpression of the spec, and one either side of it.
    let numbers: [Double]
    /// Strings: every string the spec mentions, and "".
    let strings: [String]
    let machine: Machine
    /// How many random combinations of candidate values each event also gets.
    static let randomCombinations = 12
    static let maxNumbers = 48

    init(_ machine: Machine) {
        self.machine = machine
        var numbers: Set<Double> = [0, 1, -1]
        var strings: Set<String> = [""]
        let constants = machine.constantValues
        func collect(_ e: Expr) {
            e.visit { sub in
                switch sub.folded(constants: constants) {
                case .number(let n)?:
                    for v in [n, n - 1, n + 1, n - 0.5, n + 0.5, -n] where v.isFinite { numbers.insert(v) }
                case .string(let s)?: strings.insert(s)
                default: break
                }
            }
        }
        for t in machine.transitions {
            t.guardExpr.map(collect)
            if case .after(let d) = t.trigger { collect(d) }
            for a in t.actions { a.visitExpressions(collect) }
        }
        for s in machine.states { for a in s.entry + s.exit { a.visitExpressions(collect) } }
        for c in machine.constants { collect(c.definition) }
        for v in machine.variables { collect(v.initializer) }
        // Small magnitudes first: they are the likeliest to matter, and the cut keeps the search small.
        self.numbers = Array(numbers.sorted { (abs($0), $0) < (abs($1), $1) }.prefix(PayloadCandidates.maxNumbers))
        self.strings = strings.sorted()
    }

    /// The candidate values of each type in one configuration: the spec's own numbers plus
    /// the current variable values and half a unit either side of them.
    struct Pool {
        var numbers: [Value]
        var strings: [Value]
        static let bools: [Value] = [.bool(false), .bool(true)]

        func values(_ type: ValueType) -> [Value] {
            switch type {
            case .number: numbers
            case .bool: Pool.bools
            case .string: strings
            }
        }
    }

    /// The pool for the instance's configuration (built once per configuration, for all events).
    func pool(for instance: Instance) -> Pool {
        var local = numbers
        for v in instance.variables {
            if case .number(let n) = v { local += [n, n - 0.5, n + 0.5] }
        }
        return Pool(numbers: local.map(Value.number), strings: strings.map(Value.string))
    }

    /// The payloads to try for `event`: a base payload, each field varied on its own, every
    /// combination of the bool fields, and a few seeded random combinations.
    func candidates(for event: Event, from pool: Pool) -> [[Value]] {
        let fields = event.fields
        if fields.isEmpty { return [[]] }
        let values = pool.values
        let base = fields.map { f -> Value in
            f.type == .bool ? .bool(true) : values(f.type).first ?? .number(0)
        }
        var result: [[Value]] = [base]
        var seen: Set<[Value]> = [base]
        func add(_ p: [Value]) { if seen.insert(p).inserted { result.append(p) } }
        for (i, f) in fields.enumerated() {
            for v in values(f.type) {
                var p = base
                p[i] = v
                add(p)
            }
        }
        let bools = fields.indices.filter { fields[$0].type == .bool }
        if !bools.isEmpty && bools.count <= 4 {
            for mask in 0..<(1 << bools.count) {
                var p = base
                for (bit, i) in bools.enumerated() { p[i] = .bool(mask & (1 << bit) != 0) }
                add(p)
            }
        }
        var rng = SplitMix64(seed: UInt64(event.id.index + 1))
        for _ in 0..<PayloadCandidates.randomCombinations {
            add(fields.map { f in
                let options = values(f.type)
                return options.isEmpty ? .number(0) : options[Int(rng.next() % UInt64(options.count))]
            })
        }
        return result
    }
}

/// A small deterministic random generator (SplitMix64): the search, and anything else that
/// must give the same result on every machine, draws from it.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
