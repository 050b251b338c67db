import StatecraftDiagnostics

/// A declared name of a spec: what the index links every use of a name to.
///
/// Two symbols are the same when they have the same kind, name and owner. States, events,
/// outputs, variables and constants are machine-wide names; a payload field belongs to its
/// event or output (`owner`); a `let` value belongs to the place it is declared (`owner`
/// holds the byte offset of its declaration), so two `let x` in two transitions are two
/// symbols.
public struct Symbol: Hashable, Sendable {
    /// What kind of name.
    public enum Kind: String, Sendable, CaseIterable {
        /// A state of the machine.
        case state
        /// An event.
        case event
        /// An output.
        case output
        /// A variable.
        case variable
        /// A constant.
        case constant
        /// A payload field of an event.
        case eventField = "event field"
        /// A payload field of an output.
        case outputField = "output field"
        /// A value a final state gives its parent's completion (`final state f(code: 200)`),
        /// read by `done` transitions; its owner is the parent, every final child declares it.
        case completionField = "completion field"
        /// A value declared with `let` in an action block.
        case local = "let value"
        /// A `property`: its name is unique among the machine's properties.
        case property
    }

    /// The kind of name.
    public var kind: Kind
    /// The name as written.
    public var name: String
    /// The event or output a field belongs to (the completing state for a completion
    /// field); the declaration's offset for a `let` value.
    public var owner: String?

    /// Creates a symbol.
    public init(_ kind: Kind, _ name: String, owner: String? = nil) {
        self.kind = kind
        self.name = name
        self.owner = owner
    }
}

/// One place a symbol's name is written: its declaration or a use.
public struct Occurrence: Equatable, Sendable {
    /// The symbol named there.
    public var symbol: Symbol
    /// The name's bytes in the source.
    public var range: SourceRange
    /// Whether this is where the symbol is declared.
    public var isDeclaration: Bool
}

/// What the index knows about a declaration, for hover and outlines.
public struct Declaration: Equatable, Sendable {
    /// The declared symbol.
    public var symbol: Symbol
    /// The name as written at the declaration.
    public var nameRange: SourceRange
    /// The whole declaration (a state through its closing brace).
    public var range: SourceRange
    /// The declaration as a person would summarise it: `var count: Number`,
    /// `event tap(x: Number)`, `parallel state player`.
    public var signature: String
    /// The type as written (variables, constants with a type, fields); nil otherwise.
    public var type: String?
    /// For a state, the state it is declared in (nil at the top level).
    public var parent: String?
}

/// A transition as written, for "what goes in and out of this state".
public struct TransitionSummary: Equatable, Sendable {
    /// The state it is written in.
    public var source: String
    /// The target after `->`, if written.
    public var target: String?
    /// The trigger as written, `on tap, press` or `after 2`.
    public var trigger: String
    /// The trigger keyword (`internal` excluded): how the checker's transitions are matched.
    public var keywordRange: SourceRange
    /// The whole transition.
    public var range: SourceRange
    /// The events of an `on` trigger; empty for other triggers.
    public var events: [String]
}
