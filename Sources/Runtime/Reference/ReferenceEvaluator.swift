#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import StatecraftDiagnostics
import StatecraftModel

/// Evaluates model expressions and runs actions by walking the tree: the plain meaning of
/// the language, which the compiled register code must agree with (see `ReferenceStepper`).
///
/// Faults are the ones the compiled code reports, with the same reasons and ranges, so a
/// differential test can compare failures too.
struct ReferenceEvaluator {
    let machine: Machine
    let constants: [Value]
    /// The variables, by `VariableID` index.
    var variables: [Value]
    /// The triggering event's payload by field name (empty for eventless steps).
    var payload: [String: Value] = [:]
    /// `let` values of the action list being run, by slot.
    var locals: [Value] = []
    /// Whether a state is active (`in(x)`).
    var isActive: (StateID) -> Bool = { _ in false }
    /// What the actions emitted and raised, in order.
    var emitted: [(OutputID, [Value])] = []
    var raised: [(EventID, [Value])] = []
    /// What the actions sent (with the delay in seconds) and cancelled, in order.
    enum SendEffect {
        case send(EventID, [Value], delay: Double?, range: SourceRange)
        case cancel(EventID)
    }
    var sendEffects: [SendEffect] = []
    /// The events pending on the external queue (one entry per pending send), kept up to
    /// date by the actions' sends and cancels so that a send beyond the limit fails where
    /// it is written, as in the runtime.
    var pendingSent: [EventID] = []
    static let pendingSentLimit = 100

    /// The names a send by name looks events up by (those of a log).
    let logNames: LogNameTable

    init(machine: Machine) {
        self.machine = machine
        logNames = LogNameTable(machine)
        constants = machine.constantValues
        variables = machine.variables.map(\.initialValue)
    }

    func evaluate(_ e: Expr) throws(ExpressionFault) -> Value {
        switch e.kind {
        case .literal(let v): return v
        case .pi: return .number(Double.pi)
        case .constant(let id): return constants[id.index]
        case .variable(let id): return variables[id.index]
        case .field(let name): return payload[name] ?? e.type.zero
        case .local(let slot): return slot < locals.count ? locals[slot] : e.type.zero
        case .inState(let s): return .bool(isActive(s))
        case .invalid: return e.type.zero
        case .unary(.not, let x): return .bool(!(try bool(x)))
        case .unary(.negate, let x): return .number(-(try number(x)))
        case .binary(.and, let l, let r): return .bool(try bool(l) ? try bool(r) : false)
        case .binary(.or, let l, let r): return .bool(try bool(l) ? true : try bool(r))
        case .binary(let op, let l, let r):
            let a = try evaluate(l), b = try evaluate(r)
            return try Self.apply(op, a, b, range: e.range, compound: false)
        case .conditional(let c, let t, let f):
            return try bool(c) ? try evaluate(t) : try evaluate(f)
        case .call(let f, let args):
            var numbers: [Double] = []
            for a in args { numbers.append(try number(a)) }
            guard let result = Arithmetic.call(f, numbers) else {
                throw ExpressionFault(.function(f, numbers.first ?? 0, f == .atan2 && numbers.count > 1 ? numbers[1] : 0),
                                      range: e.range)
            }
            return .number(result)
        case .text(let x): return .string(try evaluate(x).text)
        }
    }

    private func bool(_ e: Expr) throws(ExpressionFault) -> Bool {
        if case .bool(let b) = try evaluate(e) { return b }
        return false
    }

    private func number(_ e: Expr) throws(ExpressionFault) -> Double {
        if case .number(let n) = try evaluate(e) { return n }
        return 0
    }

    /// `a op b`; an arithmetic result that is not a finite number fails as the compiled
    /// code does: a zero divisor inside an expression is "division by zero", anything else
    /// (and every compound assignment) "is not a finite number".
    static func apply(_ op: BinaryOp, _ a: Value, _ b: Value, range: SourceRange, compound: Bool) throws(ExpressionFault) -> Value {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            switch op {
            case .less, .lessEqual, .greater, .greaterEqual, .equal, .notEqual:
                return .bool(Arithmetic.compare(op, x, y))
            case .and, .or:
                throw ExpressionFault(.unsupported(op, onStrings: false), range: range)
            case .add, .subtract, .multiply, .divide, .remainder:
                if let r = Arithmetic.arithmetic(op, x, y) { return .number(r) }
                if !compound && y == 0 && (op == .divide || op == .remainder) {
                    throw ExpressionFault(.byZero(op, x), range: range)
                }
                throw ExpressionFault(.notFinite(op, x, y), range: range)
            }
        case (.string(let x), .string(let y)):
            switch op {
            case .add: return .string(x + y)
            case .equal: return .bool(x == y)
            case .notEqual: return .bool(x != y)
            default: throw ExpressionFault(.unsupported(op, onStrings: true), range: range)
            }
        case (.bool(let x), .bool(let y)):
            switch op {
            case .equal: return .bool(x == y)
            case .notEqual: return .bool(x != y)
            default: throw ExpressionFault(.unsupported(op, onStrings: false), range: range)
            }
        default:
            throw ExpressionFault(.unsupported(op, onStrings: false), range: range)
        }
    }

    /// Runs an action list with fresh `let` slots.
    mutating func run(_ actions: [Action]) throws(ExpressionFault) {
        let saved = locals
        locals = []
        defer { locals = saved }
        try runNested(actions)
    }

    private mutating func runNested(_ actions: [Action]) throws(ExpressionFault) {
        for action in actions {
            switch action {
            case .assign(let v, let op, let e, let range):
                let value = try evaluate(e)
                if let op {
                    variables[v.index] = try Self.apply(op, variables[v.index], value, range: range, compound: true)
                } else {
                    variables[v.index] = value
                }
            case .emit(let output, let args, _):
                var values: [Value] = []
                for a in args { values.append(try evaluate(a)) }
                emitted.append((output, values))
            case .raise(let event, let args, _):
                var values: [Value] = []
                for a in args { values.append(try evaluate(a)) }
                raised.append((event, values))
            case .send(let event, let args, let delay, let range):
                var values: [Value] = []
                for a in args { values.append(try evaluate(a)) }
                var seconds: Double?
                if let delay, case .number(let d) = try evaluate(delay) { seconds = d }
                guard pendingSent.count < Self.pendingSentLimit else {
                    throw ExpressionFault(.tooManySent(limit: Self.pendingSentLimit), range: range)
                }
                pendingSent.append(event)
                sendEffects.append(.send(event, values, delay: seconds, range: range))
            case .sendNamed(let name, let delay, let range):
                guard case .string(let text) = try evaluate(name) else { break }
                var seconds: Double?
                if let delay, case .number(let d) = try evaluate(delay) { seconds = d }
                guard pendingSent.count < Self.pendingSentLimit else {
                    throw ExpressionFault(.tooManySent(limit: Self.pendingSentLimit), range: range)
                }
                guard let event = logNames.event(text) else {
                    throw ExpressionFault(.unknownEventName(FaultText(text)), range: range)
                }
                guard machine.events[event.index].fields.isEmpty else {
                    throw ExpressionFault(.eventNameHasFields(FaultText(text)), range: range)
                }
                pendingSent.append(event)
                sendEffects.append(.send(event, [], delay: seconds, range: range))
            case .cancel(let event, _):
                pendingSent.removeAll { $0 == event }
                sendEffects.append(.cancel(event))
            case .setLocal(let slot, let e, _):
                let value = try evaluate(e)
                if slot >= locals.count { locals.append(contentsOf: Array(repeating: value, count: slot + 1 - locals.count)) }
                locals[slot] = value
            case .ifAction(let c, let then, let otherwise, _):
                try runNested(try bool(c) ? then : otherwise)
            }
        }
    }
}
