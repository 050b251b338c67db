import StatecraftDiagnostics
import StatecraftModel

// Actions and expressions as Swift, and the helpers the generated type carries for them.
extension FlatMachineWriter {
    // MARK: - Actions and expressions

    /// The Swift of an action list; `let` values whose value nobody reads are evaluated into `_`.
    mutating func actions(_ list: [Action], fields: Set<String>) {
        var read = Set<Int>()
        for a in list { a.visitExpressions { $0.visit { if case .local(let slot) = $0.kind { read.insert(slot) } } } }
        emit(list, fields: fields, readLocals: read)
    }

    mutating func emit(_ list: [Action], fields: Set<String>, readLocals: Set<Int>) {
        for action in list {
            switch action {
            case .assign(let v, let op, let e, let range):
                let name = "core.\(SwiftName.quoted(machine[v].name))"
                let (code, throwing) = expression(e, fields: fields)
                let value = (throwing ? "try " : "") + code
                switch (op, machine[v].type) {
                case (nil, _):
                    out.line("\(name) = \(value)")
                case (.add?, .string):
                    out.line("\(name) += \(value)")
                case (let op?, .number):
                    out.line("\(name) = try Self.\(arithmeticHelper(op))(\(name), \(code), compound: true, \(site(range)))")
                default:
                    out.line("throw Failure(message: \(SwiftName.literal("'\(op?.rawValue ?? "=")' is not an assignment operator")), line: \(line(range)), column: \(machine.source.location(of: range.start).column))")
                }
            case .emit(let o, let args, _):
                let output = machine[o]
                var parts: [String] = []
                var throwing = false
                for (field, arg) in zip(output.fields, args) {
                    let (code, t) = expression(arg, fields: fields)
                    parts.append("\(SwiftName.label(field.name)): \(code)")
                    throwing = throwing || t
                }
                let value = ".\(SwiftName.quoted(output.name))\(parts.isEmpty ? "" : "(" + parts.joined(separator: ", ") + ")")"
                out.line(throwing ? "pending.append(try \(value))" : "pending.append(\(value))")
            case .setLocal(let slot, let e, _):
                let (code, throwing) = expression(e, fields: fields)
                let lhs = readLocals.contains(slot) ? "let local\(slot)" : "_"
                out.line("\(lhs) = \(throwing ? "try " : "")\(code)")
            case .ifAction(let c, let then, let otherwise, _):
                let (code, throwing) = expression(c, fields: fields)
                out.line("if \(throwing ? "try " : "")\(code) {")
                indentBlock { $0.emit(then, fields: fields, readLocals: readLocals) }
                if otherwise.isEmpty {
                    out.line("}")
                } else {
                    out.line("} else {")
                    indentBlock { $0.emit(otherwise, fields: fields, readLocals: readLocals) }
                    out.line("}")
                }
            case .raise(let e, let args, _):
                // Raised events wait on the internal queue with their payload, evaluated now.
                let event = machine[e]
                var parts: [String] = []
                var throwing = false
                for (field, arg) in zip(event.fields, args) {
                    let (code, t) = expression(arg, fields: fields)
                    parts.append("\(SwiftName.label(field.name)): \(code)")
                    throwing = throwing || t
                }
                let value = ".event(.\(SwiftName.quoted(event.name))\(parts.isEmpty ? "" : "(" + parts.joined(separator: ", ") + ")"))"
                out.line(throwing ? "internalQueue.append(try \(value))" : "internalQueue.append(\(value))")
            case .send(let e, let args, let delay, let range):
                // The arguments, then the delay, are evaluated now; the event waits beside the timers.
                let event = machine[e]
                var parts: [String] = []
                for (field, arg) in zip(event.fields, args) { parts.append("\(SwiftName.label(field.name)): \(expression(arg, fields: fields).0)") }
                let value = ".\(SwiftName.quoted(event.name))\(parts.isEmpty ? "" : "(" + parts.joined(separator: ", ") + ")")"
                let after = delay.map { expression($0, fields: fields).0 } ?? "0"
                let at = machine.source.location(of: range.start)
                out.line("try sendToSelf(\(value), delay: \(after), line: \(at.line), column: \(at.column))")
            case .sendNamed(let name, let delay, let range):
                // The name, then the delay, are evaluated now; `sendToSelf(named:)` looks the
                // event up as the runtime does.
                let value = expression(name, fields: fields).0
                let after = delay.map { expression($0, fields: fields).0 } ?? "0"
                let at = machine.source.location(of: range.start)
                out.line("try sendToSelf(named: \(value), delay: \(after), line: \(at.line), column: \(at.column))")
            case .cancel(let e, _):
                out.line("core.sent.removeAll { if case .\(SwiftName.quoted(machine[e].name)) = $0.event { true } else { false } }")
            }
        }
    }

    /// The most outputs one step can emit (an event's, a timer's, or starting), or nil when
    /// nothing bounds it here: a raised event or a completion can be followed by any number of
    /// microsteps, and so can an eventless phase that does not settle after one transition.
    /// Each microstep is bounded by what its transition runs when its exits and entries are
    /// known ahead, and otherwise by everything every state and transition emits (each runs
    /// once a microstep at most).
    var outputsPerStep: Int? {
        func emits(_ list: [Action]) -> Int {
            list.reduce(0) { n, a in
                switch a {
                case .emit: n + 1
                case .ifAction(_, let then, let otherwise, _): n + Swift.max(emits(then), emits(otherwise))
                default: n
                }
            }
        }
        let anyMicrostep = machine.states.reduce(0) { n, s in
            n + emits(s.entry) + emits(s.exit) + emits(s.initialActions) + emits(s.historyActions)
        } + machine.transitions.reduce(0) { $0 + emits($1.actions) }
        // Each state's exit, counted once: a transition's bound adds those of the states below its domain.
        let exitEmits = machine.states.map { emits($0.exit) }
        func microstep(_ t: Transition) -> Int {
            guard let known = knownSteps(t) else { return anyMicrostep }
            var n = emits(t.actions)
            if let domain = known.domain, domain.index < machine.lastDescendant(domain).index {
                n += exitEmits[(domain.index + 1)...machine.lastDescendant(domain).index].reduce(0, +)
            }
            for s in known.entry { n += emits(machine[s].entry) + emits(known.defaults.actions(after: s, in: machine)) }
            return n
        }
        var phase = 0
        if isChart {
            guard !usesInternalQueue else { return nil }
            if hasAlways {
                guard chartPlan.phaseTakesOne else { return nil }
                phase = machine.transitions.filter { !$0.isBroken && $0.trigger == .always }.map(microstep).max() ?? 0
            }
        }
        let initial = machine.initialEntry
        var most = initial.states.reduce(0) { n, s in n + emits(machine[s].entry) + emits(initial.defaults.actions(after: s, in: machine)) }
        for t in machine.transitions where !t.isBroken && t.trigger != .always { most = Swift.max(most, microstep(t)) }
        // In a statechart an event that can enable two transitions at once takes them in one microstep.
        if isChart && chartPlan.loneEvents.contains(where: { $0 == nil }) { most = Swift.max(most, anyMicrostep) }
        return most + phase
    }

    /// Writes `body`'s lines one level deeper.
    mutating func indentBlock(_ body: (inout FlatMachineWriter) -> Void) {
        out.indent()
        body(&self)
        out.dedent()
    }

    func arithmeticHelper(_ op: BinaryOp) -> String {
        switch op {
        case .add: "add"
        case .subtract: "subtract"
        case .multiply: "multiply"
        case .divide: "divide"
        default: "remainder"
        }
    }

    /// Where an expression's Swift stands, which decides how it names what lies outside it.
    enum ExpressionPlace {
        /// In the machine type's own file: its storage, the chart's bit set of active states,
        /// and its private arithmetic helpers, whose failure names the spec position.
        case machineType
        /// In an extension of the type in another file of its module (the harness's property
        /// checks): `in(s)` asks `isActive`, and arithmetic goes to `helpers`' functions of the
        /// same names, whose failure names the spec text of the expression that failed.
        case outside(helpers: String)
    }

    /// The Swift of an expression, and whether evaluating it can throw. The code has no `try`
    /// of its own: one `try` before a whole expression covers every call in it, and Swift
    /// allows no `try` to the right of an operator.
    func expression(_ e: Expr, fields: Set<String>, at place: ExpressionPlace = .machineType) -> (String, Bool) {
        func expression(_ e: Expr, fields: Set<String>) -> (String, Bool) { self.expression(e, fields: fields, at: place) }
        /// A helper call's last arguments: the failing expression's position, or its text.
        func site(_ range: SourceRange) -> String {
            switch place {
            case .machineType: self.site(range)
            case .outside: SwiftName.literal(machine.text(range))
            }
        }
        let helpers = switch place {
        case .machineType: "Self"
        case .outside(let helpers): helpers
        }
        switch e.kind {
        case .literal(let v): return (literal(v), false)
        case .pi: return ("Double.pi", false)
        case .constant(let id): return ("Self.\(SwiftName.quoted(machine.constants[id.index].name))", false)
        case .variable(let id): return ("core.\(SwiftName.quoted(machine[id].name))", false)
        case .field(let name): return fields.contains(name) ? (SwiftName.quoted(name), false) : (literal(e.type.zero), false)
        case .local(let slot): return ("local\(slot)", false)
        case .inState(let s):
            switch place {
            case .machineType: return ("core.active.contains(\(s.index))", false)
            // (A spec cannot name the machine itself, which has no case of `State`; it would be
            // active in every stable configuration.)
            case .outside: return (s == machine.root ? "true" : "isActive(.\(stateName(s)))", false)
            }
        case .invalid: return (literal(e.type.zero), false)
        case .unary(.not, let x):
            let (c, t) = expression(x, fields: fields)
            return ("!\(c)", t)
        case .unary(.negate, let x):
            let (c, t) = expression(x, fields: fields)
            return ("-\(c)", t)
        case .binary(let op, let l, let r):
            // A left operand made of literals decides here, as it does at run time: Swift
            // rejects `true ? true : x` for its unreachable `x` (warnings are errors in an app
            // that builds that way). A constant right operand is no such case: the left one is
            // still evaluated, and may fail.
            if op == .and || op == .or, case .bool(let decided)? = l.folded(constants: []) {
                if decided == (op == .or) { return (decided ? "true" : "false", false) }
                return expression(r, fields: fields)
            }
            let (a, ta) = expression(l, fields: fields)
            let (b, tb) = expression(r, fields: fields)
            switch op {
            // The right operand is evaluated only when it decides; a conditional, not `&&`,
            // whose autoclosure would not take a typed throw.
            case .and: return ("(\(a) ? \(b) : false)", ta || tb)
            case .or: return ("(\(a) ? true : \(b))", ta || tb)
            // Against the empty string, `isEmpty`: a length test, where `==` is Unicode's
            // comparison (a call, and for emoji its slow path). Nothing else equals "".
            case .equal where isEmptyString(l) || isEmptyString(r), .notEqual where isEmptyString(l) || isEmptyString(r):
                let other = isEmptyString(r) ? a : b
                return ("(\(op == .equal ? "" : "!")\(other).isEmpty)", ta || tb)
            case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual:
                return ("(\(a) \(op.rawValue) \(b))", ta || tb)
            case .add where l.type == .string:
                return ("(\(a) + \(b))", ta || tb)
            case .add, .subtract, .multiply, .divide, .remainder:
                if cannotFail(op, l, r) {
                    return (op == .remainder ? "(\(a)).truncatingRemainder(dividingBy: \(b))" : "(\(a) \(op.rawValue) \(b))", ta || tb)
                }
                return ("\(helpers).\(arithmeticHelper(op))(\(a), \(b), compound: false, \(site(e.range)))", true)
            }
        case .conditional(let c, let t, let f):
            if case .bool(let decided)? = c.folded(constants: []) { return expression(decided ? t : f, fields: fields) }
            let (cc, tc) = expression(c, fields: fields)
            let (tt, tt2) = expression(t, fields: fields)
            let (ff, tf) = expression(f, fields: fields)
            return ("(\(cc) ? \(tt) : \(ff))", tc || tt2 || tf)
        case .call(let f, let args):
            let parts = args.map { expression($0, fields: fields) }
            let list = parts.map(\.0)
            let throwing = parts.contains { $0.1 }
            switch f {
            case .min: return ("Swift.min(\(list.joined(separator: ", ")))", throwing)
            case .max: return ("Swift.max(\(list.joined(separator: ", ")))", throwing)
            case .abs: return ("Swift.abs(\(list[0]))", throwing)
            case .floor: return ("(\(list[0])).rounded(.down)", throwing)
            case .ceil: return ("(\(list[0])).rounded(.up)", throwing)
            case .round: return ("(\(list[0])).rounded(.toNearestOrAwayFromZero)", throwing)
            case .sqrt: return ("\(helpers).squareRoot(\(list[0]), \(site(e.range)))", true)
            case .atan2: return ("atan2(\(list[0]), \(list[1]))", throwing)
            }
        case .text(let x):
            let (c, t) = expression(x, fields: fields)
            switch x.type {
            case .number: return ("Self.text(\(c))", t)
            case .bool: return ("(\(c) ? \"true\" : \"false\")", t)
            case .string: return (c, t)
            }
        }
    }

    /// Whether `l op r` is a finite number whatever the values: two constants whose result is,
    /// or finite operands and a constant that keeps the result in range (`x / c` with |c| ≥ 1,
    /// `x * c` with |c| ≤ 1, `x % c` with c ≠ 0). The runtime's check could never fail there,
    /// so none is written.
    func cannotFail(_ op: BinaryOp, _ l: Expr, _ r: Expr) -> Bool {
        if let a = constantNumber(l), let b = constantNumber(r) {
            // Two constants: the result is known now.
            let result: Double
            switch op {
            case .add: result = a + b
            case .subtract: result = a - b
            case .multiply: result = a * b
            case .divide: result = a / b
            default: result = a.truncatingRemainder(dividingBy: b)
            }
            return result.isFinite
        }
        switch op {
        case .divide:
            if let c = constantNumber(r) { return c.magnitude >= 1 && isFinite(l) }
        case .remainder:
            if let c = constantNumber(r) { return c != 0 && isFinite(l) }
        case .multiply:
            if let c = constantNumber(r), c.magnitude <= 1 { return isFinite(l) }
            if let c = constantNumber(l), c.magnitude <= 1 { return isFinite(r) }
        default:
            break
        }
        return false
    }

    /// The finite number `e` always is (a literal, a constant, pi), if it is one.
    func constantNumber(_ e: Expr) -> Double? {
        switch e.kind {
        case .literal(.number(let n)): n.isFinite ? n : nil
        case .constant(let id):
            if case .number(let n) = machine.constants[id.index].value, n.isFinite { n } else { nil }
        case .pi: .pi
        default: nil
        }
    }

    /// Whether `e` is the empty string, written out.
    func isEmptyString(_ e: Expr) -> Bool {
        if case .string("")? = e.folded(constants: []) { true } else { false }
    }

    /// Whether `e`'s value is always finite: constants, and what is computed from them and
    /// from arithmetic (whose result is checked, or finite as `cannotFail` shows). A payload
    /// field, a variable or a local may hold any number.
    func isFinite(_ e: Expr) -> Bool {
        switch e.kind {
        case .literal, .constant, .pi:
            return constantNumber(e) != nil
        case .binary(let op, _, _):
            return e.type == .number && [.add, .subtract, .multiply, .divide, .remainder].contains(op)
        case .unary(.negate, let x):
            return isFinite(x)
        case .call(let f, let args):
            switch f {
            case .min, .max, .abs, .floor, .ceil, .round: return args.allSatisfy(isFinite)
            case .sqrt: return true
            case .atan2: return false
            }
        case .conditional(_, let t, let f):
            return isFinite(t) && isFinite(f)
        default:
            return false
        }
    }

    // MARK: - Helpers in the generated type

    mutating func helpers() {
        if machine.outputs.isEmpty {
            // (`Output` has no case: code that handles one would never be executed, a warning.)
            out.doc("Hands the step's outputs to `emit`: this machine has none.")
            out.line("private mutating func deliver(_ emit: (Output) -> Void) {}")
            out.line()
            out.doc("The outputs of the step under way: this machine has none, so it stays empty.")
            out.open("private struct OutputQueue: Sendable, Hashable")
                out.line("var isEmpty: Bool { true }")
                out.line("var all: [Output] { [] }")
                out.line("mutating func append(_ output: Output) {}")
                out.line("mutating func removeAll() {}")
            out.close()
            out.line()
        } else if let most = outputsPerStep, most <= 1 {
            // No step emits more than one output: one slot holds them, with no list to keep
            // (and copy with the machine).
            out.doc("Hands the step's output, if any, to `emit`. (It waits in `pending` until the step succeeds:\na failing step emits nothing. Out of line: most steps emit nothing.)")
            out.line("@inline(never)")
            out.open("private mutating func deliver(_ emit: (Output) -> Void)")
                out.line("if let first = pending.first { emit(first) }")
                out.line("pending.removeAll()")
            out.close()
            out.line()
            out.doc("The output of the step under way: no step of this machine emits more than one.")
            out.open("private struct OutputQueue: Sendable, Hashable")
                out.line("var first: Output?")
                out.line("var isEmpty: Bool { first == nil }")
                out.line("var all: [Output] { first.map { [$0] } ?? [] }")
                out.line("@inline(__always) mutating func append(_ output: Output) { first = output }")
                out.line("@inline(__always) mutating func removeAll() { first = nil }")
            out.close()
            out.line()
        } else {
            out.doc("Hands the step's outputs to `emit`, in order. (Outputs wait in `pending` until the step\nsucceeds: a failing step emits nothing. Out of line: most steps emit nothing.)")
            out.line("@inline(never)")
            out.open("private mutating func deliver(_ emit: (Output) -> Void)")
                out.line("if let first = pending.first { emit(first) }")
                out.line("for output in pending.rest { emit(output) }")
                out.line("pending.removeAll()")
            out.close()
            out.line()
            // Most steps emit one output or none: a slot of its own makes that a store and a
            // test, where an array's append and empty cost a uniqueness check and a call each.
            out.doc("The outputs of the step under way, in order: the first in a slot of its own (most steps\nemit one at most), the others after it.")
            out.open("private struct OutputQueue: Sendable, Hashable")
                out.line("var rest: [Output] = []")
                out.line("var first: Output?")
                out.line("var isEmpty: Bool { first == nil }")
                out.line("var all: [Output] { first.map { [$0] + rest } ?? [] }")
                out.line("@inline(__always)")
                out.open("mutating func append(_ output: Output)")
                    out.line("if first == nil { first = output } else { rest.append(output) }")
                out.close()
                out.line("@inline(__always)")
                out.open("mutating func removeAll()")
                    out.line("first = nil")
                    out.line("if !rest.isEmpty { rest.removeAll(keepingCapacity: true) }")
                out.close()
            out.close()
            out.line()
        }
        out.line("// MARK: - Arithmetic as the runtime does it: a result that is not a finite number fails")
        out.line("// (`abs(result) <= greatestFiniteMagnitude` is `isFinite` in two instructions, not six:")
        out.line("// NaN compares false.)")
        out.line()
        let ops: [(String, String, String)] = [("add", "+", "a + b"), ("subtract", "-", "a - b"), ("multiply", "*", "a * b"),
                                               ("divide", "/", "a / b"), ("remainder", "%", "a.truncatingRemainder(dividingBy: b)")]
        for (name, symbol, formula) in ops {
            out.line("@inline(__always)")
            out.open("private static func \(name)(_ a: Double, _ b: Double, compound: Bool, _ line: Int, _ column: Int) throws(Failure) -> Double")
                out.line("let result = \(formula)")
                out.line("if Swift.abs(result) <= .greatestFiniteMagnitude { return result }")
                out.line("throw Failure.arithmetic(a, \(SwiftName.literal(symbol)), b, compound: compound, line, column)")
            out.close()
            out.line()
        }
        if !timers.isEmpty || sendsEvents {
            out.doc("Whether a timer armed at `now` with `delay` (> 0) seconds gets a deadline that means its delay\n(as the runtime's `Instance.deadlineHolds`: Knuth's two-sum gives the rounding error exactly).")
            out.open("private static func deadlineHolds(at now: Double, after delay: Double) -> Bool")
            out.line("let sum = now + delay")
            out.line("// Below 2^32 the sum rounds by at most 2^-21 s: the common case needs no more.")
            out.line("if Swift.abs(sum) < 4_294_967_296 { return true }")
            out.line("guard sum.isFinite else { return false }")
            out.line("let delayPart = sum - now")
            out.line("let nowPart = sum - delayPart")
            out.line("let error = Swift.abs((now - nowPart) + (delay - delayPart))")
            out.line("return error <= 0.001 || error <= delay / 1000")
            out.close()
            out.line()
        }
        if calledFunctions.contains(.sqrt) {
            out.open("private static func squareRoot(_ a: Double, _ line: Int, _ column: Int) throws(Failure) -> Double")
            out.line("let result = a.squareRoot()")
            out.line("if result.isFinite { return result }")
            out.line("throw Failure(message: \"'sqrt' of \\(text(a)) is not a finite number\", line: line, column: column)")
            out.close()
            out.line()
        }
        out.doc("A number as text: whole numbers below 10^15 without a fraction, others as Swift's shortest\nround-trip form (as the runtime writes them).")
        out.open("static func text(_ n: Double) -> String")
            out.line("if n.isFinite && Swift.abs(n) < 1e15 && Double(Int64(n)) == n { return String(Int64(n)) }")
            out.line("return \"\\(n)\"")
        out.close()
    }
}
