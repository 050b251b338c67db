import StatecraftDiagnostics

/// A recording's header, the optional first line of a log:
/// `{"recording": {"machine": "Drawer", "spec": "9f0c4e1a2b3d5e6f"}}`: the machine the log
/// was recorded from and the fingerprint of its spec (`SpecFingerprint`), so that a replay
/// against another spec, or another version of it, can say so.
///
/// The reader takes it off the log (`EventLogReader.header`): it is not a record. Offsets
/// are 0-based byte offsets into `text`.
public struct LogHeader: Equatable, Sendable {
    /// The machine's name as recorded.
    public var machine: String
    /// The spec's fingerprint as recorded (16 hexadecimal digits when our writer wrote it).
    public var spec: String
    /// 1-based line number of the header (the first non-blank line).
    public var line: Int
    /// Byte offset of the `machine` value.
    public var machineOffset: Int
    /// Byte offset of the `spec` value.
    public var specOffset: Int
    /// The line's bytes without its terminator.
    public var text: [UInt8]

    /// What `replay` warns about when the log meets a machine or a spec other than the one
    /// it was recorded against: the machine's name when that differs (at its value), else
    /// the fingerprint (at its value); nil when both match.
    public func mismatch(machine name: String, spec fingerprint: String) -> LogWarning? {
        if machine != name {
            return LogWarning(.logHeaderMismatch, line: line, column: LogRecord.column(ofByte: machineOffset, in: text),
                              message: LogMessage.recordedFromAnotherMachine(machine, replaying: name), text: text)
        }
        if spec != fingerprint {
            return LogWarning(.logHeaderMismatch, line: line, column: LogRecord.column(ofByte: specOffset, in: text),
                              message: LogMessage.recordedAgainstAnotherSpec(spec, replaying: fingerprint), text: text)
        }
        return nil
    }
}

/// Something about a log that replay reports without stopping: a header that names another
/// machine or spec, a last line cut off.
public struct LogWarning: Equatable, Sendable {
    /// The diagnostic's id (`log-header-mismatch`, `truncated-log-line`).
    public var id: DiagnosticID
    /// 1-based line number in the log.
    public var line: Int
    /// 1-based column, in Unicode scalars.
    public var column: Int
    /// Lowercase text, no final period.
    public var message: String
    /// The line's bytes without its terminator, for the caret.
    public var text: [UInt8]

    /// Creates a warning.
    public init(_ id: DiagnosticID, line: Int, column: Int, message: String, text: [UInt8]) {
        self.id = id
        self.line = line
        self.column = column
        self.message = message
        self.text = text
    }
}
