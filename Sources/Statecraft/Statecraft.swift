@_exported import StatecraftAnalysis
@_exported import StatecraftDiagnostics
@_exported import StatecraftEventLog
@_exported import StatecraftExport
@_exported import StatecraftFormat
@_exported import StatecraftIndex
@_exported import StatecraftModel
@_exported import StatecraftRuntime
@_exported import StatecraftSCXML
@_exported import StatecraftSemantics
@_exported import StatecraftSyntax

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

    /// How many diagnostics are errors.
    public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
    /// How many diagnostics are warnings.
    public var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }
}

/// The front door of the library: the whole pipeline, source text to checked machine.
public enum Statecraft {
    /// Parses, resolves and checks one spec.
    ///
    /// Semantic checks run only when the file parsed cleanly, so a syntax error is not
    /// followed by a cascade of follow-on errors; the names of the parts that parsed are
    /// still indexed (`symbols`). When names or types failed to resolve,
    /// only the analyses that report errors run (they skip what is broken); the warnings
    /// come once the errors are fixed.
    ///
    /// `bounds` limits the guard-aware search; nil skips it (commands that only need the
    /// machine, such as replay, do not pay for it).
    public static func check(_ file: SourceFile, errorLimit: Int = 50,
                             bounds: ExplorationBounds? = ExplorationBounds()) -> CheckResult {
        // A UTF-8 byte order mark (editors on Windows write one) is not part of the text:
        // without it, columns on the first line count as the editor shows them.
        let file = file.bytes.starts(with: [0xEF, 0xBB, 0xBF])
            ? SourceFile(path: file.path, bytes: Array(file.bytes.dropFirst(3)), firstLine: file.firstLine) : file
        var bag = DiagnosticBag(limit: errorLimit)
        let (syntax, syntaxDiagnostics) = Parser.parse(file)
        bag.merge(syntaxDiagnostics)
        var machine: Machine?
        var exploration: ExplorationReport?
        if !syntaxDiagnostics.hasErrors {
            let resolution = Resolver.resolve(syntax, in: file)
            bag.merge(resolution.diagnostics)
            machine = resolution.diagnostics.hasErrors ? nil : resolution.machine
            if let machine = resolution.machine {
                let errorsOnly = resolution.diagnostics.hasErrors
                if !errorsOnly, let bounds { exploration = Exploration.run(machine, bounds: bounds) }
                for finding in Checker.check(machine, errorsOnly: errorsOnly, exploration: exploration) { bag.add(finding) }
            }
        }
        var diagnostics = bag.sorted
        if let dropped = bag.firstDropped {
            diagnostics.append(Diagnostic(.tooManyErrors, "too many errors; stopped after \(bag.limit)",
                                          at: .point(dropped.start)))
        }
        return CheckResult(file: file, machine: machine, diagnostics: diagnostics, exploration: exploration,
                           symbols: SymbolIndex(syntax, in: file))
    }

    /// Checks spec source text (tests and embedding apps).
    public static func check(source: String, path: String = "<input>",
                             bounds: ExplorationBounds? = ExplorationBounds()) -> CheckResult {
        check(SourceFile(path: path, text: source), bounds: bounds)
    }
}
