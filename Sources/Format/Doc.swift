/// A layout document: what to print and where a line may break, decided later by
/// `DocPrinter` against the line width (Wadler's "prettier printer", as in Prettier).
///
/// A group is printed flat (every `line` a space) when it fits on the rest of the line,
/// else broken (every `line` of its own a line break). A group that holds a hard break (a
/// line comment, a comment on its own line, a blank line) is always broken.
indirect enum Doc {
    /// Text without line breaks.
    case text(String)
    /// Text that spans lines (a block comment over several lines), printed exactly as written.
    case verbatim(String)
    /// One space, unless at the start of a line or after another space.
    case space
    /// A space when the enclosing group is flat, a line break when it is broken.
    case line
    /// Nothing when the enclosing group is flat, a line break when it is broken.
    case softline
    /// Always a line break; two breaks in a row make one.
    case hardline
    /// An empty line (at most one in a row).
    case blankLine
    /// Text printed only when the enclosing group is flat (`;` between actions on one line).
    case flatOnly(String)
    /// A comment that ends its line; it takes no width when measuring and is aligned with
    /// its neighbours' when printed.
    case trailingComment(String)
    /// A block comment within a line; aligned like a trailing comment if it ends up last on
    /// its line (so that formatting again, which sees it there, changes nothing).
    case inlineComment(String)
    /// Contents printed flat if they fit, else broken; `id` names it for `indentIfBroken`.
    case group(id: Int, [Doc], hard: Bool)
    /// Contents whose line breaks are indented one more level.
    case indent([Doc], hard: Bool)
    /// Contents indented one more level when group `id` was broken.
    case indentIfBroken(id: Int, [Doc], hard: Bool)
    /// Contents as they are.
    case concat([Doc], hard: Bool)
    /// Parts and the `line`s between them (part, line, part, …), filled like a paragraph:
    /// each line breaks only where the next part does not fit on the line.
    case fill([Doc], hard: Bool)

    /// Whether the document holds a line break no layout can avoid.
    var isHard: Bool {
        switch self {
        case .hardline, .blankLine, .verbatim: true
        case .group(_, _, let hard), .indent(_, let hard), .indentIfBroken(_, _, let hard), .concat(_, let hard),
             .fill(_, let hard): hard
        case .text, .space, .line, .softline, .flatOnly, .trailingComment, .inlineComment: false
        }
    }
}
