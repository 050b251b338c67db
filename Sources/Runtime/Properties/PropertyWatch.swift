/// What a program's properties read, gathered across them so that a stable configuration
/// tells cheaply which properties could have changed their values since the last one: a
/// property none of whose inputs changed has the values it had then, so `never`, `always`
/// and `only after` cannot break now if they did not then. Constants never change, and a
/// property reads nothing else. `always reachable` is left out: no run breaks it, so the
/// monitor never judges it.
///
/// What a step may have changed is found without looking at the values:
/// - on a flat machine (straight-line step blocks), the variables the code that fires the
///   step's transition may write (`firedReaders`, read off the code when the program is
///   compiled) and, where the active leaf changed, the `in(s)` of the states around the leaf
///   left and the leaf entered (`readersOfState`);
/// - on a statechart, the variables in the step's journals (each of its blocks saves every
///   number variable it writes, and every string store is journalled) and the watched states
///   whose activity changed (`states`).
/// Either way it costs a table look-up or two where a step changes nothing a property reads.
///
/// `replay` consults it on every line, so it is a class over frozen tables: reading it
/// retains nothing. Masks are 64 bits: a program with more properties has no watch (nil),
/// and its monitor judges every property in every configuration.
package final class PropertyWatch: @unchecked Sendable {
    /// A register or a state index, and the mask of the properties that read it.
    package struct Input: Sendable {
        package var id: Int32
        package var readers: UInt64
    }

    /// The compiled properties (`Program.properties`), by index.
    package let properties: FrozenTable<CompiledProperty>
    package let numbers: FrozenTable<Input>
    package let strings: FrozenTable<Input>
    package let states: FrozenTable<Input>
    /// By variable index: the properties that read it as a number / as a string.
    let numberReaders: FrozenTable<UInt64>
    let stringReaders: FrozenTable<UInt64>
    /// On a flat machine, by transition: the properties that read a variable the step firing
    /// it may write. Empty for a statechart.
    let firedReaders: FrozenTable<UInt64>
    /// The properties that read any state (on a flat machine, the first leaf concerns all
    /// of them).
    let stateReaders: UInt64
    /// On a flat machine, by state: the properties that read `in(s)` of it or of a state it
    /// lies in (a new leaf changes only those of the leaf left and the leaf entered). Empty
    /// for a statechart.
    let readersOfState: FrozenTable<UInt64>
    /// By event: the responses that event triggers.
    let triggeredBy: FrozenTable<UInt64>
    /// The watched properties: all but `always reachable`.
    let watched: UInt64
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
    /// On a flat machine, by transition: the quick properties the step firing it settles,
    /// whatever the payload and the values before, because of what it writes
    /// (`Program.stepRanges`): `always 0 <= progress && progress <= 1` after `progress =
    /// min(max(v, 0), 1)`. They are not judged after that step. Empty for a statechart.
    package let settledBy: FrozenTable<UInt64>

    /// What a flat machine's active leaf leaves of the quick properties: the leaf decides
    /// each `in(s)`, so `always x > 0 while in(open)` is not judged in `closed` and its `G` is
    /// not tested in `open`.
    struct QuickInLeaf: Sendable {
        var judged: UInt64
        var guardsTested: UInt64
    }

    /// `written`: by transition, the variables a flat machine's step firing it may write
    /// (`Program.variablesWritten`); empty for a statechart.
    /// `rangeAfter`: on a flat machine, the range of a number register after a step firing
    /// a transition (`Program.stepRanges`; constants exactly, the rest unknown).
    init?(_ properties: [CompiledProperty], reads: [(numbers: [Int32], strings: [Int32], states: [Int32])],
          eventCount: Int, variableCount: Int, written: [(numbers: [Int32], strings: [Int32])], flatStates: Int,
          within: (_ leaf: Int, _ state: Int) -> Bool,
          rangeAfter: (_ transition: Int, _ register: Int32) -> ValueRange) {
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
        // A quick property is settled by a step when the ranges of what it reads after the
        // step decide it: `X` true for `always`, false for `never` (whatever `G`).
        let settledBy = written.indices.map { t in
            var settled: UInt64 = 0, mask = quickMask
            while mask != 0 {
                let k = mask.trailingZeroBitCount
                mask &= mask - 1
                let q = quick[k]
                func test(_ u: CompiledProperty.QuickTest) -> Bool? {
                    ValueRange.compare(u.op, rangeAfter(t, u.b), rangeAfter(t, u.c), same: u.b == u.c)
                }
                let x = Self.combine(test(quickTests[4 * k]), q.x, test(quickTests[4 * k + 1]))
                if x == !q.breaksWhen { settled |= UInt64(1) << UInt64(k) }
            }
            return settled
        }
        var numbers: [Input] = [], strings: [Input] = [], states: [Input] = []
        var triggeredBy = Array(repeating: UInt64(0), count: eventCount)
        var numberReaders = Array(repeating: UInt64(0), count: variableCount)
        var stringReaders = Array(repeating: UInt64(0), count: variableCount)
        var stateReaders: UInt64 = 0, watched: UInt64 = 0
        for (k, p) in properties.enumerated() where p.kind != .reachable {
            let bit = UInt64(1) << UInt64(k)
            watched |= bit
            func add(_ list: inout [Input], _ id: Int32) {
                if let at = list.firstIndex(where: { $0.id == id }) {
                    list[at].readers |= bit
                } else {
                    list.append(Input(id: id, readers: bit))
                }
            }
            for r in reads[k].numbers {
                add(&numbers, r)
                if Int(r) < variableCount { numberReaders[Int(r)] |= bit }
            }
            for r in reads[k].strings {
                add(&strings, r)
                if Int(r) < variableCount { stringReaders[Int(r)] |= bit }
            }
            for s in reads[k].states { add(&states, s) }
            if !reads[k].states.isEmpty { stateReaders |= bit }
            if p.triggerEvent >= 0 && Int(p.triggerEvent) < eventCount { triggeredBy[Int(p.triggerEvent)] |= bit }
        }
        let firedReaders = written.map { w in
            w.numbers.reduce(UInt64(0)) { $0 | (Int($1) < variableCount ? numberReaders[Int($1)] : 0) }
                | w.strings.reduce(UInt64(0)) { $0 | (Int($1) < variableCount ? stringReaders[Int($1)] : 0) }
        }
        // By leaf: the readers of `in(s)` for every `s` the leaf lies in, itself and its
        // ancestors, since leaving or entering the leaf may change each of those.
        var readersOfState = Array(repeating: UInt64(0), count: flatStates)
        for input in states where Int(input.id) < flatStates {
            for leaf in 0..<flatStates where within(leaf, Int(input.id)) { readersOfState[leaf] |= input.readers }
        }
        self.readersOfState = FrozenTable(readersOfState)
        self.quickIn = FrozenTable(quickIn)
        self.settledBy = FrozenTable(settledBy)
        self.quickTests = FrozenTable(quickTests)
        self.quick = FrozenTable(quick)
        self.quickMask = quickMask
        self.properties = FrozenTable(properties)
        self.numbers = FrozenTable(numbers)
        self.strings = FrozenTable(strings)
        self.states = FrozenTable(states)
        self.numberReaders = FrozenTable(numberReaders)
        self.stringReaders = FrozenTable(stringReaders)
        self.firedReaders = FrozenTable(firedReaders)
        self.triggeredBy = FrozenTable(triggeredBy)
        self.stateReaders = stateReaders
        self.watched = watched
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
        combine(test(first.op, Int(first.b)), join, test(second.op, Int(second.b)))
    }

    /// Two tests' values (nil: not known) joined as `join` says.
    private static func combine(_ a: Bool?, _ join: CompiledProperty.QuickCondition.Join, _ b: Bool?) -> Bool? {
        switch join {
        case .none: return a
        case .and: return a == false || b == false ? false : a == true ? b : nil
        case .or: return a == true || b == true ? true : a == false ? b : nil
        }
    }

    deinit {
        properties.free()
        quickIn.free()
        settledBy.free()
        readersOfState.free()
        quick.free()
        quickTests.free()
        numbers.free()
        strings.free()
        states.free()
        numberReaders.free()
        stringReaders.free()
        firedReaders.free()
        triggeredBy.free()
    }
}

/// What a run's stable configurations were at the last observation, as far as the watch
/// needs it, and each property's `X` at its last judgement: what lets
/// `PropertyMonitor.observe(…, cache:)` judge only the properties whose inputs changed. A
/// replay keeps one per case beside its monitor. (It is not part of the monitor: the search
/// tells runs apart by their monitors, and what a run last read is no part of that.)
///
/// A class over raw storage, read on every line of a replay: arrays would check their
/// buffer's uniqueness on every write. One run uses it at a time.
package final class PropertyInputCache: @unchecked Sendable {
    /// By compiled property: its `X` at the last judgement.
    let lastX: UnsafeMutablePointer<Bool>
    /// On a statechart, the watched states' activity at the last observation, in
    /// `PropertyWatch.states` order.
    private let states: UnsafeMutablePointer<Bool>
    /// The active leaf at the last observation, for a machine without statechart steps.
    private(set) var leaf: Int32 = -1
    /// Whether there was an observation yet: the first one judges every property.
    private(set) var observed = false
    private let counts: (properties: Int, states: Int)
    /// The program's watch, unretained (reading a strong reference retains and releases it
    /// on every line): the program keeps it alive, and outlives every run's cache.
    let watch: Unmanaged<PropertyWatch>?
    /// On a flat machine, the watch's tables the line's common path reads (`firedReaders`,
    /// `readersOfState`, `triggeredBy`, the quick properties'), copied here so that path
    /// reads them without reaching for the watch.
    let flat: FlatTables?

    struct FlatTables {
        let firedReaders: UnsafeMutablePointer<UInt64>
        let settledBy: UnsafeMutablePointer<UInt64>
        let transitionCount: Int
        let readersOfState: UnsafeMutablePointer<UInt64>
        let triggeredBy: UnsafeMutablePointer<UInt64>
        let eventCount: Int
        let quickIn: UnsafeMutablePointer<PropertyWatch.QuickInLeaf>
        let quick: UnsafeMutablePointer<CompiledProperty.QuickJudgement>
        let quickTests: UnsafeMutablePointer<CompiledProperty.QuickTest>
        let quickMask: UInt64
        let watched: UInt64
    }

    package init(_ program: Program) {
        let watch = program.propertyWatch
        self.watch = watch.map { Unmanaged.passUnretained($0) }
        flat = watch.flatMap { w in
            w.quickIn.count == 0 ? nil
                : FlatTables(firedReaders: w.firedReaders.base, settledBy: w.settledBy.base, transitionCount: w.firedReaders.count,
                             readersOfState: w.readersOfState.base, triggeredBy: w.triggeredBy.base,
                             eventCount: w.triggeredBy.count, quickIn: w.quickIn.base, quick: w.quick.base,
                             quickTests: w.quickTests.base, quickMask: w.quickMask, watched: w.watched)
        }
        counts = (max(1, program.properties.count), max(1, watch?.states.count ?? 0))
        lastX = .allocate(capacity: counts.properties)
        lastX.initialize(repeating: false, count: counts.properties)
        states = .allocate(capacity: counts.states)
        states.initialize(repeating: false, count: counts.states)
    }

    deinit {
        lastX.deallocate()
        states.deallocate()
    }

    /// On a flat machine, the properties to judge in the stable configuration a step that
    /// fired transition `fired` (-1: not known) and took event `event` left: those reading a
    /// variable the step may have written, those reading `in(s)` of a state around the leaf
    /// left or entered, the responses the event triggers; every property at the first
    /// observation. Leaves out the quick properties the step settles. Remembers the leaf.
    @inline(__always)
    func flatDue(_ flat: FlatTables, leaf now: Int32, fired: Int32, took event: Int32) -> (changed: UInt64, due: UInt64) {
        var changed: UInt64
        var settled: UInt64 = 0
        if !observed || fired < 0 || Int(fired) >= flat.transitionCount {
            // The first observation, or a step whose writes are not known: judge everything.
            changed = flat.watched
            observed = true
        } else {
            changed = flat.firedReaders[Int(fired)]
            settled = flat.settledBy[Int(fired)]
        }
        if leaf != now {
            if leaf >= 0 { changed |= flat.readersOfState[Int(leaf)] | flat.readersOfState[Int(now)] }
            leaf = now
        }
        let due = event >= 0 && Int(event) < flat.eventCount ? changed | flat.triggeredBy[Int(event)] : changed
        return (changed, due & ~settled)
    }

    /// On a statechart, the properties some of whose inputs changed since the last
    /// observation (all of them at the first): the number variables the step saved in its
    /// journal (every block of a statechart saves each number variable it writes), the string
    /// variables it stored, the watched states whose activity changed (stored as they are
    /// now). Called after every step that left a stable configuration, so the journals are
    /// that step's.
    @inline(__always)
    func chartChanged(_ instance: Instance, _ watch: PropertyWatch) -> UInt64 {
        let registers = instance.registers
        var changed: UInt64 = observed ? 0 : watch.watched
        observed = true
        // (A store of the same value counts too: judging again is never wrong, only slower.)
        let numberReaders = watch.numberReaders
        for k in 0..<registers.journalCount {
            let slot = Int(registers.journal[k].slot)
            if slot < numberReaders.count { changed |= numberReaders[slot] }
        }
        if watch.strings.count > 0 {
            let journal = registers.stringJournal, stringReaders = watch.stringReaders
            for k in 0..<journal.count {
                let slot = Int(journal[k].slot)
                if slot < stringReaders.count { changed |= stringReaders[slot] }
            }
        }
        if watch.stateReaders != 0, let chart = instance.chartRun {
            for i in 0..<watch.states.count {
                let input = watch.states[i]
                let active = chart.active[Int(input.id)]
                if states[i] != active { states[i] = active; changed |= input.readers }
            }
        }
        return changed
    }
}
