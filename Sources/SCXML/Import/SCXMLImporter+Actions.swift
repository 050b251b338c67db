import StatecraftDiagnostics

// Writing executable content: <raise>, <send>, <cancel>, <assign>, <log>, <if>, and the
// delays of sends.

extension Importer {
    // MARK: - Executable content

    mutating func writeBlock(_ head: String, _ actions: [XMLNode], scope: ExpressionScope, into out: inout MachineText) throws(ImportFailure) {
        var lines = MachineText()
        if let first = actions.first { try checkDepth(out, first) }
        lines.outer = out.nesting + 1
        try writeActions(actions, scope: scope, into: &lines)
        if lines.text.isEmpty {
            // An entry or exit block whose every element became something else (a timer).
            if head != "entry" && head != "exit" { out.line(head) }
            return
        }
        out.open(head)
        out.append(lines)
        out.close()
    }

    func translateExpression(_ node: XMLNode, _ attribute: String, _ scope: ExpressionScope,
                             into translator: inout ExpressionTranslator) throws(ImportFailure) -> Translated {
        guard let text = node[attribute] else { throw fail(node, "<\(node.name)> without \(attribute)") }
        do {
            return try translator.translate(try JSParser.parse(text), scope)
        } catch {
            throw fail(node, attribute: attribute, error)
        }
    }

    mutating func writeActions(_ actions: [XMLNode], scope: ExpressionScope, into out: inout MachineText) throws(ImportFailure) {
        var i = 0
        while i < actions.count {
            let a = actions[i]
            i += 1
            if a.namespace != nil, a.namespace != "", a.namespace != scxmlNamespace { continue }
            if skipped.contains(ObjectIdentifier(a)) { continue }
            switch a.name {
            case "raise":
                let e = a["event"] ?? ""
                if !fieldsOf(e).isEmpty {
                    throw fail(a, "<raise event=\"\(e)\"> carries no data, but the event's transitions read \(fieldsOf(e).joined(separator: ", ")) (undefined in ECMAScript)")
                }
                out.line("raise \(eventNames.name(for: e))")
            case "send":
                try writeSend(a, scope: scope, into: &out)
            case "cancel":
                if let expr = a["sendidexpr"] {
                    try writeComputedCancel(a, expr, into: &out)
                    continue
                }
                guard let sendid = a["sendid"] else { throw fail(a, "<cancel> without a sendid") }
                if computedSendIDs.contains(sendid) {
                    throw fail(a, attribute: "sendid", JSError(message: "cancels a <send> whose event is computed at run time, "
                               + "which has no translation (`cancel` names an event)", offset: 0))
                }
                let sent = sendIDs[sendid] ?? []
                guard sent.count == 1, let e = sent.first else {
                    if sent.isEmpty {
                        // Nothing is ever sent with that id: cancelling it does nothing.
                        out.line("// <cancel sendid=\"\(sendid)\">: no <send> has that id")
                        diagnostics.append(finding(.scxmlInert, a, attribute: "sendid",
                                                   "<cancel sendid=\"\(sendid)\"> cancels nothing: no <send> has that id"))
                        continue
                    }
                    throw fail(a, "<cancel sendid=\"\(sendid)\">: that id is used by sends of several events")
                }
                out.line("cancel \(eventNames.name(for: e))")
            case "assign":
                guard let location = a["location"] else { throw fail(a, "<assign> without a location") }
                guard let variable = variables.first(where: { $0.id == location }) else {
                    throw fail(a, "<assign location=\"\(location)\">: not a <data> id (assigning it is an error in SCXML)")
                }
                if !a.children.isEmpty || (a["expr"] == nil && !a.text.trimmingWhitespace.isEmpty) {
                    throw fail(a, "<assign> with inline content (a JSON or XML value) is not supported")
                }
                let value = try translateExpression(a, "expr", scope, into: &translator)
                switch (variableType(variable), value.type) {
                case (.known(let t), .unknown(let keys)):
                    // A field copied into a typed variable takes its type (`next = _event.data.then`).
                    translator.learn(keys, t)
                case (.known(let t), .known): try check(value, is: t, a, "expr", "\(location) is a \(t.rawValue)")
                case (.unknown(let keys), .known(let t)): for k in keys { translator.fields[k] = t }
                case (.unknown, .unknown): break
                }
                out.line("\(variableNames.name(for: location)) = \(value.text)")
            case "log":
                let label = a["label"] ?? "log"
                var args: [Translated] = []
                if a["expr"] != nil {
                    guard let text = a["expr"] else { break }
                    let parsed: JSExpr
                    do { parsed = try JSParser.parse(text) } catch { throw fail(a, attribute: "expr", error) }
                    do {
                        if case .array(let items, _) = parsed {
                            for item in items { args.append(try translator.translate(item, scope)) }
                        } else {
                            args.append(try translator.translate(parsed, scope))
                        }
                    } catch {
                        throw fail(a, attribute: "expr", error)
                    }
                }
                // A value nothing else types takes the type the output declares for it.
                if let declared = declaredOutputs[label], declared.count == args.count {
                    for (arg, field) in zip(args, declared) {
                        if case .unknown(let keys) = arg.type { translator.learn(keys, field.type) }
                    }
                }
                let types = args.map { arg -> ImportType in if case .known(let t) = arg.type { t } else { .number } }
                if !frozen { outputUses[label, default: []].append(types) }
                let signature = frozen ? (outputSignature[label] ?? types) : types
                var texts = args.map(\.text)
                if signature.count == 1, signature[0] == .string, types.count == 1, types[0] != .string {
                    texts = ["\"\\(\(texts[0]))\""]
                } else if signature.count == 1, signature[0] == .string, types.isEmpty {
                    texts = ["\"\""]
                }
                if frozen { try checkLog(a, label: label, args: args, given: texts.count, signature: signature) }
                let name = outputNames.name(for: label)
                out.line("emit \(name)" + (texts.isEmpty ? "" : "(\(texts.joined(separator: ", ")))"))
            case "if":
                try writeIf(a, scope: scope, into: &out)
            case "script": throw fail(a, "<script> is not supported")
            case "foreach": throw fail(a, "<foreach> (arrays) is not supported")
            case "elseif", "else": throw fail(a, "<\(a.name)> outside <if>")
            default: throw fail(a, "<\(a.name)> is not executable content we support")
            }
        }
    }

    /// A `<log>` becomes `emit` of one output, which has one signature: the one the document
    /// declares (`statecraft:outputs`), or else the one its uses agree on. A `<log>` that
    /// gives another count of values, or a value of another type, has no translation.
    func checkLog(_ a: XMLNode, label: String, args: [Translated], given: Int,
                  signature: [ImportType]) throws(ImportFailure) {
        let declared = declaredOutputs[label] != nil
        let source = declared ? "statecraft:outputs declares" : "another <log label=\"\(label)\"> gives"
        guard given == signature.count else {
            throw fail(a, "<log label=\"\(label)\"> gives \(given) value\(given == 1 ? "" : "s"); \(source) "
                       + "\(signature.count) (\(signature.map(\.rawValue).joined(separator: ", ")))")
        }
        // A single text value takes any value, written into a string.
        if signature == [.string] { return }
        for (index, (arg, wanted)) in zip(args, signature).enumerated() {
            if case .known(let type) = arg.type, type != wanted {
                throw fail(a, "<log label=\"\(label)\">: value \(index + 1) is a \(type.rawValue); \(source) a \(wanted.rawValue)")
            }
        }
    }

    /// `<cancel sendidexpr>` whose id is one of a few written in the document: a choice
    /// among the cancels of those ids (an id no `<send>` has cancels nothing).
    mutating func writeComputedCancel(_ a: XMLNode, _ expr: String, into out: inout MachineText) throws(ImportFailure) {
        guard let found = literalStrings(expr) else {
            throw fail(a, wholeAttribute: "sendidexpr", "a send id computed at run time is supported only from a string literal, "
                       + "or a <data> whose value and every <assign> to it are string literals")
        }
        var branches: [(condition: String?, line: String)] = []
        for id in found.values {
            if computedSendIDs.contains(id) {
                throw fail(a, wholeAttribute: "sendidexpr", "id \"\(id)\" is that of a <send> whose event is computed at run time, "
                           + "which has no translation (`cancel` names an event)")
            }
            let sent = sendIDs[id] ?? []
            if sent.count > 1 { throw fail(a, "<cancel sendidexpr=\"…\">: id \"\(id)\" is used by sends of several events") }
            guard let e = sent.first else { continue }
            branches.append((found.variable.map { "\(variableNames.name(for: $0)) == \(ExpressionTranslator.stringLiteral(id))" },
                             "cancel \(eventNames.name(for: e))"))
        }
        if branches.isEmpty {
            out.line("// <cancel sendidexpr=\"\(expr)\">: no <send> has any id it can hold")
            return
        }
        writeChoice(branches, into: &out)
    }

    /// Lines each taken under its condition (at most one holds), or the one line with none.
    func writeChoice(_ branches: [(condition: String?, line: String)], into out: inout MachineText) {
        if branches.count == 1, branches[0].condition == nil {
            out.line(branches[0].line)
            return
        }
        for (k, branch) in branches.enumerated() {
            let head = (k == 0 ? "if " : "} else if ") + (branch.condition ?? "true") + " {"
            if k == 0 { out.line(head) } else { out.replaceLastCloseWith(head) }
            out.indent()
            out.line(branch.line)
            out.dedent()
            out.line("}")
        }
    }

    /// A `<send>`: its event and delay may each be one of a few strings the document writes
    /// (`eventexpr`, `delayexpr` from such a `<data>`), one line per combination.
    mutating func writeSend(_ a: XMLNode, scope: ExpressionScope, into out: inout MachineText) throws(ImportFailure) {
        if sendsByName(a) { return try writeSendByName(a, scope: scope, into: &out) }
        let (eventVariable, sent) = try sentEvents(a)
        let delays = try delayChoices(a, scope: scope)
        var branches: [(condition: String?, line: String)] = []
        for e in sent {
            let line = try sendLine(a, event: e, scope: scope)
            for (delayCondition, delay) in delays {
                var conditions: [String] = []
                if let v = eventVariable { conditions.append("\(variableNames.name(for: v)) == \(ExpressionTranslator.stringLiteral(e))") }
                if let c = delayCondition { conditions.append(c) }
                if delay != nil, a["target"] == "#_internal" { throw fail(a, "a delayed send to #_internal is not supported") }
                branches.append((conditions.isEmpty ? nil : conditions.joined(separator: " && "), line + (delay.map { " after " + $0 } ?? "")))
            }
        }
        writeChoice(branches, into: &out)
    }

    /// `<send eventexpr>` computed otherwise than from strings the document writes:
    /// `send "\(expr)"`, which sends the event whose name the string has when it runs (a
    /// name no event has, or an event with fields, fails the step; in SCXML such an event
    /// would be sent and taken by no transition).
    mutating func writeSendByName(_ a: XMLNode, scope: ExpressionScope, into out: inout MachineText) throws(ImportFailure) {
        var name = try translateExpression(a, "eventexpr", scope, into: &translator)
        // A value nothing else types (an app event's field) is a name: a String.
        if case .unknown(let keys) = name.type {
            translator.learn(keys, .string)
            name.type = .known(.string)
        }
        // Built from strings and concatenation, it is one string literal already.
        let literal = name.pieces != nil && name.text.hasPrefix("\"") ? name.text : "\"\\(" + name.text + ")\""
        let delays = try delayChoices(a, scope: scope)
        writeChoice(delays.map { ($0.condition, "send " + literal + ($0.delay.map { " after " + $0 } ?? "")) }, into: &out)
    }

    /// The delays a `<send>` may have: one (nil for none), or, for a `delayexpr` naming a
    /// `<data>` that only ever holds durations written as string literals, each with the
    /// condition that chooses it.
    mutating func delayChoices(_ send: XMLNode, scope: ExpressionScope) throws(ImportFailure) -> [(condition: String?, delay: String?)] {
        if send.attribute("after", namespace: statecraftSCXMLNamespace) == nil, let expr = send["delayexpr"],
           case .path? = try? JSParser.parse(expr), let found = literalStrings(expr) {
            var choices: [(condition: String?, delay: String?)] = []
            for value in found.values {
                guard let seconds = Self.duration(value) else {
                    throw fail(send, attribute: "delayexpr", JSError(message: "'\(value)', a value it can hold, is not a duration such as 1s or 500ms", offset: 0))
                }
                choices.append((found.variable.map { "\(variableNames.name(for: $0)) == \(ExpressionTranslator.stringLiteral(value))" },
                                seconds > 0 ? Self.durationLiteral(seconds) : nil))
            }
            return choices
        }
        return [(nil, try delayText(send, scope: scope))]
    }

    /// `send e(…)` (or `raise` for `#_internal`) with the fields `e` carries.
    mutating func sendLine(_ a: XMLNode, event e: String, scope: ExpressionScope) throws(ImportFailure) -> String {
        let fields = sentFields[e] ?? []
        // Every field the event carries must be given by this send (an absent one would be
        // undefined in ECMAScript).
        var given: [String: String] = [:]
        for p in a.children("param") {
            guard let name = p["name"] else { continue }
            if p["expr"] != nil {
                let value = try translateExpression(p, "expr", scope, into: &translator)
                let key = FieldKey(event: e, field: name)
                switch value.type {
                case .known(let t):
                    if let known = translator.fields[key], known != t {
                        throw fail(p, "param \"\(name)\" of event \"\(e)\" is a \(t.rawValue) here and a \(known.rawValue) elsewhere")
                    }
                    translator.fields[key] = t
                case .unknown(let keys):
                    // A value nothing else types (a field of an event only the log sends)
                    // takes the type of the field it is sent as, when that one is known.
                    if let t = translator.fields[key] { translator.learn(keys, t) }
                }
                given[name] = value.text
            } else if let location = p["location"] {
                guard let v = variables.first(where: { $0.id == location }) else {
                    throw fail(p, "<param location=\"\(location)\">: not a <data> id")
                }
                if case .known(let t) = variableType(v) { translator.fields[FieldKey(event: e, field: name)] = t }
                given[name] = variableNames.name(for: location)
            } else {
                throw fail(p, "<param> without expr or location")
            }
        }
        for n in (a["namelist"] ?? "").split(separator: " ").map(String.init) {
            guard let v = variables.first(where: { $0.id == n }) else { throw fail(a, "namelist names \"\(n)\", not a <data> id") }
            if case .known(let t) = variableType(v) { translator.fields[FieldKey(event: e, field: n)] = t }
            given[n] = variableNames.name(for: n)
        }
        if let c = a.children("content").first {
            let value = try contentValue(c, scope: scope)
            let key = FieldKey(event: e, field: ExpressionTranslator.contentField)
            switch value.type {
            case .known(let t):
                if let known = translator.fields[key], known != t {
                    throw fail(c, "<content> of event \"\(e)\" is a \(t.rawValue) here and a \(known.rawValue) elsewhere")
                }
                translator.fields[key] = t
            case .unknown(let keys):
                if let t = translator.fields[key] { translator.learn(keys, t) }
            }
            given[ExpressionTranslator.contentField] = value.text
        }
        let all = fieldsOf(e)
        var args: [String] = []
        for f in all {
            guard let value = given[f] else {
                if f == ExpressionTranslator.contentField, contentEvents.contains(e) {
                    throw fail(a, "<send event=\"\(e)\"> without <content>, which another send of it carries (undefined in ECMAScript)")
                }
                throw fail(a, "<send event=\"\(e)\"> without \"\(f)\", which \(fields.contains(f) ? "another send of it carries" : "its transitions read") (undefined in ECMAScript)")
            }
            args.append(value)
        }
        var line = (a["target"] == "#_internal" ? "raise " : "send ") + eventNames.name(for: e)
        if !args.isEmpty { line += "(" + args.joined(separator: ", ") + ")" }
        return line
    }

    /// The value of a `<content>`: its `expr`, or its text read as the ECMAScript data model
    /// reads it: a JSON number, `true` or `false`, or a JSON string; any other text is a
    /// string, its whitespace normalized (runs of it made one space, none at the ends).
    /// JSON objects and arrays, and XML, have no equivalent in a typed payload.
    mutating func contentValue(_ c: XMLNode, scope: ExpressionScope) throws(ImportFailure) -> Translated {
        if c["expr"] != nil {
            if !c.children.isEmpty || !c.text.trimmingWhitespace.isEmpty { throw fail(c, "<content> with both expr and a value") }
            return try translateExpression(c, "expr", scope, into: &translator)
        }
        if !c.children.isEmpty { throw fail(c, "<content> holding XML is not supported (a payload is a number, string or boolean)") }
        guard let value = Self.inlineValue(c.text) else {
            throw fail(c, "<content> holding a JSON object or array is not supported (a payload is a number, string or boolean)")
        }
        let (type, text) = value
        return Translated(text: text, precedence: ExpressionTranslator.primary, type: .known(type),
                          pieces: type == .string ? [.literal(Self.inlineString(c.text))] : nil)
    }

    /// A value written as the text of `<content>` or `<data>`, as the ECMAScript data model
    /// reads it, with our literal for it: a JSON number, `true` or `false`, a JSON string;
    /// any other text is a string, its whitespace normalized (runs of it made one space, none
    /// at the ends). Nil for a JSON object or array, which no typed value holds.
    static func inlineValue(_ raw: String) -> (ImportType, String)? {
        let text = raw.trimmingWhitespace
        if text.hasPrefix("{") || text.hasPrefix("[") { return nil }
        if text == "true" || text == "false" { return (.bool, text) }
        if isJSONNumber(text), let n = Double(text), n.isFinite { return (.number, ExpressionTranslator.number(n)) }
        return (.string, ExpressionTranslator.stringLiteral(inlineString(raw)))
    }

    /// The string an inline text that is not a number or boolean stands for.
    static func inlineString(_ raw: String) -> String {
        let text = raw.trimmingWhitespace
        if text.hasPrefix("\""), case .string(let s, _)? = try? JSParser.parse(text) { return s }
        return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// JSON's number syntax: `-?(0|[1-9]digits)(.digits)?([eE][+-]?digits)?`.
    static func isJSONNumber(_ text: String) -> Bool {
        var s = Substring(text)
        func digits() -> Int {
            let n = s.prefix(while: { ("0"..."9").contains($0) }).count
            s = s.dropFirst(n)
            return n
        }
        if s.first == "-" { s = s.dropFirst() }
        if s.first == "0" { s = s.dropFirst() } else if digits() == 0 { return false }
        if s.first == "." {
            s = s.dropFirst()
            if digits() == 0 { return false }
        }
        if s.first == "e" || s.first == "E" {
            s = s.dropFirst()
            if s.first == "+" || s.first == "-" { s = s.dropFirst() }
            if digits() == 0 { return false }
        }
        return s.isEmpty
    }

    mutating func writeIf(_ a: XMLNode, scope: ExpressionScope, into out: inout MachineText) throws(ImportFailure) {
        // <if cond>A<elseif cond/>B<else/>C</if>: the children up to each marker are a branch.
        // SCXML's schema puts every <elseif> before the one <else>: anything after <else> would
        // be a branch no run can take, and has no spelling in a spec.
        var branches: [(cond: XMLNode?, actions: [XMLNode])] = [(a, [])]
        var sawElse = false
        for child in a.children {
            if (child.name == "elseif" || child.name == "else") && sawElse {
                throw fail(child, "<\(child.name)> after <else> in <if> (every <elseif> comes before the one <else>)")
            }
            if child.name == "elseif" {
                branches.append((child, []))
            } else if child.name == "else" {
                sawElse = true
                branches.append((nil, []))
            } else {
                branches[branches.count - 1].actions.append(child)
            }
        }
        var first = true
        for (index, branch) in branches.enumerated() {
            var head: String
            if let condNode = branch.cond {
                guard let cond = condNode["cond"] else { throw fail(condNode, "<\(condNode.name)> without cond") }
                let parsed: JSExpr
                do { parsed = try JSParser.parse(cond) } catch { throw fail(condNode, attribute: "cond", error) }
                let text: String
                do { text = try translator.condition(parsed, scope) } catch { throw fail(condNode, attribute: "cond", error) }
                head = (first ? "if " : "} else if ") + text + " {"
            } else {
                head = "} else {"
            }
            if let condNode = branch.cond { try checkDepth(out, condNode) }
            if first { out.line(head) } else { out.replaceLastCloseWith(head) }
            out.indent()
            try writeActions(branch.actions, scope: scope, into: &out)
            out.dedent()
            out.line("}")
            first = false
            _ = index
        }
    }

    /// Our parser reads blocks nested up to 64 levels (states, action blocks and `if`s
    /// together); a document nested deeper is refused here rather than written unreadable.
    func checkDepth(_ out: MachineText, _ node: XMLNode) throws(ImportFailure) {
        if out.nesting >= Self.maxBlockDepth {
            throw fail(node, "states, actions and <if>s nested more than \(Self.maxBlockDepth) levels deep are not supported")
        }
    }

    func check(_ value: Translated, is type: ImportType, _ node: XMLNode, _ attribute: String, _ message: String) throws(ImportFailure) {
        if case .known(let t) = value.type, t != type {
            throw fail(node, attribute: attribute, JSError(message: "a \(t.rawValue), but \(message)", offset: 0))
        }
    }

    /// A CSS2 time (`1s`, `500ms`, `.5s`) in seconds.
    static func duration(_ text: String) -> Double? {
        let t = text.trimmingWhitespace
        if t.hasSuffix("ms"), let v = Double(t.dropLast(2)), v.isFinite, v >= 0 { return v / 1000 }
        if t.hasSuffix("s"), let v = Double(t.dropLast(1)), v.isFinite, v >= 0 { return v }
        return nil
    }

    /// Seconds as one of our duration literals.
    static func durationLiteral(_ seconds: Double) -> String {
        let ms = seconds * 1000
        if ms == ms.rounded(), seconds != seconds.rounded() { return ExpressionTranslator.number(ms) + "ms" }
        return ExpressionTranslator.number(seconds) + "s"
    }
}
