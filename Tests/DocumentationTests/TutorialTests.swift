import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Statecraft
import Testing
import TestSupport

/// Every file the DocC tutorials show does what its step says.
///
/// A tutorial shows its code through `@Code(name: NAME, file: FILE)`, FILE being under
/// `Tutorials/Resources/`. The files are taken in the order the tutorial shows them, as the
/// harness takes a page's code blocks (`SampleTests`), in a scratch folder that starts as a
/// copy of `Specs/`: a spec (`.machine`) or log (`.jsonl`) is written there as NAME, a
/// `.console` file's commands run there and print exactly what the file shows, a spec is
/// checked clean unless a later console file shows what `statecraft check` says about it, a
/// `.swift` file is a copy of a file under `Samples/` (which this target compiles and whose
/// tests run it), and a `.yml` file is a verbatim part of a workflow that other tests run.
/// A resource no tutorial shows, or of a kind this test cannot test, fails.
@Suite struct TutorialTests {
    static let folder = Documentation.catalogue.appendingPathComponent("Tutorials")
    static let resources = folder.appendingPathComponent("Resources")

    /// The workflows a `.yml` resource may be part of: the example, whose statecraft steps
    /// `Tests/ReportTests/WorkflowExampleTests` runs, and the repository's own.
    static let workflows = ["Tests/Workflows/specs.yml", ".github/workflows/ci.yml"]

    /// The pictures and the spec each is drawn from (`statecraft dot -T svg`).
    static let drawings = ["pull-to-refresh.svg": "pull-05.machine", "checkout.svg": "checkout-03.machine"]

    /// The kinds of resource this test knows how to test.
    static let testedExtensions: Set<String> = ["machine", "console", "jsonl", "swift", "yml", "svg"]

    /// The tutorials' file names (`@Tutorial` files; the table of contents is `@Tutorials`).
    static var tutorials: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".tutorial") }.sorted().filter { name in
            let text = (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
            return text.contains("@Tutorial(")
        }
    }

    /// What a tutorial file shows with `@Code`, in order.
    struct Shown {
        var name: String
        var file: String
    }

    static func shown(in text: String) -> [Shown] {
        var shown: [Shown] = []
        var rest = Substring(text)
        while let code = rest.range(of: "@Code(") {
            let call = rest[code.upperBound...].prefix { $0 != ")" }
            if let name = argument("name", in: call), let file = argument("file", in: call) {
                shown.append(Shown(name: name, file: file))
            }
            rest = rest[code.upperBound...]
        }
        return shown
    }

    /// Every resource a tutorial file names: `@Code`'s files and `@Image`'s sources.
    static func referenced(in text: String) -> Set<String> {
        var names = Set(shown(in: text).map(\.file))
        var rest = Substring(text)
        while let image = rest.range(of: "@Image(") {
            if let source = argument("source", in: rest[image.upperBound...].prefix { $0 != ")" }) { names.insert(source) }
            rest = rest[image.upperBound...]
        }
        return names
    }

    /// The string value of `label: "value"` in a directive's arguments.
    static func argument(_ label: String, in call: Substring) -> String? {
        guard let start = call.range(of: label + ": \"") else { return nil }
        let value = call[start.upperBound...].prefix { $0 != "\"" }
        return String(value)
    }

    static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    @Test func everyResourceIsShownAndOfAKindThatIsTested() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.resources.path).sorted()
        var referenced: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.folder.path) where name.hasSuffix(".tutorial") {
            referenced.formUnion(Self.referenced(in: try Self.text(Self.folder.appendingPathComponent(name))))
        }
        for file in files {
            if !referenced.contains(file) { Issue.record("Tutorials/Resources/\(file) is not shown by any tutorial") }
            if !Self.testedExtensions.contains((file as NSString).pathExtension) {
                Issue.record("Tutorials/Resources/\(file) is of a kind TutorialTests does not test")
            }
        }
        for name in referenced.sorted() where !files.contains(name) {
            Issue.record("a tutorial shows Tutorials/Resources/\(name), which does not exist")
        }
        #expect(Self.tutorials.count == 5)
    }

    /// Code belongs in `@Code` files, which this suite tests; the prose has no fenced block.
    @Test(arguments: tutorials)
    func theProseHasNoCodeBlock(tutorial: String) throws {
        let text = try Self.text(Self.folder.appendingPathComponent(tutorial))
        #expect(Documentation.blocks(of: text, page: tutorial).isEmpty)
    }

    @Test(arguments: tutorials)
    func everyStepWorks(tutorial: String) throws {
        let text = try Self.text(Self.folder.appendingPathComponent(tutorial))
        let shown = Self.shown(in: text)
        #expect(!shown.isEmpty)
        try SampleTests().run(shown.map(Self.block), wholeFiles: true)
    }

    /// A `@Code` file as the harness's code block: its tag from its extension, NAME as the
    /// file it is written to, a `.yml` file as an excerpt of the workflow it is part of.
    static func block(_ shown: Shown) throws -> CodeBlock {
        let url = resources.appendingPathComponent(shown.file)
        let text = try Self.text(url)
        let page = "Sources/Statecraft/Statecraft.docc/Tutorials/Resources/" + shown.file
        let ext = url.pathExtension
        let tag = ["machine": "statecraft", "console": "console", "jsonl": "jsonl", "swift": "swift"][ext] ?? ext
        var block = CodeBlock(page: page, line: 0, tag: tag, text: text,
                              file: ["machine", "jsonl"].contains(ext) ? shown.name : nil, excerpt: nil)
        if ext == "yml" {
            block.excerpt = workflows.first { workflow in
                (try? Self.text(Repository.root.appendingPathComponent(workflow)))
                    .map { containsLines(outputLines($0), outputLines(text)) } ?? false
            } ?? workflows[0]
        }
        return block
    }

    /// The pictures are the tutorial's spec drawn today: byte for byte under the Graphviz
    /// that drew them, with the same titles and labels under another.
    @Test func thePicturesAreTheSpecsDrawnToday() throws {
        for (picture, _) in Self.drawings {
            let committed = try Self.text(Self.resources.appendingPathComponent(picture))
            #expect(XMLParser(data: Data(committed.utf8)).parse(), "\(picture) is not well-formed XML")
        }
        try Skip.unless(ExternalTool.find("dot") != nil, "Graphviz is not installed", unlessRequiredBy: "STATECRAFT_REQUIRE_GRAPHVIZ")
        for (picture, spec) in Self.drawings {
            let committed = try Self.text(Self.resources.appendingPathComponent(picture))
            let path = "Sources/Statecraft/Statecraft.docc/Tutorials/Resources/"
            let run = try CLI.run(["dot", "-T", "svg", path + spec])
            #expect(run.status == 0, "\(run.stderr)")
            let difference = CommittedDrawing.difference(committed: committed, fresh: run.stdout)
            #expect(difference == nil, "\(difference ?? ""); redraw it: statecraft dot -T svg \(path + spec) -o \(path + picture)")
        }
    }

    // MARK: What the embedding tutorial says about its controller

    static func resourceSpec(_ name: String) throws -> String { try text(resources.appendingPathComponent(name)) }

    /// The tutorial's own spec runs in the app exactly as the bundled one the unit tests use
    /// (the tutorial says they behave the same).
    @Test func theControllerRunsTheTutorialsSpecLikeTheBundledOne() throws {
        let bundled = try String(contentsOf: Repository.specs.appendingPathComponent("PullToRefresh.machine"), encoding: .utf8)
        func session(_ spec: String) throws -> [String] {
            let controller = try PullToRefreshController(specText: spec)
            var seen: [String] = []
            controller.onRefresh = { seen.append("didRefresh") }
            let gestures: [(Double, (PullToRefreshController) -> Void)] = [
                (0.0, { $0.scrolled(offsetY: -30, at: 0.0) }), (0.1, { $0.endedDragging(at: 0.1) }),
                (0.2, { $0.scrolled(offsetY: -130, at: 0.2) }), (0.3, { $0.endedDragging(at: 0.3) }),
                (0.5, { $0.scrolled(offsetY: -110, at: 0.5) }), (1.0, { $0.finishedRefreshing(at: 1.0) }),
                (1.5, { $0.scrolled(offsetY: -120, at: 1.5) }), (1.6, { $0.endedDragging(at: 1.6) }),
                (3.7, { $0.tick(at: 3.7) }),
            ]
            for (time, gesture) in gestures {
                gesture(controller)
                seen.append("\(time) \(controller.state) \(controller.progress) \(controller.insetTop) \(controller.whyNotTaken == nil ? "taken" : "ignored")")
            }
            return seen
        }
        let tutorial = try session(Self.resourceSpec("pull-05.machine"))
        #expect(tutorial == (try session(bundled)))
        #expect(tutorial.filter { $0 == "didRefresh" }.count == 2)
        #expect(tutorial.last?.hasPrefix("3.7 idle") == true)
    }

    /// A spec with errors is refused with the diagnostics `statecraft check` prints.
    @Test func theControllerRefusesASpecWithErrors() throws {
        #expect {
            try PullToRefreshController(specText: try Self.resourceSpec("pull-02.machine"))
        } throws: { error in
            "\(error)".hasPrefix("PullToRefresh.machine:13:44: error: unknown state 'refresing' [unknown-state]")
        }
    }

    /// An event the spec does not declare is reported as a bug of the glue, not dropped silently.
    @Test func anEventTheSpecLacksIsReported() throws {
        let controller = try PullToRefreshController(specText: try Self.resourceSpec("pull-01.machine"))
        controller.scrolled(offsetY: -50, at: 0)
        #expect(controller.whyNotTaken == "the spec has no event scroll with the fields [\"offsetY\"]")
        #expect(controller.state == "idle")
        controller.endedDragging(at: 0.1)
        #expect(controller.whyNotTaken == nil)
        #expect(controller.state == "refreshing")
    }

    /// Why a release after a half pull did nothing: the guard, and the value it read.
    @Test func anIgnoredReleaseSaysWhichGuardWasFalse() throws {
        let controller = try PullToRefreshController(specText: try Self.resourceSpec("pull-05.machine"))
        controller.scrolled(offsetY: -55, at: 0)
        controller.endedDragging(at: 0.2)
        #expect(controller.whyNotTaken == "the guard 'progress >= 1' (line 16) is false (progress = 0.5)")
        controller.finishedRefreshing(at: 0.3)
        #expect(controller.whyNotTaken == "no transition of pulling takes endRefreshing")
    }

    /// An offset that is not a finite number makes the step fail: rejected, and undone.
    @Test func aRejectedScrollSaysWhatFailed() throws {
        let controller = try PullToRefreshController(specText: try Self.resourceSpec("pull-05.machine"))
        controller.scrolled(offsetY: -55, at: 0)
        controller.scrolled(offsetY: -.infinity, at: 0.1)
        #expect(controller.whyNotTaken == "scroll was rejected: -inf + 0 is not a finite number")
        #expect(controller.state == "pulling" && controller.progress == 0.5)
    }
}
