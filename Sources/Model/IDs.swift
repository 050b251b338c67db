/// Identifies a state: its index in `Machine.states`.
public struct StateID: Hashable, Comparable, Sendable {
    /// Index into `Machine.states`.
    public let index: Int
    /// Creates an id.
    public init(_ index: Int) { self.index = index }
    public static func < (a: StateID, b: StateID) -> Bool { a.index < b.index }
}

/// Identifies an event: its index in `Machine.events`.
public struct EventID: Hashable, Comparable, Sendable {
    /// Index into `Machine.events`.
    public let index: Int
    /// Creates an id.
    public init(_ index: Int) { self.index = index }
    public static func < (a: EventID, b: EventID) -> Bool { a.index < b.index }
}

/// Identifies a variable: its slot in `Machine.variables` (and in a runtime's value array).
public struct VariableID: Hashable, Comparable, Sendable {
    /// Index into `Machine.variables`.
    public let index: Int
    /// Creates an id.
    public init(_ index: Int) { self.index = index }
    public static func < (a: VariableID, b: VariableID) -> Bool { a.index < b.index }
}

/// Identifies a constant: its index in `Machine.constants`.
public struct ConstantID: Hashable, Comparable, Sendable {
    /// Index into `Machine.constants`.
    public let index: Int
    /// Creates an id.
    public init(_ index: Int) { self.index = index }
    public static func < (a: ConstantID, b: ConstantID) -> Bool { a.index < b.index }
}

/// Identifies an output: its index in `Machine.outputs`.
public struct OutputID: Hashable, Comparable, Sendable {
    /// Index into `Machine.outputs`.
    public let index: Int
    /// Creates an id.
    public init(_ index: Int) { self.index = index }
    public static func < (a: OutputID, b: OutputID) -> Bool { a.index < b.index }
}

/// Identifies a transition: its index in `Machine.transitions` (source order).
public struct TransitionID: Hashable, Comparable, Sendable {
    /// Index into `Machine.transitions`.
    public let index: Int
    /// Creates an id.
    public init(_ index: Int) { self.index = index }
    public static func < (a: TransitionID, b: TransitionID) -> Bool { a.index < b.index }
}
