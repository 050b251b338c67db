import Statecraft

// What the scroll view reports, sent to the machine as events. The times are seconds on any
// clock that only goes forward (a display link's timestamp, or a test's own numbers).
extension PullToRefreshController {
    /// scrollViewDidScroll: the content offset's y, negative when the list is pulled down.
    func scrolled(offsetY: Double, at time: Double) {
        send("scroll", ["offsetY": .number(offsetY)], at: time)
    }

    /// scrollViewWillEndDragging: the finger left the list.
    func endedDragging(at time: Double) {
        send("endDragging", at: time)
    }

    /// The app's fetch finished.
    func finishedRefreshing(at time: Double) {
        send("endRefreshing", at: time)
    }

    /// A display link's tick: fires the timers due by `time` (the 2 s limit on a refresh).
    func tick(at time: Double) {
        instance.advance(to: time, emit: deliver)
    }

    private func send(_ event: String, _ payload: [String: Value] = [:], at time: Double) {
        instance.advance(to: time, emit: deliver)   // timers due before the event fire first
        guard let step = instance.send(event, payload, emit: deliver) else {
            // Not an event of the spec, or a payload that does not fit it: a bug in the glue.
            whyNotTaken = "the spec has no event \(event) with the fields \(payload.keys.sorted())"
            return
        }
        switch step.result {
        case .applied:
            whyNotTaken = nil
        case .ignored:
            // Why, as data: each transition of the active states that could have taken the
            // event, with what its guard said and the values it read (none if no transition
            // takes the event at all). `WhyNotTaken` says it in words for the app's logs.
            let candidates = instance.program.event(named: event).map(instance.candidates(for:)) ?? []
            whyNotTaken = WhyNotTaken.sentence(candidates, in: instance.program.machine,
                                               namingStates: instance.program.isStatechart)
                ?? "no transition of \(state) takes \(event)"
        case .failed(let fault):
            // Rejected: an expression could not be computed (here, an offset that is not a
            // finite number); the step was undone, so the machine is as it was before.
            whyNotTaken = "\(event) was rejected: \(fault.message)"
        case .started, .afterFinal:
            whyNotTaken = "\(event) arrived after the run ended"
        }
    }
}
