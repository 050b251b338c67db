import StatecraftDiagnostics

/// Why a JSON document was rejected: where (a byte offset into it) and what was expected.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    /// The 0-based byte offset of the first byte that could not be read.
    public var offset: Int
    /// Lowercase, no final period, as in every other message.
    public var message: String
}

extension JSONValue {
    /// Reads one whole JSON document (RFC 8259) from `bytes`: whitespace, including line
    /// breaks, may surround any token; nothing but whitespace may follow the value.
    ///
    /// The same reader as event-log lines, with the same limits (objects and arrays nested at
    /// most `LineParser.maxDepth` deep, duplicate keys refused, UTF-8 checked inside strings),
    /// so that other JSON the tool reads (the language server's messages) is held to one
    /// standard. Strings may be of any length.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        do {
            return try bytes.withUnsafeBufferPointer { (buffer) throws(LineFailure) -> JSONValue in
                var parser = LineParser(bytes: buffer, text: bytes)
                parser.skipWhitespace()
                let value = try parser.parseValue(depth: 1)
                parser.skipWhitespace()
                guard parser.position == parser.end else {
                    throw parser.unexpected("the end of the document", at: parser.position)
                }
                return value
            }
        } catch {
            throw JSONSyntaxError(offset: error.offset, message: error.message)
        }
    }

    /// The value of `key` when this is an object holding it.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number as an `Int`, when this is a whole number that fits one.
    public var intValue: Int? {
        guard case .number(let n) = self, n.rounded() == n, abs(n) < 9.0e15 else { return nil }
        return Int(n)
    }

    /// The Boolean, when this is one.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }
}
