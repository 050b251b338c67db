import Foundation
import Statecraft
import TestSupport

/// What the formatter tests compare: the spec files of the repository, and what a spec says
/// and reports with its positions taken out.
enum FormatSupport {
    /// Every `*.machine` file of the repository: the bundled specs and every one under `Tests`
    /// (fixtures, test specs, these tests' golden inputs), as paths relative to the root.
    static let specPaths: [String] = {
        let fm = FileManager.default
        var paths = Repository.specFiles().map { "Specs/" + $0.lastPathComponent }
        let tests = Repository.root.appendingPathComponent("Tests")
        if let walker = fm.enumerator(atPath: tests.path) {
            while let relative = walker.nextObject() as? String {
                if relative.hasSuffix(".machine") { paths.append("Tests/" + relative) }
            }
        }
        return paths.sorted()
    }()

    static func file(_ path: String) -> SourceFile {
        SourceFile(path: path, bytes: Repository.bytes(Repository.root.appendingPathComponent(path)))
    }

    /// The formatted text, or nil with the reason when the formatter refused or failed.
    static func format(_ file: SourceFile) -> (text: SourceFile?, problem: String?) {
        let result = SpecFormatter.format(file)
        switch result.outcome {
        case .formatted(let bytes): return (SourceFile(path: file.path, bytes: bytes), nil)
        case .syntaxErrors(let diagnostics): return (nil, "syntax errors: \(diagnostics.map(\.message))")
        case .failed(let offset, let message): return (nil, "failed at \(offset): \(message)")
        }
    }

    /// Whether the file parses without syntax errors.
    static func parses(_ file: SourceFile) -> Bool {
        let text = file.bytes.starts(with: [0xEF, 0xBB, 0xBF])
            ? SourceFile(path: file.path, bytes: Array(file.bytes.dropFirst(3))) : file
        return !Parser.parse(text).diagnostics.hasErrors
    }

    /// What the checked machine says, without source positions: its SCXML document (states,
    /// transitions, guards and actions as expressions) and its compiled program; nil when
    /// the spec does not resolve.
    static func model(_ file: SourceFile) -> String? {
        guard let machine = Statecraft.check(file, bounds: nil).machine else { return nil }
        return SCXMLWriter.document(for: machine, source: nil) + Program(machine).disassembly
    }

    /// Each diagnostic and note of a check as id, message and position, where a position is
    /// the token it falls in (its index among the tokens formatting keeps, and the offset
    /// inside it) rather than a line and column.
    static func diagnostics(_ file: SourceFile, bounds: ExplorationBounds? = nil) -> [String] {
        let result = Statecraft.check(file, bounds: bounds)
        let all = Lexer.tokenize(result.file).tokens
        let tokens = all.indices.filter { index in
            all[index].kind != .semicolon
                && !(all[index].kind == .comma && index + 1 < all.count && all[index + 1].kind == .rParen)
        }.map { all[$0] }
        // Where tokens touch, an offset is both the end of one and the start of the next:
        // a range's start is read as the start of a token, its end as the end of one.
        func position(_ offset: Int, isEnd: Bool = false) -> String {
            for (k, token) in tokens.enumerated() {
                if isEnd && offset == token.range.end && token.range.end > token.range.start { return "end of token \(k)" }
                if offset >= token.range.start && offset < token.range.end { return "token \(k)+\(offset - token.range.start)" }
                if offset < token.range.start { return "before token \(k)" }
            }
            return "end of file"
        }
        return result.diagnostics.map { d in
            var line = "\(d.severity.rawValue) [\(d.id.rawValue)] \(d.message) at \(position(d.range.start))...\(position(d.range.end, isEnd: true))"
            for note in d.notes { line += "; note: \(note.message)" + (note.range.map { " at \(position($0.start))" } ?? "") }
            return line
        }
    }
}
