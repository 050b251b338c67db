import StatecraftDiagnostics
import StatecraftModel

/// Turns model expressions and actions into register code (`Instruction`s), appending to
/// one code array for the whole program.
///
/// Registers are laid out as `Bytecode.swift` describes; the generator hands out constant
/// registers (deduplicated) and temporaries (reset per statement; the most any statement
/// needs is the size of the temporary area).
struct CodeGenerator {
    var code: [Instruction] = []
    /// The fault of each instruction that can fail, by instruction index.
    var faults: [Int: FaultSite] = [:]
    var emits: [EmitSite] = []
    var raises: [RaiseSite] = []
    var sends: [SendSite] = []

    let variableCount: Int32
    let payloadBase: Int32
    let localBase: Int32
    /// The constants of the spec, by `ConstantID`.
    let constants: [Value]

    /// Constants in registers: value, in order of first use (register `constantBase + i`).
    private(set) var pool: [Value] = []
    private var poolIndex: [Value: Int32] = [:]
    /// Temporaries in use by the current statement; the maximum over all statements.
    private var temporaries: Int32 = 0
    /// Where a statement's temporaries start: above those holding a guard's values that the
    /// transition's code may reuse (`available`).
    private var temporaryFloor: Int32 = 0
    /// Values a passed guard computed, for the transition's code to reuse instead of
    /// computing them again (see `branches(unless:)`): an expression's shape, the register
    /// holding its value, and the registers it reads (writing one of them drops it).
    private var available: [(shape: String, register: Register, reads: [Register])] = []
    private(set) var maxTemporaries: Int32 = 0
    /// The payload layout of the event being compiled for: field names in slot order.
    var fields: [String] = []

    /// Where the constant pool starts.
    let constantBase: Int32

    init(machine: Machine, payloadSlots: Int, localSlots: Int) {
        variableCount = Int32(machine.variables.count)
        payloadBase = variableCount
        localBase = payloadBase + Int32(payloadSlots)
        constantBase = localBase + Int32(localSlots)
        constants = machine.constantValues
    }

    /// Where temporaries start: after the constants, known once everything is compiled.
    /// Temporaries are numbered from 0 while compiling and relocated by `finish()`.
    static let temporaryFlag: Int32 = 1 << 30

    // MARK: - Entry points

    /// Compiles an expression as a code block: returns its first instruction and the
    /// register holding its value when the block ends.
    mutating func block(_ e: Expr) -> (pc: Int32, result: Register) {
        let pc = Int32(code.count)
        forgetGuard()
        temporaries = 0
        let result = expression(e)
        append(Instruction(.end))
        return (pc, result)
    }

    /// Compiles a guard and the branches taken when it is false, and returns the branches
    /// for `patch(_:)` to point at the code for false. Comparisons branch in one
    /// instruction, `&&` branches on each side, a constant true needs no branch.
    ///
    /// The code that follows (the transition's, up to `forgetGuard()`) reuses the values
    /// of the guard's compared operands: `offsetY + insetTop < 0` then
    /// `progress = -(offsetY + insetTop) / 110` adds once. A value stays reusable until a
    /// register it reads is written.
    mutating func branches(unless condition: Expr) -> [Int] {
        forgetGuard()
        temporaries = 0
        let branches = branchesUnless(condition, recording: true)
        temporaryFloor = temporaries
        return branches
    }

    /// Ends the reuse of the last guard's values.
    mutating func forgetGuard() {
        available.removeAll()
        temporaryFloor = 0
    }

    /// Compiles actions at the end of the code, without an `end`.
    mutating func inline(_ actions: [Action]) {
        for action in actions { statement(action) }
    }

    /// Where the code ends now, for `truncate(to:)`.
    struct Mark {
        fileprivate var code: Int
        fileprivate var emits: Int
        fileprivate var raises: Int
        fileprivate var sends: Int
        fileprivate var available: [(shape: String, register: Register, reads: [Register])]
    }

    func mark() -> Mark {
        Mark(code: code.count, emits: emits.count, raises: raises.count, sends: sends.count, available: available)
    }

    /// Drops everything appended since `mark` (constants stay in the pool), and makes the
    /// guard's values available again as they were.
    mutating func truncate(to mark: Mark) {
        for pc in mark.code..<code.count { faults[pc] = nil }
        code.removeSubrange(mark.code...)
        emits.removeSubrange(mark.emits...)
        raises.removeSubrange(mark.raises...)
        sends.removeSubrange(mark.sends...)
        available = mark.available
    }

    /// The number variables that the code since `mark` writes before an instruction that
    /// may fail: what a failed step must restore, so what the step saves first (`save(_:)`).
    /// Code only jumps forward, so an instruction runs after another only if it comes
    /// later in the code: a scan in code order is enough.
    func variablesToSave(since mark: Mark) -> [Int32] {
        var written: [Int32] = []
        var toSave: [Int32] = []
        for pc in mark.code..<code.count {
            let i = code[pc]
            // An instruction that fails does so before it writes its destination.
            // A send fails when 100 sent events wait already, and a send by name when its
            // string names no event it can send.
            if faults[pc] != nil || i.op == .fail || i.op == .armTimers || i.op == .send {
                for v in written where !toSave.contains(v) { toSave.append(v) }
            }
            if Self.writesNumberRegister(i.op) && i.a >= 0 && i.a < variableCount && !written.contains(i.a) {
                written.append(i.a)
            }
        }
        return toSave
    }

    /// Compiles actions as a block of their own, ending in `end`, that first saves every
    /// number variable it writes: a statechart step runs several such blocks, and a failure
    /// in a later one must undo this one too. -1 when there are no actions.
    mutating func journalledBlock(_ actions: [Action], fields: [String]) -> Int32 {
        guard !actions.isEmpty else { return -1 }
        let pc = Int32(code.count)
        let start = mark()
        self.fields = fields
        forgetGuard()
        inline(actions)
        var written: [Int32] = []
        for k in start.code..<code.count where Self.writesNumberRegister(code[k].op) {
            let v = code[k].a
            if v >= 0 && v < variableCount && !written.contains(v) { written.append(v) }
        }
        if !written.isEmpty {
            truncate(to: start)
            save(written)
            inline(actions)
        }
        append(Instruction(.end))
        forgetGuard()
        return pc
    }

    /// Whether `op` writes string register `a`. (Exhaustive, as `writesNumberRegister` is: the
    /// property watch trusts these two to name every write a step can make.)
    static func writesStringRegister(_ op: Opcode) -> Bool {
        switch op {
        case .moveString, .concatenate, .textOfNumber, .textOfBool, .storeString:
            true
        case .move, .add, .subtract, .multiply, .divide, .remainder, .negate, .not,
             .less, .lessEqual, .greater, .greaterEqual, .equal, .notEqual,
             .min, .max, .clamp, .select, .atan2, .abs, .sqrt, .floor, .ceil, .round, .equalStrings, .notEqualStrings,
             .isActive, .jump, .jumpIfFalse, .jumpIfTrue, .jumpUnlessLess, .jumpUnlessLessEqual, .jumpUnlessGreater,
             .jumpUnlessGreaterEqual, .jumpUnlessEqual, .jumpUnlessNotEqual, .emit, .raise, .send, .cancel, .fail, .save,
             .cancelTimers, .armTimers, .fire, .end:
            false
        }
    }

    /// Whether `op` writes number register `a`.
    static func writesNumberRegister(_ op: Opcode) -> Bool {
        switch op {
        case .move, .add, .subtract, .multiply, .divide, .remainder, .negate, .not,
             .less, .lessEqual, .greater, .greaterEqual, .equal, .notEqual,
             .min, .max, .clamp, .select, .atan2, .abs, .sqrt, .floor, .ceil, .round, .equalStrings, .notEqualStrings,
             .isActive:
            true
        case .jump, .jumpIfFalse, .jumpIfTrue, .jumpUnlessLess, .jumpUnlessLessEqual, .jumpUnlessGreater,
             .jumpUnlessGreaterEqual, .jumpUnlessEqual, .jumpUnlessNotEqual, .moveString, .concatenate,
             .textOfNumber, .textOfBool, .storeString, .emit, .raise, .send, .cancel, .fail, .save, .cancelTimers, .armTimers,
             .fire, .end:
            false
        }
    }

    /// Appends the `save`s of number variables `slots`: a step saves the variables a failure
    /// would have to restore before its first assignment (`variablesToSave(since:)`);
    /// assignments then write their variable directly.
    mutating func save(_ slots: [Int32]) {
        for first in stride(from: 0, to: slots.count, by: 3) {
            func slot(_ k: Int) -> Int32 { first + k < slots.count ? slots[first + k] : -1 }
            append(Instruction(.save, slot(0), slot(1), slot(2)))
        }
    }

    /// Appends an instruction that reads no register (`cancelTimers`, `armTimers`, `fire`,
    /// `jump`, `end`).
    @discardableResult
    mutating func control(_ instruction: Instruction) -> Int {
        append(instruction)
    }

    /// Points the branches at `indices` to the next instruction.
    mutating func patch(_ indices: [Int]) {
        for i in indices { patch(i) }
    }

    // MARK: - Actions

    private mutating func statement(_ action: Action) {
        temporaries = temporaryFloor
        defer {
            // What the statement wrote is no longer what a guard read.
            switch action {
            case .assign(let variable, _, let e, _): overwrote(Register(file: file(e.type), index: Int32(variable.index)))
            case .setLocal(let slot, let e, _): overwrote(Register(file: file(e.type), index: localBase + Int32(slot)))
            case .emit, .ifAction, .raise, .send, .sendNamed, .cancel: break
            }
        }
        switch action {
        case .assign(let variable, let op, let e, let range):
            let slot = Int32(variable.index)
            if file(e.type) == .string {
                // Strings are journalled as they are stored (`storeString`).
                let value = expression(e)
                guard let op else {
                    append(Instruction(.storeString, slot, value.index))
                    return
                }
                let target = temporary(.string)
                binary(op, into: target, Register(file: .string, index: slot), value, fault: FaultSite(range: range, style: .compound))
                append(Instruction(.storeString, slot, target.index))
                return
            }
            // A number variable is saved before the step's first assignment (`save`), so
            // the value is computed straight into it.
            let variableRegister = Register(file: .number, index: slot)
            guard let op else {
                _ = expression(e, into: variableRegister)
                return
            }
            let value = expression(e)
            binary(op, into: variableRegister, variableRegister, value, fault: FaultSite(range: range, style: .compound))
        case .emit(let output, let args, _):
            let arguments = args.map { (register: expression($0), isBool: $0.type == .bool) }
            emits.append(EmitSite(output: output, arguments: arguments))
            append(Instruction(.emit, Int32(emits.count - 1)))
        case .raise(let event, let args, _):
            raises.append(RaiseSite(event: event, arguments: args.map { expression($0) }))
            append(Instruction(.raise, Int32(raises.count - 1)))
        case .send(let event, let args, let delay, let range):
            let arguments = args.map { expression($0) }
            let delayRegister = delay.map { expression($0) }
            sends.append(SendSite(event: event, name: nil, arguments: arguments, delay: delayRegister, range: range))
            append(Instruction(.send, Int32(sends.count - 1)))
        case .sendNamed(let name, let delay, let range):
            let nameRegister = expression(name)
            let delayRegister = delay.map { expression($0) }
            sends.append(SendSite(event: EventID(0), name: nameRegister, arguments: [], delay: delayRegister, range: range))
            append(Instruction(.send, Int32(sends.count - 1)))
        case .cancel(let event, _):
            append(Instruction(.cancel, Int32(event.index)))
        case .setLocal(let slot, let e, _):
            _ = expression(e, into: Register(file: file(e.type), index: localBase + Int32(slot)))
        case .ifAction(let condition, let then, let otherwise, _):
            let branches = branchesUnless(condition)
            for a in then { statement(a) }
            if otherwise.isEmpty {
                patch(branches)
            } else {
                let skip = append(Instruction(.jump))
                patch(branches)
                for a in otherwise { statement(a) }
                patch(skip)
            }
        }
    }

    // MARK: - Expressions

    /// Compiles `e` and returns the register holding its value: variables, fields, locals
    /// and constants are read where they are; operations write a temporary, or
    /// `destination` when one is given (then the value always ends up there).
    ///
    /// `destination` is written once, by the last instruction of the expression, after
    /// every operand is read: so `x = y - x` can compute straight into `x`.
    private mutating func expression(_ e: Expr, into destination: Register? = nil) -> Register {
        func leaf(_ r: Register) -> Register {
            guard let destination else { return r }
            move(r, to: destination)
            return destination
        }
        if let value = e.folded(constants: constants) { return leaf(constant(value)) }
        if !available.isEmpty, let shape = shape(of: e), let known = available.first(where: { $0.shape == shape }) {
            return leaf(known.register)
        }
        switch e.kind {
        case .literal(let v): return leaf(constant(v))
        case .pi: return leaf(constant(.number(Double.pi)))
        case .constant(let id): return leaf(constant(id.index < constants.count ? constants[id.index] : e.type.zero))
        case .variable(let id): return leaf(Register(file: file(e.type), index: Int32(id.index)))
        case .field(let name): return leaf(Register(file: file(e.type), index: payloadBase + Int32(fields.firstIndex(of: name) ?? 0)))
        case .local(let slot): return leaf(Register(file: file(e.type), index: localBase + Int32(slot)))
        case .unary(let op, let x):
            let operand = expression(x)
            let result = destination ?? temporary(.number)
            append(Instruction(op == .not ? .not : .negate, result.index, operand.index))
            return result
        case .binary(.and, let l, let r), .binary(.or, let l, let r):
            // The result is written before the right operand is read: a temporary, never
            // the destination.
            // Each operand computes straight into it (its last instruction writes it).
            let result = temporary(.number)
            _ = expression(l, into: result)
            let isAnd = if case .binary(.and, _, _) = e.kind { true } else { false }
            let skip = append(Instruction(isAnd ? .jumpIfFalse : .jumpIfTrue, 0, result.index))
            _ = expression(r, into: result)
            patch(skip)
            return leaf(result)
        case .binary(let op, let l, let r):
            let left = expression(l)
            let right = expression(r)
            let result = destination ?? temporary(isComparison(op) ? .number : left.file)
            binary(op, into: result, left, right, fault: FaultSite(range: e.range, style: .expression))
            return result
        case .conditional(let c, let t, let f):
            // Both branches already in registers (no code, nothing that can fail): the
            // condition's value picks one, without jumps.
            if t.type != .string && isLeaf(t) && isLeaf(f) {
                let condition = expression(c)
                let ifTrue = expression(t), ifFalse = expression(f)
                if let d = fourthOperand(ifFalse) {
                    let result = destination ?? temporary(.number)
                    append(Instruction(.select, result.index, condition.index, ifTrue.index, d: d))
                    return result
                }
                // Cannot happen for the registers a leaf is in, short of 65536 of them: the
                // condition is computed, and the branches are moved after it.
                let result = destination ?? temporary(.number)
                let otherwise = append(Instruction(.jumpIfFalse, 0, condition.index))
                move(ifTrue, to: result)
                let end = append(Instruction(.jump))
                patch(otherwise)
                move(ifFalse, to: result)
                patch(end)
                return result
            }
            let otherwise = branchesUnless(c)
            let result = destination ?? temporary(file(e.type))
            _ = expression(t, into: result)
            let end = append(Instruction(.jump))
            patch(otherwise)
            _ = expression(f, into: result)
            patch(end)
            return result
        case .call(let f, let args):
            return call(f, args, range: e.range, into: destination)
        case .text(let x):
            let operand = expression(x)
            if x.type == .string { return leaf(operand) }
            let result = destination ?? temporary(.string)
            append(Instruction(x.type == .bool ? .textOfBool : .textOfNumber, result.index, operand.index))
            return result
        case .inState(let state):
            let result = destination ?? temporary(.number)
            append(Instruction(.isActive, result.index, Int32(state.index)))
            return result
        case .invalid:
            return leaf(constant(e.type.zero))
        }
    }

    /// `branches(unless:)` inside a statement (its temporaries stay in use). With
    /// `recording`, the values of compared operands are made `available`: every one of them
    /// has been computed when all the branches fall through.
    private mutating func branchesUnless(_ condition: Expr, recording: Bool = false) -> [Int] {
        if let value = condition.folded(constants: constants) {
            return value == .bool(true) ? [] : [append(Instruction(.jump))]
        }
        switch condition.kind {
        case .binary(.and, let l, let r):
            return branchesUnless(l, recording: recording) + branchesUnless(r, recording: recording)
        case .unary(.not, let x):
            return [append(Instruction(.jumpIfTrue, 0, expression(x).index))]
        case .binary(let op, let l, let r) where l.type != .string && !isLogical(op) && isComparison(op):
            let left = expression(l)
            let right = expression(r)
            if recording {
                record(l, in: left)
                record(r, in: right)
            }
            let opcode: Opcode = switch op {
            case .less: .jumpUnlessLess
            case .lessEqual: .jumpUnlessLessEqual
            case .greater: .jumpUnlessGreater
            case .greaterEqual: .jumpUnlessGreaterEqual
            case .equal: .jumpUnlessEqual
            default: .jumpUnlessNotEqual
            }
            return [append(Instruction(opcode, 0, left.index, right.index))]
        default:
            return [append(Instruction(.jumpIfFalse, 0, expression(condition).index))]
        }
    }

    private mutating func call(_ f: BuiltinFunction, _ args: [Expr], range: SourceRange, into destination: Register?) -> Register {
        if f == .min, let clamped = clamp(args, into: destination) { return clamped }
        let registers = args.map { expression($0) }
        let result = destination ?? temporary(.number)
        let fault = FaultSite(range: range, style: .call(f))
        guard let first = registers.first else {
            move(constant(.number(0)), to: result)
            return result
        }
        switch f {
        case .min, .max:
            // min(a, b, c) is min(min(a, b), c): the first operation reads both arguments.
            // The steps before the last go to a temporary: an argument may read the destination.
            var left = first
            let partial = registers.count > 2 ? temporary(.number) : result
            for (k, r) in registers.enumerated().dropFirst() {
                let into = k == registers.count - 1 ? result : partial
                append(Instruction(f == .min ? .min : .max, into.index, left.index, r.index))
                left = into
            }
            if registers.count == 1 { move(first, to: result) }
        case .atan2:
            let second = registers.count > 1 ? registers[1] : constant(.number(.nan))
            append(Instruction(.atan2, result.index, first.index, second.index), fault: fault)
        case .abs: append(Instruction(.abs, result.index, first.index))
        case .sqrt: append(Instruction(.sqrt, result.index, first.index), fault: fault)
        case .floor: append(Instruction(.floor, result.index, first.index))
        case .ceil: append(Instruction(.ceil, result.index, first.index))
        case .round: append(Instruction(.round, result.index, first.index))
        }
        return result
    }

    /// `min(max(x, lo), hi)` as one `clamp`, when `hi` is in a register that fits the
    /// fourth operand; nil (nothing appended) otherwise. The operands are evaluated in the
    /// same order as for the two calls; only the `max`'s temporary is not written.
    private mutating func clamp(_ args: [Expr], into destination: Register?) -> Register? {
        guard args.count == 2, case .call(.max, let inner) = args[0].kind, inner.count == 2,
              args[0].folded(constants: constants) == nil, isLeaf(args[1]) else { return nil }
        // A guard computed the whole `max` already: reuse it, as the plain calls would.
        if !available.isEmpty, let shape = shape(of: args[0]), available.contains(where: { $0.shape == shape }) { return nil }
        let mark = self.mark()
        let x = expression(inner[0]), lo = expression(inner[1]), hi = expression(args[1])
        guard let d = fourthOperand(hi) else {
            truncate(to: mark)
            return nil
        }
        let result = destination ?? temporary(.number)
        append(Instruction(.clamp, result.index, x.index, lo.index, d: d))
        return result
    }

    /// Whether `e` is in a register without code: a constant, a variable, a field, a local.
    private func isLeaf(_ e: Expr) -> Bool {
        if e.folded(constants: constants) != nil { return true }
        switch e.kind {
        case .literal, .pi, .constant, .variable, .field, .local, .invalid: return true
        default: return false
        }
    }

    /// `r` as an instruction's fourth operand (`Instruction.ud`), if it fits: a number
    /// register that is not a temporary, below `Instruction.maxD`.
    private func fourthOperand(_ r: Register) -> UInt16? {
        guard r.file == .number, r.index >= 0, r.index & CodeGenerator.temporaryFlag == 0, r.index < Instruction.maxD
        else { return nil }
        return UInt16(r.index)
    }

    /// `result = left op right` for every operator but `&&` and `||`.
    private mutating func binary(_ op: BinaryOp, into result: Register, _ left: Register, _ right: Register,
                                 fault: FaultSite) {
        if left.file == .string {
            switch op {
            case .equal: append(Instruction(.equalStrings, result.index, left.index, right.index))
            case .notEqual: append(Instruction(.notEqualStrings, result.index, left.index, right.index))
            case .add: append(Instruction(.concatenate, result.index, left.index, right.index))
            default:
                append(Instruction(.fail), fault: FaultSite(range: fault.range, style: .unsupported(op, onStrings: true)))
            }
            return
        }
        let opcode: Opcode
        switch op {
        case .add: opcode = .add
        case .subtract: opcode = .subtract
        case .multiply: opcode = .multiply
        case .divide: opcode = .divide
        case .remainder: opcode = .remainder
        case .less: opcode = .less
        case .lessEqual: opcode = .lessEqual
        case .greater: opcode = .greater
        case .greaterEqual: opcode = .greaterEqual
        case .equal: opcode = .equal
        case .notEqual: opcode = .notEqual
        case .and, .or:
            // Only reached for `&&=`-like compound forms, which the language does not have.
            append(Instruction(.fail), fault: FaultSite(range: fault.range, style: .unsupported(op, onStrings: false)))
            return
        }
        append(Instruction(opcode, result.index, left.index, right.index), fault: isComparison(op) ? nil : fault)
    }

    private func isLogical(_ op: BinaryOp) -> Bool { op == .and || op == .or }

    private func isComparison(_ op: BinaryOp) -> Bool {
        switch op {
        case .less, .lessEqual, .greater, .greaterEqual, .equal, .notEqual, .and, .or: true
        default: false
        }
    }

    // MARK: - Reusing a guard's values

    /// Makes the value of `e`, held in `register`, available to the code after the guard
    /// (only computed values: reading a leaf again costs nothing).
    private mutating func record(_ e: Expr, in register: Register) {
        switch e.kind {
        case .unary, .binary, .call: break
        default: return
        }
        guard e.folded(constants: constants) == nil, let shape = shape(of: e), !available.contains(where: { $0.shape == shape })
        else { return }
        var reads: [Register] = []
        e.visit { x in
            switch x.kind {
            case .variable(let id): reads.append(Register(file: file(x.type), index: Int32(id.index)))
            case .local(let slot): reads.append(Register(file: file(x.type), index: localBase + Int32(slot)))
            default: break
            }
        }
        available.append((shape, register, reads))
    }

    /// Register `r` was written: values that read it are no longer available.
    private mutating func overwrote(_ r: Register) {
        if !available.isEmpty { available.removeAll { $0.reads.contains(r) } }
    }

    /// A text that two expressions share exactly when they compute the same value from the
    /// same registers; nil for expressions that are not reused (conditionals, `&&`, `||`).
    private func shape(of e: Expr) -> String? {
        switch e.kind {
        case .literal(.number(let n)): return "#\(n.bitPattern)"
        case .literal(.bool(let b)): return "#\(b)"
        case .literal(.string(let text)): return "#\(text.utf8.count):\(text)"
        case .pi: return "pi"
        case .constant(let id): return "k\(id.index)"
        case .variable(let id): return "v\(id.index)"
        case .field(let name): return "f\(name)"
        case .local(let slot): return "l\(slot)"
        case .unary(let op, let x): return shape(of: x).map { "(\(op.rawValue) \($0))" }
        case .binary(.and, _, _), .binary(.or, _, _): return nil
        case .binary(let op, let l, let r):
            guard let l = shape(of: l), let r = shape(of: r) else { return nil }
            return "(\(op.rawValue) \(l) \(r))"
        case .call(let f, let args):
            var parts: [String] = []
            for a in args {
                guard let p = shape(of: a) else { return nil }
                parts.append(p)
            }
            return "(\(f.rawValue) \(parts.joined(separator: " ")))"
        case .text(let x): return shape(of: x).map { "(text \($0))" }
        // Which states are active changes within a step (exits, entries): never reused.
        case .conditional, .inState, .invalid: return nil
        }
    }

    // MARK: - Registers and instructions

    private func file(_ type: ValueType) -> RegisterKind { type == .string ? .string : .number }

    private mutating func constant(_ value: Value) -> Register {
        let file: RegisterKind = value.type == .string ? .string : .number
        if let index = poolIndex[value] { return Register(file: file, index: constantBase + index) }
        pool.append(value)
        let index = Int32(pool.count - 1)
        poolIndex[value] = index
        return Register(file: file, index: constantBase + index)
    }

    /// A fresh temporary; its index is flagged and relocated after the constants by `finish`.
    private mutating func temporary(_ file: RegisterKind) -> Register {
        let index = temporaries
        temporaries += 1
        maxTemporaries = max(maxTemporaries, temporaries)
        return Register(file: file, index: CodeGenerator.temporaryFlag | index)
    }

    private mutating func move(_ from: Register, to: Register) {
        guard from != to else { return }
        append(Instruction(from.file == .number ? .move : .moveString, to.index, from.index))
    }

    @discardableResult
    private mutating func append(_ instruction: Instruction, fault: FaultSite? = nil) -> Int {
        if let fault { faults[code.count] = fault }
        code.append(instruction)
        return code.count - 1
    }

    /// Points the jump at `index` to the next instruction.
    private mutating func patch(_ index: Int) {
        code[index].a = Int32(code.count)
    }

    /// Relocates temporaries after the constant pool (its size is known only now) and
    /// returns the register count of each file.
    mutating func finish() -> Int {
        for i in code.indices {
            switch code[i].op {
            case .jump, .jumpIfFalse, .jumpIfTrue:
                code[i].b = relocate(code[i].b)
            case .jumpUnlessLess, .jumpUnlessLessEqual, .jumpUnlessGreater, .jumpUnlessGreaterEqual,
                 .jumpUnlessEqual, .jumpUnlessNotEqual:
                code[i].b = relocate(code[i].b)
                code[i].c = relocate(code[i].c)
            case .emit, .raise, .send, .cancel, .fail, .save, .cancelTimers, .armTimers, .fire, .end:
                break
            case .isActive:
                code[i].a = relocate(code[i].a)
            default:
                code[i].a = relocate(code[i].a)
                code[i].b = relocate(code[i].b)
                code[i].c = relocate(code[i].c)
            }
        }
        for e in emits.indices {
            for k in emits[e].arguments.indices { emits[e].arguments[k].register.index = relocate(emits[e].arguments[k].register.index) }
        }
        for e in raises.indices {
            for k in raises[e].arguments.indices { raises[e].arguments[k].index = relocate(raises[e].arguments[k].index) }
        }
        for e in sends.indices {
            for k in sends[e].arguments.indices { sends[e].arguments[k].index = relocate(sends[e].arguments[k].index) }
            if let d = sends[e].delay { sends[e].delay = Register(file: d.file, index: relocate(d.index)) }
            if let n = sends[e].name { sends[e].name = Register(file: n.file, index: relocate(n.index)) }
        }
        return Int(constantBase + Int32(pool.count) + maxTemporaries)
    }

    /// Relocates a result register the same way `finish` relocates the code.
    func relocated(_ r: Register) -> Register {
        Register(file: r.file, index: relocate(r.index))
    }

    /// Where register index `r` ends up: temporaries move after the constant pool.
    private func relocate(_ r: Int32) -> Int32 {
        r & CodeGenerator.temporaryFlag != 0 ? constantBase + Int32(pool.count) + (r & ~CodeGenerator.temporaryFlag) : r
    }
}
