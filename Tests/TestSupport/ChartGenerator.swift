import StatecraftAnalysis

/// Random, well-formed statecharts in the forms of the Statecharts article: compound and parallel
/// states up to three levels deep, nested finals with `done` and `done(x)`, shallow and deep
/// history (with and without a default), `initial -> x` (deep or through a history), guarded `always`, `raise` with and without a
/// payload, `send` (immediate and delayed) and `cancel`, `in(x)` guards, internal transitions, timers at any depth, entry and exit
/// actions that count, emit and sometimes fail. Deterministic for a seed.
///
/// Eventless transitions are guarded by a counter they advance, so most charts settle;
/// a few `raise` chains do not, and must be stopped by the microstep bound.
package struct ChartGenerator {
    var rng: SplitMix64
    private var names: [String] = []
    /// Every non-history state and its kind, in document order.
    private var states: [(name: String, kind: Kind, parent: Int?)] = []
    private var histories: [(name: String, parent: Int)] = []

    enum Kind { case atomic, compound, parallel, final }

    package init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func int(_ n: Int) -> Int { Int(rng.next() % UInt64(max(1, n))) }
    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
    mutating func pick<T>(_ options: [T]) -> T { options[int(options.count)] }

    /// One state of the tree being planned.
    private final class Node {
        var name: String
        var kind: Kind
        var children: [Node] = []
        var history: [(name: String, deep: Bool)] = []
        var lines: [String] = []
        init(name: String, kind: Kind) {
            self.name = name
            self.kind = kind
        }
    }

    private mutating func plan(depth: Int, parallelParent: Bool, counter: inout Int) -> Node {
        let name = "s\(counter)"
        counter += 1
        let roll = int(100)
        let kind: Kind
        if depth >= 3 || roll < 35 { kind = .atomic }
        else if roll < 75 { kind = .compound }
        else { kind = .parallel }
        let node = Node(name: name, kind: kind)
        switch kind {
        case .compound:
            let count = 2 + int(2)
            for _ in 0..<count { node.children.append(plan(depth: depth + 1, parallelParent: false, counter: &counter)) }
            if chance(45) {
                let f = Node(name: "s\(counter)", kind: .final)
                counter += 1
                node.children.append(f)
            }
        case .parallel:
            for _ in 0..<2 {
                let region = plan(depth: depth + 1, parallelParent: true, counter: &counter)
                node.children.append(region)
            }
        case .atomic, .final:
            break
        }
        if (kind == .compound || kind == .parallel) && chance(40) {
            node.history.append((name: "h\(counter)", deep: chance(50)))
            counter += 1
        }
        return node
    }

    private mutating func flatten(_ node: Node, parent: Int?) {
        let index = states.count
        states.append((node.name, node.kind, parent))
        for child in node.children { flatten(child, parent: index) }
        for h in node.history { histories.append((h.name, index)) }
    }

    private func isDescendant(_ s: Int, of a: Int) -> Bool {
        var current = states[s].parent
        while let c = current {
            if c == a { return true }
            current = states[c].parent
        }
        return false
    }

    /// The text of one machine.
    package mutating func spec(name: String = "Chart") -> String {
        states = []
        histories = []
        var counter = 0
        let top = (0..<(2 + int(2))).map { _ in plan(depth: 1, parallelParent: false, counter: &counter) }
        for node in top { flatten(node, parent: nil) }
        var lines = ["machine \(name) {",
                     "    public var a: Number = \(pick(["0", "1", "2"]))",
                     "    public var b: Number = \(pick(["1", "2", "0"]))",
                     "    public var flag: Bool = \(pick(["true", "false"]))",
                     "    public var trail: String = \"\"",
                     "    event tick",
                     "    event go",
                     "    event back",
                     "    event move(x: Number)",
                     "    event note(text: String)",
                     "    output out(v: Number)",
                     "    output said(text: String)"]
        for (k, node) in top.enumerated() { lines += render(node, indent: "    ", initial: k == 0, inParallel: false) }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private mutating func render(_ node: Node, indent: String, initial: Bool, inParallel: Bool) -> [String] {
        let modifiers = (initial && !inParallel ? "initial " : "") + (node.kind == .final ? "final " : "")
            + (node.kind == .parallel ? "parallel " : "")
        var body: [String] = []
        let inner = indent + "    "
        if chance(35) { body.append(inner + "entry { \(action(fields: [])) }") }
        if chance(25) { body.append(inner + "exit { \(action(fields: [])) }") }
        if node.kind != .final {
            for _ in 0..<int(4) { body.append(inner + transition(from: node)) }
            if node.kind != .atomic && chance(50) { body.append(inner + completion(of: node)) }
        }
        // Sometimes a compound state says where it starts instead: a deeper state, or one of
        // its history states (`initial -> x`).
        var marksChild = node.kind == .compound
        if node.kind == .compound && chance(20) {
            let index = states.firstIndex { $0.name == node.name } ?? 0
            let inside = states.indices.filter { isDescendant($0, of: index) }.map { states[$0].name } + node.history.map(\.name)
            if !inside.isEmpty {
                body.append(inner + "initial -> " + pick(inside))
                marksChild = false
            }
        }
        for (k, child) in node.children.enumerated() {
            body += render(child, indent: inner, initial: k == 0 && marksChild, inParallel: node.kind == .parallel)
        }
        for h in node.history {
            var line = inner + (h.deep ? "deep " : "") + "history state \(h.name)"
            let index = states.firstIndex { $0.name == node.name } ?? 0
            let inside = states.indices.filter { isDescendant($0, of: index) && states[$0].kind != .final }
            if chance(40), !inside.isEmpty { line += " -> " + states[pick(inside)].name }
            body.append(line)
        }
        if body.isEmpty { return [indent + modifiers + "state \(node.name)"] }
        return [indent + modifiers + "state \(node.name) {"] + body + [indent + "}"]
    }

    private mutating func target() -> String {
        if !histories.isEmpty && chance(20) { return pick(histories).name }
        return pick(states.filter { _ in true }).name
    }

    private mutating func guardText(fields: [String]) -> String? {
        switch int(9) {
        case 0: return "a > 1"
        case 1: return "a < 3"
        case 2: return "flag"
        case 3: return fields.contains("x") ? "x > 0" : "b != 0"
        case 4: return "in(\(pick(states).name))"
        case 5: return "!in(\(pick(states).name))"
        case 6: return fields.contains("text") ? "text == \"a\"" : "trail != \"\""
        default: return nil
        }
    }

    private mutating func action(fields: [String]) -> String {
        switch int(15) {
        case 0: return "a += 1"
        case 1: return "a = a - 1"
        case 2: return "b = \(fields.contains("x") ? "x" : "a")"
        case 3: return "flag = !flag"
        case 4: return "emit out(a)"
        case 5: return "a = 10 / b"
        case 6: return "trail = \"\(pick(states).name)\""
        case 7: return "emit said(trail)"
        case 8: return chance(30) ? "raise go" : "a += 2"
        case 9: return chance(30) ? "raise move(a)" : "b += 1"
        case 10: return "if a > 2 { a = 0 } else { emit out(b) }"
        case 11: return fields.contains("text") ? "trail = text" : "flag = a > b"
        // Sent events, rarer than the rest: every state explored with sends pending is a
        // new one for the analysis (the pending sends are part of it), and an immediate
        // `send go` on `go` loops at one instant.
        case 12:
            guard chance(40) else { return "a += 1" }
            return chance(5) ? "send back" : "send move(a) after \(pick(["0.2", "0.5", "1s"]))"
        case 13: return chance(50) ? "cancel move" : chance(30) ? "send go after 0.3" : "b += 1"
        default: return "let y = a * 2; b = y"
        }
    }

    private mutating func transition(from node: Node) -> String {
        let prefix = chance(10) ? "internal " : ""
        var fields: [String] = []
        var text: String
        switch int(10) {
        case 0, 1, 2:
            let event = pick(["tick", "go", "back", "move", "note"])
            if event == "move" { fields = ["x"] }
            if event == "note" { fields = ["text"] }
            text = "on \(event)"
        case 3:
            text = "on tick, move"
        case 4, 5:
            // Rarely 0: a zero-delay timer back into its state loops at one instant.
            text = "after \(chance(5) ? "0" : pick(["0.1", "0.5", "1s", "2s"]))"
        case 6:
            // Counted, so it settles: it fires while `a` is below a bound and moves `a` up.
            text = "always if a < \(2 + int(3))"
            let t = chance(70) ? " -> " + target() : ""
            return text + t + " { a += 1 }"
        default:
            text = "on \(pick(["go", "back"]))"
        }
        if let g = guardText(fields: fields) {
            if text.hasPrefix("on tick, move") && g.contains("x") { text += " if b != 0" } else { text += " if " + g }
        }
        if chance(85) { text += " -> " + target() }
        if chance(50) { text += " { \(action(fields: text.hasPrefix("on tick, move") ? [] : fields)) }" }
        return prefix + text
    }

    private mutating func completion(of node: Node) -> String {
        var text = chance(50) ? "done" : "done(\(pick(states.filter { $0.kind == .compound || $0.kind == .parallel }.map(\.name) + [node.name])))"
        if chance(30) { text += " if a < 5" }
        text += " -> " + target()
        if chance(40) { text += " { \(action(fields: [])) }" }
        return text
    }
}
