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

    // One thread writes (the type is not Sendable), so the stored properties every line
    // touches skip the run-time exclusivity checks, which cost more than the writing.
    private let sink: Sink
    /// The descriptor to close on `close()`, when the writer opened or was given it to own.
    private var ownedDescriptor: Int32?
    @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// Bytes in `buffer`: whole lines, then the line being written.
    @exclusivity(unchecked) private var count = 0
    /// When `count` reaches this after a line, the buffer goes to the sink.
    private let flushThreshold: Int
    /// Where the line being written starts in `buffer`.
    @exclusivity(unchecked) private var lineStart = 0
    /// The keys of the line being written (or of one `vars`), as the offsets in `buffer` of
    /// their first and last bytes, quotes included (escaped text is one-to-one with the
    /// key), to refuse a repeated key: `keyCount` pairs, the storage reused line after line.
    @exclusivity(unchecked) private var keyBounds: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var keyCapacity = 16
    @exclusivity(unchecked) private var keyCount = 0
    /// The payload keys of the last event lines, in order, as written (`, "key": `): a recorder
    /// writes the same fields line after line, and a line whose first keys are these copies
    /// their bytes instead of quoting each key and checking it again. The keys are distinct and
    /// none is reserved: each was checked against the keys before it on its line, which were
    /// the ones before it here.
    @exclusivity(unchecked) private var fields = WrittenStrings()
    /// The last event name, quoted, for the same reason.
    @exclusivity(unchecked) private var names = WrittenStrings()
    /// Whether any line was written (the header must come first).
    @exclusivity(unchecked) private var wroteLine = false
    @exclusivity(unchecked) private var isClosed = false

    /// A writer whose lines go to `sink`, in pieces of about `bufferSize` bytes.
    public init(bufferSize: Int = 64 * 1024, sink: @escaping Sink) {
        self.sink = sink
        flushThreshold = max(1, bufferSize)
        capacity = flushThreshold + 256
        buffer = .allocate(capacity: capacity)
        keyBounds = .allocate(capacity: 2 * keyCapacity)
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
        keyBounds.deallocate()
        fields.deallocate()
        names.deallocate()
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
        try endLine("}}\n")
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
            append(try openLine(time, caseKey) ? ", \"event\": " : "\"event\": ")
            appendName(name)
            var line = EventFields(writer: Unmanaged.passUnretained(self))
            try fields(&line)
            try endLine("}\n")
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
            append(try openLine(time, caseKey) ? ", \"expect\": " : "\"expect\": ")
            if let states = expectation.states, states.count == 1, expectation.vars == nil, expectation.outputs == nil {
                appendString(states[0])
            } else {
                try appendExpectationObject(expectation)
            }
            try endLine("}\n")
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
            keyCount = 0
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
        /// The writer, unretained: `event(_:time:case:_:)` holds it for the closure's whole
        /// call, and a strong or `unowned` reference would cost a retain and a release per
        /// field.
        let writer: Unmanaged<EventLogWriter>

        /// Runs `body` on the writer without retaining it (`_withUnsafeGuaranteedRef` takes no
        /// typed-throws closure, so the failure comes out as a value).
        @inline(__always)
        private func withWriter(_ body: (EventLogWriter) throws(Failure) -> Void) throws(Failure) {
            let failure = writer._withUnsafeGuaranteedRef { w -> Failure? in
                do throws(Failure) {
                    try body(w)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
        }

        /// A `Number` field; infinite and NaN are refused.
        public mutating func number(_ key: String, _ value: Double) throws(Failure) {
            try withWriter { w throws(Failure) in
                try w.appendField(key)
                try w.appendNumber(value, field: key)
            }
        }

        /// A `Bool` field.
        public mutating func bool(_ key: String, _ value: Bool) throws(Failure) {
            try withWriter { w throws(Failure) in
                try w.appendField(key)
                w.append(value ? "true" : "false")
            }
        }

        /// A `String` field, escaped as JSON requires.
        public mutating func string(_ key: String, _ value: String) throws(Failure) {
            try withWriter { w throws(Failure) in
                try w.appendField(key)
                w.appendString(value)
            }
        }

        /// A field of any of the three types.
        public mutating func value(_ key: String, _ value: LogValue) throws(Failure) {
            try withWriter { w throws(Failure) in
                try w.appendField(key)
                try w.appendValue(value, field: key)
            }
        }
    }

    private func beginLine() {
        lineStart = count
        keyCount = 0
    }

    /// The event's name, quoted: copied when it is the last line's.
    private func appendName(_ name: String) {
        if let written = names.written(0, ifItIs: name) {
            append(written)
            return
        }
        let start = count
        appendString(name)
        names.set(0, to: name, writtenAs: UnsafeBufferPointer(start: buffer + start, count: count - start))
    }

    /// Ends the line with `end` (its closing braces and the line break).
    private func endLine(_ end: StaticString) throws(Failure) {
        append(end)
        wroteLine = true
        if count >= flushThreshold { try flush() }
    }

    private func dropLine() {
        count = lineStart
    }

    /// `{` and the line's time and case; whether it wrote either (the next key then needs a
    /// comma). The pieces are joined where they meet, so that a line is a few copies.
    private func openLine(_ time: Double?, _ caseKey: LogCase?) throws(Failure) -> Bool {
        var wrote = false
        if let time {
            append("{\"time\": ")
            try appendNumber(time, field: "time")
            wrote = true
        } else {
            append(UInt8(ascii: "{"))
        }
        switch caseKey {
        case .name(let name)?:
            append(wrote ? ", \"case\": " : "\"case\": ")
            appendString(name)
            wrote = true
        case .number(let n)?:
            guard n.magnitude <= 1 << 53 else { throw .caseOutOfRange(n) }
            append(wrote ? ", \"case\": " : "\"case\": ")
            appendInteger(Int64(n))
            wrote = true
        case nil:
            break
        }
        return wrote
    }

    /// `, "key": ` before a payload field (the event's name comes first); refuses the
    /// reserved keys and a key already on the line.
    fileprivate func appendField(_ key: String) throws(Failure) {
        let j = keyCount
        if let written = fields.written(j, ifItIs: key) {
            // The bytes `, "key": ` as the last lines wrote them; the key's bounds (its quotes)
            // for the check of a later key that is not in the cache.
            let start = count
            append(written)
            recordKey(from: start + 2, to: count - 2)
            return
        }
        let fieldStart = count
        append(", ")
        let start = count
        try appendKey(key)
        // A reserved key needs no escape, so its text is its bytes between quotes.
        let length = keyBounds[2 * (keyCount - 1) + 1] - start
        if length >= 6 && length <= 8 {
            for reserved in EventLogWriter.reservedKeys where reserved.utf8CodeUnitCount == length
                && memcmp(buffer + start, reserved.utf8Start, length) == 0 {
                throw .reservedKey(key)
            }
        }
        // Checked: it takes position j in the cache, whose later keys go (so no later key of this
        // line is taken from the cache: the keys it holds are always a line's first ones).
        fields.set(j, to: key, writtenAs: UnsafeBufferPointer(start: buffer + fieldStart, count: count - fieldStart))
    }

    /// The keys that mean something on every line, quoted.
    private static let reservedKeys: [StaticString] = ["\"event\"", "\"expect\"", "\"time\"", "\"case\""]

    /// `"key": `, refused if the key is already on the line (or in the `vars`).
    private func appendKey(_ key: String) throws(Failure) {
        let start = count
        appendString(key)
        let length = count - start
        var k = 0
        while k < keyCount {
            let (otherStart, otherEnd) = (keyBounds[2 * k], keyBounds[2 * k + 1])
            if otherEnd - otherStart == length && memcmp(buffer + otherStart, buffer + start, length) == 0 {
                throw .duplicateKey(key)
            }
            k += 1
        }
        recordKey(from: start, to: count)
        append(": ")
    }

    /// Keeps the bounds of a key written at `start..<end` (quotes included) for the checks of
    /// the keys after it.
    @inline(__always)
    private func recordKey(from start: Int, to end: Int) {
        if keyCount == keyCapacity {
            let larger = UnsafeMutablePointer<Int>.allocate(capacity: 4 * keyCapacity)
            larger.update(from: keyBounds, count: 2 * keyCount)
            keyBounds.deallocate()
            keyBounds = larger
            keyCapacity *= 2
        }
        keyBounds[2 * keyCount] = start
        keyBounds[2 * keyCount + 1] = end
        keyCount += 1
    }

    fileprivate func appendValue(_ value: LogValue, field: String) throws(Failure) {
        switch value {
        case .number(let n): try appendNumber(n, field: field)
        case .bool(let b): append(b ? "true" : "false")
        case .string(let s): appendString(s)
        }
    }

    /// A finite double in a form that reads back as the same double, as short as the
    /// notation allows: integers up to 2^53 as plain digits (`600`); a value with a short
    /// decimal form in fixed point with the fewest fraction digits (`312.5`, `0.1`); anything
    /// else (`1e-300`, `-0.0`) as Swift's shortest round-trip form, which is valid JSON. The
    /// first two, which a touch's coordinates and times almost always are, allocate nothing.
    fileprivate func appendNumber(_ value: Double, field: String) throws(Failure) {
        guard value.isFinite else { throw .nonFiniteNumber(field: field, value: value) }
        if value == 0 && value.sign == .minus {
            append("-0.0")
            return
        }
        // (The conversion truncates, and is exact up to 2^53: cheaper than `rounded()`, which is
        // a call to libm's trunc on x86-64 without SSE 4.1.)
        if value.magnitude <= 9_007_199_254_740_992, Double(Int64(value)) == value {
            appendInteger(Int64(value))
            return
        }
        if let (digits, fractionDigits) = EventLogWriter.binaryFraction(value) ?? EventLogWriter.shortDecimal(value) {
            appendDecimal(digits, fractionDigits: fractionDigits)
            return
        }
        var text = value.description
        text.withUTF8 { append($0) }
    }

    /// `shortDecimal(value)` without its search, for the values an app records most: a
    /// fraction with a small power of two below it (a time in 1/64 s, a coordinate in half
    /// points). `value` is `odd / 2^k` exactly, so it is `odd × 5^k / 10^k` exactly, and when
    /// `n = odd × 5^k` is below 2^53 no decimal with fewer than `k` fraction digits reads back
    /// as `value`: such a decimal is at least `5 / 10^k` away (n ends in 5), more than half of
    /// `value`'s ulp (below `2 / 10^k`, as `n < 2^53`). So this is `shortDecimal`'s answer, and
    /// tests hold the two together. Nil for integers and for everything else.
    @inline(__always)
    package static func binaryFraction(_ value: Double) -> (Int64, Int)? {
        guard value.isNormal else { return nil }
        // value = significand × 2^(exponent − 52), the significand a 53-bit integer.
        let significand = value.significandBitPattern | (1 << 52)
        let zeros = significand.trailingZeroBitCount
        // (The exponent from the bits: `Double.exponent` is a call into the standard library.)
        let exponent = Int(truncatingIfNeeded: (value.bitPattern &>> 52) & 0x7FF) &- 1023
        let k = 52 &- exponent &- zeros
        // (Up to 17 fraction digits, as `shortDecimal` searches.)
        guard k >= 1 && k <= 17 else { return nil }
        let odd = significand &>> UInt64(zeros)
        var five: UInt64 = 1
        for _ in 0..<k { five &*= 5 }
        let (n, overflow) = odd.multipliedReportingOverflow(by: five)
        guard !overflow && n < 1 << 53 else { return nil }
        return (value < 0 ? -Int64(n) : Int64(n), k)
    }

    /// The integer `n` and the smallest `k` (1 to 17) with `n / 10^k` reading back as
    /// `value`, if there is one with `|n| < 2^53`. Then `n` and `10^k` are exact doubles, and
    /// IEEE division rounds `n / 10^k` correctly, as a reader rounds the decimal text: the
    /// equality checked is the round trip itself.
    @inline(__always)
    package static func shortDecimal(_ value: Double) -> (Int64, Int)? {
        var scale = 1.0
        for k in 1...17 {
            scale *= 10  // (powers of ten are exact doubles up to 10^22)
            let scaled = value * scale
            guard scaled.magnitude < 9_007_199_254_740_992 else { return nil }
            // The nearest integer, without a call to libm's round: a candidate off by one
            // fails the check below and the next power of ten is tried. From 2^52 on, `scaled`
            // is an integer already (adding 0.5 there would round a tie to even, one off).
            let n = scaled.magnitude >= 0x1p52 ? Int64(scaled) : Int64(scaled + (scaled < 0 ? -0.5 : 0.5))
            // A decimal that reads back as `value` is within two ulps of `scaled` (one rounding
            // in the division, one in the product), and 2^-50 of its magnitude is at least four:
            // only then is the slow division tried.
            guard (scaled - Double(n)).magnitude <= scaled.magnitude * 0x1p-50 else { continue }
            if Double(n) / scale == value { return (n, k) }
        }
        return nil
    }

    /// `n / 10^k` in fixed point: `3125, 1` is `312.5`, `-5, 2` is `-0.05`. The digits go
    /// straight into the line, last first: their count is known before the first is written.
    private func appendDecimal(_ n: Int64, fractionDigits k: Int) {
        reserve(24)
        if n < 0 { append(UInt8(ascii: "-")) }
        var magnitude = n.magnitude
        // The fraction's k digits, the point, then the integer's digits (at least a 0).
        let length = Swift.max(EventLogWriter.digitCount(magnitude), k + 1) + 1
        var at = buffer + count + length
        var left = k
        if left & 1 == 1 {
            at -= 1
            at.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
            left -= 1
        }
        while left > 0 {
            at -= 2
            EventLogWriter.writePair(Int(truncatingIfNeeded: magnitude % 100), at: at)
            magnitude /= 100
            left -= 2
        }
        at -= 1
        at.pointee = UInt8(ascii: ".")
        EventLogWriter.writeDigits(of: magnitude, endingAt: at)
        count += length
    }

    private func appendInteger(_ value: Int64) {
        reserve(21)
        if value < 0 { append(UInt8(ascii: "-")) }
        let length = EventLogWriter.digitCount(value.magnitude)
        EventLogWriter.writeDigits(of: value.magnitude, endingAt: buffer + count + length)
        count += length
    }

    /// Writes the decimal digits of `magnitude` (at least one, "0" for zero) backwards, the
    /// last just before `end`.
    @inline(__always)
    private static func writeDigits(of magnitude: UInt64, endingAt end: UnsafeMutablePointer<UInt8>) {
        var magnitude = magnitude
        var at = end
        // Two digits per division: half the (multiply-and-shift) divisions.
        while magnitude >= 100 {
            at -= 2
            writePair(Int(truncatingIfNeeded: magnitude % 100), at: at)
            magnitude /= 100
        }
        if magnitude >= 10 {
            writePair(Int(truncatingIfNeeded: magnitude), at: at - 2)
        } else {
            (at - 1).pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
        }
    }

    /// The two digits of `pair` (0 to 99) at `at`.
    @inline(__always)
    private static func writePair(_ pair: Int, at: UnsafeMutablePointer<UInt8>) {
        let digits = EventLogWriter.pairs.utf8Start + 2 &* pair
        at[0] = digits[0]
        at[1] = digits[1]
    }

    /// "00" to "99" end to end (a computed StaticString: a constant address in the binary,
    /// with no lazy initialisation to check on each use).
    private static var pairs: StaticString { "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899" }

    /// How many decimal digits `magnitude` has (1 for zero).
    @inline(__always)
    private static func digitCount(_ magnitude: UInt64) -> Int {
        // Four digits at a time (a division by a constant is a multiply and a shift).
        var digits = 1
        var rest = magnitude
        while rest >= 10_000 {
            rest /= 10_000
            digits += 4
        }
        if rest >= 100 {
            rest /= 100
            digits += 2
        }
        if rest >= 10 { digits += 1 }
        return digits
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\n`, `\t`, `\r`, `\b`, `\f`
    /// or `\u00XX`; everything else (non-ASCII too) as its UTF-8 bytes.
    @inline(__always)
    fileprivate func appendString(_ string: String) {
        // Without a copy of the string when its bytes are at hand (a native string).
        if string.utf8.withContiguousStorageIfAvailable({ appendQuoted($0) }) == nil {
            var copy = string
            copy.withUTF8 { appendQuoted($0) }
        }
    }

    private func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard let base = utf8.baseAddress else {
            append("\"\"")
            return
        }
        let n = utf8.count
        reserve(n * 6 + 2)
        var out = buffer + count
        out.pointee = UInt8(ascii: "\"")
        out += 1
        // The usual string needs no escape: copy up to the first byte that does, eight bytes
        // at a time while eight are left (the reserve above leaves room for the whole word).
        var i = 0
        while i &+ 8 <= n {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            if EventLogWriter.someByteNeedsEscape(word) { break }
            UnsafeMutableRawPointer(out + i).storeBytes(of: word, as: UInt64.self)
            i &+= 8
        }
        while i < n && !EventLogWriter.needsEscape(base[i]) {
            out[i] = base[i]
            i += 1
        }
        out += i
        while i < n {
            let byte = base[i]
            i += 1
            if !EventLogWriter.needsEscape(byte) {
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
                out[4] = EventLogWriter.hexDigit(byte >> 4)
                out[5] = EventLogWriter.hexDigit(byte & 0xF)
                out += 6
                continue
            }
            out += 2
        }
        out.pointee = UInt8(ascii: "\"")
        count = buffer.distance(to: out) + 1
    }

    /// Whether JSON needs `byte` escaped in a string: a quote, a backslash, a control character.
    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Whether one of the eight bytes of `word` needs an escape (`needsEscape`), in a few
    /// operations on the whole word: `(x - 0x01…) & ~x & 0x80…` is non-zero when some byte of
    /// `x` is zero, and the same with `0x20…` when some byte is below 0x20. A byte of 0x80 or
    /// more (UTF-8 beyond ASCII) never counts. A borrow can flag a byte above one that really
    /// needs an escape, never a word without one: a flagged word goes the byte-wise way.
    @inline(__always)
    private static func someByteNeedsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let control = (word &- ones &* 0x20) & ~word
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        return (control | quote | backslash) & high != 0
    }

    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

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

    @inline(__always)
    private func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let n = bytes.count
        reserve(n)
        // The pieces are short (`, `, `"time": `, a key): copied a word at a time, the last word
        // overlapping the one before, which beats a call to memmove and a loop over bytes.
        let out = UnsafeMutableRawPointer(buffer + count)
        if n >= 8 {
            var k = 0
            while k &+ 8 < n {
                out.storeBytes(of: UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self), toByteOffset: k, as: UInt64.self)
                k &+= 8
            }
            out.storeBytes(of: UnsafeRawPointer(base + (n &- 8)).loadUnaligned(as: UInt64.self), toByteOffset: n &- 8, as: UInt64.self)
        } else {
            for k in 0..<n { out.storeBytes(of: base[k], toByteOffset: k, as: UInt8.self) }
        }
        count += n
    }

    /// Room for `extra` more bytes: the buffer grows (doubling) only for a line longer than any before.
    @inline(__always)
    private func reserve(_ extra: Int) {
        guard count &+ extra > capacity else { return }
        var larger = capacity * 2
        while count + extra > larger { larger *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        grown.update(from: buffer, count: count)
        buffer.deallocate()
        buffer = grown
        capacity = larger
    }
}

/// Strings an `EventLogWriter` wrote, in order, with the bytes it wrote for each: a string is
/// recognised by its two words, with no retain and no comparison of text. A small string's
/// words are its bytes; a large one's point at its storage, which `alive` keeps from being
/// freed and reused, so equal words mean equal text (unequal words only mean a slower path).
private struct WrittenStrings {
    private(set) var count = 0
    private var words: UnsafeMutablePointer<UInt64>
    private var ends: UnsafeMutablePointer<Int>
    private var bytes: UnsafeMutablePointer<UInt8>
    private var capacity = 8
    private var byteCapacity = 256
    private var alive: [String] = []
    /// Two words per string, as on every 64-bit platform; elsewhere nothing is recognised.
    private static let enabled = MemoryLayout<String>.size == 16

    init() {
        words = .allocate(capacity: 2 * capacity)
        ends = .allocate(capacity: capacity)
        bytes = .allocate(capacity: byteCapacity)
    }

    func deallocate() {
        words.deallocate()
        ends.deallocate()
        bytes.deallocate()
    }

    @inline(__always)
    private static func words(of string: String) -> (UInt64, UInt64) {
        withUnsafeBytes(of: string) { ($0.load(fromByteOffset: 0, as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self)) }
    }

    /// The bytes string `j` was written as, when `string` is that string.
    @inline(__always)
    func written(_ j: Int, ifItIs string: String) -> UnsafeBufferPointer<UInt8>? {
        guard Self.enabled && j < count else { return nil }
        let (a, b) = Self.words(of: string)
        guard words[2 &* j] == a && words[2 &* j &+ 1] == b else { return nil }
        let from = j == 0 ? 0 : ends[j &- 1]
        return UnsafeBufferPointer(start: bytes + from, count: ends[j] &- from)
    }

    /// String `j` becomes `string`, written as `written`; the strings after it are forgotten.
    mutating func set(_ j: Int, to string: String, writtenAs written: UnsafeBufferPointer<UInt8>) {
        guard Self.enabled, let source = written.baseAddress else { return }
        let j = min(j, count)
        if j == capacity {
            let largerWords = UnsafeMutablePointer<UInt64>.allocate(capacity: 4 * capacity)
            largerWords.update(from: words, count: 2 * count)
            words.deallocate()
            words = largerWords
            let largerEnds = UnsafeMutablePointer<Int>.allocate(capacity: 2 * capacity)
            largerEnds.update(from: ends, count: count)
            ends.deallocate()
            ends = largerEnds
            capacity *= 2
        }
        let from = j == 0 ? 0 : ends[j - 1]
        if from + written.count > byteCapacity {
            var larger = byteCapacity * 2
            while from + written.count > larger { larger *= 2 }
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
            grown.update(from: bytes, count: from)
            bytes.deallocate()
            bytes = grown
            byteCapacity = larger
        }
        (bytes + from).update(from: source, count: written.count)
        (words[2 * j], words[2 * j + 1]) = Self.words(of: string)
        ends[j] = from + written.count
        alive.removeSubrange(j...)
        alive.append(string)
        count = j + 1
    }
}

// The C functions, under names that do not clash with this type's own `write` and `close`.
private func systemWrite(_ fd: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int { write(fd, bytes, count) }
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
