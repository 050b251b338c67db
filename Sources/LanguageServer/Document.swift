import Statecraft

/// An open document: the client's text (not the file on disk, which may be older, newer or
/// gone) and what the checker made of it, kept until the text changes.
///
/// The checker runs in two stages. The quick one (parse, resolve, every check but the
/// guard-aware search) takes milliseconds and answers names, completion and the first
/// diagnostics of a change; the full one adds the search's findings (reachability with
/// witnesses, overlapping guards), which can take a good part of a second.
struct Document {
    let uri: String
    private(set) var version: Int
    private(set) var text: [UInt8]
    private(set) var lines: LineTable
    /// The quick stage's result for the current text, computed on first need.
    private var quick: CheckResult?
    /// The full result for the current text, computed on first need.
    private var full: CheckResult?
    /// The search's findings of the last full check, moved along with the edits since, so
    /// that the quick stage's diagnostics do not drop them for the moment the search takes.
    private(set) var carried: [Diagnostic] = []

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
                let inserted = Array(newText.utf8)
                let mark = markLength
                text.replaceSubrange(start..<end, with: inserted)
                carried = Document.moved(carried, replacing: (start - mark)..<(end - mark), by: inserted.count)
            } else {
                text = Array(newText.utf8)
                carried = []
            }
            lines = LineTable(text)
        }
        self.version = version
        quick = nil
        full = nil
    }

    /// Whether the full check of the current text has run.
    var isExplored: Bool { full != nil }

    /// The quick stage: diagnostics without the guard-aware search, and the symbols.
    mutating func quickAnalysis() -> CheckResult {
        if let full { return full }
        if let quick { return quick }
        let result = Statecraft.check(SourceFile(path: Document.path(of: uri), bytes: text), bounds: nil)
        quick = result
        // With errors the search does not run, so this is the full result too.
        if result.errorCount > 0 { full = result }
        return result
    }

    /// The full result (diagnostics, machine, exploration, symbols) for the current text.
    mutating func analysis(bounds: ExplorationBounds) -> CheckResult {
        if let full { return full }
        let fast = quickAnalysis()
        if let full { return full }
        let result = Statecraft.check(SourceFile(path: Document.path(of: uri), bytes: text), bounds: bounds)
        full = result
        carried = result.diagnostics.filter { !fast.diagnostics.contains($0) }
        return result
    }

    /// `diagnostics` after `range` was replaced by `length` bytes: those after it move, those
    /// touching it are dropped (the search will say again what still holds).
    static func moved(_ diagnostics: [Diagnostic], replacing range: Range<Int>, by length: Int) -> [Diagnostic] {
        let delta = length - range.count
        func move(_ r: SourceRange) -> SourceRange? {
            if r.end < range.lowerBound { return r }
            if r.start > range.upperBound { return SourceRange(r.start + delta, r.end + delta) }
            return nil
        }
        return diagnostics.compactMap { d in
            guard let range = move(d.range) else { return nil }
            var moved = d
            moved.range = range
            moved.notes = d.notes.compactMap { note in
                guard let r = note.range else { return note }
                return move(r).map { DiagnosticNote(note.message, at: $0) }
            }
            return moved
        }
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
