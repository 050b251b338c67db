import Testing
import TestSupport
@_spi(RawLines) @testable import StatecraftEventLog

/// A recording's header and a last line cut off, read the same way by every reading mode.
@Suite struct HeaderAndCutLineTests {
    /// What a reading leaves besides its records.
    struct Extras: Equatable {
        var header: LogHeader?
        var warnings: [LogWarning]
    }

    /// `next`, `nextRaw` and `readBatch`, over the bytes in memory and in chunks: the same
    /// records and errors, the same header and warnings.
    static func readEveryWay(_ text: String, sourceLocation: SourceLocation = #_sourceLocation)
        -> (results: [Result<LogRecord, LogError>], extras: Extras) {
        let bytes = Array(text.utf8)
        var full = EventLogReader(bytes: bytes)
        var results: [Result<LogRecord, LogError>] = []
        while true {
            do {
                guard let record = try full.next() else { break }
                results.append(.success(record))
            } catch {
                results.append(.failure(error))
            }
        }
        let extras = Extras(header: full.header, warnings: full.warnings)
        for chunk in [3, 1 << 16] {
            var raw = chunkedReader(bytes, chunk: chunk)
            var rawResults: [Result<LogRecord, LogError>] = []
            while true {
                do {
                    let more = try raw.nextRaw { line in
                        switch line {
                        case .event(let e): rawResults.append(.success(e.record()))
                        case .record(let r): rawResults.append(.success(r))
                        }
                    }
                    if !more { break }
                } catch {
                    rawResults.append(.failure(error))
                }
            }
            #expect(rawResults == results, "nextRaw, chunks of \(chunk)", sourceLocation: sourceLocation)
            #expect(Extras(header: raw.header, warnings: raw.warnings) == extras, "nextRaw", sourceLocation: sourceLocation)

            var batched = chunkedReader(bytes, chunk: chunk)
            let batch = RawLineBatch(lineLimit: 2, byteLimit: 64)
            var batchResults: [Result<LogRecord, LogError>] = []
            while true {
                var more = true
                var failure: LogError?
                do {
                    more = try batched.readBatch(into: batch)
                } catch {
                    failure = error
                }
                for entry in batch.entries {
                    batchResults.append(.success(entry.record >= 0 ? batch.records[entry.record] : batch.eventLine(entry).record()))
                }
                if let failure { batchResults.append(.failure(failure)) }
                if !more { break }
            }
            #expect(batchResults == results, "readBatch, chunks of \(chunk)", sourceLocation: sourceLocation)
            #expect(Extras(header: batched.header, warnings: batched.warnings) == extras, "readBatch", sourceLocation: sourceLocation)
        }
        return (results, extras)
    }

    @Test func theHeaderIsTakenOffTheFirstNonBlankLine() throws {
        let (results, extras) = Self.readEveryWay("""

            {"recording": {"machine": "Drawer", "spec": "0123456789abcdef"}}
            {"event": "a", "recording": 1}
            {"event": "b"}

            """)
        let header = try #require(extras.header)
        #expect(header.machine == "Drawer" && header.spec == "0123456789abcdef" && header.line == 2)
        #expect(header.machineOffset == 26 && header.specOffset == 44)
        // On an event line, `recording` is a payload field like any other.
        #expect(try results.map { try $0.get().line } == [3, 4])
        #expect(extras.warnings.isEmpty)
        #expect(header.mismatch(machine: "Drawer", spec: "0123456789abcdef") == nil)
        #expect(header.mismatch(machine: "Drawer", spec: "0123456789abcdee")?.column == 45)
        #expect(header.mismatch(machine: "Door", spec: "0123456789abcdee")?.message
                == "the log was recorded from machine 'Drawer', not 'Door'")
    }

    @Test(arguments: [
        (#"{"event": "a"}\#n{"recording": {"machine": "M", "spec": "0"}}\#n"#, 2, 2,
         "a recording header ('recording') can only be the first line of a log"),
        (#"{"recording": {"machine": "M", "spec": "0"}, "case": 1}"# + "\n", 1, 46,
         "unexpected key 'case' on a recording header; it holds only 'recording'"),
        (#"{"time": 0, "recording": {"machine": "M", "spec": "0"}}"# + "\n", 1, 2,
         "unexpected key 'time' on a recording header; it holds only 'recording'"),
        (#"{"recording": {"machine": "M", "spec": "0"}, "x": 1}"# + "\n", 1, 46,
         "unexpected key 'x' on a recording header; it holds only 'recording'"),
        (#"{"recording": {"machine": "M"}}"# + "\n", 1, 15, "expected both 'machine' and 'spec' in 'recording'"),
        (#"{"recording": {"machine": "M", "spec": 7}}"# + "\n", 1, 40, "expected a string for 'spec', found 7"),
        (#"{"recording": {"machine": "M", "spec": "0", "v": 2}}"# + "\n", 1, 45,
         "unknown key 'v' in 'recording'; expected 'machine' or 'spec'"),
        (#"{"recording": []}"# + "\n", 1, 15, "expected an object for 'recording', found an array"),
    ])
    func aBadOrMisplacedHeaderIsAnError(log: String, line: Int, column: Int, message: String) {
        let (results, extras) = Self.readEveryWay(log)
        guard case .failure(let error)? = results.last else {
            Issue.record("no error: \(results)")
            return
        }
        #expect(error.line == line)
        #expect(error.column == column)
        #expect(error.message == message)
        #expect(extras.header == nil)
    }

    @Test func onlyAnUnfinishedObjectWithoutALineEndIsCutOff() {
        let first = #"{"event": "a"}"# + "\n"
        for cut in [#"{"event": "b", "y": 1"#, #"{"event": "b", "y": tr"#, #"{"event": "caf"# + "\u{C3}",
                    #"{"event": "b", "s": "\u00"#, "  {", #"{"event": "b", "y": 1.5e"#] {
            let text = first + cut
            let (results, extras) = Self.readEveryWay(text)
            #expect(results.count == 1, "\(cut)")
            #expect(extras.warnings.map(\.id) == [.truncatedLogLine], "\(cut)")
        }
        // Not the start of an object, broken before its end, or whole: errors as before.
        for broken in ["hello", #"{"event": "b"} x"#, #"{"event": "b", "y": 1x"#, #"{"event": 5}"#, #"{"event": "b",, "#,
                       #"{"event": "b", "y": tx"#, #"{"event": "b", "s": "\q"#, "{\"event\": \"\u{1}"] {
            let (results, extras) = Self.readEveryWay(first + broken)
            #expect(results.count == 2, "\(broken)")
            if case .failure? = results.last {} else { Issue.record("no error for \(broken)") }
            #expect(extras.warnings.isEmpty, "\(broken)")
        }
    }
}
