import Foundation
import Statecraft
import StatecraftExport
import Testing
import TestSupport

/// The DOT and Mermaid output of every spec and fixture, checked against reviewed files.
@Suite struct GoldenTests {
    @Test(arguments: ExportFixtures.allNames)
    func dot(_ name: String) throws {
        let machine = try #require(ExportFixtures.named(name), "\(name) does not check clean")
        let golden = ExportFixtures.golden.appendingPathComponent(name + ".dot")
        if let difference = Golden.compare(DOTWriter.write(machine), to: golden) { Issue.record("\(difference)") }
    }

    @Test(arguments: ExportFixtures.allNames)
    func mermaid(_ name: String) throws {
        let machine = try #require(ExportFixtures.named(name), "\(name) does not check clean")
        let golden = ExportFixtures.golden.appendingPathComponent(name + ".mmd")
        if let difference = Golden.compare(MermaidWriter.write(machine), to: golden) { Issue.record("\(difference)") }
    }
}
