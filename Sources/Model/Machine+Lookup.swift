extension Machine {
    /// The state with this name (state names are unique in a machine); nil for none.
    public func state(named name: String) -> StateID? {
        states.dropFirst().first { $0.name == name }?.id
    }
}
