#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a byte stream into lines through one reusable buffer.
///
/// The buffer holds at most the unread part of one chunk plus the line being completed, so
/// memory stays flat however long the stream; it grows only to fit a single line longer
/// than a chunk.
struct LineBuffer {
    /// Fills the buffer's free space; returns the number of bytes read, 0 at the end of the
    /// stream, or a negated `errno` value.
    typealias Refill = (UnsafeMutableBufferPointer<UInt8>) -> Int

    /// Why the stream could not be read.
    struct ReadFailure: Error {
        var reason: String
    }

    private var storage: [UInt8]
    /// The unread bytes are `storage[start..<end]`.
    private var start = 0
    private var end: Int
    /// `storage[start..<scanned]` is known to hold no newline.
    private var scanned = 0
    private var atEnd: Bool
    private let refill: Refill?
    /// Whether the line `nextLine()` returned last ended the stream without a `\n` (it is
    /// then the last line).
    private(set) var lastLineUnterminated = false

    /// A buffer over bytes already in memory; never copies or refills.
    init(bytes: [UInt8]) {
        storage = bytes
        end = bytes.count
        atEnd = true
        refill = nil
    }

    /// A buffer that reads chunks of up to `chunkSize` bytes through `refill`.
    init(chunkSize: Int, refill: @escaping Refill) {
        storage = [UInt8](repeating: 0, count: max(1, chunkSize))
        end = 0
        atEnd = false
        self.refill = refill
    }

    /// The byte range in the buffer of the next line, without its `\n` or `\r\n`; nil at the
    /// end. The range is valid until the next call.
    mutating func nextLine() throws(ReadFailure) -> Range<Int>? {
        while true {
            if let newline = firstNewline() {
                let line = start..<withoutCarriageReturn(newline)
                start = newline + 1
                scanned = start
                lastLineUnterminated = false
                return line
            }
            scanned = end
            if atEnd {
                guard start < end else { return nil }
                let line = start..<withoutCarriageReturn(end)
                start = end
                lastLineUnterminated = true
                return line
            }
            try fill()
        }
    }

    /// A copy of `range`'s bytes.
    func bytes(_ range: Range<Int>) -> [UInt8] {
        Array(storage[range])
    }

    /// Copies `range`'s bytes to `destination`.
    func copy(_ range: Range<Int>, to destination: UnsafeMutablePointer<UInt8>) {
        storage.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, range.upperBound <= buffer.count else { return }
            destination.update(from: base + range.lowerBound, count: range.count)
        }
    }

    /// Calls `body` with a pointer to the first byte of `range`, the range's length and how
    /// many bytes from that pointer on the buffer holds (the line and what follows it, so
    /// word-sized reads near the line's end stay in memory); valid only inside `body`.
    @inline(__always)
    func withLine<R, E: Error>(_ range: Range<Int>,
                               _ body: (UnsafePointer<UInt8>, _ count: Int, _ readable: Int) throws(E) -> R?) throws(E) -> R? {
        try storage.withUnsafeBufferPointer { (buffer) throws(E) -> R? in
            guard let base = buffer.baseAddress, range.upperBound <= buffer.count else { return nil }
            return try body(base + range.lowerBound, range.count, buffer.count - range.lowerBound)
        }
    }

    /// Calls `body` with a pointer to the first unread byte, the number of unread bytes and
    /// how many bytes from that pointer on the buffer holds; nil when nothing is unread. A
    /// caller that finds a whole line there (up to a newline) takes it with `take(_:)`.
    @inline(__always)
    func withUnread<R, E: Error>(_ body: (UnsafePointer<UInt8>, _ count: Int, _ readable: Int) throws(E) -> R?) throws(E) -> R? {
        guard start < end else { return nil }
        return try withLine(start..<end, body)
    }

    /// Takes the next line, which the caller found in the unread bytes: `length` bytes
    /// (without terminator) whose newline is `newline` bytes from the first unread byte.
    /// Returns the line's range, as `nextLine()` would have.
    @inline(__always)
    mutating func take(length: Int, newline: Int) -> Range<Int> {
        let line = start..<start + length
        start += newline + 1
        scanned = start
        return line
    }

    /// Whether `range` holds only spaces, tabs and carriage returns.
    func isBlank(_ range: Range<Int>) -> Bool {
        for i in range {
            switch storage[i] {
            case 0x20, 0x09, 0x0D: continue
            default: return false
            }
        }
        return true
    }

    /// Whether `range` starts with a UTF-8 byte order mark.
    func startsWithByteOrderMark(_ range: Range<Int>) -> Bool {
        range.count >= 3 && storage[range.lowerBound] == 0xEF && storage[range.lowerBound + 1] == 0xBB
            && storage[range.lowerBound + 2] == 0xBF
    }

    private func firstNewline() -> Int? {
        guard scanned < end else { return nil }
        return storage.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress,
                  let found = memchr(base + scanned, 0x0A, end - scanned) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    private func withoutCarriageReturn(_ lineEnd: Int) -> Int {
        lineEnd > start && storage[lineEnd - 1] == 0x0D ? lineEnd - 1 : lineEnd
    }

    /// Moves the unread bytes to the front, grows the buffer if they fill it, and reads more.
    private mutating func fill() throws(ReadFailure) {
        guard let refill else {
            atEnd = true
            return
        }
        if start > 0 {
            let (from, count) = (start, end - start)
            storage.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress, count > 0 else { return }
                memmove(base, base + from, count)
            }
            end = count
            scanned -= from
            start = 0
        }
        if end == storage.count {
            storage.append(contentsOf: repeatElement(0, count: storage.count))
        }
        let filled = end
        let result = storage.withUnsafeMutableBufferPointer { buffer in
            refill(UnsafeMutableBufferPointer(rebasing: buffer[filled...]))
        }
        if result < 0 {
            throw ReadFailure(reason: String(cString: strerror(Int32(-result))))
        }
        if result == 0 {
            atEnd = true
        } else {
            end += min(result, storage.count - end)
        }
    }
}
