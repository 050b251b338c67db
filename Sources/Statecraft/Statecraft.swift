@_exported import StatecraftAnalysis
@_exported import StatecraftCodegen
@_exported import StatecraftDiagnostics
@_exported import StatecraftEventLog
@_exported import StatecraftExport
@_exported import StatecraftFormat
@_exported import StatecraftIndex
@_exported import StatecraftModel
@_exported import StatecraftRecording
@_exported import StatecraftReplay
@_exported import StatecraftReport
@_exported import StatecraftRuntime
@_exported import StatecraftSCXML
@_exported import StatecraftSemantics
@_exported import StatecraftSyntax

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
        let file = file.withoutByteOrderMark
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
