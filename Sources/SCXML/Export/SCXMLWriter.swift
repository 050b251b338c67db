import StatecraftDiagnostics
import StatecraftModel

/// Writes a resolved machine as an SCXML 1.0 document with the ECMAScript data model.
///
/// One element per line, indented by two spaces, states in document order, so the output
/// depends only on the machine. The conventions the importer reads back (timer events,
/// send ids, `let` data items) are in `SCXMLNames`; expressions are written by `ECMAScript`.
public enum SCXMLWriter {
    /// The SCXML document for `machine`; `source` (the spec's path as the user gave it) is
    /// named in the leading comment.
    public static func document(for machine: Machine, source: String?) -> String {
        var document = SCXMLDocument(machine, source: source)
        document.write()
        return document.text
    }
}

/// One SCXML document being written.
struct SCXMLDocument {
    let machine: Machine
    let source: String?
    /// The data item of each `let` name, in the order first written.
    private let letItems: [(name: String, item: String)]
    /// The send ids of each event sent, one per place that sends it (see `SCXMLNames`).
    private let sendIDs: [EventID: [String]]
    /// The send id of each `send` action, by the source position of the action.
    private let sendIDAt: [Int: String]
    /// The send ids of each send by name, by the source position of the action: one per event
    /// that some `cancel` names and that it may send (see `namedSendTargets`).
    private let namedSendIDs: [Int: [(event: EventID, id: String)]]
    /// Each event's name in the document (see `documentNames`).
    private let documentName: [String]
    private(set) var text = ""
    private var depth = 0

    init(_ machine: Machine, source: String?) {
        self.machine = machine
        self.source = source
        var lists: [[Action]] = []
        for s in machine.states { lists += [s.entry, s.exit, s.initialActions, s.historyActions] }
        for t in machine.transitions { lists.append(t.actions) }
        var all: [Action] = []
        for list in lists { for a in list { a.visit { all.append($0) } } }
        letItems = Self.letItems(machine, all)
        (sendIDs, sendIDAt, namedSendIDs) = Self.sendIDs(machine, all)
        documentName = Self.documentNames(machine)
    }

    /// Each event's name in the document: its external name when the spec gives one, so that
    /// an engine running the document sends and logs the names the spec was written for; else
    /// its own. An SCXML transition on `DIGIT` also takes `DIGIT.0`, where the spec's `on key`
    /// (`as "DIGIT.*"`) does not take `zero` (`as "DIGIT.0"`): an event whose external name
    /// extends the name of an event some transition lists without it keeps its own name
    /// instead, so every transition takes the events it took in the spec, and no others.
    private static func documentNames(_ machine: Machine) -> [String] {
        var names = machine.events.map { $0.externalName?.name ?? $0.name }
        var changed = true
        while changed {
            changed = false
            for t in machine.transitions {
                guard case .events(let listed) = t.trigger else { continue }
                for e in listed {
                    let prefix = names[e.index] + "."
                    for f in machine.events where !listed.contains(f.id) && names[f.id.index].hasPrefix(prefix)
                        && names[f.id.index] != f.name {
                        names[f.id.index] = f.name
                        changed = true
                    }
                }
            }
        }
        return names
    }

    /// A data item per `let` name (see `SCXMLNames`), in the order first written.
    private static func letItems(_ machine: Machine, _ actions: [Action]) -> [(name: String, item: String)] {
        var taken = Set(machine.constants.map(\.name) + machine.variables.map(\.name) + machine.states.map(\.name))
        var items: [(name: String, item: String)] = []
        for case .setLocal(_, _, let range) in actions {
            let name = letName(machine.text(range))
            guard !items.contains(where: { $0.name == name }) else { continue }
            var item = "let_" + name
            while taken.contains(item) { item += "_" }
            taken.insert(item)
            items.append((name, item))
        }
        return items
    }

    /// The send ids of each event, of each `send` action and of each send by name by its source
    /// position: numbered per event in source order (see `SCXMLNames`).
    private static func sendIDs(_ machine: Machine, _ actions: [Action])
        -> ([EventID: [String]], [Int: String], [Int: [(event: EventID, id: String)]]) {
        var ids: [EventID: [String]] = [:]
        var at: [Int: String] = [:]
        var named: [Int: [(event: EventID, id: String)]] = [:]
        func next(_ event: EventID) -> String {
            let id = SCXMLNames.send(machine[event].name, occurrence: (ids[event]?.count ?? 0) + 1)
            ids[event, default: []].append(id)
            return id
        }
        let cancelled = Self.cancelledEvents(machine, actions)
        var sends: [(start: Int, action: Action)] = []
        for action in actions {
            switch action {
            case .send(_, _, _, let range), .sendNamed(_, _, let range): sends.append((range.start, action))
            default: break
            }
        }
        for (start, action) in sends.sorted(by: { $0.start < $1.start }) where at[start] == nil && named[start] == nil {
            switch action {
            case .send(let event, _, _, _):
                at[start] = next(event)
            case .sendNamed(let name, _, _):
                let targets = namedSendTargets(name, machine, cancelled: cancelled)
                if !targets.isEmpty { named[start] = targets.map { ($0, next($0)) } }
            default:
                break
            }
        }
        return (ids, at, named)
    }

    /// The events some `cancel` names, in declaration order.
    private static func cancelledEvents(_ machine: Machine, _ actions: [Action]) -> [EventID] {
        var cancelled = Set<EventID>()
        for case .cancel(let e, _) in actions { cancelled.insert(e) }
        return machine.events.map(\.id).filter { cancelled.contains($0) }
    }

    /// The events a send by name may send that a `cancel` must reach: a cancelled event (it has
    /// no fields, or nothing could send it by name) that the literal names, or for a computed
    /// name each such event. Empty when no `cancel` could target the send, which is then written
    /// as before, with `eventexpr` alone.
    private static func namedSendTargets(_ name: Expr, _ machine: Machine, cancelled: [EventID]) -> [EventID] {
        let sendable = cancelled.filter { machine[$0].fields.isEmpty }
        if case .literal(.string(let text)) = name.kind {
            return LogNameTable(machine).event(text).map { sendable.contains($0) ? [$0] : [] } ?? []
        }
        return sendable
    }

    /// The name declared by `let NAME = …` (the action's source text).
    static func letName(_ source: String) -> String {
        var rest = Substring(source)
        if rest.hasPrefix("let") { rest = rest.dropFirst(3) }
        rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let name = rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        return name.isEmpty ? "value" : String(name)
    }

    mutating func write() {
        text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let origin = source.map { Self.commentText($0) + ", written by statecraft scxml" } ?? "written by statecraft scxml"
        text += "<!-- " + origin + " -->\n"
        let root = machine[machine.root]
        // What SCXML cannot say (the declared events and outputs, with fields no transition
        // reads) goes in attributes of our namespace, which SCXML allows and other
        // processors ignore; `statecraft import` reads them back.
        func signatures(_ items: [(String, [Field])]) -> String? {
            items.isEmpty ? nil : items.map { name, fields in
                fields.isEmpty ? name : name + "(" + fields.map { "\($0.name): \($0.type.rawValue)" }.joined(separator: ", ") + ")"
            }.joined(separator: "; ")
        }
        let attributes: [(String, String?)] = [
            ("xmlns", "http://www.w3.org/2005/07/scxml"), ("xmlns:statecraft", statecraftSCXMLNamespace),
            ("version", "1.0"), ("datamodel", "ecmascript"),
            ("name", machine.name), ("initial", initialAttribute(machine.root)),
            ("statecraft:events", signatures(machine.events.map { (eventSignatureName($0), $0.fields) })),
            ("statecraft:outputs", signatures(machine.outputs.map { ($0.name, $0.fields) })),
            // The spec's own names of the events it declared under another (`watch.reset = reset`).
            ("statecraft:event-names", eventNames()),
        ]
        open("scxml", attributes)
        writeDatamodel()
        for child in root.children { writeState(child) }
        close("scxml")
    }

    // MARK: - Data

    private mutating func writeDatamodel() {
        guard !machine.constants.isEmpty || !machine.variables.isEmpty || !letItems.isEmpty else { return }
        open("datamodel", [])
        let js = ECMAScript(machine: machine)
        for c in machine.constants {
            empty("data", [("id", c.name), ("expr", js.text(Expr(.literal(c.value), type: c.value.type, range: c.range))),
                           ("statecraft:kind", "const")])
        }
        for v in machine.variables {
            empty("data", [("id", v.name), ("expr", js.text(Expr(.literal(v.initialValue), type: v.type, range: v.range))),
                           ("statecraft:kind", v.isPublic ? "public var" : "var")])
        }
        for item in letItems { empty("data", [("id", item.item), ("statecraft:kind", "var")]) }
        close("datamodel")
    }

    // MARK: - States

    private mutating func writeState(_ s: StateID) {
        let state = machine[s]
        switch state.kind {
        case .history:
            writeHistory(state)
            return
        case .final:
            let attributes: [(String, String?)] = [("id", state.name)]
            guard !state.entry.isEmpty || !state.exit.isEmpty || !state.doneData.isEmpty else { return empty("final", attributes) }
            open("final", attributes)
            writeEntryAndExit(s)
            // The values the parent's completion carries, which its `done` transitions read
            // as `_event.data.name`.
            if !state.doneData.isEmpty {
                open("donedata", [])
                let js = ECMAScript(machine: machine)
                for field in state.doneData { empty("param", [("name", field.name), ("expr", js.text(field.value))]) }
                close("donedata")
            }
            close("final")
            return
        case .atomic, .compound, .parallel:
            break
        }
        let element = state.kind == .parallel ? "parallel" : "state"
        var attributes: [(String, String?)] = [("id", state.name)]
        if state.kind == .compound { attributes.append(("initial", initialAttribute(s))) }
        let timers = SCXMLNames.timers(of: s, in: machine)
        guard !state.entry.isEmpty || !state.exit.isEmpty || !timers.isEmpty || !state.transitions.isEmpty
                || !state.children.isEmpty else { return empty(element, attributes) }
        open(element, attributes)
        writeEntryAndExit(s)
        // `initial -> h` through a history state: SCXML's `initial` attribute names states
        // only, its <initial> element's transition may target a history state. The actions
        // of `initial -> a { … }` are that transition's content.
        if state.initialTargets.contains(where: { machine[$0].isHistory }) || !state.initialActions.isEmpty {
            open("initial", [])
            let target = ("target", state.initialTargets.map { machine[$0].name }.joined(separator: " ") as String?)
            if state.initialActions.isEmpty {
                empty("transition", [target])
            } else {
                open("transition", [target])
                writeActions(state.initialActions, ECMAScript(machine: machine, locals: locals(state.initialActions)))
                close("transition")
            }
            close("initial")
        }
        for t in state.transitions { writeTransition(machine[t]) }
        for child in state.children { writeState(child) }
        close(element)
    }

    /// The `initial` attribute of compound state `s`: its initial child, or its `initial ->`
    /// targets (IDREFS, at any depth); none when a target is a history state (see <initial>).
    private func initialAttribute(_ s: StateID) -> String? {
        let state = machine[s]
        if state.initialTargets.isEmpty { return state.initialChild.map { machine[$0].name } }
        if state.initialTargets.contains(where: { machine[$0].isHistory }) || !state.initialActions.isEmpty { return nil }
        return state.initialTargets.map { machine[$0].name }.joined(separator: " ")
    }

    /// `<onentry>` (entry actions, then the timers armed) and `<onexit>` (the timers
    /// cancelled, then exit actions), in the order the runtime does them.
    private mutating func writeEntryAndExit(_ s: StateID) {
        let state = machine[s]
        let timers = SCXMLNames.timers(of: s, in: machine)
        if !state.entry.isEmpty || !timers.isEmpty {
            open("onentry", [])
            writeActions(state.entry, ECMAScript(machine: machine, locals: locals(state.entry)))
            for (index, t) in timers {
                guard case .after(let delay) = t.trigger else { continue }
                let id = SCXMLNames.timer(state.name, index)
                empty("send", [("event", id), ("id", id)] + delayAttributes(delay, ECMAScript(machine: machine)))
            }
            close("onentry")
        }
        if !state.exit.isEmpty || !timers.isEmpty {
            open("onexit", [])
            for (index, _) in timers { empty("cancel", [("sendid", SCXMLNames.timer(state.name, index))]) }
            writeActions(state.exit, ECMAScript(machine: machine, locals: locals(state.exit)))
            close("onexit")
        }
    }

    /// A history state always has its default transition, as SCXML requires: the targets
    /// written after `->` (several: one per region, as SCXML's IDREFS), or else one target
    /// that means the language's default, the parent's initial child (for a parallel parent
    /// its first region: entering one region enters the others by default, in SCXML as here).
    private mutating func writeHistory(_ state: State) {
        open("history", [("id", state.name), ("type", state.isDeepHistory ? "deep" : "shallow")])
        let written = state.historyDefaults.map { machine[$0].name }.joined(separator: " ")
        let target = written.isEmpty ? machine.historyDefaultTargets(state.id).first.map { machine[$0].name } : written
        if state.historyActions.isEmpty {
            empty("transition", [("target", target)])
        } else {
            open("transition", [("target", target)])
            writeActions(state.historyActions, ECMAScript(machine: machine, locals: locals(state.historyActions)))
            close("transition")
        }
        close("history")
    }

    // MARK: - Transitions

    private mutating func writeTransition(_ t: Transition) {
        let js = ECMAScript(machine: machine, locals: locals(t.actions))
        var attributes: [(String, String?)] = [("event", event(of: t))]
        attributes.append(("cond", t.guardExpr.map { js.text($0) }))
        attributes.append(("target", t.target.map { machine[$0].name }))
        if t.isInternal { attributes.append(("type", "internal")) }
        guard !t.actions.isEmpty else { return empty("transition", attributes) }
        open("transition", attributes)
        writeActions(t.actions, js)
        close("transition")
    }

    /// An event's name in the document (`documentNames`): `as "DIGIT.*"` without the `.*`,
    /// since SCXML's transitions match the extensions of every name.
    private func scxmlName(_ e: EventID) -> String { documentName[e.index] }

    /// An event's name in `statecraft:events`: its name in the document, with `.*` when the
    /// spec's external name has it, so that importing the document declares the event with
    /// the same `as` (and none for an event the spec gave none), where a document from
    /// elsewhere gets `.*` for every event its transitions name.
    private func eventSignatureName(_ e: Event) -> String {
        guard let external = e.externalName, scxmlName(e.id) == external.name else { return scxmlName(e.id) }
        return external.name + (external.acceptsExtensions ? ".*" : "")
    }

    /// `statecraft:event-names`: each event whose external name is not its own, as
    /// `external = declared`; nil when there is none.
    private func eventNames() -> String? {
        let pairs = machine.events.compactMap { e in
            scxmlName(e.id) == e.name ? nil : "\(scxmlName(e.id)) = \(e.name)"
        }
        return pairs.isEmpty ? nil : pairs.joined(separator: "; ")
    }

    /// The `event` attribute: nil for an eventless transition.
    private func event(of t: Transition) -> String? {
        switch t.trigger {
        case .events(let ids): return ids.map(scxmlName).joined(separator: " ")
        case .after:
            let index = SCXMLNames.timers(of: t.source, in: machine).first { $0.transition.id == t.id }?.index ?? 0
            return SCXMLNames.timer(machine[t.source].name, index)
        case .done(let s): return SCXMLNames.done(machine[s].name)
        case .always: return nil
        }
    }

    // MARK: - Actions

    /// The data item of every `let` slot in an action list.
    private func locals(_ actions: [Action]) -> [Int: String] {
        var result: [Int: String] = [:]
        for a in actions {
            a.visit { action in
                guard case .setLocal(let slot, _, let range) = action else { return }
                let name = Self.letName(machine.text(range))
                result[slot] = letItems.first { $0.name == name }?.item
            }
        }
        return result
    }

    private mutating func writeActions(_ actions: [Action], _ js: ECMAScript) {
        for action in actions { writeAction(action, js) }
    }

    private mutating func writeAction(_ action: Action, _ js: ECMAScript) {
        switch action {
        case .assign(let v, let op, let value, _):
            let variable = machine[v]
            var expr = value
            if let op {
                let target = Expr(.variable(v), type: variable.type, range: value.range)
                expr = Expr(.binary(op, target, value), type: variable.type, range: value.range)
            }
            empty("assign", [("location", variable.name), ("expr", js.text(expr))])
        case .setLocal(let slot, let value, _):
            empty("assign", [("location", js.locals[slot] ?? SCXMLNames.localFallback(slot)), ("expr", js.text(value))])
        case .emit(let o, let args, _):
            let expr: String? = switch args.count {
            case 0: nil
            case 1: js.text(args[0])
            default: "[" + args.map { js.text($0) }.joined(separator: ", ") + "]"
            }
            empty("log", [("label", machine[o].name), ("expr", expr)])
        case .raise(let e, let args, _):
            guard !args.isEmpty else { return empty("raise", [("event", scxmlName(e))]) }
            // SCXML's <raise> carries no data; a send to the internal queue does.
            writeSend(e, args, [("event", scxmlName(e)), ("target", "#_internal")], js)
        case .send(let e, let args, let delay, let range):
            let id = sendIDAt[range.start] ?? SCXMLNames.send(machine[e].name)
            let attributes = [("event", scxmlName(e)), ("id", id)] + (delay.map { delayAttributes($0, js) } ?? [])
            writeSend(e, args, attributes, js)
        case .sendNamed(let name, let delay, let range):
            writeNamedSend(name, delay, namedSendIDs[range.start] ?? [], js)
        case .cancel(let e, _):
            for id in sendIDs[e] ?? [SCXMLNames.send(machine[e].name)] { empty("cancel", [("sendid", id)]) }
        case .ifAction(let condition, let then, let otherwise, _):
            writeIf(condition, then, otherwise, js)
        }
    }

    /// `<if>` with an `<elseif>` for each `else if` (an `if` alone in an else block) and
    /// `<else>` for what is left.
    private mutating func writeIf(_ condition: Expr, _ then: [Action], _ otherwise: [Action], _ js: ECMAScript) {
        open("if", [("cond", js.text(condition))])
        writeActions(then, js)
        var rest = otherwise
        while rest.count == 1, case .ifAction(let c, let t, let o, _) = rest[0] {
            empty("elseif", [("cond", js.text(c))])
            writeActions(t, js)
            rest = o
        }
        if !rest.isEmpty {
            empty("else", [])
            writeActions(rest, js)
        }
        close("if")
    }

    /// `send "\(kind)"`: `<send eventexpr="…">`. The runtime looks the string up as a log's
    /// name, so a declared name stands for its event too; where an event's name in the
    /// document is not its declared name (`event watch_reset as "watch.reset"`), the
    /// expression maps the one to the other (`k === 'watch_reset' ? 'watch.reset' : k`).
    ///
    /// A `cancel e` cancels by send id, so a send by name that may send `e` must carry one of
    /// `e`'s ids (`ids`): a literal naming `e` is written as `send e` is, `<send event="e"
    /// id="send.e.2">`; a computed name is tested against each name of each such event first,
    /// `<if cond="k === 'e'"><send event="e" id="send.e.2"/>…<else/><send eventexpr="…"/></if>`.
    /// (Only against exact names: ECMAScript as we write it cannot test a prefix, so a name that
    /// extends an `as "x.*"` name is still sent by `eventexpr`, without an id.)
    private mutating func writeNamedSend(_ name: Expr, _ delay: Expr?, _ ids: [(event: EventID, id: String)], _ js: ECMAScript) {
        let delayed = delay.map { delayAttributes($0, js) } ?? []
        if case .literal(.string) = name.kind, ids.count == 1 {
            return empty("send", [("event", scxmlName(ids[0].event)), ("id", ids[0].id)] + delayed)
        }
        let renamed = machine.events.filter { $0.fields.isEmpty && scxmlName($0.id) != $0.name }
        var expr = js.text(name, atLeast: .conditional)
        let value = js.text(name, atLeast: .equality)
        if !renamed.isEmpty {
            expr = renamed.reversed().reduce(expr) { rest, e in
                value + " === " + ECMAScript.string(e.name) + " ? " + ECMAScript.string(scxmlName(e.id)) + " : " + rest
            }
        }
        guard !ids.isEmpty else { return empty("send", [("eventexpr", expr)] + delayed) }
        for (k, (event, id)) in ids.enumerated() {
            let names = machine.logNames.filter { $0.event == event }.map(\.name)
            let condition = names.map { value + " === " + ECMAScript.string($0) }.joined(separator: " || ")
            if k == 0 { open("if", [("cond", condition)]) } else { empty("elseif", [("cond", condition)]) }
            empty("send", [("event", scxmlName(event)), ("id", id)] + delayed)
        }
        empty("else", [])
        empty("send", [("eventexpr", expr)] + delayed)
        close("if")
    }

    /// `<send>` with a `<param>` per argument, named by the event's fields.
    private mutating func writeSend(_ e: EventID, _ args: [Expr], _ attributes: [(String, String?)], _ js: ECMAScript) {
        guard !args.isEmpty else { return empty("send", attributes) }
        open("send", attributes)
        let fields = machine[e].fields
        for (i, arg) in args.enumerated() {
            empty("param", [("name", i < fields.count ? fields[i].name : "arg\(i)"), ("expr", js.text(arg))])
        }
        close("send")
    }

    /// `delay="300ms"` for a delay known in advance (a negative one is no delay, as in the
    /// runtime); else `delayexpr="x * 1000 + 'ms'"`, the seconds made into a duration in
    /// milliseconds when the send runs (the form the importer reads back). A delay known in
    /// advance but written with constants (`after bufferingLimit`) also keeps what it was
    /// written as, in seconds, in `statecraft:after="bufferingLimit"`: SCXML tools run the
    /// `delay`, and the importer writes the constant again rather than its value. Not
    /// `statecraft:delay`: some processors (python-statemachine) drop namespaces from
    /// attributes, and would take it for the `delay`.
    private func delayAttributes(_ delay: Expr, _ js: ECMAScript) -> [(String, String?)] {
        if case .number(let seconds)? = delay.folded(constants: machine.constantValues) {
            let text = ECMAScript.number(max(0, seconds) * 1000)
            // The schema's Duration: digits, an optional fraction, a unit; no exponent.
            if text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
                if case .literal = delay.kind { return [("delay", text + "ms")] }
                return [("delay", text + "ms"), ("statecraft:after", js.text(delay))]
            }
        }
        return [("delayexpr", js.text(delay, atLeast: .multiplicative) + " * 1000 + 'ms'")]
    }

    // MARK: - Lines

    private mutating func line(_ s: String) {
        text += String(repeating: "  ", count: depth) + s + "\n"
    }

    private func tag(_ name: String, _ attributes: [(String, String?)]) -> String {
        var out = "<" + name
        for (key, value) in attributes {
            guard let value else { continue }
            out += " " + key + "=\"" + XMLEscaping.attribute(value) + "\""
        }
        return out
    }

    private mutating func open(_ name: String, _ attributes: [(String, String?)]) {
        line(tag(name, attributes) + ">")
        depth += 1
    }

    private mutating func empty(_ name: String, _ attributes: [(String, String?)]) {
        line(tag(name, attributes) + "/>")
    }

    private mutating func close(_ name: String) {
        depth -= 1
        line("</" + name + ">")
    }

    /// Text that can stand inside an XML comment: no `--`, no `-` at the end, no control
    /// characters.
    static func commentText(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                out += "\u{FFFD}"
            } else if scalar == "-" && out.hasSuffix("-") {
                out += " -"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out.hasSuffix("-") ? out + " " : out
    }
}
