import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import StatecraftDiagnostics
import Testing

/// What the writer escapes reads back, through a real XML parser, as the original text.
@Suite struct XMLEscapingTests {
    final class Collector: NSObject, XMLParserDelegate {
        var attributes: [String: String] = [:]
        var text = ""
        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            attributes.merge(attributeDict) { a, _ in a }
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
    }

    @Test(arguments: ["plain", "a < b && c > \"d\"", "tab\there\nnew line\r", "emoji 😀 and é", "]]> &amp;"])
    func escapedTextReadsBackUnchanged(value: String) throws {
        let document = "<e a=\"\(XMLEscaping.attribute(value))\">\(XMLEscaping.text(value))</e>"
        let collector = Collector()
        let parser = XMLParser(data: Data(document.utf8))
        parser.delegate = collector
        #expect(parser.parse(), "\(document)")
        #expect(collector.attributes["a"] == value)
        // Element text keeps tab and line feed as they are; a carriage return is a reference.
        #expect(collector.text == value)
    }

    @Test func controlCharactersCannotBreakTheDocument() throws {
        let document = "<e a=\"\(XMLEscaping.attribute("x\u{1}y"))\">\(XMLEscaping.text("\u{0}"))</e>"
        let parser = XMLParser(data: Data(document.utf8))
        #expect(parser.parse(), "\(document)")
    }
}
