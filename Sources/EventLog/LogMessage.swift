/// Every message the event-log reader reports, in one place and sorted by name: lowercase, no
/// final period, names in single quotes, "expected X, found Y" for syntax.
enum LogMessage {
    static func bothEventAndExpect() -> String {
        "a line cannot have both 'event' and 'expect'"
    }

    static func outputWithoutName() -> String {
        "an output in 'outputs' needs its 'name': {\"name\": \"rated\", \"args\": [...]}"
    }

    static func unknownOutputKey(_ key: String) -> String {
        "unknown key '\(key)' in an output; expected 'name' or 'args'"
    }

    static func cannotRead(reason: String) -> String {
        "cannot read the log: \(reason)"
    }

    static func controlCharacterInString(_ byte: UInt8) -> String {
        "unescaped control character \(unicodeName(UInt32(byte))) in a string"
    }

    static func duplicateKey(_ key: String) -> String {
        "duplicate key '\(key)'"
    }

    static func emptyStateList() -> String {
        "expected at least one state name in 'state', found an empty list"
    }

    static func emptyExpectation() -> String {
        "expected 'state', 'vars' or 'outputs' in 'expect', found an empty object"
    }

    static func expected(_ what: String, found: String) -> String {
        "expected \(what), found \(found)"
    }

    static func invalidUTF8(_ byte: UInt8) -> String {
        "invalid UTF-8 byte 0x\(hex(UInt32(byte), width: 2))"
    }

    static func headerNotFirst() -> String {
        "a recording header ('recording') can only be the first line of a log"
    }

    static func keyOnHeaderLine(_ key: String) -> String {
        "unexpected key '\(key)' on a recording header; it holds only 'recording'"
    }

    static func unknownHeaderKey(_ key: String) -> String {
        "unknown key '\(key)' in 'recording'; expected 'machine' or 'spec'"
    }

    static func incompleteHeader() -> String {
        "expected both 'machine' and 'spec' in 'recording'"
    }

    static func recordedFromAnotherMachine(_ recorded: String, replaying: String) -> String {
        "the log was recorded from machine '\(recorded)', not '\(replaying)'"
    }

    static func recordedAgainstAnotherSpec(_ recorded: String, replaying: String) -> String {
        "the log was recorded against another version of the spec: its fingerprint was \(recorded), the spec's is \(replaying)"
    }

    static func truncatedLastLine(replayedUpTo line: Int) -> String {
        line > 0 ? "the last line is cut off (no line end, and its object is not closed); replayed up to line \(line)"
            : "the last line is cut off (no line end, and its object is not closed); no line before it"
    }

    static func keyOnExpectationLine(_ key: String) -> String {
        "unexpected key '\(key)' on an expectation line; only 'time' and 'case' may go with 'expect'"
    }

    static func leadingZero() -> String {
        "unexpected digit after a leading '0' in a number"
    }

    static func missingEventOrExpect() -> String {
        "expected an 'event' or 'expect' key, found neither"
    }

    static func nestingTooDeep(limit: Int) -> String {
        "nesting deeper than \(limit) levels"
    }

    static func numberOutOfRange(_ text: String) -> String {
        "number '\(text)' is out of range for a double"
    }

    static func unknownExpectationKey(_ key: String) -> String {
        "unknown key '\(key)' in 'expect'; expected 'state', 'vars' or 'outputs'"
    }

    static func unpairedSurrogate(_ value: UInt32) -> String {
        "unpaired surrogate '\\u\(hex(value, width: 4))' in a string"
    }

    static func wrongType(_ what: String, _ context: String, found: String) -> String {
        "expected \(what) \(context), found \(found)"
    }

    /// `U+0009`: how messages name a character that cannot be shown in quotes.
    static func unicodeName(_ value: UInt32) -> String {
        "U+" + hex(value, width: 4)
    }

    static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
