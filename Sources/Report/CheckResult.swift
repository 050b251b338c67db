import StatecraftAnalysis
import StatecraftDiagnostics
import StatecraftIndex
import StatecraftModel

/// What checking one spec found: the machine (when the file parsed) and every diagnostic,
/// sorted by position.
public struct CheckResult: Sendable {
    /// The file that was checked.
    public var file: SourceFile
    /// The resolved machine; nil when the file does not parse or its names and types do not
    /// resolve. Findings of the analyses (an unreachable state, say) do not take it away:
    /// the machine is whole, just questionable, and can still be drawn.
    public var machine: Machine?
    /// Errors, warnings and notes, in source order.
    public var diagnostics: [Diagnostic]
    /// The guard-aware analysis: a witness or a proof (or neither) for every state and
    /// transition; nil when the spec did not resolve.
    public var exploration: ExplorationReport?
    /// Every declared name and its uses, from what parsed: present even when the file has
    /// syntax errors, so an editor can still go to a definition while the user types.
    public var symbols: SymbolIndex

    /// Creates a result (`Statecraft.check` makes them).
    public init(file: SourceFile, machine: Machine?, diagnostics: [Diagnostic], exploration: ExplorationReport?,
                symbols: SymbolIndex) {
        self.file = file
        self.machine = machine
        self.diagnostics = diagnostics
        self.exploration = exploration
        self.symbols = symbols
    }

    /// How many diagnostics are errors.
    public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
    /// How many diagnostics are warnings.
    public var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }
}
