/// A list of plain values (ids, flags, numbers) in raw storage that it owns: the statechart
/// step's scratch lists and its configuration. Unlike an `Array` inside a class, reading or writing an element
/// retains nothing and checks no uniqueness, which is most of a step's work; emptying keeps
/// the storage. The owner (`ChartRun`, `MicrostepLog`) frees it (`free`) and copies it
/// explicitly (`copy`): a value of this type is a view, not a value.
struct RawList<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = Swift.max(4, capacity)
        base = .allocate(capacity: self.capacity)
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    subscript(_ k: Int) -> Element {
        get { base[k] }
        nonmutating set { base[k] = newValue }
    }

    @inline(__always)
    mutating func append(_ value: Element) {
        if count == capacity { grow() }
        base[count] = value
        count &+= 1
    }

    @inline(__always)
    mutating func removeAll() { count = 0 }

    /// Drops the last `n` elements.
    mutating func removeLast(_ n: Int) { count -= Swift.min(n, count) }

    /// Keeps the elements for which `isKept` holds, in order.
    mutating func keep(where isKept: (Element) -> Bool) {
        var kept = 0
        for k in 0..<count where isKept(base[k]) {
            base[kept] = base[k]
            kept += 1
        }
        count = kept
    }

    /// Makes this list hold the elements of `other`.
    mutating func replace(with other: RawList) {
        while capacity < other.count { grow() }
        base.update(from: other.base, count: other.count)
        count = other.count
    }

    /// A list with its own storage holding the same elements.
    func copy() -> RawList {
        var list = RawList(capacity: capacity)
        list.replace(with: self)
        return list
    }

    /// The elements, in order (allocates; for reports, not steps).
    var elements: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }

    @inline(never)
    private mutating func grow() {
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        bigger.initialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }

    func free() { base.deallocate() }
}

/// State, event and transition ids as the chart loop keeps them.
typealias IntList = RawList<Int32>

extension RawList {
    /// A list of `count` copies of `value`.
    init(repeating value: Element, count: Int) {
        self.init(capacity: count)
        for _ in 0..<count { append(value) }
    }
}
