import StatecraftModel
import StatecraftRuntime

/// Proofs of `after E within D: X` on the search's configurations, for a machine the search
/// covered completely (every reachable configuration, every distinct input).
///
/// The search alone cannot prove a bounded response: it sends events only at the times its
/// runs reach, and whether `X` comes in time depends on when the environment acts. This
/// proof closes that gap with one argument that holds whatever the environment does:
///
/// After each step that takes `E` (from every configuration the search reached, with every
/// distinct payload), either `X` holds at once, or the machine *waits on one timer*: exactly
/// one timer `T` is armed, nothing else (no other timer, no pending `send`), and `T` comes due
/// by the trigger's time plus `D`. From there, every event (every distinct payload) either
/// answers `X` or leads to another configuration that waits on the same `T` with the same
/// deadline; and in each of those configurations, `T`'s step answers `X`. So in any run the
/// machine stays among those configurations until `X` holds, `T` stays armed with its
/// deadline (nothing re-arms it, and no other timer can fire first), and when it fires at
/// that deadline, at the latest, `X` holds.
///
/// An event's step in those configurations arms nothing (it would leave a second deadline),
/// so its result does not depend on when the environment sends it: trying each event at the
/// configuration's own time covers every time it could come. A step that fails is undone and
/// leaves the configuration as it was. The proof gives up (nil) where any of this does not
/// hold, and the search's "not decided" stands.
struct ResponseSearch {
    let program: Program
    let payloads: PayloadCandidates
    /// The most configurations all the waits together may visit before the proof gives up.
    static let budget = 20_000

    /// Why property `compiled` (an `after E within D: X`) holds, or nil. `nodes` are the
    /// configurations of a search that visited every reachable one.
    func proof(of compiled: CompiledProperty, nodes: [Explorer.Node]) -> String? {
        guard compiled.kind == .response, compiled.triggerEvent >= 0 else { return nil }
        let machine = program.machine
        let event = machine.events[Int(compiled.triggerEvent)]
        var proven: Set<[UInt64]> = []  // configurations after a trigger already shown to wait well
        var strings = SnapshotStrings()
        var key: [UInt64] = []
        var visited = 0
        var triggers = 0
        var timers: Set<Int32> = []
        for node in nodes where node.expand {
            let instance = node.instance
            if instance.isFinished || (instance.nextDeadline.map { $0 <= instance.now } ?? false) { continue }
            guard let candidates = complete(event, in: instance) else { return nil }
            for payload in candidates {
                var after = instance
                guard case .applied = after.send(event.id, payload: payload).result else { continue }
                triggers += 1
                guard let answered = holds(compiled.x, in: after) else { return nil }
                if answered { continue }
                after.writeSnapshotKey(into: &key, strings: &strings)
                if proven.contains(key) { continue }
                guard let timer = waitsWell(after, compiled, deadline: after.now + compiled.deadline, visited: &visited)
                else { return nil }
                timers.insert(timer)
                proven.insert(key)
            }
        }
        if triggers == 0 { return nil }
        let names = timers.sorted().map { t -> String in
            let transition = machine[program.timerTransition(t)]
            let line = machine.source.location(of: transition.keywordRange.start).line
            return "the 'after' timer of '\(machine[transition.source].name)' (line \(line))"
        }
        guard case .response(_, _, let x) = machine.properties[compiled.property].form else { return nil }
        let searched = "after each step that takes '\(event.name)' (the search reached every configuration, with every "
            + "distinct input), '\(machine.text(x.range))' holds at once"
        if names.isEmpty { return searched }
        return searched + " or the machine waits on \(names.joined(separator: " or ")), due in time: there, every event "
            + "makes it hold or keeps the machine waiting on that timer, armed as it was, and the timer's step makes it hold"
    }

    /// The timer `start` waits on, if it waits well: `X` is false there, and in every
    /// configuration reachable from it by events without `X` holding, the same single timer is
    /// armed with the same deadline, due by `deadline`, and its step makes `X` hold.
    private func waitsWell(_ start: Instance, _ compiled: CompiledProperty, deadline: Double,
                           visited: inout Int) -> Int32? {
        let armed = start.armedDeadlines
        guard !start.isFinished, armed.count == 1, armed[0].timer >= 0, armed[0].deadline <= deadline else { return nil }
        let timer = armed[0]
        var strings = SnapshotStrings()
        var key: [UInt64] = []
        var seen: Set<[UInt64]> = []
        start.writeSnapshotKey(into: &key, strings: &strings)
        seen.insert(key)
        // Whether `c` waits on the very timer armed at the trigger, and nothing else. An event
        // that armed it again (entering its state anew) gives it a new number, even where the
        // clock, which these events do not move, gives it the same deadline; so this is asked
        // before configurations are told apart by their keys, which leave the number out.
        func waitsOnTheTimer(_ c: Instance) -> Bool {
            let armed = c.armedDeadlines
            return !c.isFinished && armed.count == 1 && armed[0].timer == timer.timer && armed[0].state == timer.state
                && armed[0].deadline == timer.deadline && armed[0].armed == timer.armed
        }
        var work = [start]
        while let waiting = work.popLast() {
            visited += 1
            guard visited <= Self.budget else { return nil }
            // The timer's step (and any at the same instant after it) answers.
            var fired = waiting
            var failed = false
            fired.advance(to: timer.deadline, onStep: { if case .failed = $0.result { failed = true } })
            guard !failed, fired.unrepresentableDeadline == nil, holds(compiled.x, in: fired) == true else { return nil }
            // Due already: it fires before any event can come.
            if timer.deadline <= waiting.now { continue }
            for event in program.machine.events {
                guard let candidates = complete(event, in: waiting) else { return nil }
                for payload in candidates {
                    var next = waiting
                    switch next.send(event.id, payload: payload).result {
                    case .applied:
                        guard next.unrepresentableDeadline == nil, let answered = holds(compiled.x, in: next) else { return nil }
                        if answered { continue }
                        guard waitsOnTheTimer(next) else { return nil }
                        next.writeSnapshotKey(into: &key, strings: &strings)
                        if seen.insert(key).inserted { work.append(next) }
                    case .failed, .ignored, .afterFinal, .started:
                        continue  // (undone, or nothing happened: the configuration stays)
                    }
                }
            }
        }
        return timer.timer
    }

    /// Every distinct payload of `event` in `instance`'s configuration, or nil when the
    /// search would only sample them there.
    private func complete(_ event: Event, in instance: Instance) -> [[Value]]? {
        if event.fields.isEmpty { return [[]] }
        guard payloads.isComplete(event.id, in: instance) else { return nil }
        var cuts: Set<PayloadCandidates.Cut> = []
        return payloads.candidates(for: event, in: instance, from: payloads.pool(for: instance), cuts: &cuts)
    }

    /// Whether `x` holds in `instance`'s configuration; nil when it fails there.
    private func holds(_ x: CompiledProperty.Block, in instance: Instance) -> Bool? {
        var copy = instance
        return try? copy.holds(x)
    }
}
