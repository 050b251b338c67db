import Foundation
import Statecraft
import Testing
import TestSupport

/// `<send eventexpr>` computed at run time (issue 35) is a send by name, `send "\(expr)"`, both
/// ways: the import of an `eventexpr` read from `_event.data` or built by concatenation, and the
/// export of a send by name as `eventexpr`, which imports back to a machine that runs the same.
@Suite struct SendByNameSCXMLTests {
    // (The document head, import and refusal helpers are `EventValueTests`'.)
    static func replay(_ text: String, _ log: String) throws -> (status: Int32, output: String) {
        let spec = try TemporaryFile(name: "doc.machine", contents: text)
        defer { spec.remove() }
        let run = try CLI.run(["replay", spec.url.path, "-"], input: log)
        return (run.status, run.stdout + run.stderr)
    }

    @Test func anEventNameFromTheEventsDataOrAConcatenationIsASendByName() throws {
        let xml = EventValueTests.head + """
             initial="idle">
              <datamodel><data id="prefix" expr="'order'"/></datamodel>
              <state id="idle">
                <transition event="go" target="waiting"><send eventexpr="_event.data.which"/></transition>
              </state>
              <state id="waiting">
                <onentry><send eventexpr="prefix + '.' + 'shipped'" delay="1s"/></onentry>
                <transition event="cancel" target="idle"/>
                <transition event="order.shipped" target="done"/>
              </state>
              <final id="done"/>
            </scxml>
            """
        let r = EventValueTests.importing(xml)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("event go(which: String)"), "\(text)")
        #expect(text.contains("on go -> waiting { send \"\\(which)\" }"), "\(text)")
        #expect(text.contains("entry { send \"\\(prefix).shipped\" after 1s }"), "\(text)")
        // `cancel` is sent first, and taken before the delayed `order.shipped`.
        let cancelled = try Self.replay(text, """
            {"event": "go", "which": "cancel"}
            {"time": 0.5, "expect": {"state": "idle"}}

            """)
        #expect(cancelled.status == 0, "\(cancelled.output)")
        let shipped = try Self.replay(text, """
            {"event": "go", "which": "nothing.known"}
            {"event": "go", "which": "idle"}
            {"time": 0.5, "expect": {"state": "idle"}}
            {"time": 0.5, "event": "go", "which": "order.shipped"}
            {"time": 1, "expect": {"state": "done"}}

            """)
        // A name no event has fails the step, where the line is: the run stays in `idle`.
        #expect(shipped.status == 1)
        #expect(shipped.output.contains("event 'go' was rejected: send by name: 'nothing.known' is not an event of this machine"),
                "\(shipped.output)")
        #expect(shipped.output.contains("2 rejected"), "\(shipped.output)")
        #expect(shipped.output.contains("0 failed"), "\(shipped.output)")
    }

    /// What a send by name cannot say is refused, at the element: data it would carry, the
    /// internal queue, a `<cancel>` of its id.
    @Test func whatASendByNameCannotSayIsRefused() {
        let param = EventValueTests.refusal(EventValueTests.head + ">\n<state id=\"s\"><transition event=\"go\">\n"
                                 + "<send eventexpr=\"_event.data.k\">\n<param name=\"n\" expr=\"1\"/></send></transition></state></scxml>")
        #expect(param.message == "a <send> whose eventexpr is computed at run time carries no data "
                + "(the event it names is known only then, and so are its fields)")
        #expect(param.at == "4:1")
        let internalQueue = EventValueTests.refusal(EventValueTests.head + ">\n<state id=\"s\"><transition event=\"go\">\n"
                                         + "<send eventexpr=\"_event.data.k\" target=\"#_internal\"/></transition></state></scxml>")
        #expect(internalQueue.message.contains("whose event is computed at run time is not supported"), "\(internalQueue.message)")
        #expect(internalQueue.at == "3:1")
        let cancel = EventValueTests.refusal(EventValueTests.head + ">\n<state id=\"s\"><transition event=\"go\">\n"
                                  + "<send id=\"x\" eventexpr=\"_event.data.k\" delay=\"1s\"/></transition>\n"
                                  + "<transition event=\"stop\"><cancel sendid=\"x\"/></transition></state></scxml>")
        #expect(cancel.message.contains("cancels a <send> whose event is computed at run time"), "\(cancel.message)")
        #expect(cancel.at.hasPrefix("4:"), "\(cancel.at)")
    }

    static let spec = """
        machine Watch {
            event reset as "watch.reset"
            event lap
            event digit as "DIGIT.*"
            event pick(name: String)
            event next
            var kind: String = "lap"
            var laps: Number = 0
            var resets: Number = 0
            var digits: Number = 0
            initial state running {
                on pick { kind = name }
                on next { send "\\(kind)" after 1s; send "lap" }
                on lap { laps += 1 }
                on reset { resets += 1 }
                on digit { digits += 1 }
            }
        }
        """

    /// The export writes `eventexpr` (mapping a declared name to the document's name where they
    /// differ), and its import runs the same as the spec.
    @Test func theExportOfASendByNameImportsBackAndRunsTheSame() throws {
        let scxml = try CLI.run(["scxml", "-"], input: Self.spec)
        #expect(scxml.status == 0, "\(scxml.stderr)")
        #expect(scxml.stdout.contains("<send eventexpr=\"kind === 'reset' ? 'watch.reset' : kind === 'digit' ? 'DIGIT' : kind\" delay=\"1000ms\"/>"),
                "\(scxml.stdout)")
        let back = try CLI.run(["import", "-"], input: scxml.stdout)
        #expect(back.status == 0, "\(back.stderr)")
        let log = """
            {"event": "next"}
            {"time": 0, "event": "pick", "name": "reset"}
            {"time": 0, "event": "next"}
            {"time": 0, "event": "pick", "name": "watch.reset"}
            {"time": 0, "event": "next"}
            {"time": 0, "event": "pick", "name": "DIGIT.4"}
            {"time": 0, "event": "next"}
            {"time": 2, "expect": {"vars": {"laps": 5, "resets": 2, "digits": 1}}}

            """
        let original = try Self.replay(Self.spec, log)
        let again = try Self.replay(back.stdout, log)
        #expect(original.status == 0, "\(original.output)")
        #expect(again.status == 0, "\(again.output)\n\(back.stdout)")
    }
}
