import Foundation
import Testing
import TestSupport
@testable import StatecraftEventLog

/// Lines, line ends, streaming through chunks and files.
@Suite struct EventLogReaderTests {
    static let sample = [
        #"{"event": "touchBegan", "y": 40, "onContent": true}"#,
        "",
        #"  {"time": 1.25, "event": "touchMoved", "y": 312.5, "case": 3}  "#,
        " \t ",
        #"{"expect": {"state": "closed", "vars": {"directionTop": true, "originY": -617}}}"#,
        #"{"event": "bad", "y": }"#,
        #"{"expect": {"outputs": ["didRefresh", "dïdClose"]}, "case": "α"}"#,
        #"{"event": "long", "s": ""# + String(repeating: "x€", count: 300) + #""}"#,
        #"{"event": "é💀", "k\u00e9": "\ud83d\ude00"}"#,
    ].joined(separator: "\n")

    @Test func emptyAndBlankLogsHaveNoRecords() {
        #expect(readAll("").isEmpty)
        #expect(readAll("\n\n  \t\r\n\r\n").isEmpty)
        #expect(readAll("\u{FEFF}").isEmpty)
    }

    @Test func blankLinesAreSkippedButCounted() {
        let results = readAll(EventLogReaderTests.sample)
        #expect(results.map(\.line) == [1, 3, 5, 6, 7, 8, 9])
    }

    @Test func readingContinuesAfterAnError() throws {
        let results = readAll("{\"event\":\"a\"}\n{oops}\n[]\n{\"event\":\"b\"}\n{\"event\":\"c\",\"x\":1e999}")
        #expect(results.map(\.line) == [1, 2, 3, 4, 5])
        guard case .failure(let e2) = results[1], case .failure(let e3) = results[2],
              case .success(let r4) = results[3], case .failure(let e5) = results[4] else {
            Issue.record("unexpected results \(results)")
            return
        }
        #expect((e2.line, e2.column, e2.message) == (2, 2, "expected a string key, found 'oops'"))
        #expect((e3.line, e3.column) == (3, 1))
        #expect(r4.body == .event(name: "b", nameOffset: 9, payload: []))
        #expect((e5.line, e5.column, e5.message) == (5, 18, "number '1e999' is out of range for a double"))
    }

    @Test func crlfLineEndsAreStripped() throws {
        let results = readAll("{\"event\":\"a\"}\r\n\r\n{\"event\":\"b\",\"x\":1}\r\n{\"event\":\"c\" x}\r\n")
        #expect(results.map(\.line) == [1, 3, 4])
        let first = try results[0].get()
        #expect(first.text == Array(#"{"event":"a"}"#.utf8))
        guard case .failure(let e) = results[2] else {
            Issue.record("line 4 should fail")
            return
        }
        #expect(e.text == Array(#"{"event":"c" x}"#.utf8))
        #expect(e.column == 14)
    }

    @Test func theLastLineMayLackALineEnd() throws {
        #expect(try readAll("{\"event\":\"a\"}\n{\"event\":\"b\"}").map { try $0.get().line } == [1, 2])
        #expect(try readAll("{\"event\":\"a\"}\r").map { try $0.get().text.count } == [13])
    }

    @Test func aByteOrderMarkIsSkippedOnlyAtTheStart() throws {
        let withBOM = try #require(readAll("\u{FEFF}{\"event\":\"a\", \"y\": }").first)
        guard case .failure(let e) = withBOM else {
            Issue.record("expected an error")
            return
        }
        // Columns count from after the mark, as an editor shows them.
        #expect(e.column == 20)
        #expect(e.text.first == UInt8(ascii: "{"))
        #expect(try readAll("\u{FEFF}{\"event\":\"a\"}").first?.get().text.count == 13)
        let later = readAll("{\"event\":\"a\"}\n\u{FEFF}{\"event\":\"b\"}")
        guard case .failure(let e2) = later[1] else {
            Issue.record("a mark on line 2 is not skipped")
            return
        }
        #expect(e2.message == "expected '{' to start a JSON object, found U+FEFF")
    }

    @Test(arguments: [1, 2, 3, 7, 16, 64, 1000])
    func chunkBoundariesDoNotChangeTheRecords(chunk: Int) {
        let bytes = Array(("\u{FEFF}" + EventLogReaderTests.sample + "\r\n\n").utf8)
        let expected = readAll(EventLogReader(bytes: bytes))
        #expect(expected.count == 7)
        #expect(readAll(chunkedReader(bytes, chunk: chunk)) == expected)
        // Reads shorter than the free space, as pipes deliver them.
        #expect(readAll(chunkedReader(bytes, chunk: chunk, readSize: max(1, chunk / 3))) == expected)
    }

    @Test func aLineLongerThanTheChunkGrowsTheBuffer() throws {
        let long = #"{"event":"e","s":""# + String(repeating: "ab", count: 50_000) + #""}"#
        let bytes = Array((long + "\n" + long + "\n{\"event\":\"f\"}").utf8)
        let results = readAll(chunkedReader(bytes, chunk: 7))
        #expect(results.count == 3)
        #expect(try results[1].get().text.count == long.utf8.count)
        #expect(try results[2].get().body == .event(name: "f", nameOffset: 9, payload: []))
    }

    @Test func readsAFileThroughItsDescriptor() throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("eventlog-\(UInt64.random(in: 0...UInt64.max)).jsonl")
        let bytes = Array(EventLogReaderTests.sample.utf8)
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let expected = readAll(EventLogReader(bytes: bytes))
        #expect(readAll(try EventLogReader.open(path: url.path)) == expected)
        #expect(readAll(try EventLogReader.open(path: url.path, chunkSize: 5)) == expected)
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        #expect(readAll(EventLogReader(fileDescriptor: handle.fileDescriptor)) == expected)
    }

    @Test func aMissingFileCannotBeOpened() {
        #expect(throws: LogError.self) { try EventLogReader.open(path: "/nonexistent/statecraft.jsonl") }
        do {
            _ = try EventLogReader.open(path: "/nonexistent/statecraft.jsonl")
        } catch {
            #expect(error.message.hasPrefix("cannot read '/nonexistent/statecraft.jsonl': "))
        }
    }

    @Test func aReadErrorIsReportedOnTheLineBeingRead() throws {
        var calls = 0
        let bytes = Array("{\"event\":\"a\"}\n{\"ev".utf8)
        var reader = EventLogReader(chunkSize: 64) { buffer in
            calls += 1
            guard calls == 1 else { return -Int(EIO) }
            for (k, b) in bytes.enumerated() { buffer[k] = b }
            return bytes.count
        }
        #expect(try reader.next()?.line == 1)
        #expect(throws: LogError(line: 2, column: 1, message: "cannot read the log: Input/output error", text: [])) {
            try reader.next()
        }
    }
}
