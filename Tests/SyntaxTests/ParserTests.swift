import StatecraftDiagnostics
import Testing
@testable import StatecraftSyntax

/// A compact, fully parenthesised rendering of an expression, to test precedence.
func sexpr(_ e: ExprSyntax) -> String {
    switch e.kind {
    case .number(let n): return n == n.rounded() ? String(Int(n)) : String(n)
    case .string(let s): return "\"\(s)\""
    case .bool(let b): return String(b)
    case .name(let n): return n
    case .call(let f, let args): return "\(f.name)(" + args.map(sexpr).joined(separator: ", ") + ")"
    case .unary(let op, let x): return "(\(op.rawValue)\(sexpr(x)))"
    case .binary(let op, let l, let r): return "(\(sexpr(l)) \(op.rawValue) \(sexpr(r)))"
    case .conditional(let c, let t, let f): return "(\(sexpr(c)) ? \(sexpr(t)) : \(sexpr(f)))"
    case .paren(let x): return sexpr(x)
    case .interpolation(let pieces):
        return "(interp " + pieces.map { piece in
            switch piece {
            case .text(let t): return "\"\(t)\""
            case .expression(let e): return sexpr(e)
            }
        }.joined(separator: " ") + ")"
    case .bad: return "<bad>"
    }
}

func parse(_ text: String) -> (MachineDecl?, [Diagnostic]) {
    let (machine, bag) = Parser.parse(SourceFile(path: "t.machine", text: text))
    return (machine, bag.diagnostics)
}

private func expression(_ text: String) -> String {
    let (machine, diagnostics) = parse("machine M { const c = \(text) }")
    guard diagnostics.isEmpty, case .constant(let c)? = machine?.members.first else { return "error" }
    return sexpr(c.value)
}

@Suite struct ParserTests {
    @Test(arguments: [
        ("1 + 2 * 3", "(1 + (2 * 3))"),
        ("1 - 2 - 3", "((1 - 2) - 3)"),
        ("a || b && c", "(a || (b && c))"),
        ("a == b < c", "(a == (b < c))"),
        ("-a * b", "((-a) * b)"),
        ("!a && b", "((!a) && b)"),
        ("a ? b : c ? d : e", "(a ? b : (c ? d : e))"),
        (#""a \(b + 1) c""#, #"(interp "a " (b + 1) " c")"#),
        (#""\(f(x, (y))) \("in \(z)")""#, #"(interp f(x, y) " " (interp "in " z))"#),
        (#""x\\(y)""#, #""x\(y)""#),
        ("x < 1 ? 2 + 3 : 4", "((x < 1) ? (2 + 3) : 4)"),
        ("min(a, max(b, 1), 2) % 3", "(min(a, max(b, 1), 2) % 3)"),
        ("(1 + 2) * 3", "((1 + 2) * 3)"),
        ("abs(atan2(vy, vx) - pi / 2) > pi / 4", "(abs((atan2(vy, vx) - (pi / 2))) > (pi / 4))"),
        ("--x", "(-(-x))"),
    ])
    func precedenceAndAssociativity(source: String, expected: String) {
        #expect(expression(source) == expected)
    }

    @Test func declarationsAndStates() throws {
        let (machine, diagnostics) = parse("""
            machine Drawer {
                const h = 667
                public var open: Bool = true
                var y: Number = 0
                event touch(y: Number, onContent: Bool)
                output moved(to: Number)
                initial state a {
                    entry { y = 0 }
                    on touch if onContent -> b { y += 1; emit moved(y) }
                }
                final state b
            }
            """)
        #expect(diagnostics.isEmpty)
        let m = try #require(machine)
        #expect(m.name?.name == "Drawer")
        #expect(m.members.count == 7)
        guard case .variable(let v) = m.members[1], case .event(let e) = m.members[3],
              case .state(let a) = m.members[5], case .state(let b) = m.members[6] else {
            Issue.record("unexpected members")
            return
        }
        #expect(v.isPublic && v.name.name == "open")
        #expect(e.fields.map(\.name.name) == ["y", "onContent"])
        #expect(a.modifier(.initial) != nil && a.entry.count == 1 && a.transitions.count == 1)
        #expect(b.modifier(.final) != nil)
        let t = a.transitions[0]
        #expect(t.target?.name == "b")
        #expect(t.actions?.actions.count == 2)
        #expect(t.guardExpr.map(sexpr) == "onContent")
    }

    @Test func transitionForms() throws {
        let (machine, diagnostics) = parse("""
            machine M {
                state s {
                    on a, b -> s
                    on c { x = 1 }
                    after 2s if ready -> s
                    after delay * 2 -> s
                    on d if x > 1
                        -> s
                    on e { if x { y = 1 } else if z { y = 2 } else { y = 3 } }
                }
            }
            """)
        #expect(diagnostics.isEmpty)
        guard case .state(let s)? = machine?.members.first else {
            Issue.record("no state")
            return
        }
        let triggers = s.transitions.map { t -> String in
            switch t.trigger {
            case .events(let names): return names.map(\.name).joined(separator: ",")
            case .after(let d): return "after " + sexpr(d)
            case .done(let x): return "done" + (x.map { "(\($0.name))" } ?? "")
            case .always: return "always"
            }
        }
        #expect(triggers == ["a,b", "c", "after 2", "after (delay * 2)", "d", "e"])
        #expect(s.transitions.map { $0.target?.name ?? "-" } == ["s", "-", "s", "s", "s", "-"])
        guard case .ifAction(_, _, let otherwise, _)? = s.transitions[5].actions?.actions.first,
              case .ifAction(_, _, let last, _)? = otherwise?.actions.first else {
            Issue.record("else-if chain not parsed")
            return
        }
        #expect(last?.actions.count == 1)
    }

    @Test func recoversAndReportsSeveralErrors() {
        let (machine, diagnostics) = parse("""
            machine M {
                var a: Number 1
                var b: Number = 2
                state s {
                    on -> s
                    on x -> s
                    bogus
                }
            }
            """)
        #expect(diagnostics.count == 3)
        #expect(diagnostics.allSatisfy { $0.id == .expectedToken })
        // The declarations after each error are still in the tree.
        let names = machine?.members.compactMap { m -> String? in
            switch m {
            case .variable(let v): v.name.name
            case .state(let s): s.name.name + "/\(s.transitions.count)"
            default: nil
            }
        }
        #expect(names == ["b", "s/1"])
    }

    @Test func missingPiecesAreReportedAfterThePreviousToken() {
        let file = SourceFile(path: "t", text: "machine M {\n    var a: Number\n    var b: Number = 1\n}")
        let (_, bag) = Parser.parse(file)
        let d = bag.diagnostics.first
        #expect(d != nil)
        #expect(d.map { file.location(of: $0.range.start) } == SourceLocation(line: 2, column: 18))
        #expect(d?.message == "expected '=' and the variable's initial value, found 'var'")
    }

    @Test func emptyAndMachineLessFiles() {
        #expect(parse("").1.map(\.id) == [.emptyFile])
        #expect(parse("  // only a comment\n").1.map(\.id) == [.emptyFile])
        #expect(parse("state s").1.map(\.id) == [.expectedToken])
    }

    @Test(arguments: [
        String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000),
        String(repeating: "!", count: 10_000) + "true",
        String(repeating: "-", count: 10_000) + "1",
        String(repeating: "a ? 1 : ", count: 10_000) + "2",
        Array(repeating: "1", count: 10_000).joined(separator: " + "),
        String(repeating: "f(", count: 10_000) + String(repeating: ")", count: 10_000),
    ])
    func deepExpressionsAreRejectedNotOverflowed(expr: String) {
        let (_, diagnostics) = parse("machine M {\n const c = \(expr)\n initial state s\n}")
        #expect(diagnostics.map(\.id) == [.nestingTooDeep])
    }

    @Test func deepBlocksAndStatesAreRejected() {
        let blocks = "machine M { state s { on e { " + String(repeating: "if a { ", count: 10_000)
            + String(repeating: "} ", count: 10_000) + "} } }"
        #expect(parse(blocks).1.map(\.id) == [.nestingTooDeep])
        let states = "machine M { " + String(repeating: "state s { ", count: 10_000)
            + String(repeating: "} ", count: 10_000) + "}"
        #expect(parse(states).1.map(\.id) == [.nestingTooDeep])
    }

    /// `event e(...) as "name"`: the name other systems give the event, as written (escapes
    /// decoded), on the signature's line; `as` stays an ordinary name everywhere else.
    @Test func anEventCarriesItsExternalName() throws {
        let text = """
            machine M {
                event reset as "watch.reset"
                event digit(value: Number) as "DIGIT.*"
                event quoted as "a\\\"b"
                event as
                event plain
                initial state as
            }
            """
        let (machine, diagnostics) = parse(text)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        let events = (machine?.members ?? []).compactMap { member -> EventDecl? in
            if case .event(let e) = member { e } else { nil }
        }
        #expect(events.map(\.name.name) == ["reset", "digit", "quoted", "as", "plain"])
        #expect(events.map { $0.externalName?.text } == ["watch.reset", "DIGIT.*", "a\"b", nil, nil])
        let file = SourceFile(path: "t.machine", text: text)
        let reset = try #require(events.first?.externalName)
        #expect(file.location(of: reset.asRange.start) == SourceLocation(line: 2, column: 17))
        #expect(file.location(of: reset.range.start) == SourceLocation(line: 2, column: 20))
        #expect(reset.range.end - reset.range.start == "\"watch.reset\"".utf8.count)
    }

    @Test(arguments: [
        ("machine M {\n event e as\n initial state s\n}", 2, 12,
         "expected the event's name in other systems after 'as', a string such as \"watch.reset\", found 'initial'"),
        ("machine M {\n event e as 3\n initial state s\n}", 2, 13,
         "expected the event's name in other systems after 'as', a string such as \"watch.reset\", found number 3"),
        ("machine M {\n event e as \"a\\(1)\"\n initial state s\n}", 2, 13,
         "the name after 'as' is written out in full: a string without interpolation"),
        ("machine M {\n event e\n as \"e\"\n initial state s\n}", 3, 2,
         "expected a declaration ('const', 'var', 'public var', 'event', 'output', 'state' or 'property'), found identifier 'as'"),
    ])
    func aMissingOrWrittenOutExternalNameIsReported(text: String, line: Int, column: Int, message: String) {
        let file = SourceFile(path: "t.machine", text: text)
        let (_, bag) = Parser.parse(file)
        let d = bag.diagnostics.first
        #expect(d?.id == .expectedToken)
        #expect(d.map { file.location(of: $0.range.start) } == SourceLocation(line: line, column: column))
        #expect(d?.message == message)
    }

    @Test func nestingWithinTheLimitIsFine() {
        let expr = String(repeating: "(", count: 50) + "1" + String(repeating: ")", count: 50)
        #expect(parse("machine M { const c = \(expr) }").1.isEmpty)
    }
}
