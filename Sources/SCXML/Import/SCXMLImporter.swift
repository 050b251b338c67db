import StatecraftDiagnostics
import StatecraftSemantics
import StatecraftSyntax

// `statecraft import`: an SCXML document (ECMAScript data model) becomes a `.machine` in our
// language, or is refused with one error at the element or expression that has no
// equivalent, naming the feature.
//
// The translation is mechanical and keeps SCXML's meaning, since our statecharts follow
// SCXML's algorithm:
// - <state>, <parallel>, <final>, <history> become states of the same kinds; `initial`
//   attributes and <initial> elements mark the initial child (the first child when none);
// - <data> anywhere becomes a variable (SCXML binds all data early), typed by its literal;
// - a transition's event descriptors are matched against every event the document names,
//   as SCXML matches them (`*`, prefixes `foo` / `foo.*`, `done.state.x` as `done(x)`), and
//   the transition lists the events that match;
// - <raise>, <send> (to itself, with or without delay), <cancel>, <assign>, <if>, <log>
//   become `raise`, `send`, `cancel`, assignments, `if` and `emit` of an output per label;
// - `_event.data.f` is payload field `f`; ECMAScript expressions are translated where they
//   mean the same in our typed language (`ExpressionTranslator`).
// Everything else (<invoke>, <script>, <foreach>, other I/O processors, `_event.name`,
// untyped values) is refused: a machine that silently did something else would be worse.

/// The result of importing one SCXML document.
public struct SCXMLImportResult: Sendable {
    /// The spec, when the document could be translated.
    public var text: String?
    /// The error that stopped the translation, positioned in `file`.
    public var diagnostics: [Diagnostic]
    /// The SCXML document.
    public var file: SourceFile
}

public enum SCXMLImporter {
    /// Translates the SCXML document `file` into a spec. `machineName` is used when the
    /// document's root has no `name`; `sourceName` is named in the spec's first comment.
    public static func translate(_ file: SourceFile, machineName: String, sourceName: String) -> SCXMLImportResult {
        do {
            let root = try XMLTree.parse(file)
            var importer = Importer(file: file, root: root)
            // Two passes: the first learns the types of payload fields and outputs from every
            // use in the document, the second writes with them.
            // A type learnt late in one pass (a field sent below the transition that reads
            // it) is known from the start of the next.
            for _ in 0..<3 { _ = try importer.run(machineName: machineName, sourceName: sourceName) }
            try importer.freezeTypes()
            let text = try importer.run(machineName: machineName, sourceName: sourceName)
            try refuseWhatNeverSettles(text, root: root)
            return SCXMLImportResult(text: text, diagnostics: [], file: file)
        } catch {
            return SCXMLImportResult(text: nil, diagnostics: [error.diagnostic], file: file)
        }
    }
}

/// A document whose eventless transitions are certain to be taken forever has no meaning
/// (an SCXML interpreter would never finish a macrostep); our resolver finds such loops in
/// the translation, and they are refused at the document, with what it found.
private func refuseWhatNeverSettles(_ text: String, root: XMLNode) throws(ImportFailure) {
    let file = SourceFile(path: "<import>", text: text)
    let (syntax, syntaxDiagnostics) = Parser.parse(file)
    guard !syntaxDiagnostics.hasErrors else { return }
    let resolution = Resolver.resolve(syntax, in: file)
    if let loop = resolution.diagnostics.diagnostics.first(where: { $0.id == .eventlessCycle }) {
        let line = file.location(of: loop.range.start).line
        throw ImportFailure(.scxmlUnsupported, "the document never settles: \(loop.message) (line \(line) of the translation)",
                            at: root.offset, length: root.name.utf8.count + 1)
    }
}

private let scxmlNamespace = "http://www.w3.org/2005/07/scxml"

/// Our own attributes in an SCXML document, which SCXML allows from other namespaces: what
/// a spec declares that SCXML cannot say, so that a spec exported by `statecraft scxml`
/// imports back with the same interface. On `<scxml>`, `events` and `outputs` list
/// signatures (`loaded(itemDuration: Number); play`); on `<data>`, `kind` is `const`,
/// `var` or `public var`. Other processors ignore them.
public let statecraftSCXMLNamespace = "urn:statecraft:spec"

/// A transition's trigger in our language.
private enum Trigger: Equatable {
    case events([String])
    case done(String)
    case always
}

private struct Importer {
    let file: SourceFile
    let root: XMLNode

    // Names, per namespace.
    var stateNames = NameTable()
    var eventNames = NameTable()
    var variableNames = NameTable()
    var outputNames = NameTable()

    /// States by SCXML id, and each state node's id (given or generated).
    var stateByID: [String: XMLNode] = [:]
    var idOfNode: [ObjectIdentifier: String] = [:]
    /// Every event the document names, in the order first named (SCXML names).
    var events: [String] = []
    /// Fields of each event (SCXML event name -> field names in order) that its sends carry.
    var sentFields: [String: [String]] = [:]
    /// Events the document sends or raises itself.
    var sentEvents: Set<String> = []
    /// `<send id>` -> the event it sends (for `<cancel sendid>`).
    var sendIDs: [String: Set<String>] = [:]
    /// Variables: SCXML id -> type and initial value, in document order.
    /// A `<data>` without a value has no type of its own: it takes the type of what is
    /// assigned to it (`dataKey`), and starts at that type's zero.
    var variables: [(id: String, type: ImportType?, value: String?, node: XMLNode)] = []
    /// Outputs by label: the argument types of each use (nil: no argument).
    var outputUses: [String: [[ImportType]]] = [:]
    var outputOrder: [String] = []
    /// States whose completion raises a done event (compound with a final child, or
    /// parallel whose every region completes).
    var completable: [String] = []

    /// The interface declared with our attributes: fields of events and outputs, in order.
    var declaredEvents: [String: [(name: String, type: ImportType)]] = [:]
    var declaredOutputs: [String: [(name: String, type: ImportType)]] = [:]
    /// `statecraft:kind` of each `<data>`.
    var dataKinds: [String: String] = [:]

    var translator = ExpressionTranslator()
    static let maxStateDepth = 40
    static let maxBlockDepth = 60
    /// After the first pass: output signatures, and field types with unknown ones as Number.
    var frozen = false
    /// Events that are a state's timer (`findTimers`), with the delay in seconds; and the
    /// <send> and <cancel> elements that the timer replaces.
    var timers: [String: XMLNode] = [:]
    var skipped: Set<ObjectIdentifier> = []
    var collected = false
    var outputSignature: [String: [ImportType]] = [:]

    init(file: SourceFile, root: XMLNode) {
        self.file = file
        self.root = root
    }

    // MARK: - Errors

    func fail(_ node: XMLNode, _ message: String) -> ImportFailure {
        ImportFailure(.scxmlUnsupported, message, at: node.offset, length: node.name.utf8.count + 1)
    }

    /// An error inside attribute `attribute` of `node`, `scalarOffset` scalars into its value.
    func fail(_ node: XMLNode, attribute: String, _ error: JSError) -> ImportFailure {
        let start = attributeValueOffset(node, attribute) ?? node.offset
        let at = bytesInto(value: start, scalars: error.offset)
        return ImportFailure(.scxmlUnsupported, "\(attribute)=\"…\": \(error.message)", at: at, length: 1)
    }

    /// Where the value of `attribute` of `node` starts in the file.
    func attributeValueOffset(_ node: XMLNode, _ attribute: String) -> Int? {
        let bytes = file.bytes
        let name = Array(attribute.utf8)
        var i = node.offset
        var quote: UInt8 = 0
        while i < bytes.count, bytes[i] != UInt8(ascii: ">") || quote != 0 {
            let b = bytes[i]
            if quote != 0 {
                if b == quote { quote = 0 }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if i + name.count < bytes.count, Array(bytes[i..<(i + name.count)]) == name,
                      i > 0, [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r")].contains(bytes[i - 1]) {
                var j = i + name.count
                while j < bytes.count, bytes[j] == UInt8(ascii: " ") { j += 1 }
                if j < bytes.count, bytes[j] == UInt8(ascii: "=") {
                    j += 1
                    while j < bytes.count, bytes[j] == UInt8(ascii: " ") { j += 1 }
                    if j < bytes.count, bytes[j] == UInt8(ascii: "\"") || bytes[j] == UInt8(ascii: "'") { return j + 1 }
                }
            }
            i += 1
        }
        return nil
    }

    /// The byte offset `scalars` decoded characters into an attribute value starting at
    /// `start` (an entity such as `&lt;` is one character).
    func bytesInto(value start: Int, scalars: Int) -> Int {
        let bytes = file.bytes
        var i = start
        var n = 0
        while n < scalars, i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "'") {
            if bytes[i] == UInt8(ascii: "&") {
                while i < bytes.count, bytes[i] != UInt8(ascii: ";") { i += 1 }
                i += 1
            } else {
                i += UTF8Scanner.sequenceLength(bytes, at: i, limit: bytes.count)
            }
            n += 1
        }
        return i
    }

    // MARK: - Pass structure

    /// The key under which the type of valueless `<data>` `id` is learnt.
    static func dataKey(_ id: String) -> FieldKey { FieldKey(event: "", field: id) }

    /// A variable's type: its literal's, or the one learnt from its assignments.
    func variableType(_ v: (id: String, type: ImportType?, value: String?, node: XMLNode)) -> TypeInfo {
        if let t = v.type ?? translator.fields[Self.dataKey(v.id)] { return .known(t) }
        return .unknown([Self.dataKey(v.id)])
    }

    mutating func freezeTypes() throws(ImportFailure) {
        frozen = true
        for v in variables where v.type == nil && translator.fields[Self.dataKey(v.id)] == nil {
            throw fail(v.node, "<data id=\"\(v.id)\"> has no value and is never assigned one whose type is known (undefined in ECMAScript)")
        }
        for label in outputOrder {
            let uses = outputUses[label] ?? []
            if let declared = declaredOutputs[label] {
                outputSignature[label] = declared.map(\.type)
            } else if let first = uses.first, uses.allSatisfy({ $0 == first }) {
                outputSignature[label] = first
            } else if uses.allSatisfy({ $0.count <= 1 }) {
                // One label logged with values of different types: the output carries text.
                outputSignature[label] = [.string]
            } else {
                outputSignature[label] = uses.first ?? []
            }
        }
    }

    mutating func run(machineName: String, sourceName: String) throws(ImportFailure) -> String {
        guard root.name == "scxml" else {
            throw ImportFailure(.scxmlMalformed, "the root element is <\(root.name)>, not <scxml>", at: root.offset,
                                length: root.name.utf8.count + 1)
        }
        guard root.namespace == scxmlNamespace || root.namespace == nil || root.namespace == "" else {
            throw ImportFailure(.scxmlMalformed, "<scxml> is not in the SCXML namespace (\(scxmlNamespace))", at: root.offset,
                                length: 6)
        }
        if let model = root["datamodel"], model != "ecmascript" {
            throw fail(root, "datamodel=\"\(model)\" is not supported (the ECMAScript data model is)")
        }
        if root["binding"] == "late" { throw fail(root, "binding=\"late\" is not supported (data is bound early)") }
        if !collected {
            try collect()
            collected = true
        }
        var out = MachineText()
        out.line("// Imported from \(sourceName) by `statecraft import`.")
        let changed = stateNames.changed.map { ("state", $0) } + eventNames.changed.filter { timers[$0.scxml] == nil }.map { ("event", $0) }
            + variableNames.changed.map { ("variable", $0) } + outputNames.changed.map { ("output", $0) }
        if !changed.isEmpty {
            out.line("// SCXML names written differently here:")
            for (kind, c) in changed { out.line("//   \(kind) \"\(c.scxml)\" is \(c.ours)") }
        }
        let name = NameTable().nameForMachine(root["name"] ?? machineName)
        out.open("machine \(name)")
        for v in variables {
            let type: ImportType = if case .known(let t) = variableType(v) { t } else { .number }
            if v.value == nil {
                out.line("// \(v.id) has no value in the document (undefined in ECMAScript) until it is assigned")
            }
            let zero = switch type { case .number: "0"; case .bool: "false"; case .string: "\"\"" }
            let name = variableNames.name(for: v.id)
            switch dataKinds[v.id] {
            case "const": out.line("const \(name): \(type.rawValue) = \(v.value ?? zero)")
            case "var": out.line("var \(name): \(type.rawValue) = \(v.value ?? zero)")
            default: out.line("public var \(name): \(type.rawValue) = \(v.value ?? zero)")
            }
        }
        for e in events where timers[e] == nil {
            let fields = fieldsOf(e)
            let list = fields.map { "\(fieldName($0)): \(fieldType(e, $0).rawValue)" }
            out.line("event \(eventNames.name(for: e))" + (list.isEmpty ? "" : "(\(list.joined(separator: ", ")))"))
        }
        for label in outputOrder {
            let types = frozen ? (outputSignature[label] ?? []) : []
            var fields = types.count == 1 ? ["value: \(types[0].rawValue)"]
                : types.enumerated().map { "value\($0.offset + 1): \($0.element.rawValue)" }
            if let declared = declaredOutputs[label] { fields = declared.map { "\(fieldName($0.name)): \($0.type.rawValue)" } }
            out.line("output \(outputNames.name(for: label))" + (fields.isEmpty ? "" : "(\(fields.joined(separator: ", ")))"))
        }
        guard !stateChildren(of: root).filter({ $0.name != "history" }).isEmpty else {
            throw fail(root, "the document has no states")
        }
        let initial = try initialEntry(of: root)
        if !initial.targets.isEmpty {
            out.blank()
            out.line("initial -> " + initial.targets.joined(separator: ", "))
        }
        for child in stateChildren(of: root) {
            out.blank()
            try writeState(child, initial: child === initial.child, into: &out)
        }
        out.close()
        return out.text
    }

    // MARK: - Collecting names, data, events

    mutating func collect() throws(ImportFailure) {
        var generated = 0
        var depth = 0
        func visit(_ node: XMLNode) throws(ImportFailure) {
            if node.namespace != nil, node.namespace != "", node.namespace != scxmlNamespace { return }
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
                    generated += 1
                    id = "state\(generated)"
                }
                if stateByID[id] != nil { throw fail(node, "a second state with id \"\(id)\" (ids are unique in a document)") }
                stateByID[id] = node
                idOfNode[ObjectIdentifier(node)] = id
            case "data":
                guard let id = node["id"] else { throw fail(node, "<data> without an id") }
                if node["src"] != nil { throw fail(node, "<data src> (loading a value) is not supported") }
                if !node.children.isEmpty || !node.text.trimmingWhitespace.isEmpty {
                    throw fail(node, "<data> with inline content (a JSON or XML value) is not supported")
                }
                if variables.contains(where: { $0.id == id }) { throw fail(node, "a second <data> with id \"\(id)\"") }
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
                sentEvents.insert(e)
            case "send":
                try collectSend(node)
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
        for child in root.children { try visit(child) }
        for (id, node) in stateByID.sorted(by: { $0.value.offset < $1.value.offset }) {
            _ = stateNames.name(for: id)
            if canComplete(node) { completable.append(id) }
        }
        findTimers()
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
        func visit(_ node: XMLNode) {
            switch node.name {
            case "send":
                if let e = node["event"] { sendsOfEvent[e, default: 0] += 1 }
                if let id = node["id"] { sendsWithID[id, default: 0] += 1 }
            case "raise":
                if let e = node["event"] { sendsOfEvent[e, default: 0] += 1 }
            case "cancel":
                if let id = node["sendid"] { cancelsOfID[id, default: []].append(node) }
            case "transition":
                transitions.append(node)
            default: break
            }
            node.children.forEach(visit)
        }
        root.children.forEach(visit)
        for state in stateByID.values.sorted(by: { $0.offset < $1.offset }) {
            for send in state.children("onentry").flatMap(\.children) where send.name == "send" {
                guard let e = send["event"], let id = send["id"], send["target"] == nil, send.children.isEmpty,
                      send["namelist"] == nil, sendsOfEvent[e] == 1, sendsWithID[id] == 1,
                      send["delay"] != nil || send["delayexpr"] != nil,
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
    mutating func delayText(_ send: XMLNode, scope: ExpressionScope) throws(ImportFailure) -> String? {
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
            for (name, fields) in signatures {
                if isEvent {
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

    mutating func collectSend(_ node: XMLNode) throws(ImportFailure) {
        if node["eventexpr"] != nil { throw fail(node, "<send eventexpr> (an event name computed at run time) is not supported") }
        guard let e = node["event"] else { throw fail(node, "<send> without an event") }
        if let target = node["target"], target != "#_internal" {
            throw fail(node, "<send target=\"\(target)\"> (another session or I/O processor) is not supported; a send to the machine itself has no target")
        }
        if node["targetexpr"] != nil { throw fail(node, "<send targetexpr> is not supported") }
        if let type = node["type"], type != "http://www.w3.org/TR/scxml/#SCXMLEventProcessor", type != "scxml" {
            throw fail(node, "<send type=\"\(type)\"> (another event I/O processor) is not supported")
        }
        if node["typeexpr"] != nil { throw fail(node, "<send typeexpr> is not supported") }
        if node["idlocation"] != nil { throw fail(node, "<send idlocation> (a send id stored in a variable) is not supported") }
        if !node.children("content").isEmpty { throw fail(node, "<send> with <content> (an unnamed payload) is not supported") }
        noteEvent(e)
        sentEvents.insert(e)
        if let id = node["id"] { sendIDs[id, default: []].insert(e) }
        var names: [String] = []
        for p in node.children("param") {
            guard let name = p["name"] else { throw fail(p, "<param> without a name") }
            names.append(name)
        }
        for n in (node["namelist"] ?? "").split(separator: " ").map(String.init) { names.append(n) }
        var fields = sentFields[e] ?? []
        for n in names where !fields.contains(n) { fields.append(n) }
        sentFields[e] = fields
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
        for f in translator.fieldsRead[event] ?? [] where !fields.contains(f) { fields.append(f) }
        return fields
    }

    func fieldName(_ field: String) -> String {
        var table = NameTable()
        return table.name(for: field)
    }

    func fieldType(_ event: String, _ field: String) -> ImportType {
        translator.fields[FieldKey(event: event, field: field)] ?? .number
    }

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
    func initialEntry(of node: XMLNode) throws(ImportFailure) -> (child: XMLNode?, targets: [String]) {
        let children = stateChildren(of: node).filter { $0.name != "history" }
        if node.name == "parallel" { return (nil, []) }
        var targetIDs: [String]?
        if let attribute = node["initial"] {
            targetIDs = attribute.split(separator: " ").map(String.init)
        }
        if let element = node.children("initial").first {
            if node["initial"] != nil { throw fail(element, "both an initial attribute and an <initial> element") }
            let transitions = element.children("transition")
            guard transitions.count == 1, let t = transitions.first else { throw fail(element, "<initial> needs exactly one <transition>") }
            if !t.children.isEmpty { throw fail(t.children[0], "actions on an initial transition are not supported") }
            targetIDs = (t["target"] ?? "").split(separator: " ").map(String.init)
        }
        guard let ids = targetIDs else { return (children.first, []) }
        guard !ids.isEmpty else { throw fail(node, "an initial transition without a target") }
        for target in ids {
            guard let targetNode = stateByID[target] else { throw fail(node, "initial state \"\(target)\" does not exist") }
            var step: XMLNode? = targetNode.parent
            while let s = step, s !== node { step = s.parent }
            if step == nil { throw fail(node, "initial state \"\(target)\" is not inside this state") }
        }
        // Several targets must be able to be active together: in different regions of a
        // parallel state (the innermost state holding any two is a <parallel>).
        let nodes = ids.compactMap { stateByID[$0] }
        for (k, a) in nodes.enumerated() {
            for b in nodes[(k + 1)...] {
                var meet: XMLNode? = a.parent
                while let m = meet, !Self.contains(m, b) { meet = m.parent }
                if a === b || Self.contains(a, b) || Self.contains(b, a) || meet?.name != "parallel" {
                    throw fail(node, "initial states \(id(a)) and \(id(b)) cannot be active together")
                }
            }
        }
        if ids.count == 1, let only = stateByID[ids[0]], only.parent === node, only.name != "history" {
            return (only, [])
        }
        return (nil, ids.map { stateNames.ours[$0] ?? $0 })
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
            if let t = transitions.first {
                if t.children.contains(where: { $0.namespace == scxmlNamespace || $0.namespace == nil }) {
                    throw fail(t, "actions on a history state's default transition are not supported")
                }
                let targets = (t["target"] ?? "").split(separator: " ").map(String.init)
                guard targets.count == 1, let target = targets.first, let targetNode = stateByID[target] else {
                    throw fail(t, "a history default must name one state")
                }
                var up = targetNode.parent
                while let u = up, u !== node.parent { up = u.parent }
                guard up != nil, targetNode !== node.parent, targetNode.name != "history" else {
                    throw fail(t, "a history default must be a state inside the history's parent")
                }
                line += " -> \(stateNames.name(for: target))"
            }
            out.line(line)
            return
        }
        for child in node.children where child.namespace == nil || child.namespace == "" || child.namespace == scxmlNamespace {
            switch child.name {
            case "state", "parallel", "final", "history", "onentry", "onexit", "transition", "initial", "datamodel": break
            case "invoke": throw fail(child, "<invoke> (a child session) is not supported")
            case "donedata": throw fail(child, "<donedata> (data on a done event) is not supported")
            default: throw fail(child, "<\(child.name)> is not supported inside <\(node.name)>")
            }
        }
        var keywords = initial ? "initial " : ""
        if node.name == "final" { keywords += "final " }
        if node.name == "parallel" { keywords += "parallel " }
        let children = stateChildren(of: node)
        let entry = node.children("onentry").flatMap(\.children)
        let exit = node.children("onexit").flatMap(\.children)
        let transitions = node.children("transition")
        if children.isEmpty && entry.isEmpty && exit.isEmpty && transitions.isEmpty {
            out.line("\(keywords)state \(name)")
            return
        }
        try checkDepth(out, node)
        out.open("\(keywords)state \(name)")
        if !entry.isEmpty { try writeBlock("entry", entry, scope: scope(events: []), into: &out) }
        if !exit.isEmpty { try writeBlock("exit", exit, scope: scope(events: []), into: &out) }
        let initial = try initialEntry(of: node)
        if !initial.targets.isEmpty { out.line("initial -> " + initial.targets.joined(separator: ", ")) }
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
        s.fieldName = { field in var t = NameTable(); return t.name(for: field) }
        let states = stateNames
        let known = stateByID
        s.state = { id in known[id] != nil ? (states.ours[id] ?? id) : nil }
        s.isHistory = { id in known[id]?.name == "history" }
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
        let triggers = triggers(t, in: state)
        if triggers.isEmpty {
            out.line("// <transition event=\"\(t["event"] ?? "")\"> at line \(file.location(of: t.offset).line): no event of this document matches it")
            return
        }
        for trigger in triggers {
            var events: [String] = []
            var line = internalPrefix
            switch trigger {
            case .always: line += "always"
            case .done(let s): line += s == id(state) ? "done" : "done(\(stateNames.name(for: s)))"
            case .events(let list):
                events = list
                if list.count == 1, let send = timers[list[0]] {
                    events = []
                    line += "after " + (try delayText(send, scope: scope(events: [])) ?? "0s")
                } else {
                    line += "on " + list.map { eventNames.name(for: $0) }.joined(separator: ", ")
                }
            }
            let scope = scope(events: events)
            if let cond = t["cond"] {
                let parsed: JSExpr
                do { parsed = try JSParser.parse(cond) } catch { throw fail(t, attribute: "cond", error) }
                if case .done = trigger, mentionsEventData(parsed) {
                    throw fail(t, attribute: "cond", JSError(message: "data on a done event (<donedata>) is not supported", offset: 0))
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
        }
    }

    func mentionsEventData(_ e: JSExpr) -> Bool {
        switch e {
        case .path(let p, _): p.first == "_event"
        case .call(_, let args, _), .array(let args, _): args.contains(where: mentionsEventData)
        case .unary(_, let x, _): mentionsEventData(x)
        case .binary(_, let x, let y, _): mentionsEventData(x) || mentionsEventData(y)
        case .conditional(let a, let b, let c): mentionsEventData(a) || mentionsEventData(b) || mentionsEventData(c)
        case .number, .string, .bool: false
        }
    }

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
                let types = args.map { arg -> ImportType in if case .known(let t) = arg.type { t } else { .number } }
                if !frozen { outputUses[label, default: []].append(types) }
                let signature = frozen ? (outputSignature[label] ?? types) : types
                var texts = args.map(\.text)
                if signature.count == 1, signature[0] == .string, types.count == 1, types[0] != .string {
                    texts = ["\"\\(\(texts[0]))\""]
                } else if signature.count == 1, signature[0] == .string, types.isEmpty {
                    texts = ["\"\""]
                }
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
                if case .known(let t) = value.type {
                    let key = FieldKey(event: e, field: name)
                    if let known = translator.fields[key], known != t {
                        throw fail(p, "param \"\(name)\" of event \"\(e)\" is a \(t.rawValue) here and a \(known.rawValue) elsewhere")
                    }
                    translator.fields[key] = t
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
        var branches: [(cond: XMLNode?, actions: [XMLNode])] = [(a, [])]
        for child in a.children {
            if child.name == "elseif" { branches.append((child, [])) } else if child.name == "else" { branches.append((nil, [])) } else {
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

extension NameTable {
    /// The machine's name: an identifier, starting with a capital letter as ours do.
    func nameForMachine(_ name: String) -> String {
        var table = self
        let id = table.name(for: name)
        guard let first = id.first, first.isLowercase else { return id }
        return first.uppercased() + id.dropFirst()
    }
}

extension String {
    var trimmingWhitespace: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
