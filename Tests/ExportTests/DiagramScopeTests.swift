import Foundation
import Statecraft
import StatecraftExport
import Testing

/// `--depth` and `--state`: drawing part of a big chart.
@Suite struct DiagramScopeTests {
    /// Cut at the top level, `ready` (a compound state holding a parallel one) is a bold
    /// box; transitions to states inside it end at it, those from inside start at it, and
    /// those that stay inside it are gone.
    @Test func depthOneCollapsesTopLevelStates() throws {
        let machine = try #require(ExportFixtures.statechart())
        let cut = machine.collapsed(belowDepth: 1)
        let ready = try #require(machine.states.first { $0.name == "ready" }).id
        #expect(cut.collapsed == [ready])
        var overlay = DiagramOverlay()
        overlay.collapsed = cut.collapsed
        let dot = DOTWriter.write(cut.machine, overlay: overlay)
        #expect(!dot.contains("subgraph"))
        #expect(dot.contains(#"    s2 [label="ready\nentry / beep", style="rounded,bold"]"#))
        // Its own targetless loop stays; `resume` (to a history state inside) ends at it;
        // `done` written in `summary` starts at it and names the state it completes.
        #expect(dot.contains(#"    s2 -> s2 [label="tick", style=dotted, arrowhead=odot]"#))
        #expect(dot.contains("    s18 -> t12 [arrowhead=none]\n    t12 -> s2\n"))
        #expect(dot.contains(#"label="done(summary)""#))
        // Inside: `after 30s` (playing -> finished) and `internal seek` (ready -> playing).
        #expect(!dot.contains("after 30s"))
        #expect(!dot.contains("internal seek"))
        for hidden in ["paused", "playing", "session", "lastTop"] {
            #expect(!DOTText.labelLines(dot).contains(hidden), "\(hidden) is drawn")
        }
        let mermaid = MermaidWriter.write(cut.machine)
        #expect(!mermaid.contains("state ready {"))
        #expect(mermaid.contains("    interrupted --> ready : resume\n"), "\(mermaid)")
    }

    /// Depth 2 keeps `ready` as a cluster and collapses `session` and `summary` inside it.
    @Test func depthTwoCollapsesTheNextLevel() throws {
        let machine = try #require(ExportFixtures.statechart())
        let cut = machine.collapsed(belowDepth: 2)
        #expect(Set(cut.collapsed.map { machine[$0].name }) == ["session", "summary"])
        let dot = DOTWriter.write(cut.machine)
        #expect(dot.contains("subgraph cluster_s2 {"))
        #expect(!dot.contains("subgraph cluster_s3 {"))
        #expect(dot.contains(#"s3 [label="session\nexit / beep", style="rounded,bold"]"#) == false)
        var overlay = DiagramOverlay()
        overlay.collapsed = cut.collapsed
        #expect(DOTWriter.write(cut.machine, overlay: overlay).contains(#"s3 [label="session\nexit / beep", style="rounded,bold"]"#))
    }

    /// One state's subtree alone: nothing outside it, no transition leaving it, and no
    /// initial arrow at it; ids are those of the whole machine.
    @Test func subtreeDrawsOneStateAlone() throws {
        let machine = try #require(ExportFixtures.statechart())
        let session = try #require(machine.states.first { $0.name == "session" }).id
        var overlay = DiagramOverlay()
        overlay.focus = session
        let dot = DOTWriter.write(machine.subtree(session), overlay: overlay)
        #expect(dot.contains("\n    subgraph cluster_s3 {\n"))
        #expect(!dot.contains("init ->"))
        #expect(!dot.contains("ready"))
        #expect(!dot.contains("interrupted"))
        #expect(!dot.contains("done(playback)"))
        #expect(dot.contains(#"s6 -> s7 [label="after 30s"]"#))
        let mermaid = MermaidWriter.write(machine.subtree(session), focus: session)
        #expect(mermaid.hasPrefix("stateDiagram-v2\n    state session {\n"), "\(mermaid)")
        #expect(!mermaid.contains("[*] --> session"))
        #expect(!mermaid.contains("interrupted"))
    }

    /// Every cut and every subtree of every spec and fixture renders cleanly, its arrows
    /// ending on what they point at, its texts apart.
    @Test(.enabled(if: Graphviz.isInstalled, "Graphviz's dot is not installed; \(Graphviz.installHint)"),
          arguments: ExportFixtures.allNames)
    func partsRenderCleanly(_ name: String) throws {
        let machine = try #require(ExportFixtures.named(name))
        var parts: [(String, Machine, DiagramOverlay)] = []
        for depth in 1...3 {
            let cut = machine.collapsed(belowDepth: depth)
            var overlay = DiagramOverlay()
            overlay.collapsed = cut.collapsed
            parts.append(("depth \(depth)", cut.machine, overlay))
        }
        for state in machine.states.dropFirst() where !machine[state.id].children.isEmpty {
            var overlay = DiagramOverlay()
            overlay.focus = state.id
            parts.append(("state \(state.name)", machine.subtree(state.id), overlay))
        }
        for (what, part, overlay) in parts {
            let dot = DOTWriter.write(part, overlay: overlay)
            let run = try Graphviz.svg(dot)
            #expect(run.status == 0 && run.stderr.isEmpty, "\(name) \(what): \(run.stderr)")
            let layout = try Layout(dot)
            for edge in layout.edges {
                for tip in edge.tips where tip.cluster == nil {
                    #expect(!layout.invisible.contains(tip.node), "\(name) \(what): \(edge.title) ends at an invisible point")
                }
            }
            let texts = layout.texts
            for i in texts.indices {
                for j in texts.indices where j > i && texts[i].box.overlaps(texts[j].box) {
                    Issue.record("\(name) \(what): '\(texts[i].text)' overlaps '\(texts[j].text)'")
                }
            }
            // No edge to a node that is declared nowhere (Graphviz would invent one).
            for node in layout.nodes.keys {
                #expect(dot.contains("    " + node + " ["), "\(name) \(what): \(node) is not declared")
            }
        }
    }
}
