import Foundation
import Testing
import TestSupport

/// What the README points at exists, and its picture is what the tool draws today.
@Suite struct ReadmeTests {
    static func readme() throws -> String {
        try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
    }

    /// Every relative link and image target of the README is a file or folder of the repository.
    @Test func everyLinkLeadsSomewhere() throws {
        let text = try Self.readme()
        var targets: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "](") {
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: ")") else { break }
            targets.append(String(after[..<close]))
            rest = after[close...]
        }
        #expect(targets.count > 10)
        for target in targets where !target.contains("://") && !target.hasPrefix("#") {
            let path = String(target.split(separator: "#").first ?? "")
            #expect(FileManager.default.fileExists(atPath: Repository.root.appendingPathComponent(path).path),
                    "README links to \(target), which does not exist")
        }
    }

    /// The README's picture, `Specs/PullToRefresh.svg`, is what `statecraft dot -T svg` draws
    /// from the spec now: byte for byte under the Graphviz that drew it, and with the same
    /// titles and labels under another (whose layout may differ by a point).
    @Test func thePictureIsTheSpecDrawnToday() throws {
        #expect(try Self.readme().contains("](Specs/PullToRefresh.svg)"))
        try Skip.unless(ExternalTool.find("dot") != nil, "Graphviz is not installed", unlessRequiredBy: "STATECRAFT_REQUIRE_GRAPHVIZ")
        let run = try CLI.run(["dot", "-T", "svg", "Specs/PullToRefresh.machine"])
        #expect(run.status == 0, "\(run.stderr)")
        let committed = try String(contentsOf: Repository.specs.appendingPathComponent("PullToRefresh.svg"), encoding: .utf8)
        let difference = CommittedDrawing.difference(committed: committed, fresh: run.stdout)
        #expect(difference == nil,
                "\(difference ?? ""); redraw it: statecraft dot -T svg Specs/PullToRefresh.machine -o Specs/PullToRefresh.svg")
    }
}
