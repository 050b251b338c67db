import StatecraftDiagnostics
import Testing
@testable import StatecraftSyntax

/// A property's form in a compact rendering: the form's name, then its parts.
private func describe(_ form: PropertyFormSyntax) -> String {
    switch form {
    case .invariant(let isAlways, _, let x, _, let g):
        return (isAlways ? "always " : "never ") + sexpr(x) + (g.map { " while " + sexpr($0) } ?? "")
    case .response(_, let entering, let trigger, _, let deadline, let x):
        return "after " + (entering == nil ? "event " : "entering ") + trigger.name + " within " + sexpr(deadline)
            + ": " + sexpr(x)
    case .precedence(let x, _, _, let y):
        return sexpr(x) + " only after " + sexpr(y)
    case .reachable(_, _, let x):
        return "reachable " + sexpr(x)
    }
}

/// The properties of `members` (written inside a machine), or the first error as `line:col message`.
private func properties(_ members: String) -> [String] {
    let (machine, diagnostics) = parse("machine M {\n" + members + "\n}")
    if let first = diagnostics.first {
        let at = SourceFile(path: "t.machine", text: "machine M {\n" + members + "\n}").location(of: first.range.start)
        return ["\(at.line):\(at.column) \(first.message)"]
    }
    return machine?.members.compactMap { member in
        guard case .property(let p) = member else { return nil }
        return p.name.name + ": " + describe(p.form)
    } ?? []
}

@Suite struct PropertyParserTests {
    /// Every form of properties.md, exactly as written there.
    @Test func theContractsFormsParse() {
        #expect(properties("""
            property quietFailure: never in(loading) && in(errorBanner)
            property keepsDraft:   always draft != "" while in(reviewing)
            property settles:      after tapPay within 10s: in(receipt) || in(errorBanner)
            property settlesToo:   after entering paying within 10s: !in(paying)
            property validFirst:   in(paying) only after in(reviewed)
            property noTrap:       always reachable in(home)
            property quiet:        never in(loading) while in(home)
            """) == [
            "quietFailure: never (in(loading) && in(errorBanner))",
            "keepsDraft: always (draft != \"\") while in(reviewing)",
            "settles: after event tapPay within 10: (in(receipt) || in(errorBanner))",
            "settlesToo: after entering paying within 10: (!in(paying))",
            "validFirst: in(paying) only after in(reviewed)",
            "noTrap: reachable in(home)",
            "quiet: never in(loading) while in(home)",
        ])
    }

    /// `reachable` is the keyword only when an expression other than `while` follows it.
    @Test(arguments: [
        ("always reachable in(home)", "reachable in(home)"),
        ("always reachable (ready)", "reachable ready"),
        ("always reachable !busy", "reachable (!busy)"),
        ("always reachable reachable", "reachable reachable"),
        ("always reachable", "always reachable"),
        ("always reachable && ready", "always (reachable && ready)"),
        ("always reachable == ready", "always (reachable == ready)"),
        ("always reachable while in(home)", "always reachable while in(home)"),
    ])
    func reachableAsKeywordOrName(form: String, expected: String) {
        #expect(properties("property p: " + form) == ["p: " + expected])
    }

    /// The form's words stay names everywhere else, and in a property where no expression follows them.
    @Test func theWordsAreNamesElsewhere() {
        #expect(properties("""
            var never: Bool = false
            var always: Bool = true
            var within: Number = 0
            event entering
            property a: never only after always
            property b: (never) only after in(x)
            property c: after entering within 1s: never
            property d: after entering within within 1s: always
            property e: never never
            property: var
            """).first == "11:9 expected property name, found ':'")
        #expect(properties("""
            property a: never only after always
            property b: (never) only after in(x)
            property c: after entering within 1s: never
            property d: after entering within within 1s: always
            property e: never never
            property f: always while while in(a)
            """) == [
            "a: never only after always",
            "b: never only after in(x)",
            "c: after event entering within 1: never",
            "d: after entering within within 1: always",
            "e: never never",
            "f: always while while in(a)",
        ])
        // A state machine with states and variables named like the words still parses.
        #expect(properties("""
            var only: Bool = false
            state property { on reachable -> while }
            state while
            """) == [])
    }

    /// The ranges of the name, each keyword, each expression and the deadline.
    @Test func rangesAreExact() throws {
        let text = "machine M {\nproperty settles: after entering paying within 10s: in(receipt)\n}"
        let (machine, diagnostics) = Parser.parse(SourceFile(path: "t.machine", text: text))
        #expect(diagnostics.diagnostics.isEmpty)
        guard case .property(let p)? = machine?.members.first,
              case .response(let after, let entering?, let trigger, let within, let deadline, let response) = p.form else {
            Issue.record("not a response")
            return
        }
        let bytes = Array(text.utf8)
        func at(_ r: SourceRange) -> String { String(decoding: bytes[r.start..<r.end], as: UTF8.self) }
        #expect(at(p.keywordRange) == "property")
        #expect(at(p.name.range) == "settles")
        #expect(at(after.range) == "after" && at(entering.range) == "entering" && at(within.range) == "within")
        #expect(at(trigger.range) == "paying")
        #expect(at(deadline.range) == "10s")
        #expect(at(response.range) == "in(receipt)")
        #expect(at(p.range) == "property settles: after entering paying within 10s: in(receipt)")
        #expect(p.form.keywords.map(\.word) == ["after", "entering", "within"])
    }

    /// Each mistake is reported once, at the column where it is, and the next member still parses.
    @Test(arguments: [
        ("property p never x", "2:12 expected ':' after the property name, found identifier 'never'"),
        ("property p: after x within: y", "2:27 expected a deadline after 'within' (such as '10s'), found ':'"),
        ("property p: after x within 2s y", "2:31 expected ':' after the deadline, found identifier 'y'"),
        ("property p: after x in 2s: y", "2:21 expected 'within' and a deadline after 'x', found identifier 'in'"),
        ("property p: after entering within", "2:34 expected a deadline after 'within' (such as '10s'), found 'var'"),
        ("property p: eventually in(done)", "2:13 unknown property form 'eventually'; expected 'never', 'always', 'after', or an expression and 'only after'"),
        ("property p: x", "2:14 expected 'only after' after the property's expression (or 'never' or 'always' before it), found 'var'"),
        ("property p: in(a) only before in(b)", "2:24 expected 'after' after 'only', found identifier 'before'"),
        ("property p: -> a", "2:13 expected a property: 'never', 'always', 'after', or an expression and 'only after', found '->'"),
        ("property p: never x y", "2:21 expected a new line after the property, found identifier 'y'"),
        ("property 3: never x", "2:10 expected property name, found number 3"),
    ])
    func errorsPointAtTheMistake(member: String, expected: String) {
        #expect(properties(member + "\nvar after: Number = 0").first == expected)
        // Recovery: a property after the broken one is still read.
        let (machine, _) = parse("machine M {\n\(member)\nproperty ok: never x\n}")
        let names: [String] = machine?.members.compactMap { member -> String? in
            guard case .property(let p) = member else { return nil }
            return p.name.name
        } ?? []
        #expect(names.last == "ok")
    }

    @Test func aPropertyInAStateIsNamedAsSuch() {
        let (machine, diagnostics) = parse("machine M {\nstate s {\nproperty p: never in(s)\non go -> s\n}\n}")
        #expect(diagnostics.map(\.message) == ["a property is declared at the top level of the machine, not in state 's'"])
        guard case .state(let s)? = machine?.members.first else {
            Issue.record("no state")
            return
        }
        #expect(s.transitions.count == 1, "the transition after it is still read")
    }

    @Test func aMissingFormPointsPastTheColon() {
        #expect(properties("property p:\nvar x: Bool = true")
            == ["2:12 expected a property: 'never', 'always', 'after', or an expression and 'only after', found 'var'"])
    }

    @Test func misspeltFormGetsASuggestion() {
        let (_, diagnostics) = parse("machine M {\nproperty p: nevr in(a)\n}")
        #expect(diagnostics.first?.notes.first?.message == "did you mean 'never'?")
    }
}
