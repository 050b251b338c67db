import Foundation
import Statecraft
import Testing
import TestSupport

/// What an event carries and what a `<send>` may choose at run time (issue 35): `<content>`
/// as one unnamed value (`_event.data`), `_event.name` where the transition says which
/// event it is, and `eventexpr`, `delayexpr` and `sendidexpr` read from a `<data>` that
/// only ever holds strings the document writes. Each translation is checked by running it;
/// each refusal names the element and the feature.
@Suite struct EventValueTests {
    static let head = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" datamodel=\"ecmascript\""

    static func importing(_ xml: String) -> SCXMLImportResult {
        SCXMLImporter.translate(SourceFile(path: "doc.scxml", text: xml), machineName: "Doc", sourceName: "doc.scxml")
    }

    /// Replays `log` against `text`; the run must apply every line and meet every expectation.
    static func expectReplays(_ text: String, _ log: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let spec = try TemporaryFile(name: "doc.machine", contents: text)
        defer { spec.remove() }
        let run = try CLI.run(["replay", "--strict", spec.url.path, "-"], input: log)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)\n\(text)", sourceLocation: sourceLocation)
    }

    static func refusal(_ xml: String) -> (message: String, at: String) {
        let r = importing(xml)
        guard r.text == nil, let d = r.diagnostics.first else { return ("imported", "") }
        let at = r.file.location(of: d.range.start)
        return (d.message, "\(at.line):\(at.column)")
    }

    /// A field of an event from the app, copied into a `<data>` whose value is a string,
    /// is a String field: the copy says so. (It was taken for a Number, and the translation
    /// did not check.)
    @Test func aFieldCopiedIntoAStringIsAString() throws {
        let xml = Self.head + """
             initial="idle">
              <datamodel><data id="next" expr="''"/></datamodel>
              <state id="idle">
                <transition event="start" target="busy"><assign location="next" expr="_event.data.then"/></transition>
              </state>
              <state id="busy"/>
            </scxml>
            """
        let text = try #require(Self.importing(xml).text)
        #expect(text.contains("event start(then: String)"), "\(text)")
        try Self.expectReplays(text, """
            {"time": 0, "event": "start", "then": "courier"}
            {"time": 0, "expect": {"state": "busy", "vars": {"next": "courier"}}}

            """)
    }

    /// `<content>` text is read as the ECMAScript data model reads it: a JSON number, a
    /// boolean, a JSON string, and other text as a string with its whitespace normalized;
    /// `<content expr>` is an expression. It travels as the event's field `data`.
    @Test func contentIsOneValue() throws {
        let xml = Self.head + """
             initial="idle">
              <datamodel>
                <data id="weight" expr="0"/><data id="fragile" expr="false"/>
                <data id="label" expr="''"/><data id="note" expr="''"/><data id="twice" expr="0"/>
              </datamodel>
              <state id="idle">
                <transition event="go" target="packing"/>
              </state>
              <state id="packing">
                <onentry>
                  <send event="weighed"><content>12.5</content></send>
                  <send event="checked"><content> true </content></send>
                  <send event="labelled"><content>"  to:  Ada "</content></send>
                  <send event="noted"><content>
                    handle   with
                    care</content></send>
                  <send event="doubled"><content expr="weight * 2"/></send>
                </onentry>
                <transition event="weighed"><assign location="weight" expr="_event.data"/></transition>
                <transition event="checked" cond="_event.data"><assign location="fragile" expr="_event.data"/></transition>
                <transition event="labelled"><assign location="label" expr="_event.data"/></transition>
                <transition event="noted"><assign location="note" expr="_event.data"/></transition>
                <transition event="doubled" target="idle"><assign location="twice" expr="_event.data"/></transition>
              </state>
            </scxml>
            """
        let r = Self.importing(xml)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("event weighed(data: Number)"), "\(text)")
        #expect(text.contains("event checked(data: Bool)"), "\(text)")
        #expect(text.contains("send noted(\"handle with care\")"), "\(text)")
        #expect(text.contains("send labelled(\"  to:  Ada \")"), "\(text)")
        #expect(text.contains("on weighed { weight = data }"), "\(text)")
        // The value is what the expression was when it was sent: `weight` is still 0 then.
        try Self.expectReplays(text, """
            {"time": 0, "event": "go"}
            {"time": 0, "expect": {"state": "idle", "vars": {"weight": 12.5, "fragile": true, "label": "  to:  Ada ", "note": "handle with care", "twice": 0}}}

            """)
    }

    /// Inline `<data>` content is read like `<content>`: a JSON number, boolean or string, or
    /// text with its whitespace normalized, typed by what it is.
    @Test func inlineDataIsALiteral() throws {
        let xml = Self.head + """
             initial="idle">
              <datamodel>
                <data id="limit"> 3 </data><data id="enabled">false</data><data id="quoted">"a  b"</data>
                <data id="text">
                  this  is
                  a string
                </data>
              </datamodel>
              <state id="idle">
                <transition event="go" cond="limit === 3 &amp;&amp; !enabled &amp;&amp; quoted === 'a  b' &amp;&amp; text === 'this is a string'" target="done"/>
              </state>
              <final id="done"/>
            </scxml>
            """
        let r = Self.importing(xml)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("public var limit: Number = 3"), "\(text)")
        #expect(text.contains("public var enabled: Bool = false"), "\(text)")
        #expect(text.contains("public var quoted: String = \"a  b\""), "\(text)")
        #expect(text.contains("public var text: String = \"this is a string\""), "\(text)")
        try Self.expectReplays(text, """
            {"time": 0, "event": "go"}
            {"time": 0, "expect": {"state": "done"}}

            """)
        let array = Self.refusal(Self.head + ">\n<datamodel>\n<data id=\"v\">[1, 2, 3]</data></datamodel><state id=\"a\"/></scxml>")
        #expect(array.message == "<data> holding a JSON object or array is not supported (a value is a number, string or boolean)")
        #expect(array.at == "3:1")
    }

    /// What a typed value cannot be, or an event that carries both kinds of payload, is
    /// refused at the element.
    @Test(arguments: [
        ("<state id=\"a\"><onentry>\n<send event=\"e\"><content>{\"x\": 1}</content></send></onentry></state>",
         "3:17", "<content> holding a JSON object or array is not supported (a payload is a number, string or boolean)"),
        ("<state id=\"a\"><onentry>\n<send event=\"e\"><content><b/></content></send></onentry></state>",
         "3:17", "<content> holding XML is not supported (a payload is a number, string or boolean)"),
        ("<state id=\"a\"><onentry>\n<send event=\"e\"><param name=\"x\" expr=\"1\"/><content>1</content></send></onentry></state>",
         "3:43", "<content> with <param> or namelist in one <send> (SCXML allows one or the other)"),
        ("<state id=\"a\"><onentry><send event=\"e\"><content>1</content></send></onentry>\n"
            + "<transition event=\"e\" cond=\"_event.data.x == 1\"/></state>",
         "3:29", "cond=\"…\": '_event.data.x': event 'e' is sent with <content> (one value, read as _event.data), not named fields"),
        ("<state id=\"a\"><onentry><send event=\"e\"><param name=\"x\" expr=\"1\"/></send></onentry>\n"
            + "<transition event=\"e\" cond=\"_event.data == 1\"/></state>",
         "3:29", "cond=\"…\": '_event.data' as a whole: event 'e' carries named fields (<param> or namelist); read one as _event.data.name"),
        ("<state id=\"a\"><onentry><send event=\"e\"><content>1</content></send>\n<send event=\"e\"/></onentry></state>",
         "3:1", "<send event=\"e\"> without <content>, which another send of it carries (undefined in ECMAScript)"),
    ])
    func contentRefusals(body: String, at: String, message: String) {
        let r = Self.refusal(Self.head + ">\n" + body + "</scxml>")
        #expect(r.message == message)
        #expect(r.at == at, "\(r.message)")
    }

    /// `_event.name` is the event's name in a transition taken on one event, and refused
    /// where the event is not known from the document (several events, or an entry block).
    @Test func theEventsNameIsKnownWhereTheTransitionSaysIt() throws {
        let xml = Self.head + """
             initial="idle">
              <datamodel><data id="last" expr="''"/></datamodel>
              <state id="idle">
                <transition event="ping.fast" target="idle"><assign location="last" expr="_event.name"/></transition>
                <transition event="pong" cond="_event.name == 'pong'" target="done"/>
              </state>
              <final id="done"/>
            </scxml>
            """
        let r = Self.importing(xml)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("on ping_fast -> idle { last = \"ping.fast\" }"), "\(text)")
        try Self.expectReplays(text, """
            {"time": 0, "event": "ping_fast"}
            {"time": 0, "expect": {"state": "idle", "vars": {"last": "ping.fast"}}}
            {"time": 1, "event": "pong"}
            {"time": 1, "expect": {"state": "done"}}

            """)
        let several = Self.refusal(Self.head + ">\n<state id=\"a\">\n<transition event=\"b c\" cond=\"_event.name == 'b'\"/></state></scxml>")
        #expect(several.message == "cond=\"…\": '_event.name' has an equivalent only in a transition taken on one event (here it may be several, or none)")
        #expect(several.at == "3:31")
        let entry = Self.refusal(Self.head + ">\n<datamodel><data id=\"n\" expr=\"''\"/></datamodel><state id=\"a\"><onentry>\n"
                                 + "<assign location=\"n\" expr=\"_event.type\"/></onentry></state></scxml>")
        #expect(entry.message == "expr=\"…\": '_event.type' has an equivalent only in a transition taken on an event (here there is none)")
    }

    /// `eventexpr`, `delayexpr` and `sendidexpr` that read a `<data>` holding only strings
    /// the document writes become a choice among those values; it runs as SCXML runs it.
    @Test func anAttributeComputedFromKnownStringsIsAChoice() throws {
        let xml = Self.head + """
             initial="idle">
              <datamodel>
                <data id="kind" expr="'parcel'"/><data id="pace" expr="'1s'"/><data id="recall" expr="'none'"/>
              </datamodel>
              <state id="idle">
                <transition event="go" target="sending"/>
                <transition event="letters"><assign location="kind" expr="'letter'"/><assign location="pace" expr="'500ms'"/></transition>
                <transition event="recall"><assign location="recall" expr="'remind'"/></transition>
              </state>
              <state id="sending">
                <onentry>
                  <send eventexpr="kind" delayexpr="pace"/>
                  <send event="reminder" id="remind" delay="200ms"/>
                  <cancel sendidexpr="recall"/>
                </onentry>
                <transition event="reminder"><log label="reminded"/></transition>
                <transition event="parcel" target="idle"><log label="delivered" expr="'parcel'"/></transition>
                <transition event="letter" target="idle"><log label="delivered" expr="'letter'"/></transition>
              </state>
            </scxml>
            """
        let r = Self.importing(xml)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("if kind == \"parcel\" && pace == \"1s\" { send parcel after 1s }"), "\(text)")
        #expect(text.contains("if recall == \"remind\" { cancel reminder }"), "\(text)")
        try Self.expectReplays(text, """
            {"time": 0, "event": "go"}
            {"time": 0.5, "expect": {"state": "sending", "outputs": [{"name": "reminded"}]}}
            {"time": 1, "expect": {"state": "idle", "outputs": [{"name": "delivered", "args": ["parcel"]}]}}
            {"time": 2, "event": "letters"}
            {"time": 2, "event": "recall"}
            {"time": 2, "event": "go"}
            {"time": 2.5, "expect": {"state": "idle", "outputs": [{"name": "delivered", "args": ["letter"]}]}}

            """)
    }

    /// A state's timer written with a `delayexpr` that a `<data>` chooses is a choice of
    /// sends that the exit cancels, not one `after` transition.
    @Test func aTimerWithAChosenDelayIsAChoiceOfSends() throws {
        let xml = Self.head + """
             initial="waiting">
              <datamodel><data id="pace" expr="'1s'"/></datamodel>
              <state id="waiting">
                <onentry><send event="tick" id="t" delayexpr="pace"/></onentry>
                <onexit><cancel sendid="t"/></onexit>
                <transition event="tick" target="waiting"><assign location="pace" expr="'2s'"/></transition>
              </state>
            </scxml>
            """
        let r = Self.importing(xml)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("if pace == \"1s\" { send tick after 1s } else if pace == \"2s\" { send tick after 2s }"), "\(text)")
        #expect(text.contains("exit { cancel tick }"), "\(text)")
        try Self.expectReplays(text, """
            {"time": 1, "expect": {"vars": {"pace": "2s"}}}
            {"time": 2.5, "expect": {"vars": {"pace": "2s"}}}

            """)
    }

    /// A value computed otherwise is refused: a `<data>` that is ever assigned something
    /// other than a string literal, or an expression that is not a name. (An event name so
    /// computed is a send by name: `SendByNameSCXMLTests`.)
    @Test func otherComputedAttributesAreRefused() throws {
        let assigned = Self.importing(Self.head + ">\n<datamodel><data id=\"k\" expr=\"'a'\"/></datamodel>\n"
                                      + "<state id=\"s\"><onentry><assign location=\"k\" expr=\"k + 'b'\"/>\n"
                                      + "<send eventexpr=\"k\"/></onentry></state></scxml>")
        let text = try #require(assigned.text, "\(assigned.diagnostics.map(\.message))")
        #expect(text.contains("send \"\\(k)\""), "\(text)")
        let cancel = Self.refusal(Self.head + ">\n<datamodel><data id=\"k\" expr=\"'a'\"/></datamodel>\n"
                                  + "<state id=\"s\"><onentry>\n<cancel sendidexpr=\"'x' + k\"/></onentry></state></scxml>")
        #expect(cancel.message.hasPrefix("<cancel sendidexpr=\"…\">: a send id computed at run time is supported only"))
        let delay = Self.refusal(Self.head + ">\n<datamodel><data id=\"k\" expr=\"'soon'\"/></datamodel>\n"
                                 + "<state id=\"s\"><onentry>\n<send event=\"e\" delayexpr=\"k\"/></onentry></state></scxml>")
        #expect(delay.message == "delayexpr=\"…\": 'soon', a value it can hold, is not a duration such as 1s or 500ms")
    }
}
