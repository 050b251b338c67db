import Foundation
import Statecraft
import StatecraftReport
import Testing
import TestSupport

/// The diagram of `replay --format html` stays one Graphviz can lay out in moments: a chart
/// past the limit is drawn to the deepest level within it, each compound state below one box.
@Suite struct HeatDrawingTests {
    /// A chart of `regions` parallel regions, each a compound state with two children.
    static func wide(_ regions: Int) throws -> Machine {
        var text = "machine Wide {\n    event tick\n    initial parallel state all {\n"
        for r in 0..<regions {
            text += "        state r\(r) {\n            initial state r\(r)a { on tick -> r\(r)b }\n"
                + "            state r\(r)b { on tick -> r\(r)a }\n        }\n"
        }
        text += "    }\n}\n"
        let result = Statecraft.check(SourceFile(path: "Wide.machine", bytes: Array(text.utf8)))
        return try #require(result.machine)
    }

    @Test func aBundledChartIsDrawnWhole() throws {
        let machine = try #require(ReportTesting.check("Specs/MediaPlayer.machine").machine)
        let drawing = HeatDrawing(ConformanceSummary(machine: machine), machine)
        #expect(drawing.depth == nil)
        #expect(drawing.overlay.collapsed.isEmpty)
        #expect(drawing.machine.states.count == machine.states.count)
        #expect(drawing.note == nil)
    }

    @Test func twoHundredRegionsAreDrawnAsBoxes() throws {
        let machine = try Self.wide(200)
        let drawing = HeatDrawing(ConformanceSummary(machine: machine), machine)
        // 601 states: the parallel state and its 200 regions are drawn, the regions' 400
        // children are not.
        #expect(drawing.depth == 2)
        #expect(drawing.overlay.collapsed.count == 200)
        let dot = DOTWriter.write(drawing.machine, overlay: drawing.overlay)
        #expect(!dot.contains("r0a"), "a collapsed region's children are not drawn")
        #expect(dot.contains("r199"))
        let note = try #require(drawing.note)
        #expect(note.contains("601 states") && note.contains("depth 2"))
    }

    @Test func aChartJustWithinTheLimitIsDrawnWhole() throws {
        // 83 regions: 1 + 83 × 3 = 250 states, the limit.
        let machine = try Self.wide(83)
        #expect(HeatDrawing(ConformanceSummary(machine: machine), machine).depth == nil)
        let over = try Self.wide(84)
        #expect(HeatDrawing(ConformanceSummary(machine: over), over).depth == 2)
    }
}
