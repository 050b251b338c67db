/// The armed timers of an instance: a list that keeps its storage when it shrinks, changed
/// in place element by element, so arming, cancelling and firing timers step after step
/// allocates nothing once the storage is large enough.
struct TimerList: Sendable {
    private var storage: [Instance.PendingTimer] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    subscript(_ k: Int) -> Instance.PendingTimer { storage[k] }

    /// The timers, in the order they were armed.
    var elements: ArraySlice<Instance.PendingTimer> { storage[0..<count] }

    mutating func append(_ timer: Instance.PendingTimer) {
        if count < storage.count {
            storage[count] = timer
        } else {
            storage.append(timer)
        }
        count += 1
    }

    /// Removes timer `k`; the later ones move down one place.
    mutating func remove(at k: Int) -> Instance.PendingTimer {
        let timer = storage[k]
        var j = k
        while j + 1 < count {
            storage[j] = storage[j + 1]
            j += 1
        }
        count -= 1
        return timer
    }

    /// Removes the timers of state `s`, keeping the order of the rest.
    mutating func removeAll(armedBy s: Int32) {
        var kept = 0
        for k in 0..<count where storage[k].state != s {
            storage[kept] = storage[k]
            kept += 1
        }
        count = kept
    }

    mutating func removeAll() { count = 0 }

    /// Makes this list hold the timers of `other`.
    mutating func copy(_ other: TimerList) {
        count = 0
        for k in 0..<other.count { append(other.storage[k]) }
    }
}
