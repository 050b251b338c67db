import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import StatecraftDiagnostics

// The importer works on a small element tree rather than on SAX callbacks: a translation
// needs to look ahead (which events a document sends, which states have final children)
// before it writes the first line. Each element keeps where its start tag begins, so an
// error points at `<invoke` itself, not at the end of its tag where the parser stands.
//
// Elements of other namespaces (Qt Creator's `<qt:editorinfo>`, a tool's annotations) mean
// nothing to an SCXML processor, wherever they stand: inside `<data>`, a transition, a
// `<send>`. They are left out of the tree here, with everything inside them, so that no part
// of the importer can mistake one for content. Attributes of other namespaces are kept (ours,
// `statecraft:events`, are read), and every other part reads attributes by their unprefixed
// names, so the others are never read.

/// One element of an XML document: its local name, its attributes (by qualified name, as
/// written), its child elements, its text, and the byte offset of its `<`.
package final class XMLNode {
    /// The element's local name, without its prefix (`state`, `transition`).
    package let name: String
    /// The element's namespace URI; nil when it has none.
    package let namespace: String?
    /// The attributes by qualified name as written (`id`, `statecraft:events`) to their values.
    package let attributes: [String: String]
    /// The child elements, in document order.
    package private(set) var children: [XMLNode] = []
    /// The character data directly inside the element, pieces joined in order (CDATA included).
    package internal(set) var text = ""
    /// The byte offset of the element's `<` in the document.
    package let offset: Int
    /// The enclosing element; nil for the root.
    package weak private(set) var parent: XMLNode?
    /// Namespace prefixes in scope at this element (prefix -> URI), for attributes of
    /// other vocabularies (`statecraft:events`).
    package internal(set) var prefixes: [String: String] = [:]

    init(name: String, namespace: String?, attributes: [String: String], offset: Int) {
        self.name = name
        self.namespace = namespace
        self.attributes = attributes
        self.offset = offset
    }

    func append(_ child: XMLNode) {
        child.parent = self
        children.append(child)
    }

    /// The value of the attribute with this qualified name, as written; nil when absent.
    package subscript(attribute: String) -> String? { attributes[attribute] }

    /// The attribute `local` of namespace `uri`, whatever prefix the document gave it.
    package func attribute(_ local: String, namespace uri: String) -> String? {
        for (prefix, value) in prefixes where value == uri && !prefix.isEmpty {
            if let found = attributes[prefix + ":" + local] { return found }
        }
        return nil
    }

    /// Child elements called `name`.
    package func children(_ name: String) -> [XMLNode] { children.filter { $0.name == name } }

    /// Whether the element is SCXML's: in its namespace, or in none (documents that declare
    /// no namespace are read as SCXML).
    package var isSCXML: Bool { namespace == nil || namespace == "" || namespace == scxmlNamespace }
}

/// Why a document cannot be imported: one diagnostic, in the SCXML file.
public struct ImportFailure: Error {
    /// The diagnostic to show, positioned in the SCXML document.
    public var diagnostic: Diagnostic

    init(_ id: DiagnosticID, _ message: String, at offset: Int, length: Int = 0) {
        diagnostic = Diagnostic(id, message, at: SourceRange(offset, offset + length))
    }

    init(_ diagnostic: Diagnostic) {
        self.diagnostic = diagnostic
    }
}

/// Reads a whole document into `XMLNode`s; a document that is not well-formed XML is an
/// error at the position the parser stopped.
enum XMLTree {
    static func parse(_ file: SourceFile) throws(ImportFailure) -> XMLNode {
        let bytes = try XMLPrescan.prepare(file.bytes)
        let builder = Builder(file: file)
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.delegate = builder
        let ok = parser.parse()
        // Foundation's parser can report an error and still return true (a mismatched
        // closing tag on Linux), so the first error reported is what counts.
        if let failure = builder.failure {
            throw ImportFailure(.scxmlMalformed, "not a well-formed XML document: \(failure.reason)", at: failure.offset)
        }
        if !ok || builder.root == nil {
            let offset = builder.offset(line: parser.lineNumber, column: parser.columnNumber)
            let reason = parser.parserError.map { builder.describe($0, at: offset) } ?? "the document has no root element"
            throw ImportFailure(.scxmlMalformed, "not a well-formed XML document: \(reason)", at: offset)
        }
        guard let root = builder.root else { throw ImportFailure(.scxmlMalformed, "the document has no root element", at: 0) }
        return root
    }

    /// libxml2's error codes (which Foundation's parser passes on) for the mistakes people
    /// make by hand, in words; nil for the others.
    static func describe(code: Int) -> String? {
        switch code {
        case 4: "the document is empty"
        case 5: "something after the root element (a document has one)"
        case 9: "a character that XML does not allow"
        case 23, 26: "an '&' that does not start an entity such as &amp; or &lt;"
        case 38: "a '<' inside an attribute value (write it &lt;)"
        case 39: "an attribute value without quotes"
        case 40: "an attribute value without its closing quote"
        case 41: "an attribute without a value"
        case 42: "an attribute written twice"
        case 45: "a comment without its closing '-->'"
        case 65: "a space expected between attributes"
        case 68: "a name expected (of a tag or an attribute)"
        case 73: "'>' expected to end the tag"
        case 75: "'=' expected after the attribute's name"
        case 76: "a closing tag that does not match the element it closes"
        case 80: "'--' inside a comment"
        default: nil
        }
    }

    /// Where the parser stopped with one of these, it was inside markup, not between
    /// elements: a tag, a comment, a declaration.
    static let insideMarkup: Set<Int> = [33, 34, 38, 39, 40, 41, 45, 47, 57, 64, 65, 68, 73, 75, 76, 79, 80, 96]

    private final class Builder: NSObject, XMLParserDelegate {
        let file: SourceFile
        var root: XMLNode?
        var stack: [XMLNode] = []
        var failure: (reason: String, offset: Int)?
        /// Prefixes declared on the element about to start, and those in scope per level.
        var pending: [String: String] = [:]
        var scopes: [[String: String]] = []

        init(file: SourceFile) { self.file = file }

        /// The byte offset of a parser position (1-based line, 1-based byte column).
        func offset(line: Int, column: Int) -> Int {
            let index = max(0, min(line - 1 - (file.firstLine - 1), file.lineStarts.count - 1))
            let range = file.lineRange(index)
            return min(range.lowerBound + max(0, column - 1), file.bytes.count)
        }

        /// The parser reports the end of a start tag; the element begins at the `<` before it.
        func startOfTag(before end: Int, name: String) -> Int {
            var i = min(end, file.bytes.count) - 1
            while i >= 0 {
                if file.bytes[i] == UInt8(ascii: "<") { return i }
                i -= 1
            }
            return max(0, end)
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            let end = offset(line: parser.lineNumber, column: parser.columnNumber)
            let node = XMLNode(name: elementName, namespace: namespaceURI, attributes: attributeDict,
                               offset: startOfTag(before: end, name: qName ?? elementName))
            var inScope = scopes.last ?? [:]
            inScope.merge(pending) { _, new in new }
            pending = [:]
            node.prefixes = inScope
            scopes.append(inScope)
            // A foreign element is read (its end must match) but hangs from no parent: it
            // and its subtree are not part of the document's SCXML. The root is kept
            // whatever its namespace, so that a document of another vocabulary is refused.
            if let parent = stack.last {
                if node.isSCXML { parent.append(node) }
            } else if root == nil {
                root = node
            }
            stack.append(node)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            _ = stack.popLast()
            _ = scopes.popLast()
        }

        func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
            pending[prefix] = namespaceURI
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if failure == nil {
                let at = offset(line: parser.lineNumber, column: parser.columnNumber)
                failure = (describe(parseError, at: at), at)
            }
        }

        /// The parser's error at `offset` in words. A document cut short (the parser stopped
        /// at its end) is said so, with the element left open, whatever libxml2 expected
        /// next there; a mismatched closing tag names the element it should close.
        func describe(_ error: Error, at offset: Int) -> String {
            let code = (error as NSError).code
            let atEnd = file.bytes[min(offset, file.bytes.count)...].allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
            // A closing tag that does not match, but is whole, is that mistake even at the end.
            var before = min(offset, file.bytes.count) - 1
            while before >= 0, [0x20, 0x0A, 0x0D, 0x09].contains(file.bytes[before]) { before -= 1 }
            let wholeTag = before >= 0 && file.bytes[before] == UInt8(ascii: ">")
            if atEnd && code != 4 && !(code == 76 && wholeTag) {
                let inside = XMLTree.insideMarkup.contains(code) ? (code == 45 || code == 80 ? " inside a comment" : " inside a tag") : ""
                guard let open = stack.last else { return "the document ends\(inside) before its root element is complete" }
                return "the document ends\(inside) before \(element(open)) is closed"
            }
            if code == 76, let open = stack.last { return "a closing tag that does not match \(element(open))" }
            return XMLTree.describe(code: code) ?? "libxml2 error \(code)"
        }

        /// `<state id="playing"> (line 12)`: an element as a reader finds it in the file.
        func element(_ node: XMLNode) -> String {
            let id = node["id"].map { " id=\"\($0)\"" } ?? ""
            return "<\(node.name)\(id)> (line \(file.location(of: node.offset).line))"
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            stack.last?.text += String(decoding: CDATABlock, as: UTF8.self)
        }
    }
}
