import StatecraftAnalysis

/// Random, well-typed flat specs built to trip an analysis up: timers that race with close
/// or tied delays (`after 0.1 + 0.2` beside `after 0.3`), zero and negative delays, steps
/// that fail (a division by a counter that reaches 0, `sqrt` of a negative, overflow),
/// float equality, counters longer than the search's depth, large constants, `%`, events
/// that share a payload field, internal and self transitions, entry actions, `if` actions.
/// Deterministic for a seed.
///
/// `searchReductions` adds what the search's reductions rest on, so that an unsound one is
/// caught: a `String` field copied into a variable and compared with constants and `""`;
/// variables that decide nothing (a counter and a copy of a payload, only emitted) beside
/// ones that look alike but do decide (copied into a variable a guard reads); and the
/// debounce pattern, `cancel check; send check(x) after 0.3`, whose sent payload a guard reads.
package struct SpecGenerator {
    var rng: SplitMix64
    let searchReductions: Bool

    package init(seed: UInt64, searchReductions: Bool = false) {
        rng = SplitMix64(seed: seed)
        self.searchReductions = searchReductions
    }

    mutating func int(_ n: Int) -> Int { Int(rng.next() % UInt64(max(1, n))) }
    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
    mutating func pick<T>(_ options: [T]) -> T { options[int(options.count)] }

    /// The text of one machine.
    package mutating func spec(name: String = "Random") -> String {
        let stateCount = 2 + int(4)
        let numberVars = ["a", "b", "c"].prefix(1 + int(3)).map { $0 }
        let hasFlag = chance(40)
        // Events: `tick` with no payload; `move(x)` and `press(x, force)` share field x.
        var events = ["tick"]
        if chance(80) { events.append("move") }
        if chance(50) { events.append("press") }
        if searchReductions { events += ["type", "check"] }
        let hasFinal = chance(30)
        var lines = ["machine \(name) {"]
        for v in numberVars { lines.append("    public var \(v): Number = \(pick(["0", "1", "2", "3", "-1", "0.5"]))") }
        if hasFlag { lines.append("    public var flag: Bool = \(pick(["true", "false"]))") }
        if searchReductions {
            lines += ["    public var label: String = \(pick(["\"\"", "\"a\""]))", "    public var hits: Number = 0",
                      "    public var last: Number = 0", "    public var shown: String = \"\"",
                      "    output seen(hits: Number, last: Number, shown: String)"]
        }
        for e in events {
            switch e {
            case "move": lines.append("    event move(x: Number)")
            case "press": lines.append("    event press(x: Number, force: Number)")
            case "type": lines.append("    event type(text: String)")
            case "check": lines.append("    event check(x: Number)")
            default: lines.append("    event \(e)")
            }
        }
        let states = (0..<stateCount).map { "s\($0)" }
        for (i, s) in states.enumerated() {
            let isFinal = hasFinal && i == stateCount - 1 && i > 0
            if isFinal {
                lines.append("    final state \(s)")
                continue
            }
            lines.append("    \(i == 0 ? "initial " : "")state \(s) {")
            if chance(25) { lines.append("        entry { \(action(numberVars, fields: [])) }") }
            let transitionCount = 1 + int(4)
            for _ in 0..<transitionCount {
                lines.append("        " + transition(states: states, numberVars: numberVars, hasFlag: hasFlag, events: events))
            }
            // Timer races of the shapes that broke proofs: a sooner timer whose step can fail
            // (the later one then fires), and delays that tie once rounded at some entry time.
            if chance(35) {
                let v = pick(numberVars)
                switch int(3) {
                case 0:
                    lines.append("        after \(pick(["0.5", "1s"])) -> \(pick(states)) { \(pick(numberVars)) = 1 / \(v) }")
                    lines.append("        after 2s -> \(pick(states))")
                case 1:
                    lines.append("        after 0.3 -> \(pick(states))")
                    lines.append("        after 0.1 + 0.2 -> \(pick(states))")
                default:
                    lines.append("        after 0.1 + 0.2 -> \(pick(states))")
                    lines.append("        after 0.3 -> \(pick(states))")
                }
                lines.append("        on tick { \(v) -= 1 }")
            }
            if searchReductions { lines += reductionTransitions(states: states, numberVars: numberVars, events: events) }
            lines.append("    }")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A state's transitions on the events of `searchReductions`.
    mutating func reductionTransitions(states: [String], numberVars: [String], events: [String]) -> [String] {
        var lines: [String] = []
        let text = pick(["\"\"", "\"a\"", "\"s1\""])
        switch int(3) {
        case 0: lines.append("        on type { label = text; shown = text; hits += 1 }")
        case 1: lines.append("        on type if text != \(text) { label = text }")
        default: lines.append("        on type { shown = label; label = text; emit seen(hits, last, shown) }")
        }
        if events.contains("move") && chance(60) {
            let x = pick(["x", "\(pick(numberVars))", "x + 1"])
            lines.append("        on move { last = x; hits += 1; cancel check; send check(\(x)) after \(pick(["0.3", "0.5", "0"])) }")
        }
        if chance(70) {
            let guardText = pick(["label == \(text)", "label != \"\"", "x > \(pick(["0", "1", "3"]))", "x == 2"])
            let action = pick(["", " { \(pick(numberVars)) = x }", " { \(pick(numberVars)) = last }", " { emit seen(hits, x, label) }"])
            lines.append("        on check if \(guardText) -> \(pick(states))" + action)
        }
        if chance(30) { lines.append("        on tick if label == \(text) -> \(pick(states)) { hits += 2 }") }
        return lines
    }

    mutating func transition(states: [String], numberVars: [String], hasFlag: Bool, events: [String]) -> String {
        var fields: [String] = []
        var trigger: String
        if chance(30) {
            trigger = "after " + pick(["0s", "-1", "0.1 + 0.2", "0.3", "1s", "2s", "0.5", "1", numberVars[0], "0.001"])
        } else {
            let event = pick(events)
            if event == "move" && events.contains("press") && chance(30) {
                trigger = "on move, press"
                fields = ["x"]
            } else {
                trigger = "on " + event
                fields = event == "move" ? ["x"] : event == "press" ? ["x", "force"] : []
            }
        }
        var text = trigger
        if chance(60) { text += " if " + condition(numberVars, fields: fields, hasFlag: hasFlag) }
        if chance(80) { text += " -> " + pick(states) }
        if chance(50) {
            var actions: [String] = []
            for _ in 0..<(1 + int(2)) { actions.append(action(numberVars, fields: fields)) }
            if hasFlag && chance(20) { actions.append("flag = !flag") }
            text += " { " + actions.joined(separator: "; ") + " }"
        }
        return text
    }

    mutating func value(_ numberVars: [String], fields: [String]) -> String {
        var options = numberVars + ["0", "1", "2", "3", "0.1", "0.3", "12", "100", "1e300"]
        options += fields
        return pick(options)
    }

    /// A variable or a payload field: what a guard reads, so it is not a constant.
    mutating func operand(_ numberVars: [String], fields: [String]) -> String {
        pick(numberVars + fields + fields)
    }

    mutating func condition(_ numberVars: [String], fields: [String], hasFlag: Bool) -> String {
        let left = chance(90) ? operand(numberVars, fields: fields) : value(numberVars, fields: fields)
        let constant = pick(["0", "1", "2", "3", "0.3", "5", "13", "14", "100", "250", "-1"])
        switch int(9) {
        case 0: return "\(left) > \(constant)"
        case 1: return "\(left) == \(constant)"
        case 2: return "\(left) < \(constant)"
        case 3: return "\(left) % 3 == \(pick(["0", "1", "2"]))"
        case 4: return "10 / \(left) > 2"
        case 5: return "\(left) * 1e300 > 1"
        case 6: return hasFlag ? "flag" : "\(left) >= \(constant)"
        case 7: return "sqrt(\(left)) < \(constant)"
        default: return "\(left) != \(constant) && \(value(numberVars, fields: fields)) <= \(constant)"
        }
    }

    mutating func action(_ numberVars: [String], fields: [String]) -> String {
        let target = pick(numberVars)
        switch int(10) {
        case 0: return "\(target) += 1"
        case 1: return "\(target) -= 1"
        case 2: return "\(target) = \(value(numberVars, fields: fields))"
        case 3: return "\(target) = \(value(numberVars, fields: fields)) * 2"
        case 4: return "\(target) = 1 / \(value(numberVars, fields: fields))"
        case 5: return "\(target) += 0.1"
        case 6: return "\(target) = \(target) % 5"
        case 7: return "\(target) = \(target) * \(pick(["10", "1e300", "-1"]))"
        case 8: return "if \(target) > 3 { \(target) = 0 } else { \(target) += 2 }"
        default: return "\(target) = sqrt(\(value(numberVars, fields: fields)))"
        }
    }
}
