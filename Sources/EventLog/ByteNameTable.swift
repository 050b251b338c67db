/// A fixed set of names looked up by their UTF-8 bytes without allocating: event names and
/// field names of a machine, matched against `RawEventLine` byte ranges.
///
/// Open addressing over a hash of the bytes taken a word at a time; each slot keeps the
/// name's hash, so a lookup compares bytes only with a name of the same hash.
public struct ByteNameTable: Sendable {
    /// One name in the table.
    private struct Slot {
        var hash: UInt64
        /// Where the name's bytes are in `storage`.
        var start: Int
        var count: Int
        /// The name's position in the array given to `init` (the first one, if repeated); -1
        /// for an empty slot.
        var index: Int
    }

    /// Every name's bytes, one after another (at least one byte, so there is always an address).
    private let storage: [UInt8]
    /// The count is a power of two, at least twice the number of names.
    private let slots: [Slot]

    /// A table of `names`; `index(of:)` returns a name's position in this array (the first
    /// one, if a name is repeated).
    public init(_ names: [String]) {
        var storage: [UInt8] = []
        var size = 8
        while size < names.count * 2 { size *= 2 }
        var slots = [Slot](repeating: Slot(hash: 0, start: 0, count: 0, index: -1), count: size)
        var ranges: [Range<Int>] = []
        for name in names {
            let start = storage.count
            storage.append(contentsOf: name.utf8)
            ranges.append(start..<storage.count)
        }
        storage.append(0)
        storage.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for (i, range) in ranges.enumerated() {
                let hash = ByteNameTable.hash(base + range.lowerBound, range.count)
                var slot = Int(truncatingIfNeeded: hash) & (size - 1)
                var duplicate = false
                while slots[slot].index >= 0 {
                    let other = slots[slot]
                    if other.hash == hash && other.count == range.count
                        && ByteNameTable.equal(base + other.start, base + range.lowerBound, range.count) {
                        duplicate = true
                        break
                    }
                    slot = (slot + 1) & (size - 1)
                }
                if !duplicate {
                    slots[slot] = Slot(hash: hash, start: range.lowerBound, count: range.count, index: i)
                }
            }
        }
        self.storage = storage
        self.slots = slots
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
    /// (possibly overlapping words, never a byte outside them).
    @inline(__always)
    private static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
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

    @inline(__always)
    private static func load64(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
    }

    @inline(__always)
    private static func load32(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(UnsafeRawPointer(p).loadUnaligned(as: UInt32.self))
    }
}
