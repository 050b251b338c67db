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
        // Two transitions between the same pair stay two edges, each through its own label
        // node so that Graphviz cannot lay their labels on top of each other.
        let refresh = DOTWriter.write(try #require(ExportFixtures.flat("PullToRefresh")))
        #expect(refresh.contains(#"    t7 [shape=plaintext, fontsize=10, width=0, height=0, margin=0.04, label="after 2s"]"#))
        #expect(refresh.contains("    s3 -> t7 [arrowhead=none]\n    t7 -> s1\n"))
        #expect(refresh.contains(#"    t8 [shape=plaintext, fontsize=10, width=0, height=0, margin=0.04, label="endRefreshing"]"#))
        #expect(refresh.contains("    s3 -> t8 [arrowhead=none]\n    t8 -> s1\n"))
        // One transition alone between its states keeps an ordinary edge label.
        #expect(refresh.contains(#"    s2 -> s3 [label="endDragging [progress >= 1]"]"#))
        #expect(refresh.contains(#"s3 [label="refreshing\nentry / didRefresh"]"#))
        let peek = DOTWriter.write(try #require(ExportFixtures.flat("PeekRating")))
        // Parts share a line up to 30 characters; an output under an `if` keeps its condition.
        #expect(peek.contains(#"t4 [shape=plaintext, fontsize=10, width=0, height=0, margin=0.04, label="commitUpdate [ended]\n/ if rating != \"\" { rated(rating) }"]"#))
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
        // A transition drawn through a label node: both segments red, and the label.
        #expect(DOTText.line(dot, startingWith: "t5 [") == #"t5 [shape=plaintext, fontsize=10, width=0, height=0, margin=0.04, label="touchEnded, touchCancelled", fontcolor=red]"#)
        #expect(DOTText.line(dot, startingWith: "s3 -> t5 [") == "s3 -> t5 [arrowhead=none, color=red]")
        #expect(DOTText.line(dot, startingWith: "t5 -> s1") == "t5 -> s1 [color=red]")
        #expect(DOTText.line(dot, startingWith: "t0 [") == #"t0 [shape=plaintext, fontsize=10, width=0, height=0, margin=0.04, label="touchBegan [onContent]"]"#)
        #expect(DOTText.line(dot, startingWith: "s1 -> t0 [") == "s1 -> t0 [arrowhead=none]")
    }

    @Test func coverageCountsDashesAndGreys() throws {
        let machine = try #require(ExportFixtures.flat("Drawer"))
        let coverage = Coverage(transitionCounts: [TransitionID(0): 12, TransitionID(3): 40, TransitionID(5): 0],
                                visitedStates: [StateID(1), StateID(3)])
        let dot = DOTWriter.write(machine, overlay: DiagramOverlay(coverage: coverage))
        // Taken: drawn normally, with the count.
        #expect(DOTText.line(dot, startingWith: "t0 [") == #"t0 [shape=plaintext, fontsize=10, width=0, height=0, margin=0.04, label="touchBegan [onContent] ×12"]"#)
        #expect(DOTText.line(dot, startingWith: "s1 -> t0 [") == "s1 -> t0 [arrowhead=none]")
        #expect(DOTText.line(dot, startingWith: "s3:s -> s3:s [")
                == #"s3:s -> s3:s [label="touchMoved ×40", style=dashed, arrowhead=odot]"#.replacingOccurrences(of: "style=dashed", with: "style=dotted"))
        // Never taken (absent or zero): dashed grey.
        #expect(DOTText.line(dot, startingWith: "t1 [") == #"t1 [shape=plaintext, fontsize=10, width=0, height=0, margin=0.04, label="touchBegan [onContent]", fontcolor=grey55]"#)
        #expect(DOTText.line(dot, startingWith: "s2 -> t1 [") == "s2 -> t1 [arrowhead=none, style=dashed, color=grey55]")
        #expect(DOTText.line(dot, startingWith: "t1 -> s3 [") == "t1 -> s3 [style=dashed, color=grey55]")
        #expect(DOTText.line(dot, startingWith: "t5 [") == #"t5 [shape=plaintext, fontsize=10, width=0, height=0, margin=0.04, label="touchEnded, touchCancelled", fontcolor=grey55]"#)
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
    /// an initial arrow or history default touches has an invisible anchor point `sN`, and
    /// each end of a transition at a cluster its own (`t3a`, `t3b`); history states are
    /// `H`/`H*` circles.
    @Test func compoundAndParallelStatesBecomeClusters() throws {
        let dot = DOTWriter.write(try #require(ExportFixtures.statechart()))
        #expect(dot.contains("    compound=true\n"))
        let expected = """
                subgraph cluster_s2 {
                    graph [label="ready\\nentry / beep", style="rounded"]
                    t0b [shape=point, style=invis, width=0.01, height=0.01, label=""]
                    t1a [shape=point, style=invis, width=0.01, height=0.01, label=""]
                    t2a [shape=point, style=invis, width=0.01, height=0.01, label=""]
                    t3a [shape=point, style=invis, width=0.01, height=0.01, label=""]
                    t3b [shape=point, style=invis, width=0.01, height=0.01, label=""]
                    t18b [shape=point, style=invis, width=0.01, height=0.01, label=""]
                    init_s2 [shape=point, width=0.1]
                    subgraph cluster_s3 {
                        graph [label="session\\nexit / beep", style="rounded"]
                        s3 [shape=point, style=invis, width=0.01, height=0.01, label=""]
                        t4a [shape=point, style=invis, width=0.01, height=0.01, label=""]
                        t16b [shape=point, style=invis, width=0.01, height=0.01, label=""]
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

    /// A transition at a cluster goes through its label node, both segments clipped at the
    /// clusters they meet, even where one end holds the other (`internal seek` from `ready`
    /// to its descendant `playing`, the `tick` loop on `ready`); the label nodes are declared
    /// outside the clusters at the ends. Plain edges and history defaults are unchanged.
    @Test func clusterEdgesAndStatechartLabels() throws {
        let dot = DOTWriter.write(try #require(ExportFixtures.statechart()))
        for edge in [
            "s1 -> t0 [arrowhead=none]\n    t0 -> t0b [lhead=cluster_s2]\n",
            "t1a -> t1 [arrowhead=none, ltail=cluster_s2]\n    t1 -> s18\n",
            "t2a -> t2 [arrowhead=none, ltail=cluster_s2]\n    t2 -> s6\n",
            "t3a -> t3 [arrowhead=none, style=dotted, ltail=cluster_s2]\n    t3 -> t3b [arrowhead=odot, style=dotted, lhead=cluster_s2]\n",
            "t4a -> t4 [arrowhead=none, ltail=cluster_s3]\n    t4 -> s19\n",
            "s18 -> t16 [arrowhead=none]\n    t16 -> t16b [lhead=cluster_s3]\n",
            #"s6 -> s7 [label="after 30s"]"#,
            #"s19 -> s18 [label="always\n[volume == 0 && in(idle)]"]"#,
            "s8 -> s6\n",
            "s17 -> s13 [lhead=cluster_s13]\n",
        ] {
            #expect(dot.contains("    " + edge), "missing \(edge)")
        }
        for node in [
            #"t0 [shape=plaintext, fontsize=10, width=0, height=0, margin=0.04, label="loaded [duration > 0]"]"#,
            #"t2 [shape=plaintext, fontsize=10, width=0, height=0, margin=0.04, label="internal seek"]"#,
            #"t3 [shape=plaintext, fontsize=10, width=0, height=0, margin=0.04, label="tick"]"#,
            #"t4 [shape=plaintext, fontsize=10, width=0, height=0, margin=0.04, label="done(playback) / ended"]"#,
        ] {
            // At the top level: `ready` and `session` are both children of the root.
            #expect(dot.contains("\n    " + node + "\n"), "missing \(node)")
        }
        // `unmute` runs between two states of region `sound`, so its label node is there.
        #expect(dot.contains("\n                t9 [shape=plaintext, fontsize=10, width=0, height=0, margin=0.04, label=\"unmute / raise tick\"]\n"), "\(dot)")
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
