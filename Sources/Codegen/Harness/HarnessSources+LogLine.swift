extension HarnessSources {
    /// `LogLine.swift` of the harness: the JSON parser of one log line, with byte offsets.
    static let logLine = #"""
        // The event-log format, read line by line: a JSON parser over one line's bytes that keeps
        // where each value stands, so that every refusal names its line and column exactly as
        // `statecraft replay` does (same rules, same messages).

        /// A JSON value of a log line. Objects keep their members in line order with offsets.
        enum LogJSON {
            case null
            case bool(Bool)
            case number(Double)
            case string(String)
            case array([LogJSON])
            case object([LogMember])

            /// How a message names a value of this kind: "a string", "an object".
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

        /// A key and its value, with the byte offsets of the key's opening quote and the value.
        struct LogMember {
            var key: String
            var value: LogJSON
            var keyOffset: Int
            var valueOffset: Int
        }

        /// `{"expect": ...}`: what an expectation line asserts, with where each part starts.
        struct LogExpectation {
            var states: [String]?
            var stateOffsets: [Int] = []
            var vars: [LogMember]?
            var outputs: [String]?
            var outputsOffset = 0
            var outputOffsets: [Int] = []
            /// For each output, the arguments it expects when written `{"name", "args"}`; nil when no
            /// element gives any.
            var outputArguments: [ExpectedArguments?]?
            var offset: Int

            struct ExpectedArguments {
                var values: [LogJSON]
                var offset: Int
                var valueOffsets: [Int]
            }
        }

        /// One line of a log, parsed.
        struct LogRecord {
            enum Body {
                case event(name: String, nameOffset: Int, payload: [LogMember])
                case expect(LogExpectation)
            }
            var line: Int
            var body: Body
            var time: Double?
            var timeOffset: Int?
            var caseKey: String?
            var text: [UInt8]

            func column(ofByte offset: Int) -> Int { LogText.column(ofByte: offset, in: text) }
        }

        /// A recording's header line: `{"recording": {"machine": ..., "spec": ...}}`.
        struct LogHeader {
            var machine: String
            var spec: String
            var line: Int
            var machineOffset: Int
            var specOffset: Int
            var text: [UInt8]
        }

        /// Why a line was refused: a byte offset into it and a message.
        struct LineRefusal: Error {
            var offset: Int
            var message: String
        }

        /// Columns and UTF-8, as the reports count them.
        enum LogText {
            /// The length of the well-formed UTF-8 sequence at `i`, or 1 when none starts there.
            static func sequenceLength(_ bytes: [UInt8], at i: Int, limit: Int) -> Int {
                let lead = bytes[i]
                if lead < 0x80 { return 1 }
                var length = 0
                var low: UInt8 = 0x80, high: UInt8 = 0xBF
                switch lead {
                case 0xC2...0xDF: length = 2
                case 0xE0: length = 3; low = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: length = 3
                case 0xED: length = 3; high = 0x9F
                case 0xF0: length = 4; low = 0x90
                case 0xF1...0xF3: length = 4
                case 0xF4: length = 4; high = 0x8F
                default: return 1
                }
                guard i + length <= limit else { return 1 }
                guard bytes[i + 1] >= low && bytes[i + 1] <= high else { return 1 }
                for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return 1 }
                return length
            }

            /// The scalar at `i`, or nil when the bytes there are not valid UTF-8.
            static func scalar(_ bytes: [UInt8], at i: Int, limit: Int) -> Unicode.Scalar? {
                let length = sequenceLength(bytes, at: i, limit: limit)
                let lead = UInt32(bytes[i])
                if length == 1 { return lead < 0x80 ? Unicode.Scalar(lead) : nil }
                var value: UInt32 = length == 2 ? lead & 0x1F : length == 3 ? lead & 0x0F : lead & 0x07
                for k in 1..<length { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
                return Unicode.Scalar(value)
            }

            /// The 1-based column of a byte offset, counting scalars (an invalid byte counts one).
            static func column(ofByte offset: Int, in text: [UInt8]) -> Int {
                let limit = min(max(0, offset), text.count)
                var column = 1
                var i = 0
                while i < limit {
                    i += sequenceLength(text, at: i, limit: text.count)
                    column += 1
                }
                return column
            }

            static func hex(_ value: UInt32, width: Int) -> String {
                let digits = String(value, radix: 16, uppercase: true)
                return String(repeating: "0", count: max(0, width - digits.count)) + digits
            }

            static func unicodeName(_ value: UInt32) -> String { "U+" + hex(value, width: 4) }
        }

        /// The parser of one line. `parseLine` is the entry point.
        struct LineReader {
            static let maxDepth = 128

            let bytes: [UInt8]
            var position = 0

            init(_ bytes: [UInt8]) { self.bytes = bytes }

            var end: Int { bytes.count }
            var current: UInt8 { position < bytes.count ? bytes[position] : 0 }

            static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

            static func isWordByte(_ b: UInt8) -> Bool {
                (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || isDigit(b) || b == 0x5F
            }

            mutating func skipWhitespace() {
                while position < end, bytes[position] == 0x20 || bytes[position] == 0x09 || bytes[position] == 0x0D
                    || bytes[position] == 0x0A {
                    position += 1
                }
            }

            // MARK: Errors

            func unexpected(_ what: String, at offset: Int) -> LineRefusal {
                if offset < end, bytes[offset] >= 0x80, LogText.sequenceLength(bytes, at: offset, limit: end) == 1 {
                    return LineRefusal(offset: offset, message: "invalid UTF-8 byte 0x" + LogText.hex(UInt32(bytes[offset]), width: 2))
                }
                return LineRefusal(offset: offset, message: "expected \(what), found \(describe(at: offset))")
            }

            func describe(at offset: Int) -> String {
                guard offset < end else { return "end of line" }
                let b = bytes[offset]
                if LineReader.isWordByte(b) {
                    var i = offset
                    while i < end, i - offset < 24, LineReader.isWordByte(bytes[i]) { i += 1 }
                    let word = String(decoding: bytes[offset..<i], as: UTF8.self)
                    return "'" + word + (i < end && LineReader.isWordByte(bytes[i]) ? "…'" : "'")
                }
                guard let scalar = LogText.scalar(bytes, at: offset, limit: end) else {
                    return "invalid UTF-8 byte 0x" + LogText.hex(UInt32(b), width: 2)
                }
                let v = scalar.value
                if v < 0x21 || v == 0x27 || v == 0x7F || (v >= 0x80 && v < 0xA0) || scalar.properties.generalCategory == .format
                    || scalar.properties.isWhitespace {
                    return LogText.unicodeName(v)
                }
                return "'" + String(Character(scalar)) + "'"
            }

            /// A value just parsed from `start` to `position`: its text for numbers and literals.
            func describe(_ value: LogJSON, from start: Int) -> String {
                switch value {
                case .number, .bool, .null:
                    let stop = min(position, start + 24)
                    let shown = String(decoding: bytes[start..<stop], as: UTF8.self)
                    return stop < position ? shown + "…" : shown
                default:
                    return value.kindDescription
                }
            }

            /// A value parsed earlier in the line: a number or literal ends at the first delimiter.
            func describeParsed(_ value: LogJSON, at start: Int) -> String {
                switch value {
                case .number, .bool, .null:
                    func isDelimiter(_ b: UInt8) -> Bool {
                        b == 0x2C || b == 0x7D || b == 0x5D || b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A
                    }
                    var stop = start
                    while stop < end, stop - start < 24, !isDelimiter(bytes[stop]) { stop += 1 }
                    let shown = String(decoding: bytes[start..<stop], as: UTF8.self)
                    return stop < end && !isDelimiter(bytes[stop]) ? shown + "…" : shown
                default:
                    return value.kindDescription
                }
            }

            /// Parses the value here (syntax errors win) and refuses it as not being `what`.
            mutating func wrongType(_ what: String, _ context: String, depth: Int) throws(LineRefusal) -> LineRefusal {
                let start = position
                let value = try parseValue(depth: depth)
                return LineRefusal(offset: start, message: "expected \(what) \(context), found \(describe(value, from: start))")
            }

            func tooDeep() -> LineRefusal {
                LineRefusal(offset: position, message: "nesting deeper than \(LineReader.maxDepth) levels")
            }

            // MARK: Values

            mutating func parseValue(depth: Int) throws(LineRefusal) -> LogJSON {
                switch current {
                case 0x7B: return .object(try parseObject(depth: depth))
                case 0x5B: return .array(try parseArray(depth: depth))
                case 0x22: return .string(try parseString())
                case 0x2D, 0x30...0x39: return .number(try parseNumber())
                case 0x74: try parseLiteral(Array("true".utf8)); return .bool(true)
                case 0x66: try parseLiteral(Array("false".utf8)); return .bool(false)
                case 0x6E: try parseLiteral(Array("null".utf8)); return .null
                default: throw unexpected("a value", at: position)
                }
            }

            mutating func parseObject(depth: Int) throws(LineRefusal) -> [LogMember] {
                guard depth <= LineReader.maxDepth else { throw tooDeep() }
                position += 1
                skipWhitespace()
                var members: [LogMember] = []
                if current == 0x7D {
                    position += 1
                    return members
                }
                var keys = Set<[UInt8]>()
                while true {
                    let (key, keyOffset) = try parseKey()
                    guard keys.insert(Array(key.utf8)).inserted else {
                        throw LineRefusal(offset: keyOffset, message: "duplicate key '\(key)'")
                    }
                    let valueOffset = position
                    let value = try parseValue(depth: depth + 1)
                    members.append(LogMember(key: key, value: value, keyOffset: keyOffset, valueOffset: valueOffset))
                    if try endOfItem(closedBy: 0x7D) { return members }
                }
            }

            mutating func parseArray(depth: Int) throws(LineRefusal) -> [LogJSON] {
                guard depth <= LineReader.maxDepth else { throw tooDeep() }
                position += 1
                skipWhitespace()
                var elements: [LogJSON] = []
                if current == 0x5D {
                    position += 1
                    return elements
                }
                while true {
                    elements.append(try parseValue(depth: depth + 1))
                    if try endOfItem(closedBy: 0x5D) { return elements }
                }
            }

            mutating func parseKey() throws(LineRefusal) -> (String, Int) {
                let keyOffset = position
                guard current == 0x22, position < end else { throw unexpected("a string key", at: position) }
                let key = try parseString()
                skipWhitespace()
                guard current == 0x3A, position < end else { throw unexpected("':' after the key", at: position) }
                position += 1
                skipWhitespace()
                return (key, keyOffset)
            }

            /// After an item: `,` (false, more follow) or the closing bracket (true).
            mutating func endOfItem(closedBy close: UInt8) throws(LineRefusal) -> Bool {
                skipWhitespace()
                if current == 0x2C, position < end {
                    position += 1
                    skipWhitespace()
                    return false
                }
                if current == close, position < end {
                    position += 1
                    return true
                }
                throw unexpected("',' or '\(Character(Unicode.Scalar(close)))'", at: position)
            }

            mutating func parseLiteral(_ word: [UInt8]) throws(LineRefusal) {
                let start = position
                for b in word {
                    guard position < end, bytes[position] == b else { throw unexpected("a value", at: start) }
                    position += 1
                }
                if position < end, LineReader.isWordByte(bytes[position]) { throw unexpected("a value", at: start) }
            }

            // MARK: Numbers

            /// A JSON number, which must be finite as a double.
            mutating func parseNumber() throws(LineRefusal) -> Double {
                let start = position
                var i = position
                if bytes[i] == 0x2D { i += 1 }
                guard i < end, LineReader.isDigit(bytes[i]) else { throw unexpected("a digit after '-'", at: i) }
                if bytes[i] == 0x30 {
                    i += 1
                    if i < end, LineReader.isDigit(bytes[i]) {
                        throw LineRefusal(offset: i, message: "unexpected digit after a leading '0' in a number")
                    }
                } else {
                    while i < end, LineReader.isDigit(bytes[i]) { i += 1 }
                }
                if i < end, bytes[i] == 0x2E {
                    i += 1
                    guard i < end, LineReader.isDigit(bytes[i]) else { throw unexpected("a digit after '.'", at: i) }
                    while i < end, LineReader.isDigit(bytes[i]) { i += 1 }
                }
                if i < end, bytes[i] | 0x20 == 0x65 {
                    i += 1
                    if i < end, bytes[i] == 0x2D || bytes[i] == 0x2B { i += 1 }
                    guard i < end, LineReader.isDigit(bytes[i]) else { throw unexpected("a digit in the exponent", at: i) }
                    while i < end, LineReader.isDigit(bytes[i]) { i += 1 }
                }
                position = i
                // The standard library's parser rounds correctly, as the runtime's reader does.
                let literal = String(decoding: bytes[start..<i], as: UTF8.self)
                guard let value = Double(literal), value.isFinite else {
                    let shown = literal.count > 24 ? String(literal.prefix(24)) + "…" : literal
                    throw LineRefusal(offset: start, message: "number '\(shown)' is out of range for a double")
                }
                return value
            }

            // MARK: Strings

            mutating func parseString() throws(LineRefusal) -> String {
                var i = position + 1
                var decoded: [UInt8] = []
                while i < end {
                    let b = bytes[i]
                    if b == 0x22 {
                        position = i + 1
                        return String(decoding: decoded, as: UTF8.self)
                    }
                    if b == 0x5C {
                        i = try parseEscape(at: i, into: &decoded)
                        continue
                    }
                    if b < 0x20 {
                        throw LineRefusal(offset: i, message: "unescaped control character \(LogText.unicodeName(UInt32(b))) in a string")
                    }
                    if b < 0x80 {
                        decoded.append(b)
                        i += 1
                        continue
                    }
                    let length = LogText.sequenceLength(bytes, at: i, limit: end)
                    if length == 1 {
                        throw LineRefusal(offset: i, message: "invalid UTF-8 byte 0x" + LogText.hex(UInt32(b), width: 2))
                    }
                    decoded.append(contentsOf: bytes[i..<i + length])
                    i += length
                }
                throw LineRefusal(offset: end, message: "expected '\"' to end the string, found end of line")
            }

            mutating func parseEscape(at i: Int, into decoded: inout [UInt8]) throws(LineRefusal) -> Int {
                guard i + 1 < end else { throw unexpected("an escape character after '\\'", at: i + 1) }
                let byte: UInt8
                switch bytes[i + 1] {
                case 0x22: byte = 0x22
                case 0x5C: byte = 0x5C
                case 0x2F: byte = 0x2F
                case 0x62: byte = 0x08
                case 0x66: byte = 0x0C
                case 0x6E: byte = 0x0A
                case 0x72: byte = 0x0D
                case 0x74: byte = 0x09
                case 0x75: return try parseUnicodeEscape(at: i, into: &decoded)
                default: throw unexpected("an escape character after '\\'", at: i + 1)
                }
                decoded.append(byte)
                return i + 2
            }

            func unpaired(_ value: UInt32, at i: Int) -> LineRefusal {
                LineRefusal(offset: i, message: "unpaired surrogate '\\u\(LogText.hex(value, width: 4))' in a string")
            }

            mutating func parseUnicodeEscape(at i: Int, into decoded: inout [UInt8]) throws(LineRefusal) -> Int {
                let first = try hexQuad(at: i + 2)
                var value = first
                var next = i + 6
                if first >= 0xDC00 && first <= 0xDFFF { throw unpaired(first, at: i) }
                if first >= 0xD800 && first <= 0xDBFF {
                    guard next + 1 < end, bytes[next] == 0x5C, bytes[next + 1] == 0x75 else { throw unpaired(first, at: i) }
                    let second = try hexQuad(at: next + 2)
                    guard second >= 0xDC00 && second <= 0xDFFF else { throw unpaired(first, at: i) }
                    value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                    next += 6
                }
                if let scalar = Unicode.Scalar(value) { decoded.append(contentsOf: Array(String(Character(scalar)).utf8)) }
                return next
            }

            func hexQuad(at offset: Int) throws(LineRefusal) -> UInt32 {
                var value: UInt32 = 0
                for k in offset..<offset + 4 {
                    guard k < end else { throw unexpected("4 hex digits after '\\u'", at: k) }
                    let b = bytes[k]
                    let digit: UInt8
                    switch b {
                    case 0x30...0x39: digit = b - 0x30
                    case 0x61...0x66: digit = b - 0x61 + 10
                    case 0x41...0x46: digit = b - 0x41 + 10
                    default: throw unexpected("4 hex digits after '\\u'", at: k)
                    }
                    value = value << 4 | UInt32(digit)
                }
                return value
            }
        }

        """#
}
