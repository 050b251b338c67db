import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Statecraft
import StatecraftDriver
import TestSupport

/// The machines the SCXML tests export, and ways to read an exported document back.
enum SCXMLFixtures {
    /// `Tests/SCXMLTests/Golden/`: the fixture spec and the reviewed documents.
    static let golden = Repository.root.appendingPathComponent("Tests/SCXMLTests/Golden")

    /// The fixture spec that uses every form the exporter maps.
    static let fixture = golden.appendingPathComponent("export.machine")

    /// The path a test names a spec by: relative to the repository, so documents and
    /// messages are the same on every machine.
    static func relative(_ url: URL) -> String {
        let root = Repository.root.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }

    /// Every spec the exporter must handle: the bundled specs, this folder's fixture, and
    /// every `.machine` under the export and runtime tests' golden folders (those that do
    /// not resolve are left out: they test error messages, not exports).
    static func allSpecs() -> [URL] {
        var urls = Repository.specFiles() + [fixture, golden.appendingPathComponent("initial-targets.machine")]
        for folder in ["Tests/ExportTests/Golden", "Tests/RuntimeTests/Golden"] {
            let base = Repository.root.appendingPathComponent(folder)
            let found = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
            urls += found.filter { $0.hasSuffix(".machine") }.sorted().map { base.appendingPathComponent($0) }
        }
        return urls
    }

    /// Reads and resolves a spec; nil when it does not resolve.
    static func machine(_ url: URL) -> Machine? {
        let text = String(decoding: Repository.bytes(url), as: UTF8.self)
        return Statecraft.check(source: text, path: relative(url), bounds: nil).machine
    }

    /// The document `statecraft scxml` writes for a spec.
    static func document(_ url: URL) -> String? {
        machine(url).map { SCXMLWriter.document(for: $0, source: relative(url)) }
    }

    /// Runs the command line in-process; returns the exit status, standard output and error.
    static func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        let out = Buffer()
        let err = Buffer()
        let status = Driver.run(arguments, console: Console(out: { out.append($0) }, err: { err.append($0) }))
        return (status, out.text, err.text)
    }

    /// Text written by a command, from any thread.
    final class Buffer: @unchecked Sendable {
        private let lock = NSLock()
        private var parts: [String] = []
        func append(_ s: String) { lock.withLock { parts.append(s) } }
        var text: String { lock.withLock { parts.joined() } }
    }
}

/// An XML element read back from a document, with its children.
final class XMLNode {
    let name: String
    let attributes: [String: String]
    var children: [XMLNode] = []
    weak var parent: XMLNode?

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// This node and every node below it, parents first.
    var all: [XMLNode] { [self] + children.flatMap(\.all) }

    /// Parses a document with Foundation's XML parser; nil when it is not well-formed.
    static func parse(_ document: String) -> XMLNode? {
        let builder = Builder()
        let parser = XMLParser(data: Data(document.utf8))
        parser.delegate = builder
        guard parser.parse() else { return nil }
        return builder.root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: XMLNode?
        var stack: [XMLNode] = []
        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            let node = XMLNode(name: elementName, attributes: attributeDict)
            if let parent = stack.last {
                node.parent = parent
                parent.children.append(node)
            } else {
                root = node
            }
            stack.append(node)
        }
        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?) {
            stack.removeLast()
        }
    }
}
