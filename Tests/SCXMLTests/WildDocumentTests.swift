import Foundation
import Statecraft
import Testing
import TestSupport

/// SCXML as editors and other engines write it (issue 35): the null data model, another data
/// model with nothing to evaluate, `In(s)` without quotes, `cond=""`, elements of other
/// namespaces, and what an import must never drop without saying so. Warnings and notes
/// point at the document, where the user can find them.
@Suite struct WildDocumentTests {
    static let head = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" xmlns:qt=\"http://www.qt.io/2015/02/scxml-ext\""

    static func importing(_ xml: String) -> SCXMLImportResult {
        SCXMLImporter.translate(SourceFile(path: "doc.scxml", text: xml), machineName: "Doc", sourceName: "doc.scxml")
    }

    /// `line:column` (1-based) where `marker` first starts in `text`, counted in bytes as our
    /// diagnostics count columns.
    static func position(of marker: String, in text: String, after: String? = nil) -> String {
        var searchFrom = text.startIndex
        if let after, let r = text.range(of: after) { searchFrom = r.upperBound }
        guard let range = text.range(of: marker, range: searchFrom..<text.endIndex) else { return "?" }
        let before = text[..<range.lowerBound]
        let line = before.filter { $0 == "\n" }.count + 1
        let lineStart = before.lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
        return "\(line):\(text[lineStart..<range.lowerBound].utf8.count + 1)"
    }

    static func position(_ d: Diagnostic, in r: SCXMLImportResult) -> String {
        let at = r.file.location(of: d.range.start)
        return "\(at.line):\(at.column)"
    }

    /// The spec resolves and checks without errors.
    static func expectChecks(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let checked = Statecraft.check(source: text, bounds: nil)
        let errors = checked.diagnostics.filter { $0.severity == .error }
        #expect(checked.machine != nil && errors.isEmpty, "\(errors.map(\.message))\n\(text)", sourceLocation: sourceLocation)
    }

    // MARK: - 1. Data models without expressions

    /// `datamodel="null"` as SCXML defines it: no data, `In(id)` its only condition (without
    /// quotes, as the null data model writes it), and everything that needs no expression.
    @Test func theNullDataModelImports() throws {
        let xml = Self.head + """
             datamodel="null" initial="off">
              <state id="off"><transition event="press" target="on"/></state>
              <parallel id="on">
                <state id="light"><state id="dim"><onentry><send event="warm" delay="1s"/></onentry>
                  <transition event="warm" target="bright"/></state><state id="bright"/></state>
                <state id="fan"><state id="slow"><transition event="tick" cond="In(bright)" target="fast"/></state>
                  <state id="fast"><onentry><log label="whir"/></onentry></state></state>
                <transition event="press" target="off"/>
              </parallel>
            </scxml>
            """
        let r = Self.importing(xml)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(r.diagnostics.isEmpty, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("on tick if in(bright) -> fast"), "\(text)")
        #expect(text.contains("send warm after 1s"), "\(text)")
        Self.expectChecks(text)
        // It runs as SCXML runs it: the fan speeds up only once the light is bright (the
        // first tick finds the guard false).
        let log = """
            {"time": 0, "event": "press"}
            {"time": 0.5, "event": "tick"}
            {"time": 0.5, "expect": {"state": ["dim", "slow"]}}
            {"time": 1.5, "event": "tick"}
            {"time": 1.5, "expect": {"state": ["bright", "fast"], "outputs": [{"name": "whir"}]}}

            """
        let spec = try TemporaryFile(name: "lamp.machine", contents: text)
        defer { spec.remove() }
        let run = try CLI.run(["replay", spec.url.path, "-"], input: log)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }

    /// In the null data model, a quoted id reads as the ECMAScript spelling, with a warning
    /// at the id; anything else to evaluate is refused where it is written.
    @Test func theNullDataModelRefusesOtherExpressions() throws {
        let quoted = Self.head + " datamodel=\"null\">\n  <state id=\"a\"><transition event=\"e\" cond=\"In('a')\" target=\"a\"/></state>\n</scxml>"
        let r = Self.importing(quoted)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("on e if in(a) -> a"), "\(text)")
        let warning = try #require(r.diagnostics.first)
        #expect(r.diagnostics.count == 1)
        #expect(warning.id == .scxmlNonstandard && warning.severity == .warning)
        #expect(warning.message.contains("In('a') quotes the state id"), "\(warning.message)")
        #expect(Self.position(warning, in: r) == Self.position(of: "'a'", in: quoted))

        for (body, marker, message) in [
            ("<datamodel><data id=\"n\" expr=\"1\"/></datamodel><state id=\"a\"/>", "<data ",
             "<data> in the null data model"),
            ("<state id=\"a\"><transition event=\"e\" cond=\"In(a) &amp;&amp; In(a)\"/></state>", "In(a) &amp;",
             "<transition cond=\"…\">: the null data model's only condition is In(stateId)"),
            ("<state id=\"a\"><onentry><log label=\"x\" expr=\"1\"/></onentry></state>", "1\"/>",
             "<log expr=\"…\">: the null data model (datamodel=\"null\") has no expressions but the condition In(stateId)"),
        ] {
            let xml = Self.head + " datamodel=\"null\">\n  " + body + "\n</scxml>"
            let refused = Self.importing(xml)
            #expect(refused.text == nil)
            let error = try #require(refused.diagnostics.first)
            #expect(error.id == .scxmlUnsupported && error.message.contains(message), "\(error.message)")
            #expect(Self.position(error, in: refused) == Self.position(of: marker, in: xml), "\(error.message)")
        }
    }

    /// Another data model (`jexl` here) imports when the document evaluates nothing, with a
    /// note at `datamodel`; its first expression is refused where it stands, naming it.
    @Test func anotherDataModelImportsWhenNothingIsEvaluated() throws {
        let xml = Self.head + """
             version="1.0"
              datamodel="jexl">
              <state id="a"><transition event="go" cond="" target="b"/></state>
              <state id="b"><onentry><raise event="back"/></onentry><transition event="back" target="a"/></state>
            </scxml>
            """
        let r = Self.importing(xml)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        Self.expectChecks(text)
        #expect(text.contains("on go -> b"), "\(text)")
        #expect(r.diagnostics.map(\.id) == [.scxmlInert, .scxmlNonstandard], "\(r.diagnostics.map(\.message))")
        let note = try #require(r.diagnostics.first)
        #expect(note.severity == .note)
        #expect(note.message.contains("datamodel=\"jexl\" is not supported, but the document evaluates nothing"), "\(note.message)")
        #expect(Self.position(note, in: r) == Self.position(of: "datamodel=", in: xml))

        let evaluating = Self.head + " datamodel=\"jexl\">\n  <state id=\"a\"><transition event=\"go\" cond=\"count gt 2\"/></state>\n</scxml>"
        let refused = Self.importing(evaluating)
        #expect(refused.text == nil)
        let error = try #require(refused.diagnostics.first)
        #expect(error.message.contains("<transition cond=\"…\">: an expression to evaluate in datamodel=\"jexl\", which is not supported"),
                "\(error.message)")
        #expect(Self.position(error, in: refused) == Self.position(of: "count gt", in: evaluating))
        let data = Self.head + " datamodel=\"jexl\"><datamodel>\n  <data id=\"count\"/></datamodel><state id=\"a\"/></scxml>"
        let refusedData = Self.importing(data)
        #expect(refusedData.diagnostics.first?.message.contains("<data> in datamodel=\"jexl\"") == true)
        #expect(refusedData.diagnostics.first.map { Self.position($0, in: refusedData) } == "2:3")
    }

    // MARK: - 2. In(stateId) without quotes

    /// `In(s)` without quotes, where `s` is a state and not a `<data>` id, is `in(s)`, with a
    /// warning at `s` naming the spelling; `In(v)` of a variable is still refused (its value
    /// is a state id chosen at run time), and so is `In(x)` of nothing.
    @Test func inWithoutQuotesIsReadAsAStateID() throws {
        let xml = Self.head + """
            >
              <datamodel><data id="holder" expr="'a'"/></datamodel>
              <state id="a"><transition event="e" cond="In(b) || In('a')" target="b"/></state>
              <state id="b"><onentry><if cond="!In(a)"><raise event="f"/></if></onentry></state>
            </scxml>
            """
        let r = Self.importing(xml)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("on e if in(b) || in(a) -> b"), "\(text)")
        #expect(text.contains("if !in(a) {"), "\(text)")
        Self.expectChecks(text)
        #expect(r.diagnostics.map(\.id) == [.scxmlNonstandard, .scxmlNonstandard])
        #expect(r.diagnostics.map(\.message) == [
            "In(b) names a state without quotes, which the ECMAScript data model reads as a variable; read as In('b')",
            "In(a) names a state without quotes, which the ECMAScript data model reads as a variable; read as In('a')",
        ])
        #expect(r.diagnostics.map { Self.position($0, in: r) }
                == [Self.position(of: "b) ||", in: xml), Self.position(of: "a)\"", in: xml, after: "!In(")])

        for (cond, message) in [("In(holder)", "In() takes one state id as a string literal"),
                                ("In(nowhere)", "In(nowhere): no state has that id")] {
            let bad = Self.head + "><datamodel><data id=\"holder\" expr=\"'a'\"/></datamodel>\n"
                + "<state id=\"a\"><transition cond=\"\(cond)\"/></state></scxml>"
            let refused = Self.importing(bad)
            #expect(refused.text == nil)
            #expect(refused.diagnostics.first?.message.contains(message) == true, "\(refused.diagnostics.map(\.message))")
        }
    }

    // MARK: - 3. cond=""

    /// `cond=""` on a transition is no condition, with a warning at the attribute; on `<if>`
    /// there is no reading that is not a guess, so it is refused at the element.
    @Test func anEmptyConditionIsNoCondition() throws {
        let xml = Self.head + ">\n  <state id=\"a\">\n    <transition event=\"go\" cond=\"\" target=\"b\"/>\n  </state>\n  <state id=\"b\"/>\n</scxml>"
        let r = Self.importing(xml)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("on go -> b"), "\(text)")
        #expect(!text.contains(" if "), "\(text)")
        let warning = try #require(r.diagnostics.first)
        #expect(r.diagnostics.count == 1)
        #expect(warning.id == .scxmlNonstandard && warning.severity == .warning)
        #expect(warning.message == "cond=\"\" (an empty condition) is not SCXML; read as no condition, as engines read it")
        #expect(Self.position(warning, in: r) == "3:28")
        #expect(Self.position(of: "cond=", in: xml) == "3:28")
        #expect(warning.range.end - warning.range.start == "cond=\"\"".utf8.count)

        let inIf = Self.head + "><state id=\"a\"><onentry>\n<if cond=\" \"><raise event=\"x\"/></if></onentry></state></scxml>"
        let refused = Self.importing(inIf)
        #expect(refused.text == nil)
        #expect(refused.diagnostics.first?.message == "<if cond=\"\">: an empty condition (write one, or leave out the <if>)")
        #expect(refused.diagnostics.first.map { Self.position($0, in: refused) } == "2:1")
    }

    // MARK: - 4. Other namespaces

    /// Elements of other namespaces mean nothing to SCXML wherever they stand (inside
    /// `<data>`, a transition, `<onentry>`, `<send>`, `<if>`, `<initial>`, a history
    /// default, `<scxml>` itself), and neither do attributes of other namespaces: the
    /// document imports exactly as it does without them.
    @Test func otherNamespacesAreIgnoredEverywhere() throws {
        let annotated = Self.head + """
             qt:editorversion="4.6.1" xmlns:x="urn:example:other">
              <qt:editorinfo initialGeometry="0;0;-20;-20;40;40"/>
              <datamodel><data id="n" expr="0"><qt:editorinfo note="a counter"/></data><x:state id="ghost"/></datamodel>
              <state id="top" qt:colour="red">
                <qt:editorinfo geometry="1;2;3;4"/>
                <initial><qt:editorinfo/><transition target="a"><qt:editorinfo movePoint="1;1"/></transition></initial>
                <history id="h"><transition target="a"><x:note/></transition></history>
                <state id="a">
                  <onentry><qt:editorinfo/><send event="t" id="t" delay="1s"><x:hint>soon</x:hint></send></onentry>
                  <onexit><cancel sendid="t"/><x:transition event="nothing"/></onexit>
                  <transition event="t" target="b"><qt:editorinfo movePoint="2;2"/>
                    <if cond="n &gt; 1"><x:else/><assign location="n" expr="n + 1"><qt:editorinfo/></assign></if>
                  </transition>
                </state>
                <state id="b"><x:transition event="go" target="a"/><transition event="go" target="h"/></state>
              </state>
              <x:transition event="stray" target="top"/>
            </scxml>
            """
        let plain = Self.head + """
            >
              <datamodel><data id="n" expr="0"></data></datamodel>
              <state id="top">
                <initial><transition target="a"></transition></initial>
                <history id="h"><transition target="a"></transition></history>
                <state id="a">
                  <onentry><send event="t" id="t" delay="1s"></send></onentry>
                  <onexit><cancel sendid="t"/></onexit>
                  <transition event="t" target="b">
                    <if cond="n &gt; 1"><assign location="n" expr="n + 1"></assign></if>
                  </transition>
                </state>
                <state id="b"><transition event="go" target="h"/></state>
              </state>
            </scxml>
            """
        let r = Self.importing(annotated)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(r.diagnostics.isEmpty, "\(r.diagnostics.map(\.message))")
        #expect(text == Self.importing(plain).text)
        // The delayed send that the exit cancels is still the state's timer.
        #expect(text.contains("after 1s -> b"), "\(text)")
        Self.expectChecks(text)
    }

    // MARK: - 7. Nothing dropped silently

    /// A descriptor that nothing in the document sends (`but.b.*`) is for events from the
    /// app, as a plain name is: its event (`but.b`, which `but.b.*` matches) is declared, with
    /// its SCXML name and the extensions it takes (`as "but.b.*"`), and the transition kept.
    /// A descriptor that can match nothing at all (`done.state` of no state) stays a comment,
    /// with a note at its `event`.
    @Test func aDescriptorNothingSendsDeclaresItsEvent() throws {
        let xml = Self.head + """
            >
              <state id="off"><transition event="but.b.* but.c." target="on"/></state>
              <state id="on">
                <transition event="but.b.*" target="off"/>
                <transition event="done.state.nowhere" target="off"/>
              </state>
            </scxml>
            """
        let r = Self.importing(xml)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("//   event \"but.b\" is but_b"), "\(text)")
        #expect(text.contains("event but_b as \"but.b.*\"\n"), "\(text)")
        #expect(text.contains("event but_c as \"but.c.*\"\n"), "\(text)")
        #expect(text.contains("on but_b, but_c -> on"), "\(text)")
        #expect(text.contains("on but_b -> off"), "\(text)")
        Self.expectChecks(text)
        let note = try #require(r.diagnostics.first)
        #expect(r.diagnostics.count == 1)
        #expect(note.id == .scxmlInert && note.severity == .note)
        #expect(note.message == "<transition event=\"done.state.nowhere\"> is never taken: no event of this document matches it")
        #expect(Self.position(note, in: r) == Self.position(of: "event=\"done", in: xml))
        // A descriptor that the document's own events match still declares its stem: an
        // engine running the document takes `but.b.down` from outside with it too.
        let sent = Self.importing(Self.head + "><state id=\"a\"><onentry><raise event=\"but.b.up\"/></onentry>"
                                  + "<transition event=\"but.b.*\" target=\"a\"/></state></scxml>")
        let sentText = try #require(sent.text)
        #expect(sentText.contains("on but_b_up, but_b -> a") && sentText.contains("event but_b as \"but.b.*\"\n"), "\(sentText)")
    }

    /// A `<transition>` directly under `<scxml>` (no state has it) is refused at the element,
    /// as is anything else SCXML does not allow there.
    @Test func aTransitionUnderTheRootIsRefused() throws {
        for (body, message) in [
            ("<transition event=\"reset\" target=\"a\"/>", "<transition> directly under <scxml> is not SCXML (a transition belongs to a state)"),
            ("<onentry><raise event=\"x\"/></onentry>", "<onentry> directly under <scxml> is not SCXML"),
            ("<script>var x = 1;</script>", "<script> is not supported"),
        ] {
            let xml = Self.head + ">\n  <state id=\"a\"/>\n  " + body + "\n</scxml>"
            let r = try CLI.run(["import", "-"], input: xml)
            #expect(r.status == 1 && r.stdout.isEmpty)
            #expect(r.stderr.contains("<stdin>:3:3: error: \(message) [scxml-unsupported]"), "\(r.stderr)")
        }
    }

    /// A state without an id gets a name no state of the document has (a later `state1`
    /// keeps its own), and the header lists it with its line, as it lists renamed states.
    @Test func aStateWithoutAnIdIsListed() throws {
        let xml = Self.head + """
            >
              <state id="top">
                <state><transition event="go" target="state1"/></state>
                <state id="state1"/>
                <parallel><state/></parallel>
              </state>
            </scxml>
            """
        let r = Self.importing(xml)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("""
            // SCXML names written differently here:
            //   <state> without an id (line 3) is state2
            //   <parallel> without an id (line 5) is state3
            //   <state> without an id (line 5) is state4
            """), "\(text)")
        #expect(text.contains("initial state state2 {\n            on go -> state1"), "\(text)")
        // It resolves (the anonymous parallel state is one nothing enters, which `check` reports).
        #expect(Statecraft.check(source: text, bounds: nil).machine != nil)
    }

    /// A `<cancel>` of an id that no `<send>` has cancels nothing: a comment in the spec, and
    /// a note at its `sendid`.
    @Test func aCancelOfNothingGetsANote() throws {
        let xml = Self.head + ">\n  <state id=\"a\"><onexit>\n    <cancel sendid=\"blink\"/></onexit><transition event=\"e\" target=\"a\"/></state>\n</scxml>"
        let r = Self.importing(xml)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("// <cancel sendid=\"blink\">: no <send> has that id"), "\(text)")
        let note = try #require(r.diagnostics.first)
        #expect(r.diagnostics.count == 1)
        #expect(note.id == .scxmlInert && note.severity == .note)
        #expect(note.message == "<cancel sendid=\"blink\"> cancels nothing: no <send> has that id")
        #expect(Self.position(note, in: r) == "3:13")
    }

    // MARK: - 5. Eventless loops that end

    /// An eventless transition selected before a targetless one ends its loop: one with no
    /// condition at once, a guarded one once its guard holds (SCION's targetless-transition
    /// test). Both import, and run as SCXML runs them.
    @Test func aTransitionBeforeATargetlessOneEndsItsLoop() throws {
        let xml = Self.head + """
             initial="idle">
              <datamodel><data id="i" expr="0"/><data id="skipped" expr="0"/></datamodel>
              <state id="idle"><transition event="go" target="counting"/><transition event="skip" target="skipping"/></state>
              <state id="counting">
                <transition cond="i == 100" target="done"/>
                <transition><assign location="i" expr="i + 1"/></transition>
              </state>
              <state id="skipping">
                <transition target="idle"/>
                <transition><assign location="skipped" expr="skipped + 1"/></transition>
              </state>
              <final id="done"/>
            </scxml>
            """
        let r = Self.importing(xml)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(r.diagnostics.isEmpty, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("always if i == 100 -> done\n        always { i = i + 1 }"), "\(text)")
        Self.expectChecks(text)
        let log = """
            {"time": 0, "event": "skip"}
            {"time": 0, "expect": {"state": "idle", "vars": {"skipped": 0}}}
            {"time": 1, "event": "go"}
            {"time": 1, "expect": {"state": "done", "vars": {"i": 100}}}

            """
        let spec = try TemporaryFile(name: "counter.machine", contents: text)
        defer { spec.remove() }
        let run = try CLI.run(["replay", spec.url.path, "-"], input: log)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }

    /// A loop that no order of selection can leave is refused at the <transition> elements
    /// involved, in the document (never at a line of the translation, which the user does
    /// not see).
    @Test func aCertainLoopIsRefusedAtItsElements() throws {
        let targetless = Self.head + ">\n  <state id=\"a\">\n    <transition event=\"go\" target=\"a\"/>\n    <transition/>\n  </state>\n</scxml>"
        let r = try CLI.run(["import", "-"], input: targetless)
        #expect(r.status == 1 && r.stdout.isEmpty)
        #expect(r.stderr.contains("<stdin>:4:5: error: the document never settles: this <transition> has no event, no cond and no "
                                  + "target, and no eventless transition comes before it in \"a\", so it is taken forever [scxml-unsupported]"),
                "\(r.stderr)")
        #expect(!r.stderr.contains("translation"), "\(r.stderr)")

        let loop = Self.head + """
            >
              <state id="ping"><transition target="pong"/></state>
              <state id="pong">
                <transition target="ping"/>
              </state>
            </scxml>
            """
        let looped = Self.importing(loop)
        #expect(looped.text == nil)
        let error = try #require(looped.diagnostics.first)
        #expect(error.message == "the document never settles: eventless transitions with no cond loop forever: "
                + "<transition target=\"pong\"> in \"ping\", then <transition target=\"ping\"> in \"pong\"")
        #expect(Self.position(error, in: looped) == "2:20")
        let note = try #require(error.notes.first)
        #expect(note.message == "then <transition target=\"ping\"> in \"pong\" is taken here")
        #expect(note.range.map { looped.file.location(of: $0.start).line } == 4)
    }

    // MARK: - 6. History defaults in several regions

    /// A history state's default transition may name one state per region of a parallel
    /// state: a deep history in the parallel state, and a shallow one above it. Both import
    /// as `-> a, b`, run as SCXML defines (every target entered, each region's other
    /// states by default), and export back as one transition with both targets.
    @Test func historyDefaultsNameAStatePerRegion() throws {
        let xml = Self.head + """
             initial="closed">
              <state id="closed">
                <transition event="open" target="lastLayout"/>
                <transition event="rewind" target="lastDesk"/>
                <transition event="fresh" target="desk"/>
              </state>
              <parallel id="panels">
                <transition event="close" target="closed"/>
                <state id="toolbar"><state id="plain"><transition event="bold" target="strong"/></state>
                  <state id="strong"><transition event="bold" target="plain"/></state></state>
                <state id="checks"><state id="off"/><state id="spelling"><transition event="spell" target="off"/></state></state>
                <history id="lastLayout" type="deep"><transition target="strong spelling"/></history>
              </parallel>
              <state id="desk">
                <transition event="close" target="closed"/>
                <state id="idle"><transition event="mix" target="mixing"/></state>
                <parallel id="mixing">
                  <state id="left"><state id="dry"/><state id="wet"><transition event="mix" target="dry"/></state></state>
                  <state id="right"><state id="mono"/><state id="stereo"/></state>
                </parallel>
                <history id="lastDesk"><transition target="wet stereo"/></history>
              </state>
            </scxml>
            """
        let r = Self.importing(xml)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(r.diagnostics.isEmpty, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("deep history state lastLayout -> strong, spelling"), "\(text)")
        #expect(text.contains("history state lastDesk -> wet, stereo"), "\(text)")
        Self.expectChecks(text)
        let log = """
            {"time": 0, "event": "open"}
            {"time": 0, "expect": {"state": ["strong", "spelling"]}}
            {"time": 1, "event": "close"}
            {"time": 1, "event": "rewind"}
            {"time": 1, "expect": {"state": ["wet", "stereo"]}}
            {"time": 2, "event": "mix"}
            {"time": 2, "event": "close"}
            {"time": 2, "event": "rewind"}
            {"time": 2, "expect": {"state": ["dry", "mono"]}}

            """
        let spec = try TemporaryFile(name: "studio.machine", contents: text)
        defer { spec.remove() }
        let run = try CLI.run(["replay", "--strict", spec.url.path, "-"], input: log)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let machine = try #require(SCXMLFixtures.machine(spec.url))
        let exported = SCXMLWriter.document(for: machine, source: nil)
        #expect(exported.contains("<history id=\"lastLayout\" type=\"deep\">\n      <transition target=\"strong spelling\"/>"),
                "\(exported)")
        #expect(exported.contains("<transition target=\"wet stereo\"/>"), "\(exported)")
    }

    /// Defaults that cannot be active together (two states of one region) are refused at the
    /// default transition, naming both.
    @Test func historyDefaultsInOneRegionAreRefused() throws {
        let xml = Self.head + """
            >
              <parallel id="p">
                <state id="r1"><state id="a"/><state id="b"/></state>
                <state id="r2"/>
                <history id="h" type="deep">
                  <transition target="a b"/>
                </history>
              </parallel>
            </scxml>
            """
        let r = try CLI.run(["import", "-"], input: xml)
        #expect(r.status == 1 && r.stdout.isEmpty)
        #expect(r.stderr.contains("<stdin>:6:7: error: the history default's targets \"a\" and \"b\" cannot be active together "
                                  + "(only states in different regions of a <parallel> can) [scxml-unsupported]"), "\(r.stderr)")
    }

    /// `statecraft import` prints warnings and notes on standard error, at their place in the
    /// SCXML file, and writes the spec all the same (exit 0).
    @Test func theCommandPrintsWarningsAndWritesTheSpec() throws {
        let xml = Self.head + ">\n  <state id=\"a\">\n    <transition event=\"go\" cond=\"\" target=\"a\"/>\n"
            + "    <onexit><cancel sendid=\"gone\"/></onexit>\n  </state>\n</scxml>\n"
        let r = try CLI.run(["import", "-"], input: xml)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("machine Imported {"), "\(r.stdout)")
        #expect(r.stderr.contains("<stdin>:3:28: warning: cond=\"\" (an empty condition) is not SCXML; read as no condition, as engines read it [scxml-nonstandard]"),
                "\(r.stderr)")
        #expect(r.stderr.contains("<stdin>:4:21: note: <cancel sendid=\"gone\"> cancels nothing: no <send> has that id [scxml-inert]"),
                "\(r.stderr)")
        // The warning comes first: the order of the document.
        let warning = try #require(r.stderr.range(of: "warning:"))
        let note = try #require(r.stderr.range(of: "note:"))
        #expect(warning.lowerBound < note.lowerBound)
    }
}
