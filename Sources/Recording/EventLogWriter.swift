#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes an event log (JSON Lines, as the EventLogFormat article fixes it) from an app's
/// events: event lines with an optional `time` and `case` and payload fields, expectation
/// lines, and an optional header naming the machine and the spec's fingerprint.
///
/// Lines collect in a buffer and reach the sink whole, when the buffer is full, on `flush()`
/// and on `close()`: a line that is refused (a non-finite number, a reserved or repeated
/// key) leaves nothing behind, and an app killed while writing can only cut the last line,
/// which `statecraft replay` then reports and skips. Writing an event line allocates
/// nothing once the buffer has grown to the longest line (numbers whose shortest form
/// is longer than 15 characters aside). Not thread-safe: one thread writes.
///
/// ```swift
/// let log = try EventLogWriter.create(path: "session.jsonl")
/// try log.header(machine: "Drawer", spec: SpecFingerprint(specText: spec))
/// try log.event("touchBegan", time: 0.5) { line throws(EventLogWriter.Failure) in
///     try line.number("y", 600)
///     try line.bool("onContent", true)
/// }
/// try log.close()
/// ```
public final class EventLogWriter {
    /// Why a line, or the output, was refused.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// A number that is infinite or NaN: JSON has no such number, and the log format
        /// takes finite ones only. `field` names it: a payload field, `time`, `vars.x` or
        /// `outputs[1].args[0]`.
        case nonFiniteNumber(field: String, value: Double)
        /// A payload field named `event`, `expect`, `time` or `case`, which mean something
        /// else on every line.
        case reservedKey(String)
        /// The same key twice on one line (or in one `vars`).
        case duplicateKey(String)
        /// An integer case beyond 2^53 in magnitude, which the reader cannot tell apart
        /// from its neighbours.
        case caseOutOfRange(Int)
        /// An expectation that asserts nothing, or an empty list of states.
        case emptyExpectation
        /// A header after lines were written: it may only be the first line.
        case headerNotFirst
        /// A write after `close()`.
        case closed
        /// The sink could not take the bytes (the file system's message).
        case writeFailed(String)

        /// Lowercase, no final period, as the project's messages are.
        public var description: String {
            switch self {
            case .nonFiniteNumber(let field, let value):
                "'\(field)' is \(value): a log's numbers are finite"
            case .reservedKey(let key):
                "'\(key)' cannot be a payload field: it is a reserved key of the log format"
            case .duplicateKey(let key): "duplicate key '\(key)'"
            case .caseOutOfRange(let n): "case \(n) is beyond 2^53: use a string case"
            case .emptyExpectation: "an expectation needs at least one state, a variable or 'outputs'"
            case .headerNotFirst: "the recording header can only be the first line"
            case .closed: "the log is closed"
            case .writeFailed(let reason): "cannot write the log: \(reason)"
            }
        }
    }

    /// Takes whole lines' bytes (one or more `\n`-terminated lines); may throw to say the
    /// bytes could not be written (they are then kept for the next flush).
    public typealias Sink = (UnsafeBufferPointer<UInt8>) throws -> Void

    private let sink: Sink
    /// The descriptor to close on `close()`, when the writer opened or was given it to own.
    private var ownedDescriptor: Int32?
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes in `buffer`: whole lines, then the line being written.
    private var count = 0
    /// When `count` reaches this after a line, the buffer goes to the sink.
    private let flushThreshold: Int
    /// Where the line being written starts in `buffer`.
    private var lineStart = 0
    /// The payload keys of the line being written, as ranges of `buffer` (escaped, which is
    /// one-to-one), to refuse a repeated key; the storage is reused line after line.
    private var keys: [Range<Int>] = []
    /// Whether any line was written (the header must come first).
    private var wroteLine = false
    private var isClosed = false

    /// A writer whose lines go to `sink`, in pieces of about `bufferSize` bytes.
    public init(bufferSize: Int = 64 * 1024, sink: @escaping Sink) {
        self.sink = sink
        flushThreshold = max(1, bufferSize)
        capacity = flushThreshold + 256
        buffer = .allocate(capacity: capacity)
        keys.reserveCapacity(16)
    }

    /// A writer to an open file descriptor; with `closesDescriptor`, `close()` closes it.
    public convenience init(fileDescriptor: Int32, closesDescriptor: Bool = false, bufferSize: Int = 64 * 1024) {
        self.init(bufferSize: bufferSize) { bytes throws(Failure) in
            try EventLogWriter.write(bytes, to: fileDescriptor)
        }
        if closesDescriptor { ownedDescriptor = fileDescriptor }
    }

    /// Creates (or empties) the file at `path` and writes to it; `close()` closes it.
    public static func create(path: String, bufferSize: Int = 64 * 1024) throws(Failure) -> EventLogWriter {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .writeFailed("'\(path)': " + String(cString: strerror(errno)))
        }
        return EventLogWriter(fileDescriptor: descriptor, closesDescriptor: true, bufferSize: bufferSize)
    }

    deinit {
        // An app that forgets `close()` still gets its last lines.
        if !isClosed {
            try? flush()
            if let descriptor = ownedDescriptor { _ = systemClose(descriptor) }
        }
        buffer.deallocate()
    }

    // MARK: - Lines

    /// The first line of a recording: `{"recording": {"machine": "Drawer", "spec": "…"}}`,
    /// so that `replay` can say when a log meets a spec other than the one it was recorded
    /// against.
    public func header(machine: String, spec: SpecFingerprint) throws(Failure) {
        guard !isClosed else { throw .closed }
        guard !wroteLine else { throw .headerNotFirst }
        beginLine()
        append("{\"recording\": {\"machine\": ")
        appendString(machine)
        append(", \"spec\": ")
        appendString(spec.description)
        append("}}")
        try endLine()
    }

    /// The header of a recording of spec text (its fingerprint worked out here).
    public func header(machine: String, specText: String) throws(Failure) {
        try header(machine: machine, spec: SpecFingerprint(specText: specText))
    }

    /// An event line: `{"time": 0.5, "case": 2, "event": "touchBegan", "y": 600, ...}`.
    /// `fields` adds the payload; if it throws, the line is dropped whole.
    public func event(_ name: String, time: Double? = nil, case caseKey: LogCase? = nil,
                      _ fields: (inout EventFields) throws(Failure) -> Void = { _ in }) throws(Failure) {
        guard !isClosed else { throw .closed }
        beginLine()
        do throws(Failure) {
            append(UInt8(ascii: "{"))
            try appendTimeAndCase(time, caseKey)
            append("\"event\": ")
            appendString(name)
            var line = EventFields(writer: self)
            try fields(&line)
            append(UInt8(ascii: "}"))
            try endLine()
        } catch {
            dropLine()
            throw error
        }
    }

    /// An event line with its payload as a list (for callers that hold one; `event(_:time:case:_:)`
    /// with a closure allocates nothing).
    public func event(_ name: String, time: Double? = nil, case caseKey: LogCase? = nil,
                      payload: [(name: String, value: LogValue)]) throws(Failure) {
        try event(name, time: time, case: caseKey) { line throws(Failure) in
            for field in payload { try line.value(field.name, field.value) }
        }
    }

    /// `{"expect": "open"}`: the state (at any depth) that must be active.
    public func expect(state: String, time: Double? = nil, case caseKey: LogCase? = nil) throws(Failure) {
        try expect(LogExpectation(states: [state]), time: time, case: caseKey)
    }

    /// An expectation line; one state and nothing else is written in the short form
    /// `{"expect": "open"}`.
    public func expect(_ expectation: LogExpectation, time: Double? = nil, case caseKey: LogCase? = nil) throws(Failure) {
        guard !isClosed else { throw .closed }
        if expectation.states == nil && expectation.vars == nil && expectation.outputs == nil { throw .emptyExpectation }
        if let states = expectation.states, states.isEmpty { throw .emptyExpectation }
        beginLine()
        do throws(Failure) {
            append(UInt8(ascii: "{"))
            try appendTimeAndCase(time, caseKey)
            append("\"expect\": ")
            if let states = expectation.states, states.count == 1, expectation.vars == nil, expectation.outputs == nil {
                appendString(states[0])
            } else {
                try appendExpectationObject(expectation)
            }
            append(UInt8(ascii: "}"))
            try endLine()
        } catch {
            dropLine()
            throw error
        }
    }

    private func appendExpectationObject(_ expectation: LogExpectation) throws(Failure) {
        append(UInt8(ascii: "{"))
        var first = true
        func separate() {
            if !first { append(", ") }
            first = false
        }
        if let states = expectation.states {
            separate()
            append("\"state\": ")
            if states.count == 1 {
                appendString(states[0])
            } else {
                append(UInt8(ascii: "["))
                for (k, state) in states.enumerated() {
                    if k > 0 { append(", ") }
                    appendString(state)
                }
                append(UInt8(ascii: "]"))
            }
        }
        if let vars = expectation.vars {
            separate()
            append("\"vars\": {")
            keys.removeAll(keepingCapacity: true)
            for (k, variable) in vars.enumerated() {
                if k > 0 { append(", ") }
                try appendKey(variable.name)
                try appendValue(variable.value, field: "vars." + variable.name)
            }
            append(UInt8(ascii: "}"))
        }
        if let outputs = expectation.outputs {
            separate()
            append("\"outputs\": [")
            for (k, output) in outputs.enumerated() {
                if k > 0 { append(", ") }
                guard let arguments = output.arguments else {
                    appendString(output.name)
                    continue
                }
                append("{\"name\": ")
                appendString(output.name)
                append(", \"args\": [")
                for (a, argument) in arguments.enumerated() {
                    if a > 0 { append(", ") }
                    try appendValue(argument, field: "outputs[\(k)].args[\(a)]")
                }
                append("]}")
            }
            append(UInt8(ascii: "]"))
        }
        append(UInt8(ascii: "}"))
    }

    // MARK: - Output

    /// Hands every whole line written so far to the sink.
    public func flush() throws(Failure) {
        guard count > 0 else { return }
        do {
            try sink(UnsafeBufferPointer(start: buffer, count: count))
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .writeFailed("\(error)")
        }
        count = 0
        lineStart = 0
    }

    /// Flushes, then closes the file the writer owns (if any); later writes are refused.
    /// Closing twice does nothing.
    public func close() throws(Failure) {
        guard !isClosed else { return }
        try flush()
        isClosed = true
        if let descriptor = ownedDescriptor {
            ownedDescriptor = nil
            if systemClose(descriptor) != 0 { throw .writeFailed(String(cString: strerror(errno))) }
        }
    }

    /// write(2) until every byte is written, retried when interrupted.
    private static func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) throws(Failure) {
        guard var next = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let written = systemWrite(descriptor, next, left)
            if written < 0 {
                if errno == EINTR { continue }
                throw .writeFailed(String(cString: strerror(errno)))
            }
            next += written
            left -= written
        }
    }

    // MARK: - Building a line

    /// The payload of the event line being written, field by field.
    public struct EventFields {
        unowned(unsafe) let writer: EventLogWriter

        /// A `Number` field; infinite and NaN are refused.
        public mutating func number(_ key: String, _ value: Double) throws(Failure) {
            try writer.appendField(key)
            try writer.appendNumber(value, field: key)
        }

        /// A `Bool` field.
        public mutating func bool(_ key: String, _ value: Bool) throws(Failure) {
            try writer.appendField(key)
            writer.append(value ? "true" : "false")
        }

        /// A `String` field, escaped as JSON requires.
        public mutating func string(_ key: String, _ value: String) throws(Failure) {
            try writer.appendField(key)
            writer.appendString(value)
        }

        /// A field of any of the three types.
        public mutating func value(_ key: String, _ value: LogValue) throws(Failure) {
            try writer.appendField(key)
            try writer.appendValue(value, field: key)
        }
    }

    private func beginLine() {
        lineStart = count
        keys.removeAll(keepingCapacity: true)
    }

    private func endLine() throws(Failure) {
        append(UInt8(ascii: "\n"))
        wroteLine = true
        if count >= flushThreshold { try flush() }
    }

    private func dropLine() {
        count = lineStart
    }

    private func appendTimeAndCase(_ time: Double?, _ caseKey: LogCase?) throws(Failure) {
        if let time {
            append("\"time\": ")
            try appendNumber(time, field: "time")
            append(", ")
        }
        switch caseKey {
        case .name(let name)?:
            append("\"case\": ")
            appendString(name)
            append(", ")
        case .number(let n)?:
            guard n.magnitude <= 1 << 53 else { throw .caseOutOfRange(n) }
            append("\"case\": ")
            appendInteger(Int64(n))
            append(", ")
        case nil:
            break
        }
    }

    /// `, "key": ` before a payload field (the event's name comes first); refuses the
    /// reserved keys and a key already on the line.
    fileprivate func appendField(_ key: String) throws(Failure) {
        switch key {
        case "event", "expect", "time", "case": throw .reservedKey(key)
        default: break
        }
        append(", ")
        try appendKey(key)
    }

    /// `"key": `, refused if the key is already in `keys`.
    private func appendKey(_ key: String) throws(Failure) {
        let start = count
        appendString(key)
        let range = start..<count
        for other in keys where other.count == range.count
            && memcmp(buffer + other.lowerBound, buffer + range.lowerBound, range.count) == 0 {
            throw .duplicateKey(key)
        }
        keys.append(range)
        append(": ")
    }

    fileprivate func appendValue(_ value: LogValue, field: @autoclosure () -> String) throws(Failure) {
        switch value {
        case .number(let n): try appendNumber(n, field: field())
        case .bool(let b): append(b ? "true" : "false")
        case .string(let s): appendString(s)
        }
    }

    /// A finite double in the shortest form that reads back as the same double: integers
    /// up to 2^53 as plain digits, anything else as Swift's shortest round-trip form
    /// (`312.5`, `1e-07`, `-0.0`), which is valid JSON.
    fileprivate func appendNumber(_ value: Double, field: @autoclosure () -> String) throws(Failure) {
        guard value.isFinite else { throw .nonFiniteNumber(field: field(), value: value) }
        if value.magnitude <= 9_007_199_254_740_992, value == value.rounded(.towardZero),
           !(value == 0 && value.sign == .minus) {
            appendInteger(Int64(value))
            return
        }
        var text = value.description
        text.withUTF8 { append($0) }
    }

    private func appendInteger(_ value: Int64) {
        reserve(21)
        var magnitude = value.magnitude
        if value < 0 { append(UInt8(ascii: "-")) }
        // Digits backwards into a stack buffer, then forwards into the line.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var k = 20
            repeat {
                k -= 1
                digits[k] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            (buffer + count).update(from: digits.baseAddress! + k, count: 20 - k)
            count += 20 - k
        }
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\n`, `\t`, `\r`, `\b`, `\f`
    /// or `\u00XX`; everything else (non-ASCII too) as its UTF-8 bytes.
    fileprivate func appendString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            reserve(utf8.count * 6 + 2)
            var out = buffer + count
            out.pointee = UInt8(ascii: "\"")
            out += 1
            for byte in utf8 {
                if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                    out.pointee = byte
                    out += 1
                    continue
                }
                out.pointee = UInt8(ascii: "\\")
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out[1] = byte
                case 0x08: out[1] = UInt8(ascii: "b")
                case 0x09: out[1] = UInt8(ascii: "t")
                case 0x0A: out[1] = UInt8(ascii: "n")
                case 0x0C: out[1] = UInt8(ascii: "f")
                case 0x0D: out[1] = UInt8(ascii: "r")
                default:
                    out[1] = UInt8(ascii: "u")
                    out[2] = UInt8(ascii: "0")
                    out[3] = UInt8(ascii: "0")
                    out[4] = EventLogWriter.hexDigits[Int(byte >> 4)]
                    out[5] = EventLogWriter.hexDigits[Int(byte & 0xF)]
                    out += 6
                    continue
                }
                out += 2
            }
            out.pointee = UInt8(ascii: "\"")
            count = buffer.distance(to: out) + 1
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    @inline(__always)
    fileprivate func append(_ byte: UInt8) {
        reserve(1)
        buffer[count] = byte
        count += 1
    }

    @inline(__always)
    fileprivate func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        reserve(bytes.count)
        (buffer + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    /// Room for `extra` more bytes: the buffer grows (doubling) only for a line longer than any before.
    @inline(__always)
    private func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        var larger = capacity * 2
        while count + extra > larger { larger *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        grown.update(from: buffer, count: count)
        buffer.deallocate()
        buffer = grown
        capacity = larger
    }
}

// The C functions, under names that do not clash with this type's own `write` and `close`.
private func systemWrite(_ fd: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int { write(fd, bytes, count) }
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
