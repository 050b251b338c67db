import StatecraftModel

extension Instance {
    /// Whether state `s` is active: the active leaf or one of its ancestors.
    func isActive(_ s: Int) -> Bool {
        var current = state.index
        while current >= 0 {
            if current == s { return true }
            current = Int(program.parents[current])
        }
        return false
    }

    /// Puts raise site `site`'s event on the internal queue.
    @inline(never)
    mutating func raise(site: Int) {
    }
}
