import Statecraft

// What the view draws, read from the machine after each event.
extension PullToRefreshController {
    /// The active state's name: "idle", "pulling" or "refreshing".
    var state: String { machine[instance.state].name }

    /// Whether the spinner turns.
    var isRefreshing: Bool { state == "refreshing" }

    /// How far the refresh view is pulled into sight, 0...1.
    var progress: Double { number("progress") }

    /// The room to keep above the list (the scroll view's contentInset.top).
    var insetTop: Double { number("insetTop") }

    private func number(_ variable: String) -> Double {
        if case .number(let value)? = instance.value(of: variable) { return value }
        return 0
    }
}
