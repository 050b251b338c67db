import Foundation
import TestSupport

/// One fenced code block of a documentation page, with what the page says about it.
///
/// The page annotates a block with an HTML comment on the line right before its fence, which
/// GitHub hides and DocC drops: `<!-- file: Door.machine -->` names the file the block is
/// written to, `<!-- excerpt: .github/workflows/ci.yml -->` says the block copies lines of
/// that repository file.
struct CodeBlock: Sendable, CustomStringConvertible {
    /// The page, relative to the repository's root.
    var page: String
    /// The 1-based line of the opening fence.
    var line: Int
    /// The first word of the info string (`statecraft`, `console`, `swift`...); empty if none.
    var tag: String
    /// The block's lines without the fence's indentation, joined with newlines, ending in one.
    var text: String
    var file: String?
    var excerpt: String?

    var description: String { "\(page):\(line) (\(tag.isEmpty ? "untagged" : tag))" }
}

/// The pages whose samples are tested, and their fenced blocks.
enum Documentation {
    static let catalogue = Repository.root.appendingPathComponent("Sources/Statecraft/Statecraft.docc")

    /// README.md, then every article and tutorial of the catalogue, sorted by path.
    static var pages: [String] {
        var pages = ["README.md"]
        let root = Repository.root.path + "/"
        if let walker = FileManager.default.enumerator(at: catalogue, includingPropertiesForKeys: nil) {
            var found: [String] = []
            for case let url as URL in walker where ["md", "tutorial"].contains(url.pathExtension) {
                found.append(String(url.standardizedFileURL.path.dropFirst(root.count)))
            }
            pages += found.sorted()
        }
        return pages
    }

    /// The fenced blocks of `text` (CommonMark fences of three or more backticks or tildes,
    /// indented by at most three spaces, or more inside a list item), in order.
    static func blocks(of text: String, page: String) -> [CodeBlock] {
        let lines = text.components(separatedBy: "\n")
        var blocks: [CodeBlock] = []
        var i = 0
        while i < lines.count {
            guard let fence = Fence(lines[i]) else { i += 1; continue }
            var body: [String] = []
            var j = i + 1
            while j < lines.count, !fence.isClosed(by: lines[j]) {
                body.append(fence.strip(lines[j]))
                j += 1
            }
            var block = CodeBlock(page: page, line: i + 1, tag: fence.tag,
                                  text: body.map { $0 + "\n" }.joined(), file: nil, excerpt: nil)
            if let previous = lines[..<i].last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                block.file = annotation("file", in: previous)
                block.excerpt = annotation("excerpt", in: previous)
            }
            blocks.append(block)
            i = j + 1
        }
        return blocks
    }

    /// `value` of a line `<!-- key: value -->`.
    static func annotation(_ key: String, in line: String) -> String? {
        let t = line.trimmingCharacters(in: .whitespaces)
        let prefix = "<!-- \(key):"
        guard t.hasPrefix(prefix), t.hasSuffix("-->") else { return nil }
        return String(t.dropFirst(prefix.count).dropLast(3)).trimmingCharacters(in: .whitespaces)
    }
}

/// An opening fence: its indentation, character and length, and the info string's first word.
private struct Fence {
    var indent: Int
    var character: Character
    var count: Int
    var tag: String

    init?(_ line: String) {
        let indent = line.prefix { $0 == " " }.count
        let rest = line.dropFirst(indent)
        guard let c = rest.first, c == "`" || c == "~" else { return nil }
        let count = rest.prefix { $0 == c }.count
        guard count >= 3 else { return nil }
        let info = rest.dropFirst(count).trimmingCharacters(in: .whitespaces)
        if c == "`", info.contains("`") { return nil }
        self.indent = indent
        self.character = c
        self.count = count
        self.tag = String(info.split(separator: " ").first ?? "")
    }

    func isClosed(by line: String) -> Bool {
        let t = line.trimmingCharacters(in: .whitespaces)
        return t.count >= count && t.allSatisfy { $0 == character }
    }

    /// Removes up to the fence's indentation from a content line, as CommonMark does.
    func strip(_ line: String) -> String {
        let spaces = min(indent, line.prefix { $0 == " " }.count)
        return String(line.dropFirst(spaces))
    }
}
