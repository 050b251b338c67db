import Foundation
import Statecraft
import Testing
import TestSupport

/// `<donedata>` in and out: a `<final>`'s data becomes the final state's values
/// (`final state f(x: e)`), read by `done` transitions as `_event.data.x` (`<param>`) or
/// `_event.data` (`<content>`); the export writes them back as `<param name expr>`.
@Suite struct DoneDataImportTests {
    static func document(_ final: String, _ transitions: String, data: String = "") -> String {
        """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="s0">
          <datamodel><data id="n" expr="4"/>\(data)</datamodel>
          <state id="s0" initial="s01">
            \(transitions)
            <state id="s01"><transition target="s02"/></state>
            \(final)
          </state>
          <final id="pass"/>
          <final id="fail"/>
        </scxml>
        """
    }

    /// Imports, then replays with `--settle` from the start: the run must end in `pass`.
    static func endsInPass(_ xml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
        let result = SCXMLImporter.translate(SourceFile(path: "doc.scxml", text: xml), machineName: "Doc", sourceName: "doc.scxml")
        let text = try #require(result.text, "\(result.diagnostics.map(\.message))", sourceLocation: sourceLocation)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("donedata-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("doc.machine")
        try Data(text.utf8).write(to: spec)
        let r = try CLI.run(["replay", "--settle", "--format", "json", spec.path, "-"], input: "")
        #expect(r.stdout.contains(#""state": "pass""#), "\(text)\n\(r.stdout)\(r.stderr)", sourceLocation: sourceLocation)
        return text
    }

    @Test func paramsWithExprAndLocation() throws {
        let text = try Self.endsInPass(Self.document(
            #"<final id="s02"><donedata><param name="code" expr="n * 50"/><param name="who" location="name"/></donedata></final>"#,
            #"<transition event="done.state.s0" cond="_event.data.code == 200 &amp;&amp; _event.data['who'] === 'ann'" target="pass"/>"#
                + #"<transition event="done.state.s0" target="fail"/>"#,
            data: #"<data id="name" expr="'ann'"/>"#))
        #expect(text.contains("final state s02(code: n * 50, who: name)"), "\(text)")
        #expect(text.contains(#"done if code == 200 && who == "ann" -> pass"#), "\(text)")
    }

    @Test(arguments: [
        (#"<content expr="'foo'"/>"#, #"_event.data == 'foo'"#, #"final state s02(data: "foo")"#),
        (#"<content>21</content>"#, #"_event.data == 21"#, "final state s02(data: 21)"),
        (#"<content> some  text </content>"#, #"_event.data === 'some text'"#, #"final state s02(data: "some text")"#),
    ])
    func contentIsReadWhole(content: String, cond: String, written: String) throws {
        let text = try Self.endsInPass(Self.document(
            "<final id=\"s02\"><donedata>\(content)</donedata></final>",
            "<transition event=\"done.state.s0\" cond=\"\(cond)\" target=\"pass\"/><transition event=\"done.state.s0\" target=\"fail\"/>"))
        #expect(text.contains(written), "\(text)")
    }

    /// The values are read in the done transition's actions too.
    @Test func fieldsAreReadInActions() throws {
        _ = try Self.endsInPass(Self.document(
            #"<final id="s02"><donedata><param name="x" expr="n + 1"/></donedata></final>"#,
            #"<transition event="done.state.s0" target="s1"><assign location="n" expr="_event.data.x * 2"/></transition>"#)
            .replacingOccurrences(of: "<final id=\"pass\"/>",
                                  with: #"<state id="s1"><transition cond="n == 10" target="pass"/><transition target="fail"/></state><final id="pass"/>"#))
    }

    @Test(arguments: [
        (#"<final id="s02"><donedata><param name="x" location="nowhere"/></donedata></final>"#,
         #"<transition event="done.state.s0" target="pass"/>"#,
         #"<param location="nowhere">: not a <data> id (SCXML raises error.execution"#),
        (#"<final id="s02"><donedata><param name="x" expr="1"/></donedata></final><final id="s03"/>"#,
         #"<transition event="done.state.s0" target="pass"/>"#,
         #"<final id="s03"> gives no <donedata> and <final id="s02"> <param>s "x""#),
        (#"<final id="s02"><donedata><param name="x" expr="1"/></donedata></final>"#,
         #"<transition event="done.state.s0" cond="_event.data.y == 1" target="pass"/>"#,
         #"_event.data.y of done.state.s0 is undefined: the <donedata> of its <final> states gives "x""#),
        (#"<final id="s02"/>"#,
         #"<transition event="done.state.s0" cond="_event.data == 1" target="pass"/>"#,
         #"_event.data of done.state.s0 is undefined: no <final> of "s0" has <donedata>"#),
        (#"<final id="s02"><donedata><content expr="1"/><param name="x" expr="1"/></donedata></final>"#,
         #"<transition event="done.state.s0" target="pass"/>"#,
         "<content> with <param> in one <donedata>"),
    ])
    func whatStaysOutIsRefusedWhereItStands(final: String, transitions: String, message: String) {
        let result = SCXMLImporter.translate(SourceFile(path: "doc.scxml", text: Self.document(final, transitions)),
                                             machineName: "Doc", sourceName: "doc.scxml")
        #expect(result.text == nil)
        #expect(result.diagnostics.map(\.message).contains { $0.contains(message) }, "\(result.diagnostics.map(\.message))")
        #expect(result.diagnostics.allSatisfy { $0.id == .scxmlUnsupported })
    }

    /// A top-level `<final>`'s data goes to an invoking session; nothing invokes this one.
    @Test func topLevelDoneDataIsInert() throws {
        let xml = #"<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a"><state id="a"><transition event="go" target="f"/></state>"#
            + "\n" + #"<final id="f"><donedata><param name="x" expr="1"/></donedata></final></scxml>"#
        let result = SCXMLImporter.translate(SourceFile(path: "doc.scxml", text: xml), machineName: "Doc", sourceName: "doc.scxml")
        let text = try #require(result.text)
        #expect(text.contains("final state f\n"), "\(text)")
        let note = try #require(result.diagnostics.first)
        #expect(note.id == .scxmlInert)
        #expect(result.file.location(of: note.range.start).line == 2)
    }

    /// Out as `<donedata><param name expr/>`, and back as the same values and reads.
    @Test func exportAndImportRoundTrip() throws {
        let spec = "Tests/CheckerTests/Fixtures/done-data.machine"
        let exported = try CLI.run(["scxml", spec])
        #expect(exported.status == 0, "\(exported.stderr)")
        let final = ["    <final id=\"settled\">", "      <donedata>", "        <param name=\"ok\" expr=\"true\"/>",
                     "        <param name=\"total\" expr=\"paid * 2\"/>", "        <param name=\"note\" expr=\"'paid ' + (paid)\"/>",
                     "      </donedata>", "    </final>"].joined(separator: "\n")
        #expect(exported.stdout.contains(final), "\(exported.stdout)")
        #expect(exported.stdout.contains(#"<transition event="done.state.packing" cond="_event.data.share &gt; 0.5" target="shipping">"#))
        let imported = try CLI.run(["import", "-"], input: exported.stdout)
        #expect(imported.status == 0, "\(imported.stderr)")
        for line in ["final state settled(ok: true, total: paid * 2, note: \"paid \\(paid)\")",
                     "final state boxed(share: 1 / paid, labelled: in(printed))",
                     "done if ok -> shipping { approved = ok; receipt = note; emit charged(total) }",
                     "done(packing) if share > 0.5 -> shipping"] {
            #expect(imported.stdout.contains(line), "\(line)\n\(imported.stdout)")
        }
        let original = try #require(Statecraft.check(source: String(decoding: Repository.bytes(Repository.root.appendingPathComponent(spec)), as: UTF8.self), bounds: nil).machine)
        let back = try #require(Statecraft.check(source: imported.stdout, bounds: nil).machine)
        for s in original.states where !s.doneData.isEmpty {
            let other = try #require(back.states.first { $0.name == s.name })
            #expect(other.doneData.map { "\($0.name): \($0.value.type.rawValue)" } == s.doneData.map { "\($0.name): \($0.value.type.rawValue)" })
        }
    }
}
