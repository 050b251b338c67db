import Dispatch

/// A fixed ring of reusable slots passed in order from one thread to another: one thread
/// fills slots, the other empties them, and each waits when it has caught up with the
/// other. A slot belongs to one thread at a time, so it needs no lock of its own; the
/// semaphores hand it over.
///
/// The replayer's reading thread hands batches of lines to the replaying thread through
/// one; the CLI's trace thread takes steps through another.
package final class HandOffRing<Slot: AnyObject>: @unchecked Sendable {  // see above
    private let slots: [Slot]
    private let free: DispatchSemaphore
    private let ready = DispatchSemaphore(value: 0)
    /// Each touched by one side only.
    private var nextToFill = 0
    private var nextToEmpty = 0

    /// A ring of `depth` slots made by `make`, all free.
    package init(depth: Int, make: () -> Slot) {
        slots = (0..<max(1, depth)).map { _ in make() }
        free = DispatchSemaphore(value: slots.count)
    }

    /// The filling side: waits for a free slot and returns it. Hand it on with `filled()`.
    package func slotToFill() -> Slot {
        free.wait()
        return slots[nextToFill]
    }

    /// The filling side: the slot from `slotToFill()` is ready for the other thread.
    package func filled() {
        nextToFill = (nextToFill + 1) % slots.count
        ready.signal()
    }

    /// The emptying side: waits for a filled slot and returns it. Give it back with `emptied()`.
    package func slotToEmpty() -> Slot {
        ready.wait()
        return slots[nextToEmpty]
    }

    /// The emptying side: the slot from `slotToEmpty()` may be filled again.
    package func emptied() {
        nextToEmpty = (nextToEmpty + 1) % slots.count
        free.signal()
    }
}
