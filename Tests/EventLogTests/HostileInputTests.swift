import Testing
import TestSupport
@_spi(RawLines) @testable import StatecraftEventLog

/// Random bytes, mutations and truncations of valid lines: the reader reports errors, never
/// crashes, and every error points inside its line; `nextRaw` and `readBatch` agree with it.
@Suite struct HostileInputTests {
    static let validLines = [
        #"{"event": "touchBegan", "y": 40, "onContent": true}"#,
        #"{"time": 1.25e-3, "event": "touchMoved", "y": -312.5E+2, "case": 7}"#,
        #"{"expect": {"state": "closed", "vars": {"a": [1, {"b": null}], "c": "\u00e9\ud83d\ude00"}}}"#,
        #"{"expect": {"outputs": ["didRefresh", "x\"y\\z"]}, "case": "é", "time": 0}"#,
        #"{"event":"e","s":"tab\tnew\nline\/\b\f\r","n":-0,"z":0.000001,"big":123456789012345678901234567890}"#,
    ]

    /// Reads `bytes` both in memory and streamed in `chunk`-byte pieces, checking both agree
    /// and every error is well formed.
    private func check(_ bytes: [UInt8], chunk: Int) {
        let results = readAll(EventLogReader(bytes: bytes))
        for result in results {
            guard case .failure(let e) = result else { continue }
            #expect(e.line >= 1)
            #expect(e.column >= 1 && e.column <= e.text.count + 1)
            #expect(!e.message.isEmpty && e.message.first?.isLowercase == true && e.message.last != ".")
        }
        #expect(readAll(chunkedReader(bytes, chunk: chunk)) == results)
        // The in-place path and the batch reader give the same, whatever the bytes.
        #expect(readAllRaw(chunkedReader(bytes, chunk: chunk)).results == results)
        #expect(readAllBatched(chunkedReader(bytes, chunk: chunk), lineLimit: 3, byteLimit: 64) == results)
    }

    @Test func randomBytesNeverCrash() {
        var random = SeededGenerator(seed: 0x5EED_0001)
        let alphabet = Array(#"{}[]":,.-+eE0123456789 \truefalsn\u"#.utf8) + [0x0A, 0x0D, 0x00, 0xC3, 0xA9, 0xFF, 0xED]
        for _ in 0..<500 {
            let length = Int.random(in: 0..<80, using: &random)
            let bytes = (0..<length).map { _ in
                Bool.random(using: &random) ? alphabet.randomElement(using: &random) ?? 0 : UInt8.random(in: 0...255, using: &random)
            }
            check(bytes, chunk: Int.random(in: 1...9, using: &random))
        }
    }

    /// A prefix of a valid line is never a valid line. As the last line of a log without a
    /// line end, it is a line cut off (the reader skips it with a warning at its end); with
    /// a line end, it is an error.
    @Test func everyTruncationOfAValidLineIsCutOffOrAnError() throws {
        for line in HostileInputTests.validLines {
            let bytes = Array(line.utf8)
            for end in 0...bytes.count {
                let prefix = Array(bytes[..<end])
                var reader = EventLogReader(bytes: prefix)
                let record = try reader.next()
                if end == bytes.count {
                    #expect(record != nil, "\(line)")
                } else if end > 0 {
                    #expect(record == nil, "prefix of length \(end) read: \(line)")
                    #expect(reader.warnings.map(\.id) == [.truncatedLogLine], "prefix of length \(end): \(line)")
                    #expect(reader.warnings.first?.column == prefix.count + 1 || prefix.contains { $0 >= 0x80 })
                    guard case .failure(let e)? = readAll(EventLogReader(bytes: prefix + [0x0A])).first else {
                        Issue.record("prefix of length \(end) with a line end read: \(line)")
                        continue
                    }
                    #expect(e.column <= prefix.count + 1)
                }
                check(prefix, chunk: 3)
                check(prefix + [0x0A], chunk: 3)
            }
        }
    }

    @Test func mutationsOfValidLinesNeverCrash() {
        var random = SeededGenerator(seed: 0x5EED_0002)
        for _ in 0..<2_000 {
            var bytes = Array(HostileInputTests.validLines.randomElement(using: &random)?.utf8 ?? "".utf8)
            for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(Array(#"{}[]",:\"#.utf8).randomElement(using: &random) ?? 0, at: at)
                default: bytes.insert(contentsOf: bytes[at...].prefix(5), at: at)
                }
            }
            check(bytes, chunk: Int.random(in: 1...16, using: &random))
        }
    }

    /// A line of 3 MB, longer than a read chunk and than a batch's byte limit, between short
    /// lines: read whole by every path, in order.
    @Test func aLineLongerThanAChunkAndABatch() throws {
        let long = #"{"event": "e", "s": ""# + String(repeating: "ab", count: 1_500_000) + #"", "n": 1}"#
        let text = #"{"event": "e", "n": 1}"# + "\n" + long + "\n" + #"{"event": "e", "n": 2}"# + "\n"
        let bytes = Array(text.utf8)
        let results = readAll(EventLogReader(bytes: bytes))
        #expect(results.count == 3)
        #expect(try results[1].get().text.count == long.utf8.count)
        #expect(readAll(chunkedReader(bytes, chunk: 1 << 16)) == results)
        #expect(readAllRaw(chunkedReader(bytes, chunk: 1 << 16)).results == results)
        #expect(readAllBatched(chunkedReader(bytes, chunk: 1 << 16), lineLimit: 4096, byteLimit: 1 << 19) == results)
    }

    @Test func aLogOfManyLinesReadsInOrder() throws {
        var random = SeededGenerator(seed: 0x5EED_0003)
        var text = ""
        for i in 0..<2_000 {
            let y = Double(Int.random(in: -100_000...100_000, using: &random)) / 8
            text += #"{"event":"touchMoved","y":\#(y),"time":\#(i),"case":\#(i % 5)}"# + (i % 3 == 0 ? "\r\n" : "\n")
        }
        let results = readAll(chunkedReader(Array(text.utf8), chunk: 1000))
        #expect(results.count == 2_000)
        for (i, result) in results.enumerated() {
            let r = try result.get()
            #expect(r.line == i + 1 && r.time == Double(i) && r.caseKey == String(i % 5))
        }
    }
}
