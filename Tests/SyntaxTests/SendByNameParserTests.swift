import StatecraftDiagnostics
import Testing
@testable import StatecraftSyntax

/// `send "…"`: a string literal (plain or interpolated) where the event name goes is a send
/// by name; `send` stays a name elsewhere.
@Suite struct SendByNameParserTests {
    /// The actions of the only transition of state `s`.
    private func actions(_ body: String) throws -> ([ActionSyntax], [String]) {
        let (machine, diagnostics) = parse("machine M {\n    state s {\n        on go { \(body) }\n    }\n}")
        guard case .state(let s)? = machine?.members.first(where: { if case .state = $0 { true } else { false } }) else {
            return ([], diagnostics.map(\.message))
        }
        return (s.transitions.first?.actions?.actions ?? [], diagnostics.map(\.message))
    }

    @Test(arguments: [
        ("send \"lap\"", "\"lap\"", nil),
        ("send \"\\(kind)\"", "(interp kind)", nil),
        ("send \"watch.\\(kind).x\" after 1s", "(interp \"watch.\" kind \".x\")", "1"),
        ("send \"\\(a + b)\" after d * 2", "(interp (a + b))", "(d * 2)"),
    ] as [(String, String, String?)])
    func aStringAfterSendIsASendByName(source: String, name: String, delay: String?) throws {
        let (list, problems) = try actions(source)
        #expect(problems == [])
        guard case .sendNamed(let expr, let after, _)? = list.first, list.count == 1 else {
            Issue.record("not one send by name: \(list)")
            return
        }
        #expect(sexpr(expr) == name)
        #expect(after.map(sexpr) == delay)
    }

    @Test func sendStaysAVariableName() throws {
        let (list, problems) = try actions("send = \"x\"; send += \"y\"")
        #expect(problems == [])
        #expect(list.count == 2)
        guard case .assign(let target, _, _, _)? = list.first else {
            Issue.record("not an assignment: \(list)")
            return
        }
        #expect(target.name == "send")
    }

    /// A string on the next line is not the event of the `send` before it.
    @Test func theStringMustBeOnTheSendsLine() throws {
        let (_, problems) = try actions("send\n\"lap\"")
        #expect(problems.first?.contains("expected") == true, "\(problems)")
    }

    @Test func theRangeCoversTheSendAndItsDelay() throws {
        let text = "machine M {\n    state s {\n        on go { send \"\\(k)\" after 2s }\n    }\n}"
        let (machine, _) = parse(text)
        guard case .state(let s)? = machine?.members.first(where: { if case .state = $0 { true } else { false } }),
              case .sendNamed(_, _, let range)? = s.transitions.first?.actions?.actions.first else {
            Issue.record("no send by name")
            return
        }
        let bytes = Array(text.utf8)
        #expect(String(decoding: bytes[range.start..<range.end], as: UTF8.self) == "send \"\\(k)\" after 2s")
    }
}
