import StatecraftModel

// `send e(args) [after d]` and `cancel e`: events a machine sends itself.
//
// SCXML's `<send>` without a target puts the event on the session's external queue, behind
// the events already there, so it is taken in a macrostep of its own after the current one
// (unlike `raise`, which is taken inside it). Here the external queue is the log, so a sent
// event waits in the same list as the armed `after` timers, due at the current instant (or
// after its delay): it is taken before the next log line, in the order it was sent, by the
// same code that fires timers (`advance(to:)`, `fireNextTimer`). Unlike an `after` timer it
// is not tied to a state: leaving the state that sent it does not cancel it; `cancel e`
// does.

extension Instance {
    /// At most this many sent events wait at once: a machine whose every sent event sends
    /// two more would otherwise grow its queue without end before the loop limit stops it.
    static let pendingSentLimit = 100

    /// Send site `site`: evaluates nothing (its arguments and delay are in registers
    /// already) and adds the event, with its payload copied, to the pending list.
    @inline(never)
    mutating func sendToSelf(site: Int) throws(ExpressionFault) {
        var waiting = 0
        for p in pending.elements where p.event >= 0 { waiting += 1 }
        guard waiting < Instance.pendingSentLimit else {
            throw ExpressionFault(.tooManySent(limit: Instance.pendingSentLimit), range: program.sendRanges[site])
        }
        var event = program.sendEvents[site]
        if event < 0 { event = try namedEvent(site: site) }
        let delayRegister = program.sendDelays[site]
        let delay = delayRegister >= 0 ? Swift.max(0, registers.numbers[Int(delayRegister)]) : 0
        let payload = Int32(truncatingIfNeeded: sentNumbers.count)
        for k in Int(program.sendStart[site])..<Int(program.sendStart[site + 1]) {
            let r = program.sendArguments[k]
            if r.file == .number {
                sentNumbers.append(registers.numbers[Int(r.index)])
            } else {
                // A string field's slot holds where the string is in `sentStrings`.
                sentNumbers.append(Double(sentStrings.count))
                sentStrings.append(registers.strings[Int(r.index)])
            }
        }
        sequence += 1
        savePendingTimers()
        if delay > 0 && !Instance.deadlineHolds(at: now, after: delay) { noteUnrepresentable(delay) }
        pending.append(PendingTimer(deadline: now + delay, sequence: sequence, state: -1,
                                    timer: Int32(truncatingIfNeeded: site), event: event, payload: payload))
        updateEarliestDeadline()
    }

    /// The event send-by-name site `site` names now: the one a log line with the computed
    /// string would stand for; a fault when there is none, or when it has payload fields.
    private func namedEvent(site: Int) throws(ExpressionFault) -> Int32 {
        let name = registers.strings[Int(program.sendNames[site])]
        guard let id = program.logNameTable.event(name) else {
            throw ExpressionFault(.unknownEventName(FaultText(name)), range: program.sendRanges[site])
        }
        guard program.payloadStart[id.index] == program.payloadStart[id.index + 1] else {
            throw ExpressionFault(.eventNameHasFields(FaultText(name)), range: program.sendRanges[site])
        }
        return Int32(id.index)
    }

    /// `cancel e`: drops every pending sent event `event`.
    @inline(never)
    mutating func cancelSent(event: Int) {
        guard !pending.isEmpty else { return }
        savePendingTimers()
        pending.removeAll { $0.event == Int32(truncatingIfNeeded: event) }
        updateEarliestDeadline()
    }

    /// Applies sent event `sent` (already removed from `pending`): loads its payload into
    /// the event's registers and runs its step as for an event from the log.
    mutating func applySent(_ sent: PendingTimer) -> RawStep {
        let event = Int(sent.event)
        let first = Int(program.payloadStart[event])
        for k in first..<Int(program.payloadStart[event + 1]) {
            let r = program.payloadRegisters[k]
            let slot = sentNumbers[Int(sent.payload) + k - first]
            if r.file == .number {
                registers.numbers[Int(r.index)] = slot
            } else {
                registers.strings[Int(r.index)] = sentStrings[Int(slot)]
            }
        }
        // The payload storage only grows while sent events are pending; once none is, it
        // starts over (a failed step restores `pending` only, never a payload it dropped:
        // the events sent by the failed step are dropped with it).
        if !pending.elements.contains(where: { $0.event >= 0 }) {
            sentNumbers.removeAll()
            sentStrings.removeAll()
        }
        return apply(event)
    }

    /// The pending sent events, in the order they come due: event, payload, time left.
    package var pendingSent: [(event: EventID, payload: [Value], remaining: Double)] {
        pending.elements.filter { $0.event >= 0 }
            .sorted { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
            .map { sent in
                let event = Int(sent.event)
                let first = Int(program.payloadStart[event])
                let payload = (first..<Int(program.payloadStart[event + 1])).map { k -> Value in
                    let slot = sentNumbers[Int(sent.payload) + k - first]
                    let type = program.fieldTypes[k]
                    return Program.value(type, number: slot, string: type == .string ? sentStrings[Int(slot)] : "")
                }
                return (EventID(event), payload, sent.deadline - now)
            }
    }
}
