import StatecraftDiagnostics

// Writing the state tree: where each state starts, its transitions and the triggers their
// event descriptors stand for.

extension Importer {
    // MARK: - The state tree

    func isState(_ node: XMLNode) -> Bool {
        (node.namespace == nil || node.namespace == "" || node.namespace == scxmlNamespace)
            && ["state", "parallel", "final", "history"].contains(node.name)
    }

    func stateChildren(of node: XMLNode) -> [XMLNode] { node.children.filter(isState) }

    func id(_ node: XMLNode) -> String { idOfNode[ObjectIdentifier(node)] ?? "" }

    /// Whether entering a final state can complete `node` (so `done.state.<id>` exists).
    func canComplete(_ node: XMLNode) -> Bool {
        let children = stateChildren(of: node).filter { $0.name != "history" }
        switch node.name {
        case "state": return children.contains { $0.name == "final" }
        case "parallel": return !children.isEmpty && children.allSatisfy(canComplete)
        default: return false
        }
    }

    /// How `node` is entered by default: the child its `initial` attribute or <initial>
    /// element names, marked `initial`; or, when that names states deeper down, several
    /// states, or a history state, those states as `initial -> a, b`; else the first child.
    /// The actions of an <initial> transition come with its targets, as `initial -> a { … }`.
    func initialEntry(of node: XMLNode) throws(ImportFailure) -> (child: XMLNode?, targets: [String], actions: [XMLNode]) {
        let children = stateChildren(of: node).filter { $0.name != "history" }
        if node.name == "parallel" { return (nil, [], []) }
        var targetIDs: [String]?
        var actions: [XMLNode] = []
        if let attribute = node["initial"] {
            targetIDs = attribute.split(separator: " ").map(String.init)
        }
        if let element = node.children("initial").first {
            if node["initial"] != nil { throw fail(element, "both an initial attribute and an <initial> element") }
            let transitions = element.children("transition")
            guard transitions.count == 1, let t = transitions.first else { throw fail(element, "<initial> needs exactly one <transition>") }
            actions = t.children
            if let first = actions.first, node === root {
                throw fail(first, "actions on the document's initial transition are not supported (write them in the "
                           + "<onentry> of the state it enters)")
            }
            targetIDs = (t["target"] ?? "").split(separator: " ").map(String.init)
        }
        guard let ids = targetIDs else { return (children.first, [], []) }
        guard !ids.isEmpty else { throw fail(node, "an initial transition without a target") }
        for target in ids {
            guard let targetNode = stateByID[target] else { throw fail(node, "initial state \"\(target)\" does not exist") }
            if !Self.contains(node, targetNode) { throw fail(node, "initial state \"\(target)\" is not inside this state") }
        }
        // Several targets must be able to be active together: in different regions of a
        // parallel state (the innermost state holding any two is a <parallel>).
        let nodes = ids.compactMap { stateByID[$0] }
        for (k, a) in nodes.enumerated() {
            for b in nodes[(k + 1)...] where !Self.inDifferentRegions(a, b) {
                throw fail(node, "initial states \(id(a)) and \(id(b)) cannot be active together")
            }
        }
        if ids.count == 1, let only = stateByID[ids[0]], only.parent === node, only.name != "history", actions.isEmpty {
            return (only, [], [])
        }
        return (nil, ids.map { stateNames.ours[$0] ?? $0 }, actions)
    }

    /// Whether two states can be active together: neither holds the other, and the innermost
    /// element holding both is a `<parallel>` (they are in different regions of it).
    static func inDifferentRegions(_ a: XMLNode, _ b: XMLNode) -> Bool {
        if a === b || contains(a, b) || contains(b, a) { return false }
        var meet: XMLNode? = a.parent
        while let m = meet, !Self.contains(m, b) { meet = m.parent }
        return meet?.name == "parallel"
    }

    /// Whether `inner` lies inside `outer` (not `outer` itself).
    static func contains(_ outer: XMLNode, _ inner: XMLNode) -> Bool {
        var up = inner.parent
        while let u = up {
            if u === outer { return true }
            up = u.parent
        }
        return false
    }

    // MARK: - Writing states

    mutating func writeState(_ node: XMLNode, initial: Bool, into out: inout MachineText) throws(ImportFailure) {
        let name = stateNames.name(for: id(node))
        if node.name == "history" {
            if let parent = node.parent, stateChildren(of: parent).allSatisfy({ $0.name == "history" }) {
                throw fail(node, "a <history> in a state with no child states has nothing to remember")
            }
            let deep = node["type"] == "deep"
            var line = (deep ? "deep " : "") + "history state \(name)"
            let transitions = node.children("transition")
            if transitions.count > 1 { throw fail(node, "a history state with several default transitions") }
            var actions: [XMLNode] = []
            if let t = transitions.first {
                actions = t.children
                // Several targets are one state per region of a parallel state (SCXML's
                // IDREFS), as a deep history's default may name states in several regions.
                let targets = (t["target"] ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                    .map(String.init)
                if targets.isEmpty { throw fail(t, "a history state's default transition must name a target") }
                var nodes: [XMLNode] = []
                for target in targets {
                    guard let targetNode = stateByID[target] else { throw fail(t, "target \"\(target)\" does not exist") }
                    guard let parent = node.parent, Self.contains(parent, targetNode), targetNode.name != "history" else {
                        throw fail(t, "a history default must be a state inside the history's parent (\"\(target)\" is not)")
                    }
                    for earlier in nodes where !Self.inDifferentRegions(earlier, targetNode) {
                        throw fail(t, "the history default's targets \"\(id(earlier))\" and \"\(target)\" cannot be active together "
                                   + "(only states in different regions of a <parallel> can)")
                    }
                    nodes.append(targetNode)
                }
                line += " -> " + targets.map { stateNames.name(for: $0) }.joined(separator: ", ")
            }
            if actions.isEmpty {
                out.line(line)
            } else {
                try writeBlock(line, actions, scope: scope(events: []), into: &out)
            }
            return
        }
        for child in node.children where child.namespace == nil || child.namespace == "" || child.namespace == scxmlNamespace {
            // SCXML's <final> is atomic and is left only by leaving its parent.
            if node.name == "final", ["state", "parallel", "final", "history", "transition", "initial"].contains(child.name) {
                throw fail(child, "<\(child.name)> inside <final> (a final state has no \(child.name == "transition" ? "transitions" : "children"))")
            }
            switch child.name {
            case "state", "parallel", "final", "history", "onentry", "onexit", "transition", "initial", "datamodel": break
            case "invoke": throw fail(child, "<invoke> (a child session) is not supported")
            case "donedata":
                if node.name != "final" { throw fail(child, "<donedata> inside <\(node.name)> (only a <final> has it)") }
            default: throw fail(child, "<\(child.name)> is not supported inside <\(node.name)>")
            }
        }
        var keywords = initial ? "initial " : ""
        if node.name == "final" { keywords += "final " }
        if node.name == "parallel" { keywords += "parallel " }
        var header = "\(keywords)state \(name)"
        if node.name == "final", let data = node.children("donedata").first {
            if node.parent === root {
                // The data would go to a session that invoked this one; a run here has none.
                diagnostics.append(finding(.scxmlInert, data, "<donedata> of a top-level <final> is never read: it is returned to "
                                           + "an invoking session, and nothing invokes this one"))
            } else {
                header += try doneDataText(node)
            }
        }
        let children = stateChildren(of: node)
        let entry = node.children("onentry").flatMap(\.children)
        let exit = node.children("onexit").flatMap(\.children)
        let transitions = node.children("transition")
        if children.isEmpty && entry.isEmpty && exit.isEmpty && transitions.isEmpty {
            out.line(header)
            return
        }
        try checkDepth(out, node)
        out.open(header)
        if !entry.isEmpty { try writeBlock("entry", entry, scope: scope(events: []), into: &out) }
        if !exit.isEmpty { try writeBlock("exit", exit, scope: scope(events: []), into: &out) }
        let initial = try initialEntry(of: node)
        if !initial.targets.isEmpty {
            let line = "initial -> " + initial.targets.joined(separator: ", ")
            if initial.actions.isEmpty { out.line(line) } else { try writeBlock(line, initial.actions, scope: scope(events: []), into: &out) }
        }
        for t in transitions { try writeTransition(t, in: node, into: &out) }
        for child in children { try writeState(child, initial: child === initial.child, into: &out) }
        out.close()
    }

    func scope(events: [String]) -> ExpressionScope {
        var s = ExpressionScope()
        let vars = Dictionary(variables.map { ($0.id, variableType($0)) }, uniquingKeysWith: { a, _ in a })
        let names = variableNames
        s.variable = { id in vars[id].map { (names.ours[id] ?? id, $0) } }
        s.events = events
        let fields = fieldNames
        s.fieldName = { fields.existingName(for: $0) }
        let states = stateNames
        let known = stateByID
        s.state = { id in known[id] != nil ? (states.ours[id] ?? id) : nil }
        s.isHistory = { id in known[id]?.name == "history" }
        s.eventName = events.count == 1 ? events[0] : nil
        let named = sentFields
        s.hasNamedFields = { !(named[$0] ?? []).isEmpty }
        let content = contentEvents
        s.hasContent = { content.contains($0) }
        return s
    }

    /// The triggers a transition's `event` attribute stands for.
    func triggers(_ t: XMLNode, in state: XMLNode) -> [Trigger] {
        guard let attribute = t["event"] else { return [.always] }
        var matched: [String] = []
        var done: [String] = []
        for token in attribute.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init) {
            if token == "*" {
                for e in events where !matched.contains(e) { matched.append(e) }
                for s in completable where !done.contains(s) { done.append(s) }
                continue
            }
            let stem = Self.descriptorStem(token)
            if stem == "done" || stem == "done.state" {
                for s in completable where !done.contains(s) { done.append(s) }
            }
            if stem.hasPrefix("done.state.") {
                let target = String(stem.dropFirst("done.state.".count))
                if stateByID[target] != nil, !done.contains(target) { done.append(target) }
            }
            for e in events where (e == stem || e.hasPrefix(stem + ".")) && !matched.contains(e) { matched.append(e) }
        }
        var result: [Trigger] = matched.isEmpty ? [] : [.events(matched)]
        for s in done { result.append(.done(s)) }
        return result
    }

    mutating func writeTransition(_ t: XMLNode, in state: XMLNode, into out: inout MachineText) throws(ImportFailure) {
        if t["condexpr"] != nil { throw fail(t, "condexpr is not SCXML") }
        let targets = (t["target"] ?? "").split(separator: " ").map(String.init)
        if targets.count > 1 { throw fail(t, "a transition with several targets (\(targets.joined(separator: ", "))) is not supported") }
        if let target = targets.first, stateByID[target] == nil { throw fail(t, "target \"\(target)\" does not exist") }
        let internalPrefix = t["type"] == "internal" ? "internal " : ""
        if let type = t["type"], type != "internal", type != "external" { throw fail(t, "type=\"\(type)\" is not SCXML") }
        // A descriptor may match a state's timer and other events too (`after.a.1` also
        // matches `after.a.1.x`): the timer is then a transition of its own, `after d`,
        // beside `on` for the others; they never compete, as one step takes one event.
        let triggers = triggers(t, in: state).flatMap { trigger -> [Trigger] in
            guard case .events(let list) = trigger, list.count > 1, list.contains(where: { timers[$0] != nil }) else {
                return [trigger]
            }
            let others = list.filter { timers[$0] == nil }
            return list.filter { timers[$0] != nil }.map { .events([$0]) } + (others.isEmpty ? [] : [.events(others)])
        }
        if triggers.isEmpty {
            // Only descriptors of what the document itself raises are left here (`done.state.x`
            // of a state that does not exist, `*` in a document with no events): `foo.*` that
            // nothing sends declared `foo` (`declareDescriptorStems`).
            out.line("// <transition event=\"\(t["event"] ?? "")\"> at line \(file.location(of: t.offset).line): no event of this document matches it")
            diagnostics.append(finding(.scxmlInert, t, attribute: "event",
                                       "<transition event=\"\(t["event"] ?? "")\"> is never taken: no event of this document matches it"))
            return
        }
        let anyEvent = (t["event"] ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).contains("*")
        for trigger in triggers {
            writtenTransitions[stateNames.name(for: id(state)), default: []].append(t)
            var events: [String] = []
            // The events the transition is taken on, as `_event.name` and its metadata see them.
            var taken: [String] = []
            var line = internalPrefix
            switch trigger {
            case .always: line += "always"
            case .done(let s):
                line += s == id(state) ? "done" : "done(\(stateNames.name(for: s)))"
                taken = ["done.state." + s]
            case .events(let list):
                events = list
                taken = list
                if list.count == 1, let send = timers[list[0]] {
                    events = []
                    line += "after " + (try delayText(send, scope: scope(events: [])) ?? "0s")
                } else {
                    line += "on " + list.map { eventNames.name(for: $0) }.joined(separator: ", ")
                }
            }
            // A done event's data (<donedata>) is read as a payload: under the completion's
            // key, with the final states' fields.
            var completionData: (key: String, shape: DoneShape)?
            if case .done(let s) = trigger, let shape = try completionShape(s) {
                completionData = (Self.completionKey(s), shape)
                events = [Self.completionKey(s)]
                // The fields' types come from the values (the <final>s are written after the
                // transitions of their parent): learnt first, so that a read does not guess.
                if let node = stateByID[s] {
                    for f in stateChildren(of: node) where f.name == "final" { _ = try doneDataText(f) }
                }
            }
            var scope = scope(events: events)
            if let data = completionData {
                scope.hasContent = { $0 == data.key && data.shape == .content }
                scope.hasNamedFields = { $0 == data.key && data.shape != .content }
            }
            let readBefore = translator.fieldsRead[completionData?.key ?? ""] ?? []
            if !taken.isEmpty {
                scope.eventName = taken.count == 1 ? taken[0] : nil
                var origins = EventOrigins()
                if case .done = trigger {
                    origins.sources = taken.map { ($0, .completion) }
                } else {
                    origins.anyEvent = anyEvent
                    for e in taken { origins.sources += (eventSources[e] ?? [.unraised(e)]).map { (e, $0) } }
                }
                scope.origins = origins
            }
            // `cond=""` is no condition (warned about in `checkExpressions`).
            if let cond = t["cond"], !cond.trimmingWhitespace.isEmpty {
                let parsed: JSExpr
                do { parsed = try JSParser.parse(cond) } catch { throw fail(t, attribute: "cond", error) }
                if case .done(let s) = trigger, completionData == nil, readsEventData(parsed) {
                    let why = stateByID[s]?.name == "parallel"
                        ? "the done event of a <parallel> carries no data"
                        : "no <final> of \"\(s)\" has <donedata>"
                    throw fail(t, attribute: "cond", JSError(message: "_event.data of done.state.\(s) is undefined: \(why)", offset: 0))
                }
                do { line += " if " + (try translator.condition(parsed, scope)) } catch { throw fail(t, attribute: "cond", error) }
            }
            if let target = targets.first { line += " -> " + stateNames.name(for: target) }
            let actions = t.children
            if actions.isEmpty {
                out.line(line)
            } else {
                try writeBlock(line, actions, scope: scope, into: &out)
            }
            // `_event.data.x` of a done event whose <donedata> gives no `x` is undefined.
            if let data = completionData {
                let read = (translator.fieldsRead[data.key] ?? []).filter { !readBefore.contains($0) && !data.shape.fields.contains($0) }
                if let missing = read.first {
                    throw fail(t, "_event.data.\(missing) of \(data.key) is undefined: the <donedata> of its <final> states gives "
                               + data.shape.fields.map { "\"\($0)\"" }.joined(separator: ", "))
                }
            }
        }
    }

    /// Whether `e` reads `_event.data` (a done event's would come from <donedata>).
    func readsEventData(_ e: JSExpr) -> Bool {
        switch e {
        case .path(let p, _): p.count >= 2 && p[0] == "_event" && p[1] == "data"
        case .call(_, let args, _), .array(let args, _): args.contains(where: readsEventData)
        case .unary(_, let x, _): readsEventData(x)
        case .binary(_, let x, let y, _): readsEventData(x) || readsEventData(y)
        case .conditional(let a, let b, let c): readsEventData(a) || readsEventData(b) || readsEventData(c)
        case .number, .string, .bool: false
        }
    }

}
