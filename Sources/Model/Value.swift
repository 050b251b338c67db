import StatecraftDiagnostics

/// The types of the language.
public enum ValueType: String, Sendable, CaseIterable {
    /// `Number`: a 64-bit floating-point number (durations are numbers of seconds).
    case number = "Number"
    /// `Bool`: `true` or `false`.
    case bool = "Bool"
    /// `String`: Unicode text.
    case string = "String"

    /// Looks a type up by its spelling in source.
    public init?(spelling: String) { self.init(rawValue: spelling) }

    /// The type's neutral value: 0, false or "".
    public var zero: Value {
        switch self {
        case .number: .number(0)
        case .bool: .bool(false)
        case .string: .string("")
        }
    }
}

/// A value of one of the language's types.
public enum Value: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A `Number`.
    case number(Double)
    /// A `Bool`.
    case bool(Bool)
    /// A `String`.
    case string(String)

    /// The value's type.
    public var type: ValueType {
        switch self {
        case .number: .number
        case .bool: .bool
        case .string: .string
        }
    }

    /// The value as spec source would write it (`-617`, `0.7`, `true`, `"❤️"`).
    public var description: String {
        switch self {
        case .number(let n): return n.isFinite ? JSONWriter.number(n) : "\(n)"
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return StringEscaping.quoted(s, style: .spec)
        }
    }

    /// The value as text inside a string (interpolation): numbers as reports and traces
    /// print them, bools as `true`/`false`, strings as they are.
    public var text: String {
        switch self {
        case .number(let n): n.isFinite ? JSONWriter.number(n) : "\(n)"
        case .bool(let b): b ? "true" : "false"
        case .string(let s): s
        }
    }

    /// The value as JSON text (event logs, reports, traces).
    public var json: String {
        switch self {
        case .number(let n): JSONWriter.number(n)
        case .bool(let b): b ? "true" : "false"
        case .string(let s): JSONWriter.quote(s)
        }
    }

    /// The number, if this is one.
    public var number: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The bool, if this is one.
    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }
}
