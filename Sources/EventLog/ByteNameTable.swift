/// A fixed set of names looked up by their UTF-8 bytes without allocating: event names and
/// field names of a machine, matched against `RawEventLine` byte ranges.
///
/// Open addressing over an FNV-1a hash; a lookup hashes the bytes once and compares them
/// with at most a few candidates.
public struct ByteNameTable: Sendable {
    /// Every name's bytes, one after another.
    private let storage: [UInt8]
    /// Where each name starts in `storage`; name `i` is `starts[i]..<starts[i + 1]`.
    private let starts: [Int]
    /// Name index + 1 per slot, 0 for an empty slot; the count is a power of two.
    private let slots: [Int32]

    /// A table of `names`; `index(of:)` returns a name's position in this array (the first
    /// one, if a name is repeated).
    public init(_ names: [String]) {
        var storage: [UInt8] = []
        var starts: [Int] = [0]
        for name in names {
            storage.append(contentsOf: name.utf8)
            starts.append(storage.count)
        }
        var size = 8
        while size < names.count * 2 { size *= 2 }
        var slots = [Int32](repeating: 0, count: size)
        for (i, name) in names.enumerated() {
            let bytes = Array(name.utf8)
            var slot = bytes.withUnsafeBufferPointer { ByteNameTable.hash($0) } & (size - 1)
            var duplicate = false
            while slots[slot] != 0 {
                let j = Int(slots[slot]) - 1
                if Array(storage[starts[j]..<starts[j + 1]]) == bytes { duplicate = true; break }
                slot = (slot + 1) & (size - 1)
            }
            if !duplicate { slots[slot] = Int32(i + 1) }
        }
        self.storage = storage
        self.starts = starts
        self.slots = slots
    }

    /// The index of the name whose UTF-8 is `bytes`, or nil.
    public func index(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let mask = slots.count - 1
        var slot = ByteNameTable.hash(bytes) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return nil }
            let start = starts[entry - 1]
            let end = starts[entry]
            if end - start == bytes.count {
                var same = true
                for k in 0..<bytes.count where storage[start + k] != bytes[k] {
                    same = false
                    break
                }
                if same { return entry - 1 }
            }
            slot = (slot + 1) & mask
        }
    }

    /// The index of the name spelled by `range` of a raw line.
    public func index(of range: Range<Int>, in line: RawEventLine) -> Int? {
        index(of: line.slice(range))
    }

    @inline(__always)
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h = (h ^ UInt64(b)) &* 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: h >> 1)
    }
}
