/// The cases a replay has opened, looked up by the bytes of their key without building a
/// `String` per line: open addressing over an FNV-1a hash, growing as cases arrive.
struct CaseTable {
    /// Every key's bytes, one after another; key `i` is `storage[starts[i] ..< starts[i + 1]]`.
    private var storage: [UInt8] = []
    private var starts: [Int] = [0]
    /// The run index of each key.
    private var runs: [Int] = []
    /// Key index + 1 per slot, 0 for an empty slot; the count is a power of two.
    private var slots = [Int32](repeating: 0, count: 16)

    /// The run of the case whose key has these bytes, or nil.
    func run(for key: UnsafeBufferPointer<UInt8>) -> Int? {
        let mask = slots.count - 1
        var slot = CaseTable.hash(key) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return nil }
            if matches(entry - 1, key) { return runs[entry - 1] }
            slot = (slot + 1) & mask
        }
    }

    /// Adds a case that is not in the table yet.
    mutating func insert(_ key: UnsafeBufferPointer<UInt8>, run: Int) {
        storage.append(contentsOf: key)
        starts.append(storage.count)
        runs.append(run)
        if runs.count * 2 > slots.count {
            rehash(size: slots.count * 2)
        } else {
            place(runs.count - 1, hash: CaseTable.hash(key))
        }
    }

    private func matches(_ index: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = starts[index]
        guard starts[index + 1] - start == key.count else { return false }
        for k in 0..<key.count where storage[start + k] != key[k] { return false }
        return true
    }

    private mutating func place(_ index: Int, hash: Int) {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(index + 1)
    }

    private mutating func rehash(size: Int) {
        slots = [Int32](repeating: 0, count: size)
        for i in runs.indices {
            let h = storage.withUnsafeBufferPointer { CaseTable.hash(UnsafeBufferPointer(rebasing: $0[starts[i]..<starts[i + 1]])) }
            place(i, hash: h)
        }
    }

    @inline(__always)
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: h >> 1)
    }
}
