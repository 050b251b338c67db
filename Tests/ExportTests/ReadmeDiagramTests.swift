import Foundation
import Statecraft
import StatecraftExport
import Testing
import TestSupport

/// The README shows the five machines as Mermaid diagrams; they must be what the tool prints
/// today. Regenerate a block with `statecraft mermaid Specs/NAME.machine`.
@Suite struct ReadmeDiagramTests {
    @Test(arguments: ["Drawer", "VibrantButton", "PullToRefresh", "PeekRating", "SwipeToDismiss"])
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
}
