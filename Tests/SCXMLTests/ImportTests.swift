import Foundation
import Statecraft
import Testing
import TestSupport

/// `statecraft import`: what it writes for every form it translates, that what it writes
/// behaves as the SCXML document does, and that what it refuses is named where it stands.
@Suite struct ImportTests {
    static let golden = Repository.root.appendingPathComponent("Tests/SCXMLTests/Golden")

    static func importing(_ xml: String, name: String = "doc.scxml") -> SCXMLImportResult {
        SCXMLImporter.translate(SourceFile(path: name, text: xml), machineName: "Doc", sourceName: name)
    }

    /// Every form, in one document; the golden spec is reviewed like code, and it checks.
    @Test func everyFormHasItsTranslation() throws {
        let r = try CLI.run(["import", "Tests/SCXMLTests/Golden/every-form.scxml"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Golden.compare(r.stdout, to: Self.golden.appendingPathComponent("every-form.machine")) == nil)
        let checked = Statecraft.check(source: r.stdout, path: "every-form.machine", bounds: nil)
        #expect(checked.errorCount == 0, "\(checked.diagnostics.map(\.message))")
    }

    /// The translation runs as the document would: a state's timer, `<if>`/`<elseif>`, an
    /// event sent with a payload, a delayed send and a done event of a region.
    @Test func theTranslationBehavesAsTheDocument() throws {
        let spec = Self.golden.appendingPathComponent("every-form.machine").path
        let log = """
            {"time": 0, "event": "power"}
            {"time": 0, "event": "ui_play"}
            {"time": 0.1, "event": "seek", "to": 5}
            {"time": 0.1, "expect": {"state": ["playing", "loud"], "vars": {"lastSeek": 5}, "outputs": [{"name": "started", "args": ["none"]}]}}
            {"time": 0.35, "expect": {"state": ["buffered", "loud"], "outputs": [{"name": "ended", "args": [5, "none"]}]}}
            {"time": 1.05, "expect": {"vars": {"muted": false}}}
            {"time": 1.2, "expect": {"vars": {"muted": true}}}

            """
        // The seek at 0.1 sends `note`, which sends `flash` one second later (t=1.1);
        // `playing`'s timer (armed at 0) takes it to the final `buffered` at 0.3, which
        // completes the region `playback`.
        let r = try CLI.run(["replay", "--strict", spec, "-"], input: log)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    }

    /// What cannot be translated is one error at the element (or the character of the
    /// expression), naming the feature; the exit status is 1 and nothing is written.
    @Test(arguments: [
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><state id=\"a\">\n  <invoke src=\"x.scxml\"/>\n</state></scxml>",
         "2:3", "<invoke> (a child session) is not supported"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><state id=\"a\">\n<transition cond=\"typeof x == 'y'\"/></state></scxml>",
         "2:19", "'typeof' has no equivalent here"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><datamodel><data id=\"n\" expr=\"1\"/></datamodel>\n<state id=\"a\"><transition cond=\"n &lt; 'x'\"/></state></scxml>",
         "2:40", "'<' compares Numbers"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n  <state id=\"a\"><onentry><send event=\"e\" target=\"#_parent\"/></onentry></state></scxml>",
         "2:26", "<send target=\"#_parent\"> (another session or I/O processor) is not supported"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" datamodel=\"xpath\">\n<state id=\"a\"><transition cond=\"$x &gt; 1\"/></state></scxml>",
         "2:33", "<transition cond=\"…\">: an expression to evaluate in datamodel=\"xpath\", which is not supported"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" xmlns:statecraft=\"urn:statecraft:spec\" statecraft:outputs=\"tapped(at: Number)\">\n"
            + "<state id=\"a\"><onentry>\n  <log label=\"tapped\"/></onentry></state></scxml>",
         "3:3", "<log label=\"tapped\"> gives 0 values; statecraft:outputs declares 1 (Number)"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><state id=\"a\"><onentry><log label=\"n\" expr=\"[1, 2]\"/>\n"
            + "  <log label=\"n\" expr=\"[true, 2]\"/></onentry></state></scxml>",
         "2:3", "<log label=\"n\">: value 1 is a Bool; another <log label=\"n\"> gives a Number"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" xmlns:statecraft=\"urn:statecraft:spec\"\n"
            + "  statecraft:events=\"press(x: Number, x: Number)\"><state id=\"a\"/></scxml>",
         "1:1", "statecraft:events=\"…\" declares field 'x' of 'press' twice"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" xmlns:statecraft=\"urn:statecraft:spec\"\n"
            + "  statecraft:outputs=\"done; done(n: Number)\"><state id=\"a\"/></scxml>",
         "1:1", "statecraft:outputs=\"…\" declares 'done' twice"),
        ("<?xml version=\"1.0\"?>\n<!DOCTYPE scxml [<!ENTITY pi \"<?t?>\">]>\n<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">&pi;</scxml>",
         "2:1", "a document type declaration (<!DOCTYPE>) is not supported"),
        ("<machine/>", "1:1", "the root element is <machine>, not <scxml>"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><state id=\"a\"/>\n<final id=\"f\"><transition event=\"e\" target=\"a\"/></final></scxml>",
         "2:15", "<transition> inside <final> (a final state has no transitions)"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><final id=\"f\"><state id=\"a\"/></final></scxml>",
         "1:62", "<state> inside <final> (a final state has no children)"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n  <?xml version=\"1.0\"?><state id=\"a\"/></scxml>",
         "2:3", "the XML declaration (<?xml …?>) may only open the document"),
        ("<?xml?><scxml xmlns=\"http://www.w3.org/2005/07/scxml\"/>", "1:1", "the XML declaration has no version"),
        // libxml2 would read on past the damage, to the instruction inside.
        ("<?xml version=\"1.0\" encodinX=\"\n<?t?>\"?><scxml xmlns=\"http://www.w3.org/2005/07/scxml\"/>", "1:21",
         "a damaged XML declaration"),
        ("<?xml encoding=\"UTF-8\" version=\"1.0\"?><scxml xmlns=\"http://www.w3.org/2005/07/scxml\"/>", "1:7",
         "a damaged XML declaration"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><state id=\"a\"/></scxml>\n<?pi data", "2:1",
         "a processing instruction without its closing '?>'"),
        // libxml2 recovers from the stray quotes and reads `<?t?>` as an instruction.
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" a=\"x=\"y\">\n<s<?t?>/></scxml>", "1:",
         "not a well-formed XML document"),
        // A processing instruction over two lines is blanked with its line break kept, so the
        // error below it is still on its own line.
        ("<?t a\nb?>\n<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n<state id=\"a\">\n</scxml>", "5:",
         "not a well-formed XML document"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n<state id=\"a\">\n</scxml>", "3:", "not a well-formed XML document"),
        // Issue 31: a file cut short said only "libxml2 error 65". It says where the file
        // ends and which element is left open, whatever libxml2 expected next.
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n  <state id=\"a\">\n    <transition event=\"go\" target=\"a\"/>\n",
         "3:40", "not a well-formed XML document: the document ends before <state id=\"a\"> (line 2) is closed"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n  <state id=\"a\">\n    <transition event=\"go\" targ",
         "3:32", "not a well-formed XML document: the document ends inside a tag before <state id=\"a\"> (line 2) is closed"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n  <state id=\"a\"/>\n  <!-- the end",
         "3:15", "not a well-formed XML document: the document ends inside a comment before <scxml> (line 1) is closed"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1", "1:", "the document ends inside a tag before its root element is complete"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n  <state id=\"a\">\n  </onentry>\n</scxml>",
         "3:", "not a well-formed XML document: a closing tag that does not match <state id=\"a\"> (line 2)"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><state id=\"a\"x=\"b\"/></scxml>", "1:",
         "not a well-formed XML document: a space expected between attributes"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><state id=a/></scxml>", "1:",
         "not a well-formed XML document: an attribute value without quotes"),
        // Found by fuzz-scxml: a branch after <else> was written after the spec's `else`.
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><state id=\"a\"><onentry><if cond=\"true\"><else/>\n<elseif cond=\"false\"/>"
            + "</if></onentry></state></scxml>", "2:1", "<elseif> after <else> in <if>"),
        ("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><state id=\"a\"><onentry><if cond=\"true\"><else/><else/>"
            + "</if></onentry></state></scxml>", "1:94", "<else> after <else> in <if>"),
    ])
    func refusalsNameTheFeatureWhereItStands(xml: String, position: String, message: String) throws {
        let r = try CLI.run(["import", "-"], input: xml)
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("<stdin>:\(position)"), "\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }

    /// A field of an event only the log sends is typed by where its value goes: sent as a
    /// field, or logged as an output value, that the document declares.
    @Test func aFieldTakesTheTypeOfWhereItsValueGoes() throws {
        let xml = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" xmlns:statecraft=\"urn:statecraft:spec\" "
            + "statecraft:events=\"search(query: String)\" statecraft:outputs=\"said(text: String)\"><state id=\"a\">"
            + "<transition event=\"typed\"><send event=\"search\"><param name=\"query\" expr=\"_event.data.q\"/></send></transition>"
            + "<transition event=\"spoken\"><log label=\"said\" expr=\"_event.data.words\"/></transition>"
            + "<transition event=\"search\"/></state></scxml>"
        let text = try #require(ImportTests.importing(xml).text)
        #expect(text.contains("event typed(q: String)"), "\(text)")
        #expect(text.contains("event spoken(words: String)"), "\(text)")
        let checked = Statecraft.check(source: text, bounds: nil)
        #expect(checked.machine != nil, "\(checked.diagnostics.map(\.message))")
    }

    /// Processing instructions mean nothing in SCXML, with or without data, wherever they
    /// stand; Foundation's parser on Linux crashed on some (`<?t?>`, or one after a damaged
    /// tag), so none reaches it. An escaped one in an attribute value stays text.
    @Test func processingInstructionsAreIgnored() throws {
        let plain = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><state id=\"a\">"
            + "<onentry><log label=\"x\" expr=\"'&lt;?t?&gt;'\"/></onentry></state></scxml>"
        let withInstructions = "<?xml version=\"1.0\"?><?t?>\n<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><?t?><state id=\"a\"><?t data\non two lines?>"
            + "<!-- <?t?> --><onentry><log label=\"x\" expr=\"'&lt;?t?&gt;'\"/></onentry><?t \t?></state><?a-b.c?></scxml><?t?>"
        let expected = try #require(ImportTests.importing(plain).text)
        let r = ImportTests.importing(withInstructions)
        #expect(r.diagnostics.isEmpty, "\(r.diagnostics.map(\.message))")
        #expect(r.text == expected)
    }

    /// `-o` writes the spec; a file that cannot be read exits 2; the spec names its source.
    @Test func writingAndReading() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("t.machine").path
        let r = try CLI.run(["import", "Tests/SCXMLTests/Golden/every-form.scxml", "-o", out])
        #expect(r.status == 0 && r.stdout.isEmpty, "\(r.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.hasPrefix("// Imported from every-form.scxml by `statecraft import`."))
        #expect(try CLI.run(["check", out]).status == 0)
        #expect(try CLI.run(["import", "missing.scxml"]).status == 2)
    }

    /// Documents nested deeper than our parser reads (states, `<if>`s, parentheses) are
    /// refused with an error at the element, never written unreadable or crashing.
    @Test func deepDocumentsAreRefused() throws {
        let states = (0..<45).map { "<state id=\"s\($0)\">" }.joined() + String(repeating: "</state>", count: 45)
        let ifs = "<state id=\"a\"><onentry>" + String(repeating: "<if cond=\"true\">", count: 70)
            + String(repeating: "</if>", count: 70) + "</onentry></state>"
        let parens = "<state id=\"a\"><transition cond=\"" + String(repeating: "(", count: 100_000) + "true"
            + String(repeating: ")", count: 100_000) + "\"/></state>"
        for (body, message) in [(states, "states nested more than 40 levels deep"),
                                (ifs, "nested more than 60 levels deep"),
                                (parens, "the expression nests more than 128 levels deep")] {
            let r = Self.importing("<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">" + body + "</scxml>")
            #expect(r.text == nil)
            #expect(r.diagnostics.first?.message.contains(message) == true, "\(r.diagnostics.map(\.message))")
        }
    }

    /// Our interface attributes (`urn:statecraft:spec`) give events and outputs their
    /// declared fields, even those no transition reads, and data its kind.
    @Test func theInterfaceAttributesDeclareWhatSCXMLCannotSay() throws {
        let r = try CLI.run(["import", "Tests/SCXMLTests/Golden/interface.scxml"])
        #expect(r.status == 0, "\(r.stderr)")
        for line in ["const limit: Number = 3", "var count: Number = 0", "event press(x: Number, y: Number)", "event release",
                     "output tapped(at: Number)", "emit tapped(x)"] {
            #expect(r.stdout.contains(line), "\(line) in\n\(r.stdout)")
        }
        let bad = Self.importing("""
            <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:s="urn:statecraft:spec" s:events="tap(x Number)"/>
            """)
        #expect(bad.diagnostics.first?.message.contains("is not a list of signatures") == true)
    }

    /// Damaged documents (bytes flipped, dropped, duplicated in every W3C test) never crash
    /// the importer, and whatever it writes resolves: it translates or refuses, nothing
    /// in between.
    @Test func damagedDocumentsTranslateOrAreRefused() throws {
        var rng = SeededGenerator(seed: 18)
        let folder = Repository.root.appendingPathComponent("Tests/SCXMLTests/W3C/ecma")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".scxml") }.sorted()
        var translated = 0
        for name in files {
            let original = Repository.bytes(folder.appendingPathComponent(name))
            for _ in 0..<(Int(ProcessInfo.processInfo.environment["STATECRAFT_IMPORT_MUTATIONS"] ?? "") ?? 6) {
                var bytes = original
                Mutation.damage(&bytes, using: &rng)
                let r = SCXMLImporter.translate(SourceFile(path: name, bytes: bytes), machineName: "Damaged", sourceName: name)
                guard let text = r.text else {
                    #expect(r.diagnostics.count == 1, "\(name): a refusal is one error")
                    continue
                }
                translated += 1
                let checked = Statecraft.check(source: text, path: name + ".machine", bounds: nil)
                let errors = checked.diagnostics.filter { $0.severity == .error }.map(\.message).joined(separator: "\n")
                #expect(checked.machine != nil, "\(name) damaged translates into a spec that does not resolve:\n\(text)\n\(errors)")
            }
        }
        #expect(translated > 50, "enough damaged documents still translate to exercise the writer")
    }

    /// SCXML names that are not identifiers are mapped once, consistently, and listed.
    @Test func namesAreMappedConsistently() throws {
        let r = Self.importing("""
            <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="final">
              <state id="final"><transition event="go.now" target="a-b"/></state>
              <state id="a-b"><onentry><raise event="go.now"/></onentry><transition event="go" target="final"/></state>
            </scxml>
            """)
        let text = try #require(r.text)
        #expect(text.contains("//   state \"final\" is final_"))
        #expect(text.contains("//   state \"a-b\" is a_b"))
        #expect(text.contains("//   event \"go.now\" is go_now"))
        #expect(text.contains("on go_now -> a_b"))
        // `go` is a prefix of `go.now`: it matches it as SCXML matches descriptors.
        #expect(text.contains("on go_now, go -> final_"))
    }

    /// A field sent with `namelist` is named after its variable, but inside a transition on
    /// its event it would hide the variable: it takes a name of its own, listed in the first
    /// comment, and reading it still reads the field.
    @Test func aFieldNeverTakesAVariablesName() throws {
        let r = Self.importing("""
            <scxml xmlns="http://www.w3.org/2005/07/scxml">
              <datamodel><data id="count" expr="1"/><data id="seen" expr="0"/></datamodel>
              <state id="a">
                <onentry><send event="tick" namelist="count"/></onentry>
                <transition event="tick" cond="_event.data.count &gt; count"><assign location="seen" expr="_event.data.count"/></transition>
              </state>
            </scxml>
            """)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("//   field \"count\" is count_2"), "\(text)")
        #expect(text.contains("event tick(count_2: Number)"), "\(text)")
        #expect(text.contains("send tick(count)"), "\(text)")
        #expect(text.contains("on tick if count_2 > count"), "\(text)")
        #expect(text.contains("seen = count_2"), "\(text)")
        let checked = Statecraft.check(source: text, bounds: nil)
        let errors = checked.diagnostics.filter { $0.severity == .error }
        #expect(checked.machine != nil && errors.isEmpty, "\(errors.map(\.message))")
    }

    /// A state's timer is taken by a transition whose descriptor also matches another event
    /// (`ping.later` matches `ping.later.now`): the timer becomes `after`, and the other
    /// event a transition of its own with the same target, so the spec declares every event
    /// it names. (Found by fuzz-scxml: the timer's event was listed with `on`, undeclared.)
    @Test func aTimersDescriptorMatchingAnotherEventSplits() throws {
        let r = Self.importing("""
            <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:statecraft="urn:statecraft:spec" statecraft:events="ping.later.now">
              <state id="a">
                <onentry><send event="ping.later" id="ping.later" delay="300ms"/></onentry>
                <onexit><cancel sendid="ping.later"/></onexit>
                <transition event="ping.later" target="b"/>
              </state>
              <final id="b"/>
            </scxml>
            """)
        let text = try #require(r.text, "\(r.diagnostics.map(\.message))")
        #expect(text.contains("after 300ms -> b\n        on ping_later_now -> b"), "\(text)")
        #expect(!text.contains("on ping_later_now, "), "\(text)")
        let checked = Statecraft.check(source: text, bounds: nil)
        let errors = checked.diagnostics.filter { $0.severity == .error }
        #expect(checked.machine != nil && errors.isEmpty, "\(errors.map(\.message))")
    }
}
