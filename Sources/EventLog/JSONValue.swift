/// A JSON value as read from a log line.
///
/// Objects keep their members in line order, with byte offsets, so a later stage can point at
/// the exact key or value it rejects.
public enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// Any JSON number; always finite (the reader rejects numbers that overflow a double).
    case number(Double)
    /// A string with its escapes decoded.
    case string(String)
    /// An array, elements in order.
    case array([JSONValue])
    /// An object, members in line order; keys are unique.
    case object([JSONMember])
}

/// A key and value of a JSON object, with where each starts in the line (0-based byte offsets into LogRecord.text).
public struct JSONMember: Equatable, Sendable {
    /// The key, escapes decoded.
    public var key: String
    /// The value.
    public var value: JSONValue
    /// Byte offset of the key's opening quote.
    public var keyOffset: Int
    /// Byte offset of the value's first byte.
    public var valueOffset: Int

    /// Creates a member.
    public init(key: String, value: JSONValue, keyOffset: Int, valueOffset: Int) {
        self.key = key
        self.value = value
        self.keyOffset = keyOffset
        self.valueOffset = valueOffset
    }
}

extension JSONValue {
    /// How a message names a value of this kind when its text is not shown: "a string", "an object".
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
