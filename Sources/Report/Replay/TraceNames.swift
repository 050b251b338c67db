@_spi(Bytes) import StatecraftDiagnostics
import StatecraftModel
import StatecraftReplay
import StatecraftRuntime

/// The fixed text of a machine's trace lines, rendered once per machine: names quoted for
/// JSON together with the punctuation around them (`, "event": "scroll", "timer": false,
/// "payload": {`), and plain for text. Formatting a step then copies a few runs of bytes by
/// id, and writes only its numbers and strings, instead of quoting names and appending
/// a dozen literals per step.
///
/// All runs live in one buffer, so using one retains nothing.
package final class TraceNames {
    /// A run of bytes in `bytes`.
    private struct Piece {
        var start: Int32
        var count: Int32
    }

    private let bytes: UnsafeMutablePointer<UInt8>

    // JSON Lines, in the order a line uses them.
    /// By event: `, "event": "scroll", "timer": false, "payload": {`.
    private let eventHeads: [Piece]
    private let sentHeads: [Piece]
    /// By transition (the `after` ones; empty for others): `, "event": "after 2s", "timer":
    /// true, "payload": {`; and the same with `after` alone, for a timer's step whose
    /// transition is not known.
    private let timerHeads: [Piece]
    private let unknownTimerHead: Piece
    /// By field, flat like the program's (`fieldStart[e] + i`): `, "offsetY": ` (the first of
    /// a payload skips the `, `).
    private let fieldKeys: [Piece]
    private let fieldStart: [Int]
    /// By state: `}, "from": "idle", "to": ` and `"idle", "result": `.
    private let fromPieces: [Piece]
    private let toPieces: [Piece]
    /// By variable: `, "progress": ` (the first of `changed` skips the `, `).
    private let variableKeys: [Piece]
    /// By output: `, {"name": "didTap", "args": [` (the first of `outputs` skips the `, `).
    private let outputHeads: [Piece]

    // Text.
    /// By event, by transition (and for an unknown timer), by state: the names as they are.
    private let textEvents: [Piece]
    private let textTimers: [Piece]
    private let textUnknownTimer: Piece
    private let textStates: [Piece]
    /// By field, flat: `offsetY: `; by variable: `progress = `; by output, its name.
    private let textFieldKeys: [Piece]
    private let textVariableKeys: [Piece]
    private let textOutputs: [Piece]
    /// For the microsteps of a statechart's steps.
    private let machine: Machine
    /// By state: its name quoted for JSON; by transition: `{"source": …, "target": …, "line": N}`.
    private let quotedStates: [Piece]
    private let transitionObjects: [Piece]
    /// By state: the fields of its completion (its final children's values), whose values a
    /// `done` microstep shows as an event's payload is shown.
    private let completionFields: [[String]]

    package init(_ machine: Machine) {
        self.machine = machine
        var buffer: [UInt8] = []
        func piece(_ text: String) -> Piece {
            let start = Int32(buffer.count)
            buffer.append(contentsOf: text.utf8)
            return Piece(start: start, count: Int32(buffer.count) - start)
        }
        let q = JSONWriter.quote
        eventHeads = machine.events.map { piece(", \"event\": \(q($0.name)), \"timer\": false, \"payload\": {") }
        sentHeads = machine.events.map { piece(", \"event\": \(q($0.name)), \"timer\": false, \"sent\": true, \"payload\": {") }
        let timerNames = machine.transitions.map { t -> String? in
            if case .after = t.trigger { return TraceBatch.timerName(machine, t.id) }
            return nil
        }
        timerHeads = timerNames.map { piece($0.map { ", \"event\": \(q($0)), \"timer\": true, \"payload\": {" } ?? "") }
        unknownTimerHead = piece(", \"event\": \(q(TraceBatch.timerName(machine, nil))), \"timer\": true, \"payload\": {")
        let fields = machine.events.flatMap(\.fields)
        fieldKeys = fields.map { piece(", \(q($0.name)): ") }
        var start = [0]
        for e in machine.events { start.append(start[start.count - 1] + e.fields.count) }
        fieldStart = start
        fromPieces = machine.states.map { piece("}, \"from\": \(q($0.name)), \"to\": ") }
        toPieces = machine.states.map { piece("\(q($0.name)), \"result\": ") }
        variableKeys = machine.variables.map { piece(", \(q($0.name)): ") }
        outputHeads = machine.outputs.map { piece(", {\"name\": \(q($0.name)), \"args\": [") }

        textEvents = machine.events.map { piece($0.name) }
        textTimers = timerNames.map { piece($0 ?? "") }
        textUnknownTimer = piece(TraceBatch.timerName(machine, nil))
        textStates = machine.states.map { piece($0.name) }
        textFieldKeys = fields.map { piece("\($0.name): ") }
        textVariableKeys = machine.variables.map { piece("\($0.name) = ") }
        textOutputs = machine.outputs.map { piece($0.name) }
        quotedStates = machine.states.map { piece(q($0.name)) }
        completionFields = machine.states.map { machine.completionFields($0.id).map(\.name) }
        transitionObjects = machine.transitions.map { t in
            piece("{\"source\": \(q(machine[t.source].name)), \"target\": "
                  + (t.target.map { q(machine[$0].name) } ?? "null")
                  + ", \"line\": \(machine.source.location(of: t.keywordRange.start).line)}")
        }

        bytes = .allocate(capacity: max(1, buffer.count))
        bytes.initialize(from: buffer, count: buffer.count)
    }

    deinit {
        bytes.deallocate()
    }

    @inline(__always)
    private func append(_ piece: Piece, dropping skipped: Int32 = 0, to out: inout ByteBuffer) {
        out.append(UnsafeBufferPointer(start: bytes + Int(piece.start + skipped), count: Int(piece.count - skipped)))
    }

    // MARK: - JSON Lines

    /// Step `k` as a JSON object on one line (without the line end), after `prefix`
    /// (`{"log": "<path>", "line": `).
    package func appendJSON(_ batch: TraceBatch, _ k: Int, prefix: UnsafeBufferPointer<UInt8>, to out: inout ByteBuffer) {
        let step = batch[k]
        out.append(prefix)
        JSONWriter.appendInteger(Int64(step.line), to: &out)
        if let key = batch.caseKey(k) {
            out.append(", \"case\": ")
            JSONWriter.appendQuoted(key, to: &out)
            out.append(", \"time\": ")
        } else {
            out.append(", \"case\": null, \"time\": ")
        }
        JSONWriter.appendNumber(step.time, to: &out)
        if let event = step.eventID {
            append(step.isSent ? sentHeads[event.index] : eventHeads[event.index], to: &out)
            let first = fieldStart[event.index]
            for i in 0..<batch.payloadCount(k) {
                append(fieldKeys[first + i], dropping: i == 0 ? 2 : 0, to: &out)
                batch.payload(k, i).appendJSON(to: &out)
            }
        } else {
            append(step.timerTransition.map { timerHeads[$0.index] } ?? unknownTimerHead, to: &out)
        }
        append(fromPieces[step.fromState.index], to: &out)
        append(toPieces[step.toState.index], to: &out)
        let outputs = batch.outputRange(k)
        let hasOutputs = !outputs.isEmpty
        switch (step.result, !hasOutputs) {
        case (.applied, true): out.append("\"applied\", \"outputs\": [], \"changed\": {")
        case (.ignored, _) where step.isSent:
            // An event the machine sent itself that no transition took is lost, not an
            // ignored line of the log (the report does not count it as ignored).
            out.append(hasOutputs ? "\"lost\", \"outputs\": [" : "\"lost\", \"outputs\": [], \"changed\": {")
        case (.ignored, true) where batch.message(k) != nil:
            out.append("\"ignored\", \"message\": ")
            JSONWriter.appendQuoted(batch.message(k) ?? "", to: &out)
            out.append(", \"outputs\": [], \"changed\": {")
        case (.ignored, true): out.append("\"ignored\", \"outputs\": [], \"changed\": {")
        case (.afterFinal, true): out.append("\"after-final\", \"outputs\": [], \"changed\": {")
        case (.applied, false): out.append("\"applied\", \"outputs\": [")
        case (.ignored, false): out.append("\"ignored\", \"outputs\": [")
        case (.afterFinal, false): out.append("\"after-final\", \"outputs\": [")
        case (.rejected, _):
            out.append("\"rejected\", \"message\": ")
            JSONWriter.appendQuoted(batch.message(k) ?? "", to: &out)
            out.append(hasOutputs ? ", \"outputs\": [" : ", \"outputs\": [], \"changed\": {")
        }
        if hasOutputs {
            for o in outputs {
                append(outputHeads[batch.output(o).index], dropping: o == outputs.lowerBound ? 2 : 0, to: &out)
                for (j, argument) in batch.outputArguments(o).enumerated() {
                    if j > 0 { out.append(", ") }
                    argument.appendJSON(to: &out)
                }
                out.append("]}")
            }
            out.append("], \"changed\": {")
        }
        var skipped: Int32 = 2
        for c in batch.changedRange(k) {
            append(variableKeys[batch.changedVariable(c).index], dropping: skipped, to: &out)
            skipped = 0
            batch.changedValue(c).appendJSON(to: &out)
        }
        if step.result == .applied, let t = step.transitionID, machine[t].target == nil {
            out.append("}, \"targetless\": true")
        } else {
            out.append(UInt8(ascii: "}"))
        }
        if let configurations = batch.configurations(k) { appendChartJSON(batch, k, after: configurations.after, to: &out) }
        out.append(UInt8(ascii: "}"))
    }

    /// A statechart step's configuration after it and its microsteps, as JSON members.
    private func appendChartJSON(_ batch: TraceBatch, _ k: Int, after: [StateID], to out: inout ByteBuffer) {
        func appendNames(_ states: [StateID]) {
            out.append(UInt8(ascii: "["))
            for (i, s) in states.enumerated() {
                if i > 0 { out.append(", ") }
                append(quotedStates[s.index], to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(", \"configuration\": ")
        appendNames(after)
        out.append(", \"microsteps\": [")
        for (i, m) in batch.microsteps(k).enumerated() {
            let (kind, name) = trigger(m.trigger)
            out.append(i == 0 ? "{\"trigger\": \"" : ", {\"trigger\": \"")
            out.append(contentsOf: kind)
            out.append("\", \"name\": ")
            if let name { JSONWriter.appendQuoted(name, to: &out) } else { out.append("null") }
            // A completion's values, as a step's payload: `"payload": {"code": 200}`.
            if case .completion(let s) = m.trigger, !m.values.isEmpty {
                out.append(", \"payload\": {")
                for (j, (field, value)) in zip(completionFields[s.index], m.values).enumerated() {
                    if j > 0 { out.append(", ") }
                    JSONWriter.appendQuoted(field, to: &out)
                    out.append(": ")
                    value.appendJSON(to: &out)
                }
                out.append(UInt8(ascii: "}"))
            }
            out.append(", \"transitions\": [")
            for (j, t) in m.transitions.enumerated() {
                if j > 0 { out.append(", ") }
                append(transitionObjects[t.index], to: &out)
            }
            out.append("], \"exited\": ")
            appendNames(m.exited)
            out.append(", \"entered\": ")
            appendNames(m.entered)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
    }

    /// How a trace names a microstep's trigger: its kind (`event`, `timer`, `raised`, `done`,
    /// `always`, `start`) and the event, timer or state it names.
    private func trigger(_ trigger: MicrostepLog.Trigger) -> (kind: String, name: String?) {
        switch trigger {
        case .event(let e): ("event", machine[e].name)
        case .timer(let t): ("timer", TraceBatch.timerName(machine, t))
        case .raised(let e): ("raised", machine[e].name)
        case .completion(let s): ("done", machine[s].name)
        case .eventless: ("always", nil)
        case .start: ("start", nil)
        }
    }

    // MARK: - Text

    /// `line 14, t=1.25: endDragging: pulling -> refreshing; emitted didRefresh; set insetTop = 110`
    /// and the line end.
    package func appendText(_ batch: TraceBatch, _ k: Int, to out: inout ByteBuffer) {
        let step = batch[k]
        out.append("line ")
        JSONWriter.appendInteger(Int64(step.line), to: &out)
        if let key = batch.caseKey(k) {
            out.append(", case ")
            out.append(contentsOf: key)
        }
        out.append(", t=")
        Value.number(step.time).appendDescription(to: &out)
        out.append(": ")
        if let event = step.eventID {
            if step.isSent { out.append("sent ") }
            append(textEvents[event.index], to: &out)
            let first = fieldStart[event.index]
            let count = batch.payloadCount(k)
            for i in 0..<count {
                out.append(i == 0 ? "(" : ", ")
                append(textFieldKeys[first + i], to: &out)
                batch.payload(k, i).appendDescription(to: &out)
            }
            if count > 0 { out.append(UInt8(ascii: ")")) }
        } else {
            append(step.timerTransition.map { textTimers[$0.index] } ?? textUnknownTimer, to: &out)
        }
        out.append(": ")
        let from = textStates[step.fromState.index]
        let configurations = batch.configurations(k)
        switch step.result {
        case .applied where configurations != nil:
            let before = configurations?.before ?? [], after = configurations?.after ?? []
            if before == after && batch.microsteps(k).allSatisfy({ $0.exited.isEmpty && $0.entered.isEmpty }) {
                out.append(contentsOf: "stays in " + leaves(after) + " (targetless)")
            } else {
                out.append(contentsOf: leaves(before) + " -> " + leaves(after))
            }
        case .applied where step.transitionID.map { machine[$0].target == nil } ?? false:
            out.append("stays in ")
            append(from, to: &out)
            out.append(" (targetless)")
        case .applied:
            append(from, to: &out)
            out.append(" -> ")
            append(textStates[step.toState.index], to: &out)
        case .ignored where step.isSent:
            out.append("lost in ")
            if let before = configurations?.before { out.append(contentsOf: leaves(before)) } else { append(from, to: &out) }
            out.append(", no transition takes it")
        case .ignored:
            // A statechart is in several states at once: the trace names all its leaves
            // (its message names the state of each guard).
            out.append("ignored in ")
            if let before = configurations?.before { out.append(contentsOf: leaves(before)) } else { append(from, to: &out) }
            if let why = batch.message(k) {
                out.append(": ")
                out.append(contentsOf: why)
            }
        case .afterFinal:
            out.append("ignored, the run ended in ")
            append(from, to: &out)
        case .rejected:
            out.append("rejected: ")
            out.append(contentsOf: batch.message(k) ?? "")
        }
        for o in batch.outputRange(k) {
            out.append(o == batch.outputRange(k).lowerBound ? "; emitted " : ", ")
            append(textOutputs[batch.output(o).index], to: &out)
            let arguments = batch.outputArguments(o)
            if !arguments.isEmpty {
                for (j, argument) in arguments.enumerated() {
                    out.append(j == 0 ? "(" : ", ")
                    argument.appendDescription(to: &out)
                }
                out.append(UInt8(ascii: ")"))
            }
        }
        var first = true
        for c in batch.changedRange(k) {
            out.append(first ? "; set " : ", ")
            first = false
            append(textVariableKeys[batch.changedVariable(c).index], to: &out)
            batch.changedValue(c).appendDescription(to: &out)
        }
        out.append(UInt8(ascii: "\n"))
        for m in batch.microsteps(k) { out.append(contentsOf: microstepText(m) + "\n") }
    }

    /// A completion's values as a step's line shows its event's payload, `(code: 200, note: "ok")`;
    /// nothing without values.
    private func payload(_ fields: [String], _ values: [Value]) -> String {
        values.isEmpty ? "" : "(" + zip(fields, values).map { "\($0): \($1.description)" }.joined(separator: ", ") + ")"
    }

    /// The active atomic states of a configuration, comma separated (`playing, muted`).
    private func leaves(_ configuration: [StateID]) -> String {
        let names = configuration.filter { machine.isAtomic($0) }.map { machine[$0].name }
        return names.isEmpty ? "(none)" : names.joined(separator: ", ")
    }

    /// `    on interrupt: exited playing, ready; took ready -> interrupted (line 12); entered interrupted`
    private func microstepText(_ m: TraceMicrostep) -> String {
        let (kind, name) = trigger(m.trigger)
        let head: String = switch m.trigger {
        case .event: "on " + (name ?? "")
        case .timer: name ?? "after"
        case .raised: "raised " + (name ?? "")
        case .completion(let s): "done(" + (name ?? "") + ")" + payload(completionFields[s.index], m.values)
        case .eventless, .start: kind
        }
        var text = "    " + head
        if m.transitions.isEmpty && m.exited.isEmpty && m.entered.isEmpty {
            switch m.trigger {
            case .raised, .completion: return text + ": lost, no transition takes it"
            default: break
            }
        }
        var parts: [String] = []
        if !m.exited.isEmpty { parts.append("exited " + m.exited.map { machine[$0].name }.joined(separator: ", ")) }
        if !m.transitions.isEmpty {
            parts.append("took " + m.transitions.map { t in
                let source = machine[machine[t].source].name
                let line = machine.source.location(of: machine[t].keywordRange.start).line
                return source + (machine[t].target.map { " -> " + machine[$0].name } ?? " (targetless)") + " (line \(line))"
            }.joined(separator: ", "))
        }
        if !m.entered.isEmpty { parts.append("entered " + m.entered.map { machine[$0].name }.joined(separator: ", ")) }
        text += ": " + parts.joined(separator: "; ")
        return text
    }
}
