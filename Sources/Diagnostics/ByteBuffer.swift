/// A growable run of bytes written through a pointer, for output produced in bulk (replay
/// traces, JSON): an append checks the capacity and copies, with none of an array's
/// per-call uniqueness checks. Noncopyable: it owns its memory.
///
/// SPI (`@_spi(Bytes) import StatecraftDiagnostics`), not `package`: it is no API for users,
/// but the trace and JSON writers in other modules must inline its appends, and the
/// `@inlinable` members of a `package` type are called there, not inlined.
@_spi(Bytes) public struct ByteBuffer: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    /// How many bytes it holds.
    public var count: Int { storedCount }
    @usableFromInline var storedCount = 0

    /// An empty buffer with room for `capacity` bytes before it grows.
    public init(capacity: Int = 64) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Whether it holds no bytes.
    public var isEmpty: Bool { storedCount == 0 }

    /// Makes room for `n` more bytes.
    @inlinable @inline(__always)
    public mutating func reserve(_ n: Int) {
        if storedCount + n > capacity { grow(toFit: n) }
    }

    @usableFromInline
    mutating func grow(toFit n: Int) {
        capacity = max(capacity * 2, storedCount + n)
        base = reallocate(base, count: storedCount, capacity: capacity)
    }

    /// Appends one byte.
    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        base[storedCount] = byte
        storedCount += 1
    }

    /// Appends bytes.
    @inlinable
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(UnsafeRawBufferPointer(bytes))
    }

    /// Appends raw bytes.
    @inlinable
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        let target = UnsafeMutableRawPointer(base + storedCount)
        if bytes.count <= ByteBuffer.shortCopy {
            ByteBuffer.copyShort(source, to: target, count: bytes.count)
        } else {
            target.copyMemory(from: source, byteCount: bytes.count)
        }
        storedCount += bytes.count
    }

    /// Up to this many bytes are copied in line (`copyShort`) rather than by a call to
    /// `memcpy`, whose call and dispatch cost more than the copy itself for the short runs
    /// that formatted output is made of (names, punctuation, digits).
    public static let shortCopy = 64

    /// Copies `count` bytes (1 ... `shortCopy`) with a few overlapping word moves: 16 bytes at
    /// a time and the last 16 again, or two overlapping moves of 8, 4 or 2 bytes, or one byte.
    @inlinable @inline(__always)
    static func copyShort(_ source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, count: Int) {
        @inline(__always) func move<T>(_ type: T.Type, at offset: Int) {
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: type), toByteOffset: offset, as: type)
        }
        if count >= 16 {
            var offset = 0
            while offset + 16 < count {
                move(SIMD16<UInt8>.self, at: offset)
                offset += 16
            }
            move(SIMD16<UInt8>.self, at: count - 16)
        } else if count >= 8 {
            move(UInt64.self, at: 0)
            move(UInt64.self, at: count - 8)
        } else if count >= 4 {
            move(UInt32.self, at: 0)
            move(UInt32.self, at: count - 4)
        } else if count >= 2 {
            move(UInt16.self, at: 0)
            move(UInt16.self, at: count - 2)
        } else {
            move(UInt8.self, at: 0)
        }
    }

    /// Appends the UTF-8 of a literal.
    @inlinable @inline(__always)
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    /// Appends the UTF-8 of a string.
    @inlinable
    public mutating func append(contentsOf text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Appends another buffer's bytes.
    public mutating func append(_ other: borrowing ByteBuffer) {
        append(UnsafeBufferPointer(start: other.base, count: other.storedCount))
    }

    /// Writes up to `n` bytes straight into the buffer: `body` gets room for `n` bytes and
    /// returns how many it wrote.
    @inlinable
    public mutating func append(upTo n: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(n)
        storedCount += body(base + storedCount)
    }

    /// Empties the buffer, keeping its memory.
    public mutating func removeAll() { storedCount = 0 }

    /// Calls `body` with the bytes.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: storedCount))
    }

    /// The bytes as text (UTF-8; invalid sequences become U+FFFD).
    public var text: String { withBytes { String(decoding: $0, as: UTF8.self) } }
}

/// Moves the first `count` elements of `old` into new storage for `capacity` elements and
/// frees `old`: how the package's growable raw buffers grow (this one, the event-log
/// batches, the runtime's undo journal).
package func reallocate<Element>(_ old: UnsafeMutablePointer<Element>, count: Int,
                                 capacity: Int) -> UnsafeMutablePointer<Element> {
    let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
    bigger.moveInitialize(from: old, count: count)
    old.deallocate()
    return bigger
}
