import StatecraftDiagnostics

// Reading the document before writing: ids, data, the events it names and sends, what
// a state's timer looks like, and our interface attributes.

extension Importer {
    // MARK: - Collecting names, data, events

    mutating func collect() throws(ImportFailure) {
        dataModel = switch root["datamodel"]?.trimmingWhitespace {
        case nil, "", "ecmascript": .ecmascript
        case "null": .null
        case let other?: .other(other)
        }
        try checkTopLevel()
        // A state without an id gets one no state of the document has (SCXML's ids are
        // unique, so `state1` may be taken by a state written later).
        var given: Set<String> = []
        func gatherIDs(_ node: XMLNode) {
            if isState(node), let id = node["id"] { given.insert(id) }
            node.children.forEach(gatherIDs)
        }
        gatherIDs(root)
        var generated = 0
        var depth = 0
        func visit(_ node: XMLNode) throws(ImportFailure) {
            if !node.isSCXML { return }
            switch node.name {
            case "state", "parallel", "final", "history":
                // Our parser reads states nested up to 64 levels with their bodies.
                if depth >= Self.maxStateDepth {
                    throw fail(node, "states nested more than \(Self.maxStateDepth) levels deep are not supported")
                }
                let id: String
                if let given = node["id"] {
                    id = given
                } else {
                    repeat { generated += 1 } while given.contains("state\(generated)")
                    id = "state\(generated)"
                    generatedIDs.insert(id)
                }
                if stateByID[id] != nil { throw fail(node, "a second state with id \"\(id)\" (ids are unique in a document)") }
                stateByID[id] = node
                idOfNode[ObjectIdentifier(node)] = id
            case "data":
                switch dataModel {
                case .ecmascript: break
                case .null: throw fail(node, "<data> in the null data model (datamodel=\"null\" has no data)")
                case .other(let name): throw fail(node, Self.otherDataModel(name, "<data>"))
                }
                guard let id = node["id"] else { throw fail(node, "<data> without an id") }
                if node["src"] != nil { throw fail(node, "<data src> (loading a value) is not supported") }
                if !node.children.isEmpty { throw fail(node, "<data> holding XML is not supported (a value is a number, string or boolean)") }
                if variables.contains(where: { $0.id == id }) { throw fail(node, "a second <data> with id \"\(id)\"") }
                if !node.text.trimmingWhitespace.isEmpty {
                    // Inline content: a JSON number, boolean or string, or text.
                    if node["expr"] != nil { throw fail(node, "<data> with both expr and inline content") }
                    guard let value = Self.inlineValue(node.text) else {
                        throw fail(node, "<data> holding a JSON object or array is not supported (a value is a number, string or boolean)")
                    }
                    variables.append((id, value.0, value.1, node))
                    if let kind = node.attribute("kind", namespace: statecraftSCXMLNamespace) { dataKinds[id] = kind }
                    _ = variableNames.name(for: id)
                    break
                }
                guard let expr = node["expr"] else {
                    variables.append((id, nil, nil, node))
                    if let kind = node.attribute("kind", namespace: statecraftSCXMLNamespace) { dataKinds[id] = kind }
                    _ = variableNames.name(for: id)
                    break
                }
                let value: JSExpr
                do { value = try JSParser.parse(expr) } catch { throw fail(node, attribute: "expr", error) }
                let literal: (ImportType, String)
                switch value {
                case .number(let n, _): literal = (.number, ExpressionTranslator.number(n))
                case .unary("-", .number(let n, _), _): literal = (.number, ExpressionTranslator.number(-n))
                case .string(let s, _): literal = (.string, ExpressionTranslator.stringLiteral(s))
                case .bool(let b, _): literal = (.bool, b ? "true" : "false")
                default:
                    throw fail(node, attribute: "expr", JSError(message: "a <data> value must be a number, string or boolean literal", offset: 0))
                }
                variables.append((id, literal.0, literal.1, node))
                if let kind = node.attribute("kind", namespace: statecraftSCXMLNamespace) {
                    guard ["const", "var", "public var"].contains(kind) else {
                        throw fail(node, "statecraft:kind=\"\(kind)\" is not 'const', 'var' or 'public var'")
                    }
                    dataKinds[id] = kind
                }
                _ = variableNames.name(for: id)
            case "invoke":
                throw fail(node, "<invoke> (a child session) is not supported")
            case "raise":
                guard let e = node["event"] else { throw fail(node, "<raise> without an event") }
                noteEvent(e)
                noteSource(e, .raised(sendID: nil))
            case "send":
                // The values an eventexpr may take are known once every <data> is read.
                if node["eventexpr"] != nil { computedSends.append(node) } else { try collectSend(node) }
            case "transition":
                for token in (node["event"] ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init) {
                    // `foo.*` matches events called foo.something; only a plain name is one.
                    if token.hasSuffix("*") || token.hasSuffix(".") { continue }
                    if token == "done" || token.hasPrefix("done.state") { continue }
                    noteEvent(token)
                }
            case "log":
                let label = node["label"] ?? "log"
                if outputUses[label] == nil { outputOrder.append(label); outputUses[label] = [] }
                _ = outputNames.name(for: label)
            default:
                break
            }
            let isState = ["state", "parallel", "final", "history"].contains(node.name)
            if isState { depth += 1 }
            for child in node.children { try visit(child) }
            if isState { depth -= 1 }
        }
        try readInterface()
        var computedSends: [XMLNode] = []
        for child in root.children { try visit(child) }
        for send in computedSends { try collectSend(send) }
        for (id, node) in stateByID.sorted(by: { $0.value.offset < $1.value.offset }) {
            _ = stateNames.name(for: id)
            if canComplete(node) { completable.append(id) }
        }
        declareDescriptorStems()
        if sendsByName {
            // A send by name may send any event: each may also come from it (its `id` is
            // not known, so none is noted).
            for e in events { noteSource(e, .sent(sendID: nil)) }
        }
        try nameEvents()
        try checkExpressions()
        if case .other(let name) = dataModel {
            collectDiagnostics.append(finding(.scxmlInert, root, attribute: "datamodel", """
                datamodel="\(name)" is not supported, but the document evaluates nothing (no condition, value, \
                location or <data>), so it imports as a document of states and events
                """))
        }
        findTimers()
    }

    /// What may stand directly under `<scxml>`: states, `<datamodel>`, and `<initial>` (which
    /// SCXML writes as an attribute there). Anything else would silently mean nothing, and a
    /// `<transition>` there is a mistake the document's author should hear about.
    func checkTopLevel() throws(ImportFailure) {
        for child in root.children {
            switch child.name {
            case "state", "parallel", "final", "history", "datamodel", "initial": continue
            case "transition":
                throw fail(child, "<transition> directly under <scxml> is not SCXML (a transition belongs to a state)")
            case "invoke": throw fail(child, "<invoke> (a child session) is not supported")
            case "script": throw fail(child, "<script> is not supported")
            default: throw fail(child, "<\(child.name)> directly under <scxml> is not SCXML")
            }
        }
    }

    /// The refusal of something to evaluate in a data model we do not have.
    static func otherDataModel(_ name: String, _ what: String) -> String {
        "\(what) in datamodel=\"\(name)\", which is not supported (a document in a data model other than ecmascript "
            + "or null imports only when it has nothing to evaluate)"
    }

    /// A transition on `foo.*` (or `foo.`): the events it takes may come from outside, as a
    /// plain `foo` would, and `foo` itself is one of them (SCXML's `foo.*` matches `foo`). So
    /// `foo` is declared, even when the document raises `foo.bar` itself (an engine is sent
    /// `foo.baz` as well), and the transition is kept with it rather than dropped because the
    /// document alone never raises it. Every event a descriptor names this way, or plainly,
    /// takes its extensions in a log (`extensibleEvents`).
    mutating func declareDescriptorStems() {
        var stems: [String] = []
        var named: [String] = []
        func visit(_ node: XMLNode) {
            if node.name == "transition" {
                for token in (node["event"] ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init) {
                    let stem = Self.descriptorStem(token)
                    named.append(stem)
                    if token.hasSuffix(".*") || token.hasSuffix(".") { stems.append(stem) }
                }
            }
            node.children.forEach(visit)
        }
        visit(root)
        for stem in stems where !stem.isEmpty && stem != "done" && !stem.hasPrefix("done.") {
            noteEvent(stem)
        }
        // A document `statecraft scxml` wrote says which events took extensions in its spec.
        if root.attribute("events", namespace: statecraftSCXMLNamespace) != nil {
            extensibleEvents = declaredExtensible
        } else {
            extensibleEvents = Set(named).intersection(events)
        }
    }

    /// Gives every event its identifier once all are known: first those whose SCXML name is
    /// one already, so that `a.b` (written `a_b_2`) never takes the identifier of an event
    /// called `a_b`, whose external name would then be another event's name.
    /// The names a spec gave its events come first (`statecraft:event-names`, which
    /// `statecraft scxml` writes for the events declared `as` another name).
    mutating func nameEvents() throws(ImportFailure) {
        var table = NameTable()
        if let text = root.attribute("event-names", namespace: statecraftSCXMLNamespace) {
            for pair in text.split(separator: ";").map({ String($0).trimmingWhitespace }) where !pair.isEmpty {
                let parts = pair.split(separator: "=", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace }
                // The identifier may not be the SCXML name of another event, which keeps it.
                guard parts.count == 2, events.contains(parts[0]), parts[1] == parts[0] || !events.contains(parts[1]),
                      table.assign(parts[0], parts[1]) else {
                    throw fail(root, "statecraft:event-names=\"…\" gives '\(pair)', not an event of the document '=' "
                               + "an identifier no other event has, such as 'watch.reset = reset'")
                }
            }
        }
        for e in events where NameTable.isIdentifier(e) { _ = table.name(for: e) }
        for e in events { _ = table.name(for: e) }
        eventNames = table
    }

    /// Every expression of the document, before any is translated: what the data model
    /// allows, and the spellings SCXML does not define that are read as engines read them.
    /// - ECMAScript: `In(s)` without quotes, where `s` is a state and no `<data>`, is `In('s')`.
    /// - null: the only expression is the condition `In(s)` (quotes tolerated, as above).
    /// - another data model: nothing to evaluate at all.
    /// - `cond=""` on a transition, in any of them: no condition.
    mutating func checkExpressions() throws(ImportFailure) {
        let expressionAttributes = ["cond", "expr", "location", "namelist", "delayexpr", "eventexpr", "targetexpr",
                                    "typeexpr", "idlocation", "sendidexpr", "srcexpr", "array", "item", "index"]
        let scope = scope(events: [])
        var found: [Diagnostic] = []
        func visit(_ node: XMLNode) throws(ImportFailure) {
            for attribute in expressionAttributes {
                guard let text = node[attribute] else { continue }
                if attribute == "cond", text.trimmingWhitespace.isEmpty {
                    guard node.name == "transition" else {
                        throw fail(node, "<\(node.name) cond=\"\">: an empty condition (write one, or leave out the <\(node.name)>)")
                    }
                    found.append(finding(.scxmlNonstandard, node, attribute: "cond",
                                         "cond=\"\" (an empty condition) is not SCXML; read as no condition, as engines read it"))
                    continue
                }
                switch dataModel {
                case .ecmascript:
                    // A value that does not parse is refused where it is translated.
                    guard let parsed = try? JSParser.parse(text) else { continue }
                    for (id, at) in ExpressionTranslator.unquotedStateIDs(parsed, scope) {
                        found.append(finding(.scxmlNonstandard, node, attribute: attribute, scalarOffset: at,
                                             length: id.unicodeScalars.count, """
                            In(\(id)) names a state without quotes, which the ECMAScript data model reads as a \
                            variable; read as In('\(id)')
                            """))
                    }
                case .null:
                    let parsed: JSExpr
                    do { parsed = try JSParser.parse(text) } catch { throw fail(node, attribute: attribute, error) }
                    guard attribute == "cond", case .call(["In"], let args, _) = parsed, args.count == 1 else {
                        throw fail(node, wholeAttribute: attribute, attribute == "cond"
                            ? "the null data model's only condition is In(stateId)"
                            : "the null data model (datamodel=\"null\") has no expressions but the condition In(stateId)")
                    }
                    if case .string(let id, let at) = args[0] {
                        found.append(finding(.scxmlNonstandard, node, attribute: attribute, scalarOffset: at,
                                             length: id.unicodeScalars.count + 2, """
                            In('\(id)') quotes the state id, which the null data model writes without quotes; \
                            read as In(\(id))
                            """))
                    }
                case .other(let name):
                    throw fail(node, wholeAttribute: attribute, Self.otherDataModel(name, "an expression to evaluate"))
                }
            }
            for child in node.children { try visit(child) }
        }
        try visit(root)
        collectDiagnostics += found
    }

    /// A state's timer, written the way SCXML writes one (and `statecraft scxml` exports
    /// `after`): its `<onentry>` sends an event to itself with a delay and an id, its
    /// `<onexit>` cancels that id, and only its own transitions take the event. That is
    /// exactly `after d` on the state, and is written so.
    mutating func findTimers() {
        var sendsOfEvent: [String: Int] = [:]
        var sendsWithID: [String: Int] = [:]
        var cancelsOfID: [String: [XMLNode]] = [:]
        var transitions: [XMLNode] = []
        var byName = false
        func visit(_ node: XMLNode) {
            switch node.name {
            case "send":
                for e in (try? sentEvents(node).events) ?? [] { sendsOfEvent[e, default: 0] += 1 }
                // A send by name may send the timer's event too.
                if sendsByName(node) { byName = true }
                if let id = node["id"] { sendsWithID[id, default: 0] += 1 }
            case "raise":
                if let e = node["event"] { sendsOfEvent[e, default: 0] += 1 }
            case "cancel":
                if let id = node["sendid"] { cancelsOfID[id, default: []].append(node) }
                // A cancel whose id is chosen at run time may cancel any of its ids.
                for id in node["sendidexpr"].flatMap(literalStrings)?.values ?? [] { cancelsOfID[id, default: []].append(node) }
            case "transition":
                transitions.append(node)
            default: break
            }
            node.children.forEach(visit)
        }
        root.children.forEach(visit)
        if byName { return }
        for state in stateByID.values.sorted(by: { $0.offset < $1.offset }) {
            for send in state.children("onentry").flatMap(\.children) where send.name == "send" {
                guard let e = send["event"], let id = send["id"], send["target"] == nil, send.children.isEmpty,
                      send["namelist"] == nil, sendsOfEvent[e] == 1, sendsWithID[id] == 1,
                      send["delay"] != nil || send["delayexpr"] != nil,
                      // A delay chosen among a <data>'s values is a choice of sends, not one timer.
                      send["delayexpr"].flatMap(literalStrings)?.variable == nil,
                      let cancels = cancelsOfID[id], cancels.count == 1, let cancel = cancels.first,
                      cancel.parent?.name == "onexit", cancel.parent?.parent === state else { continue }
                let takers = transitions.filter { t in
                    (t["event"] ?? "").split(separator: " ").map(String.init).contains { token in
                        let stem = Self.descriptorStem(token)
                        return token == "*" || stem == e || e.hasPrefix(stem + ".")
                    }
                }
                guard takers.allSatisfy({ $0.parent === state && $0["event"] == e }) else { continue }
                timers[e] = send
                skipped.insert(ObjectIdentifier(send))
                skipped.insert(ObjectIdentifier(cancel))
            }
        }
    }

    /// The delay of a `<send>` as one of our expressions, nil for none: a CSS2 time
    /// (`delay="1s"`), a string literal of one (`delayexpr="'1s'"`), or a number of
    /// milliseconds made into one (`delayexpr="x * 1000 + 'ms'"`, as `statecraft scxml`
    /// writes a computed delay). Any other computed delay is refused.
    /// Our `statecraft:after` (the seconds as `statecraft scxml` found them written, such as
    /// a constant's name) comes first: the same delay, written as the spec wrote it.
    mutating func delayText(_ send: XMLNode, scope: ExpressionScope) throws(ImportFailure) -> String? {
        if let written = send.attribute("after", namespace: statecraftSCXMLNamespace) {
            do throws(JSError) {
                let x = try translator.translate(try JSParser.parse(written), scope)
                if case .known(let t) = x.type, t != .number {
                    throw JSError(message: "a delay must be a Number of seconds", offset: 0)
                }
                return x.text
            } catch {
                throw fail(send, attribute: "statecraft:after", error)
            }
        }
        if let d = send["delay"] {
            guard let seconds = Self.duration(d) else { throw fail(send, "delay=\"\(d)\" is not a duration such as 1s or 500ms") }
            return seconds > 0 ? Self.durationLiteral(seconds) : nil
        }
        guard let d = send["delayexpr"] else { return nil }
        let parsed: JSExpr
        do { parsed = try JSParser.parse(d) } catch { throw fail(send, attribute: "delayexpr", error) }
        switch parsed {
        case .string(let s, _):
            guard let seconds = Self.duration(s) else {
                throw fail(send, attribute: "delayexpr", JSError(message: "'\(s)' is not a duration such as 1s or 500ms", offset: 0))
            }
            return seconds > 0 ? Self.durationLiteral(seconds) : nil
        case .binary("+", .binary("*", let ms, .number(1000, _), _), .string("ms", _), _):
            do throws(JSError) {
                let x = try translator.translate(ms, scope)
                if case .known(let t) = x.type, t != .number {
                    throw JSError(message: "a delay must be a Number of milliseconds", offset: ms.offset)
                }
                return x.text
            } catch {
                throw fail(send, attribute: "delayexpr", error)
            }
        default:
            throw fail(send, attribute: "delayexpr",
                       JSError(message: "a delay computed at run time is not supported, except as a number: x * 1000 + 'ms'", offset: 0))
        }
    }

    /// Our `events` and `outputs` attributes on `<scxml>`, when the document has them.
    mutating func readInterface() throws(ImportFailure) {
        for (attribute, isEvent) in [("events", true), ("outputs", false)] {
            guard let text = root.attribute(attribute, namespace: statecraftSCXMLNamespace) else { continue }
            guard let signatures = Self.signatures(text) else {
                throw fail(root, "statecraft:\(attribute)=\"…\" is not a list of signatures such as 'tap; moved(x: Number)'")
            }
            var seen: Set<String> = []
            for (written, fields) in signatures {
                // `DIGIT.*` in `statecraft:events`: the spec declared the event `as "DIGIT.*"`.
                let extensible = isEvent && written.hasSuffix(".*")
                let name = extensible ? String(written.dropLast(2)) : written
                // A second declaration of a name, or of a field, would be a second declaration
                // in the spec: refused here, where the document says it.
                guard seen.insert(name).inserted else {
                    throw fail(root, "statecraft:\(attribute)=\"…\" declares '\(name)' twice")
                }
                var fieldNames: Set<String> = []
                for f in fields where !fieldNames.insert(f.name).inserted {
                    throw fail(root, "statecraft:\(attribute)=\"…\" declares field '\(f.name)' of '\(name)' twice")
                }
                if isEvent {
                    if extensible { declaredExtensible.insert(name) }
                    declaredEvents[name] = fields
                    noteEvent(name)
                    for f in fields { translator.fields[FieldKey(event: name, field: f.name)] = f.type }
                } else {
                    declaredOutputs[name] = fields
                    if outputUses[name] == nil { outputOrder.append(name); outputUses[name] = [] }
                    _ = outputNames.name(for: name)
                }
            }
        }
    }

    /// `a; b(x: Number, y: Bool)`: names and typed fields; nil when malformed.
    static func signatures(_ text: String) -> [(String, [(name: String, type: ImportType)])]? {
        var result: [(String, [(name: String, type: ImportType)])] = []
        for part in text.split(separator: ";").map({ String($0).trimmingWhitespace }) where !part.isEmpty {
            var name = part
            var fields: [(name: String, type: ImportType)] = []
            if let open = part.firstIndex(of: "(") {
                guard part.hasSuffix(")") else { return nil }
                name = String(part[..<open]).trimmingWhitespace
                let inner = part[part.index(after: open)..<part.index(before: part.endIndex)]
                for field in inner.split(separator: ",") {
                    let pieces = field.split(separator: ":").map { String($0).trimmingWhitespace }
                    guard pieces.count == 2, !pieces[0].isEmpty, let type = ImportType(rawValue: pieces[1]) else { return nil }
                    fields.append((pieces[0], type))
                }
            }
            guard !name.isEmpty else { return nil }
            result.append((name, fields))
        }
        return result
    }

    mutating func noteEvent(_ name: String) {
        if !events.contains(name) {
            events.append(name)
            _ = eventNames.name(for: name)
        }
    }

    mutating func noteSource(_ event: String, _ source: EventSource) {
        if !(eventSources[event] ?? []).contains(source) { eventSources[event, default: []].append(source) }
    }

    /// The strings an expression can hold, when every one is written in the document: a
    /// string literal, or a `<data>` whose value and every `<assign>` to it are string
    /// literals. Nil for anything computed otherwise. An attribute computed at run time
    /// from such a value (`eventexpr`, `delayexpr`, `sendidexpr`) is then one of a few
    /// known ones, and is written as a choice among them.
    func literalStrings(_ text: String) -> (variable: String?, values: [String])? {
        guard let parsed = try? JSParser.parse(text) else { return nil }
        switch parsed {
        case .string(let s, _):
            return (nil, [s])
        case .path(let path, _) where path.count == 1:
            guard let v = variables.first(where: { $0.id == path[0] }), let initial = v.node["expr"],
                  case .string(let first, _)? = try? JSParser.parse(initial) else { return nil }
            var values = [first]
            var onlyLiterals = true
            func visit(_ node: XMLNode) {
                if node.name == "assign", node["location"]?.trimmingWhitespace == path[0] {
                    if node.children.isEmpty, let expr = node["expr"], case .string(let s, _)? = try? JSParser.parse(expr) {
                        if !values.contains(s) { values.append(s) }
                    } else {
                        onlyLiterals = false
                    }
                }
                node.children.forEach(visit)
            }
            visit(root)
            // A variable that only ever holds one value needs no choice.
            return onlyLiterals ? (values.count == 1 ? nil : path[0], values) : nil
        default:
            return nil
        }
    }

    /// The events a `<send>` may send: its `event`, or each value its `eventexpr` may take.
    func sentEvents(_ node: XMLNode) throws(ImportFailure) -> (variable: String?, events: [String]) {
        guard let expr = node["eventexpr"] else {
            guard let e = node["event"] else { throw fail(node, "<send> without an event") }
            return (nil, [e])
        }
        if node["event"] != nil { throw fail(node, "<send> with both event and eventexpr") }
        // Computed otherwise: a send by name (`send "\(…)"`), whose event is known only
        // when it runs.
        guard let found = literalStrings(expr) else { return (nil, []) }
        for v in found.values where v.isEmpty || v.contains(where: { $0 == " " || $0 == "*" }) || v.hasPrefix("done.") {
            throw fail(node, wholeAttribute: "eventexpr", "'\(v)' is not an event name this document can send")
        }
        return (found.variable, found.values)
    }

    /// Whether `<send>` computes its event otherwise than as a choice among strings the
    /// document writes: a send by name.
    func sendsByName(_ node: XMLNode) -> Bool {
        guard let expr = node["eventexpr"] else { return false }
        return literalStrings(expr) == nil
    }

    mutating func collectSend(_ node: XMLNode) throws(ImportFailure) {
        let sent = try sentEvents(node).events
        if sendsByName(node) {
            // A send by name carries no data and goes on the external queue.
            if node["target"] == "#_internal" {
                throw fail(node, "<send eventexpr target=\"#_internal\"> whose event is computed at run time is not supported "
                           + "(only a send to the external queue can name its event at run time)")
            }
            if let extra = node.children("param").first ?? node.children("content").first {
                throw fail(extra, "a <send> whose eventexpr is computed at run time carries no data "
                           + "(the event it names is known only then, and so are its fields)")
            }
            if node["namelist"] != nil {
                throw fail(node, "a <send> whose eventexpr is computed at run time carries no data (namelist)")
            }
            sendsByName = true
            if let id = node["id"] { computedSendIDs.insert(id) }
        }
        if let target = node["target"], target != "#_internal" {
            throw fail(node, "<send target=\"\(target)\"> (another session or I/O processor) is not supported; a send to the machine itself has no target")
        }
        if node["targetexpr"] != nil { throw fail(node, "<send targetexpr> is not supported") }
        if let type = node["type"], type != "http://www.w3.org/TR/scxml/#SCXMLEventProcessor", type != "scxml" {
            throw fail(node, "<send type=\"\(type)\"> (another event I/O processor) is not supported")
        }
        if node["typeexpr"] != nil { throw fail(node, "<send typeexpr> is not supported") }
        if node["idlocation"] != nil { throw fail(node, "<send idlocation> (a send id stored in a variable) is not supported") }
        let content = node.children("content")
        if content.count > 1 { throw fail(content[1], "a <send> with several <content>s") }
        if let c = content.first, !node.children("param").isEmpty || node["namelist"] != nil {
            throw fail(c, "<content> with <param> or namelist in one <send> (SCXML allows one or the other)")
        }
        var names: [String] = []
        for p in node.children("param") {
            guard let name = p["name"] else { throw fail(p, "<param> without a name") }
            names.append(name)
        }
        for n in (node["namelist"] ?? "").split(separator: " ").map(String.init) { names.append(n) }
        for e in sent {
            noteEvent(e)
            noteSource(e, node["target"] == "#_internal" ? .raised(sendID: node["id"]) : .sent(sendID: node["id"]))
            if let id = node["id"] { sendIDs[id, default: []].insert(e) }
            if !content.isEmpty { contentEvents.insert(e) }
            var fields = sentFields[e] ?? []
            for n in names where !fields.contains(n) { fields.append(n) }
            sentFields[e] = fields
            if contentEvents.contains(e), !fields.isEmpty {
                throw fail(node, "event \"\(e)\" is sent with <content> here or elsewhere and with named fields (<param> or namelist) "
                           + "elsewhere or here: one event carries one or the other")
            }
        }
    }

    /// The event name a descriptor stands for (`foo.*` and `foo.` match like `foo`).
    static func descriptorStem(_ token: String) -> String {
        var t = token
        if t.hasSuffix(".*") { t.removeLast(2) }
        while t.hasSuffix(".") { t.removeLast() }
        return t == "*" ? "" : t
    }

    // MARK: - Types of fields and outputs

    func fieldsOf(_ event: String) -> [String] {
        var fields = declaredEvents[event]?.map(\.name) ?? []
        for f in sentFields[event] ?? [] where !fields.contains(f) { fields.append(f) }
        if contentEvents.contains(event), !fields.contains(ExpressionTranslator.contentField) {
            fields.append(ExpressionTranslator.contentField)
        }
        for f in translator.fieldsRead[event] ?? [] where !fields.contains(f) { fields.append(f) }
        return fields
    }

    /// Names every payload field the document sends, declares or reads. Fields read are
    /// learnt while translating, so the table is rebuilt at the start of each pass and is
    /// complete for the last one, which writes the spec.
    mutating func nameFields() {
        var table = NameTable()
        for id in variables.map(\.id) { table.reserve(variableNames.name(for: id)) }
        for e in events { for f in fieldsOf(e) { _ = table.name(for: f) } }
        for f in doneFieldNames() { _ = table.name(for: f) }
        fieldNames = table
    }

    /// A payload field's name here (see `nameFields`).
    func fieldName(_ field: String) -> String { fieldNames.existingName(for: field) }

    /// A field of an output's payload: outputs are never in scope, so only the field's
    /// own spelling matters.
    static func outputFieldName(_ field: String) -> String {
        var table = NameTable()
        return table.name(for: field)
    }

    func fieldType(_ event: String, _ field: String) -> ImportType {
        translator.fields[FieldKey(event: event, field: field)] ?? .number
    }

}
