import StatecraftDiagnostics
import StatecraftModel
import StatecraftRecording

/// A checked machine compiled for running: every step it can take is compiled to register
/// code (`Instruction`s) ahead of time, looked up by integers.
///
/// For each (active state, event) there is one code block (`dispatch`): it tries the
/// candidate transitions in order (innermost state first, source order within a state),
/// and the first whose guard holds runs as straight-line code (save the variables a failure
/// would have to restore, exit actions, transition actions, entry actions, timers) ending in `fire`.
/// Timers have a block per (timer, active state), and starting has one. Payload fields are
/// registers, so a step is one run of the interpreter over one block.
///
/// Build one per machine and share it between instances; it is immutable.
public final class Program: @unchecked Sendable {  // immutable; its tables are freed in deinit
    /// The machine it was compiled from.
    public let machine: Machine

    /// A transition's guard as exploration needs it: integers only.
    struct CompiledTransition: Sendable {
        var id: TransitionID
        /// The guard's code and the register holding its value; -1 when unguarded.
        var guardPC: Int32
        var guardRegister: Int32
    }

    struct CompiledTimer: Sendable {
        var transition: TransitionID
        /// The code computing the delay into `delayRegister`; -1 when the register already
        /// holds it (a constant or a variable).
        var delayPC: Int32
        var delayRegister: Int32
    }

    let eventCount: Int
    let stateCount: Int
    /// The code block that takes event `e` in active state `s`: `dispatch[s * eventCount + e]`.
    let dispatch: FrozenTable<Int32>
    /// The code block that fires timer `k` in active state `s`: `timerDispatch[k * stateCount + s]`.
    let timerDispatch: FrozenTable<Int32>
    /// The code block that enters the initial state; -1 when the machine has none.
    let startPC: Int32
    /// The transitions of state `s` on event `e`, in source order, are
    /// `transitions[groups[s * eventCount + e] ..< groups[s * eventCount + e + 1]]`
    /// (for exploration, which asks which guards hold).
    let groups: FrozenTable<Int32>
    let transitions: FrozenTable<CompiledTransition>
    /// The `after` transitions of state `s`: `timers[timerGroups[s] ..< timerGroups[s + 1]]`.
    let timerGroups: FrozenTable<Int32>
    let timers: FrozenTable<CompiledTimer>
    /// Each state's parent index (-1 for the root).
    package let parents: FrozenTable<Int32>
    /// The statechart form of the program; nil for a machine whose steps are the
    /// straight-line blocks of `dispatch` (see `ChartProgram`).
    package let chart: ChartProgram?
    /// Raise site `r` puts `raiseEvents[r]` on the internal queue with the arguments in
    /// `raiseArguments[raiseStart[r] ..< raiseStart[r + 1]]`.
    let raiseEvents: FrozenTable<Int32>
    let raiseStart: FrozenTable<Int32>
    let raiseArguments: FrozenTable<Register>
    /// Send site `r` puts `sendEvents[r]` on the external queue with the arguments in
    /// `sendArguments[sendStart[r] ..< sendStart[r + 1]]`, after the delay in number
    /// register `sendDelays[r]` (-1: none). A send by name has -1 in `sendEvents` and the
    /// string register of the computed name in `sendNames` (-1 for every other send).
    let sendEvents: FrozenTable<Int32>
    let sendNames: FrozenTable<Int32>
    let sendStart: FrozenTable<Int32>
    let sendArguments: FrozenTable<Register>
    let sendDelays: FrozenTable<Int32>
    /// Where each send site is written (a send loop is reported there).
    let sendRanges: [SourceRange]
    /// Event ids by name, for callers that send events by name.
    let eventIDs: [String: EventID]
    /// Event ids by the names logs may use (declared, external, SCXML extensions).
    let logNameTable: LogNameTable

    /// All code: steps, guards, delays, one block after another.
    let code: FrozenTable<Instruction>
    let faults: [Int: FaultSite]
    /// Emit site `e` emits `emitOutputs[e]` with arguments `emitArguments[emitStart[e] ..< emitStart[e + 1]]`.
    let emitOutputs: FrozenTable<OutputID>
    let emitStart: FrozenTable<Int32>
    let emitArguments: FrozenTable<(register: Register, isBool: Bool)>
    /// The initial contents of an instance's register files (variables' initial values and
    /// constants; zero or empty elsewhere).
    let initialNumbers: [Double]
    let initialStrings: [String]
    /// Event `e`'s payload registers, in field order:
    /// `payloadRegisters[payloadStart[e] ..< payloadStart[e + 1]]`.
    package let payloadStart: FrozenTable<Int32>
    package let payloadRegisters: FrozenTable<Register>
    /// Where the payload registers start: field `k` of any event is register `payloadBase + k`.
    let payloadBase: Int
    /// Where `let` locals, constants and temporaries start (for the disassembler's names).
    let localBase: Int
    let constantBase: Int
    let temporaryBase: Int
    /// The block of a (state, event) that no transition takes: a lone `end`.
    let emptyBlock: Int
    /// Whether some event has a string field (otherwise every payload is numbers only).
    let hasStringFields: Bool
    /// Whether some code stores a string variable (`storeString`, which journals it).
    let storesStrings: Bool
    /// `Double.greatestFiniteMagnitude`, which the interpreter's finiteness test compares
    /// magnitudes with (`r.magnitude <= limit`). Read from here, the bound is not a constant
    /// the compiler sees, so the test stays a float comparison (three instructions) instead
    /// of being rewritten as a class test on the bits (five, with two 64-bit constants).
    private(set) var greatestFinite = Double.greatestFiniteMagnitude
    /// The machine's properties that resolved, compiled (see `PropertyMonitor`).
    package let properties: [CompiledProperty]
    /// What the properties read, for judging only those whose inputs changed (nil with
    /// more than 64 properties).
    package let propertyWatch: PropertyWatch?
    /// Each variable's type, by `VariableID` index.
    package let variableTypes: [ValueType]
    /// Names by index, so reports and traces never copy a whole `State` or `Event` to read one.
    package let stateNames: [String]
    package let eventNames: [String]
    package let outputNames: [String]
    package let variableNames: [String]
    /// Each event's field names, in slot order.
    package let fieldNames: [[String]]
    /// Each event's field types, flat like `payloadRegisters`:
    /// `fieldTypes[payloadStart[e] ..< payloadStart[e + 1]]`.
    package let fieldTypes: FrozenTable<ValueType>
    /// The fingerprint of the machine's spec text, which every snapshot carries: worked out
    /// once here (it lexes the whole spec), not per snapshot.
    package let specFingerprint: SpecFingerprint

    /// By transition: the number and string variables a straight-line step that fires it may
    /// write, read off the code of `blocks` (the step blocks). Code only jumps forward, so
    /// one pass over a block, in code order, carries to each instruction what the paths
    /// reaching it wrote (through the instruction before it, unless that one jumps, fires or
    /// ends, and through each jump to it); a `fire` records that for its transition. A block
    /// ends where no path goes on. A candidate tried before the one that fires and not taken
    /// writes nothing, so the writes of its actions do not count; an `if` of an action counts
    /// both ways. What a judgement needs: no write the step can make is missed.
    static func variablesWritten(by code: [Instruction], blocks: [Int32], variableCount: Int32,
                                 transitionCount: Int) -> [(numbers: [Int32], strings: [Int32])] {
        var written = Array(repeating: (numbers: Set<Int32>(), strings: Set<Int32>()), count: transitionCount)
        typealias Writes = (numbers: Set<Int32>, strings: Set<Int32>)
        func merge(_ a: Writes?, _ b: Writes) -> Writes {
            guard let a else { return b }
            return (a.numbers.union(b.numbers), a.strings.union(b.strings))
        }
        for start in Set(blocks) where start >= 0 {
            // What the paths reaching an instruction wrote: `current` through the one before
            // it (nil: none falls through), `jumps` by target for those that jump ahead.
            var current: Writes? = ([], [])
            var jumps: [Int: Writes] = [:]
            var pc = Int(start)
            while pc < code.count {
                if let arriving = jumps.removeValue(forKey: pc) { current = merge(current, arriving) }
                guard var writes = current else {
                    if jumps.isEmpty { break }  // no path goes on: the block ended
                    pc += 1
                    continue
                }
                let i = code[pc]
                switch i.op {
                case .jump:
                    jumps[Int(i.a)] = merge(jumps[Int(i.a)], writes)
                    current = nil
                case .jumpIfFalse, .jumpIfTrue, .jumpUnlessLess, .jumpUnlessLessEqual, .jumpUnlessGreater,
                     .jumpUnlessGreaterEqual, .jumpUnlessEqual, .jumpUnlessNotEqual:
                    jumps[Int(i.a)] = merge(jumps[Int(i.a)], writes)
                case _ where CodeGenerator.writesStringRegister(i.op):
                    if i.a >= 0 && i.a < variableCount { writes.strings.insert(i.a) }
                    current = writes
                case .fire:
                    if i.a >= 0 && Int(i.a) < transitionCount {
                        written[Int(i.a)].numbers.formUnion(writes.numbers)
                        written[Int(i.a)].strings.formUnion(writes.strings)
                    }
                    current = nil
                case .end:
                    current = nil
                default:
                    if CodeGenerator.writesNumberRegister(i.op) && i.a >= 0 && i.a < variableCount {
                        writes.numbers.insert(i.a)
                        current = writes
                    }
                }
                if current == nil && jumps.isEmpty { break }
                pc += 1
            }
        }
        return written.map { (numbers: $0.numbers.sorted(), strings: $0.strings.sorted()) }
    }

    /// Compiles a machine that checked without errors.
    public init(_ machine: Machine) {
        self.machine = machine
        specFingerprint = SpecFingerprint(file: machine.source)
        eventCount = machine.events.count
        stateCount = machine.states.count
        // A completion's fields (`final state f(code: 200)`) are read from the payload registers too.
        let payloadSlots = max(machine.events.map(\.fields.count).max() ?? 0,
                               machine.states.map { machine.completionFields($0.id).count }.max() ?? 0)
        let localSlots = max(machine.transitions.map(\.localCount).max() ?? 0, Program.entryExitSlots(machine))
        var generator = CodeGenerator(machine: machine, payloadSlots: payloadSlots, localSlots: localSlots)
        let steps = StepCompiler(machine: machine)

        // Guards on their own, for exploration; delays, which timers evaluate when armed.
        var byGroup = Array(repeating: [CompiledTransition](), count: stateCount * max(1, eventCount))
        var timersByState = Array(repeating: [CompiledTimer](), count: stateCount)
        var guardResults: [(group: Int, index: Int, register: Register)] = []
        var delayResults: [(state: Int, index: Int, register: Register)] = []
        for t in machine.transitions {
            switch t.trigger {
            case .events(let events):
                for e in events {
                    generator.fields = machine[e].fields.map(\.name)
                    let group = t.source.index * eventCount + e.index
                    let guardBlock = t.guardExpr.map { generator.block($0) }
                    byGroup[group].append(CompiledTransition(id: t.id, guardPC: guardBlock?.pc ?? -1, guardRegister: 0))
                    if let g = guardBlock { guardResults.append((group, byGroup[group].count - 1, g.result)) }
                }
            case .after(let delay):
                generator.fields = []
                let delayBlock = generator.block(delay)
                // A constant or a variable needs no code: its register holds the delay.
                let needsCode = generator.code[Int(delayBlock.pc)].op != .end
                timersByState[t.source.index].append(CompiledTimer(transition: t.id, delayPC: needsCode ? delayBlock.pc : -1,
                                                                   delayRegister: 0))
                delayResults.append((t.source.index, timersByState[t.source.index].count - 1, delayBlock.result))
            case .done, .always:
                break  // statechart steps (`ChartProgram`)
            }
        }
        let timerTransitions = timersByState.flatMap { $0.map(\.transition) }  // in `timers` order

        // Properties, as blocks run against a configuration at rest (no payload).
        generator.fields = []
        var properties: [(property: CompiledProperty, x: Register, other: Register?)] = []
        var propertyReads: [(numbers: [Int32], strings: [Int32], states: [Int32])] = []
        for (k, property) in machine.properties.enumerated() where !property.isBroken {
            func block(_ e: Expr) -> (CompiledProperty.Block, Register) {
                let b = generator.block(e)
                return (CompiledProperty.Block(pc: b.pc, register: 0), b.result)
            }
            let kind: CompiledProperty.Kind
            var x: Expr, other: Expr?
            var triggerEvent: Int32 = -1, triggerState: Int32 = -1, deadline = 0.0
            switch property.form {
            case .never(let e, let g): (kind, x, other) = (.never, e, g)
            case .always(let e, let g): (kind, x, other) = (.always, e, g)
            case .precedence(let e, let y): (kind, x, other) = (.precedence, e, y)
            case .reachable(let e): (kind, x) = (.reachable, e)
            case .response(let trigger, let d, let e):
                (kind, x, deadline) = (.response, e, d)
                switch trigger {
                case .event(let event): triggerEvent = Int32(event.index)
                case .entering(let state): triggerState = Int32(state.index)
                }
            }
            let (xBlock, xResult) = block(x)
            let otherBlock = other.map(block)
            var compiled = CompiledProperty(property: k, kind: kind, x: xBlock, other: otherBlock?.0)
            compiled.triggerEvent = triggerEvent
            compiled.triggerState = triggerState
            compiled.deadline = deadline
            var reads: (numbers: [Int32], strings: [Int32], states: [Int32]) = ([], [], [])
            for e in [x] + (other.map { [$0] } ?? []) {
                e.visit { read in
                    switch read.kind {
                    case .variable(let v) where read.type == .string:
                        if !reads.strings.contains(Int32(v.index)) { reads.strings.append(Int32(v.index)) }
                    case .variable(let v):
                        if !reads.numbers.contains(Int32(v.index)) { reads.numbers.append(Int32(v.index)) }
                    case .inState(let s):
                        if !reads.states.contains(Int32(s.index)) { reads.states.append(Int32(s.index)) }
                    default: break
                    }
                }
            }
            // A state that triggers a response is read too: a configuration that changes
            // nothing the property reads cannot enter it.
            if triggerState >= 0 && !reads.states.contains(triggerState) { reads.states.append(triggerState) }
            propertyReads.append(reads)
            properties.append((compiled, xResult, otherBlock?.1))
        }

        // The step blocks: straight-line ones, or a statechart's.
        let isChart = ChartBuilder.isNeeded(for: machine)
        let endBlock = Int32(generator.control(Instruction(.end)))
        emptyBlock = Int(endBlock)
        var dispatch = Array(repeating: endBlock, count: stateCount * eventCount)
        // Only a leaf is ever the active state of a machine on straight-line blocks.
        let leaves = isChart ? [] : machine.states.filter { $0.id != machine.root && $0.children.isEmpty }
        for s in leaves {
            for e in machine.events {
                dispatch[s.id.index * eventCount + e.id.index] = steps.eventBlock(e, in: s.id, &generator) ?? endBlock
            }
        }
        var timerDispatch = Array(repeating: endBlock, count: timerTransitions.count * stateCount)
        for (k, t) in timerTransitions.enumerated() where !isChart {
            let source = machine[t].source
            for s in leaves where s.id == source || machine.isDescendant(s.id, of: source) {
                timerDispatch[k * stateCount + s.id.index] = steps.timerBlock(machine[t], in: s.id, &generator)
            }
        }
        startPC = isChart ? -1 : steps.startBlock(&generator)
        let chartBuilder = isChart ? ChartBuilder(machine: machine, groups: byGroup, timerOrder: timerTransitions, &generator) : nil
        let registerCount = generator.finish()
        chart = chartBuilder.map { ChartProgram($0, relocate: generator.relocated) }
        let raised = Program.flattened(generator.raises.map(\.arguments))
        raiseEvents = FrozenTable(generator.raises.map { Int32($0.event.index) })
        raiseStart = FrozenTable(raised.start)
        raiseArguments = FrozenTable(raised.arguments)
        let sent = Program.flattened(generator.sends.map(\.arguments))
        sendEvents = FrozenTable(generator.sends.map { $0.name == nil ? Int32($0.event.index) : -1 })
        sendNames = FrozenTable(generator.sends.map { $0.name?.index ?? -1 })
        sendStart = FrozenTable(sent.start)
        sendArguments = FrozenTable(sent.arguments)
        sendDelays = FrozenTable(generator.sends.map { $0.delay?.index ?? -1 })
        sendRanges = generator.sends.map(\.range)

        // Result registers are known only once temporaries are placed.
        for r in guardResults { byGroup[r.group][r.index].guardRegister = generator.relocated(r.register).index }
        for r in delayResults { timersByState[r.state][r.index].delayRegister = generator.relocated(r.register).index }
        // A block runs forward to its `end` (code only jumps forward): it can fail if an
        // instruction before that has a fault site or is `fail`.
        func canFail(_ block: CompiledProperty.Block) -> Bool {
            var pc = Int(block.pc)
            while pc < generator.code.count, generator.code[pc].op != .end {
                if generator.faults[pc] != nil || generator.code[pc].op == .fail { return true }
                pc += 1
            }
            return false
        }
        // A block that is one or two tests (see `QuickCondition`): `test; end`, or
        // `test; jumpIfFalse/jumpIfTrue → end; test; end`, every test writing the block's
        // result; or no code at all, its value being a Bool variable's register.
        let leafStates = Set(leaves.map(\.id.index))
        func quick(_ block: CompiledProperty.Block) -> CompiledProperty.QuickCondition? {
            typealias Test = CompiledProperty.QuickTest
            let code = generator.code, result = block.register
            func instruction(_ at: Int) -> Instruction? {
                at < code.count && generator.faults[at] == nil ? code[at] : nil
            }
            // The test that starts at `at`, and where the code goes on after it.
            func test(_ at: Int) -> (Test, next: Int)? {
                guard let i = instruction(at) else { return nil }
                let comparisons: [Opcode: Test.Op] = [.less: .less, .lessEqual: .lessEqual, .greater: .greater,
                                                      .greaterEqual: .greaterEqual, .equal: .equal, .notEqual: .notEqual,
                                                      .equalStrings: .equalStrings, .notEqualStrings: .notEqualStrings]
                if let op = comparisons[i.op], i.a == result { return (Test(op: op, b: i.b, c: i.c), at + 1) }
                switch i.op {
                case .isActive:
                    let leaf = !isChart && leafStates.contains(Int(i.b))
                    if i.a == result { return (Test(op: leaf ? .leaf : .active, b: i.b, c: 0), at + 1) }
                    if let not = instruction(at + 1), not.op == .not, not.a == result, not.b == i.a {
                        return (Test(op: leaf ? .notLeaf : .inactive, b: i.b, c: 0), at + 2)
                    }
                    return nil
                case .not where i.a == result: return (Test(op: .falsy, b: i.b, c: 0), at + 1)
                case .move where i.a == result: return (Test(op: .truthy, b: i.b, c: 0), at + 1)
                default: return nil
                }
            }
            let pc = Int(block.pc)
            guard let start = instruction(pc) else { return nil }
            if start.op == .end {
                let value = Test(op: .truthy, b: result, c: 0)
                return CompiledProperty.QuickCondition(first: value, second: value, join: .none)
            }
            guard let (first, next) = test(pc), let after = instruction(next) else { return nil }
            if after.op == .end { return CompiledProperty.QuickCondition(first: first, second: first, join: .none) }
            guard after.op == .jumpIfFalse || after.op == .jumpIfTrue, after.b == result,
                  let (second, end) = test(next + 1), after.a == Int32(end), instruction(end)?.op == .end else { return nil }
            return CompiledProperty.QuickCondition(first: first, second: second, join: after.op == .jumpIfFalse ? .and : .or)
        }
        self.properties = properties.map { p in
            var compiled = p.property
            compiled.x.register = generator.relocated(p.x).index
            if let r = p.other { compiled.other?.register = generator.relocated(r).index }
            compiled.xCanFail = canFail(compiled.x)
            compiled.x.quick = quick(compiled.x)
            if let other = compiled.other { compiled.other?.quick = quick(other) }
            compiled.otherCanFail = compiled.other.map(canFail) ?? false
            return compiled
        }
        // On straight-line blocks, what each transition's step may write (a statechart's step
        // runs blocks of its own, which journal every number variable they write). The start
        // block is left out: its `fire` names transition 0, which it is not, and the monitor
        // judges every property at the start anyway.
        let written = isChart ? [] : Program.variablesWritten(by: generator.code, blocks: dispatch + timerDispatch,
                                                              variableCount: Int32(machine.variables.count),
                                                              transitionCount: machine.transitions.count)
        var numbers = Array(repeating: 0.0, count: registerCount)
        var strings = Array(repeating: "", count: registerCount)
        for (i, v) in machine.variables.enumerated() { Program.put(v.initialValue, at: i, &numbers, &strings) }
        for (i, v) in generator.pool.enumerated() { Program.put(v, at: Int(generator.constantBase) + i, &numbers, &strings) }
        let constants = Int(generator.constantBase) ..< Int(generator.constantBase) + generator.pool.count
        let ranges = isChart || self.properties.isEmpty ? []
            : Program.stepRanges(code: generator.code, blocks: dispatch + timerDispatch, variableCount: machine.variables.count,
                                 transitionCount: machine.transitions.count, constants: constants, initialNumbers: numbers)
        propertyWatch = PropertyWatch(self.properties, reads: propertyReads, eventCount: machine.events.count,
                                      variableCount: machine.variables.count, written: written,
                                      flatStates: isChart ? 0 : machine.states.count,
                                      within: { leaf, s in
                                          leaf == s || machine.isDescendant(machine.states[leaf].id, of: machine.states[s].id)
                                      },
                                      rangeAfter: { t, r in
                                          if Int(r) >= 0 && Int(r) < machine.variables.count, let v = ranges[t][Int(r)] { return v }
                                          return constants.contains(Int(r)) ? .exactly(numbers[Int(r)]) : .any
                                      })

        var groups: [Int32] = [0]
        var flat: [CompiledTransition] = []
        for list in byGroup {
            flat.append(contentsOf: list)
            groups.append(Int32(flat.count))
        }
        var timerGroups: [Int32] = [0]
        for list in timersByState { timerGroups.append(timerGroups[timerGroups.count - 1] + Int32(list.count)) }
        self.groups = FrozenTable(groups)
        transitions = FrozenTable(flat)
        self.timerGroups = FrozenTable(timerGroups)
        timers = FrozenTable(timersByState.flatMap { $0 })
        self.dispatch = FrozenTable(dispatch)
        self.timerDispatch = FrozenTable(timerDispatch)
        code = FrozenTable(generator.code)
        faults = generator.faults
        var emitStart: [Int32] = [0]
        var emitArguments: [(register: Register, isBool: Bool)] = []
        for site in generator.emits {
            emitArguments.append(contentsOf: site.arguments)
            emitStart.append(Int32(emitArguments.count))
        }
        emitOutputs = FrozenTable(generator.emits.map(\.output))
        self.emitStart = FrozenTable(emitStart)
        self.emitArguments = FrozenTable(emitArguments)

        initialNumbers = numbers
        initialStrings = strings
        var payloadStart: [Int32] = [0]
        var payloadRegisters: [Register] = []
        for event in machine.events {
            for (i, f) in event.fields.enumerated() {
                payloadRegisters.append(Register(file: f.type == .string ? .string : .number, index: generator.payloadBase + Int32(i)))
            }
            payloadStart.append(Int32(payloadRegisters.count))
        }
        self.payloadStart = FrozenTable(payloadStart)
        self.payloadRegisters = FrozenTable(payloadRegisters)
        payloadBase = Int(generator.payloadBase)
        localBase = Int(generator.localBase)
        constantBase = Int(generator.constantBase)
        temporaryBase = Int(generator.constantBase) + generator.pool.count
        hasStringFields = payloadRegisters.contains { $0.file == .string }
        storesStrings = generator.code.contains { $0.op == .storeString }
        variableTypes = machine.variables.map { $0.initialValue.type }
        stateNames = machine.states.map(\.name)
        eventNames = machine.events.map(\.name)
        outputNames = machine.outputs.map(\.name)
        variableNames = machine.variables.map(\.name)
        fieldNames = machine.events.map { $0.fields.map(\.name) }
        fieldTypes = FrozenTable(machine.events.flatMap { $0.fields.map(\.type) })

        eventIDs = Dictionary(machine.events.map { ($0.name, $0.id) }, uniquingKeysWith: { a, _ in a })
        logNameTable = LogNameTable(machine)
        parents = FrozenTable(machine.states.map { Int32($0.parent?.index ?? -1) })
    }

    deinit {
        dispatch.free()
        timerDispatch.free()
        groups.free()
        transitions.free()
        timerGroups.free()
        timers.free()
        parents.free()
        code.free()
        emitOutputs.free()
        emitStart.free()
        emitArguments.free()
        raiseEvents.free()
        raiseStart.free()
        raiseArguments.free()
        sendEvents.free()
        sendNames.free()
        sendStart.free()
        sendArguments.free()
        sendDelays.free()
        payloadStart.free()
        payloadRegisters.free()
        fieldTypes.free()
    }

    /// The argument lists of raise or send sites as one table: site `r`'s arguments are
    /// `arguments[start[r] ..< start[r + 1]]`.
    private static func flattened(_ lists: [[Register]]) -> (start: [Int32], arguments: [Register]) {
        var start: [Int32] = [0]
        var arguments: [Register] = []
        for list in lists {
            arguments.append(contentsOf: list)
            start.append(Int32(arguments.count))
        }
        return (start, arguments)
    }

    private static func put(_ value: Value, at index: Int, _ numbers: inout [Double], _ strings: inout [String]) {
        switch value {
        case .number(let n): numbers[index] = n
        case .bool(let b): numbers[index] = b ? 1 : 0
        case .string(let s): strings[index] = s
        }
    }

    private static func entryExitSlots(_ machine: Machine) -> Int {
        var slots = 0
        for state in machine.states {
            for action in state.allActions {
                action.visit { if case .setLocal(let slot, _, _) = $0 { slots = max(slots, slot + 1) } }
            }
        }
        return slots
    }

    /// The range of `transitions` holding the transitions of `state` on `event`.
    @inline(__always)
    package func group(_ state: Int, _ event: Int) -> Range<Int> {
        let g = state &* eventCount &+ event  // both are indices of this program's tables
        return Int(groups[g])..<Int(groups[g &+ 1])
    }

    /// State `s` and its ancestors by index, innermost first, stopping before `limit` (the
    /// root is 0, so `upTo: 0` leaves it out); with no limit, up to and including the root:
    /// the model's `selfAndAncestors` on the integer table `parents`, for the per-event
    /// paths, which must neither allocate nor retain. It reads the table in place, so it is
    /// walked while the program is alive, never kept. `ProgramTreeTests` holds it to the model's.
    @inline(__always)
    package func selfAndAncestors(_ s: Int, upTo limit: Int = -1) -> ParentChain {
        ParentChain(parents: parents, from: s, upTo: limit)
    }

    /// Looks an event up by name.
    public func event(named name: String) -> EventID? { eventIDs[name] }

    /// Looks up the event a log line's name stands for: its declared name, its external name
    /// (`as "watch.reset"`), or an SCXML extension of an external name written with `.*`
    /// (`DIGIT.5` for `as "DIGIT.*"`, the longest such prefix winning).
    public func event(loggedAs name: String) -> EventID? { logNameTable.event(name) }

    /// An event by name and its payload by field name, as the id and the values in field
    /// order; nil if the event is unknown or the payload does not match its fields (names,
    /// count, types).
    func resolve(_ name: String, _ payload: [String: Value]) -> (EventID, [Value])? {
        guard let id = event(named: name) else { return nil }
        let fields = machine[id].fields
        guard payload.count == fields.count else { return nil }
        var values: [Value] = []
        for field in fields {
            guard let v = payload[field.name], v.type == field.type else { return nil }
            values.append(v)
        }
        return (id, values)
    }

    /// The value of a register as a `Value` of `type`.
    static func value(_ type: ValueType, number: Double, string: String) -> Value {
        switch type {
        case .number: .number(number)
        case .bool: .bool(number != 0)
        case .string: .string(string)
        }
    }
}

/// A state and its ancestors on a program's parent table (`Program.selfAndAncestors`).
///
/// SPI (`@_spi(ReplayHotPath) import StatecraftRuntime`), not `package`: the replayer in
/// another module walks it on every line it covers, and the `@inlinable` members of a
/// `package` type are called there, not inlined.
@_spi(ReplayHotPath) public struct ParentChain: Sequence, IteratorProtocol {
    @usableFromInline let parents: FrozenTable<Int32>
    @usableFromInline var upcoming: Int
    /// Where the walk stops: a state index, or -1, the root's parent.
    @usableFromInline let limit: Int

    /// `s` and its ancestors up to (not including) `limit`, for a caller that holds the
    /// parent table but not the program (a closure that must not capture the program).
    @inlinable
    public init(parents: FrozenTable<Int32>, from s: Int, upTo limit: Int = -1) {
        self.parents = parents
        upcoming = s
        self.limit = limit
    }

    @inlinable
    public mutating func next() -> Int? {
        let s = upcoming
        guard s != limit else { return nil }
        upcoming = Int(parents[s])
        return s
    }
}
