import StatecraftDiagnostics

// What the importer checks in a document's bytes before Foundation's XML parser sees them.
// On Linux that parser is libxml2 under a Swift layer that crashes the process on a few
// inputs libxml2 itself accepts or reports; a hostile or damaged document must get an error
// (or be read as SCXML means it), never a crash:
// - bytes that are not UTF-8, or control characters (Foundation traps on some of them);
// - processing instructions: Foundation reads the target and data libxml2 hands it as C
//   strings, and libxml2 hands it a null pointer for the data of `<?name?>` and, in states
//   left over from earlier documents, of others (fuzz-scxml crashed on a `<?xml …?>` in the
//   middle of a document and never on the same bytes alone). SCXML gives processing
//   instructions no meaning, so every one is blanked out before the parser sees it, keeping
//   every offset and line break; the XML declaration at the very start is the parser's own
//   and stays, and one anywhere else is refused, as XML requires;
// - a document type declaration: SCXML documents have none, and the entities one declares
//   would expand into markup (a processing instruction among it) that no scan of the bytes
//   sees, so it is refused where it stands.

enum XMLPrescan {
    /// The bytes to hand the parser: `bytes` with processing instructions blanked.
    static func prepare(_ bytes: [UInt8]) throws(ImportFailure) -> [UInt8] {
        try checkEncoding(bytes)
        var out = bytes
        var i = 0
        let n = bytes.count
        func starts(_ text: [UInt8], at k: Int) -> Bool {
            k + text.count <= n && bytes[k..<(k + text.count)].elementsEqual(text)
        }
        /// The offset just past the first `end` at or after `k`, or the end of the document.
        func skip(past end: [UInt8], from k: Int) -> Int {
            var j = k
            while j < n && !starts(end, at: j) { j += 1 }
            return min(n, j + end.count)
        }
        let commentStart = Array("<!--".utf8), commentEnd = Array("-->".utf8)
        let cdataStart = Array("<![CDATA[".utf8), cdataEnd = Array("]]>".utf8)
        let doctype = Array("<!DOCTYPE".utf8), instructionEnd = Array("?>".utf8)
        while i < n {
            guard bytes[i] == UInt8(ascii: "<"), i + 1 < n else {
                i += 1
                continue
            }
            if starts(commentStart, at: i) {
                i = skip(past: commentEnd, from: i + 4)
            } else if starts(cdataStart, at: i) {
                i = skip(past: cdataEnd, from: i + 9)
            } else if starts(doctype, at: i) {
                throw ImportFailure(.scxmlUnsupported, "a document type declaration (<!DOCTYPE>) is not supported: "
                                    + "SCXML documents have none", at: i, length: 9)
            } else if bytes[i + 1] == UInt8(ascii: "?") {
                // The target runs to the first space or `?>`.
                var j = i + 2
                while j < n && !isSpace(bytes[j]) && !starts(instructionEnd, at: j) { j += 1 }
                let isDeclaration = bytes[(i + 2)..<j].elementsEqual("xml".utf8)
                let end = skip(past: instructionEnd, from: j)
                guard starts(instructionEnd, at: end - 2), end - 2 >= j else {
                    throw ImportFailure(.scxmlMalformed, "not a well-formed XML document: a processing instruction without "
                                        + "its closing '?>'", at: i, length: 2)
                }
                if isDeclaration {
                    // After a byte order mark, or nothing.
                    guard i == 0 || (i == 3 && bytes[0..<3].elementsEqual([0xEF, 0xBB, 0xBF])) else {
                        throw ImportFailure(.scxmlMalformed, "not a well-formed XML document: the XML declaration "
                                            + "(<?xml …?>) may only open the document", at: i, length: 5)
                    }
                    guard j < end - 2 else {
                        throw ImportFailure(.scxmlMalformed, "not a well-formed XML document: the XML declaration "
                                            + "has no version", at: i, length: 5)
                    }
                } else {
                    for k in i..<end where bytes[k] != UInt8(ascii: "\n") && bytes[k] != UInt8(ascii: "\r") {
                        out[k] = UInt8(ascii: " ")
                    }
                }
                i = end
            } else {
                i = skipTag(bytes, from: i + 1)
            }
        }
        return out
    }

    /// The offset just past the `>` of the tag whose `<` is before `k`; quoted attribute
    /// values may hold `>` and `<?`.
    private static func skipTag(_ bytes: [UInt8], from k: Int) -> Int {
        var j = k
        var quote: UInt8?
        while j < bytes.count {
            let b = bytes[j]
            if let q = quote {
                if b == q { quote = nil }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: ">") {
                return j + 1
            } else if b == UInt8(ascii: "<") {
                // Not well-formed; the parser reports it. Scanning goes on from here.
                return j
            }
            j += 1
        }
        return j
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
