import Foundation
import Statecraft
import Testing
import TestSupport

/// The content of an `<initial>` transition and of a history state's default transition
/// (issue 35): imported as `initial -> a { … }` and `history state h -> c { … }`, exported
/// back as that content, and run as SCXML runs it.
@Suite struct DefaultEntryImportTests {
    static let head = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" datamodel=\"ecmascript\""

    static func importing(_ xml: String) -> SCXMLImportResult {
        SCXMLImporter.translate(SourceFile(path: "doc.scxml", text: xml), machineName: "Doc", sourceName: "doc.scxml")
    }

    @Test func theContentOfDefaultTransitionsIsKept() throws {
        let xml = Self.head + """
             initial="idle">
              <datamodel><data id="order" expr="0"/></datamodel>
              <state id="idle">
                <transition event="start" target="tour"/>
                <transition event="resume" target="back"/>
                <transition event="skip" target="details"/>
              </state>
              <state id="tour">
                <onentry><assign location="order" expr="1"/></onentry>
                <initial><transition target="welcome"><assign location="order" expr="order * 10 + 2"/></transition></initial>
                <transition event="pause" target="idle"/>
                <state id="welcome">
                  <onentry><assign location="order" expr="order * 10 + 3"/></onentry>
                  <transition event="next" target="details"/>
                </state>
                <state id="details"/>
                <history id="back"><transition target="welcome"><assign location="order" expr="order * 10 + 4"/></transition></history>
              </state>
            </scxml>
            """
        let r = Self.importing(xml)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("initial -> welcome { order = order * 10 + 2 }"), "\(text)")
        #expect(text.contains("history state back -> welcome { order = order * 10 + 4 }"), "\(text)")
        // `tour`'s entry, then the default's actions, then `welcome`'s entry; entering `tour`
        // on the way to `details`, or through what `back` recorded, runs neither.
        let runs: [(String, Double)] = [("start", 123), ("resume", 143), ("skip", 1)]
        for (event, order) in runs {
            let spec = try TemporaryFile(name: "doc.machine", contents: text)
            defer { spec.remove() }
            let log = "{\"time\": 0, \"event\": \"\(event)\"}\n{\"time\": 0, \"expect\": {\"vars\": {\"order\": \(order)}}}\n"
            let run = try CLI.run(["replay", "--strict", spec.url.path, "-"], input: log)
            #expect(run.status == 0, "\(event): \(run.stdout)\(run.stderr)")
        }
        let resumed = try TemporaryFile(name: "doc.machine", contents: text)
        defer { resumed.remove() }
        let again = """
            {"time": 0, "event": "start"}
            {"time": 1, "event": "next"}
            {"time": 2, "event": "pause"}
            {"time": 3, "event": "resume"}
            {"time": 3, "expect": {"state": "details", "vars": {"order": 1}}}

            """
        let run = try CLI.run(["replay", "--strict", resumed.url.path, "-"], input: again)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }

    /// `<scxml>`'s own initial transition has no counterpart with actions.
    @Test func theDocumentsInitialTransitionTakesNoActions() {
        let r = Self.importing(Self.head + ">\n<initial><transition target=\"a\">\n<raise event=\"x\"/></transition></initial>"
                               + "<state id=\"a\"/></scxml>")
        #expect(r.text == nil)
        #expect(r.diagnostics.first?.message == "actions on the document's initial transition are not supported (write them in "
                + "the <onentry> of the state it enters)")
    }

    /// A spec with default-entry actions goes out as that content and comes back the same.
    @Test func theFixtureRoundTrips() throws {
        let url = Repository.root.appendingPathComponent("Tests/CheckerTests/Fixtures/default-entry-actions.machine")
        let machine = try #require(SCXMLFixtures.machine(url))
        let document = SCXMLWriter.document(for: machine, source: nil)
        #expect(document.contains("<initial>\n      <transition target=\"welcome\">\n        <assign location=\"order\""), "\(document)")
        #expect(document.contains("<history id=\"resumePoint\" type=\"shallow\">\n      <transition target=\"welcome\">"), "\(document)")
        let back = SCXMLImporter.translate(SourceFile(path: "tour.scxml", text: document), machineName: "Tour", sourceName: "tour.scxml")
        let text = try #require(back.text, "\(back.diagnostics.map(\.message))")
        #expect(text.contains("initial -> welcome { order = order * 10 + 2; hints = hints + 1; emit hint(1) }"), "\(text)")
        #expect(text.contains("history state resumePoint -> welcome { order = order * 10 + 4; emit hint(0) }"), "\(text)")
    }
}
