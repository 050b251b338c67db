import StatecraftDiagnostics
import StatecraftModel

/// One instruction of the register code the runtime executes.
///
/// Registers are slots of two files of the same size: numbers and bools (as 0 or 1) in a
/// file of `Double`, strings in a file of `String`. Code writes number variables like any
/// register: a transition's code first saves the variables that a failure later in the step
/// would have to restore (`save`; none when nothing can fail after an assignment), which is
/// what undoes a failed step. The layout of a file is fixed per program: variables (a
/// variable's register is its `VariableID` index), the triggering event's payload fields,
/// `let` locals, constants, temporaries. The type checker proved every operand's type, so an
/// instruction never looks at a tag.
///
/// Besides expressions, code carries whole steps: the block run for an event in a state
/// tries each candidate transition's guard, and the first that holds runs its exits,
/// actions and entries as straight-line code and ends with `fire` (see `Program.dispatch`).
struct Instruction: Sendable {
    var op: Opcode
    /// A fourth operand, for the few instructions that read four registers (`clamp`,
    /// `select`): it lives in what would be padding after `op`, so an instruction stays 16
    /// bytes. Only a register below `maxD` that is not a temporary fits (its index is final
    /// when the instruction is made; temporaries are relocated by `CodeGenerator.finish`).
    var ud: UInt16
    /// The operands as stored: unsigned, so widening one to an index costs nothing (-1 is
    /// `UInt32.max`). The code generator works with the signed views `a`, `b`, `c`.
    var ua: UInt32
    var ub: UInt32
    var uc: UInt32

    /// The registers `ud` can hold: `0 ..< maxD`.
    static let maxD: Int32 = Int32(UInt16.max) + 1

    init(_ op: Opcode, _ a: Int32 = 0, _ b: Int32 = 0, _ c: Int32 = 0, d: UInt16 = 0) {
        self.op = op
        ud = d
        ua = UInt32(bitPattern: a)
        ub = UInt32(bitPattern: b)
        uc = UInt32(bitPattern: c)
    }

    /// Usually the destination register.
    var a: Int32 {
        get { Int32(bitPattern: ua) }
        set { ua = UInt32(bitPattern: newValue) }
    }
    /// Usually the first operand register.
    var b: Int32 {
        get { Int32(bitPattern: ub) }
        set { ub = UInt32(bitPattern: newValue) }
    }
    /// Usually the second operand register.
    var c: Int32 {
        get { Int32(bitPattern: uc) }
        set { uc = UInt32(bitPattern: newValue) }
    }
}

/// What an instruction does. `n[x]` is the number file, `s[x]` the string file.
enum Opcode: UInt8, Sendable {
    /// `n[a] = n[b]`
    case move
    /// `n[a] = n[b] op n[c]`; fails when the result is not finite (or the divisor is 0).
    case add, subtract, multiply, divide, remainder
    /// `n[a] = -n[b]`
    case negate
    /// `n[a] = n[b] == 0 ? 1 : 0`
    case not
    /// `n[a] = n[b] op n[c] ? 1 : 0`
    case less, lessEqual, greater, greaterEqual, equal, notEqual
    /// `n[a] = f(n[b], n[c])`
    case min, max, atan2
    /// `n[a] = min(max(n[b], n[c]), n[d])`: the clamp `min(max(x, lo), hi)` in one
    /// instruction, with the same result as the two (`Swift.max` then `Swift.min`).
    case clamp
    /// `n[a] = n[b] != 0 ? n[c] : n[d]`: a conditional whose branches are registers already
    /// (no code to run), without jumps.
    case select
    /// `n[a] = f(n[b])`
    case abs, sqrt, floor, ceil, round
    /// Continue at `a`.
    case jump
    /// Continue at `a` when `n[b]` is 0 (false) / not 0 (true).
    case jumpIfFalse, jumpIfTrue
    /// Continue at `a` unless `n[b] op n[c]`: a comparison and the branch on it in one.
    case jumpUnlessLess, jumpUnlessLessEqual, jumpUnlessGreater, jumpUnlessGreaterEqual
    case jumpUnlessEqual, jumpUnlessNotEqual
    /// `s[a] = s[b]`
    case moveString
    /// `s[a] = s[b] + s[c]`
    case concatenate
    /// `s[a]` = the text of number `n[b]` / of bool `n[b]` (string interpolation), as
    /// reports and traces print values.
    case textOfNumber, textOfBool
    /// `n[a] = s[b] == s[c] ? 1 : 0` / `!=`
    case equalStrings, notEqualStrings
    /// String variable `a` = `s[b]`, journalled.
    case storeString
    /// Emits output `Program.emits[a]`.
    case emit
    /// Puts raise site `a`'s event, with its arguments, on the internal queue.
    case raise
    /// Send site `a`: its event, with its arguments, goes on the external queue, now or
    /// after its delay (see `Instance.sendToSelf`).
    case send
    /// Drops the pending sends of event `a`.
    case cancel
    /// `n[a] = 1` when state `b` is active, else 0 (`in(b)`).
    case isActive
    /// Fails with `Program.faults[pc]`'s message (an operation the checker should have
    /// rejected; kept total so the runtime never traps).
    case fail
    /// Saves number variables `a`, `b` and `c` (those not -1) in the journal: the values
    /// they hold before the step's first assignment.
    case save
    /// Cancels the armed timers of state `a`, which is being exited.
    case cancelTimers
    /// Arms the timers of state `a`, just entered (each delay is evaluated now).
    case armTimers
    /// Transition `a` (a `TransitionID` index) fired: the active state becomes `b` (stays
    /// when `b` is -1) and, when `c` is 1, the run ends. Ends the block, which returns `a`.
    case fire
    /// The end of a code block, which returns -1 (for a step's block: no transition fired).
    case end
}

/// Which register file a value lives in.
package enum RegisterKind: Sendable {
    case number, string
}

/// A register of one of the files.
package struct Register: Sendable, Equatable {
    package var file: RegisterKind
    package var index: Int32
}

/// An `emit`: the output and where each argument is.
struct EmitSite: Sendable {
    var output: OutputID
    /// Each argument's register, and whether it is a Bool (delivered as `.bool`).
    var arguments: [(register: Register, isBool: Bool)]
}

/// A `raise`: the event and the register of each argument, in field order.
struct RaiseSite: Sendable {
    var event: EventID
    var arguments: [Register]
}

/// A `send`: the event, the register of each argument in field order, the delay's
/// register (nil: no delay), and where it is written (for a send loop's report).
/// For a send by name (`send "\(kind)"`), `name` is the string register holding the
/// computed name and `event` is unused.
struct SendSite: Sendable {
    var event: EventID
    var name: Register?
    var arguments: [Register]
    var delay: Register?
    var range: SourceRange
}

/// How a failing instruction reports itself.
struct FaultSite: Sendable {
    enum Style: Sendable {
        /// `a / b` inside an expression: "division by zero (7 / 0)".
        case expression
        /// `x /= 0`: "7 / 0 is not a finite number", like any compound assignment.
        case compound
        /// A call of a built-in function.
        case call(BuiltinFunction)
        /// An operator the checker should have refused (on strings, or as an assignment).
        case unsupported(BinaryOp, onStrings: Bool)
    }

    var range: SourceRange
    var style: Style
}
