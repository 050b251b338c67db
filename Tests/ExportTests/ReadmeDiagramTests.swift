import Foundation
import Statecraft
import StatecraftExport
import Testing
import TestSupport

/// The README shows the bundled machines as Mermaid diagrams; they must be what the tool prints
/// today. Regenerate a block with `statecraft mermaid Specs/NAME.machine`.
@Suite struct ReadmeDiagramTests {
    @Test(arguments: ["Drawer", "VibrantButton", "PullToRefresh", "PeekRating", "SwipeToDismiss", "MediaPlayer"])
    func readmeDiagramIsCurrent(machine name: String) throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = "<!-- statecraft mermaid Specs/\(name).machine -->\n```mermaid\n"
        let start = try #require(readme.range(of: marker), "README has no Mermaid block for \(name)")
        let end = try #require(readme.range(of: "```\n", range: start.upperBound..<readme.endIndex))
        let shown = String(readme[start.upperBound..<end.lowerBound])
        let url = Repository.specs.appendingPathComponent(name + ".machine")
        let machine = try #require(Statecraft.check(SourceFile(path: name, bytes: Repository.bytes(url)), bounds: nil).machine)
        #expect(shown == MermaidWriter.write(machine))
    }

    /// The statechart example's Mermaid block is what the tool prints for the spec above it,
    /// and every line of its DOT excerpt (but the `…` that stand for left-out lines) is in
    /// what `dot` prints.
    @Test func statechartExampleIsCurrent() throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = "<!-- statechart example: a test checks the drawings below against this spec -->\n```\n"
        let start = try #require(readme.range(of: marker), "README has no statechart example")
        let specEnd = try #require(readme.range(of: "```\n", range: start.upperBound..<readme.endIndex))
        let spec = String(readme[start.upperBound..<specEnd.lowerBound])
        let machine = try #require(Statecraft.check(source: spec, path: "README.md", bounds: nil).machine)
        let mermaidStart = try #require(readme.range(of: "```mermaid\n", range: specEnd.upperBound..<readme.endIndex))
        let mermaidEnd = try #require(readme.range(of: "```\n", range: mermaidStart.upperBound..<readme.endIndex))
        #expect(String(readme[mermaidStart.upperBound..<mermaidEnd.lowerBound]) == MermaidWriter.write(machine))
        let dot = DOTWriter.write(machine)
        let excerpt = readme[specEnd.upperBound..<mermaidStart.lowerBound].split(separator: "\n")
            .filter { $0.hasPrefix("    ") && !$0.contains("…") }
        #expect(excerpt.count > 10)
        for line in excerpt {
            #expect(dot.contains(line.dropFirst(4) + "\n"), "README's DOT line is not printed: \(line)")
        }
    }
}
