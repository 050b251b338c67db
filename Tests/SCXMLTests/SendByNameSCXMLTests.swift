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

    static let cancelled = """
        machine Watch {
            event reset as "watch.reset"
            event lap
            event pick(name: String)
            event next
            event later
            event stop
            var kind: String = "lap"
            var laps: Number = 0
            var resets: Number = 0
            initial state running {
                on pick { kind = name }
                on next { send "\\(kind)" after 1s }
                on later { send "lap" after 2s }
                on stop { cancel lap; cancel reset }
                on lap { laps += 1 }
                on reset { resets += 1 }
            }
        }

        """

    /// `stop` cancels the lap and the reset that a send by name scheduled, then a literal's lap;
    /// the last lap is not cancelled.
    static let cancelledLog = """
        {"event": "next"}
        {"time": 0.5, "event": "stop"}
        {"time": 0.5, "event": "pick", "name": "watch.reset"}
        {"time": 0.5, "event": "next"}
        {"time": 1, "event": "later"}
        {"time": 1.2, "event": "stop"}
        {"time": 2, "expect": {"vars": {"laps": 0, "resets": 0}}}
        {"time": 2, "event": "pick", "name": "lap"}
        {"time": 2, "event": "next"}
        {"time": 4, "expect": {"vars": {"laps": 1, "resets": 0}}}

        """

    /// A `cancel e` cancels by send id, so a send by name that may send a cancelled event
    /// carries that event's id in the document: a literal is written as `send e` is, a computed
    /// name is tested against the names of each cancelled event first (its own and its external
    /// name), and every `<cancel>` of the event names the new ids. The document imports back to
    /// a machine that runs as the spec does, and an SCXML engine we did not write
    /// (python-statemachine, when installed) cancels what the spec cancels.
    @Test func aCancelReachesASendByNameInTheDocument() throws {
        let scxml = try CLI.run(["scxml", "-"], input: Self.cancelled)
        #expect(scxml.status == 0, "\(scxml.stderr)")
        let lines = scxml.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let next = try #require(lines.firstIndex(of: "<transition event=\"next\">"), "\(scxml.stdout)")
        #expect(Array(lines[(next + 1)...].prefix(8)) == [
            "<if cond=\"kind === 'reset' || kind === 'watch.reset'\">",
            "<send event=\"watch.reset\" id=\"send.reset\" delay=\"1000ms\"/>",
            "<elseif cond=\"kind === 'lap'\"/>",
            "<send event=\"lap\" id=\"send.lap\" delay=\"1000ms\"/>",
            "<else/>",
            "<send eventexpr=\"kind === 'reset' ? 'watch.reset' : kind\" delay=\"1000ms\"/>",
            "</if>",
            "</transition>",
        ], "\(scxml.stdout)")
        #expect(lines.contains("<send event=\"lap\" id=\"send.lap.2\" delay=\"2000ms\"/>"), "\(scxml.stdout)")
        let stop = try #require(lines.firstIndex(of: "<transition event=\"stop\">"))
        #expect(Array(lines[(stop + 1)...].prefix(3))
                == ["<cancel sendid=\"send.lap\"/>", "<cancel sendid=\"send.lap.2\"/>", "<cancel sendid=\"send.reset\"/>"])

        let original = try Self.replay(Self.cancelled, Self.cancelledLog)
        #expect(original.status == 0, "\(original.output)")
        let back = try CLI.run(["import", "-"], input: scxml.stdout)
        #expect(back.status == 0, "\(back.stderr)")
        let again = try Self.replay(back.stdout, Self.cancelledLog)
        #expect(again.status == 0, "\(again.output)\n\(back.stdout)")

        guard CrossRunTests.isAvailable else { return }
        let spec = try TemporaryFile(name: "watch.machine", contents: Self.cancelled)
        defer { spec.remove() }
        let log = try TemporaryFile(name: "watch.jsonl", contents: Self.cancelledLog)
        defer { log.remove() }
        let machine = try #require(SCXMLFixtures.machine(spec.url))
        let (steps, finals) = try CrossRunTests.crossRun(scxml.stdout, log: log.url, machine)
        #expect(steps.allSatisfy { $0.error == nil }, "\(steps.compactMap(\.error))")
        let laps = (finals.values.first?["laps"] as? NSNumber)?.doubleValue
        #expect(laps == 1, "python-statemachine: \(finals)")
        #expect(try CrossRunTests.variableDifferences(finals, machine, spec: spec.url, log: log.url).isEmpty)
    }
}
