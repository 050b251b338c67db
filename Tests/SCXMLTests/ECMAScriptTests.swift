import Foundation
import Statecraft
import Testing

/// Expressions as ECMAScript: our precedence kept with the fewest parentheses, typed
/// equality, functions from `Math`, interpolation that joins rather than adds.
@Suite struct ECMAScriptTests {
    /// The `expr` of the assignment `target = source` exported from a one-state machine.
    static func exported(_ source: String, to target: String = "n") throws -> String {
        let spec = """
            machine M {
                const k = 2
                var n: Number = 0
                var b: Bool = false
                var s: String = ""
                event e(x: Number, t: String)
                initial state a { on e { \(target) = \(source) } }
                state other
            }
            """
        let machine = try #require(Statecraft.check(source: spec, path: "m.machine", bounds: nil).machine, "\(source)")
        let root = try #require(XMLNode.parse(SCXMLWriter.document(for: machine, source: nil)))
        return try #require(root.all.first { $0.name == "assign" }?.attributes["expr"])
    }

    @Test(arguments: [
        ("n + k * x", "n + k * _event.data.x"),
        ("(n + k) * x", "(n + k) * _event.data.x"),
        ("n - (k - x)", "n - (k - _event.data.x)"),
        ("n - k - x", "n - k - _event.data.x"),
        ("-(n + 1)", "-(n + 1)"),
        ("-(-n)", "-(-n)"),
        ("n % k / x", "n % k / _event.data.x"),
        ("n / (k % x)", "n / (k % _event.data.x)"),
        ("min(n, k, x) + max(1, 2) + abs(n) + sqrt(k) + floor(n) + ceil(n) + atan2(n, k)",
         "Math.min(n, k, _event.data.x) + Math.max(1, 2) + Math.abs(n) + Math.sqrt(k) + Math.floor(n) + Math.ceil(n) + Math.atan2(n, k)"),
        ("round(n + 1)", "(n + 1 < 0 ? -Math.round(-(n + 1)) : Math.round(n + 1))"),
        ("pi * 2", "Math.PI * 2"),
        ("b ? n : k", "b ? n : k"),
        ("(b ? n : k) + 1", "(b ? n : k) + 1"),
        ("b ? n : b ? k : x", "b ? n : b ? k : _event.data.x"),
        ("0.1 + 1e21 + 300ms", "0.1 + 1e+21 + 0.3"),
    ])
    func numbers(source: String, expected: String) throws {
        #expect(try Self.exported(source) == expected)
    }

    @Test(arguments: [
        ("n == k && s != t", "n === k && s !== _event.data.t"),
        ("b || n < k && !b", "b || n < k && !b"),
        ("(b || n < k) && !b", "(b || n < k) && !b"),
        ("!(n > k)", "!(n > k)"),
        ("(n == k) == b", "n === k === b"),
        ("b == (n == k)", "b === (n === k)"),
        ("in(other) && !in(a)", "In('other') && !In('a')"),
        ("(b ? n : k) >= 1", "(b ? n : k) >= 1"),
    ])
    func booleans(source: String, expected: String) throws {
        #expect(try Self.exported(source, to: "b") == expected)
    }

    @Test(arguments: [
        (#""a\(n)b""#, "'a' + (n) + 'b'"),
        (#""\(n)\(k)""#, "'' + (n) + (k)"),
        (#""\(n + 1)""#, "'' + (n + 1)"),
        (#""\(b) " + t"#, "'' + (b) + ' ' + _event.data.t"),
        (#"t + ("x" + s)"#, "_event.data.t + ('x' + s)"),
        (#""it's \"q\" \\ \n\t""#, #"'it\'s "q" \\ \n\t'"#),
    ])
    func strings(source: String, expected: String) throws {
        #expect(try Self.exported(source, to: "s") == expected)
    }

    @Test func compoundAssignmentKeepsPrecedence() throws {
        let spec = """
            machine M {
                var n: Number = 1
                event e(x: Number)
                initial state a { on e { n -= x - 1; n *= x + 1; let y = n; n /= y } }
            }
            """
        let machine = try #require(Statecraft.check(source: spec, path: "m.machine", bounds: nil).machine)
        let root = try #require(XMLNode.parse(SCXMLWriter.document(for: machine, source: nil)))
        let assigns = root.all.filter { $0.name == "assign" }.map { ($0.attributes["location"] ?? "", $0.attributes["expr"] ?? "") }
        #expect(assigns.map(\.0) == ["n", "n", "let_y", "n"])
        #expect(assigns.map(\.1) == ["n - (_event.data.x - 1)", "n * (_event.data.x + 1)", "n", "n / let_y"])
        #expect(root.all.contains { $0.name == "data" && $0.attributes["id"] == "let_y" && $0.attributes["expr"] == nil })
    }
}
