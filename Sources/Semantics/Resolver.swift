import StatecraftDiagnostics
import StatecraftModel
import StatecraftSyntax

/// The result of resolving a syntax tree: the model (when there was a machine at all)
/// and the semantic errors found on the way.
package struct Resolution: Sendable {
    /// The resolved machine. Parts that failed to resolve are marked (`Expr.Kind.invalid`,
    /// `Transition.isBroken`) so analyses can still run on the rest.
    package var machine: Machine?
    /// Name, type and structure errors.
    package var diagnostics: DiagnosticBag
}

/// Turns a syntax tree into a `Machine`: declares every name, resolves references to ids,
/// type-checks expressions and actions, and checks the state structure.
package struct Resolver {
    /// Resolves a parsed file.
    package static func resolve(_ decl: MachineDecl?, in file: SourceFile) -> Resolution {
        guard let decl else { return Resolution(machine: nil, diagnostics: DiagnosticBag()) }
        var resolver = Resolver(decl: decl, file: file)
        resolver.run()
        return Resolution(machine: resolver.machine, diagnostics: resolver.diagnostics)
    }

    let decl: MachineDecl
    let file: SourceFile
    var machine: Machine
    var diagnostics = DiagnosticBag()

    /// What a value name refers to.
    enum ValueSymbol {
        case constant(ConstantID)
        case variable(VariableID)
        case pi
    }

    var values: [String: ValueSymbol] = ["pi": .pi]
    var stateIDs: [String: StateID] = [:]
    /// `initial -> …` written at the top level of the machine.
    var rootInitialTargets: [InitialTargetsDecl] = []
    var eventIDs: [String: EventID] = [:]
    var outputIDs: [String: OutputID] = [:]
    /// Syntax of each declared state, by `StateID.index` (the root has none).
    var stateDecls: [StateDecl?] = [nil]
    var constantDecls: [ConstDecl] = []
    var variableDecls: [VarDecl] = []
    /// Every `property`, in the order written (resolved last, once every state is known).
    var propertyDecls: [PropertyDecl] = []
    /// Variables whose declared type did not resolve (their values are not type-checked).
    var untypedVariables: Set<Int> = []
    /// Fields whose declared type is unknown (`event tap(x: Int)`), by owner: an error was
    /// reported at the type; uses of the field stay silent rather than guess a type.
    var untypedEventFields: Set<UntypedField> = []
    var untypedOutputFields: Set<UntypedField> = []

    init(decl: MachineDecl, file: SourceFile) {
        self.decl = decl
        self.file = file
        let name = decl.name ?? Identifier("<unnamed>", .point(decl.range.start))
        self.machine = Machine(name: name.name, source: file, nameRange: name.range)
    }

    mutating func run() {
        declareMembers()
        checkFieldShadowing()
        resolveConstants()
        resolveVariables()
        checkStateTree()
        resolveDoneData()
        for index in 1..<max(1, machine.states.count) {
            resolveStateBody(StateID(index))
        }
        checkEventlessCycles()
        resolveProperties()
    }

    mutating func report(_ id: DiagnosticID, _ message: String, at range: SourceRange,
                         notes: [DiagnosticNote] = []) {
        diagnostics.add(Diagnostic(id, message, at: range, notes: notes))
    }

    /// A "did you mean" note when a declared name is close to `name`.
    func suggestion<S: Sequence>(for name: String, among candidates: S, at range: SourceRange) -> [DiagnosticNote]
    where S.Element == String {
        guard let best = EditDistance.closest(to: name, among: candidates) else { return [] }
        return [DiagnosticNote("did you mean '\(best)'?", at: range)]
    }
}

/// A field of an event or output (by the owner's index) whose type did not resolve.
struct UntypedField: Hashable {
    var owner: Int
    var name: String
}
