/// The active states of a running machine (SCXML's configuration): in a compound state
/// exactly one child is active, in a parallel state every child. Kept in document order,
/// the root left out; a flat machine's configuration is its one active state.
public struct Configuration: Hashable, Sendable, RandomAccessCollection {
    /// The active states, in document order (parents before children).
    public private(set) var states: [StateID]

    /// A configuration of these states (any order, duplicates ignored).
    public init(_ states: some Sequence<StateID>) {
        self.states = Array(Set(states)).sorted()
    }

    /// A configuration of states already in document order, without duplicates.
    public init(sorted states: [StateID]) {
        self.states = states
    }

    public var startIndex: Int { states.startIndex }
    public var endIndex: Int { states.endIndex }
    public subscript(position: Int) -> StateID { states[position] }

    /// Whether `s` is active.
    public func contains(_ s: StateID) -> Bool {
        var low = 0, high = states.count
        while low < high {
            let mid = (low + high) / 2
            if states[mid] < s { low = mid + 1 } else { high = mid }
        }
        return low < states.count && states[low] == s
    }

    /// The active states without active children (the leaves), in document order.
    public func atomicStates(in machine: Machine) -> [StateID] {
        states.filter { machine.isAtomic($0) }
    }

    /// The states' names, in document order.
    public func names(in machine: Machine) -> [String] { states.map { machine[$0].name } }
}
