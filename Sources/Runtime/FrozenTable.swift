/// An immutable array in memory that a `Program` owns: the step function reads it without
/// bounds checks, retains or uniqueness checks. Indices come from the compiled program,
/// never from input. The program frees it when it goes away.
package struct FrozenTable<Element>: @unchecked Sendable {
    package let base: UnsafeMutablePointer<Element>
    package let count: Int

    package init(_ elements: [Element]) {
        count = elements.count
        base = .allocate(capacity: Swift.max(1, elements.count))
        elements.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { base.initialize(from: start, count: source.count) }
        }
    }

    // Inlinable: the replayer (another module) reads the program's tables per line, and an
    // unspecialized generic call per read cost replay more than half its speed.
    @inlinable @inline(__always)
    package subscript(_ index: Int) -> Element {
        assert(index >= 0 && index < count, "frozen table index out of range")
        return base[index]
    }

    package func free() {
        base.deinitialize(count: count)
        base.deallocate()
    }
}
