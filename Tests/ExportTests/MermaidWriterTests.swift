import Statecraft
import StatecraftExport
import Testing

@Suite struct MermaidWriterTests {
    @Test(arguments: ExportFixtures.allNames)
    func sameMachineSameBytes(_ name: String) throws {
        let first = try #require(ExportFixtures.named(name))
        let second = try #require(ExportFixtures.named(name))
        #expect(MermaidWriter.write(first) == MermaidWriter.write(second))
    }

    /// Every state, transition, entry and exit arrow is there, under the state's own name
    /// (every spec's names are plain ids).
    @Test(arguments: ExportFixtures.specNames)
    func everyStateAndTransitionIsPresent(_ name: String) throws {
        let machine = try #require(ExportFixtures.spec(name))
        let text = MermaidWriter.write(machine)
        let lines = text.split(separator: "\n").map { String($0.drop { $0 == " " }) }
        #expect(lines.first == "stateDiagram-v2")
        let initial = try #require(machine.initialState)
        #expect(lines.contains("[*] --> " + machine[initial].name))
        for state in machine.states.dropFirst() {
            #expect(lines.contains {
                $0.hasPrefix(state.name + " ") || $0.hasSuffix(" " + state.name) || $0 == state.name
                    || $0.contains("--> " + state.name + " ") || $0.hasPrefix("state " + state.name + " ")
                    || $0.hasSuffix(" as " + state.name)
            }, "state \(state.name) missing")
            if state.isFinal { #expect(lines.contains(state.name + " --> [*]")) }
        }
        for transition in machine.transitions {
            let source = machine[transition.source].name
            let prefix = transition.target.map { source + " --> " + machine[$0].name + " : " } ?? source + " : "
            let trigger: String
            switch transition.trigger {
            case .events(let events): trigger = events.map { machine[$0].name }.joined(separator: ", ")
            case .after(let duration): trigger = "after " + machine.text(duration.range)
            case .done(let state): trigger = state == transition.source ? "done" : "done(\(machine[state].name))"
            case .always: trigger = "always"
            }
            let matching = lines.filter { $0.hasPrefix(prefix + (transition.isInternal ? "internal " : "") + trigger) }
            #expect(!matching.isEmpty, "transition \(transition.id.index) missing: \(prefix + trigger)")
        }
        let arrows = lines.filter { $0.contains(" --> ") && !$0.hasPrefix("[*]") && !$0.hasSuffix("[*]") }
        // One arrow per transition with a target, and one per history state's default.
        let defaults = machine.states.filter { $0.isHistory }.map(\.historyDefaults.count).reduce(0, +)
        #expect(arrows.count == machine.transitions.filter(\.hasTarget).count + defaults)
    }

    /// After the `:` that starts it, no label holds a character Mermaid would read as syntax;
    /// only entity codes like `#58;` remain.
    @Test(arguments: ExportFixtures.allNames)
    func labelsHoldNoSyntax(_ name: String) throws {
        let text = MermaidWriter.write(try #require(ExportFixtures.named(name)))
        for line in text.split(separator: "\n") {
            var label: Substring
            if let colon = line.range(of: " : ") {
                label = line[colon.upperBound...]
            } else if line.contains("state \""), let open = line.firstIndex(of: "\""), let close = line.lastIndex(of: "\"") {
                label = line[line.index(after: open)..<close]
            } else {
                continue
            }
            let plain = label.replacing(/#[0-9]+;/, with: "")
            #expect(!plain.contains { ":;#{}<>\"%".contains($0) }, "unsafe label: \(line)")
            #expect(!plain.lowercased().contains("direction "), "direction statement look-alike: \(line)")
        }
    }

    @Test func oddNamesGetIdsAndEntityCodes() throws {
        let text = MermaidWriter.write(try #require(ExportFixtures.odd()))
        #expect(text.contains("    state \"default\" as s1\n"))
        #expect(text.contains("    state \"directio#110;\" as s2\n"))
        #expect(text.contains("    state \"end\" as s3\n"))
        #expect(text.contains("    [*] --> s1\n"))
        #expect(text.contains("    s3 --> [*]\n"))
        #expect(text.contains(" / said(#34;💀 #123;x#125; | #60;y#62; #59;z#35; #58;w#34;)\n"))
        #expect(text.contains("    s1 : note [mood == #34;❤️#34; || entity == #34;a\\nb#34;] / said(#34;#37;#37; not a comment#34;)\n"))
    }

    @Test func handEditedNamesAndDuplicates() throws {
        var machine = try #require(ExportFixtures.flat("VibrantButton"))
        machine.states[1].name = "two words: \"x\""
        machine.states[2].name = "s1"
        let text = MermaidWriter.write(machine)
        // `s1` is a plain id and keeps it, so the generated id for state 1 steps aside.
        #expect(text.contains("    state \"two words#58; #34;x#34;\" as s1_\n"))
        #expect(text.contains("    [*] --> s1_\n"))
        #expect(text.contains("    s1_ --> s1 : select\n"))
    }

    @Test func compoundAndParallelStates() throws {
        let text = MermaidWriter.write(try #require(ExportFixtures.statechart()))
        let expected = """
                    state session {
                        state playback {
                            state "H*" as lastPlayback
                            [*] --> paused
            """
        #expect(text.contains(expected), "\(text)")
        for line in [
            "        state \"H\" as lastTop\n        [*] --> session\n",
            "            --\n            state sound {\n                state \"H\" as lastSound\n",
            "                lastPlayback --> playing\n                finished --> [*]\n",
            "        lastTop --> summary\n",
            "    ready --> playing : internal seek\n",
            "    session --> idle : done(playback) / ended\n",
            "    summary --> idle : done\n",
            "    idle --> interrupted : always [volume == 0 #38;#38; in(idle)]\n",
            "    idle --> ready : play / raise tick\n",
            "    ready : tick\n",
        ] {
            #expect(text.contains(line), "missing \(line)")
        }
    }

    /// An output under an `if` is drawn with its condition, `else` and `else if` included;
    /// an `if` with no output in either branch is left out, like an assignment.
    @Test func conditionalOutputsKeepTheirCondition() throws {
        let spec = """
            machine M {
                var n: Number = 0
                event go
                event stay
                output o
                output p
                initial state a {
                    entry { if in(a) { raise go } }
                    exit { if n > 0 { emit o } else if n < 0 { emit p } else { n = 0 } }
                    on stay { if n > 1 { n = 2 } }
                    on go -> b { emit o; if n > 0 { emit p; raise stay } else { n = 1 } }
                }
                state b {
                    entry { if n == 0 { n = 1 } else { emit p } }
                }
            }
            """
        let machine = try #require(Statecraft.check(source: spec, path: "m.machine", bounds: nil).machine)
        let text = MermaidWriter.write(machine)
        for line in [
            "    a : entry / if in(a) #123; raise go #125;\n",
            "    a : exit / if n #62; 0 #123; o #125; else if n #60; 0 #123; p #125;\n",
            "    a : stay\n",
            "    a --> b : go / o, if n #62; 0 #123; p, raise stay #125;\n",
            "    b : entry / if n == 0 #123;#125; else #123; p #125;\n",
        ] {
            #expect(text.contains(line), "missing \(line) in \(text)")
        }
        #expect(DOTText.labelLines(DOTWriter.write(machine)).contains("entry / if in(a) { raise go }"))
    }

    /// An arrow to an ancestor is written outside that ancestor's block, in the innermost
    /// one holding both ends: written inside, it would name the composite from within
    /// itself. Outputs under an `if` are shown with their condition.
    @Test func ancestorTargetsAndConditionalOutputs() throws {
        let text = MermaidWriter.write(try #require(ExportFixtures.named("video-call")))
        #expect(text.contains("            }\n        }\n        cameraOn --> media : restartMedia\n"), "\(text)")
        #expect(text.contains("\n    sharing --> call : restartMedia\n"), "\(text)")
        #expect(text.contains("\n        media : entry / if in(cameraOn) #123; raise toggleCamera #125;\n"), "\(text)")
        #expect(text.contains(" : exit / if attempts #62; 0 #123; shareStopped #125; else #123; raise toggleMic #125;\n"), "\(text)")
    }
}
