import Statecraft

/// An open document: the client's text (not the file on disk, which may be older, newer or
/// gone) and what the checker made of it, kept until the text changes.
struct Document {
    let uri: String
    private(set) var version: Int
    private(set) var text: [UInt8]
    private(set) var lines: LineTable
    /// The checker's result for the current text, computed on first need.
    private var cached: CheckResult?

    init(uri: String, version: Int, text: [UInt8]) {
        self.uri = uri
        self.version = version
        self.text = text
        lines = LineTable(text)
    }

    /// The checker works on the text after a byte order mark; its offsets are this much
    /// smaller than the document's.
    var markLength: Int { text.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0 }

    /// Applies `textDocument/didChange` content changes in order: a change with a range
    /// replaces that range (incremental sync), one without replaces the whole text.
    mutating func apply(_ changes: [JSONValue], version: Int) throws(RequestError) {
        for change in changes {
            guard let newText = change["text"]?.stringValue else { throw .invalidParams("contentChanges[].text") }
            if let range = change["range"] {
                let start = lines.offset(of: try LSP.position(range["start"]))
                let end = max(start, lines.offset(of: try LSP.position(range["end"])))
                text.replaceSubrange(start..<end, with: Array(newText.utf8))
            } else {
                text = Array(newText.utf8)
            }
            lines = LineTable(text)
        }
        self.version = version
        cached = nil
    }

    /// The checker's result (diagnostics, machine, exploration, symbols) for the current text.
    mutating func analysis(bounds: ExplorationBounds) -> CheckResult {
        if let cached { return cached }
        let result = Statecraft.check(SourceFile(path: Document.path(of: uri), bytes: text), bounds: bounds)
        cached = result
        return result
    }

    /// The checker's offset for a protocol position.
    func offset(of position: Position) -> Int {
        max(0, lines.offset(of: position) - markLength)
    }

    /// The protocol range of one of the checker's byte ranges.
    func range(_ range: SourceRange) -> JSON {
        LSP.range((lines.position(of: range.start + markLength), lines.position(of: range.end + markLength)))
    }

    /// A `file:` URI's path, for the names in messages; other URIs stay as they are.
    static func path(of uri: String) -> String {
        guard uri.hasPrefix("file://") else { return uri }
        var bytes: [UInt8] = []
        let raw = Array(uri.utf8.dropFirst(7))
        var i = 0
        while i < raw.count {
            if raw[i] == UInt8(ascii: "%"), i + 2 < raw.count, let byte = UInt8(String(decoding: raw[i + 1...i + 2], as: UTF8.self), radix: 16) {
                bytes.append(byte)
                i += 3
            } else {
                bytes.append(raw[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
