@_spi(RawLines) import StatecraftEventLog

/// A log line as the replayer needs it for reports: its number, and its text and columns
/// only when something is reported (an in-place line copies its bytes only then).
protocol ReplayLine {
    var lineNumber: Int { get }
    func lineText() -> [UInt8]
    func lineColumn(ofByte offset: Int) -> Int
}

extension LogRecord: ReplayLine {
    var lineNumber: Int { line }
    func lineText() -> [UInt8] { text }
    func lineColumn(ofByte offset: Int) -> Int { column(ofByte: offset) }
}

extension RawEventLine: ReplayLine {
    var lineNumber: Int { line }
    func lineText() -> [UInt8] { text() }
    func lineColumn(ofByte offset: Int) -> Int { column(ofByte: offset) }
}
