import Foundation
import Statecraft
import Testing
import TestSupport

/// The rules for the values of final states (`final state f(code: 200)`): where they may be
/// written, that a state's final children agree on them, and what a `done` may read. Each
/// rule with its diagnostic, message and position.
@Suite struct DoneDataResolutionTests {
    /// The errors of `text`, each as `line:column: [id] message`.
    static func errors(_ text: String) -> [String] {
        let result = Statecraft.check(source: text, path: "t.machine", bounds: nil)
        return result.diagnostics.filter { $0.severity == .error }.map { d in
            let at = result.file.location(of: d.range.start)
            return "\(at.line):\(at.column): [\(d.id.rawValue)] \(d.message)"
        }
    }

    /// A compound state `payment` whose final children are `finals`, and a `done` in it
    /// written `done`.
    static func payment(_ finals: String, _ done: String, variables: String = "") -> String {
        """
        machine M {
            var total: Number = 0
            event go
            event stop
        \(variables)
            initial state payment {
                initial state charging {
                    on go -> a
                    on stop -> b
                }
        \(finals)
                \(done)
            }

            state over {
                on go -> payment
            }
        }
        """
    }

    @Test func agreeingFinalStatesResolveWithTypedFields() throws {
        let text = Self.payment("        final state a(code: 200, note: \"x\", ok: true)\n        final state b(code: total, note: \"y\", ok: in(charging))",
                                "done if ok && code > 0 -> over { total = code }")
        #expect(Self.errors(text) == [])
        let machine = try #require(Statecraft.check(source: text, bounds: nil).machine)
        let payment = try #require(machine.states.first { $0.name == "payment" })
        #expect(machine.completionFields(payment.id).map { "\($0.name): \($0.type.rawValue)" }
                == ["code: Number", "note: String", "ok: Bool"])
        let done = try #require(machine.transitions.first { if case .done = $0.trigger { true } else { false } })
        #expect(done.guardExpr.map { machine.text($0.range) } == "ok && code > 0")
    }

    @Test(arguments: [
        ("        final state a(code: 200)\n        final state b(code: \"no\")",
         "12:23: [done-data-mismatch] final state 'b' gives field 'code' as 'String', but 'a' (the first final child of 'payment') gives it as 'Number'"),
        ("        final state a(code: 200)\n        final state b",
         "12:21: [done-data-mismatch] final state 'b' carries no values, but 'a' (the first final child of 'payment') gives 'code'"),
        ("        final state a\n        final state b(code: 1)",
         "12:23: [done-data-mismatch] final state 'b' gives field 'code', but 'a' (the first final child of 'payment') carries no values"),
        ("        final state a(code: 1, note: \"\")\n        final state b(note: \"\", code: 1)",
         "12:23: [done-data-mismatch] final state 'b' gives field 'note' in position 1, but 'a' (the first final child of 'payment') gives 'code' there"),
        ("        final state a(code: 1, note: \"\")\n        final state b(code: 1)",
         "12:22: [done-data-mismatch] final state 'b' does not give field 'note', but 'a' (the first final child of 'payment') gives 'note'"),
    ])
    func finalChildrenMustAgree(finals: String, expected: String) {
        #expect(Self.errors(Self.payment(finals, "done -> over")) == [expected])
    }

    @Test func aDoneReadsOnlyTheFieldsItsCompletionCarries() {
        let text = Self.payment("        final state a(code: 200)\n        final state b(code: 402)", "done if count > 0 -> over")
        #expect(Self.errors(text) == [
            "13:17: [done-field-not-carried] the completion of 'payment' carries no field 'count': its final states give 'code'",
        ])
        // Without values anywhere, an unknown name stays an unknown name.
        let plain = Self.payment("        final state a\n        final state b", "done if count > 0 -> over")
        #expect(Self.errors(plain) == ["13:17: [unknown-name] unknown name 'count'"])
    }

    @Test func aParallelCompletionCarriesNoData() {
        let text = """
            machine M {
                event go
                initial parallel state both {
                    state r1 {
                        initial state a { on go -> b }
                        final state b(size: 1)
                    }
                    state r2 {
                        initial state c { on go -> d }
                        final state d
                    }
                    done if size > 0 -> over
                    done(r1) if size > 0 -> over
                }
                state over
            }
            """
        #expect(Self.errors(text) == [
            "12:17: [done-field-not-carried] the completion of 'both' carries no field 'size': 'both' is a parallel state, and a parallel state's completion carries no data",
        ])
    }

    @Test func valuesOnlyOnNestedFinalStates() {
        let text = """
            machine M {
                event go
                initial state s(x: 1) {
                    on go -> over
                }
                final state over(code: 0)
            }
            """
        #expect(Self.errors(text) == [
            "3:20: [done-data-misplaced] only a final state carries values (its parent's completion does); 's' is not final",
            "6:21: [done-data-misplaced] a top-level final state ends the run; nothing reads the values of 'over'",
        ])
    }

    @Test func fieldsAreNamesOfTheirOwn() {
        // A field named like a variable, a field given twice, a field assigned, a value
        // that reads a payload field (none is in scope on entering a final state).
        let text = Self.payment("        final state a(total: 1, code: 2, code: 3)\n        final state b(total: 1, code: amount)",
                                "done -> over { code = 1 }")
        #expect(Self.errors(text) == [
            "11:23: [shadowed-name] field 'total' of final state 'a' has the name of variable 'total'",
            "11:42: [duplicate-declaration] field 'code' is given twice in final state 'a'",
            "12:23: [shadowed-name] field 'total' of final state 'b' has the name of variable 'total'",
            "12:39: [unknown-name] unknown name 'amount'",
            "13:24: [assign-to-payload] cannot assign to 'code': it is a field of the completion of 'payment'",
        ])
    }
}
