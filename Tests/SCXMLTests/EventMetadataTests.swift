import Foundation
import Statecraft
import Testing
import TestSupport

/// `_event`'s metadata (SCXML 5.10; issue 35): `type`, `sendid`, `origin`, `origintype`,
/// `invokeid` and `typeof` of them are written as the values the document fixes for every
/// event a transition is taken on, and each translation runs as SCXML says; where the
/// document does not fix a value, or it is one our language has none for, the import is
/// refused at the character of the expression, saying why.
@Suite struct EventMetadataTests {
    // (The document head, import and refusal helpers are `EventValueTests`'.)
    /// An event raised is internal, one the document sends itself is external with its
    /// send's id and the SCXML processor as origin type, a timer carries its send's id, a
    /// completion is internal, one from the app is external, and an `error` event
    /// from outside is the platform's. Each value is a string literal in the spec, and the
    /// run takes every transition whose condition tests them.
    @Test func theValuesTheDocumentFixesAreWrittenAndRun() throws {
        let xml = EventValueTests.head + """
             initial="idle">
              <datamodel>
                <data id="kinds" expr="''"/><data id="ids" expr="''"/><data id="failure" expr="''"/>
              </datamodel>
              <state id="idle">
                <transition event="go" target="busy"><assign location="kinds" expr="_event.type"/></transition>
                <transition event="error.disk"><assign location="failure" expr="_event.type"/></transition>
              </state>
              <state id="busy">
                <onentry>
                  <raise event="inner"/>
                  <send event="ping" id="p1"/>
                  <send event="pong"/>
                  <send event="tick" id="t1" delay="1s"/>
                </onentry>
                <onexit><cancel sendid="t1"/></onexit>
                <transition event="inner" cond="typeof _event.sendid === 'undefined' &amp;&amp; typeof _event.origin === 'undefined' &amp;&amp; typeof _event.origintype === 'undefined'">
                  <assign location="kinds" expr="kinds + ' ' + _event.type"/>
                </transition>
                <transition event="ping" cond="typeof _event.origin === 'string' &amp;&amp; _event.origintype === 'http://www.w3.org/TR/scxml/#SCXMLEventProcessor'">
                  <assign location="kinds" expr="kinds + ' ' + _event.type"/>
                  <assign location="ids" expr="_event.sendid"/>
                </transition>
                <transition event="pong" cond="typeof _event.sendid === 'undefined' &amp;&amp; typeof _event.invokeid === 'undefined'">
                  <assign location="kinds" expr="kinds + ' ' + _event.type"/>
                </transition>
                <transition event="tick" target="closing"><assign location="ids" expr="ids + ' ' + _event.sendid"/></transition>
              </state>
              <state id="closing">
                <final id="closed"/>
                <transition event="done.state.closing" target="idle">
                  <assign location="kinds" expr="kinds + ' ' + _event.type + ' ' + _event.name"/>
                </transition>
              </state>
            </scxml>
            """
        let r = EventValueTests.importing(xml)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("on go -> busy { kinds = \"external\" }"), "\(text)")
        #expect(text.contains("on error_disk { failure = \"platform\" }"), "\(text)")
        #expect(text.contains("on pong if \"undefined\" == \"undefined\" && \"undefined\" == \"undefined\""), "\(text)")
        #expect(text.contains("ids = \"p1\""), "\(text)")
        #expect(text.contains("after 1s -> closing { ids = \"\\(ids) t1\" }"), "\(text)")
        #expect(text.contains("done -> idle { kinds = \"\\(kinds) internal done.state.closing\" }"), "\(text)")
        let spec = try TemporaryFile(name: "doc.machine", contents: text)
        defer { spec.remove() }
        let run = try CLI.run(["replay", "--strict", spec.url.path, "-"], input: """
            {"time": 0, "event": "go"}
            {"time": 0, "expect": {"state": "busy", "vars": {"kinds": "external internal external external", "ids": "p1"}}}
            {"time": 1, "expect": {"state": "idle", "vars": {"kinds": "external internal external external internal done.state.closing", "ids": "p1 t1"}}}
            {"time": 2, "event": "error.disk"}
            {"time": 2, "expect": {"vars": {"failure": "platform"}}}

            """)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)\n\(text)")
    }

    /// The events of a transition on `*` include ones the document never names, so only
    /// `invokeid` (nothing is invoked) is known there; several sends of one event with
    /// different ids agree on `typeof _event.sendid`.
    @Test func whatEveryEventAgreesOnIsKnown() throws {
        let xml = EventValueTests.head + """
             initial="a">
              <state id="a">
                <onentry><send event="b" id="x"/><send event="b" id="y"/></onentry>
                <transition event="b" cond="typeof _event.sendid === 'string'" target="c"/>
              </state>
              <state id="c">
                <transition event="*" cond="typeof _event.invokeid === 'undefined'" target="a"/>
              </state>
            </scxml>
            """
        let r = EventValueTests.importing(xml)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("on b if \"string\" == \"string\" -> c"), "\(text)")
        #expect(text.contains("on b if \"undefined\" == \"undefined\" -> a"), "\(text)")
    }

    /// Each refusal at the character where the expression reads the field.
    @Test(arguments: [
        ("<datamodel><data id=\"n\" expr=\"''\"/></datamodel><state id=\"a\"><onentry>\n"
            + "<assign location=\"n\" expr=\"_event.type\"/></onentry></state>",
         "3:28", "expr=\"…\": '_event.type' has an equivalent only in a transition taken on an event (here there is none)"),
        ("<state id=\"a\">\n<transition cond=\"typeof _event.invokeid === 'undefined'\" target=\"b\"/></state><state id=\"b\"/>",
         "3:19", "cond=\"…\": 'typeof _event.invokeid' has an equivalent only in a transition taken on an event (here there is none)"),
        ("<state id=\"a\"><onentry><raise event=\"e\"/><send event=\"e\"/></onentry>\n"
            + "<transition event=\"e\" cond=\"_event.type == 'internal'\"/></state>",
         "3:29", "cond=\"…\": '_event.type' differs between the events this transition is taken on: 'internal' for 'e' raised "
            + "by <raise>, 'external' for 'e' sent by a <send> without an id"),
        ("<state id=\"a\"><onentry><send event=\"b\" id=\"x\"/><send event=\"b\" id=\"y\"/></onentry>\n"
            + "<transition event=\"b\" cond=\"_event.sendid == 'x'\"/></state>",
         "3:29", "cond=\"…\": '_event.sendid' differs between the events this transition is taken on: 'x' for 'b' sent by "
            + "<send id=\"x\">, 'y' for 'b' sent by <send id=\"y\">"),
        ("<state id=\"a\"><onentry><send event=\"b\" id=\"x\"/><send event=\"c\"/></onentry>\n"
            + "<transition event=\"b c\" cond=\"1 == 1 &amp;&amp; typeof _event.sendid === 'undefined'\"/></state>",
         "3:49", "cond=\"…\": 'typeof _event.sendid' differs between the events this transition is taken on: 'string' for 'b' "
            + "sent by <send id=\"x\">, 'undefined' for 'c' sent by a <send> without an id"),
        ("<state id=\"a\">\n<transition event=\"go\" cond=\"_event.sendid == 'x'\"/></state>",
         "3:30", "cond=\"…\": '_event.sendid' is not known for 'go', which comes from outside the document (nothing in it "
            + "raises or sends 'go')"),
        ("<state id=\"a\"><onentry><raise event=\"e\"/></onentry>\n<transition event=\"*\" cond=\"_event.type == 'internal'\"/></state>",
         "3:29", "cond=\"…\": '_event.type' is not known in a transition on '*', which is taken on any event, also ones the "
            + "document does not name (from outside, or the platform's errors)"),
        ("<state id=\"a\"><onentry><send event=\"e\"/></onentry>\n<transition event=\"e\" cond=\"_event.sendid == 'x'\"/></state>",
         "3:29", "cond=\"…\": '_event.sendid' is undefined here (for 'e' sent by a <send> without an id), which has no "
            + "equivalent here; only typeof _event.sendid === 'undefined' tests it"),
        ("<state id=\"a\"><onentry><raise event=\"e\"/></onentry>\n<transition event=\"e\" cond=\"_event.invokeid == 'x'\"/></state>",
         "3:29", "cond=\"…\": '_event.invokeid' is undefined here (no event comes from an invoked session: <invoke> is not "
            + "supported), which has no equivalent here; only typeof _event.invokeid === 'undefined' tests it"),
        ("<state id=\"a\"><onentry><send event=\"e\"/></onentry>\n<transition event=\"e\" cond=\"_event.origin == 'x'\"/></state>",
         "3:29", "cond=\"…\": '_event.origin' is the session's own URI here ('#_scxml_' and the session id, for 'e' sent by "
            + "a <send> without an id), which has no equivalent here"),
        ("<datamodel><data id=\"v\" expr=\"1\"/></datamodel><state id=\"a\">\n<transition event=\"e\" cond=\"typeof v === 'number'\"/></state>",
         "3:29", "cond=\"…\": 'typeof' has no equivalent here except on the current event's fields (typeof _event.sendid, "
            + "_event.origin, _event.origintype, _event.invokeid, _event.type, _event.name)"),
    ])
    func whatTheDocumentDoesNotFixIsRefused(body: String, at: String, message: String) {
        let r = EventValueTests.refusal(EventValueTests.head + ">\n" + body + "</scxml>")
        #expect(r.message == message)
        #expect(r.at == at, "\(r.message)")
    }
}
