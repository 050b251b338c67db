import StatecraftDiagnostics

/// A checked machine: flat arrays indexed by typed ids, names resolved, expressions typed.
///
/// States form a tree under `root` (the machine itself, a compound state). State ids are
/// given in document order (a parent before its children, children in the order written),
/// so "document order" is id order and the descendants of `s` are exactly the ids
/// `s + 1 ... lastDescendant(s)` (see `StateTree.swift`, which holds every rule about the
/// tree).
public struct Machine: Sendable {
    /// The machine's name.
    public var name: String
    /// The source it was read from (diagnostics and exporters quote it).
    public var source: SourceFile
    /// Where the machine's name is written.
    public var nameRange: SourceRange
    /// Every state, the root first.
    public var states: [State]
    /// Every declared event, indexed by ``EventID``, in declaration order.
    public var events: [Event]
    /// Every variable, indexed by ``VariableID``, in declaration order.
    public var variables: [Variable]
    /// Every constant with its computed value, indexed by ``ConstantID``, in declaration order.
    public var constants: [Constant]
    /// Every declared output, indexed by ``OutputID``, in declaration order.
    public var outputs: [Output]
    /// Every transition, in source order.
    public var transitions: [Transition]
    /// Every `property`, in the order written. No stage that
    /// runs, exports or generates a machine reads them: they are what `check` and `replay`
    /// hold a machine's runs to.
    public var properties: [Property]

    /// The root of the state tree: the machine itself.
    public var root: StateID { StateID(0) }

    /// Creates an empty machine with only its root state.
    public init(name: String, source: SourceFile, nameRange: SourceRange) {
        self.name = name
        self.source = source
        self.nameRange = nameRange
        self.states = [State(id: StateID(0), name: name, kind: .compound, parent: nil, range: nameRange)]
        self.events = []
        self.variables = []
        self.constants = []
        self.outputs = []
        self.transitions = []
        self.properties = []
    }

    /// The state the machine starts in: the first leaf (in document order) of the initial
    /// configuration, `initialConfiguration`. For a machine without parallel states, the
    /// root's initial child followed down to a leaf.
    public var initialState: StateID? {
        initialConfiguration.first { isAtomic($0) } ?? initialConfiguration.last
    }

    /// The states active once the machine has entered its initial configuration (before any
    /// eventless transition is taken): every region of a parallel state, each compound
    /// state's initial child, in document order.
    public var initialConfiguration: Configuration { Configuration(initialEntrySet) }

    /// The states that may be active while state `s` is: `s`, its ancestors (the root
    /// left out), its descendants, and every state in another region of one of its parallel
    /// ancestors. Without parallel states: `s`, its ancestors, its descendants.
    public func coActiveStates(_ s: StateID) -> [StateID] {
        var result = (s.index...lastDescendant(s).index).map(StateID.init)
        var inner = s
        for ancestor in properAncestors(s) where ancestor != root {
            result.append(ancestor)
            if isParallel(ancestor) {
                for region in childStates(ancestor) where region != inner {
                    result += (region.index...lastDescendant(region).index).map(StateID.init)
                }
            }
            inner = ancestor
        }
        return result
    }

    /// The state with the given id.
    public subscript(id: StateID) -> State { states[id.index] }
    /// The event with the given id.
    public subscript(id: EventID) -> Event { events[id.index] }
    /// The variable with the given id.
    public subscript(id: VariableID) -> Variable { variables[id.index] }
    /// The constant with the given id.
    public subscript(id: ConstantID) -> Constant { constants[id.index] }
    /// The output with the given id.
    public subscript(id: OutputID) -> Output { outputs[id.index] }
    /// The transition with the given id.
    public subscript(id: TransitionID) -> Transition { transitions[id.index] }

    /// The constant values, indexed by `ConstantID` (for folding and evaluation).
    public var constantValues: [Value] { constants.map(\.value) }

    /// The source text of a range (guards and actions as the user wrote them).
    public func text(_ range: SourceRange) -> String {
        let end = min(range.end, source.bytes.count)
        let start = min(range.start, end)
        return String(decoding: source.bytes[start..<end], as: UTF8.self)
    }
}

/// A state in the tree.
public struct State: Sendable {
    /// What kind of node it is.
    public enum Kind: String, Sendable {
        /// A leaf.
        case atomic
        /// Has children, one of them initial (the root is one).
        case compound
        /// Has children (regions) that are all active at once.
        case parallel
        /// A leaf that completes its parent when entered (at the top level: ends the run).
        case final
        /// A pseudo-state that re-enters what its parent last had active; never active itself.
        case history
    }

    /// The state's position in ``Machine/states`` (the root is 0; ids follow document order).
    public var id: StateID
    /// The state's name as declared (the root's is the machine's name).
    public var name: String
    /// Whether it is a leaf, compound, parallel, final or history state.
    public var kind: Kind
    /// The enclosing state; nil only for the root.
    public var parent: StateID?
    /// The direct child states, in document order; empty for a leaf.
    public var children: [StateID] = []
    /// The child entered when this state is entered (compound states): with
    /// `initialTargets`, the child on the way to the first of them.
    public var initialChild: StateID?
    /// `initial -> a, b`: the states entered, with their ancestors up to this one, when this
    /// state is entered by default (SCXML's `initial="a b"`); empty means `initialChild`.
    /// They may lie at any depth (in different regions of a parallel state when several)
    /// or be a history state.
    public var initialTargets: [StateID] = []
    /// For a history state: whether it restores the whole active descendant configuration
    /// of its parent (deep) or only the active child (shallow).
    public var isDeepHistory = false
    /// For a history state: what it enters when its parent was never exited (`history
    /// state h -> c`, or `-> a, b` for states in several regions of a parallel state),
    /// with the states on the way to them; empty means the parent's default entry.
    public var historyDefaults: [StateID] = []
    /// For a compound state with `initial -> a { … }`: runs when the state is entered by
    /// default (not through a deeper target or its history), after its entry actions and
    /// before its children's (the content of SCXML's `<initial>` transition).
    package var initialActions: [Action] = []
    /// For a history state with `history state h -> c { … }`: runs when its default is
    /// taken (its parent was never exited), after the entry actions of its parent (the
    /// content of SCXML's default history transition).
    package var historyActions: [Action] = []
    /// `initialActions` and `historyActions`: what a default entry of this state may run.
    package var defaultEntryActions: [Action] { initialActions + historyActions }
    /// Every action the state holds, wherever it runs (entry, exit, default entries): for
    /// whatever looks at all of a machine's actions (analyses, what the generated Swift needs),
    /// so that none of them misses a place actions are written.
    package var allActions: [Action] { entry + exit + initialActions + historyActions }
    /// For a final state nested in a compound state: the values the parent's completion
    /// carries (`final state f(code: 200)`, SCXML's `<donedata>`), each evaluated when the
    /// state is entered, after its entry actions; a `done` transition reads them by name, as
    /// payload fields. Empty when none are written.
    package var doneData: [DoneField] = []
    /// Runs when the state is entered.
    public var entry: [Action] = []
    /// Runs when the state is left.
    public var exit: [Action] = []
    /// Transitions leaving this state, in source order.
    public var transitions: [TransitionID] = []
    /// Where the state's name is written.
    public var range: SourceRange

    /// Creates a state with no children, actions or transitions.
    public init(id: StateID, name: String, kind: Kind, parent: StateID?, range: SourceRange) {
        self.id = id
        self.name = name
        self.kind = kind
        self.parent = parent
        self.range = range
    }

    /// Whether this is a final state.
    public var isFinal: Bool { kind == .final }
    /// Whether this is a history pseudo-state.
    public var isHistory: Bool { kind == .history }
}

/// One value a final state gives its parent's completion: `code: 200` in
/// `final state settled(code: 200)`.
package struct DoneField: Sendable, Equatable {
    /// The field's name, as a `done` transition's guard and actions read it.
    package var name: String
    /// The value, typed; its type is the field's.
    package var value: Expr
    /// Where the field's name is written.
    package var range: SourceRange

    /// Creates a field.
    package init(name: String, value: Expr, range: SourceRange) {
        self.name = name
        self.value = value
        self.range = range
    }
}

/// A typed field of an event payload or output argument list.
public struct Field: Sendable {
    /// The field's name, as payloads, expressions and event logs refer to it.
    public var name: String
    /// The field's type.
    public var type: ValueType
    /// Where the field is declared.
    public var range: SourceRange
    /// Whether the spec marks the field `private` (`event signIn(private password: String)`):
    /// its value never reaches a recording. Only an event's payload fields can be private.
    public var isPrivate: Bool

    /// Creates a field.
    public init(name: String, type: ValueType, range: SourceRange, isPrivate: Bool = false) {
        self.name = name
        self.type = type
        self.range = range
        self.isPrivate = isPrivate
    }
}

/// An event the outside world sends.
public struct Event: Sendable {
    /// The event's position in ``Machine/events``.
    public var id: EventID
    /// The event's name, as transitions and event logs refer to it.
    public var name: String
    /// Payload fields in declaration order (a runtime's payload slots).
    public var fields: [Field]
    /// Where the event's name is declared.
    public var range: SourceRange
    /// The name another system gives the event (`event watch_reset as "watch.reset"`), which
    /// event logs may use instead of ``name``; nil when the spec gives none.
    public var externalName: ExternalName?

    /// Creates an event.
    public init(id: EventID, name: String, fields: [Field], range: SourceRange, externalName: ExternalName? = nil) {
        self.id = id
        self.name = name
        self.fields = fields
        self.range = range
        self.externalName = externalName
    }

    /// The slot of a payload field by name.
    public func fieldIndex(_ name: String) -> Int? { fields.firstIndex { $0.name == name } }
}

/// The name an outside system uses for an event (`as "watch.reset"`), and whether it also
/// stands for the SCXML extensions of that name (`as "DIGIT.*"`: `DIGIT.5` and `DIGIT.5.x` too,
/// when no event of the machine answers to a longer prefix of them).
public struct ExternalName: Sendable, Equatable {
    /// The name without `.*`: `watch.reset`, `DIGIT`.
    public var name: String
    /// Whether the name was written with `.*`: the event also answers to `name.` followed by
    /// anything, as an SCXML transition on `name` takes those events.
    public var acceptsExtensions: Bool
    /// Where the string after `as` is written.
    package var range: SourceRange

    /// Creates an external name.
    package init(name: String, acceptsExtensions: Bool, range: SourceRange) {
        self.name = name
        self.acceptsExtensions = acceptsExtensions
        self.range = range
    }

    /// The name as the spec writes it: `watch.reset`, `DIGIT.*`.
    public var spelling: String { acceptsExtensions ? name + ".*" : name }

    /// The external name a string after `as` spells, or why it is not one: SCXML's event
    /// names, dot-separated tokens (`watch.reset`), optionally ending in `.*`.
    package static func parse(_ text: String, range: SourceRange) -> Result<ExternalName, ExternalNameProblem> {
        var name = Substring(text)
        let extensible = name.hasSuffix(".*")
        if extensible { name = name.dropLast(2) }
        if name.isEmpty { return .failure(.empty) }
        for scalar in name.unicodeScalars {
            if scalar == "*" { return .failure(.wildcard) }
            if scalar.properties.isWhitespace || scalar.value < 0x20 || scalar == "\"" { return .failure(.space) }
        }
        if name.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            return .failure(.emptyToken)
        }
        return .success(ExternalName(name: String(name), acceptsExtensions: extensible, range: range))
    }
}

/// Why a string after `as` is not an event name other systems can use.
package enum ExternalNameProblem: Error, Sendable, Equatable {
    /// `""` or `".*"`.
    case empty
    /// A `*` other than the `.*` that ends the name (`"*"`, `"tap*"`, `"a.*.b"`).
    case wildcard
    /// A space, control character or quote, which SCXML's event attribute cannot hold.
    case space
    /// A `.` at either end or two together (`".tap"`, `"a..b"`).
    case emptyToken

    /// What is wrong, for the diagnostic.
    package var reason: String {
        switch self {
        case .empty: "it is empty"
        case .wildcard: "'*' may only end it, as '.*'"
        case .space: "it holds a space, a control character or a quote"
        case .emptyToken: "a '.' starts or ends it, or two follow each other"
        }
    }
}

/// An output the machine emits.
public struct Output: Sendable {
    /// The output's position in ``Machine/outputs``.
    public var id: OutputID
    /// The output's name, as `emit` and expectations refer to it.
    public var name: String
    /// The argument fields in declaration order (the order `emit` passes them in).
    public var fields: [Field]
    /// Where the output's name is declared.
    public var range: SourceRange

    /// Creates an output.
    public init(id: OutputID, name: String, fields: [Field], range: SourceRange) {
        self.id = id
        self.name = name
        self.fields = fields
        self.range = range
    }
}

/// A variable with its initial value.
public struct Variable: Sendable {
    /// The variable's position in ``Machine/variables``.
    public var id: VariableID
    /// The variable's name as declared.
    public var name: String
    /// The variable's type.
    public var type: ValueType
    /// Marked `public`: read by the app, so not reported when no guard or action reads it.
    public var isPublic: Bool
    /// The value the variable holds when the machine starts, computed from ``initializer``.
    public var initialValue: Value
    /// The initializer as written, resolved (so analyses see what it refers to).
    public var initializer: Expr
    /// Where the variable's name is declared.
    public var range: SourceRange

    /// Creates a variable.
    public init(id: VariableID, name: String, type: ValueType, isPublic: Bool, initialValue: Value,
                initializer: Expr, range: SourceRange) {
        self.id = id
        self.name = name
        self.type = type
        self.isPublic = isPublic
        self.initialValue = initialValue
        self.initializer = initializer
        self.range = range
    }
}

/// A named constant.
public struct Constant: Sendable {
    /// The constant's position in ``Machine/constants``.
    public var id: ConstantID
    /// The constant's name as declared.
    public var name: String
    /// The constant's value, computed once when the machine was resolved.
    public var value: Value
    /// The definition as written, resolved.
    public var definition: Expr
    /// Where the constant's name is declared.
    public var range: SourceRange

    /// Creates a constant.
    public init(id: ConstantID, name: String, value: Value, definition: Expr, range: SourceRange) {
        self.id = id
        self.name = name
        self.value = value
        self.definition = definition
        self.range = range
    }
}

/// What makes a transition fire.
public enum Trigger: Sendable, Equatable {
    /// Any of these events.
    case events([EventID])
    /// The source state has been active for this many seconds.
    case after(Expr)
    /// State `x` completed (SCXML's `done.state.x`): for a compound state, a final child was
    /// entered; for a parallel one, every region is in a final state.
    case done(StateID)
    /// Eventless: taken as soon as the source is active and the guard holds.
    case always
}

/// A transition from a state.
public struct Transition: Sendable {
    /// The transition's position in ``Machine/transitions`` (source order).
    public var id: TransitionID
    /// The state the transition is written in.
    public var source: StateID
    /// What fires the transition: events, a timer, the completion of a state, or nothing (`always`).
    public var trigger: Trigger
    /// Must hold for the transition to fire; nil means always.
    public var guardExpr: Expr?
    /// Where it goes; nil for a targetless transition (actions only, no exit or entry).
    public var target: StateID?
    /// Written as internal (SCXML `type="internal"`): when every target is a descendant of
    /// a compound source, the source is not exited and re-entered.
    public var isInternal = false
    /// The actions run when the transition is taken, in order (after the exits, before the entries).
    public var actions: [Action]
    /// How many `let` slots its actions use.
    public var localCount: Int
    /// True when the trigger or target did not resolve (an error was reported); analyses
    /// treat such a transition conservatively.
    public var isBroken: Bool
    /// The `on`/`after` keyword.
    public var keywordRange: SourceRange
    /// The whole transition.
    public var range: SourceRange

    /// Creates a transition.
    public init(id: TransitionID, source: StateID, trigger: Trigger, guardExpr: Expr?, target: StateID?,
                actions: [Action], localCount: Int, isBroken: Bool, keywordRange: SourceRange, range: SourceRange) {
        self.id = id
        self.source = source
        self.trigger = trigger
        self.guardExpr = guardExpr
        self.target = target
        self.actions = actions
        self.localCount = localCount
        self.isBroken = isBroken
        self.keywordRange = keywordRange
        self.range = range
    }

    /// Whether the transition has a target, so it exits and enters states (a self
    /// transition counts); one without a target only runs its actions. Not SCXML's
    /// `type="external"`: that is about whether a transition to a descendant exits its source.
    public var hasTarget: Bool { target != nil }

    /// The events it is triggered by (empty for timers, completion and eventless ones).
    public var events: [EventID] {
        if case .events(let ids) = trigger { return ids }
        return []
    }
}

/// An action of a transition, entry or exit block.
public indirect enum Action: Sendable, Equatable {
    /// `variable op= value`; `op` is nil for a plain assignment.
    case assign(VariableID, op: BinaryOp?, Expr, range: SourceRange)
    /// `emit o(args)`: sends an output to the app, with its arguments in the output's field order.
    case emit(OutputID, [Expr], range: SourceRange)
    /// `let` stores a value in a local slot.
    case setLocal(Int, Expr, range: SourceRange)
    /// `raise e(args)` puts an event on the internal queue.
    case raise(EventID, [Expr], range: SourceRange)
    /// `send e(args)` puts an event on the external queue, behind the events already
    /// there; with `after d` (seconds), it is put there once `d` has passed, whatever
    /// states are active then.
    case send(EventID, [Expr], delay: Expr?, range: SourceRange)
    /// `send "\(name)"`, `send "name" after d`: a send of the event whose name is the string's
    /// value when the action runs, looked up as an event log's name is (`LogNameTable`). It
    /// is then exactly `send thatEvent [after d]`; a string that names no event, or one that
    /// names an event with payload fields (a send by name carries no arguments), fails the step.
    /// The expression is a `String`.
    case sendNamed(Expr, delay: Expr?, range: SourceRange)
    /// `cancel e` drops every delayed `send` of `e` that has not been delivered yet.
    case cancel(EventID, range: SourceRange)
    /// `if condition { then } else { otherwise }`: runs one of two action lists.
    case ifAction(Expr, then: [Action], otherwise: [Action], range: SourceRange)

    /// Calls `body` on every expression in this action and the actions inside it.
    public func visitExpressions(_ body: (Expr) -> Void) {
        switch self {
        case .assign(_, _, let e, _), .setLocal(_, let e, _): e.visit(body)
        case .emit(_, let args, _), .raise(_, let args, _):
            for a in args { a.visit(body) }
        case .send(_, let args, let delay, _):
            for a in args { a.visit(body) }
            delay?.visit(body)
        case .sendNamed(let name, let delay, _):
            name.visit(body)
            delay?.visit(body)
        case .cancel: break
        case .ifAction(let c, let then, let otherwise, _):
            c.visit(body)
            for a in then + otherwise { a.visitExpressions(body) }
        }
    }

    /// Calls `body` on this action and every action nested in it.
    public func visit(_ body: (Action) -> Void) {
        body(self)
        if case .ifAction(_, let then, let otherwise, _) = self {
            for a in then + otherwise { a.visit(body) }
        }
    }
}
