import StatecraftDiagnostics

/// Why a line was rejected: a byte offset into the line and a message.
struct LineFailure: Error, Equatable {
    var offset: Int
    var message: String
}

/// A JSON parser (RFC 8259) over the bytes of one log line, recording byte offsets.
///
/// Works on an `UnsafeBufferPointer` of the line; `text` is the same bytes as an array, for
/// `UTF8Scanner`. UTF-8 is validated where it may legally appear (inside strings); any other
/// non-ASCII byte is a syntax error anyway, reported as invalid UTF-8 when it is.
struct LineParser {
    /// Objects and arrays nested deeper than this are an error, so hostile input cannot
    /// exhaust the stack.
    static let maxDepth = 128

    let bytes: UnsafeBufferPointer<UInt8>
    let text: [UInt8]
    var position = 0
    /// Reused for strings with escapes.
    var scratch: [UInt8] = []
    /// Where the last string parsed lies in the line, if it had no escapes: its bytes are
    /// then its value, and keys can be recognised without comparing strings.
    var rawString: Range<Int>?

    init(bytes: UnsafeBufferPointer<UInt8>, text: [UInt8]) {
        self.bytes = bytes
        self.text = text
    }

    var end: Int { bytes.count }

    /// The byte at `position`, or 0 at the end of the line (0 matches no token; error
    /// messages tell a NUL byte from the end by the position).
    var current: UInt8 {
        @inline(__always) get { position < bytes.count ? bytes[position] : 0 }
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0D, 0x0A: position += 1
            default: return
            }
        }
    }

    /// Consumes `byte` or fails with "expected `what`".
    @inline(__always)
    mutating func consume(_ byte: UInt8, _ what: String) throws(LineFailure) {
        guard current == byte, position < end else { throw unexpected(what, at: position) }
        position += 1
    }

    // MARK: Values

    /// value = object / array / string / number / "true" / "false" / "null"
    mutating func parseValue(depth: Int) throws(LineFailure) -> JSONValue {
        switch current {
        case UInt8(ascii: "{"): return .object(try parseObject(depth: depth))
        case UInt8(ascii: "["): return .array(try parseArray(depth: depth))
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "t"): try parseLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try parseLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try parseLiteral("null"); return .null
        default: throw unexpected("a value", at: position)
        }
    }

    /// object = "{" [ member *( "," member ) ] "}"; member = string ":" value
    ///
    /// `depth` is the nesting level of this object (the line's own object is 1).
    mutating func parseObject(depth: Int) throws(LineFailure) -> [JSONMember] {
        guard depth <= LineParser.maxDepth else {
            throw LineFailure(offset: position, message: LogMessage.nestingTooDeep(limit: LineParser.maxDepth))
        }
        position += 1
        skipWhitespace()
        var members: [JSONMember] = []
        if current == UInt8(ascii: "}") {
            position += 1
            return members
        }
        var keys = KeyIndex()
        while true {
            let (key, keyOffset) = try parseKey()
            guard keys.insert(key, existing: members) else {
                throw LineFailure(offset: keyOffset, message: LogMessage.duplicateKey(key))
            }
            let valueOffset = position
            let value = try parseValue(depth: depth + 1)
            members.append(JSONMember(key: key, value: value, keyOffset: keyOffset, valueOffset: valueOffset))
            if try endOfMember() { return members }
        }
    }

    /// array = "[" [ value *( "," value ) ] "]"
    mutating func parseArray(depth: Int) throws(LineFailure) -> [JSONValue] {
        guard depth <= LineParser.maxDepth else {
            throw LineFailure(offset: position, message: LogMessage.nestingTooDeep(limit: LineParser.maxDepth))
        }
        position += 1
        skipWhitespace()
        var elements: [JSONValue] = []
        if current == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        while true {
            elements.append(try parseValue(depth: depth + 1))
            if try endOfElement() { return elements }
        }
    }

    /// A member's key and the `:` after it, leaving `position` at the value. Returns the key
    /// and the offset of its opening quote.
    mutating func parseKey() throws(LineFailure) -> (String, Int) {
        let keyOffset = position
        guard current == UInt8(ascii: "\""), position < end else { throw unexpected("a string key", at: position) }
        let key = try parseString()
        skipWhitespace()
        try consume(UInt8(ascii: ":"), "':' after the key")
        skipWhitespace()
        return (key, keyOffset)
    }

    /// After an object member: consumes `,` (false: more follow) or `}` (true: the object ends).
    mutating func endOfMember() throws(LineFailure) -> Bool {
        try endOfItem(closedBy: UInt8(ascii: "}"))
    }

    /// After an array element: consumes `,` (false: more follow) or `]` (true: the array ends).
    mutating func endOfElement() throws(LineFailure) -> Bool {
        try endOfItem(closedBy: UInt8(ascii: "]"))
    }

    private mutating func endOfItem(closedBy close: UInt8) throws(LineFailure) -> Bool {
        skipWhitespace()
        switch current {
        case UInt8(ascii: ","):
            position += 1
            skipWhitespace()
            return false
        case close:
            position += 1
            return true
        default:
            throw unexpected("',' or '\(Character(Unicode.Scalar(close)))'", at: position)
        }
    }

    mutating func parseLiteral(_ word: StaticString) throws(LineFailure) {
        let start = position
        let count = word.utf8CodeUnitCount
        let pattern = word.utf8Start
        var k = 0
        while k < count {
            guard position < end, bytes[position] == pattern[k] else { throw unexpected("a value", at: start) }
            position += 1
            k += 1
        }
        // `truex` is one bad word, not `true` followed by garbage.
        if position < end, LineParser.isWordByte(bytes[position]) { throw unexpected("a value", at: start) }
    }

    // MARK: Errors

    /// "expected `what`, found …" at `offset`; or invalid UTF-8 if that is what is there.
    func unexpected(_ what: String, at offset: Int) -> LineFailure {
        if offset < end, bytes[offset] >= 0x80, UTF8Scanner.sequenceLength(text, at: offset, limit: end) == 1 {
            return LineFailure(offset: offset, message: LogMessage.invalidUTF8(bytes[offset]))
        }
        return LineFailure(offset: offset, message: LogMessage.expected(what, found: describe(at: offset)))
    }

    /// How a message names what starts at `offset`: a word, a quoted character, `U+0009` or
    /// "end of line".
    func describe(at offset: Int) -> String {
        guard offset < end else { return "end of line" }
        let b = bytes[offset]
        if LineParser.isWordByte(b) {
            var i = offset
            while i < end, i - offset < 24, LineParser.isWordByte(bytes[i]) { i += 1 }
            let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<i]), as: UTF8.self)
            return "'" + word + (i < end && LineParser.isWordByte(bytes[i]) ? "…'" : "'")
        }
        guard let scalar = UTF8Scanner.scalar(text, at: offset, limit: end) else {
            return LogMessage.invalidUTF8(b)
        }
        if scalar.value < 0x21 || scalar.value == 0x27 || scalar.value == 0x7F || (scalar.value >= 0x80 && scalar.value < 0xA0)
            || scalar.properties.generalCategory == .format || scalar.properties.isWhitespace {
            return LogMessage.unicodeName(scalar.value)
        }
        return "'" + String(Character(scalar)) + "'"
    }

    /// How a message names a value already parsed from `start` to `position`: its text for
    /// numbers and literals, its kind otherwise.
    func describe(_ value: JSONValue, from start: Int) -> String {
        switch value {
        case .number, .bool, .null:
            let stop = min(position, start + 24)
            let shown = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<stop]), as: UTF8.self)
            return stop < position ? shown + "…" : shown
        default:
            return value.kindDescription
        }
    }

    /// Parses whatever value is at `position` (syntax errors win) and returns a failure saying
    /// it is not `what`: "expected a string for 'event', found 12".
    mutating func wrongType(_ what: String, _ context: String, depth: Int) throws(LineFailure) -> LineFailure {
        let start = position
        let value = try parseValue(depth: depth)
        return LineFailure(offset: start, message: LogMessage.wrongType(what, context, found: describe(value, from: start)))
    }

    /// Whether the key just parsed is `literal`, byte for byte.
    func lastKeyIs(_ literal: StaticString, _ key: String) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard let raw = rawString else { return key.utf8.elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: count)) }
        guard raw.count == count else { return false }
        let pattern = literal.utf8Start
        for k in 0..<count where bytes[raw.lowerBound + k] != pattern[k] { return false }
        return true
    }

    @inline(__always)
    static func isWordByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
    }
}

/// The keys of one object seen so far, to find duplicates: a linear scan for the usual
/// handful of keys, a set once an object is large. Keys compare as bytes (JSON keys are
/// sequences of code points, not canonically equivalent strings).
struct KeyIndex {
    private var set: Set<[UInt8]>?
    private static let linearLimit = 16

    /// Adds `key`, unless it is one of `members`' keys (the keys seen so far); returns
    /// false for a duplicate.
    mutating func insert(_ key: String, existing members: [JSONMember]) -> Bool {
        if set == nil && members.count < KeyIndex.linearLimit {
            let count = key.utf8.count
            for member in members where member.key.utf8.count == count && member.key.utf8.elementsEqual(key.utf8) {
                return false
            }
            return true
        }
        var keys = set ?? Set(members.map { Array($0.key.utf8) })
        set = nil
        let inserted = keys.insert(Array(key.utf8)).inserted
        set = keys
        return inserted
    }
}
