import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Statecraft
import Testing
import TestSupport

/// Every code block of the README and of the DocC catalogue does what the page says.
///
/// A page's blocks are taken in order, in a scratch folder that starts as a copy of `Specs/`:
/// a named block (`<!-- file: NAME -->`) is written there, a `console` block's commands run
/// there and print exactly what the page shows. The rules for each tag are in the
/// Contributing article of the catalogue; a block with any other tag fails, so no sample
/// escapes the test.
@Suite struct SampleTests {
    @Test(arguments: Documentation.pages)
    func everySampleOnThePageWorks(page: String) throws {
        let text = try String(contentsOf: Repository.root.appendingPathComponent(page), encoding: .utf8)
        try run(Documentation.blocks(of: text, page: page))
    }

    /// Runs blocks in order, in one scratch folder, by the rules of their tags. With
    /// `wholeFiles` the blocks are files of their own (a tutorial's `@Code` files), not parts
    /// of a page: a Swift file must then be a whole file of `Samples/`, and a spec must also
    /// be in the layout `statecraft fmt` writes, since the tutorial teaches it.
    func run(_ blocks: [CodeBlock], wholeFiles: Bool = false) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var shell = Shell(folder: folder)
        let shownByCheck = specsShownByCheck(blocks)
        for (index, block) in blocks.enumerated() {
            if let excerpt = block.excerpt {
                if let problem = excerptProblem(block, of: excerpt) { Issue.record("\(block): \(problem)") }
                continue
            }
            switch block.tag {
            case "statecraft":
                if block.file != nil { try write(block, in: folder) }
                if !shownByCheck.contains(index) { checkClean(block) }
                if wholeFiles, let formatted = SpecFormatter.format(source: block.text), formatted != block.text {
                    Issue.record("\(block): not in the layout of statecraft fmt")
                }
            case "console":
                try runConsole(block, shell: &shell)
            case "swift":
                if let problem = SwiftSamples.problem(with: block, wholeFile: wholeFiles) { Issue.record("\(block): \(problem)") }
            case "jsonl":
                for (i, line) in outputLines(block.text).enumerated() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                    // A line may be wrong for a log on purpose (an array, shown refused by
                    // replay), but it is JSON: an object or an array.
                    if (try? JSONSerialization.jsonObject(with: Data(line.utf8))) == nil {
                        Issue.record("\(block.page):\(block.line + 1 + i): not a JSON object or array: \(line)")
                    }
                }
                if block.file != nil { try write(block, in: folder) }
            case "json":
                if (try? JSONSerialization.jsonObject(with: Data(block.text.utf8), options: [.fragmentsAllowed])) == nil {
                    Issue.record("\(block): not one valid JSON document")
                }
                if block.file != nil { try write(block, in: folder) }
            case "xml":
                let parser = XMLParser(data: Data(block.text.utf8))
                if !parser.parse() {
                    Issue.record("\(block): not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")")
                }
                if block.file != nil { try write(block, in: folder) }
            case "ebnf":
                for terminal in ebnfTerminals(block.text) {
                    let (tokens, diagnostics) = Lexer.tokenize(SourceFile(path: "grammar", text: terminal))
                    if tokens.filter({ $0.kind != .endOfFile }).count != 1 || !diagnostics.diagnostics.isEmpty {
                        Issue.record("\(block): the terminal '\(terminal)' is not one token of the language")
                    }
                }
            default:
                Issue.record("\(block): a code block needs one of the tags statecraft, console, swift, jsonl, json, xml, ebnf, or an excerpt annotation (Contributing article)")
            }
        }
    }

    /// The named spec blocks whose diagnostics the page shows: a later console block runs
    /// `statecraft check` on the block's file before another block rewrites that file. The
    /// console block's output is then the block's expectation, so it need not be clean.
    func specsShownByCheck(_ blocks: [CodeBlock]) -> Set<Int> {
        var shown: Set<Int> = []
        for (i, block) in blocks.enumerated() where block.tag == "statecraft" {
            guard let name = block.file else { continue }
            for later in blocks[(i + 1)...] {
                if later.file == name { break }
                guard later.tag == "console" else { continue }
                let checks = ConsoleSession(later.text).commands.contains { command in
                    let words = ConsoleSession.shellText(command.text).split(separator: " ").map(String.init)
                    return words.starts(with: ["statecraft", "check"]) && words.contains(name)
                }
                if checks { shown.insert(i); break }
            }
        }
        return shown
    }

    func checkClean(_ block: CodeBlock) {
        // The block's first line is the line after its fence, so positions are the page's.
        let file = SourceFile(path: block.page, bytes: Array(block.text.utf8), firstLine: block.line + 1)
        let result = Statecraft.check(file)
        // A proven property is a finding, but nothing to fix.
        for diagnostic in result.diagnostics where diagnostic.id != .propertyProven {
            let at = file.location(of: diagnostic.range.start)
            Issue.record("""
                \(block.page):\(at.line):\(at.column): \(diagnostic.severity.rawValue): \(diagnostic.message) \
                [\(diagnostic.id.rawValue)] (a spec sample must check clean, or be named and its diagnostics shown \
                by `statecraft check` in a console block)
                """)
        }
        if result.machine == nil, result.diagnostics.isEmpty { Issue.record("\(block): no machine") }
    }

    func runConsole(_ block: CodeBlock, shell: inout Shell) throws {
        let session = ConsoleSession(block.text)
        if session.commands.isEmpty { Issue.record("\(block): a console block without a `$ ` command") }
        for command in session.commands {
            if command.text.isEmpty {
                Issue.record("\(block): output before the first `$ ` command")
                continue
            }
            guard ConsoleSession.isRun(command.text) else { continue }
            // A picture needs Graphviz, which the suite's other diagram tests also only
            // require where STATECRAFT_REQUIRE_GRAPHVIZ is set. The page's later commands
            // read the picture (`head -n 1 pull.svg`), so the rest of the page is skipped.
            if Self.drawsWithGraphviz(command.text) {
                try Skip.unless(ExternalTool.find("dot") != nil, "Graphviz is not installed (\(block))",
                                unlessRequiredBy: "STATECRAFT_REQUIRE_GRAPHVIZ")
            }
            do {
                let output = try shell.run(command.text)
                let actual = outputLines(output)
                if !linesMatch(command.expected, actual) {
                    Issue.record("""
                        \(block): `\(command.text)` printed:
                        \(actual.joined(separator: "\n"))
                        but the page shows:
                        \(command.expected.joined(separator: "\n"))
                        """)
                }
            } catch {
                Issue.record("\(block): `\(command.text)` could not run: \(error)")
            }
        }
    }

    /// `statecraft dot -T svg`, `-T png`, or a pipe into Graphviz's `dot`.
    static func drawsWithGraphviz(_ command: String) -> Bool {
        let words = command.split(separator: " ")
        return zip(words, words.dropFirst()).contains { $0 == "-T" || ($0 == "|" && $1 == "dot") }
            || words.contains { $0.hasPrefix("-T") && $0.count > 2 }
    }

    func write(_ block: CodeBlock, in folder: URL) throws {
        guard let name = block.file else { return }
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(block.text.utf8).write(to: url)
    }

    func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("statecraft-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Repository.specs, to: folder.appendingPathComponent("Specs"))
        return folder
    }

    func excerptProblem(_ block: CodeBlock, of path: String) -> String? {
        guard let source = try? String(contentsOf: Repository.root.appendingPathComponent(path), encoding: .utf8) else {
            return "the excerpt's file \(path) cannot be read"
        }
        return containsLines(outputLines(source), outputLines(block.text))
            ? nil : "not a verbatim excerpt of \(path)"
    }

    /// The quoted terminals of a grammar: 'x' and "x".
    func ebnfTerminals(_ grammar: String) -> [String] {
        var terminals: [String] = []
        var quote: Character?
        var current = ""
        for c in grammar {
            if let q = quote {
                if c == q { terminals.append(current); quote = nil; current = "" } else { current.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
            }
        }
        return terminals
    }
}

/// Whether `block`'s lines appear consecutively in `file`, the whole block shifted right by
/// the same number of spaces (a sample shown without the indentation of the function that
/// holds it). Blank lines match blank lines; trailing spaces are ignored.
func containsLines(_ file: [String], _ block: [String]) -> Bool {
    let block = Array(block.map(trimTrailing).drop { $0.isEmpty }.reversed().drop { $0.isEmpty }.reversed())
    guard let first = block.first else { return false }
    let file = file.map(trimTrailing)
    let firstIndent = first.prefix { $0 == " " }.count
    for k in file.indices where k + block.count <= file.count {
        let indent = file[k].prefix { $0 == " " }.count - firstIndent
        guard indent >= 0 else { continue }
        let pad = String(repeating: " ", count: indent)
        if zip(block, file[k...]).allSatisfy({ b, f in b.isEmpty ? f.isEmpty : f == pad + b }) { return true }
    }
    return false
}

/// The Swift the pages show is compiled: it must be a part of a file under `Samples/`, which
/// this test target builds and whose tests run it.
enum SwiftSamples {
    static let folder = Repository.root.appendingPathComponent("Tests/DocumentationTests/Samples")

    /// The Swift files under `Samples/`, whole.
    static let files: [String] = {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var files: [String] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            if let text = try? String(contentsOf: url, encoding: .utf8) { files.append(text) }
        }
        return files
    }()

    /// Why `block` is not compiled here, or nil. A page's sample is part of a file (without its
    /// `import` lines and indentation); with `wholeFile`, the block must be a whole file.
    static func problem(with block: CodeBlock, wholeFile: Bool = false) -> String? {
        if wholeFile {
            return files.contains(block.text) ? nil : "not a copy of a file under Tests/DocumentationTests/Samples"
        }
        let lines = outputLines(block.text).filter { !$0.hasPrefix("import ") }
        if lines.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { return "an empty Swift sample" }
        return files.contains { containsLines(outputLines($0), lines) }
            ? nil : "this Swift is not in any file of Tests/DocumentationTests/Samples, so nothing compiles it"
    }
}
