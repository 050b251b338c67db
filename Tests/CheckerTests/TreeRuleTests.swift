import Foundation
import Statecraft
import Testing
import TestSupport

/// Every question about the state tree is answered in `Sources/Model/StateTree.swift`: no
/// other file walks the tree on its own. The scan below fails when one does; the rest holds
/// the rules named there to their definitions on every bundled spec and fixture.
@Suite struct TreeRuleTests {
    // MARK: - Nobody walks the tree on their own

    /// The files allowed to walk the state tree by hand, and why.
    static let rulesHomes: [String: String] = [
        "Sources/Model/StateTree.swift": "the rules themselves",
        "Sources/Runtime/Program.swift":
            "`ParentChain`: `selfAndAncestors` on the flat program's parent table, for per-event paths "
            + "that must not allocate; ProgramTreeTests holds it to the model's",
        "Sources/Runtime/Charts/Instance+Chart.swift":
            "the statechart fast path (selection) on `ChartProgram`'s integer tables; "
            + "ChartDifferentialTests holds it to ReferenceStepper",
        "Sources/Runtime/Charts/Instance+Microstep.swift":
            "the statechart fast path (domains, exit and entry sets, completion) on `ChartProgram`'s integer "
            + "tables; ChartDifferentialTests holds it to ReferenceStepper",
    ]

    /// Lines elsewhere that follow a parent link of some other tree, and which tree.
    static let otherTrees: [(file: String, line: String, why: String)] = [
        ("Sources/Analysis/Explorer.swift", "i = nodes[i].parent", "the search's nodes, back to the start"),
        ("Sources/Analysis/TestGeneration.swift", "v = tree.parents[v]", "a shortest-path tree of configurations"),
        ("Sources/Analysis/TestGeneration.swift", "v = parents[v]", "a shortest-path tree of configurations"),
        ("Sources/SCXML/Import/SCXMLImporter+States.swift",
         "while let m = meet, !Self.contains(m, b) { meet = m.parent }",
         "the XML elements of a document being imported, before there is a machine"),
        ("Sources/SCXML/Import/SCXMLImporter+States.swift", "up = u.parent",
         "the XML elements of a document being imported, before there is a machine"),
    ]

    /// The ways a tree walk has been written by hand, each with the rule to ask instead.
    static let handWritten: [(pattern: String, instead: String)] = [
        // `current = machine[s].parent`, `s = Int(program.parents[s])`, `{ up = u.parent }`:
        // a step of a loop up the tree (a plain variable given a parent link, nothing else).
        (#"(^|[{;])\s*[A-Za-z_][A-Za-z0-9_]*\s*=\s*(Int\()?[A-Za-z_][A-Za-z0-9_.]*(\[[^\]]*\])?\.(parent\b|parents?\[[^\]]*\])\)?\s*(\}|$)"#,
         "selfAndAncestors or properAncestors"),
        (#"sequence\(first:.*parent"#, "selfAndAncestors"),
        // `[s] + machine.properAncestors(s)`
        (#"\[[^\]]+\]\s*\+\s*([A-Za-z_][A-Za-z0-9_]*\.)?properAncestors\("#, "selfAndAncestors"),
        // `initialChild ?? childStates(s).first`
        (#"initialChild[^=]*\?\?.*(\.first\b|prefix\(1\))"#, "defaultChild"),
        // `properAncestors(a).first { isDescendant(b, of: $0) }`
        (#"(properAncestors|selfAndAncestors)\(.*\.first\s*(\(where:\s*)?\{[^}]*isDescendant"#,
         "innermostContainer or findLCCA"),
    ]

    /// `path:line: text (ask RULE)` for each hand-written walk under `Sources/` outside the
    /// rules' homes and the listed lines of other trees.
    static func handWrittenWalks(under root: URL) throws -> [String] {
        let patterns = try handWritten.map { (try Regex($0.pattern), $0.instead) }
        var found: [String] = []
        for file in swiftFiles(under: root.appendingPathComponent("Sources"), root: root) where rulesHomes[file] == nil {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line.hasPrefix("//") { continue }
                if otherTrees.contains(where: { $0.file == file && $0.line == line }) { continue }
                for (regex, instead) in patterns where line.contains(regex) {
                    found.append("\(file):\(number + 1): \(line) (ask \(instead))")
                }
            }
        }
        return found
    }

    /// The `.swift` files under `folder`, as paths from `root`, sorted.
    static func swiftFiles(under folder: URL, root: URL) -> [String] {
        let prefix = root.standardizedFileURL.path + "/"
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var files: [String] = []
        while let url = walker?.nextObject() as? URL {
            let path = url.standardizedFileURL.path
            if path.hasSuffix(".swift") && path.hasPrefix(prefix) { files.append(String(path.dropFirst(prefix.count))) }
        }
        return files.sorted()
    }

    @Test func noFileWalksTheStateTreeOutsideTheRules() throws {
        let walks = try Self.handWrittenWalks(under: Repository.root)
        #expect(walks.isEmpty, "hand-written tree walks (ask StateTree.swift):\n\(walks.joined(separator: "\n"))")
    }

    /// The scan looks where it should: the sources are there, and what it lets through
    /// still exists (an exception whose line is gone would hide a new walk written the same way).
    @Test func theScanSeesTheSourcesAndItsExceptionsAreCurrent() throws {
        let root = Repository.root
        let files = Self.swiftFiles(under: root.appendingPathComponent("Sources"), root: root)
        #expect(files.count > 100)
        for home in Self.rulesHomes.keys { #expect(files.contains(home), "\(home) is gone") }
        for other in Self.otherTrees {
            let text = try String(contentsOf: root.appendingPathComponent(other.file), encoding: .utf8)
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(lines.contains(other.line), "\(other.file) no longer has '\(other.line)'")
        }
    }

    /// Each pattern catches the walks it was written for: those this repository had before
    /// the rules were named.
    @Test(arguments: [
        "            current = machine[s].parent",
        "            s = Int(program.parents[s])",
        "            anc = chart.parent[Int(anc)]",
        "        while let p = next, p != limit { next = self[p].parent }",
        "        for s in [active] + machine.properAncestors(active, upTo: machine.root) {",
        "            let chain = [s.id] + machine.properAncestors(s.id)",
        "        return self[s].initialChild ?? childStates(s).first",
        "        return self[parent].initialChild.map { [$0] } ?? Array(childStates(parent).prefix(1))",
        "            Int32(s.initialChild?.index ?? (s.kind == .compound ? machine.childStates(s.id).first?.index ?? -1 : -1))",
        "        properAncestors(a).first { isDescendant(b, of: $0) }",
        "        let up = sequence(first: s) { machine[$0].parent }",
    ])
    func eachHandWrittenWalkIsCaught(_ line: String) throws {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        #expect(try Self.handWritten.contains { trimmed.contains(try Regex($0.pattern)) })
    }

    /// Reading a parent once, or building a table of parents, is not a walk.
    @Test(arguments: [
        "guard let parent = machine[h].parent else { return }",
        "let parent = chart.parent[Int(s)]",
        "parent = machine.states.map { Int32($0.parent?.index ?? -1) }",
        "parent = FrozenTable(b.parent)",
        "m.states[state.index].parent = root",
        "if machine.states[parent.index].initialChild == nil { machine.states[parent.index].initialChild = children.first }",
    ])
    func aSingleParentIsNotAWalk(_ line: String) throws {
        #expect(try !Self.handWritten.contains { line.contains(try Regex($0.pattern)) })
    }

    // MARK: - The rules, held to their definitions

    /// Every bundled spec and every fixture that resolves far enough to have a machine.
    static func machines() throws -> [(String, Machine)] {
        let fixtures = Repository.root.appendingPathComponent("Tests/CheckerTests/Fixtures")
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { $0.hasSuffix(".machine") }
        let urls = Repository.specFiles() + names.sorted().map { fixtures.appendingPathComponent($0) }
        return urls.compactMap { url in
            let file = SourceFile(path: url.lastPathComponent, bytes: Repository.bytes(url))
            return Statecraft.check(file, bounds: nil).machine.map { (url.lastPathComponent, $0) }
        }
    }

    /// Ancestors by following `parent` one link at a time: what the rules must agree with.
    static func chain(_ m: Machine, from s: StateID?) -> [StateID] {
        guard let s else { return [] }
        return [s] + chain(m, from: m[s].parent)
    }

    @Test func selfAndAncestorsIsTheStateThenItsProperAncestors() throws {
        let all = try Self.machines()
        #expect(all.count > 25)
        for (name, m) in all {
            for state in m.states {
                let s = state.id
                let up = Self.chain(m, from: s)
                #expect(Array(m.selfAndAncestors(s)) == up, "\(name) \(state.name)")
                #expect(m.properAncestors(s) == Array(up.dropFirst()), "\(name) \(state.name)")
                // Stopping before each ancestor, and before the state itself (nothing).
                for (k, limit) in up.enumerated() {
                    #expect(Array(m.selfAndAncestors(s, upTo: limit)) == Array(up.prefix(k)), "\(name) \(state.name)")
                }
                // A limit that is not an ancestor is never met.
                if let other = m.states.last?.id, !up.contains(other) {
                    #expect(Array(m.selfAndAncestors(s, upTo: other)) == up)
                }
            }
        }
    }

    @Test func defaultChildIsTheInitialChildOrElseTheFirstChildState() throws {
        var compound = 0
        for (name, m) in try Self.machines() {
            for state in m.states {
                let expected: StateID? = state.kind == .compound
                    ? state.initialChild ?? state.children.first { m[$0].kind != .history }
                    : nil
                #expect(m.defaultChild(state.id) == expected, "\(name) \(state.name)")
                if m.defaultChild(state.id) != nil { compound += 1 }
            }
        }
        #expect(compound > 50)
    }

    /// A state without `initial` falls back on its first child state, history states skipped.
    @Test func defaultChildSkipsHistoryStates() throws {
        var m = try #require(Statecraft.check(source: """
            machine M {
                initial state a {
                    history state h
                    initial state x
                    state y
                }
            }
            """, path: "M.machine", bounds: nil).machine)
        let a = try #require(m.state(named: "a"))
        #expect(m.defaultChild(a).map { m[$0].name } == "x")
        m.states[a.index].initialChild = nil
        #expect(m.defaultChild(a).map { m[$0].name } == "x")
        #expect(m.defaultChild(try #require(m.state(named: "x"))) == nil)
    }

    @Test func innermostContainerIsTheInnermostCommonProperAncestor() throws {
        var parallelMeets = 0
        for (name, m) in try Self.machines() {
            for a in m.states.map(\.id) {
                for b in m.states.map(\.id) {
                    let common = Set(m.properAncestors(a)).intersection(m.properAncestors(b))
                    let innermost = common.max() ?? m.root  // ids are in document order: the deepest is the largest
                    #expect(m.innermostContainer([a, b]) == innermost, "\(name) \(m[a].name) \(m[b].name)")
                    #expect(m.innermostContainer([b, a]) == innermost)
                    let compound = common.filter { m.isCompound($0) }.max() ?? m.root
                    #expect(m.findLCCA([a, b]) == compound, "\(name) \(m[a].name) \(m[b].name)")
                    if m.isParallel(innermost) { parallelMeets += 1 }
                }
            }
            #expect(m.innermostContainer([]) == m.root && m.findLCCA([]) == m.root)
        }
        #expect(parallelMeets > 0)
    }
}
