import StatecraftDiagnostics
import StatecraftSyntax

/// Why a rename was refused, for the person who asked for it.
public struct RenameRefusal: Error, Equatable, Sendable {
    /// Lowercase, no final period: "cannot rename 'idle' to 'open': a state named 'open' already exists".
    public var message: String
}

extension SymbolIndex {
    /// The ranges to replace with `newName` to rename the symbol at `offset`, or why not.
    ///
    /// Refused when nothing renamable is there, when `newName` is not an identifier (or is a
    /// word the language gives a meaning to), when it collides with a name already declared
    /// where the symbol is visible, and, as a last check, when the renamed text would not
    /// index to the same links between names (a new name that another name would hide).
    public func rename(at offset: Int, to newName: String) -> Result<[SourceRange], RenameRefusal> {
        guard let occurrence = occurrence(at: offset) else {
            return .failure(RenameRefusal(message: "there is no declared name here to rename"))
        }
        let symbol = occurrence.symbol
        let old = symbol.name
        func refuse(_ why: String) -> Result<[SourceRange], RenameRefusal> {
            .failure(RenameRefusal(message: "cannot rename '\(old)' to '\(newName)': \(why)"))
        }
        if newName == old { return .success([]) }
        if let problem = Self.identifierProblem(newName) { return refuse(problem) }
        if let clash = collision(for: symbol, newName) { return refuse(clash) }
        let ranges = references(of: symbol)
        guard renamingKeepsLinks(ranges, newName) else {
            return refuse("another name would hide it or be hidden by it")
        }
        return .success(ranges)
    }

    /// Words that are identifiers to the lexer but mean something where they stand.
    static let reservedWords: Set<String> = ["pi", "in", "done", "always", "raise", "send", "cancel", "history", "deep",
                                             "internal", "Number", "Bool", "String"]

    /// Why `name` cannot be a declared name, if it cannot.
    static func identifierProblem(_ name: String) -> String? {
        let file = SourceFile(path: "<name>", text: name)
        let (tokens, diagnostics) = Lexer.tokenize(file)
        guard !diagnostics.hasErrors, tokens.count == 2, tokens[0].kind == .identifier,
              tokens[0].range == SourceRange(0, file.bytes.count) else {
            if tokens.count == 2, tokens[0].kind.spelling == "'\(name)'" {
                return "'\(name)' is a keyword"
            }
            return "'\(name)' is not a name (letters, digits and '_', not starting with a digit)"
        }
        if reservedWords.contains(name) { return "'\(name)' has a meaning of its own in specs" }
        return nil
    }

    /// Why `newName` would collide with a declared name, if it would.
    private func collision(for symbol: Symbol, _ newName: String) -> String? {
        func declared(_ kinds: [Symbol.Kind], owner: String? = nil) -> Declaration? {
            declarations.first { kinds.contains($0.symbol.kind) && $0.symbol.name == newName
                && (owner == nil || $0.symbol.owner == owner) }
        }
        func clash(_ d: Declaration) -> String {
            let at = file.location(of: d.nameRange.start)
            return "\(article(d.symbol.kind)) \(d.symbol.kind.rawValue) named '\(newName)' is already declared at line \(at.line)"
        }
        let others: Declaration? = switch symbol.kind {
        case .state: declared([.state])
        case .event: declared([.event])
        case .output: declared([.output])
        // Payload fields and `let` values may not take a variable's or constant's name, so
        // they all share one namespace (conservatively: a `let` anywhere counts).
        case .variable, .constant: declared([.variable, .constant, .eventField, .completionField, .local])
        case .eventField:
            linkedSymbols(symbol).lazy.compactMap { declared([.eventField], owner: $0.owner) }.first
                ?? declared([.variable, .constant, .local])
        case .outputField: declared([.outputField], owner: symbol.owner)
        case .completionField: declared([.completionField], owner: symbol.owner) ?? declared([.variable, .constant, .local])
        case .local: declared([.variable, .constant, .local, .eventField, .completionField])
        case .property: declared([.property])
        }
        return others.map(clash)
    }

    private func article(_ kind: Symbol.Kind) -> String {
        switch kind {
        case .event, .eventField, .output, .outputField: "an"
        default: "a"
        }
    }

    /// Whether the text with `ranges` replaced by `newName` links the same places together
    /// as this one does (every symbol keeps exactly its occurrences).
    private func renamingKeepsLinks(_ ranges: [SourceRange], _ newName: String) -> Bool {
        let sorted = ranges.sorted { $0.start < $1.start }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(file.bytes.count)
        var cursor = 0
        for r in sorted where r.start >= cursor && r.end <= file.bytes.count {
            bytes += file.bytes[cursor..<r.start]
            bytes += Array(newName.utf8)
            cursor = r.end
        }
        bytes += file.bytes[cursor...]
        let renamed = SymbolIndex(SourceFile(path: file.path, bytes: bytes))
        // Where an old offset lands in the new text.
        let delta = newName.utf8.count
        func moved(_ offset: Int) -> Int {
            var shift = 0
            for r in sorted where r.end <= offset { shift += delta - (r.end - r.start) }
            return offset + shift
        }
        func groups(_ index: SymbolIndex, _ map: (Int) -> Int) -> Set<[Int]> {
            var bySymbol: [Symbol: [Int]] = [:]
            for o in index.occurrences { bySymbol[o.symbol, default: []].append(map(o.range.start)) }
            return Set(bySymbol.values.map { $0.sorted() })
        }
        return groups(self, moved) == groups(renamed, { $0 })
    }
}
