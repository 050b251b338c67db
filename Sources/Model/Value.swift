import StatecraftDiagnostics

/// The types of the language.
public enum ValueType: String, Sendable, CaseIterable {
    case number = "Number", bool = "Bool", string = "String"

    /// Looks a type up by its spelling in source.
    public init?(spelling: String) { self.init(rawValue: spelling) }
}

/// A value of one of the language's types.
public enum Value: Equatable, Hashable, Sendable, CustomStringConvertible {
    case number(Double)
    case bool(Bool)
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
        case .number(let n):
            if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
            return "\(n)"
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return StringEscaping.quoted(s, style: .spec)
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
