#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import StatecraftDiagnostics
import StatecraftModel

/// A run-time failure inside an expression: what went wrong, with the operands, and where
/// in the spec.
///
/// A fault holds numbers and ids only, never text, so a `Step` that may carry one is a plain
/// value that costs nothing to copy or drop; `message` renders the text when asked.
public struct ExpressionFault: Error, Sendable, Equatable {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// `a / 0` or `a % 0` inside an expression.
        case byZero(BinaryOp, Double)
        /// `a op b` (an arithmetic operator, or a compound assignment) gave a result that is
        /// not a finite number.
        case notFinite(BinaryOp, Double, Double)
        /// A built-in function gave a result that is not a finite number (the second operand
        /// is only used by two-argument functions).
        case function(BuiltinFunction, Double, Double)
        /// An operator applied where the checker should have refused it (the runtime stays
        /// total instead of trapping): on strings, or as an assignment operator.
        case unsupported(BinaryOp, onStrings: Bool)
        /// Timers fired this many times at one instant without time passing.
        case timerLoop(limit: Int, time: Double)
        /// Events the machine sent itself were taken this many times at one instant without
        /// time passing (`on ping { send ping }`); the range is the `send`.
        case sendLoop(limit: Int, time: Double)
        /// A `send` found this many sent events pending already (a machine whose sends
        /// multiply); the range is the `send`.
        case tooManySent(limit: Int)
        /// A send by name (`send "\(kind)"`) computed a string that names no event of the
        /// machine; the range is the `send`.
        case unknownEventName(FaultText)
        /// A send by name computed the name of an event with payload fields, which a send
        /// by name cannot fill; the range is the `send`.
        case eventNameHasFields(FaultText)
        /// One step took more than this many microsteps (an eventless or `raise` loop that
        /// never settles); the range is the transition taken last.
        case microstepLimit(limit: Int)
        /// The program has no fault site for this instruction (a bug of ours).
        case internalError(instruction: Int)
    }

    /// What failed: a division by zero, a result that is not a finite number, a loop that never settles, and
    /// so on.
    public var reason: Reason
    /// The expression (or, for a timer loop, the transition) that failed, in the spec.
    public var range: SourceRange

    /// Creates a fault of the given kind at a range of the spec.
    public init(_ reason: Reason, range: SourceRange) {
        self.reason = reason
        self.range = range
    }

    /// Lowercase description, e.g. "division by zero (7 / 0)".
    public var message: String {
        switch reason {
        case .byZero(let op, let a):
            op == .remainder ? "remainder by zero (\(Value.number(a)) % 0)" : "division by zero (\(Value.number(a)) / 0)"
        case .notFinite(let op, let a, let b):
            "\(Value.number(a)) \(op.rawValue) \(Value.number(b)) is not a finite number"
        case .function(.atan2, let a, let b):
            "'atan2' of \(Value.number(a)), \(Value.number(b)) is not a finite number"
        case .function(let f, let a, _):
            "'\(f.rawValue)' of \(Value.number(a)) is not a finite number"
        case .unsupported(let op, true):
            "'\(op.rawValue)' does not apply to strings"
        case .unsupported(let op, false):
            "'\(op.rawValue)' is not an assignment operator"
        case .timerLoop(let limit, let time):
            "timers fired \(limit) times at t=\(Value.number(time)) without time passing; stopped them"
        case .sendLoop(let limit, let time):
            "sent events were taken \(limit) times at t=\(Value.number(time)) without time passing; dropped the pending ones"
        case .tooManySent(let limit):
            "\(limit) sent events are pending already; this 'send' would add one more"
        case .unknownEventName(let name):
            "send by name: '\(name)' is not an event of this machine"
        case .eventNameHasFields(let name):
            "send by name: event '\(name)' has fields, and a send by name carries none"
        case .microstepLimit(let limit):
            "more than \(limit) microsteps without settling (an 'always' or 'raise' loop); stopped the step"
        case .internalError(let pc):
            "internal error at instruction \(pc)"
        }
    }
}

/// A short text held inline, without storage of its own: the name a send by name computed,
/// kept in an `ExpressionFault` so that a fault stays a plain value (no reference to count)
/// however it is copied. Up to 32 bytes of UTF-8 are kept; a longer text is cut at a
/// character boundary and shows with `…`.
public struct FaultText: Sendable, Equatable, CustomStringConvertible {
    static let capacity = 32
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var count: UInt8 = 0
    private var isCut = false

    /// The first 32 bytes of `text` (fewer, to end on a whole character).
    package init(_ text: String) {
        var kept = 0
        for c in text.unicodeScalars {
            let size = UTF8.width(c)
            if kept + size > Self.capacity {
                isCut = true
                break
            }
            kept += size
        }
        count = UInt8(kept)
        withUnsafeMutableBytes(of: &words) { buffer in
            for (k, byte) in text.utf8.prefix(kept).enumerated() { buffer[k] = byte }
        }
    }

    public var description: String {
        let text = withUnsafeBytes(of: words) { buffer in
            String(decoding: buffer.prefix(Int(count)), as: UTF8.self)
        }
        return isCut ? text + "…" : text
    }

    public static func == (a: FaultText, b: FaultText) -> Bool {
        a.count == b.count && a.isCut == b.isCut && a.words == b.words
    }
}

/// An output emitted by the current step: its arguments are
/// `RegisterFile.outputArguments[start ..< start + count]`. (A public type with package
/// members, for `RegisterFile.outputs`.)
public struct PendingOutput: Sendable {
    package var output: OutputID
    package var start: Int32
    package var count: Int32
}

/// A list emptied and refilled step after step: emptying only resets the count, so the
/// storage (and the values in it, until overwritten) stays; no per-step work for the array.
///
/// Public type, package members, for the same reason as `FrozenTable`: the inlinable reads
/// of a `package` generic type are not specialized in another module.
public struct ReusableList<Element> {
    // Inlinable reads: the replayer (another module) looks at the step's outputs after
    // every step, and must not pay an unspecialized generic call for it.
    @usableFromInline var storage: [Element] = []
    @usableFromInline package private(set) var count = 0

    @inlinable package var isEmpty: Bool { count == 0 }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count < storage.count {
            storage[count] = element
        } else {
            storage.append(element)
        }
        count += 1
    }

    @inline(__always)
    mutating func removeAll() { count = 0 }

    @inlinable package subscript(_ index: Int) -> Element {
        get { storage[index] }
        set { storage[index] = newValue }
    }

    /// Elements `range` as an array.
    @inlinable package func copy(_ range: Range<Int>) -> [Element] { Array(storage[range]) }

    /// The elements, in order.
    @inlinable package var elements: ArraySlice<Element> { storage[0..<count] }

    /// Removes element `k`; the later ones move down one place.
    mutating func remove(at k: Int) -> Element {
        let element = storage[k]
        var j = k
        while j + 1 < count {
            storage[j] = storage[j + 1]
            j += 1
        }
        count -= 1
        return element
    }

    /// Removes the elements for which `isRemoved` holds, keeping the order of the rest.
    mutating func removeAll(where isRemoved: (Element) -> Bool) {
        var kept = 0
        for k in 0..<count where !isRemoved(storage[k]) {
            storage[kept] = storage[k]
            kept += 1
        }
        count = kept
    }

    /// Makes this list hold the elements of `other`, in its own storage.
    mutating func replace(with other: ReusableList) {
        count = 0
        for k in 0..<other.count { append(other.storage[k]) }
    }
}

extension ReusableList: Sendable where Element: Sendable {}

/// A string variable's store in the current step: the register and the value it replaced.
package struct StringJournalEntry {
    package var slot: Int32
    package var old: String
}

/// A variable assignment of the current step: the register and the value it replaced.
struct JournalEntry {
    var slot: Int32
    var old: Double
}

/// An instance's registers (variables, payload, locals, constants, temporaries), and the
/// current step's journal and outputs.
///
/// A class with raw storage so the step function reads and writes registers without bounds
/// checks, uniqueness checks or retains; `Instance` keeps value semantics by copying it
/// before it changes a shared one (`Instance.makeUnique`). Like an array's buffer, it is
/// only ever mutated while uniquely referenced, which is what makes it safe to send.
///
/// Public type, package members, like `FrozenTable`: the replayer (another module) reads the
/// outputs after every step. For a `package` class it reached them through an accessor call
/// with a run-time exclusivity check (`swift_beginAccess`) and a retain per read; for a public
/// class with `@usableFromInline` properties it reads the field directly, unchecked.
public final class RegisterFile: @unchecked Sendable {
    /// The number file: numbers, and bools as 0 or 1.
    @usableFromInline package let numbers: UnsafeMutablePointer<Double>
    @usableFromInline package let count: Int
    /// The string file (empty strings where no string lives).
    @exclusivity(unchecked) @usableFromInline package var strings: [String]
    /// The number variables the current step saved (those it may assign before something
    /// that can fail), with the values they held before the step, in order: a failed step is
    /// undone from it; `journal[0 ..< journalCount]`.
    @exclusivity(unchecked) private(set) var journal: UnsafeMutablePointer<JournalEntry>
    @exclusivity(unchecked) private(set) var journalCount = 0
    @exclusivity(unchecked) private var journalCapacity: Int
    /// The string variables the current step stored, with the values they held before, in
    /// order (kept storage: emptying it each step is a count reset, not an array's
    /// `removeAll`).
    @exclusivity(unchecked) package var stringJournal = ReusableList<StringJournalEntry>()
    @exclusivity(unchecked) @usableFromInline package var outputs = ReusableList<PendingOutput>()
    @exclusivity(unchecked) @usableFromInline package var outputArguments = ReusableList<Value>()

    /// Whether the current step emitted outputs. Inlinable, for the replayer (another module),
    /// which asks after every step: compiled here, the read keeps `outputs`' unchecked
    /// exclusivity; written in the replayer, it would pay a run-time check (`swift_beginAccess`).
    @inlinable package var hasOutputs: Bool { !outputs.isEmpty }

    /// The current step's outputs and the arguments they point into; inlinable for the
    /// replayer, like `hasOutputs`.
    @inlinable package var stepOutputs: (outputs: ReusableList<PendingOutput>, arguments: ReusableList<Value>) {
        (outputs, outputArguments)
    }

    /// The string in register `index`; inlinable for the replayer, like `hasOutputs`.
    @inlinable package func string(at index: Int) -> String { strings[index] }

    /// The value of string variable `slot` if the current step changed it, else nil: its
    /// first store journalled the value before. Here rather than in the replayer's trace, for
    /// the same reason as `hasOutputs`.
    package func changedString(at slot: Int) -> String? {
        guard let entry = stringJournal.elements.first(where: { Int($0.slot) == slot }), entry.old != strings[slot] else {
            return nil
        }
        return strings[slot]
    }

    convenience init(numbers initial: [Double], strings: [String]) {
        self.init(count: initial.count, strings: strings)
        initial.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { numbers.update(from: start, count: source.count) }
        }
    }

    /// A file of `count` number registers (their values to be written by the caller).
    private init(count: Int, strings: [String]) {
        self.count = count
        numbers = .allocate(capacity: Swift.max(1, count))
        numbers.initialize(repeating: 0, count: Swift.max(1, count))
        self.strings = strings
        journalCapacity = 8
        journal = .allocate(capacity: journalCapacity)
    }

    /// A copy with the same registers, journal and outputs. (The search copies an instance
    /// for every step it tries: this copies the numbers straight, with no array between.)
    func copy() -> RegisterFile {
        let copy = RegisterFile(count: count, strings: strings)
        copy.numbers.update(from: numbers, count: count)
        for k in 0..<journalCount { copy.record(journal[k].slot, old: journal[k].old) }
        copy.stringJournal = stringJournal
        copy.outputs = outputs
        copy.outputArguments = outputArguments
        return copy
    }

    deinit {
        numbers.deallocate()
        journal.deallocate()
    }

    @inline(__always)
    func record(_ slot: Int32, old: Double) {
        if journalCount == journalCapacity { growJournal(toHold: journalCount + 1) }
        journal[journalCount] = JournalEntry(slot: slot, old: old)
        journalCount += 1
    }

    private func growJournal(toHold count: Int) {
        journalCapacity = Swift.max(journalCapacity * 2, count)
        journal = reallocate(journal, count: journalCount, capacity: journalCapacity)
    }

    /// Forgets the previous step's journal and outputs.
    @inline(__always)
    func beginStep() {
        journalCount = 0
        stringJournal.removeAll()
        dropOutputs()
    }

    /// Forgets the outputs recorded so far.
    @inline(__always)
    func dropOutputs() {
        outputs.removeAll()
        outputArguments.removeAll()
    }

    /// `beginStep` for a step that records no output (the tape loop's): outputs stay
    /// empty, so only the journals are reset; the string journal only when
    /// `journalsStrings` (the program may store a string).
    @inline(__always)
    func beginQuietStep(journalsStrings: Bool) {
        journalCount = 0
        if journalsStrings { stringJournal.removeAll() }
    }

    /// Undoes the current step's assignments and drops its outputs.
    func rollBack() {
        while journalCount > 0 {
            journalCount -= 1
            numbers[Int(journal[journalCount].slot)] = journal[journalCount].old
        }
        var k = stringJournal.count
        while k > 0 {
            k -= 1
            strings[Int(stringJournal[k].slot)] = stringJournal[k].old
        }
        stringJournal.removeAll()
        dropOutputs()
    }

    /// Saves number variable `a`, and `b` and `c` unless they are -1, in the journal, with
    /// the values they hold.
    @inline(__always)
    func save(_ a: Int32, _ b: Int32, _ c: Int32) {
        var k = journalCount
        if k &+ 3 > journalCapacity { growJournal(toHold: k &+ 3) }
        journal[k] = JournalEntry(slot: a, old: numbers[Int(a)])
        k &+= 1
        if b >= 0 {
            journal[k] = JournalEntry(slot: b, old: numbers[Int(b)])
            k &+= 1
            if c >= 0 {
                journal[k] = JournalEntry(slot: c, old: numbers[Int(c)])
                k &+= 1
            }
        }
        journalCount = k
    }

    /// Runs a string instruction; out of line, so the interpreter loop keeps a small frame
    /// for the number instructions that most steps are made of.
    @inline(never)
    func stringInstruction(_ i: Instruction) {
        let a = Int(i.a), b = Int(i.b), c = Int(i.c)
        switch i.op {
        case .moveString: strings[a] = strings[b]
        case .concatenate: strings[a] = strings[b] + strings[c]
        case .textOfNumber: strings[a] = Value.number(numbers[b]).text
        case .textOfBool: strings[a] = numbers[b] != 0 ? "true" : "false"
        case .equalStrings: numbers[a] = strings[b] == strings[c] ? 1 : 0
        case .notEqualStrings: numbers[a] = strings[b] != strings[c] ? 1 : 0
        case .storeString:
            stringJournal.append(StringJournalEntry(slot: i.a, old: strings[a]))
            strings[a] = strings[b]
        default: break
        }
    }

    @inline(never)
    func emit(_ site: Int, _ program: Program) {
        let first = Int(program.emitStart[site])
        let end = Int(program.emitStart[site + 1])
        outputs.append(PendingOutput(output: program.emitOutputs[site], start: Int32(outputArguments.count), count: Int32(end - first)))
        for k in first..<end {
            let r = program.emitArguments[k]
            let index = Int(r.register.index)
            switch r.register.file {
            case .number: outputArguments.append(r.isBool ? .bool(numbers[index] != 0) : .number(numbers[index]))
            case .string: outputArguments.append(.string(strings[index]))
            }
        }
    }
}

/// What the interpreter does when a block ends (`fire` or `end`): return, or go on with
/// another block without leaving the loop (see `Instance.interpret`).
protocol BlockSequel {
    /// Whether nothing reads the outputs the blocks emit (their arguments are still
    /// evaluated, so a step that would fail still fails).
    static var dropsOutputs: Bool { get }
    /// Called when a block ends, after its `fire` took effect; `fired` is the transition's
    /// index or -1, and `endedRun` whether the `fire` ended the run. Returns the block to run
    /// next (an index into `Program.code`), or -1 to return `fired`.
    mutating func next(_ instance: inout Instance, fired: Int32, endedRun: Bool) -> Int
}

/// Runs one block and returns.
struct SingleBlock: BlockSequel {
    static var dropsOutputs: Bool { false }
    /// Not read. A value of an empty type has no storage of its own: passed `inout`, it is
    /// given one shared static address, and ThreadSanitizer reports every two threads that
    /// run a block at once as racing on it. One byte gives each caller its own.
    private var storage: UInt8 = 0

    @inline(__always)
    func next(_ instance: inout Instance, fired: Int32, endedRun: Bool) -> Int { -1 }
}

extension Instance {
    /// Runs the code block starting at `start` until its `fire` (which returns the
    /// transition's index) or its `end` (which returns -1). Type errors cannot happen (the
    /// checker proved types); the only failures are arithmetic ones, reported with the
    /// failing expression's range, and the caller undoes the step.
    ///
    /// The registers must be this instance's own (`makeUnique`). Only raw pointers are
    /// held across the loop, so running a block retains nothing.
    mutating func execute(_ start: Int32) throws(ExpressionFault) -> Int32 {
        var single = SingleBlock()
        return try interpret(start, &single)
    }

    /// `execute`, where the end of a block asks `sequel` for the next block to run: a
    /// stream of steps (`Instance.run` over a tape) runs in one loop, with no call and no
    /// return per step. When a block fails, the error leaves the loop; `sequel` knows
    /// which step it was.
    @inline(__always)
    mutating func interpret<Sequel: BlockSequel>(_ start: Int32, _ sequel: inout Sequel) throws(ExpressionFault) -> Int32 {
        let code = program.code.base
        let limit = program.greatestFinite
        var n = registers.numbers
        var next = code + Int(start)  // the instruction after `i`
        while true {
            let i = next.pointee
            let a = Int(i.ua), b = Int(i.ub), c = Int(i.uc)
            next += 1
            switch i.op {
            case .move: n[a] = n[b]
            case .add:
                let r = n[b] + n[c]
                guard r.magnitude <= limit else { throw program.fault(at: next - 1 - code, n[b], n[c]) }
                n[a] = r
            case .subtract:
                let r = n[b] - n[c]
                guard r.magnitude <= limit else { throw program.fault(at: next - 1 - code, n[b], n[c]) }
                n[a] = r
            case .multiply:
                let r = n[b] * n[c]
                guard r.magnitude <= limit else { throw program.fault(at: next - 1 - code, n[b], n[c]) }
                n[a] = r
            // A divisor of 0 needs no test of its own: `x / 0` is never finite (±infinity, or
            // NaN for 0 / 0) and `x % 0` is NaN, so the finiteness test fails on it, and
            // `fault(at:)` reports it as a division by zero.
            //
            // The finiteness test `r.magnitude <= limit` is false for infinities and NaN.
            case .divide:
                let r = n[b] / n[c]
                guard r.magnitude <= limit else { throw program.fault(at: next - 1 - code, n[b], n[c]) }
                n[a] = r
            case .remainder:
                let r = n[b].truncatingRemainder(dividingBy: n[c])
                guard r.magnitude <= limit else { throw program.fault(at: next - 1 - code, n[b], n[c]) }
                n[a] = r
            case .negate: n[a] = -n[b]
            case .not: n[a] = n[b] == 0 ? 1 : 0
            case .less: n[a] = n[b] < n[c] ? 1 : 0
            case .lessEqual: n[a] = n[b] <= n[c] ? 1 : 0
            case .greater: n[a] = n[b] > n[c] ? 1 : 0
            case .greaterEqual: n[a] = n[b] >= n[c] ? 1 : 0
            case .equal: n[a] = n[b] == n[c] ? 1 : 0
            case .notEqual: n[a] = n[b] != n[c] ? 1 : 0
            case .min: n[a] = Swift.min(n[b], n[c])
            case .max: n[a] = Swift.max(n[b], n[c])
            // The fourth operand is read from the code where it is used: read from `i`, it
            // would be loaded with the others for every instruction.
            case .clamp: n[a] = Swift.min(Swift.max(n[b], n[c]), n[Int((next - 1).pointee.ud)])
            case .select: n[a] = n[b] != 0 ? n[c] : n[Int((next - 1).pointee.ud)]
            case .atan2:
                let r = arcTangent(n[b], n[c])
                guard r.magnitude <= limit else { throw program.fault(at: next - 1 - code, n[b], n[c]) }
                n[a] = r
            case .abs: n[a] = Swift.abs(n[b])
            case .sqrt:
                let r = n[b].squareRoot()
                guard r.magnitude <= limit else { throw program.fault(at: next - 1 - code, n[b], 0) }
                n[a] = r
            case .floor: n[a] = n[b].rounded(.down)
            case .ceil: n[a] = n[b].rounded(.up)
            case .round: n[a] = n[b].rounded(.toNearestOrAwayFromZero)
            case .jump: next = code + a
            case .jumpIfFalse: if n[b] == 0 { next = code + a }
            case .jumpIfTrue: if n[b] != 0 { next = code + a }
            case .jumpUnlessLess: if !(n[b] < n[c]) { next = code + a }
            case .jumpUnlessLessEqual: if !(n[b] <= n[c]) { next = code + a }
            case .jumpUnlessGreater: if !(n[b] > n[c]) { next = code + a }
            case .jumpUnlessGreaterEqual: if !(n[b] >= n[c]) { next = code + a }
            case .jumpUnlessEqual: if !(n[b] == n[c]) { next = code + a }
            case .jumpUnlessNotEqual: if !(n[b] != n[c]) { next = code + a }
            case .moveString, .concatenate, .textOfNumber, .textOfBool, .equalStrings, .notEqualStrings, .storeString:
                registers.stringInstruction(i)
            case .emit: if !Sequel.dropsOutputs { registers.emit(a, program) }
            case .raise: raise(site: a)
            case .send: try sendToSelf(site: a)
            case .cancel: cancelSent(event: a)
            case .isActive: n[a] = isActive(b) ? 1 : 0
            case .fail: throw program.fault(at: next - 1 - code, 0, 0)
            case .save: registers.save(i.a, i.b, i.c)
            case .cancelTimers: cancelTimers(of: i.a)
            case .armTimers: try armTimers(of: a)
            case .fire:
                enter(i.b, endingRun: i.c != 0)
                let block = sequel.next(&self, fired: i.a, endedRun: i.c != 0)
                if block < 0 { return i.a }
                next = code + block
                n = registers.numbers  // a timer's step may have given the instance its own registers
            case .end:
                let block = sequel.next(&self, fired: -1, endedRun: false)
                if block < 0 { return -1 }
                next = code + block
                n = registers.numbers  // a timer's step may have given the instance its own registers
            }
        }
    }
}

extension Program {
    /// The fault of the instruction at `pc`, which failed on operands `x` and `y`.
    @inline(never)
    func fault(at pc: Int, _ x: Double, _ y: Double) -> ExpressionFault {
        guard let site = faults[pc] else { return ExpressionFault(.internalError(instruction: pc), range: SourceRange(0, 0)) }
        let op: BinaryOp = switch code[pc].op {
        case .add: .add
        case .subtract: .subtract
        case .multiply: .multiply
        case .divide: .divide
        default: .remainder
        }
        let reason: ExpressionFault.Reason = switch site.style {
        case .unsupported(let op, let onStrings): .unsupported(op, onStrings: onStrings)
        case .call(let f): .function(f, x, y)
        case .expression where y == 0 && (op == .divide || op == .remainder): .byZero(op, x)
        case .expression, .compound: .notFinite(op, x, y)
        }
        return ExpressionFault(reason, range: site.range)
    }
}


@inline(__always)
private func arcTangent(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
