import StatecraftModel
import StatecraftRuntime

/// The search asks for the candidate payloads of every event in every configuration it
/// expands, and building them (with the sets that keep them distinct) was most of its time.
/// Yet almost all of a list depends only on the active state and the event: the base, each
/// field's guided and general values, the bool and guard combinations, even which values
/// the random combinations draw (by position). Only the numbers drawn from the variables
/// change from one configuration to the next. A template keeps the fixed part, built once
/// per state and event, and `candidates(from:dynamic:cuts:)` adds the rest, giving exactly
/// the list `candidates(for:in:from:cuts:)` (the plain reference, which the tests compare
/// it with) gives.
extension PayloadCandidates {
    struct Template: Sendable {
        var base: [Value]
        /// Per field: the base with that field set to each of its values other than the
        /// base's, in order, without repeats, before any value from a variable (those come
        /// after, when they are new).
        var variants: [[[Value]]]
        /// Per field: the base's value and `variants`.
        var varied: [Set<Value>]
        /// Per field: whether it is a number field (the only ones variables add values to),
        /// and how many values it has before the variables'.
        var isNumber: [Bool]
        var fixedCount: [Int]
        /// The bool and guard combinations that vary two fields or more (or one, with a value
        /// it is not varied over), in order, and their set.
        var tail: [[Value]]
        var several: Set<[Value]>
        var cuts: [Cut]
        /// The random combinations: per draw, per field, the position of the value drawn in
        /// that field's values (variables' values included, after the fixed ones).
        var draws: [[Int]]
        /// Per field, its fixed values (guided, then general or the spec's strings).
        var fixed: [[Value]]
    }

    /// The templates of every event in `state` (nil for an event tried completely there, or
    /// without fields: its list is fixed already).
    func templates(state: StateID, variableNumbers: Int) -> [Template?] {
        machine.events.map { event in
            let local = perState[state.index][event.id.index]
            guard !event.fields.isEmpty, local.complete == nil else { return nil }
            return template(event, local, poolNumbers: general.count + 5 * variableNumbers)
        }
    }

    private func template(_ event: Event, _ local: EventCandidates, poolNumbers: Int) -> Template {
        let fields = event.fields
        let fixed = fields.indices.map { i -> [Value] in
            switch fields[i].type {
            case .bool: Pool.bools
            case .number: local.guided[i] + general.map(Value.number)
            case .string: local.guided[i] + strings.map(Value.string)
            }
        }
        let isNumber = fields.map { $0.type == .number }
        // The base is the first value of each field, which is never a variable's.
        let base = fields.indices.map { i -> Value in
            fields[i].type == .bool ? .bool(true) : fixed[i].first ?? .number(0)
        }
        var variants: [[[Value]]] = []
        var varied: [Set<Value>] = []
        for i in fields.indices {
            var values: Set<Value> = [base[i]]
            var list: [[Value]] = []
            for v in fixed[i] where values.insert(v).inserted {
                var p = base
                p[i] = v
                list.append(p)
            }
            variants.append(list)
            varied.append(values)
        }
        var tail: [[Value]] = []
        var several: Set<[Value]> = []
        func add(_ p: [Value]) {
            if PayloadCandidates.isNew(p, base: base, varied: varied, several: &several) { tail.append(p) }
        }
        var cuts: [Cut] = []
        var rng = SplitMix64(seed: UInt64(event.id.index + 1))
        PayloadCandidates.combinations(fields, base: base, local, rng: &rng, cut: { cuts.append($0) }, add: add)
        // Every configuration's number fields have the same count of values (the general
        // ones, then five per number variable), so the positions drawn are the same.
        let counts = fields.indices.map { i in isNumber[i] ? local.guided[i].count + poolNumbers : fixed[i].count }
        let draws = (0..<PayloadCandidates.randomCombinations).map { _ in
            fields.indices.map { i in counts[i] == 0 ? -1 : Int(rng.next() % UInt64(counts[i])) }
        }
        return Template(base: base, variants: variants, varied: varied, isNumber: isNumber,
                        fixedCount: fixed.map(\.count), tail: tail, several: several, cuts: cuts, draws: draws, fixed: fixed)
    }

    /// Every combination of the bool fields (up to four), then the combinations each guard's
    /// fields are compared with (a seeded sample of `maxGuardCombinations` when there are
    /// more, reported through `cut`), each handed to `add` on `base`.
    static func combinations(_ fields: [Field], base: [Value], _ local: EventCandidates, rng: inout SplitMix64,
                             cut: (Cut) -> Void, add: ([Value]) -> Void) {
        let bools = fields.indices.filter { fields[$0].type == .bool }
        if !bools.isEmpty && bools.count <= 4 {
            for mask in 0..<(1 << bools.count) {
                var p = base
                for (bit, i) in bools.enumerated() { p[i] = .bool(mask & (1 << bit) != 0) }
                add(p)
            }
        }
        for combination in local.guardCombinations {
            let total = combination.values.reduce(1) { $0 &* max(1, $1.count) }
            if total <= PayloadCandidates.maxGuardCombinations {
                for values in PayloadCandidates.product(combination.values) {
                    var p = base
                    for (k, i) in combination.fields.enumerated() { p[i] = values[k] }
                    add(p)
                }
            } else {
                cut(Cut(guardLine: combination.line, tried: PayloadCandidates.maxGuardCombinations, of: total))
                for _ in 0..<PayloadCandidates.maxGuardCombinations {
                    var p = base
                    for (k, i) in combination.fields.enumerated() {
                        let options = combination.values[k]
                        if !options.isEmpty { p[i] = options[Int(rng.next() % UInt64(options.count))] }
                    }
                    add(p)
                }
            }
        }
    }

    /// Whether `p` is not the base, not one of the one-field variants (`varied`), and not in
    /// `earlier` or `several` yet (it is then added to `several`).
    static func isNew(_ p: [Value], base: [Value], varied: [Set<Value>], earlier: Set<[Value]> = [],
                      several: inout Set<[Value]>) -> Bool {
        var differing = -1
        for i in p.indices where p[i] != base[i] {
            if differing >= 0 { return !earlier.contains(p) && several.insert(p).inserted }
            differing = i
        }
        return differing >= 0 && !varied[differing].contains(p[differing]) && !earlier.contains(p)
            && several.insert(p).inserted
    }

    /// The candidate payloads of the template's event in a configuration whose variables
    /// add the numbers `dynamic` (`Pool.numbers` after the general ones).
    func candidates(from template: Template, dynamic: [Value], cuts: inout Set<Cut>) -> [[Value]] {
        let base = template.base
        var result: [[Value]] = [base]
        var varied = template.varied
        for i in base.indices {
            result += template.variants[i]
            guard template.isNumber[i] else { continue }
            for v in dynamic where varied[i].insert(v).inserted {
                var p = base
                p[i] = v
                result.append(p)
            }
        }
        result += template.tail
        for cut in template.cuts { cuts.insert(cut) }
        var drawn: Set<[Value]> = []
        for draw in template.draws {
            let p = base.indices.map { i -> Value in
                let k = draw[i]
                if k < 0 { return base[i] }
                return k < template.fixedCount[i] ? template.fixed[i][k] : dynamic[k - template.fixedCount[i]]
            }
            if PayloadCandidates.isNew(p, base: base, varied: varied, earlier: template.several, several: &drawn) {
                result.append(p)
            }
        }
        return result
    }
}
