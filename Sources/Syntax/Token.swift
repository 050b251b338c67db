import StatecraftDiagnostics

/// What kind of token: keywords and punctuation are their own kinds so the parser
/// compares integers, never strings.
package enum TokenKind: UInt8, Sendable {
    /// A name: a state, event, variable, field, function or type.
    case identifier
    /// A number literal, possibly with a unit (`2s`, `300ms`).
    case number
    /// A whole string literal with no interpolation, quotes included.
    case string
    /// The pieces of a string with interpolations: `"text\(`, then `)text\(` between two
    /// interpolations, then `)text"`; the tokens of each interpolated expression come between.
    case stringHead, stringMiddle, stringTail
    // Keywords.
    /// The `machine` keyword.
    case kwMachine
    /// The `const` keyword.
    case kwConst
    /// The `var` keyword.
    case kwVar
    /// The `public` keyword (before `var`).
    case kwPublic
    /// The `event` keyword.
    case kwEvent
    /// The `output` keyword.
    case kwOutput
    /// The `state` keyword.
    case kwState
    /// The `initial` keyword.
    case kwInitial
    /// The `final` keyword.
    case kwFinal
    /// The `parallel` keyword.
    case kwParallel
    /// The `entry` keyword.
    case kwEntry
    /// The `exit` keyword.
    case kwExit
    /// The `on` keyword.
    case kwOn
    /// The `after` keyword.
    case kwAfter
    /// The `if` keyword.
    case kwIf
    /// The `else` keyword.
    case kwElse
    /// The `emit` keyword.
    case kwEmit
    /// The `let` keyword.
    case kwLet
    /// The `true` keyword.
    case kwTrue
    /// The `false` keyword.
    case kwFalse
    // Punctuation.
    /// The `{` token.
    case lBrace
    /// The `}` token.
    case rBrace
    /// The `(` token.
    case lParen
    /// The `)` token.
    case rParen
    /// The `,` token.
    case comma
    /// The `:` token.
    case colon
    /// The `;` token.
    case semicolon
    /// The `->` token.
    case arrow
    /// The `?` token.
    case question
    /// The `=` token.
    case assign
    /// The `+=` token.
    case plusAssign
    /// The `-=` token.
    case minusAssign
    /// The `*=` token.
    case starAssign
    /// The `/=` token.
    case slashAssign
    /// The `+` token.
    case plus
    /// The `-` token.
    case minus
    /// The `*` token.
    case star
    /// The `/` token.
    case slash
    /// The `%` token.
    case percent
    /// The `!` token.
    case bang
    /// The `==` token.
    case equalEqual
    /// The `!=` token.
    case bangEqual
    /// The `<` token.
    case less
    /// The `<=` token.
    case lessEqual
    /// The `>` token.
    case greater
    /// The `>=` token.
    case greaterEqual
    /// The `&&` token.
    case ampAmp
    /// The `||` token.
    case pipePipe
    /// A run of bytes the lexer already reported as an error.
    case invalid
    /// The empty token after the last byte; the parser stops at it.
    case endOfFile

    /// The keyword kinds by spelling: the language's reserved words (editors' grammars are
    /// checked against this list).
    package static let keywords: [String: TokenKind] = [
        "machine": .kwMachine, "const": .kwConst, "var": .kwVar, "public": .kwPublic, "event": .kwEvent,
        "output": .kwOutput, "state": .kwState, "initial": .kwInitial, "final": .kwFinal,
        "parallel": .kwParallel, "entry": .kwEntry, "exit": .kwExit, "on": .kwOn,
        "after": .kwAfter, "if": .kwIf, "else": .kwElse, "emit": .kwEmit, "let": .kwLet,
        "true": .kwTrue, "false": .kwFalse,
    ]

    /// Whether the token is one of the reserved words (`keywords`), which can never be a
    /// name, not even where a name is all the grammar allows.
    package var isReservedWord: Bool {
        rawValue >= TokenKind.kwMachine.rawValue && rawValue <= TokenKind.kwFalse.rawValue
    }

    /// How the token is named in "expected X, found Y" messages.
    package var spelling: String {
        switch self {
        case .identifier: return "identifier"
        case .number: return "number"
        case .string: return "string"
        case .stringHead, .stringMiddle, .stringTail: return "string"
        case .invalid: return "invalid input"
        case .endOfFile: return "end of file"
        default:
            if let keyword = TokenKind.keywords.first(where: { $0.value == self })?.key {
                return "'\(keyword)'"
            }
            return "'\(punctuation)'"
        }
    }

    private var punctuation: String {
        switch self {
        case .lBrace: "{"
        case .rBrace: "}"
        case .lParen: "("
        case .rParen: ")"
        case .comma: ","
        case .colon: ":"
        case .semicolon: ";"
        case .arrow: "->"
        case .question: "?"
        case .assign: "="
        case .plusAssign: "+="
        case .minusAssign: "-="
        case .starAssign: "*="
        case .slashAssign: "/="
        case .plus: "+"
        case .minus: "-"
        case .star: "*"
        case .slash: "/"
        case .percent: "%"
        case .bang: "!"
        case .equalEqual: "=="
        case .bangEqual: "!="
        case .less: "<"
        case .lessEqual: "<="
        case .greater: ">"
        case .greaterEqual: ">="
        case .ampAmp: "&&"
        case .pipePipe: "||"
        default: "?"
        }
    }
}

/// A token: its kind and the bytes it covers. Text is read from the source when needed.
package struct Token: Equatable, Sendable {
    /// What kind of token it is: a keyword, a punctuation mark, a name, a literal.
    package var kind: TokenKind
    /// The bytes of the token in the source file.
    package var range: SourceRange
    /// Whether a line break (or the start of the file) comes between this token and the
    /// previous one; the parser's error recovery uses it to find the start of a construct.
    package var startsLine: Bool

    /// Creates a token.
    package init(kind: TokenKind, range: SourceRange, startsLine: Bool) {
        self.kind = kind
        self.range = range
        self.startsLine = startsLine
    }
}

/// A comment the lexer skipped: trivia to the parser, but kept by the formatter.
package struct SourceComment: Equatable, Sendable {
    /// `// …` to the end of the line, or `/* … */` (which may nest and span lines).
    package enum Kind: Sendable {
        /// A `//` comment, to the end of its line.
        case line
        /// A `/* … */` comment, which may nest and span lines.
        case block
    }
    /// Whether it is a line comment or a block comment.
    package var kind: Kind
    /// The bytes of the comment: from `//` up to (not including) the line break, or from
    /// `/*` through the closing `*/`.
    package var range: SourceRange

    /// Creates a comment.
    package init(kind: Kind, range: SourceRange) {
        self.kind = kind
        self.range = range
    }
}
