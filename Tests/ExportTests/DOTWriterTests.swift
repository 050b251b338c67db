import Statecraft
import StatecraftExport
import Testing
import TestSupport

@Suite struct DOTWriterTests {
    @Test(arguments: ExportFixtures.allNames)
    func sameMachineSameBytes(_ name: String) throws {
        let first = try #require(ExportFixtures.named(name))
        let second = try #require(ExportFixtures.named(name))
        #expect(DOTWriter.write(first) == DOTWriter.write(first))
        #expect(DOTWriter.write(first) == DOTWriter.write(second))
    }

    /// Overlays with the same contents, built in different orders (so their sets and
    /// dictionaries hash and iterate differently), draw the same bytes.
    @Test func overlayOrderDoesNotMatter() throws {
        let machine = try #require(ExportFixtures.flat("PeekRating"))
        let states = machine.states.indices.map(StateID.init)
        let transitions = machine.transitions.indices.map(TransitionID.init)
        var generator = SeededGenerator(seed: 7)
        func overlay(_ order: (inout SeededGenerator) -> Bool) -> DiagramOverlay {
            var result = DiagramOverlay(coverage: Coverage())
            for s in (order(&generator) ? states : states.reversed()) where s.index % 2 == 0 {
                result.unreachableStates.insert(s)
                result.coverage?.visitedStates.insert(s)
            }
            for t in transitions.shuffled(using: &generator) where t.index % 3 != 0 {
                result.deadTransitions.insert(t)
                result.coverage?.transitionCounts[t] = t.index * 5
            }
            return result
        }
        let first = DOTWriter.write(machine, overlay: overlay { _ in true })
        for _ in 0..<5 {
            #expect(DOTWriter.write(machine, overlay: overlay { Bool.random(using: &$0) }) == first)
        }
    }

    @Test(arguments: ExportFixtures.allNames)
    func wellFormed(_ name: String) throws {
        let machine = try #require(ExportFixtures.named(name))
        #expect(DOTText.syntaxProblems(DOTWriter.write(machine)) == [])
    }

    /// Names are only ever labels: any name at all, with quotes, backslashes, line breaks,
    /// entity look-alikes and emoji, is escaped inside the label and the ids stay `sN`.
    @Test func oddStateNamesAreEscaped() throws {
        var machine = try #require(ExportFixtures.flat("SwipeToDismiss"))
        machine.name = "a \"machine\" }"
        machine.states[1].name = "say \"hi\" \\ back\nslash"
        machine.states[2].name = "&lt; -> {x}|<y> ❤️"
        machine.states[5].name = "\\N\\G\t;"
        let dot = DOTWriter.write(machine)
        #expect(dot.hasPrefix("digraph \"a \\\"machine\\\" }\" {\n"))
        #expect(DOTText.line(dot, startingWith: "s1 [") == #"s1 [label="say \"hi\" \\ back\nslash"]"#)
        #expect(DOTText.line(dot, startingWith: "s2 [") == #"s2 [label="&amp;lt; -> {x}|<y> ❤️"]"#)
        #expect(DOTText.line(dot, startingWith: "s5 [") == #"s5 [label="\\N\\G ;", shape=doublecircle, style=""]"#)
        #expect(DOTText.syntaxProblems(dot) == [])
        #expect(DOTText.labelLines(dot).contains("&lt; -> {x}|<y> ❤️"))
    }

    @Test func initialAndFinalStates() throws {
        let dot = DOTWriter.write(try #require(ExportFixtures.flat("SwipeToDismiss")))
        #expect(dot.contains("    init [shape=point, width=0.15]\n"))
        #expect(dot.contains("    init -> s1\n"))
        #expect(DOTText.line(dot, startingWith: "s5 [") == #"s5 [label="dismissed", shape=doublecircle, style=""]"#)
    }

    @Test func labelsAndLoops() throws {
        let drawer = DOTWriter.write(try #require(ExportFixtures.flat("Drawer")))
        // External self transition: a loop above; internal: dotted, below, ending in a circle.
        #expect(drawer.contains(#"s3:n -> s3:n [label="touchBegan [onContent]"]"#))
        #expect(drawer.contains(#"s3:s -> s3:s [label="touchMoved", style=dotted, arrowhead=odot]"#))
        // Two transitions between the same pair stay two edges.
        let refresh = DOTWriter.write(try #require(ExportFixtures.flat("PullToRefresh")))
        #expect(refresh.contains(#"s3 -> s1 [label="after 2s"]"#))
        #expect(refresh.contains(#"s3 -> s1 [label="endRefreshing"]"#))
        #expect(refresh.contains(#"s3 [label="refreshing\nentry / didRefresh"]"#))
        let peek = DOTWriter.write(try #require(ExportFixtures.flat("PeekRating")))
        // Parts share a line up to 30 characters; an output under an `if` keeps its condition.
        #expect(peek.contains(#"s3 -> s1 [label="commitUpdate [ended]\n/ if rating != \"\" { rated(rating) }"]"#))
    }

    @Test func declarationsNote() throws {
        let dot = DOTWriter.write(try #require(ExportFixtures.flat("Drawer")))
        let note = try #require(DOTText.line(dot, startingWith: "declarations ["))
        #expect(note.contains("shape=note"))
        #expect(note.contains(#"const viewHeight = 667\l"#))
        #expect(note.contains(#"public var originY: Number = -617\l"#))
        #expect(note.contains(#"var startTouchY: Number = 0\l"#))
        let peek = DOTWriter.write(try #require(ExportFixtures.flat("PeekRating")))
        #expect(peek.contains(#"public var highlighted: String = \"\"\l"#))
    }

    // MARK: - Overlay

    @Test func unreachableStatesAndDeadTransitionsAreRed() throws {
        let machine = try #require(ExportFixtures.flat("Drawer"))
        let dot = DOTWriter.write(machine, overlay: DiagramOverlay(unreachableStates: [StateID(2)],
                                                                   deadTransitions: [TransitionID(3), TransitionID(5)]))
        #expect(DOTText.line(dot, startingWith: "s2 [") == #"s2 [label="closed", color=red, fontcolor=red]"#)
        #expect(DOTText.line(dot, startingWith: "s1 [") == #"s1 [label="open"]"#)
        #expect(DOTText.line(dot, startingWith: "s3:s -> s3:s [")
                == #"s3:s -> s3:s [label="touchMoved", style=dotted, arrowhead=odot, color=red, fontcolor=red]"#)
        #expect(DOTText.line(dot, startingWith: "s3 -> s1 [") == #"s3 -> s1 [label="touchEnded, touchCancelled", color=red, fontcolor=red]"#)
        #expect(DOTText.line(dot, startingWith: "s1 -> s3 [") == #"s1 -> s3 [label="touchBegan [onContent]"]"#)
    }

    @Test func coverageCountsDashesAndGreys() throws {
        let machine = try #require(ExportFixtures.flat("Drawer"))
        let coverage = Coverage(transitionCounts: [TransitionID(0): 12, TransitionID(3): 40, TransitionID(5): 0],
                                visitedStates: [StateID(1), StateID(3)])
        let dot = DOTWriter.write(machine, overlay: DiagramOverlay(coverage: coverage))
        // Taken: drawn normally, with the count.
        #expect(DOTText.line(dot, startingWith: "s1 -> s3 [") == #"s1 -> s3 [label="touchBegan [onContent] ×12"]"#)
        #expect(DOTText.line(dot, startingWith: "s3:s -> s3:s [")
                == #"s3:s -> s3:s [label="touchMoved ×40", style=dashed, arrowhead=odot]"#.replacingOccurrences(of: "style=dashed", with: "style=dotted"))
        // Never taken (absent or zero): dashed grey.
        #expect(DOTText.line(dot, startingWith: "s2 -> s3 [")
                == #"s2 -> s3 [label="touchBegan [onContent]", style=dashed, color=grey55, fontcolor=grey55]"#)
        #expect(DOTText.line(dot, startingWith: "s3 -> s1 [")
                == #"s3 -> s1 [label="touchEnded, touchCancelled", style=dashed, color=grey55, fontcolor=grey55]"#)
        // Never visited: filled light grey with grey outline and text.
        #expect(DOTText.line(dot, startingWith: "s2 [")
                == #"s2 [label="closed", style="rounded,filled", fillcolor=grey92, color=grey60, fontcolor=grey45]"#)
        #expect(DOTText.line(dot, startingWith: "s1 [") == #"s1 [label="open"]"#)
    }

    @Test func overlaysCombine() throws {
        let machine = try #require(ExportFixtures.flat("SwipeToDismiss"))
        let overlay = DiagramOverlay(unreachableStates: [StateID(5)], deadTransitions: [TransitionID(6)],
                                     coverage: Coverage(visitedStates: [StateID(1)]))
        let dot = DOTWriter.write(machine, overlay: overlay)
        #expect(DOTText.line(dot, startingWith: "s5 [")
                == #"s5 [label="dismissed", shape=doublecircle, style="filled", fillcolor=grey92, color=red, fontcolor=red]"#)
        #expect(DOTText.line(dot, startingWith: "s4 -> s5 [")
                == #"s4 -> s5 [label="leftScreen / dismissed", style=dashed, color=red, fontcolor=red]"#)
    }

    // MARK: - Statecharts

    /// Clusters: a compound state is solid, a parallel state's regions are dashed; a cluster
    /// an edge touches has an invisible anchor point `sN`; history states are `H`/`H*` circles.
    @Test func compoundAndParallelStatesBecomeClusters() throws {
        let dot = DOTWriter.write(try #require(ExportFixtures.statechart()))
        #expect(dot.contains("    compound=true\n"))
        let expected = """
                subgraph cluster_s2 {
                    graph [label="ready\\nentry / beep", style="rounded"]
                    s2 [shape=point, style=invis, width=0.01, height=0.01, label=""]
                    init_s2 [shape=point, width=0.1]
                    subgraph cluster_s3 {
                        graph [label="session\\nexit / beep", style="rounded"]
                        s3 [shape=point, style=invis, width=0.01, height=0.01, label=""]
                        subgraph cluster_s4 {
                            graph [label="playback", style="rounded,dashed"]
                            init_s4 [shape=point, width=0.1]
                            s5 [label="paused"]
            """
        #expect(dot.contains(expected), "\(dot)")
        #expect(dot.contains(#"s8 [label="H*", shape=circle, width=0.3, fixedsize=true, fontsize=10, tooltip="lastPlayback"]"#))
        #expect(dot.contains(#"s12 [label="H", shape=circle, width=0.3, fixedsize=true, fontsize=10, tooltip="lastSound"]"#))
        // A region no edge touches has no anchor.
        #expect(!dot.contains(" s4 [shape=point"))
        #expect(dot.contains("        init_s2 -> s3 [lhead=cluster_s3]\n"))
        #expect(DOTText.syntaxProblems(dot) == [])
    }

    /// Edges into and out of a cluster are clipped at its border; an edge whose ends both
    /// lie in a cluster is not clipped at it (Graphviz cannot); history defaults are edges.
    @Test func clusterEdgesAndStatechartLabels() throws {
        let dot = DOTWriter.write(try #require(ExportFixtures.statechart()))
        for edge in [
            #"s1 -> s2 [label="loaded [duration > 0]", lhead=cluster_s2]"#,
            #"s2 -> s18 [label="interrupt", ltail=cluster_s2]"#,
            #"s2 -> s6 [label="internal seek"]"#,
            #"s2 -> s2 [label="tick", style=dotted, arrowhead=odot]"#,
            #"s3 -> s19 [label="done(playback) / ended", ltail=cluster_s3]"#,
            #"s13 -> s19 [label="done", ltail=cluster_s13]"#,
            #"s11 -> s10 [label="unmute / raise tick"]"#,
            #"s18 -> s3 [label="pause", lhead=cluster_s3]"#,
            #"s18 -> s16 [label="resume"]"#,
            #"s19 -> s18 [label="always\n[volume == 0 && in(idle)]"]"#,
            "s8 -> s6\n",
            "s17 -> s13 [lhead=cluster_s13]\n",
        ] {
            #expect(dot.contains("    " + edge), "missing \(edge)")
        }
    }

    /// Coverage greys unvisited clusters like unvisited states, never history states (they
    /// are never active), and the title does not count them.
    @Test func coverageOnClusters() throws {
        let machine = try #require(ExportFixtures.statechart())
        let visited = Set(machine.states.map(\.id).filter { $0.index < 9 })
        let dot = DOTWriter.write(machine, overlay: DiagramOverlay(coverage: Coverage(visitedStates: visited)))
        #expect(dot.contains(#"graph [label="sound", style="rounded,dashed,filled", fillcolor=grey96, color=grey60, fontcolor=grey45]"#))
        #expect(dot.contains(#"graph [label="ready\nentry / beep", style="rounded"]"#))
        #expect(dot.contains(#"s12 [label="H", shape=circle, width=0.3, fixedsize=true, fontsize=10, tooltip="lastSound"]"#))
        #expect(dot.contains("covered: transitions 0/20 (0%), states 7/16 (43%)"), "\(dot)")
    }
}
