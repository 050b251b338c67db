import Foundation
import Statecraft
import StatecraftRuntime
import Testing
import TestSupport

/// The flat program's copy of the tree rule its per-event paths ask (`ParentChain`, the
/// model's `selfAndAncestors` on an integer table), held to the model's, and the answers
/// built on it.
@Suite struct ProgramTreeTests {
    @Test func theProgramsChainIsTheModels() throws {
        var states = 0
        for url in Repository.specFiles() {
            let text = try String(contentsOf: url, encoding: .utf8)
            let machine = try #require(Statecraft.check(source: text, path: url.lastPathComponent, bounds: nil).machine)
            let program = Program(machine)
            for s in machine.states.map(\.id) {
                #expect(Array(program.selfAndAncestors(s.index)) == machine.selfAndAncestors(s).map(\.index),
                        "\(url.lastPathComponent) \(machine[s].name)")
                for limit in machine.selfAndAncestors(s) {
                    #expect(Array(program.selfAndAncestors(s.index, upTo: limit.index))
                            == machine.selfAndAncestors(s, upTo: limit).map(\.index))
                }
                states += 1
            }
        }
        #expect(states > 30)
    }

    /// A flat machine's active states are its state and that state's ancestors, the root left out.
    @Test func aFlatMachinesActiveStatesAreItsStateAndItsAncestors() throws {
        let machine = try #require(Statecraft.check(source: """
            machine M {
                event go
                initial state a {
                    initial state b {
                        initial state c { on go -> d }
                        state d
                    }
                }
            }
            """, path: "M.machine", bounds: nil).machine)
        var instance = Instance(Program(machine))
        #expect(instance.activeStates.isEmpty)
        let a = try #require(machine.state(named: "a"))
        let c = try #require(machine.state(named: "c"))
        let d = try #require(machine.state(named: "d"))
        _ = instance.start()
        #expect(instance.activeStates.map { machine[$0].name } == ["a", "b", "c"])
        #expect(instance.isActive(machine.root) && instance.isActive(a) && instance.isActive(c) && !instance.isActive(d))
        _ = instance.send("go")
        #expect(instance.activeStates.map { machine[$0].name } == ["a", "b", "d"])
        #expect(instance.isActive(d) && !instance.isActive(c))
    }
}
