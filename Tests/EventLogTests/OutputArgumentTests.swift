import Testing
@testable import StatecraftEventLog

/// The EventLogFormat article: an `outputs` element is a name, or `{"name", "args"}` whose
/// arguments are compared.
@Suite struct OutputArgumentTests {
    @Test func namesAndObjectsMix() throws {
        let line = #"{"expect": {"outputs": ["didRefresh", {"name": "rated", "args": ["❤️", 2.5, true]}, {"name": "tick"}]}}"#
        guard case .expect(let e)? = record(line)?.body else {
            Issue.record("not an expectation")
            return
        }
        #expect(e.outputs == ["didRefresh", "rated", "tick"])
        let arguments = try #require(e.outputArguments)
        #expect(arguments.count == 3)
        #expect(arguments[0] == nil)
        #expect(arguments[1]?.values == [.string("❤️"), .number(2.5), .bool(true)])
        // Offsets point into the line: the `[` of args and each value.
        let bytes = Array(line.utf8)
        let args = try #require(arguments[1])
        #expect(bytes[args.offset] == UInt8(ascii: "["))
        #expect(args.valueOffsets.map { bytes[$0] } == [UInt8(ascii: "\""), UInt8(ascii: "2"), UInt8(ascii: "t")])
        #expect(arguments[2] == nil, "without \"args\", only the name is compared")
        // A line of names only keeps no arguments at all.
        guard case .expect(let plain)? = record(#"{"expect": {"outputs": ["a", "b"]}}"#)?.body else { return }
        #expect(plain.outputArguments == nil)
    }

    @Test(arguments: [
        (#"{"expect": {"outputs": [{"args": []}]}}"#, 25, "an output in 'outputs' needs its 'name'"),
        (#"{"expect": {"outputs": [{}]}}"#, 25, "an output in 'outputs' needs its 'name'"),
        (#"{"expect": {"outputs": [{"name": "a", "arg": []}]}}"#, 39, "unknown key 'arg' in an output; expected 'name' or 'args'"),
        (#"{"expect": {"outputs": [{"name": "a", "name": "b"}]}}"#, 39, "duplicate key 'name'"),
        (#"{"expect": {"outputs": [{"name": 3}]}}"#, 34, "expected a string for 'name'"),
        (#"{"expect": {"outputs": [{"name": "a", "args": 3}]}}"#, 47, "expected an array for 'args'"),
        (#"{"expect": {"outputs": [3]}}"#, 25, "expected an output's name or {\"name\", \"args\"} in 'outputs'"),
    ])
    func malformedElementsPointAtTheirColumn(line: String, column: Int, message: String) throws {
        let e = try #require(error(line))
        #expect(e.column == column)
        #expect(e.message.hasPrefix(message), "\(e.message)")
    }
}
