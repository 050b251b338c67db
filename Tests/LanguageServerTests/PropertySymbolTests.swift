import Foundation
import Statecraft
import StatecraftLanguageServer
import Testing

/// Properties in the editor: the outline lists them, their words are keywords, and a name
/// spelt like one of those words stays a name.
@Suite struct PropertySymbolTests {
    static let text = """
        machine M {
            var reachable: Bool = true
            event go
            initial state idle { on go -> busy }
            state busy { on go -> idle }
            property quiet: never in(busy) while reachable
            property back: always reachable in(idle)
            property answered: after go within 2s: in(busy)
        }

        """

    @Test func theOutlineListsProperties() throws {
        var session = Session.open(Self.text)
        let symbols = try #require(session.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(Session.uri)]])
            .answer["result"]?.arrayValue)
        let properties = symbols.filter { $0["kind"]?.intValue == 7 }
        #expect(properties.compactMap { $0["name"]?.stringValue } == ["quiet", "back", "answered"])
        #expect(properties.first?["detail"]?.stringValue == "property quiet: never in(busy) while reachable")
        let selection = try #require(properties.last?["selectionRange"]?["start"])
        #expect(selection["line"]?.intValue == 7 && selection["character"]?.intValue == 13)
    }

    @Test func theFormsWordsAreKeywordsAndNamesStayNames() throws {
        var session = Session.open(Self.text)
        let answer = session.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(Session.uri)]])
        let data = try #require(answer.answer["result"]?["data"]?.arrayValue).compactMap { $0.intValue }
        var tokens: [Position: Int] = [:]
        var line = 0
        var character = 0
        for i in stride(from: 0, to: data.count, by: 5) {
            line += data[i]
            character = data[i] == 0 ? character + data[i + 1] : data[i + 1]
            tokens[Position(line: line, character: character)] = data[i + 3]
        }
        func type(_ what: String, shift: Int = 0) -> Int? { tokens[Session.position(of: what, in: Self.text, shift: shift)] }
        #expect(type("property quiet") == 0)
        #expect(type("never in(busy)") == 0)
        #expect(type("while reachable") == 0)
        #expect(type("while reachable", shift: 6) == 5, "the variable 'reachable' is a variable")
        #expect(type("always reachable in(idle)") == 0)
        #expect(type("reachable in(idle)") == 0)
        #expect(type("within 2s") == 0)
        #expect(type("quiet:") == 6, "a property's name, declared")
    }

    /// The verdicts in the editor: each on its property's name, as a diagnostic (proven as a
    /// hint, which stays out of the problems list), and hover gives the counterexample step by step.
    @Test func verdictsShowOnTheirLineAndHoverGivesTheCounterexample() throws {
        var session = Session.open(Self.text)
        let published = try #require(session.diagnostics().first)
        let diagnostics = try #require(published["params"]?["diagnostics"]?.arrayValue)
        let byCode = diagnostics.map { ($0["code"]?.stringValue ?? "", $0["range"]?["start"]?["line"]?.intValue ?? -1) }
        let severities = diagnostics.map { ($0["code"]?.stringValue ?? "", $0["severity"]?.intValue ?? -1) }
        #expect(severities.contains { $0 == ("property-violated", 1) })
        #expect(severities.contains { $0 == ("property-proven", 4) })
        #expect(!severities.contains { $0.0 == "property-proven" && $0.1 != 4 })
        // quiet: busy is reached while `reachable` holds; back holds; answered: a go from busy
        // leads to idle, and nothing comes back to busy unless another go is sent.
        #expect(byCode.contains { $0 == ("property-violated", 5) })
        #expect(byCode.contains { $0 == ("property-proven", 6) })
        #expect(byCode.contains { $0 == ("property-violated", 7) })
        let hover = session.request("textDocument/hover", Session.at("quiet:", in: Self.text))
        let value = try #require(hover.answer["result"]?["contents"]?["value"]?.stringValue)
        #expect(value.contains("**Violated**"))
        #expect(value.contains("1. go"))
        let proven = session.request("textDocument/hover", Session.at("back:", in: Self.text))
        #expect(proven.answer["result"]?["contents"]?["value"]?.stringValue?.contains("**Proven**") == true)
    }
}

/// The editor grammar scopes a property's words where they stand.
@Suite struct PropertyGrammarTests {
    @Test func theFormsWordsAreKeywordsInAProperty() throws {
        let rules = try GrammarTests.rules().filter { ($0["name"] as? String)?.hasPrefix("keyword.control") == true }
        func isKeyword(_ line: String, _ word: String) -> Bool {
            let start = (line as NSString).range(of: word)
            return rules.contains { rule in
                guard let pattern = rule["match"] as? String,
                      let regex = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines]) else { return false }
                return regex.matches(in: line, range: NSRange(location: 0, length: line.utf16.count)).contains { $0.range == start }
            }
        }
        #expect(isKeyword("    property a: never in(x) while ready", "never"))
        #expect(isKeyword("    property a: never in(x) while ready", "while"))
        #expect(isKeyword("    property b: after tap within 2s: in(x)", "within"))
        #expect(isKeyword("    property c: after entering busy within 2s: in(x)", "entering"))
        #expect(isKeyword("    property d: in(x) only after in(y)", "only"))
        #expect(isKeyword("    property e: always reachable in(home)", "reachable"))
        #expect(!isKeyword("    property e: always reachable", "reachable"))
        #expect(!isKeyword("    var only: Bool = true", "only"))
    }
}
