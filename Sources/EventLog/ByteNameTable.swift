/// A set of names looked up by their UTF-8 bytes without allocating: event names and field
/// names of a machine, matched against `RawEventLine` byte ranges, and the case keys a replay
/// has met, added as they arrive.
///
/// Open addressing over a hash of the bytes taken a word at a time; each slot keeps the
/// name's hash, so a lookup compares bytes only with a name of the same hash.
@_spi(RawLines) public struct ByteNameTable: Sendable {
    /// One name in the table.
    private struct Slot {
        var hash: UInt64
        /// Where the name's bytes are in `storage`.
        var start: Int
        var count: Int
        /// The name's position among the names added (the first one, if repeated); -1 for an
        /// empty slot.
        var index: Int
    }

    /// Every name's bytes, one after another, after one leading byte (so there is always an
    /// address).
    private var storage: [UInt8] = [0]
    /// The count is a power of two, at least twice the number of names.
    private var slots = [Slot](repeating: ByteNameTable.empty, count: 8)
    /// How many names were added, repeats included.
    public private(set) var count = 0
    /// How many slots hold a name.
    private var used = 0

    private static let empty = Slot(hash: 0, start: 0, count: 0, index: -1)

    /// A table of `names`; `index(of:)` returns a name's position in this array (the first
    /// one, if a name is repeated).
    public init(_ names: [String]) {
        for name in names {
            var name = name
            name.withUTF8 { _ = insert($0) }
        }
    }

    /// Adds a name as position `count` and returns its index: that position, or the index it
    /// already had if it was added before.
    @discardableResult
    public mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let position = count
        count += 1
        if let existing = index(of: bytes) { return existing }
        let start = storage.count
        storage.append(contentsOf: bytes)
        let hash = storage.withUnsafeBufferPointer { buffer -> UInt64 in
            guard let base = buffer.baseAddress else { return 0 }  // never: storage starts with a byte
            return ByteNameTable.hash(base + start, bytes.count)
        }
        used += 1
        if used * 2 > slots.count {
            var bigger = [Slot](repeating: ByteNameTable.empty, count: slots.count * 2)
            for slot in slots where slot.index >= 0 { ByteNameTable.place(slot, in: &bigger) }
            slots = bigger
        }
        ByteNameTable.place(Slot(hash: hash, start: start, count: bytes.count, index: position), in: &slots)
        return position
    }

    /// Puts `slot` in the first free slot from its hash on.
    private static func place(_ slot: Slot, in slots: inout [Slot]) {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: slot.hash) & mask
        while slots[i].index >= 0 { i = (i + 1) & mask }
        slots[i] = slot
    }

    /// The index of the name whose UTF-8 is `bytes`, or nil.
    public func index(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let key = bytes.baseAddress else { return bytes.isEmpty ? indexOfEmpty() : nil }
        let count = bytes.count
        let hash = ByteNameTable.hash(key, count)
        return slots.withUnsafeBufferPointer { slots in
            storage.withUnsafeBufferPointer { storage -> Int? in
                guard let names = storage.baseAddress else { return nil }
                let mask = slots.count &- 1
                var slot = Int(truncatingIfNeeded: hash) & mask
                while true {
                    let entry = slots[slot]
                    if entry.index < 0 { return nil }
                    if entry.hash == hash && entry.count == count && ByteNameTable.equal(names + entry.start, key, count) {
                        return entry.index
                    }
                    slot = (slot &+ 1) & mask
                }
            }
        }
    }

    /// The index of the name spelled by `range` of a raw line.
    public func index(of range: Range<Int>, in line: RawEventLine) -> Int? {
        index(of: line.slice(range))
    }

    /// `index(of:)` for an empty buffer that has no address.
    private func indexOfEmpty() -> Int? {
        storage.withUnsafeBufferPointer { storage in
            guard let base = storage.baseAddress else { return nil }
            return index(of: UnsafeBufferPointer(start: base, count: 0))
        }
    }

    /// A hash of the `count` bytes at `bytes`, read as (possibly overlapping) words: never a
    /// byte outside them.
    @inline(__always)
    private static func hash(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h = UInt64(truncatingIfNeeded: count) &* multiplier
        if count >= 8 {
            var i = 0
            while i &+ 8 < count {
                h = (h ^ load64(bytes + i)) &* multiplier
                h ^= h &>> 29
                i &+= 8
            }
            h = (h ^ load64(bytes + (count &- 8))) &* multiplier
        } else if count >= 4 {
            h = (h ^ (load32(bytes) &<< 32 | load32(bytes + (count &- 4)))) &* multiplier
        } else if count > 0 {
            let bits = UInt64(bytes[0]) &<< 16 | UInt64(bytes[count &>> 1]) &<< 8 | UInt64(bytes[count &- 1])
            h = (h ^ bits) &* multiplier
        }
        return h ^ h &>> 32
    }

    /// Whether the `count` bytes at `a` and `b` are the same, compared a word at a time
    /// (possibly overlapping words, never a byte outside them). The replayer compares names
    /// with it too.
    @inlinable @inline(__always)
    package static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        if count >= 8 {
            var i = 0
            while i &+ 8 < count {
                if load64(a + i) != load64(b + i) { return false }
                i &+= 8
            }
            return load64(a + (count &- 8)) == load64(b + (count &- 8))
        }
        if count >= 4 {
            return load32(a) == load32(b) && load32(a + (count &- 4)) == load32(b + (count &- 4))
        }
        if count == 0 { return true }
        // One to three bytes: the first, the middle and the last cover them all.
        return a[0] == b[0] && a[count &>> 1] == b[count &>> 1] && a[count &- 1] == b[count &- 1]
    }

    @usableFromInline @inline(__always)
    package static func load64(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
    }

    @usableFromInline @inline(__always)
    package static func load32(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(UnsafeRawPointer(p).loadUnaligned(as: UInt32.self))
    }
}
