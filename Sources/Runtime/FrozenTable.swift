/// An immutable array in memory that a `Program` owns: the step function reads it without
/// bounds checks, retains or uniqueness checks. Indices come from the compiled program,
/// never from input. The program frees it when it goes away.
///
/// The type is public, its members package: an app can name it but not use it. That is what
/// lets the replayer (another module) read it at full speed. Swift does not specialize or
/// inline a `package` generic type's `@inlinable` members in another module (the call stays
/// an unspecialized generic call, as if they were not inlinable); a public generic type's
/// are, with its stored properties `@usableFromInline`.
public struct FrozenTable<Element>: @unchecked Sendable {
    @usableFromInline package let base: UnsafeMutablePointer<Element>
    @usableFromInline package let count: Int

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
