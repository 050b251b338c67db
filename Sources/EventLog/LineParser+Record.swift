/// The keys with a meaning on every line of a log.
enum ReservedKey {
    case event, expect, time, `case`
}

extension LineParser {
    /// line = ws object ws, where the object holds `event` or `expect` (not both), and
    /// optionally `time` and `case`; an event line's other keys are its payload.
    mutating func parseLine(number: Int) throws(LineFailure) -> LogRecord {
        switch try parseLine(number: number, headerAllowed: false) {
        case .record(let record): return record
        case .header: throw LineFailure(offset: 0, message: LogMessage.headerNotFirst())  // (not reached)
        }
    }

    /// A log's first non-blank line: a record, or a recording's header.
    enum FirstLine {
        case record(LogRecord)
        case header(LogHeader)
    }

    /// `parseLine(number:)`, where, if `headerAllowed`, a line without `event` and `expect`
    /// whose object has the key `recording` is a header: `{"recording": {"machine": string,
    /// "spec": string}}` and nothing else. Elsewhere such a line is an error at that key.
    mutating func parseLine(number: Int, headerAllowed: Bool) throws(LineFailure) -> FirstLine {
        skipWhitespace()
        let objectOffset = position
        guard current == UInt8(ascii: "{"), position < end else {
            throw unexpected("'{' to start a JSON object", at: position)
        }
        position += 1
        skipWhitespace()
        var line = LineParts()
        if current == UInt8(ascii: "}") {
            position += 1
        } else {
            while true {
                try parseLineMember(into: &line)
                if try endOfMember() { break }
            }
        }
        skipWhitespace()
        guard position >= end else { throw unexpected("end of line after the object", at: position) }
        let body: LogRecord.Body
        if let expectation = line.expectation {
            body = .expect(expectation)
        } else if let (name, nameOffset) = line.event {
            body = .event(name: name, nameOffset: nameOffset, payload: line.payload)
        } else if let recording = line.payload.first(where: { $0.key == "recording" }) {
            guard headerAllowed else { throw LineFailure(offset: recording.keyOffset, message: LogMessage.headerNotFirst()) }
            return .header(try header(recording, line, number: number))
        } else {
            throw LineFailure(offset: objectOffset, message: LogMessage.missingEventOrExpect())
        }
        return .record(LogRecord(line: number, body: body, time: line.time, timeOffset: line.timeOffset,
                                 caseKey: line.caseKey, caseOffset: line.caseOffset, text: text))
    }

    /// The header whose `recording` member is `recording`, checked: no other key on the
    /// line, and `machine` and `spec` strings in it, nothing else.
    private func header(_ recording: JSONMember, _ line: LineParts, number: Int) throws(LineFailure) -> LogHeader {
        if let offset = line.timeKeyOffset { throw LineFailure(offset: offset, message: LogMessage.keyOnHeaderLine("time")) }
        if let offset = line.caseKeyOffset { throw LineFailure(offset: offset, message: LogMessage.keyOnHeaderLine("case")) }
        if let other = line.payload.first(where: { $0.key != "recording" }) {
            throw LineFailure(offset: other.keyOffset, message: LogMessage.keyOnHeaderLine(other.key))
        }
        guard case .object(let members) = recording.value else {
            let found = describeParsed(recording.value, at: recording.valueOffset)
            throw LineFailure(offset: recording.valueOffset,
                              message: LogMessage.wrongType("an object", "for 'recording'", found: found))
        }
        var machine: (String, Int)?
        var spec: (String, Int)?
        for member in members {
            guard member.key == "machine" || member.key == "spec" else {
                throw LineFailure(offset: member.keyOffset, message: LogMessage.unknownHeaderKey(member.key))
            }
            guard case .string(let value) = member.value else {
                let found = describeParsed(member.value, at: member.valueOffset)
                throw LineFailure(offset: member.valueOffset,
                                  message: LogMessage.wrongType("a string", "for '\(member.key)'", found: found))
            }
            if member.key == "machine" { machine = (value, member.valueOffset) } else { spec = (value, member.valueOffset) }
        }
        guard let (name, nameOffset) = machine, let (fingerprint, specOffset) = spec else {
            throw LineFailure(offset: recording.valueOffset, message: LogMessage.incompleteHeader())
        }
        return LogHeader(machine: name, spec: fingerprint, line: number, machineOffset: nameOffset, specOffset: specOffset,
                         text: text)
    }

    /// `describe(_:from:)` for a value parsed earlier in the line: a number or literal ends
    /// at the first delimiter after `start`, not at the parser's position.
    private func describeParsed(_ value: JSONValue, at start: Int) -> String {
        switch value {
        case .number, .bool, .null:
            var stop = start
            while stop < end, stop - start < 24, !LineParser.isDelimiter(bytes[stop]) { stop += 1 }
            let shown = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<stop]), as: UTF8.self)
            return stop < end && !LineParser.isDelimiter(bytes[stop]) ? shown + "…" : shown
        default:
            return value.kindDescription
        }
    }

    /// A byte that ends a number or literal: `,`, `}`, `]` or white space.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == 0x20 || byte == 0x09
            || byte == 0x0D || byte == 0x0A
    }



    /// One key and value of the line's object.
    private mutating func parseLineMember(into line: inout LineParts) throws(LineFailure) {
        let (key, keyOffset) = try parseKey()
        let valueOffset = position
        var duplicate: LineFailure { LineFailure(offset: keyOffset, message: LogMessage.duplicateKey(key)) }
        switch reservedKey(key) {
        case .event:
            guard line.event == nil else { throw duplicate }
            guard line.expectation == nil else {
                throw LineFailure(offset: keyOffset, message: LogMessage.bothEventAndExpect())
            }
            guard current == UInt8(ascii: "\"") else { throw try wrongType("a string", "for 'event'", depth: 2) }
            line.event = (try parseString(), valueOffset)
        case .expect:
            guard line.expectation == nil else { throw duplicate }
            guard line.event == nil else {
                throw LineFailure(offset: keyOffset, message: LogMessage.bothEventAndExpect())
            }
            if let first = line.payload.first {
                throw LineFailure(offset: first.keyOffset, message: LogMessage.keyOnExpectationLine(first.key))
            }
            line.expectation = try parseExpectation(depth: 2)
        case .time:
            guard line.time == nil else { throw duplicate }
            guard current == UInt8(ascii: "-") || LineParser.isDigit(current), position < end else {
                throw try wrongType("a number", "for 'time'", depth: 2)
            }
            line.time = try parseNumber()
            line.timeOffset = valueOffset
            line.timeKeyOffset = keyOffset
        case .case:
            guard line.caseKey == nil else { throw duplicate }
            line.caseKey = try parseCase()
            line.caseOffset = valueOffset
            line.caseKeyOffset = keyOffset
        case nil:
            guard line.payloadKeys.insert(key, existing: line.payload) else { throw duplicate }
            if line.expectation != nil {
                throw LineFailure(offset: keyOffset, message: LogMessage.keyOnExpectationLine(key))
            }
            let value = try parseValue(depth: 2)
            line.payload.append(JSONMember(key: key, value: value, keyOffset: keyOffset, valueOffset: valueOffset))
        }
    }

    /// Which reserved key the key just parsed is, if any.
    private func reservedKey(_ key: String) -> ReservedKey? {
        if lastKeyIs("event", key) { return .event }
        if lastKeyIs("time", key) { return .time }
        if lastKeyIs("case", key) { return .case }
        if lastKeyIs("expect", key) { return .expect }
        return nil
    }

    /// case = string / integer; an integer is kept as its decimal digits, so 7 and "7" match.
    private mutating func parseCase() throws(LineFailure) -> String {
        let start = position
        if current == UInt8(ascii: "\"") { return try parseString() }
        guard current == UInt8(ascii: "-") || LineParser.isDigit(current), position < end else {
            throw try wrongType("a string or an integer", "for 'case'", depth: 2)
        }
        let value = try parseNumber()
        // Integers beyond 2^53 cannot be told apart as doubles, so they cannot name a case.
        guard value == value.rounded(.towardZero), abs(value) <= 9_007_199_254_740_992 else {
            let found = describe(.number(value), from: start)
            throw LineFailure(offset: start, message: LogMessage.wrongType("a string or an integer", "for 'case'",
                                                                           found: found))
        }
        return String(Int64(value))
    }

    /// expect = string / "{" [ ( "state" ":" ( string / "[" string *( "," string ) "]" ) / "vars" ":" object
    ///          / "outputs" ":" array ) ... ] "}"
    private mutating func parseExpectation(depth: Int) throws(LineFailure) -> Expectation {
        let offset = position
        if current == UInt8(ascii: "\"") {
            return Expectation(state: try parseString(), stateOffset: offset, offset: offset)
        }
        guard current == UInt8(ascii: "{"), position < end else {
            throw try wrongType("a state name or an object", "for 'expect'", depth: depth)
        }
        guard depth <= LineParser.maxDepth else {
            throw LineFailure(offset: position, message: LogMessage.nestingTooDeep(limit: LineParser.maxDepth))
        }
        position += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            throw LineFailure(offset: offset, message: LogMessage.emptyExpectation())
        }
        var expectation = Expectation(offset: offset)
        while true {
            let (key, keyOffset) = try parseKey()
            let valueOffset = position
            var duplicate: LineFailure { LineFailure(offset: keyOffset, message: LogMessage.duplicateKey(key)) }
            if lastKeyIs("state", key) {
                guard expectation.states == nil else { throw duplicate }
                if current == UInt8(ascii: "[") {
                    let (names, offsets) = try parseStateList(depth: depth + 1)
                    expectation.states = names
                    expectation.stateOffsets = offsets
                } else {
                    guard current == UInt8(ascii: "\"") else {
                        throw try wrongType("a state name or a list of state names", "for 'state'", depth: depth + 1)
                    }
                    expectation.states = [try parseString()]
                    expectation.stateOffsets = [valueOffset]
                }
            } else if lastKeyIs("vars", key) {
                guard expectation.vars == nil else { throw duplicate }
                guard current == UInt8(ascii: "{") else { throw try wrongType("an object", "for 'vars'", depth: depth + 1) }
                expectation.vars = try parseObject(depth: depth + 1)
            } else if lastKeyIs("outputs", key) {
                guard expectation.outputs == nil else { throw duplicate }
                guard current == UInt8(ascii: "[") else { throw try wrongType("an array", "for 'outputs'", depth: depth + 1) }
                let (names, offsets, arguments) = try parseOutputs(depth: depth + 1)
                expectation.outputs = names
                expectation.outputsOffset = valueOffset
                expectation.outputOffsets = offsets
                if arguments.contains(where: { $0 != nil }) { expectation.outputArguments = arguments }
            } else {
                throw LineFailure(offset: keyOffset, message: LogMessage.unknownExpectationKey(key))
            }
            if try endOfMember() { return expectation }
        }
    }

    /// `["playing", "muted"]`: state names, each with where it starts; at least one.
    private mutating func parseStateList(depth: Int) throws(LineFailure) -> ([String], [Int]) {
        guard depth <= LineParser.maxDepth else {
            throw LineFailure(offset: position, message: LogMessage.nestingTooDeep(limit: LineParser.maxDepth))
        }
        let listOffset = position
        position += 1
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            throw LineFailure(offset: listOffset, message: LogMessage.emptyStateList())
        }
        var names: [String] = []
        var offsets: [Int] = []
        while true {
            let offset = position
            guard current == UInt8(ascii: "\"") else { throw try wrongType("a state name", "in 'state'", depth: depth + 1) }
            names.append(try parseString())
            offsets.append(offset)
            if try endOfElement() { return (names, offsets) }
        }
    }

    /// outputs = "[" [ output *( "," output ) ] "]", output = string / "{" "name": string [ "," "args": array ] "}":
    /// the names, where each starts, and the arguments of those written as objects.
    private mutating func parseOutputs(depth: Int) throws(LineFailure)
        -> ([String], [Int], [Expectation.ExpectedArguments?]) {
        guard depth <= LineParser.maxDepth else {
            throw LineFailure(offset: position, message: LogMessage.nestingTooDeep(limit: LineParser.maxDepth))
        }
        position += 1
        skipWhitespace()
        var names: [String] = []
        var offsets: [Int] = []
        var arguments: [Expectation.ExpectedArguments?] = []
        if current == UInt8(ascii: "]") {
            position += 1
            return (names, offsets, arguments)
        }
        while true {
            let offset = position
            if current == UInt8(ascii: "{") {
                let (name, nameOffset, args) = try parseExpectedOutput(depth: depth + 1)
                names.append(name)
                offsets.append(nameOffset)
                arguments.append(args)
            } else {
                guard current == UInt8(ascii: "\"") else {
                    throw try wrongType("an output's name or {\"name\", \"args\"}", "in 'outputs'", depth: depth + 1)
                }
                names.append(try parseString())
                offsets.append(offset)
                arguments.append(nil)
            }
            if try endOfElement() { return (names, offsets, arguments) }
        }
    }

    /// `{"name": "rated", "args": ["❤️"]}`: an output with the arguments it must have had.
    private mutating func parseExpectedOutput(depth: Int) throws(LineFailure)
        -> (String, Int, Expectation.ExpectedArguments?) {
        guard depth <= LineParser.maxDepth else {
            throw LineFailure(offset: position, message: LogMessage.nestingTooDeep(limit: LineParser.maxDepth))
        }
        let objectOffset = position
        position += 1
        skipWhitespace()
        var name: (String, Int)?
        var args: Expectation.ExpectedArguments?
        if current == UInt8(ascii: "}") {
            throw LineFailure(offset: objectOffset, message: LogMessage.outputWithoutName())
        }
        while true {
            let (key, keyOffset) = try parseKey()
            let valueOffset = position
            let duplicate = LineFailure(offset: keyOffset, message: LogMessage.duplicateKey(key))
            if lastKeyIs("name", key) {
                guard name == nil else { throw duplicate }
                guard current == UInt8(ascii: "\"") else { throw try wrongType("a string", "for 'name'", depth: depth + 1) }
                name = (try parseString(), valueOffset)
            } else if lastKeyIs("args", key) {
                guard args == nil else { throw duplicate }
                guard current == UInt8(ascii: "[") else { throw try wrongType("an array", "for 'args'", depth: depth + 1) }
                args = try parseArguments(depth: depth + 1)
            } else {
                throw LineFailure(offset: keyOffset, message: LogMessage.unknownOutputKey(key))
            }
            if try endOfMember() { break }
        }
        guard let (text, offset) = name else {
            throw LineFailure(offset: objectOffset, message: LogMessage.outputWithoutName())
        }
        // Without "args", only the name is compared, as for a bare name.
        return (text, offset, args)
    }

    /// `[value, …]` with where each value starts.
    private mutating func parseArguments(depth: Int) throws(LineFailure) -> Expectation.ExpectedArguments {
        guard depth <= LineParser.maxDepth else {
            throw LineFailure(offset: position, message: LogMessage.nestingTooDeep(limit: LineParser.maxDepth))
        }
        let offset = position
        position += 1
        skipWhitespace()
        var values: [JSONValue] = []
        var offsets: [Int] = []
        if current == UInt8(ascii: "]") {
            position += 1
            return Expectation.ExpectedArguments(values: values, offset: offset, valueOffsets: offsets)
        }
        while true {
            offsets.append(position)
            values.append(try parseValue(depth: depth + 1))
            if try endOfElement() { return Expectation.ExpectedArguments(values: values, offset: offset, valueOffsets: offsets) }
        }
    }
}

/// The parts of a line's object collected so far.
private struct LineParts {
    var event: (String, Int)?
    var expectation: Expectation?
    var time: Double?
    var timeOffset: Int?
    var caseKey: String?
    var caseOffset: Int?
    /// Where the `time` and `case` keys start (a header refuses them).
    var timeKeyOffset: Int?
    var caseKeyOffset: Int?
    var payload: [JSONMember] = []
    var payloadKeys = KeyIndex()
}
