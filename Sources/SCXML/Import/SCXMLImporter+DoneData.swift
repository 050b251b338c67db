import StatecraftDiagnostics

// <donedata>: the data a <final> gives its parent's done event (SCXML 5.5, 5.7), written as
// the final state's values (`final state s02(data: "foo")`), which a `done` transition reads
// by name. A <param name="x"> becomes field `x` (read as `_event.data.x`); a single
// <content> becomes field `data`, read as `_event.data` whole, as a <send>'s <content> is.

/// What a state's completion carries, from the <donedata> of its <final> children.
enum DoneShape: Equatable {
    /// One value, `<content>`: field `data`, read as `_event.data`.
    case content
    /// Named values, `<param name="…">`, in the order written.
    case params([String])

    /// The fields, in order.
    var fields: [String] {
        switch self {
        case .content: [ExpressionTranslator.contentField]
        case .params(let names): names
        }
    }
}

extension Importer {
    /// The key under which a completion's field types are learnt: the done event's name.
    static func completionKey(_ state: String) -> String { "done.state." + state }

    /// What the <donedata> of `final` gives (nil: it has none).
    func doneShape(ofFinal final: XMLNode) throws(ImportFailure) -> DoneShape? {
        let data = final.children("donedata")
        if data.count > 1 { throw fail(data[1], "a <final> with several <donedata>") }
        guard let d = data.first else { return nil }
        let contents = d.children("content"), params = d.children("param")
        for child in d.children where child.name != "content" && child.name != "param" {
            throw fail(child, "<\(child.name)> inside <donedata> (it holds one <content> or <param>s)")
        }
        if contents.count > 1 { throw fail(contents[1], "a <donedata> with several <content>s") }
        if let c = contents.first {
            if !params.isEmpty { throw fail(c, "<content> with <param> in one <donedata> (SCXML allows one or the other)") }
            return .content
        }
        var names: [String] = []
        for p in params {
            guard let name = p["name"] else { throw fail(p, "<param> without name") }
            if names.contains(name) { throw fail(p, "<param name=\"\(name)\"> given twice in one <donedata>") }
            names.append(name)
        }
        return .params(names)
    }

    /// What the completion of the state with id `s` carries: the same for every <final> child
    /// (a `done` transition reads one layout whichever was entered), or nil when none has
    /// <donedata>. A <parallel>'s completion carries nothing.
    func completionShape(_ s: String) throws(ImportFailure) -> DoneShape? {
        guard let node = stateByID[s], node.name == "state" else { return nil }
        let finals = stateChildren(of: node).filter { $0.name == "final" }
        guard let first = finals.first else { return nil }
        let shape = try doneShape(ofFinal: first)
        for f in finals.dropFirst() {
            let other = try doneShape(ofFinal: f)
            if other != shape {
                throw fail(f, "<final id=\"\(id(f))\"> gives \(Self.describe(other)) and <final id=\"\(id(first))\"> "
                           + "\(Self.describe(shape)): the done event of \"\(s)\" would carry different data depending on which "
                           + "was entered (a done transition reads one layout here)")
            }
        }
        return shape
    }

    private static func describe(_ shape: DoneShape?) -> String {
        switch shape {
        case nil: "no <donedata>"
        case .content: "<content>"
        case .params(let names): "<param>s " + names.map { "\"\($0)\"" }.joined(separator: ", ")
        }
    }

    /// The values `final` gives, as written after its name (`(data: "foo")`), or "" when it
    /// has no <donedata>. Their types are learnt under the completion's key, for the `done`
    /// transitions that read them.
    mutating func doneDataText(_ final: XMLNode) throws(ImportFailure) -> String {
        guard let shape = try doneShape(ofFinal: final), let d = final.children("donedata").first,
              let parent = final.parent else { return "" }
        let key = Self.completionKey(id(parent))
        let scope = scope(events: [])
        var values: [(String, Translated, XMLNode)] = []
        switch shape {
        case .content:
            guard let c = d.children("content").first else { return "" }
            values.append((ExpressionTranslator.contentField, try contentValue(c, scope: scope), c))
        case .params:
            for p in d.children("param") {
                guard let name = p["name"] else { continue }
                if p["expr"] != nil {
                    if p["location"] != nil { throw fail(p, "<param> with both expr and location") }
                    values.append((name, try translateExpression(p, "expr", scope, into: &translator), p))
                } else if let location = p["location"] {
                    guard let v = variables.first(where: { $0.id == location }) else {
                        throw fail(p, "<param location=\"\(location)\">: not a <data> id (SCXML raises error.execution and "
                                   + "sends the done event without data, which has no equivalent here)")
                    }
                    values.append((name, Translated(text: variableNames.name(for: location), precedence: ExpressionTranslator.primary,
                                                    type: variableType(v)), p))
                } else {
                    throw fail(p, "<param> without expr or location")
                }
            }
        }
        var parts: [String] = []
        for (name, value, node) in values {
            let fieldKey = FieldKey(event: key, field: name)
            switch value.type {
            case .known(let t):
                if let known = translator.fields[fieldKey], known != t {
                    throw fail(node, "\"\(name)\" of the done event of \"\(id(parent))\" is a \(t.rawValue) here and a "
                               + "\(known.rawValue) in another <final> of it")
                }
                translator.fields[fieldKey] = t
            case .unknown(let keys):
                if let t = translator.fields[fieldKey] { translator.learn(keys, t) }
            }
            parts.append("\(fieldName(name)): \(value.text)")
        }
        return "(" + parts.joined(separator: ", ") + ")"
    }

    /// Every field name a <donedata> gives, for the field name table.
    func doneFieldNames() -> [String] {
        var names: [String] = []
        for node in stateByID.values.sorted(by: { $0.offset < $1.offset }) where node.name == "final" {
            guard let shape = try? doneShape(ofFinal: node) else { continue }
            for f in shape.fields where !names.contains(f) { names.append(f) }
        }
        return names
    }
}
