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
                if a["sendidexpr"] != nil { throw fail(a, "<cancel sendidexpr> (a send id computed at run time) is not supported") }
                guard let sendid = a["sendid"] else { throw fail(a, "<cancel> without a sendid") }
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
                case (.known(let t), _): try check(value, is: t, a, "expr", "\(location) is a \(t.rawValue)")
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

    mutating func writeSend(_ a: XMLNode, scope: ExpressionScope, into out: inout MachineText) throws(ImportFailure) {
        guard let e = a["event"] else { throw fail(a, "<send> without an event") }
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
        let all = fieldsOf(e)
        var args: [String] = []
        for f in all {
            guard let value = given[f] else {
                throw fail(a, "<send event=\"\(e)\"> without \"\(f)\", which \(fields.contains(f) ? "another send of it carries" : "its transitions read") (undefined in ECMAScript)")
            }
            args.append(value)
        }
        var line = (a["target"] == "#_internal" ? "raise " : "send ") + eventNames.name(for: e)
        if !args.isEmpty { line += "(" + args.joined(separator: ", ") + ")" }
        if let delay = try delayText(a, scope: scope) {
            if a["target"] == "#_internal" { throw fail(a, "a delayed send to #_internal is not supported") }
            line += " after " + delay
        }
        out.line(line)
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
