import Testing
import TestSupport
@_spi(RawLines) @testable import StatecraftEventLog

/// The in-place scanner's own shortcuts: finding a line's end while scanning it, short
/// decimals read a word at a time, the usual separators, its reused field store. Each case
/// must give exactly what `next()` gives, however the log is cut into chunks.
@Suite struct FastScannerTests {
    /// `nextRaw` against `next()` over `text`, in memory and streamed through many chunk sizes;
    /// returns how many lines took the in-place path in memory.
    @discardableResult
    private func expectSame(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        expectSame(bytes: Array(text.utf8), sourceLocation: sourceLocation)
    }

    @discardableResult
    private func expectSame(bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let slow = readAll(EventLogReader(bytes: bytes))
        let (raw, fast) = readAllRaw(EventLogReader(bytes: bytes))
        #expect(raw == slow, sourceLocation: sourceLocation)
        for case (.success(let a), .success(let b)) in zip(raw, slow) {
            #expect(sameNumbers(a, b), "\(String(decoding: a.text, as: UTF8.self))", sourceLocation: sourceLocation)
        }
        for chunk in [1, 2, 3, 5, 8, 13, 31, 64] {
            #expect(readAllRaw(chunkedReader(bytes, chunk: chunk)).results == slow, "chunk \(chunk)",
                    sourceLocation: sourceLocation)
        }
        #expect(readAllRaw(chunkedReader(bytes, chunk: 16, readSize: 3)).results == slow, sourceLocation: sourceLocation)
        // Batches: whole, and cut at every few lines or bytes, over chunks of every size.
        #expect(readAllBatched(EventLogReader(bytes: bytes), lineLimit: 4096, byteLimit: 1 << 19) == slow,
                sourceLocation: sourceLocation)
        for (chunk, lineLimit, byteLimit) in [(1, 1, 1), (3, 2, 1000), (8, 3, 30), (13, 100, 7), (64, 5, 100)] {
            #expect(readAllBatched(chunkedReader(bytes, chunk: chunk), lineLimit: lineLimit, byteLimit: byteLimit) == slow,
                    "chunk \(chunk), lines \(lineLimit), bytes \(byteLimit)", sourceLocation: sourceLocation)
        }
        return fast
    }

    @Test func lineEndsFoundWhileScanning() {
        let line = #"{"time": 1.5, "event": "e", "y": 2}"#
        for end in ["\n", "\r\n", "\r\r\n", " \n", " \t\r\n", "\t \r \n"] {
            let text = [line, line, line].joined(separator: end) + end
            #expect(expectSame(text) == 3, "\(Array(end.utf8))")
        }
        // Blank and whitespace-only lines between event lines, and a last line without a newline.
        #expect(expectSame(line + "\n\n   \n\t\r\n" + line + "\n \n" + line) == 3)
        #expect(expectSame("\u{FEFF}" + line + "\n" + line + "\r\n" + line + "\r") == 3)
        // A newline inside the object ends the line there: both halves are errors.
        expectSame(#"{"event": "e","# + "\n" + #""y": 1}"# + "\n" + line)
        expectSame(#"{"event": "e", "y": 12"# + "\n" + #"34}"# + "\n" + line)
        expectSame(#"{"event": "e", "y": tr"# + "\n" + #"ue}"#)
        expectSame(#"{"event": "e", "s": "a"# + "\n" + #"b"}"#)
        expectSame(#"{"event": "e", "y": 1"# + "\n" + "}\n" + line)
        expectSame(#"{"event": "e"}"# + "\n}\n{\n" + line)
        expectSame(#"{"event": "e"} "# + "\r" + #" {"event": "f"}"# + "\n")
    }

    /// Numbers of every length around the 8-byte word, with every kind of byte after them.
    @Test func decimalsAroundTheWordSize() {
        var lines: [String] = []
        var numbers: [String] = ["0", "-0", "0.0", "-0.0", "00", "-00", "01", "0.", "-", "-.5", ".5", "1.", "1.e3",
                                 "0.000001", "0.1234567", "1234567.8", "12345678", "123456789", "9007199254740993",
                                 "9007199254740992", "9007199254740992.5", "0.30000000000000004", "1e22", "1e23",
                                 "123456.7e-3", "-999999.9", "99999999", "1.000000000000000000001"]
        for integer in 1...10 {
            for fraction in 0...9 {
                let digits = String("9182736450918273645".prefix(integer))
                let number = fraction == 0 ? digits : digits + "." + String("3141592653".prefix(fraction))
                numbers.append(number)
                numbers.append("-" + number)
            }
        }
        for number in numbers {
            for after in ["}", ",\"z\": 0}", " }", "e5}", "E-2}", "e}", "x}", ".5}", "0}"] {
                lines.append(#"{"event": "e", "x": "# + number + after)
                lines.append(#"{"time": "# + number + #", "event": "e", "y": "# + number + after)
            }
        }
        let fast = expectSame(lines.joined(separator: "\n"))
        #expect(fast > lines.count / 4)
        // A number right at the end of what the buffer holds, where no 8-byte word fits.
        for number in ["1", "-12.5", "1234567", "0.5"] {
            expectSame(#"{"event":"e","x":"# + number + "}")
            expectSame(#"{"event":"e","x":"# + number + "}\n")
        }
    }

    /// Strings whose quote, escape, control byte or multi-byte character falls at each offset of
    /// an 8-byte word, as keys, names and values.
    @Test func stringsAroundTheWordSize() {
        var lines: [String] = []
        for length in 0...17 {
            let plain = String(repeating: "a", count: length)
            for special in ["", #"\""#, #"\\"#, "\t", "é", "😀", "\u{7F}", #"\u0041"#] {
                let text = plain + special + "b"
                lines.append(#"{"event": ""# + text + #""}"#)
                lines.append(#"{"event": "e", ""# + text + #"": 1}"#)
                lines.append(#"{"event": "e", "s": ""# + text + #""}"#)
                lines.append(#"{"event": "e", "case": ""# + text + #"", "t": true}"#)
            }
        }
        expectSame(lines.joined(separator: "\n"))
        var bytes: [UInt8] = []
        for length in 0...9 {
            for bad: [UInt8] in [[0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xFF], [0xED, 0xA0, 0x80]] {
                bytes += Array(#"{"event": "e", "s": ""#.utf8) + Array(repeating: 0x61, count: length) + bad
                    + Array(#""}"#.utf8) + [0x0A]
            }
        }
        expectSame(bytes: bytes)
    }

    @Test func separatorsWithAndWithoutTheUsualSpaces() {
        let lines = [
            #"{"event":"e","y":1,"z":"s"}"#, #"{"event" :"e" , "y" :1 ,"z": "s"}"#,
            #"{"event":  "e",  "y":   1}"#, "{\"event\": \"e\",\t\"y\":\t1}", #"{"event": "e", "y": 1, }"#,
            #"{"event": "e", , "y": 1}"#, #"{"event": "e", "y": 1 , "z": 2}"#, #"{"event": "e", "y"  : 1}"#,
            #"{"event": "e", "y": : 1}"#, #"{"event": "e", "y":, "z": 1}"#, #"{"event": "e", "y": 1,"#,
            #"{"event": "e", "y""#, #"{"event": "e", "y":"#, #"{"event": "e", "y": "#, #"{"event": "e", "#,
            #"{"event": "e", ""#, #"{"event": "e"  ,"y": 1}"#,
        ]
        #expect(expectSame(lines.joined(separator: "\n")) == 7)
    }

    @Test func wideLinesGrowTheFieldStore() {
        func line(_ width: Int) -> String {
            "{" + ((0..<width).map { #""f\#($0)": \#($0)"# } + [#""event": "e""#]).joined(separator: ", ") + "}"
        }
        let text = [line(1), line(20), line(3), line(70), line(0), line(9)].joined(separator: "\n")
        #expect(expectSame(text) == 6)
        #expect(expectSame(line(40)) == 1)
    }

    /// Names that differ in a single byte, at every position of every length up to 20: the
    /// table's word-at-a-time hash and compare must tell each apart.
    @Test func nameTableTellsApartNamesDifferingInOneByte() {
        var names: [String] = []
        for length in 0...20 {
            let base = String((0..<length).map { Character(Unicode.Scalar(UInt8(97 + $0 % 26))) })
            names.append(base)
            for position in 0..<length {
                var bytes = Array(base.utf8)
                bytes[position] = UInt8(ascii: "Z")
                names.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        let table = ByteNameTable(names)
        for (i, name) in names.enumerated() {
            #expect(Array(name.utf8).withUnsafeBufferPointer { table.index(of: $0) } == i, "\(name)")
            var other = Array(name.utf8)
            for position in other.indices {
                other[position] = UInt8(ascii: "Y")
                #expect(other.withUnsafeBufferPointer { table.index(of: $0) } == nil)
                other[position] = Array(name.utf8)[position]
            }
            #expect((Array(name.utf8) + [0x61]).withUnsafeBufferPointer { table.index(of: $0) } == names.firstIndex(of: name + "a"))
        }
        #expect(ByteNameTable([]).index(of: UnsafeBufferPointer(start: nil, count: 0)) == nil)
        #expect(ByteNameTable(["x", ""]).index(of: UnsafeBufferPointer(start: nil, count: 0)) == 1)
    }

    /// Names added one at a time (a replay's case keys) grow the table: every key added is
    /// found at its position through many rehashes, a repeat keeps its first position, and
    /// keys never added are not found.
    @Test func namesAddedOneAtATimeAreFoundAfterTheTableGrows() {
        var table = ByteNameTable([])
        let keys = (0..<3_000).map { i in i % 3 == 0 ? "view\(i)" : i % 3 == 1 ? "\(i)" : "-\(i)é" }
        for (i, key) in keys.enumerated() {
            #expect(Array(key.utf8).withUnsafeBufferPointer { table.insert($0) } == i)
        }
        #expect(Array("view3".utf8).withUnsafeBufferPointer { table.insert($0) } == 3)
        #expect(table.count == keys.count + 1)
        for (i, key) in keys.enumerated() {
            #expect(Array(key.utf8).withUnsafeBufferPointer { table.index(of: $0) } == i, "\(key)")
            #expect(Array((key + "x").utf8).withUnsafeBufferPointer { table.index(of: $0) } == nil)
        }
    }

    /// Copies of a reader share the field store until one of them reads: a copy read inside
    /// the other's callback must leave that line's fields alone.
    @Test func copiesOfAReaderKeepTheirOwnFields() throws {
        let text = #"{"event": "a", "x": 1, "y": 2}"# + "\n" + #"{"event": "b", "z": 3}"#
        var reader = EventLogReader(bytes: Array(text.utf8))
        var copy = reader
        var seen: [String] = []
        _ = try reader.nextRaw { line in
            guard case .event(let outer) = line else { return }
            let before = outer.record()
            _ = try? copy.nextRaw { inner in
                if case .event(let raw) = inner { seen.append(raw.string(raw.name)) }
            }
            _ = try? copy.nextRaw { inner in
                if case .event(let raw) = inner { seen.append(raw.string(raw.name)) }
            }
            #expect(outer.record() == before)
            seen.append(outer.string(outer.name))
        }
        #expect(seen == ["a", "b", "a"])
    }
}
