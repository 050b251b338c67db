import Testing
import TestSupport
@_spi(RawLines) @testable import StatecraftEventLog

/// Reads every line with `nextRaw`, turning in-place event lines into records, and counts how
/// many lines took the fast path.
func readAllRaw(_ reader: EventLogReader) -> (results: [Result<LogRecord, LogError>], fast: Int) {
    var reader = reader
    var results: [Result<LogRecord, LogError>] = []
    var fast = 0
    while true {
        do {
            let more = try reader.nextRaw { line in
                switch line {
                case .event(let raw):
                    fast += 1
                    results.append(.success(raw.record()))
                case .record(let record):
                    results.append(.success(record))
                }
            }
            if !more { return (results, fast) }
        } catch {
            results.append(.failure(error))
        }
        if results.count > 1_000_000 { return (results, fast) }
    }
}

/// Reads every line with `readBatch`, through two batches used in turn, and turns a batch's
/// lines into records only after the next batch has been read: a batch's lines must not
/// depend on the reader's buffer once the call returns.
func readAllBatched(_ reader: EventLogReader, lineLimit: Int, byteLimit: Int) -> [Result<LogRecord, LogError>] {
    var reader = reader
    var results: [Result<LogRecord, LogError>] = []
    let batches = [RawLineBatch(lineLimit: lineLimit, byteLimit: byteLimit),
                   RawLineBatch(lineLimit: lineLimit, byteLimit: byteLimit)]
    var previous: (batch: RawLineBatch, failure: LogError?)?
    func collect(_ batch: RawLineBatch, _ failure: LogError?) {
        for entry in batch.entries {
            results.append(.success(entry.record >= 0 ? batch.records[entry.record] : batch.eventLine(entry).record()))
        }
        if let failure { results.append(.failure(failure)) }
    }
    var turn = 0
    while results.count <= 1_000_000 {
        let batch = batches[turn % 2]
        turn += 1
        var more = true
        var failure: LogError?
        do {
            more = try reader.readBatch(into: batch)
        } catch {
            failure = error
        }
        if let (last, lastFailure) = previous { collect(last, lastFailure) }
        previous = (batch, failure)
        if !more { break }
    }
    if let (last, lastFailure) = previous { collect(last, lastFailure) }
    return results
}

/// Doubles compared by bit pattern, so 0 and -0 differ.
func sameNumbers(_ a: LogRecord, _ b: LogRecord) -> Bool {
    guard a.time?.bitPattern == b.time?.bitPattern else { return false }
    guard case .event(_, _, let p) = a.body, case .event(_, _, let q) = b.body else { return true }
    for (x, y) in zip(p, q) {
        if case .number(let m) = x.value, case .number(let n) = y.value, m.bitPattern != n.bitPattern { return false }
    }
    return true
}

/// `nextRaw` must give exactly what `next()` gives: the same records, the same errors with
/// the same line and column, whichever path a line takes.
@Suite struct FastPathEquivalenceTests {
    private func expectSame(_ text: String, chunk: Int = 7, sourceLocation: SourceLocation = #_sourceLocation) {
        let bytes = Array(text.utf8)
        let slow = readAll(EventLogReader(bytes: bytes))
        let raw = readAllRaw(EventLogReader(bytes: bytes)).results
        #expect(raw == slow, sourceLocation: sourceLocation)
        for case (.success(let a), .success(let b)) in zip(raw, slow) {
            #expect(sameNumbers(a, b), "\(text)", sourceLocation: sourceLocation)
        }
        #expect(readAllRaw(chunkedReader(bytes, chunk: chunk)).results == slow, sourceLocation: sourceLocation)
        #expect(readAllBatched(EventLogReader(bytes: bytes), lineLimit: 4096, byteLimit: 1 << 19) == slow,
                sourceLocation: sourceLocation)
        #expect(readAllBatched(chunkedReader(bytes, chunk: chunk), lineLimit: 2, byteLimit: 40) == slow,
                sourceLocation: sourceLocation)
    }

    static let plainLines = [
        #"{"time": 0.016, "event": "touchMoved", "y": 312.5}"#,
        #"{"event":"touchBegan","y":40,"onContent":true}"#,
        #"  {  "y" : -0 , "event" : "e" , "time" : 1e3 , "on" : false }  "#,
        "\t{\"event\":\t\"e\"\r,\"a\":1E-5}\r",
        #"{"case": 7, "event": "tap"}"#,
        #"{"case": "é 😀", "event": "tap", "label": "naïve ❤️"}"#,
        #"{"event": "e", "n": 1234567890123456, "m": 0.1, "k": 1.5e+22, "z": 0e999999}"#,
        #"{"event": "é", "ключ": "значение"}"#,
    ]

    @Test(arguments: plainLines)
    func plainLinesTakeTheFastPath(_ line: String) {
        expectSame(line)
        #expect(readAllRaw(EventLogReader(bytes: Array(line.utf8))).fast == 1)
    }

    static let hostileLines = [
        #"{"event": "a\"b"}"#, #"{"event": "e", "s": "tab\tx"}"#, #"{"event": "e", "s": "\u00e9\ud83d\ude00"}"#,
        #"{"ev\u0065nt": "e"}"#, #"{"event": "e", "\u0079": 1}"#, #"{"event": "e", "y": 1, "y": 2}"#,
        #"{"event": "e", "event": "f"}"#, #"{"time": 1, "time": 2, "event": "e"}"#, #"{"event": "e", "case": 1, "case": 1}"#,
        #"{"event": "e", "y": 1, "\u0079": 2}"#, #"{"event": "e", "big": 123456789012345678901234567890}"#,
        #"{"event": "e", "x": 1e999}"#, #"{"event": "e", "x": -1e-999}"#, #"{"event": "e", "x": 2.2250738585072014e-308}"#,
        #"{"event": "e", "x": 0.1e1, "y": 1E+2, "z": -0.0}"#, #"{"event": "e", "x": 01}"#, #"{"event": "e", "x": -}"#,
        #"{"event": "e", "x": 1.}"#, #"{"event": "e", "x": .5}"#, #"{"event": "e", "x": 1e}"#, #"{"event": "e", "x": +1}"#,
        #"{"event": "e", "x": null}"#, #"{"event": "e", "x": [1, 2]}"#, #"{"event": "e", "x": {"y": 1}}"#,
        #"{"event": "e", "x": truex}"#, #"{"event": "e", "x": tru}"#, #"{"event": "e", "x": falsey}"#,
        #"{"event": 12}"#, #"{"event": "e", "time": "1"}"#, #"{"event": "e", "case": 1.5}"#, #"{"event": "e", "case": -0}"#,
        #"{"event": "e", "case": 1e2}"#, #"{"event": "e", "case": 007}"#, #"{"event": "e", "case": 12345678901234567890}"#,
        #"{"event": "e", "case": 9007199254740993}"#, #"{"event": "e", "case": -42}"#, #"{"event": "e", "case": true}"#,
        #"{"expect": "open"}"#, #"{"event": "e", "expect": "open"}"#, #"{"y": 1, "expect": "open"}"#,
        #"{}"#, #"{"y": 1}"#, #"[]"#, #""event""#, #"{"event": "e"} x"#, #"{"event": "e",}"#, #"{"event": "e""#,
        #"{"event" "e"}"#, #"{event: "e"}"#, #"{'event': 'e'}"#, #"{"event": "e"}}"#, #"{"event": "e"   "#,
        "{\"event\": \"e\", \"s\": \"a\u{7}b\"}", "{\"event\": \"e\u{0}\"}", #"{"event": "e", "s": "\x"}"#,
        #"{"event": "e", "s": "\ud800"}"#, #"{"event": "e", "s": "\udc00x"}"#, #"{"event": "e", "s": "\u12G4"}"#,
        "{\"event\": \"e\"}\r\n\r\n  \n{\"event\": \"f\"}\n", "\u{FEFF}{\"event\": \"bom\"}\n{\"event\": \"e\"}",
        #"{"event": "e", "time": -1.5, "case": "c", "a": "", "b": true, "c": false}"#,
    ]

    @Test(arguments: hostileLines)
    func hostileLinesMatchTheFullParser(_ line: String) {
        expectSame(line)
    }

    @Test func invalidUTF8MatchesTheFullParser() {
        let prefix = Array(#"{"event": "e", "s": ""#.utf8)
        let bad: [[UInt8]] = [[0xC3], [0xFF], [0xED, 0xA0, 0x80], [0xE0, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80],
                              [0xC0, 0xAF], [0xF0, 0x9F, 0x98], [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80]]
        for sequence in bad {
            for bytes in [prefix + sequence + Array(#""}"#.utf8), prefix + sequence, Array(#"{"event": "e", "#.utf8) + sequence] {
                #expect(readAllRaw(EventLogReader(bytes: bytes)).results == readAll(EventLogReader(bytes: bytes)))
            }
        }
    }

    /// Lines built from valid and hostile pieces, keys in any order, whitespace anywhere.
    @Test func randomLinesMatchTheFullParser() {
        var random = SeededGenerator(seed: 0xFA57_0001)
        let spaces = ["", "", " ", "  ", "\t", "\r", " \t "]
        let keys = [#""event""#, #""time""#, #""case""#, #""y""#, #""onContent""#, #""label""#, #""y""#,
                    #""\u0079""#, #""expect""#, #""é""#]
        let values = [#""touchMoved""#, #""tap""#, "0", "-0", "1.5", "-312.5", "1e3", "1E-7", "2.5e+2", "1e400",
                      "123456789012345678901", "0.1", "true", "false", "null", "[1]", #"{"a": 1}"#, #""a\"b""#,
                      #""\u00e9""#, #""naïve""#, "7", "-7", "01", "1.", #""open""#, "tru", "9007199254740993"]
        var lines: [String] = []
        for _ in 0..<3000 {
            var line = spaces.randomElement(using: &random)! + "{"
            let count = Int.random(in: 0...5, using: &random)
            var members: [String] = []
            if Int.random(in: 0..<4, using: &random) > 0 { members.append(#""event": "touchMoved""#) }
            for _ in 0..<count {
                let s1 = spaces.randomElement(using: &random)!, s2 = spaces.randomElement(using: &random)!
                members.append(keys.randomElement(using: &random)! + s1 + ":" + s2 + values.randomElement(using: &random)!)
            }
            members.shuffle(using: &random)
            line += members.map { spaces.randomElement(using: &random)! + $0 + spaces.randomElement(using: &random)! }
                .joined(separator: ",") + "}" + spaces.randomElement(using: &random)!
            if Int.random(in: 0..<20, using: &random) == 0 { line = String(line.dropLast(Int.random(in: 1...4, using: &random))) }
            lines.append(line)
        }
        let text = lines.joined(separator: "\n")
        let slow = readAll(text)
        let (raw, fast) = readAllRaw(EventLogReader(bytes: Array(text.utf8)))
        #expect(raw == slow)
        #expect(fast > 100)
        for case (.success(let a), .success(let b)) in zip(raw, slow) { #expect(sameNumbers(a, b)) }
        #expect(readAllRaw(chunkedReader(Array(text.utf8), chunk: 64)).results == slow)
    }

    @Test func nameTableFindsNamesByBytes() {
        let names = ["touchBegan", "touchMoved", "touchEnded", "é", "", "touchBegan"]
        let table = ByteNameTable(names)
        for (i, name) in names.enumerated() {
            let found = Array(name.utf8).withUnsafeBufferPointer { table.index(of: $0) }
            #expect(found == (name == "touchBegan" ? 0 : i))
        }
        for missing in ["touch", "touchBegan2", "e", "touchmoved"] {
            #expect(Array(missing.utf8).withUnsafeBufferPointer { table.index(of: $0) } == nil)
        }
        let many = (0..<100).map { "field\($0)" }
        let big = ByteNameTable(many)
        for (i, name) in many.enumerated() { #expect(Array(name.utf8).withUnsafeBufferPointer { big.index(of: $0) } == i) }
    }
}
