import Foundation
import Statecraft
import Testing
import TestSupport

/// The exported documents: reviewed goldens, and the structure of every spec's export.
@Suite struct SCXMLWriterTests {
    @Test(arguments: ["export", "MediaPlayer"])
    func golden(_ name: String) throws {
        let spec = name == "export" ? SCXMLFixtures.fixture : Repository.specs.appendingPathComponent(name + ".machine")
        let document = try #require(SCXMLFixtures.document(spec), "\(name) does not resolve")
        let golden = SCXMLFixtures.golden.appendingPathComponent(name + ".scxml")
        if let difference = Golden.compare(document, to: golden) { Issue.record("\(difference)") }
    }

    @Test(arguments: SCXMLFixtures.allSpecs())
    func exportIsDeterministicAndWellFormed(_ spec: URL) throws {
        guard let machine = SCXMLFixtures.machine(spec) else { return }
        let first = SCXMLWriter.document(for: machine, source: "x.machine")
        #expect(first == SCXMLWriter.document(for: machine, source: "x.machine"))
        #expect(XMLNode.parse(first) != nil, "\(SCXMLFixtures.relative(spec)) is not well-formed")
    }

    /// Every state is an element of the right kind under its parent's element; every
    /// transition is there with its event, guard and target; every timer is sent on entry,
    /// cancelled on exit and taken by its transition.
    @Test(arguments: SCXMLFixtures.allSpecs())
    func everyStateTransitionAndTimerIsThere(_ spec: URL) throws {
        guard let machine = SCXMLFixtures.machine(spec) else { return }
        let root = try #require(XMLNode.parse(SCXMLWriter.document(for: machine, source: nil)))
        #expect(root.name == "scxml" && root.attributes["name"] == machine.name)
        // Where a state starts: its initial child, or its `initial ->` targets (an <initial>
        // element when one is a history state, which the attribute cannot name).
        func initial(_ s: State) -> String? {
            if s.initialTargets.isEmpty { return s.initialChild.map { machine[$0].name } }
            return s.initialTargets.contains { machine[$0].isHistory } ? nil : s.initialTargets.map { machine[$0].name }.joined(separator: " ")
        }
        #expect(root.attributes["initial"] == initial(machine[machine.root]))
        let byID = Dictionary(root.all.compactMap { n in n.attributes["id"].map { ($0, n) } }, uniquingKeysWith: { a, _ in a })
        for state in machine.states.dropFirst() {
            let node = try #require(byID[state.name], "no element for state \(state.name)")
            let expected: String = switch state.kind {
            case .atomic, .compound: "state"
            case .parallel: "parallel"
            case .final: "final"
            case .history: "history"
            }
            #expect(node.name == expected, "\(state.name)")
            let parentID = state.parent.flatMap { $0 == machine.root ? nil : machine[$0].name }
            #expect(node.parent?.attributes["id"] == parentID, "\(state.name) is not under its parent")
            if state.kind == .compound {
                #expect(node.attributes["initial"] == initial(state))
                if state.initialTargets.contains(where: { machine[$0].isHistory }) {
                    let element = node.children.first { $0.name == "initial" }?.children.first
                    #expect(element?.attributes["target"] == state.initialTargets.map { machine[$0].name }.joined(separator: " "))
                }
            }
            let transitions = node.children.filter { $0.name == "transition" }
            if state.isHistory {
                #expect(transitions.count == 1, "history \(state.name) has no default transition")
                continue
            }
            #expect(transitions.count == state.transitions.count, "\(state.name)")
            for (t, element) in zip(state.transitions.map { machine[$0] }, transitions) {
                #expect(element.attributes["target"] == t.target.map { machine[$0].name })
                #expect((element.attributes["cond"] != nil) == (t.guardExpr != nil))
                #expect((element.attributes["type"] == "internal") == t.isInternal)
                switch t.trigger {
                case .events(let ids): #expect(element.attributes["event"] == ids.map { machine[$0].name }.joined(separator: " "))
                case .always: #expect(element.attributes["event"] == nil)
                case .done(let s): #expect(element.attributes["event"] == "done.state." + machine[s].name)
                case .after: #expect(element.attributes["event"]?.hasPrefix("after." + state.name + ".") == true)
                }
            }
            let timers = state.transitions.filter { if case .after = machine[$0].trigger { true } else { false } }
            for k in timers.indices {
                let id = "after.\(state.name).\(k)"
                let sends = node.children.filter { $0.name == "onentry" }.flatMap(\.children).filter { $0.name == "send" }
                #expect(sends.contains { $0.attributes["event"] == id && $0.attributes["id"] == id }, "\(id) not sent on entry")
                let cancels = node.children.filter { $0.name == "onexit" }.flatMap(\.children).filter { $0.name == "cancel" }
                #expect(cancels.contains { $0.attributes["sendid"] == id }, "\(id) not cancelled on exit")
                #expect(transitions.contains { $0.attributes["event"] == id }, "\(id) has no transition")
            }
        }
        let stateElements = root.all.filter { ["state", "parallel", "final", "history"].contains($0.name) }
        #expect(stateElements.count == machine.states.count - 1)
        let data = Set(root.all.filter { $0.name == "data" }.compactMap { $0.attributes["id"] })
        for name in machine.constants.map(\.name) + machine.variables.map(\.name) { #expect(data.contains(name), "\(name)") }
    }

    @Test func commandWritesTheDocument() throws {
        let run = SCXMLFixtures.run(["scxml", "Specs/VibrantButton.machine"])
        #expect(run.status == 0 && run.err.isEmpty)
        #expect(run.out.contains("<!-- Specs/VibrantButton.machine, written by statecraft scxml -->"))
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-\(UUID().uuidString).scxml")
        defer { try? FileManager.default.removeItem(at: out) }
        let toFile = SCXMLFixtures.run(["scxml", Repository.specs.appendingPathComponent("VibrantButton.machine").path, "-o", out.path])
        #expect(toFile.status == 0 && toFile.out.isEmpty)
        #expect(try String(contentsOf: out, encoding: .utf8).contains("<state id=\"unselected\">"))
    }

    /// A spec that does not resolve gets the same diagnostics and exit status as `dot`.
    @Test func specWithErrorsFailsLikeDot() throws {
        let spec = FileManager.default.temporaryDirectory.appendingPathComponent("statecraft-\(UUID().uuidString).machine")
        defer { try? FileManager.default.removeItem(at: spec) }
        try "machine M {\n    initial state a { on go -> b }\n}\n".write(to: spec, atomically: true, encoding: .utf8)
        let scxml = SCXMLFixtures.run(["scxml", spec.path])
        let dot = SCXMLFixtures.run(["dot", spec.path])
        #expect(scxml.status == 2 && dot.status == 2 && scxml.out.isEmpty)
        #expect(scxml.err.replacingOccurrences(of: "exporting", with: "drawing") == dot.err)
        #expect(scxml.err.contains("[unknown-event]") || scxml.err.contains("error:"))
        #expect(SCXMLFixtures.run(["scxml"]).status == 2)
        #expect(SCXMLFixtures.run(["scxml", "--bogus", "Specs/Drawer.machine"]).status == 2)
        #expect(SCXMLFixtures.run(["help", "scxml"]).out.hasPrefix("USAGE: statecraft scxml"))
    }
}

/// The leading comment names any path without breaking the document.
@Suite struct SCXMLCommentTests {
    @Test(arguments: ["plain.machine", "a--b.machine", "ends-with-", "---", "tab\tand <&> \"q\""])
    func sourcePathStaysInsideTheComment(_ source: String) throws {
        let machine = try #require(Statecraft.check(source: "machine M { initial state a }", path: "m.machine", bounds: nil).machine)
        let document = SCXMLWriter.document(for: machine, source: source)
        let root = try #require(XMLNode.parse(document), "\(document)")
        #expect(root.name == "scxml")
        let comment = try #require(document.split(separator: "\n").dropFirst().first)
        #expect(comment.hasPrefix("<!-- ") && comment.hasSuffix(" -->") && comment.contains("written by statecraft scxml"))
        #expect(!comment.dropFirst(4).dropLast(4).contains("--"))
    }
}
