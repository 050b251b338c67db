import StatecraftModel
import StatecraftRuntime

/// The payloads the explorer tries for each event: values drawn from what the spec itself
/// compares and computes with, since guards change their verdict around those values.
///
/// Two sources, so that no constant a guard depends on is ever cut:
/// - **guided** values, per active state and event field: every constant that a guard of
///   that state's transitions on that event compares the field with (and its neighbours),
///   however many there are;
/// - **general** values, tried for every number field: the spec's other numbers, smallest
///   magnitudes first, cut at `maxGeneral` (what the cut leaves out is recorded, so a
///   `not-reached` verdict can say which values were not tried).
///
/// Where every field of an event is *decided by regions* in a state (a bool; a number or
/// string compared only with constants; a field nothing reads), one representative of each
/// region of each field, in every combination, stands for every possible payload: the
/// event is then tried **completely** in that state. A search that tries every event
/// completely and runs out of configurations has proven what it did not reach unreachable.
struct PayloadCandidates {
    /// Numbers tried for every number field, smallest magnitudes first.
    let general: [Double]
    /// The spec's numbers the general list left out.
    let untriedGeneral: [Double]
    /// Strings the spec mentions, "", and one non-empty string the spec never mentions
    /// (`freshString`): a field copied into a variable that a guard compares with `""`
    /// needs a value on each side of that comparison.
    let strings: [String]
    let machine: Machine
    /// Per state index, per event index: what the guards of that state decide with.
    let perState: [[EventCandidates]]
    /// Whether every event is tried completely in every state.
    let everyEventComplete: Bool

    /// How many random combinations of candidate values each event also gets.
    static let randomCombinations = 12
    /// How many of the spec's numbers every number field tries.
    static let maxGeneral = 48
    /// The most payloads a complete (every region of every field) enumeration may have.
    static let maxCompleteProduct = 512
    /// The most combinations tried for one guard that reads several fields.
    static let maxGuardCombinations = 256

    /// What the guards of one state say about one event's fields.
    struct EventCandidates {
        /// Per field: the values the state's guards compare it with (and their neighbours).
        var guided: [[Value]]
        /// Per guard of the state on this event that reads two or more fields: the fields
        /// and, per field, the values that guard compares it with.
        var guardCombinations: [(line: Int, fields: [Int], values: [[Value]])]
        /// Every payload that matters, when the fields are decided by regions and the
        /// combinations are few enough; nil otherwise.
        var complete: [[Value]]?
    }

    init(_ machine: Machine) {
        self.machine = machine
        let constants = machine.constantValues
        var numbers: Set<Double> = [0, 1, -1]
        var strings: Set<String> = [""]
        func collect(_ e: Expr) {
            e.visit { sub in
                switch sub.folded(constants: constants) {
                case .number(let n)?: PayloadCandidates.neighbours(of: n).forEach { numbers.insert($0) }
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
        for s in machine.states {
            for a in s.allActions { a.visitExpressions(collect) }
            for field in s.doneData { collect(field.value) }
        }
        for c in machine.constants { collect(c.definition) }
        for p in machine.properties { p.form.expressions.forEach(collect) }
        for v in machine.variables { collect(v.initializer) }
        // A send by name sends the event its string names: the names events answer to are
        // the strings that decide what it does.
        var sendsByName = false
        for a in machine.transitions.flatMap(\.actions) + machine.states.flatMap(\.allActions) {
            a.visit { if case .sendNamed = $0 { sendsByName = true } }
        }
        if sendsByName { for (name, _) in machine.logNames { strings.insert(name) } }
        // Small magnitudes first: they are the likeliest to matter, and the cut keeps the search small.
        let sorted = numbers.sorted { (abs($0), $0) < (abs($1), $1) }
        general = Array(sorted.prefix(PayloadCandidates.maxGeneral))
        untriedGeneral = Array(sorted.dropFirst(PayloadCandidates.maxGeneral))
        strings.insert(PayloadCandidates.freshString(avoiding: strings))
        self.strings = strings.sorted()
        var perState: [[EventCandidates]] = []
        let regional = RegionalSlots(machine)
        let hasParallel = machine.states.contains { $0.kind == .parallel }
        var complete = true
        for state in machine.states {
            // With parallel states, transitions of other regions see the event too.
            let transitions = hasParallel
                ? machine.coActiveStates(state.id).flatMap { machine[$0].transitions }.map { machine[$0] }
                : IntervalAnalysis.candidateTransitions(machine, from: state.id).map { machine[$0] }
            perState.append(machine.events.map { event in
                let c = PayloadCandidates.analyse(event, transitions.filter { $0.handles(event.id) }, machine,
                                                  regional: regional.constants[event.id.index])
                if c.complete == nil && state.id != machine.root && !state.isFinal { complete = false }
                return c
            })
        }
        self.perState = perState
        everyEventComplete = complete
    }

    /// A non-empty string none of `taken` equals: "x", or as many x's as it takes. Equal
    /// to no constant of the spec, it stands for every string the spec does not name.
    static func freshString(avoiding taken: Set<String>) -> String {
        var fresh = "x"
        while taken.contains(fresh) { fresh += "x" }
        return fresh
    }

    /// n, its neighbours one and a half unit away, and -n: a guard `x > n`, `x == n` or
    /// `x >= n + 1` changes its verdict around these.
    static func neighbours(of n: Double) -> [Double] {
        [n, n - 1, n + 1, n - 0.5, n + 0.5, -n].filter(\.isFinite)
    }

    /// How the guards of `transitions` (all on `event`) use its fields. A field that is
    /// `regional` (`RegionalSlots`: copied into variables or sent payloads that are only ever
    /// compared with constants) is decided by the regions of those constants, here and in
    /// every later step, however the actions copy it.
    private static func analyse(_ event: Event, _ transitions: [Transition], _ machine: Machine,
                                regional: [Set<Value>?]) -> EventCandidates {
        let constants = machine.constantValues
        let fields = event.fields
        let index = Dictionary(fields.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        // Per field: constants it is compared with directly, all constants of guards that read
        // it, and whether some use is not a plain comparison with a constant.
        var compared = Array(repeating: Set<Value>(), count: fields.count)
        var guided = Array(repeating: Set<Value>(), count: fields.count)
        var free = Array(repeating: false, count: fields.count)
        var combinations: [(line: Int, fields: [Int], values: [[Value]])] = []
        for t in transitions {
            for a in t.actions {
                a.visitExpressions { e in
                    if case .field(let name) = e.kind, let i = index[name], regional[i] == nil { free[i] = true }
                }
            }
            guard let g = t.guardExpr else { continue }
            var read: Set<Int> = []
            var guardValues = Array(repeating: Set<Value>(), count: fields.count)
            var guardConstants: [Value] = []
            g.visit { sub in
                if case .field(let name) = sub.kind, let i = index[name] { read.insert(i) }
                if let v = sub.folded(constants: constants) { guardConstants.append(v) }
            }
            classify(g, constants: constants, index: index, compared: &compared, free: &free)
            for i in read {
                for v in guardConstants {
                    switch (fields[i].type, v) {
                    case (.number, .number(let n)):
                        for m in neighbours(of: n) { guardValues[i].insert(.number(m)) }
                    case (.string, .string): guardValues[i].insert(v)
                    default: break
                    }
                }
                guided[i].formUnion(guardValues[i])
            }
            let several = read.sorted()
            if several.count >= 2 {
                combinations.append((line: machine.source.location(of: t.keywordRange.start).line, fields: several,
                                     values: several.map { i in
                                         fields[i].type == .bool ? [.bool(false), .bool(true)] : sortedValues(guardValues[i])
                                     }))
            }
        }
        for i in fields.indices {
            guard let cs = regional[i] else { continue }
            compared[i].formUnion(cs)
            for c in cs {
                switch (fields[i].type, c) {
                case (.number, .number(let n)): for m in neighbours(of: n) { guided[i].insert(.number(m)) }
                case (.string, .string): guided[i].insert(c)
                default: break
                }
            }
        }
        // Regions: for a field compared only with constants, the constants themselves, a
        // value between each two, and one beyond each end decide every comparison.
        var regions: [[Value]]? = []
        for (i, f) in fields.enumerated() {
            let read = !compared[i].isEmpty || free[i] || !guided[i].isEmpty
            switch f.type {
            case .bool:
                regions?.append([.bool(false), .bool(true)])
            case _ where !read:
                regions?.append([f.type == .string ? .string("") : .number(0)])
            case _ where free[i]:
                regions = nil
            case .number:
                let cs = compared[i].compactMap(\.number).sorted()
                var r: [Double] = []
                for (k, c) in cs.enumerated() {
                    r.append(k == 0 ? c - 1 : (cs[k - 1] + c) / 2)
                    r.append(c)
                }
                if let last = cs.last { r.append(last + 1) }
                // Within rounding of each other, a midpoint may not lie between two constants.
                if r.contains(where: { !$0.isFinite }) || zip(r, r.dropFirst()).contains(where: { $0 >= $1 }) {
                    regions = nil
                } else {
                    regions?.append(r.map(Value.number))
                }
            case .string:
                var r = compared[i].sorted { "\($0)" < "\($1)" }
                var other = ""
                while r.contains(.string(other)) { other += "x" }
                r.append(.string(other))
                regions?.append(r)
            }
        }
        var complete: [[Value]]?
        if let regions, regions.reduce(1, { $0 * $1.count }) <= maxCompleteProduct {
            complete = product(regions)
        }
        return EventCandidates(guided: guided.map(sortedValues), guardCombinations: combinations, complete: complete)
    }

    /// Records, for each field `g` reads, whether it is compared with a constant
    /// (`x > 100`, `100 <= x`, `name == "ok"`) or used any other way (`free`).
    private static func classify(_ e: Expr, constants: [Value], index: [String: Int],
                                 compared: inout [Set<Value>], free: inout [Bool]) {
        if case .binary(let op, let l, let r) = e.kind, op.isComparison {
            for (side, other) in [(l, r), (r, l)] {
                if case .field(let name) = side.kind, let i = index[name], let c = other.folded(constants: constants) {
                    compared[i].insert(c)
                    classify(other, constants: constants, index: index, compared: &compared, free: &free)
                    return
                }
            }
        }
        if case .field(let name) = e.kind, let i = index[name] {
            free[i] = true
            return
        }
        e.forEachChild { classify($0, constants: constants, index: index, compared: &compared, free: &free) }
    }

    private static func sortedValues(_ set: Set<Value>) -> [Value] {
        set.sorted { a, b in
            switch (a, b) {
            case (.number(let x), .number(let y)): (abs(x), x) < (abs(y), y)
            default: "\(a)" < "\(b)"
            }
        }
    }

    /// Every combination of one value per list.
    static func product(_ lists: [[Value]]) -> [[Value]] {
        lists.reduce([[]]) { partial, list in partial.flatMap { p in list.map { p + [$0] } } }
    }

    /// Whether every event is tried completely in the active state of `instance`.
    func isComplete(_ event: EventID, in instance: Instance) -> Bool {
        perState[instance.state.index][event.index].complete != nil
    }

    /// The candidate values of each type in one configuration: the spec's own numbers plus
    /// the current variable values and their neighbours.
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
        var local = general
        for v in instance.variables {
            if case .number(let n) = v { local += [n, n - 1, n + 1, n - 0.5, n + 0.5] }
        }
        return Pool(numbers: local.map(Value.number), strings: strings.map(Value.string))
    }

    /// What was cut while building the payloads of one event in one configuration.
    struct Cut: Hashable {
        /// The guard's line, when only some combinations of its fields' values were tried.
        var guardLine: Int
        var tried: Int
        var of: Int
    }

    /// The payloads to try for `event` in the instance's configuration. When the event is
    /// decided by regions there, exactly one payload per combination of regions; otherwise a
    /// base payload, each field varied on its own over its guided and general values, every
    /// combination of the bool fields, the combinations each guard's fields are compared
    /// with, and a few seeded random combinations.
    func candidates(for event: Event, in instance: Instance, from pool: Pool, cuts: inout Set<Cut>) -> [[Value]] {
        let fields = event.fields
        if fields.isEmpty { return [[]] }
        let local = perState[instance.state.index][event.id.index]
        if let complete = local.complete { return complete }
        // Each field's values, built once: the loops below read them many times.
        let fieldValues = fields.indices.map { i -> [Value] in
            let f = fields[i]
            return f.type == .bool ? Pool.bools : local.guided[i] + pool.values(f.type)
        }
        let base = fields.indices.map { i -> Value in
            fields[i].type == .bool ? .bool(true) : fieldValues[i].first ?? .number(0)
        }
        // The base, then each field varied on its own: distinct values of one field give
        // distinct payloads, so telling them apart needs only a set of values per field
        // (hashing whole payloads was most of the search's time).
        var result: [[Value]] = [base]
        var varied: [Set<Value>] = []
        for i in fields.indices {
            var values: Set<Value> = [base[i]]
            for v in fieldValues[i] where values.insert(v).inserted {
                var p = base
                p[i] = v
                result.append(p)
            }
            varied.append(values)
        }
        // A payload is new unless it is the base, a one-field variant above, or one added before.
        var several: Set<[Value]> = []
        func add(_ p: [Value]) {
            if PayloadCandidates.isNew(p, base: base, varied: varied, several: &several) { result.append(p) }
        }
        var rng = SplitMix64(seed: UInt64(event.id.index + 1))
        PayloadCandidates.combinations(fields, base: base, local, rng: &rng, cut: { cuts.insert($0) }, add: add)
        for _ in 0..<PayloadCandidates.randomCombinations {
            add(fields.indices.map { i in
                let options = fieldValues[i]
                return options.isEmpty ? base[i] : options[Int(rng.next() % UInt64(options.count))]
            })
        }
        return result
    }
}

extension BinaryOp {
    /// `<`, `<=`, `>`, `>=`, `==` and `!=`.
    var isComparison: Bool {
        switch self {
        case .less, .lessEqual, .greater, .greaterEqual, .equal, .notEqual: true
        default: false
        }
    }
}

extension Transition {
    /// Whether the transition is triggered by `event`.
    func handles(_ event: EventID) -> Bool {
        if case .events(let events) = trigger { return events.contains(event) }
        return false
    }
}

extension Expr {
    /// Calls `body` on each direct subexpression.
    func forEachChild(_ body: (Expr) -> Void) {
        switch kind {
        case .unary(_, let e), .text(let e): body(e)
        case .binary(_, let l, let r):
            body(l)
            body(r)
        case .conditional(let c, let t, let e):
            body(c)
            body(t)
            body(e)
        case .call(_, let args): args.forEach(body)
        default: break
        }
    }
}

/// A small deterministic random generator (SplitMix64): the search, and anything else that
/// must give the same result on every machine, draws from it.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
