import StatecraftDiagnostics

// What the importer checks in a document's bytes before Foundation's XML parser sees them.
// On Linux that parser is libxml2 under a Swift layer that crashes the process on a few
// inputs libxml2 itself accepts or reports; a hostile or damaged document must get an error
// (or be read as SCXML means it), never a crash:
// - bytes that are not UTF-8, or control characters (Foundation traps on some of them);
// - processing instructions: Foundation reads the target and data libxml2 hands it as C
//   strings, and libxml2 hands it a null pointer for the data of `<?name?>`, and for others
//   where it recovers from a damaged tag (fuzz-scxml found both). SCXML gives processing
//   instructions no meaning, so every `<?…?>` is blanked before the parser sees it, keeping
//   every offset and line break. The scan does not try to tell markup from text, because
//   in a damaged document libxml2 recovers in ways no scan predicts: `<?` is blanked even
//   in a comment (which changes nothing) or in CDATA (which SCXML's ECMAScript data model
//   does not read). The XML declaration at the very start is the parser's own and stays;
//   one anywhere else is refused, as XML requires;
// - a document type declaration: SCXML documents have none, and the entities one declares
//   would expand into markup (a processing instruction among it) that no scan of the bytes
//   sees, so `<!DOCTYPE` is refused wherever it stands.

enum XMLPrescan {
    /// The bytes to hand the parser: `bytes` with processing instructions blanked.
    static func prepare(_ bytes: [UInt8]) throws(ImportFailure) -> [UInt8] {
        try checkEncoding(bytes)
        var out = bytes
        let n = bytes.count
        func starts(_ text: [UInt8], at k: Int) -> Bool {
            k + text.count <= n && bytes[k..<(k + text.count)].elementsEqual(text)
        }
        let doctype = Array("<!DOCTYPE".utf8), instructionEnd = Array("?>".utf8)
        let declarationStart = starts([0xEF, 0xBB, 0xBF], at: 0) ? 3 : 0
        var i = 0
        while i + 1 < n {
            guard bytes[i] == UInt8(ascii: "<") else {
                i += 1
                continue
            }
            if starts(doctype, at: i) {
                throw ImportFailure(.scxmlUnsupported, "a document type declaration (<!DOCTYPE>) is not supported: "
                                    + "SCXML documents have none", at: i, length: 9)
            }
            guard bytes[i + 1] == UInt8(ascii: "?") else {
                i += 1
                continue
            }
            // The target runs to the first space or `?>`; the instruction to the first `?>`.
            var j = i + 2
            while j < n && !isSpace(bytes[j]) && !starts(instructionEnd, at: j) { j += 1 }
            var close = j
            while close < n && !starts(instructionEnd, at: close) { close += 1 }
            guard close < n else {
                throw ImportFailure(.scxmlMalformed, "not a well-formed XML document: a processing instruction without "
                                    + "its closing '?>'", at: i, length: 2)
            }
            if bytes[(i + 2)..<j].elementsEqual("xml".utf8) {
                guard i == declarationStart else {
                    throw ImportFailure(.scxmlMalformed, "not a well-formed XML document: the XML declaration "
                                        + "(<?xml …?>) may only open the document", at: i, length: 5)
                }
                guard j < close else {
                    throw ImportFailure(.scxmlMalformed, "not a well-formed XML document: the XML declaration "
                                        + "has no version", at: i, length: 5)
                }
                // libxml2 recovers from a damaged declaration and reads on inside it, where
                // an instruction would reach Foundation; so the declaration must be exactly
                // `version`, then `encoding` and `standalone` if given, each a quoted value.
                if let bad = damagedDeclaration(bytes, from: j, to: close) {
                    throw ImportFailure(.scxmlMalformed, "not a well-formed XML document: a damaged XML declaration "
                                        + "(version=\"1.0\", then encoding=\"…\" and standalone=\"…\" if given)",
                                        at: bad, length: 1)
                }
            } else {
                for k in i..<(close + 2) where bytes[k] != UInt8(ascii: "\n") && bytes[k] != UInt8(ascii: "\r") {
                    out[k] = UInt8(ascii: " ")
                }
            }
            i = close + 2
        }
        return out
    }

    /// The offset of the first byte in `bytes[from..<to]` (an XML declaration's attributes)
    /// that does not fit `version="…"` then, optionally, `encoding="…"` and `standalone="…"`
    /// (single or double quotes, no `<` in a value); nil when all of it fits.
    private static func damagedDeclaration(_ bytes: [UInt8], from: Int, to: Int) -> Int? {
        var names = ["version", "encoding", "standalone"][...]
        var k = from
        while true {
            let spaceStart = k
            while k < to && isSpace(bytes[k]) { k += 1 }
            if k == to { return names.first == "version" ? to : nil }
            if k == spaceStart { return k }
            let nameStart = k
            while k < to && bytes[k] >= UInt8(ascii: "a") && bytes[k] <= UInt8(ascii: "z") { k += 1 }
            let name = String(decoding: bytes[nameStart..<k], as: UTF8.self)
            // `version` comes first; the others may be left out, but keep their order.
            guard let index = names.firstIndex(of: name), names.first != "version" || name == "version" else {
                return nameStart
            }
            names = names[(index + 1)...]
            while k < to && isSpace(bytes[k]) { k += 1 }
            guard k < to, bytes[k] == UInt8(ascii: "=") else { return k }
            k += 1
            while k < to && isSpace(bytes[k]) { k += 1 }
            guard k < to, bytes[k] == UInt8(ascii: "\"") || bytes[k] == UInt8(ascii: "'") else { return k }
            let quote = bytes[k]
            k += 1
            while k < to && bytes[k] != quote {
                if bytes[k] == UInt8(ascii: "<") { return k }
                k += 1
            }
            guard k < to else { return k }
            k += 1
        }
    }

    private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    /// The document must be UTF-8 without control characters other than tab, line feed and
    /// carriage return (which XML does not allow anyway).
    private static func checkEncoding(_ bytes: [UInt8]) throws(ImportFailure) {
        var i = 0
        while i < bytes.count {
            if bytes[i] < 0x80 {
                if bytes[i] < 0x20 && bytes[i] != 0x09 && bytes[i] != 0x0A && bytes[i] != 0x0D {
                    throw ImportFailure(.scxmlMalformed, "not a well-formed XML document: the control character 0x\(hex(bytes[i]))",
                                        at: i, length: 1)
                }
                i += 1
                continue
            }
            let length = UTF8Scanner.sequenceLength(bytes, at: i, limit: bytes.count)
            if length == 1 {
                throw ImportFailure(.scxmlMalformed, "the document is not UTF-8: byte 0x\(hex(bytes[i]))", at: i, length: 1)
            }
            i += length
        }
    }

    private static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(b >> 4)], digits[Int(b & 15)]])
    }
}
