import StatecraftDiagnostics
import StatecraftSyntax

/// Every name a spec declares and every place it is used, with byte ranges: what an editor
/// needs for go to definition, find references and rename.
///
/// Built from the syntax tree alone, so it answers for a file that does not parse as far as
/// the parser got (the parts it kept), and for a file whose names do not all resolve.
public struct SymbolIndex: Sendable {
    /// The indexed file.
    public let file: SourceFile
    /// Declarations and uses, sorted by position. A payload field used in a transition on
    /// several events is one use of each event's field, so a range can appear more than once.
    public let occurrences: [Occurrence]
    /// Every declaration in source order (duplicates included: they were reported).
    public let declarations: [Declaration]
    /// Every transition in source order.
    public let transitions: [TransitionSummary]

    /// Indexes a parsed file; `machine` is the parser's tree, whole or partial.
    package init(_ machine: MachineDecl?, in file: SourceFile) {
        var builder = IndexBuilder(file: file)
        if let machine { builder.build(machine) }
        self.file = file
        occurrences = builder.occurrences.sorted { ($0.range.start, $0.isDeclaration ? 0 : 1) < ($1.range.start, $1.isDeclaration ? 0 : 1) }
        declarations = builder.declarations
        transitions = builder.transitions
    }

    /// Parses and indexes a file.
    public init(_ file: SourceFile) {
        self.init(Parser.parse(file).machine, in: file)
    }

    /// The occurrence whose name covers `offset`; a caret just after a name counts as on it,
    /// as editors place it after typing.
    public func occurrence(at offset: Int) -> Occurrence? {
        var low = 0
        var high = occurrences.count
        while low < high {
            let mid = (low + high) / 2
            if occurrences[mid].range.end < offset { low = mid + 1 } else { high = mid }
        }
        var best: Occurrence?
        var i = low
        while i < occurrences.count, occurrences[i].range.start <= offset {
            let o = occurrences[i]
            if o.range.start <= offset, offset <= o.range.end {
                // Inside a name beats touching the end of the name before it (`a+b` with the caret before `b`).
                if best == nil || offset < o.range.end { best = o }
            }
            i += 1
        }
        return best
    }

    /// The symbol named at `offset`, if any.
    public func symbol(at offset: Int) -> Symbol? { occurrence(at: offset)?.symbol }

    /// Where the symbol named at `offset` is declared (more than one place for a duplicate, or
    /// for a payload field shared by the events of one trigger).
    public func definition(at offset: Int) -> [Declaration] {
        guard let occurrence = occurrence(at: offset) else { return [] }
        let symbols = linkedSymbols(occurrence.symbol)
        return declarations.filter { symbols.contains($0.symbol) }
    }

    /// The declaration of `symbol` (the first, if it was declared twice).
    public func declaration(of symbol: Symbol) -> Declaration? {
        declarations.first { $0.symbol == symbol }
    }

    /// Every place `symbol` is written, declarations first when asked for, each range once.
    public func references(of symbol: Symbol, includingDeclarations: Bool = true) -> [SourceRange] {
        let symbols = linkedSymbols(symbol)
        var seen = Set<SourceRange>()
        return occurrences.filter { symbols.contains($0.symbol) && (includingDeclarations || !$0.isDeclaration) }
            .map(\.range).filter { seen.insert($0).inserted }
    }

    /// The symbols that must change together with `symbol`: a field read in a transition on
    /// `a, b` is the field of both events, so renaming one renames the other.
    public func linkedSymbols(_ symbol: Symbol) -> Set<Symbol> {
        guard symbol.kind == .eventField else { return [symbol] }
        var linked: Set<Symbol> = [symbol]
        var changed = true
        while changed {
            changed = false
            let ranges = Set(occurrences.filter { linked.contains($0.symbol) }.map(\.range))
            for o in occurrences where o.symbol.kind == .eventField && ranges.contains(o.range) && !linked.contains(o.symbol) {
                linked.insert(o.symbol)
                changed = true
            }
        }
        return linked
    }

    /// Declared names of `kind`, each once, in source order (for completion).
    public func names(of kind: Symbol.Kind) -> [Declaration] {
        var seen = Set<String>()
        return declarations.filter { $0.symbol.kind == kind && seen.insert($0.symbol.name).inserted }
    }

    /// The transitions written in state `name`.
    public func outgoing(from name: String) -> [TransitionSummary] { transitions.filter { $0.source == name } }

    /// The transitions whose target is state `name`.
    public func incoming(to name: String) -> [TransitionSummary] { transitions.filter { $0.target == name } }

    /// The transition whose trigger keyword covers `offset`.
    public func transition(at offset: Int) -> TransitionSummary? {
        transitions.first { $0.keywordRange.start <= offset && offset <= $0.keywordRange.end }
    }
}
