import Foundation
import Statecraft
import Testing
import TestSupport

/// The register code the runtime executes against the model's own arithmetic: random
/// expressions over variables run as compiled code, and the same expressions with the
/// variables written as literals are folded by the model (`Expr.folded`, which uses
/// `Arithmetic`). Both must give the same value, or both must fail.
@Suite struct RegisterCodeTests {
    struct ExpressionMaker {
        var rng: SeededGenerator
        let values: [String: String]

        /// A Number expression; `literal` writes variables as their values.
        mutating func number(depth: Int) -> (code: String, literal: String) {
            if depth == 0 || Int.random(in: 0..<4, using: &rng) == 0 { return leaf() }
            switch Int.random(in: 0..<6, using: &rng) {
            case 0:
                let x = number(depth: depth - 1)
                return ("-(\(x.code))", "-(\(x.literal))")
            case 1, 2:
                let op = ["+", "-", "*", "/", "%"].randomElement(using: &rng) ?? "+"
                let l = number(depth: depth - 1), r = number(depth: depth - 1)
                return ("(\(l.code) \(op) \(r.code))", "(\(l.literal) \(op) \(r.literal))")
            case 3:
                let f = ["min", "max", "atan2"].randomElement(using: &rng) ?? "min"
                let l = number(depth: depth - 1), r = number(depth: depth - 1)
                var args = [l, r]
                if f != "atan2" && Bool.random(using: &rng) { args.append(number(depth: depth - 1)) }
                return ("\(f)(\(args.map(\.code).joined(separator: ", ")))", "\(f)(\(args.map(\.literal).joined(separator: ", ")))")
            case 4:
                let f = ["abs", "sqrt", "floor", "ceil", "round"].randomElement(using: &rng) ?? "abs"
                let x = number(depth: depth - 1)
                return ("\(f)(\(x.code))", "\(f)(\(x.literal))")
            default:
                let c = condition(depth: depth - 1), t = number(depth: depth - 1), e = number(depth: depth - 1)
                return ("(\(c.code) ? \(t.code) : \(e.code))", "(\(c.literal) ? \(t.literal) : \(e.literal))")
            }
        }

        mutating func condition(depth: Int) -> (code: String, literal: String) {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                return Bool.random(using: &rng) ? ("p", values["p"] ?? "true") : ("!p", "!" + (values["p"] ?? "true"))
            case 1:
                let l = condition(depth: max(0, depth - 1)), r = condition(depth: max(0, depth - 1))
                let op = Bool.random(using: &rng) ? "&&" : "||"
                return ("(\(l.code) \(op) \(r.code))", "(\(l.literal) \(op) \(r.literal))")
            default:
                let op = ["<", "<=", ">", ">=", "==", "!="].randomElement(using: &rng) ?? "<"
                let l = number(depth: max(0, depth - 1)), r = number(depth: max(0, depth - 1))
                return ("(\(l.code) \(op) \(r.code))", "(\(l.literal) \(op) \(r.literal))")
            }
        }

        mutating func leaf() -> (code: String, literal: String) {
            if Bool.random(using: &rng) {
                let name = ["a", "b", "c"].randomElement(using: &rng) ?? "a"
                return (name, "(\(values[name] ?? "0"))")
            }
            let literal = ["0", "1", "2", "0.5", "3.25", "7", "1e300"].randomElement(using: &rng) ?? "1"
            return (literal, literal)
        }
    }

    static func machine(_ expression: String, _ values: [String: String], into target: String = "out") -> String {
        """
        machine T {
            public var a: Number = \(values["a"] ?? "0")
            public var b: Number = \(values["b"] ?? "0")
            public var c: Number = \(values["c"] ?? "0")
            public var p: Bool = \(values["p"] ?? "true")
            public var out: Number = -1
            event go
            initial state s { on go { \(target) = \(expression) } }
        }
        """
    }

    /// Random starting values for a, b, c and p, and a random expression over them.
    static func randomExpression(_ rng: inout SeededGenerator) -> (e: (code: String, literal: String), values: [String: String]) {
        let values = ["a": ["0", "-2", "3.5", "10"].randomElement(using: &rng) ?? "0",
                      "b": ["0", "1", "-0.25"].randomElement(using: &rng) ?? "0",
                      "c": ["4", "-7", "1e300"].randomElement(using: &rng) ?? "4",
                      "p": Bool.random(using: &rng) ? "true" : "false"]
        var maker = ExpressionMaker(rng: rng, values: values)
        let e = maker.number(depth: 4)
        rng = maker.rng
        return (e, values)
    }

    /// `target` after `go`, or nil when the step failed (then every variable must be as it was).
    static func run(_ source: String, _ target: String = "out") throws -> Double? {
        var instance = Instance(try program(source: source))
        _ = instance.start()
        let before = instance.variables
        guard let step = instance.send("go"), case .applied = step.result else {
            #expect(instance.variables == before, "a failed step left changes behind")
            return nil
        }
        guard case .number(let n)? = instance.value(of: target) else { return nil }
        return n
    }

    @Test func compiledCodeAgreesWithTheModelsArithmetic() throws {
        var rng = SeededGenerator(seed: 2026)
        var compared = 0, failedBoth = 0
        for _ in 0..<300 {
            let (e, values) = RegisterCodeTests.randomExpression(&rng)
            let compiled = try RegisterCodeTests.run(RegisterCodeTests.machine(e.code, values))
            let folded = try RegisterCodeTests.run(RegisterCodeTests.machine(e.literal, values))
            #expect(compiled == folded, "\(e.code) with \(values): compiled \(compiled as Any), folded \(folded as Any)")
            compared += 1
            if compiled == nil { failedBoth += 1 }
        }
        // The generator must exercise both outcomes.
        #expect(compared == 300)
        #expect(failedBoth > 10 && failedBoth < 200)
    }

    /// `&&` and `||` read their left operand first, even when the right one is a constant
    /// that decides the result: a left operand that fails fails the step, as the reference
    /// evaluator and the generated code have it. A constant left operand still decides alone.
    @Test func aConstantRightOperandDoesNotSkipAFailingLeftOne() throws {
        let failing = ["(a / b > 1 || true) ? 1 : 2", "(a / b > 1 && false) ? 1 : 2", "(sqrt(a - 20) > 1 || true) ? 1 : 2"]
        for e in failing {
            #expect(try RegisterCodeTests.run(RegisterCodeTests.machine(e, ["a": "10", "b": "0"])) == nil, "\(e) with b = 0")
            #expect(try RegisterCodeTests.run(RegisterCodeTests.machine(e, ["a": "30", "b": "2"])) != nil, "\(e) with b = 2")
        }
        let decidedByTheLeft = ["(true || a / b > 1) ? 1 : 2", "(false && a / b > 1) ? 1 : 2"]
        for e in decidedByTheLeft {
            #expect(try RegisterCodeTests.run(RegisterCodeTests.machine(e, ["a": "10", "b": "0"])) != nil, "\(e) with b = 0")
        }
    }

    /// An assignment computes straight into its variable: the expression may read that
    /// variable anywhere, and must still see its old value.
    @Test func anAssignmentThatReadsItsOwnVariableSeesTheOldValue() throws {
        var rng = SeededGenerator(seed: 1122)
        var selfReading = 0
        for _ in 0..<300 {
            let (e, values) = RegisterCodeTests.randomExpression(&rng)
            if e.code.contains("a") { selfReading += 1 }
            let compiled = try RegisterCodeTests.run(RegisterCodeTests.machine(e.code, values, into: "a"), "a")
            let folded = try RegisterCodeTests.run(RegisterCodeTests.machine(e.literal, values, into: "a"), "a")
            #expect(compiled == folded, "a = \(e.code) with \(values): compiled \(compiled as Any), folded \(folded as Any)")
        }
        #expect(selfReading > 100)
    }

    @Test func shapesThatWriteTheirDestinationEarlyStillReadTheOldValue() throws {
        // min/max of more than two arguments, conditionals, && and ||, compound assignment
        // and locals, each reading the variable being assigned.
        let cases: [(String, Double)] = [
            ("x = min(5, 9, x)", 3), ("x = max(x, 1, x * 2)", 6), ("x = y - x", 7),
            ("x = x > 2 ? x * 10 : x", 30), ("x = x < 2 ? 0 : x + y", 13),
            ("x -= x * 2", -3), ("x = -x", -3), ("let t = x + 1; x = t * x", 12),
            ("f = f || x > 2; x = f ? x : 0", 3), ("f = x > 5 && f; x = f ? 1 : x", 3),
        ]
        for (actions, expected) in cases {
            let source = """
                machine T {
                    public var x: Number = 3
                    public var y: Number = 10
                    public var f: Bool = false
                    event go
                    initial state s { on go { \(actions) } }
                }
                """
            #expect(try RegisterCodeTests.run(source, "x") == expected, "\(actions)")
        }
    }
}
