import Foundation
import Statecraft
import StatecraftExport
import Testing

/// The DOT goes through the real Graphviz: no warnings, and every name and label drawn.
@Suite struct GraphvizTests {
    /// Fails only where Graphviz is required and missing, so a machine without it still
    /// shows the rendering tests as skipped rather than passed.
    @Test func graphvizIsInstalledWhereRequired() {
        if Graphviz.isRequired && !Graphviz.isInstalled {
            Issue.record("STATECRAFT_REQUIRE_GRAPHVIZ=1 but Graphviz's dot was not found; \(Graphviz.installHint)")
        }
    }

    @Test(.enabled(if: Graphviz.isInstalled, "Graphviz's dot is not installed; \(Graphviz.installHint)"),
          arguments: ExportFixtures.allNames)
    func specRendersCleanly(_ name: String) throws {
        let machine = try #require(ExportFixtures.named(name))
        try expectCleanRendering(machine)
    }

    @Test(.enabled(if: Graphviz.isInstalled, "Graphviz's dot is not installed; \(Graphviz.installHint)"))
    func overlayRendersCleanly() throws {
        let machine = try #require(ExportFixtures.spec("Drawer"))
        let overlay = DiagramOverlay(
            unreachableStates: [StateID(2)], deadTransitions: [TransitionID(3)],
            coverage: Coverage(transitionCounts: [TransitionID(0): 12], visitedStates: [StateID(1), StateID(3)]))
        try expectCleanRendering(machine, overlay: overlay)
    }

    /// Coverage and findings on clusters, history states and edges into and out of
    /// clusters: every state visited but one region, a few transitions taken.
    @Test(.enabled(if: Graphviz.isInstalled, "Graphviz's dot is not installed; \(Graphviz.installHint)"))
    func statechartOverlayRendersCleanly() throws {
        let machine = try #require(ExportFixtures.statechart())
        let sound = try #require(machine.states.first { $0.name == "sound" }).id
        let visited = Set(machine.states.map(\.id).filter { !machine.isDescendant($0, of: sound) && $0 != sound })
        let overlay = DiagramOverlay(
            unreachableStates: [sound], deadTransitions: [TransitionID(2)],
            coverage: Coverage(transitionCounts: [TransitionID(0): 3, TransitionID(1): 1], visitedStates: visited))
        try expectCleanRendering(machine, overlay: overlay)
    }

    /// Random charts (nested, parallel, history, final children) render without warnings:
    /// the cluster clipping rules hold for shapes nobody wrote by hand.
    @Test(.enabled(if: Graphviz.isInstalled, "Graphviz's dot is not installed; \(Graphviz.installHint)"),
          arguments: 1...24)
    func randomChartsRenderCleanly(seed: UInt64) throws {
        try expectCleanRendering(try #require(ExportFixtures.randomChart(seed: seed)))
    }

    /// The odd fixture's strings come out of Graphviz exactly as the spec wrote them.
    @Test(.enabled(if: Graphviz.isInstalled, "Graphviz's dot is not installed; \(Graphviz.installHint)"))
    func oddStringsSurviveGraphviz() throws {
        let machine = try #require(ExportFixtures.odd())
        let texts = Graphviz.texts(inSVG: try Graphviz.svg(DOTWriter.write(machine)).svg)
        for expected in [
            #"/ said("💀 {x} | <y> ;z# :w")"#,
            #"[text == "\"quoted\" \\ back"]"#,
            #"[mood == "❤️" || entity == "a\nb"]"#,
            #"const path = "C:\\dir\\file""#,
            #"const syntax = "{a|b} <c> & d; #e %% f: g""#,
            #"var entity: String = "&amp; &#35; \\N \\G \\l""#,
            "public var mood: String = \"❤️\"",
        ] {
            #expect(texts.contains(expected), "\(expected) is not drawn; texts: \(texts)")
        }
    }

    /// `dot -Tsvg` exits 0 with nothing on stderr, and the SVG holds every state name,
    /// every event name and every line of every label the DOT asked for.
    private func expectCleanRendering(_ machine: Machine, overlay: DiagramOverlay = DiagramOverlay(),
                                      sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let dot = DOTWriter.write(machine, overlay: overlay)
        let run = try Graphviz.svg(dot)
        #expect(run.status == 0, "dot exited with \(run.status)", sourceLocation: sourceLocation)
        #expect(run.stderr.isEmpty, "dot wrote to stderr: \(run.stderr)", sourceLocation: sourceLocation)
        let texts = Graphviz.texts(inSVG: run.svg)
        for state in machine.states.dropFirst() {
            // A history state is drawn as UML's circle, its name only a tooltip.
            let drawn = state.isHistory ? (state.isDeepHistory ? "H*" : "H") : state.name
            #expect(texts.contains(drawn), "state \(state.name) is not drawn", sourceLocation: sourceLocation)
        }
        for transition in machine.transitions {
            guard case .events(let events) = transition.trigger else { continue }
            for event in events {
                let name = machine.events[event.index].name
                #expect(texts.contains { $0.contains(name) }, "event \(name) is not drawn", sourceLocation: sourceLocation)
            }
        }
        let labels = DOTText.labelLines(dot)
        #expect(labels.count >= machine.transitions.count, sourceLocation: sourceLocation)
        for line in labels {
            #expect(texts.contains(line), "label line \(line) is not drawn", sourceLocation: sourceLocation)
        }
    }
}
