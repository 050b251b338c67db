import Foundation
import Statecraft
import Testing
import TestSupport

/// The interface of each bundled machine, as its contract fixes it (the Interactions article of
/// the DocC catalogue, `Sources/Statecraft/Statecraft.docc/Interactions.md`, restates it). Event logs
/// written by people who never read our specs use exactly these names and types.
struct Interface: Sendable, CustomStringConvertible {
    var file: String
    var states: [String]
    var initial: String
    var finals: [String] = []
    var events: [String: [String: ValueType]]
    var variables: [String: Value]
    var outputs: [String: [String]]
    var constants: [String: Double] = [:]

    var description: String { file }
}

let interfaces: [Interface] = [
    Interface(file: "Drawer.machine", states: ["closed", "open", "dragging"], initial: "open",
              events: ["touchBegan": ["y": .number, "onContent": .bool], "touchMoved": ["y": .number],
                       "touchEnded": ["y": .number], "touchCancelled": ["y": .number]],
              variables: ["directionTop": .bool(true), "originY": .number(-617)],
              outputs: [:],
              constants: ["viewHeight": 667, "minHeight": 50, "boundaryAdjustmentY": 100]),
    Interface(file: "VibrantButton.machine", states: ["unselected", "selected"], initial: "unselected",
              events: ["tap": [:], "select": [:], "deselect": [:]],
              variables: ["alpha": .number(0.2), "textColor": .string("white")],
              outputs: ["didTap": ["index"]],
              constants: ["index": 0]),
    Interface(file: "PullToRefresh.machine", states: ["idle", "pulling", "refreshing"], initial: "idle",
              events: ["scroll": ["offsetY": .number], "endDragging": [:], "endRefreshing": [:]],
              variables: ["progress": .number(0), "insetTop": .number(0)],
              outputs: ["didRefresh": []],
              constants: ["refreshViewHeight": 110]),
    Interface(file: "PeekRating.machine", states: ["idle", "preview", "commit"], initial: "idle",
              events: ["pressBegan": ["x": .number, "y": .number, "onCell": .bool, "cellX": .number,
                                      "cellY": .number, "cellWidth": .number, "cellHeight": .number],
                       "previewUpdate": ["progress": .number, "ended": .bool],
                       "commitUpdate": ["progress": .number, "ended": .bool, "x": .number, "y": .number],
                       "cancel": [:]],
              variables: ["scrollEnabled": .bool(true), "previewProgress": .number(0), "highlighted": .string(""),
                          "rating": .string("")],
              outputs: ["rated": ["rating"]]),
    Interface(file: "SwipeToDismiss.machine", states: ["idle", "dragging", "snappingBack", "flinging", "dismissed"],
              initial: "idle", finals: ["dismissed"],
              events: ["panBegan": ["x": .number, "y": .number], "panChanged": ["x": .number, "y": .number],
                       "panEnded": ["vx": .number, "vy": .number], "snapped": [:], "leftScreen": [:]],
              variables: ["anchorX": .number(0), "anchorY": .number(0)],
              outputs: ["dismissed": []]),
]

@Suite struct SpecTests {
    @Test func theSpecsAreBundled() {
        #expect(Repository.specFiles().map(\.lastPathComponent) ==
                ["CheckoutScreen.machine", "Drawer.machine", "MediaPlayer.machine", "PeekRating.machine",
                 "PullToRefresh.machine", "SwipeToDismiss.machine", "VibrantButton.machine"])
    }

    /// `statecraft check Specs` must be clean: no errors and no warnings; and each spec
    /// states at least two properties, every one of them proven.
    @Test(arguments: Repository.specFiles().map(\.lastPathComponent))
    func specChecksClean(name: String) throws {
        let url = Repository.specs.appendingPathComponent(name)
        let result = Statecraft.check(SourceFile(path: name, bytes: Repository.bytes(url)))
        let findings = result.diagnostics.filter { $0.id != .propertyProven }
        let rendered = findings.map { DiagnosticRenderer().render($0, in: result.file) }.joined()
        #expect(findings.isEmpty, "\(rendered)")
        let machine = try #require(result.machine)
        #expect(machine.properties.count >= 2)
        #expect(result.diagnostics.filter { $0.id == .propertyProven }.count == machine.properties.count)
        #expect(result.exploration?.properties.allSatisfy { if case .proven = $0 { true } else { false } } == true)
    }

    @Test(arguments: interfaces)
    func specHasTheContractedInterface(_ interface: Interface) throws {
        let url = Repository.specs.appendingPathComponent(interface.file)
        let machine = try #require(Statecraft.check(SourceFile(path: interface.file, bytes: Repository.bytes(url)), bounds: nil).machine)
        let states = machine.states.dropFirst()
        #expect(Set(states.map(\.name)).isSuperset(of: interface.states))
        #expect(machine.initialState.map { machine[$0].name } == interface.initial)
        #expect(states.filter(\.isFinal).map(\.name).sorted() == interface.finals.sorted())
        #expect(Set(machine.events.map(\.name)) == Set(interface.events.keys))
        for event in machine.events {
            let fields = Dictionary(uniqueKeysWithValues: event.fields.map { ($0.name, $0.type) })
            #expect(fields == interface.events[event.name], "payload of \(event.name)")
        }
        for (name, initial) in interface.variables {
            let variable = machine.variables.first { $0.name == name }
            #expect(variable?.initialValue == initial, "variable \(name)")
            #expect(variable?.isPublic == true, "variable \(name) is part of the interface")
        }
        #expect(Dictionary(uniqueKeysWithValues: machine.outputs.map { ($0.name, $0.fields.map(\.name)) }) == interface.outputs)
        for (name, value) in interface.constants {
            #expect(machine.constants.first { $0.name == name }?.value == .number(value), "constant \(name)")
        }
    }

    /// Every transition target and every state is reachable in the bundled specs.
    @Test(arguments: interfaces)
    func everyStateIsReachable(_ interface: Interface) throws {
        let url = Repository.specs.appendingPathComponent(interface.file)
        let machine = try #require(Statecraft.check(SourceFile(path: interface.file, bytes: Repository.bytes(url)), bounds: nil).machine)
        #expect(Reachability.reachableStates(machine).count == machine.states.count - 1)
    }
}
