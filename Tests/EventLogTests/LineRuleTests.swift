import Testing
@testable import StatecraftEventLog

/// The rules of the event-log format (EventLogFormat article) for a single line: reserved keys,
/// event and expectation lines.
@Suite struct LineRuleTests {
    @Test func theFormatDocumentsExamplesRead() throws {
        let log = """
            {"event": "touchBegan", "y": 40, "onContent": true}
            {"time": 1.25, "event": "touchMoved", "y": 312.5}
            {"expect": "open"}
            {"expect": {"state": "closed", "vars": {"directionTop": true, "originY": -617}}}
            {"expect": {"outputs": ["didRefresh"]}}
            """
        let records = try readAll(log).map { try $0.get() }
        #expect(records.map(\.line) == [1, 2, 3, 4, 5])
        #expect(records[0].body == .event(name: "touchBegan", nameOffset: 10, payload: [
            JSONMember(key: "y", value: .number(40), keyOffset: 24, valueOffset: 29),
            JSONMember(key: "onContent", value: .bool(true), keyOffset: 33, valueOffset: 46),
        ]))
        #expect(records[0].time == nil && records[0].caseKey == nil)
        #expect(records[1].time == 1.25 && records[1].timeOffset == 9)
        #expect(records[1].body == .event(name: "touchMoved", nameOffset: 24, payload: [
            JSONMember(key: "y", value: .number(312.5), keyOffset: 38, valueOffset: 43),
        ]))
        #expect(records[2].body == .expect(Expectation(state: "open", stateOffset: 11, offset: 11)))
        guard case .expect(let e) = records[3].body else {
            Issue.record("line 4 is not an expectation")
            return
        }
        #expect(e.states == ["closed"] && e.stateOffsets == [21] && e.offset == 11)
        #expect(e.vars == [
            JSONMember(key: "directionTop", value: .bool(true), keyOffset: 40, valueOffset: 56),
            JSONMember(key: "originY", value: .number(-617), keyOffset: 62, valueOffset: 73),
        ])
        #expect(e.outputs == nil)
        #expect(records[4].body == .expect(Expectation(outputs: ["didRefresh"], outputsOffset: 23,
                                                       outputOffsets: [24], offset: 11)))
    }

    @Test func keysComeInAnyOrderAndPayloadKeepsLineOrder() throws {
        let r = try #require(record(#"{"b": 2, "case": "x", "time": 3, "a": 1, "event": "e", "c": null}"#))
        #expect(r.body == .event(name: "e", nameOffset: 50, payload: [
            JSONMember(key: "b", value: .number(2), keyOffset: 1, valueOffset: 6),
            JSONMember(key: "a", value: .number(1), keyOffset: 33, valueOffset: 38),
            JSONMember(key: "c", value: .null, keyOffset: 55, valueOffset: 60),
        ]))
        #expect(r.caseKey == "x" && r.caseOffset == 17 && r.time == 3 && r.timeOffset == 30)
    }

    @Test(arguments: [("7", "7"), ("\"7\"", "7"), ("-3", "-3"), ("0", "0"), ("-0", "0"), ("7.0", "7"),
                      ("1e3", "1000"), ("\"a b\"", "a b"), ("\"\"", "")])
    func caseIsAStringOrAnInteger(json: String, key: String) {
        #expect(record(#"{"event":"e","case":"# + json + "}")?.caseKey == key)
    }

    @Test func timeMayBeNegativeOrAnyNumberForm() {
        #expect(record(#"{"event":"e","time":-2.5}"#)?.time == -2.5)
        #expect(record(#"{"event":"e","time":1E2}"#)?.time == 100)
        #expect(record(#"{"expect":"s","time":4,"case":2}"#)?.time == 4)
        #expect(record(#"{"expect":"s","time":4,"case":2}"#)?.caseKey == "2")
    }

    @Test(arguments: [
        // line, column, message
        (#"{"event":"e","event":"f"}"#, 14, "duplicate key 'event'"),
        (#"{"event":"e","y":1,"y":2}"#, 20, "duplicate key 'y'"),
        (#"{"expect":"a","expect":"b"}"#, 15, "duplicate key 'expect'"),
        (#"{"time":1,"event":"e","time":2}"#, 23, "duplicate key 'time'"),
        (#"{"case":1,"case":1,"event":"e"}"#, 11, "duplicate key 'case'"),
        (#"{"event":"e","v":{"a":1,"b":{},"a":2}}"#, 32, "duplicate key 'a'"),
        (#"{"event":"e","\u0079":1,"y":2}"#, 25, "duplicate key 'y'"),
        (#"{"event":"e","expect":"s"}"#, 14, "a line cannot have both 'event' and 'expect'"),
        (#"{"expect":"s","event":"e"}"#, 15, "a line cannot have both 'event' and 'expect'"),
        (#"{"time":1}"#, 1, "expected an 'event' or 'expect' key, found neither"),
        (#"  {}"#, 3, "expected an 'event' or 'expect' key, found neither"),
        (#"{"event":12}"#, 10, "expected a string for 'event', found 12"),
        (#"{"event":null}"#, 10, "expected a string for 'event', found null"),
        (#"{"event":["e"]}"#, 10, "expected a string for 'event', found an array"),
        (#"{"event":"e","time":"1"}"#, 21, "expected a number for 'time', found a string"),
        (#"{"event":"e","time":true}"#, 21, "expected a number for 'time', found true"),
        (#"{"event":"e","time":1e999}"#, 21, "number '1e999' is out of range for a double"),
        (#"{"event":"e","case":1.5}"#, 21, "expected a string or an integer for 'case', found 1.5"),
        (#"{"event":"e","case":true}"#, 21, "expected a string or an integer for 'case', found true"),
        (#"{"event":"e","case":{}}"#, 21, "expected a string or an integer for 'case', found an object"),
        (#"{"event":"e","case":1e300}"#, 21, "expected a string or an integer for 'case', found 1e300"),
        (#"{"expect":3}"#, 11, "expected a state name or an object for 'expect', found 3"),
        (#"{"expect":{}}"#, 11, "expected 'state', 'vars' or 'outputs' in 'expect', found an empty object"),
        (#"{"expect":{"state":1}}"#, 20, "expected a state name or a list of state names for 'state', found 1"),
        (#"{"expect":{"vars":[]}}"#, 19, "expected an object for 'vars', found an array"),
        (#"{"expect":{"outputs":"a"}}"#, 22, "expected an array for 'outputs', found a string"),
        (#"{"expect":{"outputs":["a",2]}}"#, 27, "expected an output's name or {\"name\", \"args\"} in 'outputs', found 2"),
        (#"{"expect":{"state":"a","state":"b"}}"#, 24, "duplicate key 'state'"),
        (#"{"expect":{"vars":{"x":1,"x":2}}}"#, 26, "duplicate key 'x'"),
        (#"{"expect":{"sate":"a"}}"#, 12, "unknown key 'sate' in 'expect'; expected 'state', 'vars' or 'outputs'"),
        (#"{"expect":"a","y":1}"#, 15,
         "unexpected key 'y' on an expectation line; only 'time' and 'case' may go with 'expect'"),
        (#"{"y":1,"time":0,"expect":"a"}"#, 2,
         "unexpected key 'y' on an expectation line; only 'time' and 'case' may go with 'expect'"),
        (#"[{"event":"e"}]"#, 1, "expected '{' to start a JSON object, found '['"),
        (#""event""#, 1, "expected '{' to start a JSON object, found '\"'"),
        (#"42"#, 1, "expected '{' to start a JSON object, found '42'"),
        (#"{"event":"e"} {"event":"f"}"#, 15, "expected end of line after the object, found '{'"),
        (#"{"event":"e"},"#, 14, "expected end of line after the object, found ','"),
        (#"{"event":"e"}x"#, 14, "expected end of line after the object, found 'x'"),
    ])
    func brokenLinesAreErrorsAtTheOffendingColumn(line: String, column: Int, message: String) throws {
        let e = try #require(error(line))
        #expect(e.message == message)
        #expect(e.column == column)
        #expect(e.line == 1)
        #expect(e.text == Array(line.utf8))
    }

    @Test func aBareExpectationStringIsTheState() throws {
        let r = try #require(record(#"{"case": "b", "expect": "idle"}"#))
        #expect(r.body == .expect(Expectation(state: "idle", stateOffset: 24, offset: 24)))
        #expect(r.caseKey == "b")
    }

    /// A statechart's expectation (EventLogFormat article, "Expectation lines"): `state` may be a
    /// list; every named state must be active.
    @Test func anExpectedStateMayBeAListOfStates() throws {
        let r = try #require(record(#"{"expect":{"state":["playing", "muted"]}}"#))
        guard case .expect(let e) = r.body else {
            Issue.record("not an expectation")
            return
        }
        #expect(e.states == ["playing", "muted"])
        #expect(e.stateOffsets == [20, 31])
        #expect(error(#"{"expect":{"state":[]}}"#)?.message == "expected at least one state name in 'state', found an empty list")
        #expect(error(#"{"expect":{"state":[]}}"#)?.column == 20)
        #expect(error(#"{"expect":{"state":["a", 3]}}"#)?.message == "expected a state name in 'state', found 3")
        #expect(error(#"{"expect":{"state":["a", 3]}}"#)?.column == 26)
        #expect(error(#"{"expect":{"state":true}}"#)?.message
            == "expected a state name or a list of state names for 'state', found true")
    }

    @Test func expectationWithEverything() throws {
        let r = try #require(record(#"{"expect":{"outputs":[],"vars":{},"state":"s"}}"#))
        #expect(r.body == .expect(Expectation(state: "s", stateOffset: 42, vars: [], outputs: [], outputsOffset: 21,
                                              outputOffsets: [], offset: 10)))
    }

    @Test func escapedReservedKeysAreReserved() {
        #expect(record(#"{"\u0065vent":"e"}"#)?.body == .event(name: "e", nameOffset: 14, payload: []))
        #expect(record(#"{"expect":{"st\u0061te":"a"}}"#)?.body
            == .expect(Expectation(state: "a", stateOffset: 24, offset: 10)))
        #expect(record(#"{"event":"e","tim\u0065":2}"#)?.time == 2)
        #expect(payload(#"{"event":"e","tim\u0065s":2}"#)?.first?.key == "times")
    }

    @Test func columnsCountScalarsNotBytes() throws {
        // "é" is 2 bytes, "💀" 4: the duplicate `y` starts at byte 24 but column 21.
        let e = try #require(error(#"{"event":"é💀","y":1,"y":2}"#))
        #expect(e.column == 21)
        let r = try #require(record(#"{"event":"é💀","y":1}"#))
        guard case .event(_, _, let payload) = r.body else { return }
        #expect(payload[0].keyOffset == 18)
        #expect(r.column(ofByte: 18) == 15)
        #expect(r.column(ofByte: 0) == 1)
        #expect(r.column(ofByte: r.text.count) == 21)
    }
}
