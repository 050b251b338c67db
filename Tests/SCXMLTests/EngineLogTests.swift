import Foundation
import Statecraft
import Testing
import TestSupport

/// A log recorded from an SCXML engine names events as the document does (`watch.reset`), and
/// with the extensions SCXML's prefix matching takes (`DIGIT.5` for a transition on `DIGIT`).
/// `statecraft import` declares each event with those names (`as "watch.reset.*"`), so such a
/// log replays against the imported spec unchanged, and `statecraft scxml` writes them back.
@Suite struct EngineLogTests {
    static let document = "Tests/SCXMLTests/Golden/keypad.scxml"
    static let log = "Tests/SCXMLTests/Golden/keypad.engine.jsonl"

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("engine-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The import is reviewed like code: every event a transition names takes its extensions,
    /// the renamed ones keep their SCXML names, the descriptor `watch.lap.*` declares
    /// `watch.lap`, and `DIGIT.0` is an event of its own beside `DIGIT`.
    @Test func theImportDeclaresTheEnginesNames() throws {
        let r = try CLI.run(["import", Self.document])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Golden.compare(r.stdout, to: ImportTests.golden.appendingPathComponent("keypad.machine")) == nil)
        let checked = Statecraft.check(source: r.stdout, path: "keypad.machine", bounds: nil)
        #expect(checked.errorCount == 0 && checked.warningCount == 0, "\(checked.diagnostics.map(\.message))")
    }

    /// The engine's log, in the document's names and their extensions, replays against the
    /// import unchanged, every expectation holding; the trace names each event as the spec
    /// declares it.
    @Test func theEnginesLogReplaysUnchanged() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("keypad.machine").path
        #expect(try CLI.run(["import", Self.document, "-o", spec]).status == 0)
        let replay = try CLI.run(["replay", "--trace", spec, Self.log])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("11 applied, 1 ignored, 0 rejected"), "\(replay.stdout)")
        #expect(replay.stdout.contains("6 expectations (0 failed)"), "\(replay.stdout)")
        for line in ["line 1, t=0: DIGIT: stays in idle (targetless); set digits = 1",
                     "line 5, t=0: watch_lap: stays in running (targetless); set laps = 1",
                     "line 9, t=0: DIGIT: ignored in running",
                     "line 11, t=0: DIGIT_0: running -> idle; set digits = 0",
                     "line 13, t=0: DIGIT_0: stays in idle (targetless); set digits = 1"] {
            #expect(replay.stdout.contains(line), "\(line)\n\(replay.stdout)")
        }
        // A name the document never uses is still unknown: the log is refused, or with
        // --unknown-events ignore, counted.
        let stray = try CLI.run(["replay", spec, "-"], input: "{\"event\": \"watch.stop\"}\n")
        #expect(stray.status == 2 && (stray.stdout + stray.stderr).contains("unknown event 'watch.stop'"), "\(stray.stdout)\(stray.stderr)")
        let ignored = try CLI.run(["replay", "--unknown-events", "ignore", spec, "-"], input: "{\"event\": \"watch.stop\"}\n")
        #expect(ignored.status == 0 && ignored.stdout.contains("'watch.stop' ×1"), "\(ignored.stdout)")
    }

    /// Exported, the spec's events carry their SCXML names again (in transitions without the
    /// `.*`, which is how SCXML's transitions match anyway; in `statecraft:events` with it), and
    /// importing that document gives the same spec back.
    @Test func aRoundTripKeepsTheEnginesNames() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("keypad.machine").path
        let scxml = folder.appendingPathComponent("keypad.scxml").path
        #expect(try CLI.run(["import", Self.document, "-o", spec]).status == 0)
        let exported = try CLI.run(["scxml", spec, "-o", scxml])
        #expect(exported.status == 0, "\(exported.stderr)")
        let xml = try String(contentsOfFile: scxml, encoding: .utf8)
        for attribute in ["event=\"watch.start\"", "event=\"DIGIT DIGIT.0\"", "event=\"watch.lap\"", "event=\"DIGIT.0\"",
                          "event=\"watch.reset\"", "statecraft:events=\"watch.start.*; DIGIT.*; DIGIT.0.*; watch.reset.*; watch.lap.*\""] {
            #expect(xml.contains(attribute), "\(attribute)\n\(xml)")
        }
        let back = try CLI.run(["import", scxml])
        #expect(back.status == 0, "\(back.stderr)")
        let original = try String(contentsOfFile: spec, encoding: .utf8)
        // Only the first comment, which names the file imported, differs.
        #expect(back.stdout.split(separator: "\n").dropFirst() == original.split(separator: "\n").dropFirst(), "\(back.stdout)")
        let again = folder.appendingPathComponent("back.machine").path
        #expect(try CLI.run(["import", scxml, "-o", again]).status == 0)
        let replay = try CLI.run(["replay", again, Self.log])
        #expect(replay.status == 0 && replay.stdout.contains("6 expectations (0 failed)"), "\(replay.stdout)\(replay.stderr)")
    }

    /// An event whose SCXML name is an identifier keeps it, even when a dotted name written
    /// earlier would have been given it (`a.b` is `a_b_2`, since `a_b` is an event of its
    /// own): no external name is another event's name, and each is told apart in a log.
    @Test func anIdentifierStaysItsEventsName() throws {
        let xml = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s">
              <state id="s"><transition event="a.b" target="t"/></state>
              <state id="t"><transition event="a_b" target="s"/></state>
            </scxml>
            """
        let r = ImportTests.importing(xml)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("event a_b_2 as \"a.b.*\"\n") && text.contains("event a_b as \"a_b.*\"\n"), "\(text)")
        let checked = Statecraft.check(source: text, path: "doc.machine", bounds: nil)
        #expect(checked.errorCount == 0, "\(checked.diagnostics.map(\.message))")
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("doc.machine")
        try text.write(to: spec, atomically: true, encoding: .utf8)
        let replay = try CLI.run(["replay", "--trace", spec.path, "-"],
                                 input: "{\"event\": \"a.b\"}\n{\"event\": \"a_b.x\"}\n{\"expect\": \"s\"}\n")
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("line 1, t=0: a_b_2: s -> t") && replay.stdout.contains("line 2, t=0: a_b: t -> s"),
                "\(replay.stdout)")
    }

    /// A spec's events declared under other names go out under those names, and come back
    /// with the spec's own (`statecraft:event-names`) and the same `as`, so the same log
    /// replays against both alike. `zero` (`as "DIGIT.0"`) goes out as `zero`: under
    /// `DIGIT.0`, the document's transition on `DIGIT` would take it too.
    @Test func aSpecsOwnEventNamesComeBack() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = "Tests/CheckerTests/Fixtures/external-names.machine"
        let scxml = folder.appendingPathComponent("names.scxml").path
        let back = folder.appendingPathComponent("names.machine").path
        #expect(try CLI.run(["scxml", original, "-o", scxml]).status == 0)
        let xml = try String(contentsOfFile: scxml, encoding: .utf8)
        #expect(xml.contains("statecraft:event-names=\"watch.start = start; watch.reset = reset; watch.lap = lap\""),
                "\(xml)")
        #expect(xml.contains("<transition event=\"watch.lap\">") && xml.contains("<transition event=\"DIGIT\">"), "\(xml)")
        let imported = try CLI.run(["import", scxml, "-o", back])
        #expect(imported.status == 0, "\(imported.stderr)")
        func events(_ path: String) throws -> [String] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
                .filter { $0.hasPrefix("    event ") }.map(String.init)
        }
        let declared = try events(Repository.root.appendingPathComponent(original).path)
        #expect(try events(back) == declared.map { $0 == "    event zero as \"DIGIT.0\"" ? "    event zero" : $0 })
        // The log with `zero` under its own name, the one the import has.
        let log = folder.appendingPathComponent("engine.jsonl").path
        let text = try String(contentsOf: Repository.root.appendingPathComponent("Tests/CodegenTests/Logs/external-names/engine.jsonl"),
                              encoding: .utf8)
        try text.replacingOccurrences(of: "\"DIGIT.0\"}", with: "\"zero\"}").write(toFile: log, atomically: true, encoding: .utf8)
        let first = try CLI.run(["replay", "--format", "json", original, log])
        let second = try CLI.run(["replay", "--format", "json", back, log])
        #expect(first.status == 0 && second.status == 0, "\(second.stdout)")
        #expect(try RoundTripTests.outcome(first.stdout, variables: nil) == RoundTripTests.outcome(second.stdout, variables: nil))
    }

    /// `statecraft:event-names` that does not pair an event of the document with a free
    /// identifier is refused at `<scxml>`.
    @Test func eventNamesThatDoNotFitAreRefused() {
        for names in ["go = 1st", "stop = go", "nothing = x", "go"] {
            let xml = """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:statecraft="urn:statecraft:spec" version="1.0" \
                statecraft:event-names="\(names)">
                  <state id="s"><transition event="go" target="s"/><transition event="stop" target="s"/></state>
                </scxml>
                """
            let r = ImportTests.importing(xml)
            #expect(r.text == nil && r.diagnostics.first?.message.hasPrefix("statecraft:event-names=\"…\" gives '\(names)'") == true,
                    "\(names): \(r.diagnostics.map(\.message))")
        }
    }
}
