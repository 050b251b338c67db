import Foundation
import Statecraft
import StatecraftExport
import Testing
import TestSupport

/// The Diagrams article shows every bundled machine as `statecraft mermaid` prints it, so a
/// reader sees each one drawn; the output must be exactly what the tool prints today.
/// (The documentation tests run the article's commands too, but they do not notice a bundled
/// spec that the article leaves out.) Regenerate a block with `statecraft mermaid Specs/NAME.machine`.
@Suite struct DiagramArticleTests {
    static let article = Repository.root.appendingPathComponent("Sources/Statecraft/Statecraft.docc/Diagrams.md")

    static var bundledMachines: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: Repository.specs.path)) ?? []
        return files.filter { $0.hasSuffix(".machine") }.map { String($0.dropLast(".machine".count)) }.sorted()
    }

    @Test func everyBundledMachineIsListed() {
        #expect(Self.bundledMachines.count >= 6)
    }

    @Test(arguments: bundledMachines)
    func articleShowsTheMermaidOfEveryBundledMachine(machine name: String) throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        let marker = "```console\n$ statecraft mermaid Specs/\(name).machine\n"
        let start = try #require(text.range(of: marker), "Diagrams.md does not draw Specs/\(name).machine")
        let end = try #require(text.range(of: "```\n", range: start.upperBound..<text.endIndex))
        let shown = String(text[start.upperBound..<end.lowerBound])
        let url = Repository.specs.appendingPathComponent(name + ".machine")
        let machine = try #require(Statecraft.check(SourceFile(path: name, bytes: Repository.bytes(url)), bounds: nil).machine)
        #expect(shown == MermaidWriter.write(machine))
    }
}

/// The Diagrams article's picture (`Resources/MediaPlayer-coverage.svg` in the catalogue) is
/// what `statecraft dot -T svg --coverage` draws today: byte for byte under the Graphviz that
/// drew it, and with the same titles and texts under another (whose layout may differ).
@Suite struct DiagramArticlePictureTests {
    static let picture = Repository.root.appendingPathComponent("Sources/Statecraft/Statecraft.docc/Resources/MediaPlayer-coverage.svg")

    @Test func thePictureIsTheMediaPlayerDrawnToday() throws {
        let article = try String(contentsOf: DiagramArticleTests.article, encoding: .utf8)
        #expect(article.contains("](MediaPlayer-coverage.svg)"))
        try Skip.unless(Graphviz.isInstalled, "Graphviz is not installed; \(Graphviz.installHint)",
                        unlessRequiredBy: "STATECRAFT_REQUIRE_GRAPHVIZ")
        let run = try CLI.run(["dot", "-T", "svg", "Specs/MediaPlayer.machine", "--coverage", "Specs/MediaPlayer.session.jsonl"])
        #expect(run.status == 0, "\(run.stderr)")
        let committed = try String(contentsOf: Self.picture, encoding: .utf8)
        let redraw = "redraw it: statecraft dot Specs/MediaPlayer.machine --coverage Specs/MediaPlayer.session.jsonl "
            + "-T svg -o Sources/Statecraft/Statecraft.docc/Resources/MediaPlayer-coverage.svg"
        let difference = CommittedDrawing.difference(committed: committed, fresh: run.stdout)
        #expect(difference == nil, "\(difference ?? ""); \(redraw)")
    }
}
