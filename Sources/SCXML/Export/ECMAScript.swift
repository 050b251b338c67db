import StatecraftModel

/// Writes resolved expressions as ECMAScript, the language of an SCXML document with
/// `datamodel="ecmascript"`.
///
/// The result means what the expression means in the language, with three exceptions that
/// ECMAScript cannot express without a runtime library: division and remainder by zero give
/// `Infinity` or `NaN` there instead of failing the step, a function whose result is not
/// finite (`sqrt(-1)`) gives `NaN`, and numbers in string interpolation use ECMAScript's
/// `String(n)`, which differs from ours only for magnitudes below 10^-6 or from 10^21 up.
struct ECMAScript {
    /// How tightly an expression binds: a child is parenthesised when its level is lower than
    /// its place requires. The language's levels are ECMAScript's, in the same order.
    enum Level: Int, Comparable {
        case conditional = 1, or, and, equality, relational, additive, multiplicative, unary, primary

        static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    let machine: Machine
    /// The data item each `let` slot of the action list being written is stored in.
    let locals: [Int: String]

    init(machine: Machine, locals: [Int: String] = [:]) {
        self.machine = machine
        self.locals = locals
    }

    /// `e` as an ECMAScript expression.
    func text(_ e: Expr) -> String { write(e).text }

    /// `e` where a place requires at least `level`: parenthesised when it binds looser.
    func text(_ e: Expr, atLeast level: Level) -> String {
        let (text, own) = write(e)
        return own < level ? "(" + text + ")" : text
    }

    private func write(_ e: Expr) -> (text: String, level: Level) {
        switch e.kind {
        case .literal(let value): return literal(value)
        case .pi: return ("Math.PI", .primary)
        case .constant(let id): return (machine[id].name, .primary)
        case .variable(let id): return (machine[id].name, .primary)
        case .field(let name): return ("_event.data." + name, .primary)
        case .local(let slot): return (locals[slot] ?? SCXMLNames.localFallback(slot), .primary)
        case .inState(let s): return ("In(" + Self.string(machine[s].name) + ")", .primary)
        case .invalid: return ("undefined", .primary)
        case .unary(let op, let operand):
            var inner = text(operand, atLeast: .unary)
            // `- -x`, never `--x` (a decrement).
            if op == .negate && inner.hasPrefix("-") { inner = "(" + inner + ")" }
            return (op.rawValue + inner, .unary)
        case .text(let inner):
            // Interpolation alone: '' + (x) makes it a string whatever x is.
            return ("'' + (" + text(inner) + ")", .additive)
        case .binary(let op, let l, let r):
            return binary(op, l, r, isString: e.type == .string)
        case .conditional(let c, let t, let f):
            return (text(c, atLeast: .or) + " ? " + text(t, atLeast: .conditional) + " : "
                    + text(f, atLeast: .conditional), .conditional)
        case .call(let f, let args):
            return (call(f, args), .primary)
        }
    }

    private func binary(_ op: BinaryOp, _ l: Expr, _ r: Expr, isString: Bool) -> (text: String, level: Level) {
        let level = Self.level(op)
        let symbol: String
        switch op {
        case .equal: symbol = "==="        // our equality compares values of one type
        case .notEqual: symbol = "!=="
        default: symbol = op.rawValue
        }
        if isString && op == .add {
            // Interpolation pieces: 'a' + (x) + 'b'. A leading piece is converted on its own
            // so that two numbers in a row are joined, not added.
            let left: String
            if case .text(let inner) = l.kind {
                left = "'' + (" + text(inner) + ")"
            } else {
                left = text(l, atLeast: .additive)
            }
            let right: String
            if case .text(let inner) = r.kind {
                right = "(" + text(inner) + ")"
            } else {
                right = text(r, atLeast: .multiplicative)
            }
            return (left + " + " + right, .additive)
        }
        // Left-associative: the right operand of the same level is parenthesised.
        let right = Level(rawValue: level.rawValue + 1) ?? .primary
        return (text(l, atLeast: level) + " " + symbol + " " + text(r, atLeast: right), level)
    }

    private func call(_ f: BuiltinFunction, _ args: [Expr]) -> String {
        switch f {
        case .round:
            // Math.round rounds halves up (-2.5 to -2); ours rounds them away from zero.
            guard let x = args.first else { return "NaN" }
            let operand = text(x, atLeast: .unary)
            let relational = text(x, atLeast: .relational)
            let negated = operand.hasPrefix("-") ? "(" + operand + ")" : operand
            return "(" + relational + " < 0 ? -Math.round(-" + negated + ") : Math.round(" + text(x) + "))"
        default:
            return "Math." + f.rawValue + "(" + args.map { text($0) }.joined(separator: ", ") + ")"
        }
    }

    private func literal(_ value: Value) -> (text: String, level: Level) {
        switch value {
        case .bool(let b): return (b ? "true" : "false", .primary)
        case .string(let s): return (Self.string(s), .primary)
        case .number(let n):
            let text = Self.number(n)
            return (text, text.hasPrefix("-") ? .unary : .primary)
        }
    }

    static func level(_ op: BinaryOp) -> Level {
        switch op {
        case .or: .or
        case .and: .and
        case .equal, .notEqual: .equality
        case .less, .lessEqual, .greater, .greaterEqual: .relational
        case .add, .subtract: .additive
        case .multiply, .divide, .remainder: .multiplicative
        }
    }

    /// A number in its shortest round-trip form (`10`, `0.7`, `-617`, `1e-07`), which is
    /// also an ECMAScript numeric literal.
    static func number(_ n: Double) -> String {
        if n.isNaN { return "NaN" }
        if n.isInfinite { return n < 0 ? "-Infinity" : "Infinity" }
        return Value.number(n).description
    }

    /// A single-quoted ECMAScript string literal for `s`.
    static func string(_ s: String) -> String {
        var out = "'"
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                // Other control characters, and the two line terminators that end a string
                // literal in older ECMAScript, as \u escapes.
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "'"
    }
}
