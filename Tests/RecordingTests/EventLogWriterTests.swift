import Foundation
import Statecraft
import StatecraftRecording
import Testing
import TestSupport

/// What the writer writes, byte for byte, and what it refuses.
@Suite struct EventLogWriterTests {
    /// The text a writer hands its sink, once closed.
    static func written(_ body: (EventLogWriter) throws -> Void) throws -> String {
        var bytes: [UInt8] = []
        let writer = EventLogWriter { bytes += $0 }
        try body(writer)
        try writer.close()
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func eventLinesAsTheFormatShowsThem() throws {
        let text = try Self.written { log in
            try log.event("touchBegan") { line throws(EventLogWriter.Failure) in
                try line.number("y", 40)
                try line.bool("onContent", true)
            }
            try log.event("touchMoved", time: 1.25) { line throws(EventLogWriter.Failure) in try line.number("y", 312.5) }
            try log.event("tap", time: 0, case: "a") { line throws(EventLogWriter.Failure) in try line.string("who", "me") }
            try log.event("tap", case: 7)
            try log.event("rated", payload: [("stars", .number(-0.0)), ("tiny", .number(.leastNonzeroMagnitude)), ("big", .number(1e300))])
            try log.event("d", payload: [("a", .number(0.1)), ("b", .number(-0.05)), ("c", .number(12345.015625)),
                                         ("e", .number(1e-7)), ("f", .number(0.1 + 0.2))])
        }
        #expect(text == """
            {"event": "touchBegan", "y": 40, "onContent": true}
            {"time": 1.25, "event": "touchMoved", "y": 312.5}
            {"time": 0, "case": "a", "event": "tap", "who": "me"}
            {"case": 7, "event": "tap"}
            {"event": "rated", "stars": -0.0, "tiny": 5e-324, "big": 1e+300}
            {"event": "d", "a": 0.1, "b": -0.05, "c": 12345.015625, "e": 0.0000001, "f": 0.30000000000000004}

            """)
    }

    @Test func expectationLines() throws {
        let text = try Self.written { log in
            try log.expect(state: "open")
            try log.expect(LogExpectation(states: ["playing", "muted"]), time: 2, case: 1)
            try log.expect(LogExpectation(states: ["closed"], vars: [.init("directionTop", .bool(true)), .init("originY", .number(-617))]))
            try log.expect(LogExpectation(outputs: []))
            try log.expect(LogExpectation(outputs: [ExpectedOutput("didRefresh"), ExpectedOutput("rated", arguments: [.string("❤️"), .number(2)])]))
        }
        #expect(text == """
            {"expect": "open"}
            {"time": 2, "case": 1, "expect": {"state": ["playing", "muted"]}}
            {"expect": {"state": "closed", "vars": {"directionTop": true, "originY": -617}}}
            {"expect": {"outputs": []}}
            {"expect": {"outputs": ["didRefresh", {"name": "rated", "args": ["❤️", 2]}]}}

            """)
    }

    @Test func stringsAreEscapedAsJSONRequires() throws {
        let every = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) }))
        let text = try Self.written { log in
            try log.event("e") { line throws(EventLogWriter.Failure) in
                try line.string("s", "\"quoted\" back\\slash é 😀 \u{7F}")
                try line.string("c", every)
            }
        }
        let expected = #"{"event": "e", "s": "\"quoted\" back\\slash é 😀 "# + "\u{7F}" + #"", "c": ""#
            + #"\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f"#
            + #"\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f"}"# + "\n"
        #expect(text == expected)
    }

    /// The writer copies strings eight bytes at a time until a byte needs an escape: put each
    /// such byte (and an ASCII and a non-ASCII neighbour) at every position of a string longer
    /// than two words, and compare with escaping done one byte at a time.
    @Test func everyEscapeAtEveryPositionOfALongString() throws {
        func escapedByteByByte(_ bytes: [UInt8]) -> String {
            var out = Array("\"".utf8)
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""): out += Array("\\\"".utf8)
                case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
                case 0x08: out += Array("\\b".utf8)
                case 0x09: out += Array("\\t".utf8)
                case 0x0A: out += Array("\\n".utf8)
                case 0x0C: out += Array("\\f".utf8)
                case 0x0D: out += Array("\\r".utf8)
                case ..<0x20: out += Array(("\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)).utf8)
                default: out.append(byte)
                }
            }
            return String(decoding: out + Array("\"".utf8), as: UTF8.self)
        }
        let specials = (0..<0x20).map(UInt8.init) + [UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "!"), UInt8(ascii: "]"), 0x7F]
        for special in specials {
            for position in 0..<20 {
                // "é" (two UTF-8 bytes, both >= 0x80) around the position, ASCII elsewhere.
                var scalars = Array("abcdefghijklmnopqrst".unicodeScalars)
                scalars[position] = Unicode.Scalar(special)
                if position > 0 { scalars[position - 1] = "é" }
                let string = String(String.UnicodeScalarView(scalars))
                let text = try Self.written { log in
                    try log.event("e") { line throws(EventLogWriter.Failure) in try line.string("s", string) }
                }
                let expected = "{\"event\": \"e\", \"s\": " + escapedByteByByte(Array(string.utf8)) + "}\n"
                #expect(text == expected, "byte \(special) at \(position)")
            }
        }
    }

    /// Numbers in fixed point are as short as Swift's shortest round-trip digits
    /// (`description`, less a trailing `.0`) and read back as the same double: random decimals
    /// with up to eight fraction digits, and random doubles. (Where two decimals of that length
    /// read back, `description` takes the nearer to the double's exact value, and the writer
    /// may take the other.)
    @Test func decimalsAreTheShortestThatReadBack() throws {
        var rng = SplitMix64(seed: 33)
        var values: [Double] = []
        for _ in 0..<5_000 {
            let digits = Double(Int(rng.next() % 1_000_000_000))
            let scale = [1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8][Int(rng.next() % 8)]
            values.append((rng.next() & 1 == 0 ? 1 : -1) * digits / scale)
            values.append(Double(rng.next() % 1_000_000) * Double.random(in: 0..<1, using: &rng))
        }
        for value in values where value != 0 {
            var shortest = value.description
            guard !shortest.contains("e") else { continue }  // (exponent form: the writer's is Swift's)
            if shortest.hasSuffix(".0") { shortest.removeLast(2) }
            let text = try Self.written { log in try log.event("n", payload: [("v", .number(value))]) }
            let prefix = "{\"event\": \"n\", \"v\": "
            let written = text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count).dropLast(2)) : text
            #expect(written.count == shortest.count && Double(written) == value, "\(written) for \(shortest)")
        }
    }

    /// Times in 1/64 s and coordinates in half points take a shortcut (`binaryFraction`) to
    /// the digits the general search (`shortDecimal`) finds: the same digits, for random
    /// binary fractions of every size, and nothing where the shortcut does not apply.
    @Test func binaryFractionsTakeTheShortcutToTheSameDigits() {
        #expect(EventLogWriter.binaryFraction(1.0 / 64).map { [$0.0, Int64($0.1)] } == [15625, 6])
        #expect(EventLogWriter.binaryFraction(-312.5).map { [$0.0, Int64($0.1)] } == [-3125, 1])
        for other in [600, 0, 0.1, 1e-300, 0x1p60 + 0x1p8, 1.0 / 3] {
            #expect(EventLogWriter.binaryFraction(other) == nil, "\(other)")
        }
        var rng = SplitMix64(seed: 64)
        var shortcuts = 0
        for _ in 0..<50_000 {
            let bits = Int(rng.next() % 60)
            let numerator = Int64(bitPattern: rng.next()) >> (Int(rng.next() % 64))
            let value = Double(numerator) / Double(1 << Int(rng.next() % 24)) * (rng.next() & 1 == 0 ? 1 : Double(1 << bits))
            guard let fast = EventLogWriter.binaryFraction(value) else { continue }
            shortcuts += 1
            let slow = EventLogWriter.shortDecimal(value)
            #expect(slow?.0 == fast.0 && slow?.1 == fast.1, "\(value): \(fast) against \(String(describing: slow))")
        }
        #expect(shortcuts > 10_000)
    }

    /// A writer reuses the last lines' event name and keys (their quoted bytes, their checks):
    /// line after line it writes what a fresh writer writes for each line alone, and refuses
    /// what that refuses (a key repeated, in the same place as a cached one or not; a reserved
    /// key), on random lines from a few names and keys so that lines often repeat the last.
    @Test func reusedKeysWriteAndRefuseAsAFreshWriter() throws {
        var rng = SplitMix64(seed: 9)
        let names = ["touchMoved", "touchBegan", "a\"b", "touchMoved"]
        // (Written `, "key": `, "ab" is 8 bytes, "abcdefghij" 16 and "abcdefghijk" 17: the copy's
        // word boundaries.)
        let keys = ["y", "onContent", "x", "time", "caf\u{E9}", "y", "\n", "ab", "abcdefghij", "abcdefghijk"]
        var lines: [(name: String, keys: [String])] = []
        for _ in 0..<3_000 {
            let name = names[Int(rng.next() % UInt64(names.count))]
            if let last = lines.last, rng.next() % 3 > 0 {
                // Mostly the last line's keys, sometimes one changed, dropped or added.
                var same = last.keys
                switch rng.next() % 6 {
                case 0 where !same.isEmpty: same[Int(rng.next() % UInt64(same.count))] = keys[Int(rng.next() % UInt64(keys.count))]
                case 1 where !same.isEmpty: same.removeLast()
                case 2: same.append(keys[Int(rng.next() % UInt64(keys.count))])
                default: break
                }
                lines.append((rng.next() % 4 == 0 ? name : last.name, same))
            } else {
                lines.append((name, (0..<Int(rng.next() % 4)).map { _ in keys[Int(rng.next() % UInt64(keys.count))] }))
            }
        }
        func write(_ line: (name: String, keys: [String]), to log: EventLogWriter) -> EventLogWriter.Failure? {
            do {
                try log.event(line.name, time: 0.5) { fields throws(EventLogWriter.Failure) in
                    for (k, key) in line.keys.enumerated() { try fields.number(key, Double(k)) }
                }
                return nil
            } catch {
                return error
            }
        }
        var bytes: [UInt8] = []
        let longLived = EventLogWriter { bytes += $0 }
        var expected = ""
        var refused = 0
        for (k, line) in lines.enumerated() {
            var alone: [UInt8] = []
            let fresh = EventLogWriter { alone += $0 }
            let freshFailure = write(line, to: fresh)
            try fresh.close()
            expected += String(decoding: alone, as: UTF8.self)
            let failure = write(line, to: longLived)
            #expect(failure == freshFailure, "line \(k): \(line)")
            if failure != nil { refused += 1 }
        }
        try longLived.close()
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(refused > 100 && refused < 2_500, "\(refused) of \(lines.count) lines refused")
    }

    @Test func theHeaderComesFirstOrNotAtAll() throws {
        let text = try Self.written { log in
            try log.header(machine: "Drawer", spec: SpecFingerprint(value: 0x0123_4567_89ab_cdef))
            try log.event("tap")
            #expect(throws: EventLogWriter.Failure.headerNotFirst) { try log.header(machine: "Drawer", specText: "machine Drawer {}") }
        }
        #expect(text == "{\"recording\": {\"machine\": \"Drawer\", \"spec\": \"0123456789abcdef\"}}\n{\"event\": \"tap\"}\n")
    }

    /// A refused line leaves nothing behind, not even the part written before the refusal.
    @Test func aRefusedLineIsDroppedWhole() throws {
        let text = try Self.written { log in
            try log.event("a")
            #expect(throws: EventLogWriter.Failure.nonFiniteNumber(field: "y", value: .infinity)) {
                try log.event("b", time: 1) { line throws(EventLogWriter.Failure) in
                    try line.bool("ok", true)
                    try line.number("y", .infinity)
                }
            }
            #expect(throws: EventLogWriter.Failure.nonFiniteNumber(field: "time", value: -.infinity)) {
                try log.event("b", time: -.infinity)
            }
            #expect(throws: EventLogWriter.Failure.reservedKey("time")) {
                try log.event("b") { line throws(EventLogWriter.Failure) in try line.number("time", 1) }
            }
            #expect(throws: EventLogWriter.Failure.duplicateKey("y")) {
                try log.event("b") { line throws(EventLogWriter.Failure) in
                    try line.number("y", 1)
                    try line.string("y", "again")
                }
            }
            #expect(throws: EventLogWriter.Failure.caseOutOfRange(1 << 60)) { try log.event("b", case: .number(1 << 60)) }
            #expect(throws: EventLogWriter.Failure.emptyExpectation) { try log.expect(LogExpectation()) }
            #expect(throws: EventLogWriter.Failure.emptyExpectation) { try log.expect(LogExpectation(states: [])) }
            #expect(throws: EventLogWriter.Failure.duplicateKey("x")) {
                try log.expect(LogExpectation(vars: [.init("x", .number(1)), .init("x", .number(2))]))
            }
            do throws(EventLogWriter.Failure) {
                try log.expect(LogExpectation(outputs: [ExpectedOutput("o", arguments: [.number(1), .number(.nan)])]))
                Issue.record("a NaN argument was written")
            } catch {
                #expect(error.description == "'outputs[0].args[1]' is nan: a log's numbers are finite")
            }
            try log.event("c")
        }
        #expect(text == "{\"event\": \"a\"}\n{\"event\": \"c\"}\n")
    }

    /// Nothing reaches the sink before the buffer fills or a flush; then whole lines only.
    @Test func outputIsBufferedAndLinesArriveWhole() throws {
        var pieces: [String] = []
        let writer = EventLogWriter(bufferSize: 64) { pieces.append(String(decoding: $0, as: UTF8.self)) }
        try writer.event("a")
        #expect(pieces.isEmpty)
        try writer.flush()
        #expect(pieces == ["{\"event\": \"a\"}\n"])
        for k in 0..<20 { try writer.event("e\(k)") { line throws(EventLogWriter.Failure) in try line.number("k", Double(k)) } }
        #expect(pieces.count > 2)
        #expect(pieces.allSatisfy { $0.hasSuffix("\n") })
        try writer.close()
        try writer.close()
        #expect(throws: EventLogWriter.Failure.closed) { try writer.event("late") }
        #expect(pieces.joined().split(separator: "\n").count == 21)
    }

    /// A sink that fails keeps the lines for the next flush.
    @Test func aFailingSinkKeepsTheLines() throws {
        struct Full: Error {}
        var fail = true
        var received = ""
        let writer = EventLogWriter { bytes in
            if fail { throw Full() }
            received += String(decoding: bytes, as: UTF8.self)
        }
        try writer.event("a")
        #expect(throws: EventLogWriter.Failure.self) { try writer.flush() }
        fail = false
        try writer.close()
        #expect(received == "{\"event\": \"a\"}\n")
    }

    /// To a file the writer creates, and to a descriptor it is handed.
    @Test func filesAndDescriptors() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try EventLogWriter.create(path: path)
        try log.event("tap", time: 1)
        try log.close()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"time\": 1, \"event\": \"tap\"}\n")

        let handle = try #require(FileHandle(forWritingAtPath: path))
        let writer = EventLogWriter(fileDescriptor: handle.fileDescriptor)
        try writer.event("again")
        try writer.close()
        try handle.close()
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("{\"event\": \"again\"}\n"))
        #expect(throws: EventLogWriter.Failure.self) { try EventLogWriter.create(path: "/nonexistent-folder/x.jsonl") }
    }
}
