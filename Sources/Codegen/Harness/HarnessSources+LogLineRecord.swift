extension HarnessSources {
    /// `LogLine+Record.swift` of the harness: a line's object: event, expect, time, case, payload, header.
    static let logLineRecord = #"""
        // A log line's object: `event` or `expect` (not both), `time`, `case`, the payload; a
        // recording header on the first line. The rules and messages of the event-log format.

        /// What the first non-blank line of a log may be besides a record.
        enum ParsedLine {
            case record(LogRecord)
            case header(LogHeader)
        }

        /// The parts of a line's object collected so far.
        private struct LineParts {
            var event: (String, Int)?
            var expectation: LogExpectation?
            var time: Double?
            var timeOffset: Int?
            var caseKey: String?
            var timeKeyOffset: Int?
            var caseKeyOffset: Int?
            var payload: [LogMember] = []
            var payloadKeys = Set<[UInt8]>()
        }

        extension LineReader {
            mutating func parseLine(number: Int, headerAllowed: Bool) throws(LineRefusal) -> ParsedLine {
                skipWhitespace()
                let objectOffset = position
                guard current == 0x7B, position < end else { throw unexpected("'{' to start a JSON object", at: position) }
                position += 1
                skipWhitespace()
                var line = LineParts()
                if current == 0x7D {
                    position += 1
                } else {
                    while true {
                        try parseLineMember(into: &line)
                        if try endOfItem(closedBy: 0x7D) { break }
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
                    guard headerAllowed else {
                        throw LineRefusal(offset: recording.keyOffset,
                                          message: "a recording header ('recording') can only be the first line of a log")
                    }
                    return .header(try header(recording, line, number: number))
                } else {
                    throw LineRefusal(offset: objectOffset, message: "expected an 'event' or 'expect' key, found neither")
                }
                return .record(LogRecord(line: number, body: body, time: line.time, timeOffset: line.timeOffset,
                                         caseKey: line.caseKey, text: bytes))
            }

            private func header(_ recording: LogMember, _ line: LineParts, number: Int) throws(LineRefusal) -> LogHeader {
                func keyOnHeader(_ key: String) -> String { "unexpected key '\(key)' on a recording header; it holds only 'recording'" }
                if let offset = line.timeKeyOffset { throw LineRefusal(offset: offset, message: keyOnHeader("time")) }
                if let offset = line.caseKeyOffset { throw LineRefusal(offset: offset, message: keyOnHeader("case")) }
                if let other = line.payload.first(where: { $0.key != "recording" }) {
                    throw LineRefusal(offset: other.keyOffset, message: keyOnHeader(other.key))
                }
                guard case .object(let members) = recording.value else {
                    throw LineRefusal(offset: recording.valueOffset,
                                      message: "expected an object for 'recording', found \(describeParsed(recording.value, at: recording.valueOffset))")
                }
                var machine: (String, Int)?
                var spec: (String, Int)?
                for member in members {
                    guard member.key == "machine" || member.key == "spec" else {
                        throw LineRefusal(offset: member.keyOffset,
                                          message: "unknown key '\(member.key)' in 'recording'; expected 'machine' or 'spec'")
                    }
                    guard case .string(let value) = member.value else {
                        throw LineRefusal(offset: member.valueOffset,
                                          message: "expected a string for '\(member.key)', found \(describeParsed(member.value, at: member.valueOffset))")
                    }
                    if member.key == "machine" { machine = (value, member.valueOffset) } else { spec = (value, member.valueOffset) }
                }
                guard let (name, nameOffset) = machine, let (fingerprint, specOffset) = spec else {
                    throw LineRefusal(offset: recording.valueOffset, message: "expected both 'machine' and 'spec' in 'recording'")
                }
                return LogHeader(machine: name, spec: fingerprint, line: number, machineOffset: nameOffset, specOffset: specOffset,
                                 text: bytes)
            }

            private mutating func parseLineMember(into line: inout LineParts) throws(LineRefusal) {
                let (key, keyOffset) = try parseKey()
                let valueOffset = position
                let duplicate = LineRefusal(offset: keyOffset, message: "duplicate key '\(key)'")
                let bothKeys = LineRefusal(offset: keyOffset, message: "a line cannot have both 'event' and 'expect'")
                func onExpectationLine(_ key: String) -> String {
                    "unexpected key '\(key)' on an expectation line; only 'time' and 'case' may go with 'expect'"
                }
                switch key {
                case "event":
                    guard line.event == nil else { throw duplicate }
                    guard line.expectation == nil else { throw bothKeys }
                    guard current == 0x22 else { throw try wrongType("a string", "for 'event'", depth: 2) }
                    line.event = (try parseString(), valueOffset)
                case "expect":
                    guard line.expectation == nil else { throw duplicate }
                    guard line.event == nil else { throw bothKeys }
                    if let first = line.payload.first {
                        throw LineRefusal(offset: first.keyOffset, message: onExpectationLine(first.key))
                    }
                    line.expectation = try parseExpectation(depth: 2)
                case "time":
                    guard line.time == nil else { throw duplicate }
                    guard current == 0x2D || LineReader.isDigit(current), position < end else {
                        throw try wrongType("a number", "for 'time'", depth: 2)
                    }
                    line.time = try parseNumber()
                    line.timeOffset = valueOffset
                    line.timeKeyOffset = keyOffset
                case "case":
                    guard line.caseKey == nil else { throw duplicate }
                    line.caseKey = try parseCase()
                    line.caseKeyOffset = keyOffset
                default:
                    guard line.payloadKeys.insert(Array(key.utf8)).inserted else { throw duplicate }
                    if line.expectation != nil { throw LineRefusal(offset: keyOffset, message: onExpectationLine(key)) }
                    let value = try parseValue(depth: 2)
                    line.payload.append(LogMember(key: key, value: value, keyOffset: keyOffset, valueOffset: valueOffset))
                }
            }

            /// A string, or an integer kept as its decimal digits (so 7 and "7" are one case).
            private mutating func parseCase() throws(LineRefusal) -> String {
                let start = position
                if current == 0x22 { return try parseString() }
                guard current == 0x2D || LineReader.isDigit(current), position < end else {
                    throw try wrongType("a string or an integer", "for 'case'", depth: 2)
                }
                let value = try parseNumber()
                guard value == value.rounded(.towardZero), abs(value) <= 9_007_199_254_740_992 else {
                    throw LineRefusal(offset: start,
                                      message: "expected a string or an integer for 'case', found \(describe(.number(value), from: start))")
                }
                return String(Int64(value))
            }

            private mutating func parseExpectation(depth: Int) throws(LineRefusal) -> LogExpectation {
                let offset = position
                if current == 0x22 {
                    var expectation = LogExpectation(offset: offset)
                    expectation.states = [try parseString()]
                    expectation.stateOffsets = [offset]
                    return expectation
                }
                guard current == 0x7B, position < end else {
                    throw try wrongType("a state name or an object", "for 'expect'", depth: depth)
                }
                guard depth <= LineReader.maxDepth else { throw tooDeep() }
                position += 1
                skipWhitespace()
                if current == 0x7D {
                    throw LineRefusal(offset: offset, message: "expected 'state', 'vars' or 'outputs' in 'expect', found an empty object")
                }
                var expectation = LogExpectation(offset: offset)
                while true {
                    let (key, keyOffset) = try parseKey()
                    let valueOffset = position
                    let duplicate = LineRefusal(offset: keyOffset, message: "duplicate key '\(key)'")
                    switch key {
                    case "state":
                        guard expectation.states == nil else { throw duplicate }
                        if current == 0x5B {
                            let (names, offsets) = try parseStateList(depth: depth + 1)
                            expectation.states = names
                            expectation.stateOffsets = offsets
                        } else {
                            guard current == 0x22 else {
                                throw try wrongType("a state name or a list of state names", "for 'state'", depth: depth + 1)
                            }
                            expectation.states = [try parseString()]
                            expectation.stateOffsets = [valueOffset]
                        }
                    case "vars":
                        guard expectation.vars == nil else { throw duplicate }
                        guard current == 0x7B else { throw try wrongType("an object", "for 'vars'", depth: depth + 1) }
                        expectation.vars = try parseObject(depth: depth + 1)
                    case "outputs":
                        guard expectation.outputs == nil else { throw duplicate }
                        guard current == 0x5B else { throw try wrongType("an array", "for 'outputs'", depth: depth + 1) }
                        let (names, offsets, arguments) = try parseOutputs(depth: depth + 1)
                        expectation.outputs = names
                        expectation.outputsOffset = valueOffset
                        expectation.outputOffsets = offsets
                        if arguments.contains(where: { $0 != nil }) { expectation.outputArguments = arguments }
                    default:
                        throw LineRefusal(offset: keyOffset, message: "unknown key '\(key)' in 'expect'; expected 'state', 'vars' or 'outputs'")
                    }
                    if try endOfItem(closedBy: 0x7D) { return expectation }
                }
            }

            private mutating func parseStateList(depth: Int) throws(LineRefusal) -> ([String], [Int]) {
                guard depth <= LineReader.maxDepth else { throw tooDeep() }
                let listOffset = position
                position += 1
                skipWhitespace()
                if current == 0x5D {
                    throw LineRefusal(offset: listOffset, message: "expected at least one state name in 'state', found an empty list")
                }
                var names: [String] = []
                var offsets: [Int] = []
                while true {
                    let offset = position
                    guard current == 0x22 else { throw try wrongType("a state name", "in 'state'", depth: depth + 1) }
                    names.append(try parseString())
                    offsets.append(offset)
                    if try endOfItem(closedBy: 0x5D) { return (names, offsets) }
                }
            }

            private mutating func parseOutputs(depth: Int) throws(LineRefusal)
                -> ([String], [Int], [LogExpectation.ExpectedArguments?]) {
                guard depth <= LineReader.maxDepth else { throw tooDeep() }
                position += 1
                skipWhitespace()
                var names: [String] = []
                var offsets: [Int] = []
                var arguments: [LogExpectation.ExpectedArguments?] = []
                if current == 0x5D {
                    position += 1
                    return (names, offsets, arguments)
                }
                while true {
                    let offset = position
                    if current == 0x7B {
                        let (name, nameOffset, args) = try parseExpectedOutput(depth: depth + 1)
                        names.append(name)
                        offsets.append(nameOffset)
                        arguments.append(args)
                    } else {
                        guard current == 0x22 else {
                            throw try wrongType("an output's name or {\"name\", \"args\"}", "in 'outputs'", depth: depth + 1)
                        }
                        names.append(try parseString())
                        offsets.append(offset)
                        arguments.append(nil)
                    }
                    if try endOfItem(closedBy: 0x5D) { return (names, offsets, arguments) }
                }
            }

            private mutating func parseExpectedOutput(depth: Int) throws(LineRefusal)
                -> (String, Int, LogExpectation.ExpectedArguments?) {
                guard depth <= LineReader.maxDepth else { throw tooDeep() }
                let objectOffset = position
                let withoutName = LineRefusal(offset: objectOffset,
                                              message: "an output in 'outputs' needs its 'name': {\"name\": \"rated\", \"args\": [...]}")
                position += 1
                skipWhitespace()
                if current == 0x7D { throw withoutName }
                var name: (String, Int)?
                var args: LogExpectation.ExpectedArguments?
                while true {
                    let (key, keyOffset) = try parseKey()
                    let valueOffset = position
                    let duplicate = LineRefusal(offset: keyOffset, message: "duplicate key '\(key)'")
                    switch key {
                    case "name":
                        guard name == nil else { throw duplicate }
                        guard current == 0x22 else { throw try wrongType("a string", "for 'name'", depth: depth + 1) }
                        name = (try parseString(), valueOffset)
                    case "args":
                        guard args == nil else { throw duplicate }
                        guard current == 0x5B else { throw try wrongType("an array", "for 'args'", depth: depth + 1) }
                        args = try parseArguments(depth: depth + 1)
                    default:
                        throw LineRefusal(offset: keyOffset, message: "unknown key '\(key)' in an output; expected 'name' or 'args'")
                    }
                    if try endOfItem(closedBy: 0x7D) { break }
                }
                guard let (text, offset) = name else { throw withoutName }
                return (text, offset, args)
            }

            private mutating func parseArguments(depth: Int) throws(LineRefusal) -> LogExpectation.ExpectedArguments {
                guard depth <= LineReader.maxDepth else { throw tooDeep() }
                let offset = position
                position += 1
                skipWhitespace()
                var values: [LogJSON] = []
                var offsets: [Int] = []
                if current == 0x5D {
                    position += 1
                    return LogExpectation.ExpectedArguments(values: values, offset: offset, valueOffsets: offsets)
                }
                while true {
                    offsets.append(position)
                    values.append(try parseValue(depth: depth + 1))
                    if try endOfItem(closedBy: 0x5D) {
                        return LogExpectation.ExpectedArguments(values: values, offset: offset, valueOffsets: offsets)
                    }
                }
            }
        }

        """#
}
