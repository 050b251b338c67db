/// What a program's properties read, gathered across them so that one pass over a stable
/// configuration tells which properties could have changed their values: each number
/// variable, string variable and state that some property reads (`in(...)`, or a response's
/// triggering state), once, with the mask of the properties that read it. Constants never
/// change, and a property reads nothing else, so a property none of whose inputs changed
/// has the values it had at its last judgement. `always reachable` is left out: no run
/// breaks it, so the monitor never judges it.
///
/// On a flat machine, quick properties (`quickMask`) are left out of the inputs too:
/// judging one there is a couple of compares on registers, no dearer than finding out
/// whether its inputs changed, so replay judges them in every stable configuration (where
/// the active leaf leaves them to judge, `quickIn`) and the input pass covers only the others.
///
/// `replay` consults it on every line, so it is a class over frozen tables: reading it
/// retains nothing. Masks are 64 bits: a program with more properties has no watch (nil),
/// and its monitor judges every property in every configuration.
package final class PropertyWatch: @unchecked Sendable {
    /// A register or a state index, and the mask of the (not quick) properties that read it.
    package struct Input: Sendable {
        package var id: Int32
        package var readers: UInt64
    }

    /// The compiled properties (`Program.properties`), by index.
    package let properties: FrozenTable<CompiledProperty>
    package let numbers: FrozenTable<Input>
    package let strings: FrozenTable<Input>
    package let states: FrozenTable<Input>
    /// The properties that read any state (on a flat machine, the first leaf concerns all
    /// of them).
    let stateReaders: UInt64
    /// On a flat machine, by state: the properties that read `in(s)` of it or of a state it
    /// lies in (a new leaf changes only those of the leaf left and the leaf entered). Empty
    /// for a statechart.
    let readersOfState: FrozenTable<UInt64>
    /// By event: the responses that event triggers.
    let triggeredBy: FrozenTable<UInt64>
    /// Whether the cached properties read states only, and no event triggers one: then
    /// their inputs changed only where a flat machine's leaf did.
    let statesOnly: Bool
    /// The watched properties the inputs above are gathered for, judged only where their
    /// inputs changed: all of them on a statechart, those that are not quick on a flat machine.
    let cached: UInt64
    /// By property: its `QuickJudgement`, for the properties in `quickMask` (the others'
    /// entries are unused).
    let quick: FrozenTable<CompiledProperty.QuickJudgement>
    /// Four per property, from `4 * k`: the two tests of its `X` then the two of its `G`
    /// (unused entries repeat the first).
    let quickTests: FrozenTable<CompiledProperty.QuickTest>
    /// The `never`/`always` properties whose expressions are all quick conditions, judged
    /// inline.
    let quickMask: UInt64
    /// On a flat machine, by active leaf: the quick properties judged there, and those of
    /// them whose `G` is tested. Empty for a statechart.
    let quickIn: FrozenTable<QuickInLeaf>

    /// What a flat machine's active leaf leaves of the quick properties: the leaf decides
    /// each `in(s)`, so `always x > 0 while in(open)` is not judged in `closed` and its `G` is
    /// not tested in `open`.
    struct QuickInLeaf: Sendable {
        var judged: UInt64
        var guardsTested: UInt64
    }

    init?(_ properties: [CompiledProperty], reads: [(numbers: [Int32], strings: [Int32], states: [Int32])],
          eventCount: Int, flatStates: Int, within: (_ leaf: Int, _ state: Int) -> Bool) {
        guard properties.count <= 64 else { return nil }
        var quick: [CompiledProperty.QuickJudgement] = []
        var quickTests: [CompiledProperty.QuickTest] = []
        var quickMask: UInt64 = 0
        for (k, p) in properties.enumerated() {
            var judgement = CompiledProperty.QuickJudgement(x: .none, g: .none, hasGuard: false, breaksWhen: p.kind == .never)
            var tests = Array(repeating: CompiledProperty.QuickTest(op: .truthy, b: 0, c: 0), count: 4)
            if p.kind == .never || p.kind == .always, let x = p.x.quick, p.other?.isQuick ?? true {
                judgement.x = x.join
                tests[0] = x.first
                tests[1] = x.second
                if let g = p.other?.quick {
                    judgement.g = g.join
                    judgement.hasGuard = true
                    tests[2] = g.first
                    tests[3] = g.second
                }
                quickMask |= UInt64(1) << UInt64(k)
            }
            quick.append(judgement)
            quickTests += tests
        }
        // On a flat machine the active leaf decides every `in(s)`: a property whose `G` it
        // makes false (or whose `X` it makes harmless) is not judged in that leaf, and a `G`
        // it makes true is not tested.
        var quickIn = Array(repeating: QuickInLeaf(judged: quickMask, guardsTested: quickMask), count: flatStates)
        for leaf in 0..<flatStates {
            var mask = quickMask
            while mask != 0 {
                let k = mask.trailingZeroBitCount
                mask &= mask - 1
                let q = quick[k], t = quickTests, bit = UInt64(1) << UInt64(k)
                func value(_ first: CompiledProperty.QuickTest, _ join: CompiledProperty.QuickCondition.Join,
                           _ second: CompiledProperty.QuickTest) -> Bool? {
                    Self.value(of: first, join, second) { op, s in
                        switch op {
                        case .leaf, .active: within(leaf, s)
                        case .notLeaf, .inactive: !within(leaf, s)
                        default: nil
                        }
                    }
                }
                let g = q.hasGuard ? value(t[4 * k + 2], q.g, t[4 * k + 3]) : true
                let x = value(t[4 * k], q.x, t[4 * k + 1])
                if g == false || x == !q.breaksWhen { quickIn[leaf].judged &= ~bit }
                if g == true { quickIn[leaf].guardsTested &= ~bit }
            }
        }
        var numbers: [Input] = [], strings: [Input] = [], states: [Input] = []
        var triggeredBy = Array(repeating: UInt64(0), count: eventCount)
        var stateReaders: UInt64 = 0, cached: UInt64 = 0
        // On a statechart a quick property's `in(s)` is a look-up of its own, and its inputs
        // are gathered like the others'.
        let uncached = flatStates > 0 ? quickMask : 0
        for (k, p) in properties.enumerated() where p.kind != .reachable && uncached & (UInt64(1) << UInt64(k)) == 0 {
            let bit = UInt64(1) << UInt64(k)
            cached |= bit
            func add(_ list: inout [Input], _ id: Int32) {
                if let at = list.firstIndex(where: { $0.id == id }) {
                    list[at].readers |= bit
                } else {
                    list.append(Input(id: id, readers: bit))
                }
            }
            for r in reads[k].numbers { add(&numbers, r) }
            for r in reads[k].strings { add(&strings, r) }
            for s in reads[k].states { add(&states, s) }
            if !reads[k].states.isEmpty { stateReaders |= bit }
            if p.triggerEvent >= 0 && Int(p.triggerEvent) < eventCount { triggeredBy[Int(p.triggerEvent)] |= bit }
        }
        // By leaf: the readers of `in(s)` for every `s` the leaf lies in, itself and its
        // ancestors, since leaving or entering the leaf may change each of those.
        var readersOfState = Array(repeating: UInt64(0), count: flatStates)
        for input in states where Int(input.id) < flatStates {
            for leaf in 0..<flatStates where within(leaf, Int(input.id)) { readersOfState[leaf] |= input.readers }
        }
        self.readersOfState = FrozenTable(readersOfState)
        self.quickIn = FrozenTable(quickIn)
        self.quickTests = FrozenTable(quickTests)
        self.quick = FrozenTable(quick)
        self.quickMask = quickMask
        self.properties = FrozenTable(properties)
        self.numbers = FrozenTable(numbers)
        self.strings = FrozenTable(strings)
        self.states = FrozenTable(states)
        self.triggeredBy = FrozenTable(triggeredBy)
        statesOnly = numbers.isEmpty && strings.isEmpty && !triggeredBy.contains { $0 != 0 }
        self.stateReaders = stateReaders
        self.cached = cached
    }

    /// The properties whose inputs are in `changed`, and the responses `event` (-1: none)
    /// triggers: those `observe` judges beyond the quick ones.
    @inline(__always)
    func due(_ changed: UInt64, took event: Int32) -> UInt64 {
        event >= 0 && Int(event) < triggeredBy.count ? changed | triggeredBy[Int(event)] : changed
    }

    /// A quick condition's value where `test` decides each of its tests that are about
    /// states (nil where a variable may decide it).
    private static func value(of first: CompiledProperty.QuickTest, _ join: CompiledProperty.QuickCondition.Join,
                              _ second: CompiledProperty.QuickTest,
                              test: (CompiledProperty.QuickTest.Op, Int) -> Bool?) -> Bool? {
        let a = test(first.op, Int(first.b)), b = test(second.op, Int(second.b))
        switch join {
        case .none: return a
        case .and: return a == false || b == false ? false : a == true ? b : nil
        case .or: return a == true || b == true ? true : a == false ? b : nil
        }
    }

    deinit {
        properties.free()
        quickIn.free()
        readersOfState.free()
        quick.free()
        quickTests.free()
        numbers.free()
        strings.free()
        states.free()
        triggeredBy.free()
    }
}

/// What a run's properties read at their last judgement (the inputs of `PropertyWatch`),
/// and each property's `X` then: what lets `PropertyMonitor.observe(…, cache:)` judge only
/// the properties whose inputs changed. A replay keeps one per case beside its monitor. (It
/// is not part of the monitor: the search tells runs apart by their monitors, and what a
/// run last read is no part of that.)
///
/// A class over raw storage, read on every line of a replay: arrays would check their
/// buffer's uniqueness on every write. One run uses it at a time.
package final class PropertyInputCache: @unchecked Sendable {
    /// By compiled property: its `X` at the last judgement.
    let lastX: UnsafeMutablePointer<Bool>
    /// The watched inputs' values at the last observation, in `PropertyWatch` order:
    /// numbers by bit pattern (so a NaN equals itself), and states' activity. (Strings are
    /// not kept: a step journals every string it stores, and that says which changed.)
    private let numbers: UnsafeMutablePointer<UInt64>
    private let states: UnsafeMutablePointer<Bool>
    /// The active leaf at the last observation, for a machine without statechart steps.
    private(set) var leaf: Int32 = -1
    /// Whether there was an observation yet: the first one judges every property.
    private var observed = false
    private let counts: (properties: Int, numbers: Int, states: Int)
    /// The program's watch, unretained (reading a strong reference retains and releases it
    /// on every line): the program keeps it alive, and outlives every run's cache.
    let watch: Unmanaged<PropertyWatch>?
    /// On a flat machine, the watch's tables of its quick properties (`quickIn`, `quick`,
    /// `quickTests`), its `cached` mask and `statesOnly`, copied here so the line's common path reads
    /// them without reaching for the watch.
    let flat: FlatTables?

    struct FlatTables {
        let quickIn: UnsafeMutablePointer<PropertyWatch.QuickInLeaf>
        let quick: UnsafeMutablePointer<CompiledProperty.QuickJudgement>
        let quickTests: UnsafeMutablePointer<CompiledProperty.QuickTest>
        let cached: UInt64
        let statesOnly: Bool
    }

    package init(_ program: Program) {
        let watch = program.propertyWatch
        self.watch = watch.map { Unmanaged.passUnretained($0) }
        flat = watch.flatMap { w in
            w.quickIn.count == 0 ? nil
                : FlatTables(quickIn: w.quickIn.base, quick: w.quick.base, quickTests: w.quickTests.base, cached: w.cached,
                             statesOnly: w.statesOnly)
        }
        counts = (max(1, program.properties.count), max(1, watch?.numbers.count ?? 0), max(1, watch?.states.count ?? 0))
        lastX = .allocate(capacity: counts.properties)
        lastX.initialize(repeating: false, count: counts.properties)
        numbers = .allocate(capacity: counts.numbers)
        numbers.initialize(repeating: 0, count: counts.numbers)
        states = .allocate(capacity: counts.states)
        states.initialize(repeating: false, count: counts.states)
    }

    deinit {
        lastX.deallocate()
        numbers.deallocate()
        states.deallocate()
    }

    /// The properties some of whose inputs changed since the last observation (all of
    /// them at the first); the inputs' values are stored as they are now. Called after
    /// every step that left a stable configuration, so the string journal is that step's.
    @inline(__always)
    func changed(_ instance: Instance, _ watch: PropertyWatch) -> UInt64 {
        let registers = instance.registers
        // The first observation judges every property; the loops below store the inputs.
        var changed: UInt64 = observed ? 0 : watch.cached
        observed = true
        for i in 0..<watch.numbers.count {
            let input = watch.numbers[i]
            let value = registers.numbers[Int(input.id)].bitPattern
            if numbers[i] != value { numbers[i] = value; changed |= input.readers }
        }
        // The string variables the last step stored (a store of the same value counts too:
        // judging again is never wrong, only slower). Every step starts by emptying the journal.
        if watch.strings.count > 0 {
            let journal = registers.stringJournal
            for k in 0..<journal.count {
                let slot = journal[k].slot
                for i in 0..<watch.strings.count where watch.strings[i].id == slot { changed |= watch.strings[i].readers }
            }
        }
        if watch.stateReaders != 0 {
            if let chart = instance.chartRun {
                for i in 0..<watch.states.count {
                    let input = watch.states[i]
                    let active = chart.active[Int(input.id)]
                    if states[i] != active { states[i] = active; changed |= input.readers }
                }
            } else {
                let now = Int32(truncatingIfNeeded: instance.state.index)
                if leaf != now {
                    changed |= leaf < 0 || watch.readersOfState.count == 0 ? watch.stateReaders
                        : watch.readersOfState[Int(leaf)] | watch.readersOfState[Int(now)]
                    leaf = now
                }
            }
        }
        return changed
    }
}
