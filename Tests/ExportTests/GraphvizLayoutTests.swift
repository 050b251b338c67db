import Foundation
import Statecraft
import StatecraftExport
import Testing

/// Where Graphviz puts what the DOT asks for, read from `dot -Tjson`: every arrow ends on
/// something drawn, and no two texts overlap.
@Suite struct GraphvizLayoutTests {
    /// Every arrowhead touches its state: a leaf's box, or the border of a compound or
    /// parallel state's cluster (never the invisible anchor point inside it). An edge to
    /// an ancestor (`restartMedia -> call` from inside `call`) and a loop on a compound
    /// state (`tick` on `call`) used to end at that point, in empty space.
    @Test(.enabled(if: Graphviz.isInstalled, "Graphviz's dot is not installed; \(Graphviz.installHint)"),
          arguments: ExportFixtures.allNames)
    func arrowsEndOnWhatTheyPointAt(_ name: String) throws {
        let machine = try #require(ExportFixtures.named(name))
        let layout = try Layout(DOTWriter.write(machine))
        for edge in layout.edges {
            for tip in edge.tips {
                if let name = tip.cluster {
                    let cluster = try #require(layout.clusters[name], "\(name): no cluster \(name)")
                    #expect(cluster.hasOnBorder(tip.point), "\(name): the arrow of \(edge.title) ends at \(tip.point), off the border of \(name) \(cluster)")
                } else {
                    #expect(!layout.invisible.contains(tip.node), "\(name): the arrow of \(edge.title) ends at an invisible point")
                    let box = try #require(layout.nodes[tip.node], "\(name): no node \(tip.node)")
                    #expect(box.insetBy(-3).contains(tip.point), "\(name): the arrow of \(edge.title) ends at \(tip.point), away from \(tip.node) \(box)")
                }
            }
        }
    }

    /// No two texts overlap: state names, cluster titles and transition labels. Labels of
    /// edges clipped at a cluster used to be placed for the unclipped edge, on top of a
    /// cluster's title or of the label running the other way (`placeOrder`/`orderResult`).
    @Test(.enabled(if: Graphviz.isInstalled, "Graphviz's dot is not installed; \(Graphviz.installHint)"),
          arguments: ExportFixtures.allNames)
    func textsDoNotOverlap(_ name: String) throws {
        let machine = try #require(ExportFixtures.named(name))
        let texts = try Layout(DOTWriter.write(machine)).texts
        for i in texts.indices {
            for j in texts.indices where j > i && texts[i].box.overlaps(texts[j].box) {
                Issue.record("\(name): '\(texts[i].text)' \(texts[i].box) overlaps '\(texts[j].text)' \(texts[j].box)")
            }
        }
    }

    /// A parallel state with many regions is a grid: six regions in three columns of two,
    /// each column to the right of the one before (Graphviz stacked them in one column).
    @Test(.enabled(if: Graphviz.isInstalled, "Graphviz's dot is not installed; \(Graphviz.installHint)"))
    func manyRegionsAreLaidOutInAGrid() throws {
        let machine = try #require(ExportFixtures.named("dashboard"))
        let dot = DOTWriter.write(machine)
        let layout = try Layout(dot)
        func region(_ n: Int) throws -> Box {
            let state = try #require(machine.states.first { $0.name == "w\(n)" })
            return try #require(layout.clusters["cluster_s\(state.id.index)"])
        }
        let columns = [[try region(1), try region(2)], [try region(3), try region(4)], [try region(5), try region(6)]]
        for c in 1..<columns.count {
            for left in columns[c - 1] {
                for right in columns[c] {
                    #expect(right.minX > left.maxX, "column \(c + 1) region \(right) is not right of \(left)")
                }
            }
        }
        #expect(dot.contains("grid_s1_1 [shape=point, style=invis"))
        #expect(dot.contains("grid_s1_2 [shape=point, style=invis"))
    }

    /// The condition of a conditional entry action is drawn with it.
    @Test(.enabled(if: Graphviz.isInstalled, "Graphviz's dot is not installed; \(Graphviz.installHint)"))
    func conditionalActionsAreDrawnWithTheirCondition() throws {
        let machine = try #require(ExportFixtures.named("video-call"))
        let texts = try Layout(DOTWriter.write(machine)).texts.map(\.text)
        #expect(texts.contains("entry / if in(cameraOn) { raise toggleCamera }"), "\(texts)")
        #expect(texts.contains("exit / if attempts > 0 { shareStopped } else { raise toggleMic }"), "\(texts)")
    }
}

/// A rectangle in Graphviz's points.
struct Box: CustomStringConvertible {
    var minX, minY, maxX, maxY: Double

    func contains(_ p: (Double, Double)) -> Bool { p.0 >= minX && p.0 <= maxX && p.1 >= minY && p.1 <= maxY }
    func insetBy(_ d: Double) -> Box { Box(minX: minX + d, minY: minY + d, maxX: maxX - d, maxY: maxY - d) }
    /// Overlapping by more than half a point (touching boxes do not count).
    func overlaps(_ o: Box) -> Bool {
        min(maxX, o.maxX) - max(minX, o.minX) > 0.5 && min(maxY, o.maxY) - max(minY, o.minY) > 0.5
    }
    /// Within 3 points of the border, inside or out.
    func hasOnBorder(_ p: (Double, Double)) -> Bool { insetBy(-3).contains(p) && !insetBy(3).contains(p) }

    var description: String { "(\(Int(minX)),\(Int(minY)))-(\(Int(maxX)),\(Int(maxY)))" }
}

/// The parts of a `dot -Tjson` layout the tests look at.
struct Layout {
    struct Edge {
        var title: String
        /// Each arrow's tip with the node it points at and the cluster it is clipped at, if
        /// any: the head's (`e,x,y`, `lhead`), and the tail's (`s,x,y`, `ltail`) for an
        /// edge drawn backwards.
        typealias Tip = (point: (Double, Double), node: String, cluster: String?)
        var tips: [Tip]
    }

    var clusters: [String: Box] = [:]
    var nodes: [String: Box] = [:]
    /// The nodes drawn with `style=invis`.
    var invisible: Set<String> = []
    var edges: [Edge] = []
    /// Every line of text drawn, with its box.
    var texts: [(text: String, box: Box)] = []

    struct Problem: Error, CustomStringConvertible { var description: String }

    init(_ dot: String) throws {
        let run = try Graphviz.json(dot)
        guard run.status == 0, let json = try JSONSerialization.jsonObject(with: Data(run.svg.utf8)) as? [String: Any] else {
            throw Problem(description: "dot -Tjson failed (\(run.status)): \(run.stderr)")
        }
        var names: [Int: String] = [:]
        for object in json["objects"] as? [[String: Any]] ?? [] {
            let name = object["name"] as? String ?? ""
            if let bb = object["bb"] as? String {
                let n = bb.split(separator: ",").compactMap { Double($0) }
                if n.count == 4 { clusters[name] = Box(minX: n[0], minY: n[1], maxX: n[2], maxY: n[3]) }
            } else if let gvid = object["_gvid"] as? Int, let pos = Self.point(object["pos"] as? String ?? "") {
                names[gvid] = name
                if (object["style"] as? String ?? "").contains("invis") { invisible.insert(name) }
                let w = (Double(object["width"] as? String ?? "0") ?? 0) * 36
                let h = (Double(object["height"] as? String ?? "0") ?? 0) * 36
                nodes[name] = Box(minX: pos.0 - w, minY: pos.1 - h, maxX: pos.0 + w, maxY: pos.1 + h)
            }
            texts += Self.texts(object["_ldraw_"])
        }
        // Invisible edges (the grid of a big parallel state's regions) draw nothing.
        for edge in json["edges"] as? [[String: Any]] ?? [] where !(edge["style"] as? String ?? "").contains("invis") {
            let tail = names[edge["tail"] as? Int ?? -1] ?? "?"
            let head = names[edge["head"] as? Int ?? -1] ?? "?"
            var tips: [Edge.Tip] = []
            for part in (edge["pos"] as? String ?? "").split(separator: " ") {
                if part.hasPrefix("e,"), let p = Self.point(String(part.dropFirst(2))) {
                    tips.append((p, head, edge["lhead"] as? String))
                }
                if part.hasPrefix("s,"), let p = Self.point(String(part.dropFirst(2))) {
                    tips.append((p, tail, edge["ltail"] as? String))
                }
            }
            edges.append(Edge(title: tail + " -> " + head, tips: tips))
            texts += Self.texts(edge["_ldraw_"])
        }
    }

    private static func point(_ text: String) -> (Double, Double)? {
        let n = text.split(separator: ",").compactMap { Double($0) }
        return n.count == 2 ? (n[0], n[1]) : nil
    }

    /// The `T` (text) operations of an `_ldraw_` list, each with its box: `width` wide,
    /// anchored by `align`, from a quarter of the font size below the baseline to three
    /// quarters above it (the lines of one label are 1.2 font sizes apart, so they do not
    /// overlap each other).
    private static func texts(_ draw: Any?) -> [(text: String, box: Box)] {
        var size = 14.0
        var result: [(text: String, box: Box)] = []
        for op in draw as? [[String: Any]] ?? [] {
            if op["op"] as? String == "F", let s = op["size"] as? Double { size = s }
            guard op["op"] as? String == "T", let text = op["text"] as? String,
                  let pt = op["pt"] as? [Double], pt.count == 2, let width = op["width"] as? Double else { continue }
            let left: Double
            switch op["align"] as? String {
            case "l": left = pt[0]
            case "r": left = pt[0] - width
            default: left = pt[0] - width / 2
            }
            result.append((text, Box(minX: left, minY: pt[1] - size / 4, maxX: left + width, maxY: pt[1] + size * 3 / 4)))
        }
        return result
    }
}
