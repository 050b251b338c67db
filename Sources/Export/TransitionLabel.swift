import StatecraftDiagnostics
import StatecraftModel

/// The parts of a transition's label, as both writers show them: what triggers it, the guard
/// as written, and the outputs it emits and events it raises with their arguments as written.
struct TransitionLabel {
    /// `touchEnded, touchCancelled`, `after 2s`, `done`, `done(playback)` or `always`, after
    /// `internal ` for a transition written `internal` (its source is not exited).
    var trigger: String
    /// The guard's source text, without brackets; nil when there is none.
    var guardText: String?
    /// `rated(rating)` per `emit` and `raise tick` per `raise`, in source order; those
    /// inside an `if` are grouped under its condition (see `outputs(of:in:)`).
    var outputs: [String]

    init(_ transition: Transition, in machine: Machine) {
        switch transition.trigger {
        case .events(let ids):
            trigger = ids.map { Self.eventName($0, in: machine) }.joined(separator: ", ")
        case .after(let duration):
            trigger = "after " + Self.sourceText(duration.range, in: machine)
        case .done(let state):
            trigger = state == transition.source ? "done" : "done(\(machine[state].name))"
        case .always:
            trigger = "always"
        }
        if transition.isInternal { trigger = "internal " + trigger }
        guardText = transition.guardExpr.map { Self.sourceText($0.range, in: machine) }
        outputs = Self.outputs(of: transition.actions, in: machine)
    }

    /// The label's parts, empty ones left out: `trigger`, `[guard]`, `/ outputs`.
    var parts: [String] {
        var parts = [trigger]
        if let guardText { parts.append("[" + guardText + "]") }
        if !outputs.isEmpty { parts.append("/ " + outputs.joined(separator: ", ")) }
        return parts
    }

    /// The whole label on one line.
    var singleLine: String { parts.joined(separator: " ") }

    /// The outputs `actions` emit and the events they raise (`raise tick(1)`), with
    /// arguments as written, in source order. Those inside an `if` keep its condition, in
    /// the language's own braces (`if in(cameraOn) { raise toggleCamera }`), so a reader
    /// does not take a conditional output for one that always happens; an `if` with no
    /// output in either branch is left out, like an assignment.
    static func outputs(of actions: [Action], in machine: Machine) -> [String] {
        var result: [String] = []
        for action in actions {
            switch action {
            case .emit(let id, let arguments, _):
                let name = machine.outputs.indices.contains(id.index) ? machine.outputs[id.index].name : "?"
                result.append(call(name, arguments, in: machine))
            case .raise(let id, let arguments, _):
                result.append("raise " + call(eventName(id, in: machine), arguments, in: machine))
            case .send(let id, let arguments, let delay, _):
                result.append("send " + call(eventName(id, in: machine), arguments, in: machine)
                              + (delay.map { " after " + sourceText($0.range, in: machine) } ?? ""))
            case .sendNamed(let name, let delay, _):
                result.append("send " + sourceText(name.range, in: machine)
                              + (delay.map { " after " + sourceText($0.range, in: machine) } ?? ""))
            case .cancel(let id, _):
                result.append("cancel " + eventName(id, in: machine))
            case .ifAction(let condition, let then, let otherwise, _):
                if let text = conditional(condition, then, otherwise, in: machine) { result.append(text) }
            case .assign, .setLocal:
                break
            }
        }
        return result
    }

    /// `if c { a, b }`, `if c { a } else { b }`, `if c {} else { b }` or, for an `else`
    /// that is only another `if`, `if c { a } else if d { b }`; nil when neither branch
    /// has an output.
    private static func conditional(_ condition: Expr, _ then: [Action], _ otherwise: [Action],
                                    in machine: Machine) -> String? {
        let thenOutputs = outputs(of: then, in: machine)
        let otherOutputs = outputs(of: otherwise, in: machine)
        guard !thenOutputs.isEmpty || !otherOutputs.isEmpty else { return nil }
        func block(_ items: [String]) -> String { items.isEmpty ? "{}" : "{ " + items.joined(separator: ", ") + " }" }
        var text = "if " + sourceText(condition.range, in: machine) + " " + block(thenOutputs)
        if !otherOutputs.isEmpty {
            if otherwise.count == 1, case .ifAction = otherwise[0] {
                text += " else " + otherOutputs[0]
            } else {
                text += " else " + block(otherOutputs)
            }
        }
        return text
    }

    /// `name` alone, or `name(a, b)` with the arguments as written.
    private static func call(_ name: String, _ arguments: [Expr], in machine: Machine) -> String {
        guard !arguments.isEmpty else { return name }
        return name + "(" + arguments.map { sourceText($0.range, in: machine) }.joined(separator: ", ") + ")"
    }

    /// An event's name, or `?` for an id outside the machine (a model built by hand).
    static func eventName(_ id: EventID, in machine: Machine) -> String {
        machine.events.indices.contains(id.index) ? machine.events[id.index].name : "?"
    }

    /// The source text of `range` on one line: comments are dropped and every run of white
    /// space outside string literals becomes one space, so a guard written over several
    /// lines, with comments between, reads as it would on one.
    static func sourceText(_ range: SourceRange, in machine: Machine) -> String {
        let chars = Array(machine.text(range))
        var out = ""
        var pendingSpace = false
        var i = 0
        while i < chars.count {
            let ch = chars[i]
            let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
            if ch.isWhitespace || (ch == "/" && (next == "/" || next == "*")) {
                i = skipSpaceOrComment(chars, from: i)
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace {
                out.append(" ")
                pendingSpace = false
            }
            if ch == "\"" {
                let end = stringLiteralEnd(chars, from: i)
                out.append(contentsOf: String(chars[i..<end]))
                i = end
            } else {
                out.append(ch)
                i += 1
            }
        }
        return out
    }

    /// The index after the white space, `//` comment or nested `/* */` comment at `start`.
    private static func skipSpaceOrComment(_ chars: [Character], from start: Int) -> Int {
        var i = start
        if chars[i].isWhitespace { return i + 1 }
        if chars[i + 1] == "/" {
            while i < chars.count && !chars[i].isNewline { i += 1 }
            return i
        }
        var depth = 0
        while i < chars.count {
            if chars[i] == "/" && i + 1 < chars.count && chars[i + 1] == "*" {
                depth += 1
                i += 2
            } else if chars[i] == "*" && i + 1 < chars.count && chars[i + 1] == "/" {
                depth -= 1
                i += 2
                if depth == 0 { return i }
            } else {
                i += 1
            }
        }
        return i
    }

    /// The index after the string literal that opens at `start` (or the end of the text).
    private static func stringLiteralEnd(_ chars: [Character], from start: Int) -> Int {
        var i = start + 1
        while i < chars.count {
            if chars[i] == "\\" {
                i += 2
            } else if chars[i] == "\"" {
                return i + 1
            } else {
                i += 1
            }
        }
        return chars.count
    }
}
