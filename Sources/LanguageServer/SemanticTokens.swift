import Statecraft

/// `textDocument/semanticTokens/full`: every keyword, literal, comment and declared name,
/// classified from the lexer's tokens and the symbol index (so a state is coloured as a
/// state wherever it is written), in the protocol's relative encoding.
enum SemanticTokens {
    /// The legend's token types; a token's type is its index here.
    static let types = ["keyword", "type", "class", "event", "function", "variable", "property", "number", "string", "comment"]
    /// The legend's modifiers; bit n is `modifiers[n]`.
    static let modifiers = ["declaration", "readonly"]

    /// Words the lexer reads as names and the parser gives a meaning where they stand.
    /// A declared name spelt like one (a variable `reachable`) is coloured as the name.
    static let contextualKeywords: Set<String> = ["done", "always", "raise", "send", "cancel", "history", "deep", "in",
                                                  "internal", "private", "property", "never", "while", "within", "only",
                                                  "reachable", "entering"]
    static let typeNames: Set<String> = ["Number", "Bool", "String"]

    private struct Classified {
        var range: SourceRange
        var type: Int
        var modifiers: Int
    }

    /// The encoded tokens: five integers per token, positions relative to the previous one.
    static func encode(_ result: CheckResult, _ document: Document) -> [Int] {
        let file = result.file
        let (tokens, comments, _) = Lexer.tokenizeWithComments(file)
        var classified: [Classified] = []
        for token in tokens {
            guard let (type, modifiers) = classify(token, file, result.symbols) else { continue }
            classified.append(Classified(range: token.range, type: type, modifiers: modifiers))
        }
        for comment in comments {
            classified.append(Classified(range: comment.range, type: 9, modifiers: 0))
        }
        classified.sort { $0.range.start < $1.range.start }
        var data: [Int] = []
        var previous = Position(line: 0, character: 0)
        let shift = document.markLength
        for token in classified {
            // The protocol's tokens stay on one line: a block comment is one token per line.
            for piece in pieces(SourceRange(token.range.start + shift, token.range.end + shift), document.lines) {
                let start = document.lines.position(of: piece.start)
                let end = document.lines.position(of: piece.end)
                guard end.character > start.character else { continue }
                let deltaLine = start.line - previous.line
                data += [deltaLine, deltaLine == 0 ? start.character - previous.character : start.character,
                         end.character - start.character, token.type, token.modifiers]
                previous = start
            }
        }
        return data
    }

    private static func classify(_ token: Token, _ file: SourceFile, _ index: SymbolIndex) -> (Int, Int)? {
        switch token.kind {
        case .number: return (7, 0)
        case .string, .stringHead, .stringMiddle, .stringTail: return (8, 0)
        case .identifier:
            if let o = index.occurrence(at: token.range.start), o.range == token.range {
                let declaration = o.isDeclaration ? 1 : 0
                switch o.symbol.kind {
                case .state: return (2, declaration)
                case .event: return (3, declaration)
                case .output: return (4, declaration)
                case .variable, .local: return (5, declaration)
                case .constant: return (5, declaration | 2)
                case .eventField, .outputField, .completionField: return (6, declaration)
                case .property: return (6, declaration | 2)
                }
            }
            let word = String(decoding: file.bytes[token.range.start..<token.range.end], as: UTF8.self)
            if contextualKeywords.contains(word) { return (0, 0) }
            if typeNames.contains(word) { return (1, 0) }
            return nil
        default:
            return token.kind.isKeyword ? (0, 0) : nil
        }
    }

    /// `range` cut at line breaks.
    private static func pieces(_ range: SourceRange, _ lines: LineTable) -> [SourceRange] {
        var result: [SourceRange] = []
        var start = range.start
        var line = lines.position(of: start).line
        while start < range.end {
            let end = min(range.end, lines.lineEnd(line))
            result.append(SourceRange(start, end))
            line += 1
            guard line < lines.lineStarts.count else { break }
            start = lines.lineStarts[line]
        }
        return result
    }
}

extension LanguageServer {
    mutating func semanticTokens(_ params: JSONValue?) throws(RequestError) -> JSON {
        let (document, result) = try quickAnalysis(params)
        return ["data": .array(SemanticTokens.encode(result, document).map { .integer($0) })]
    }
}
