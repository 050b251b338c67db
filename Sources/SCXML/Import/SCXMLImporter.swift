import StatecraftDiagnostics
import StatecraftFormat
import StatecraftModel
import StatecraftSemantics
import StatecraftSyntax

// `statecraft import`: an SCXML document (ECMAScript data model, or the null data model, or
// another data model when nothing in it needs evaluating) becomes a `.machine` in our
// language, or is refused with one error at the element or expression that has no
// equivalent, naming the feature. A spec written may come with warnings (a spelling SCXML
// does not define, read as engines commonly read it) and notes (parts that do nothing), at
// their place in the document.
//
// The translation is mechanical and keeps SCXML's meaning, since our statecharts follow
// SCXML's algorithm:
// - <state>, <parallel>, <final>, <history> become states of the same kinds; `initial`
//   attributes and <initial> elements mark the initial child (the first child when none),
//   or become `initial -> a, b` when they name deeper states, several, or a history state;
// - <data> anywhere becomes a variable (SCXML binds all data early), typed by its literal;
// - a transition's event descriptors are matched against every event the document names,
//   as SCXML matches them (`*`, prefixes `foo` / `foo.*`, `done.state.x` as `done(x)`), and
//   the transition lists the events that match;
// - <raise>, <send> (to itself, with or without delay), <cancel>, <assign>, <if>, <log>
//   become `raise`, `send`, `cancel`, assignments, `if` and `emit` of an output per label;
// - `_event.data.f` is payload field `f`; ECMAScript expressions are translated where they
//   mean the same in our typed language (`ExpressionTranslator`);
// - `_event.name`, `_event.type`, `sendid`, `origintype` and `typeof` of `_event`'s fields
//   are written as their values where the document fixes them for every event a transition
//   is taken on (`EventMetadata.swift`).
// Everything else (<invoke>, <script>, <foreach>, other I/O processors, metadata the
// document does not fix, untyped values) is refused: a machine that silently did something
// else would be worse.

/// The result of importing one SCXML document.
public struct SCXMLImportResult: Sendable {
    /// The spec, when the document could be translated.
    public var text: String?
    /// Positioned in `file`: the one error that stopped the translation (then `text` is nil),
    /// or the warnings and notes about a translation written, in document order.
    public var diagnostics: [Diagnostic]
    /// The SCXML document.
    public var file: SourceFile
}

/// Translates SCXML documents into specs of our language (`statecraft import`).
public enum SCXMLImporter {
    /// Translates the SCXML document `file` into a spec. `machineName` is used when the
    /// document's root has no `name`; `sourceName` is named in the spec's first comment.
    public static func translate(_ file: SourceFile, machineName: String, sourceName: String) -> SCXMLImportResult {
        do {
            let root = try XMLTree.parse(file)
            var importer = Importer(file: file, root: root)
            // The first passes learn the types of payload fields, valueless data and outputs
            // from every use in the document (a type learnt late in one pass, say a field
            // sent below the transition that reads it, is known from the start of the
            // next); the last writes with them.
            for _ in 0..<3 { _ = try importer.run(machineName: machineName, sourceName: sourceName) }
            try importer.freezeTypes()
            let written = try importer.run(machineName: machineName, sourceName: sourceName)
            // In the layout `statecraft fmt` gives, so an imported spec passes `fmt --check`
            // as it comes; the formatter keeps every token and comment.
            let text = SpecFormatter.format(source: written) ?? written
            try importer.refuseWhatNeverSettles(text)
            let found = (importer.collectDiagnostics + importer.diagnostics).sorted { $0.range.start < $1.range.start }
            return SCXMLImportResult(text: text, diagnostics: found, file: file)
        } catch {
            return SCXMLImportResult(text: nil, diagnostics: [error.diagnostic], file: file)
        }
    }
}

extension Importer {
    /// A document whose eventless transitions are certain to be taken forever has no meaning
    /// (an SCXML interpreter would never finish a macrostep). The resolver's analysis finds
    /// such loops in the translation (only loops that no order of selection can leave); the
    /// document is refused at the <transition> elements involved, since the translation
    /// is never shown.
    func refuseWhatNeverSettles(_ text: String) throws(ImportFailure) {
        let spec = SourceFile(path: "<import>", text: text)
        let (syntax, syntaxDiagnostics) = Parser.parse(spec)
        guard !syntaxDiagnostics.hasErrors, let machine = Resolver.resolve(syntax, in: spec).machine,
              let loop = machine.certainEventlessLoops().first else { return }
        // Each transition of the translation back to its element: a state's transitions
        // are written in document order, one per trigger of each <transition>.
        let elements = loop.map { id -> XMLNode? in
            let t = machine[id]
            guard let index = machine[t.source].transitions.firstIndex(of: id),
                  let written = writtenTransitions[machine[t.source].name], index < written.count else { return nil }
            return written[index]
        }
        func describe(_ node: XMLNode) -> String {
            let target = node["target"].map { " target=\"\($0)\"" } ?? ""
            return "<transition\(target)> in \"\(node.parent.map(id) ?? "")\""
        }
        guard let first = elements.first ?? nil else {
            throw ImportFailure(.scxmlUnsupported, "the document never settles: its eventless transitions loop forever",
                                at: root.offset, length: root.name.utf8.count + 1)
        }
        let message: String
        if loop.count == 1 && machine[loop[0]].target == nil {
            let state = first.parent.map(id) ?? ""
            message = "the document never settles: this <transition> has no event, no cond and no target, and no eventless "
                + "transition comes before it in \"\(state)\", so it is taken forever"
        } else if loop.count == 1 {
            message = "the document never settles: \(describe(first)) has no event and no cond, and the states it enters "
                + "take it again, forever"
        } else {
            let steps = elements.compactMap { $0.map(describe) }
            message = "the document never settles: eventless transitions with no cond loop forever: "
                + steps.joined(separator: ", then ")
        }
        let notes = elements.dropFirst().compactMap { $0 }.map { node in
            DiagnosticNote("then \(describe(node)) is taken here", at: SourceRange(node.offset, node.offset + node.name.utf8.count + 1))
        }
        throw ImportFailure(Diagnostic(.scxmlUnsupported, message,
                                       at: SourceRange(first.offset, first.offset + first.name.utf8.count + 1), notes: notes))
    }
}

let scxmlNamespace = "http://www.w3.org/2005/07/scxml"

/// Our own attributes in an SCXML document, which SCXML allows from other namespaces: what
/// a spec declares that SCXML cannot say, so that a spec exported by `statecraft scxml`
/// imports back with the same interface. On `<scxml>`, `events` and `outputs` list
/// signatures (`loaded(itemDuration: Number); play`), an event by its name in the document,
/// with `.*` when the spec declared it `as "name.*"` (and then only those events take
/// extensions in logs); on `<data>`, `kind` is `const`, `var` or `public var`. Other
/// processors ignore them.
public let statecraftSCXMLNamespace = "urn:statecraft:spec"

/// The data model a document declares, which decides what its expressions may be.
enum DataModel: Equatable {
    /// ECMAScript (or no `datamodel`): expressions are translated where they mean the same.
    case ecmascript
    /// SCXML's null data model: no data, and `In(id)` as the only condition.
    case null
    /// Another one (`jexl`, `xpath`): the document imports only when it has nothing to
    /// evaluate, since nothing here would evaluate it as that data model would.
    case other(String)
}

/// A transition's trigger in our language.
enum Trigger: Equatable {
    case events([String])
    case done(String)
    case always
}

struct Importer {
    let file: SourceFile
    let root: XMLNode

    // Names, per namespace.
    var stateNames = NameTable()
    var eventNames = NameTable()
    var variableNames = NameTable()
    var outputNames = NameTable()
    /// Payload fields of events, one table for all events so a field keeps its name from
    /// event to event. A field may not have a variable's name (inside a transition on its
    /// event it would hide the variable), so those are reserved; `nameFields` fills it.
    var fieldNames = NameTable()

    /// States by SCXML id, and each state node's id (given or generated).
    var stateByID: [String: XMLNode] = [:]
    var idOfNode: [ObjectIdentifier: String] = [:]
    /// Every event the document names, in the order first named (SCXML names).
    var events: [String] = []
    /// The events a transition's descriptor names (`tap`, `tap.*`, `tap.`): an engine running
    /// the document takes their extensions (`tap.x`) with those transitions, so they are
    /// declared with `as "tap.*"` and a log of the engine replays unchanged.
    var extensibleEvents: Set<String> = []
    /// The events `statecraft:events` lists with `.*` (see `readInterface`).
    var declaredExtensible: Set<String> = []
    /// Fields of each event (SCXML event name -> field names in order) that its sends carry.
    var sentFields: [String: [String]] = [:]
    /// Events sent with `<content>`: one unnamed value, payload field `data`.
    var contentEvents: Set<String> = []
    /// `<send id>` -> the event it sends (for `<cancel sendid>`).
    var sendIDs: [String: Set<String>] = [:]
    /// The ids of `<send eventexpr>`s whose event is known only when they run (a send by
    /// name): a `<cancel>` of one has no translation.
    var computedSendIDs: Set<String> = []
    /// Whether some `<send eventexpr>` sends an event known only when it runs: it may send
    /// any event, which then also comes from it.
    var sendsByName = false
    /// Where each event the document raises or sends comes from (`_event.type`, `sendid`, …).
    var eventSources: [String: [EventSource]] = [:]
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
    var dataModel = DataModel.ecmascript
    /// Warnings and notes found while collecting (once per import), and while writing (each
    /// pass starts afresh, so the last pass's are the ones reported).
    var collectDiagnostics: [Diagnostic] = []
    var diagnostics: [Diagnostic] = []
    /// The ids given to states without one (`state1`, …), which the header lists.
    var generatedIDs: Set<String> = []
    static let maxStateDepth = 40
    static let maxBlockDepth = 60
    /// After the learning passes: output signatures are fixed (`freezeTypes`).
    var frozen = false
    /// Events that are a state's timer (`findTimers`), with the <send> that arms it; and
    /// the <send> and <cancel> elements that the timer replaces.
    var timers: [String: XMLNode] = [:]
    var skipped: Set<ObjectIdentifier> = []
    var collected = false
    var outputSignature: [String: [ImportType]] = [:]
    /// The <transition> element behind each transition written, by our name of its state,
    /// in the order written (one per trigger): how a finding about the translation is
    /// placed in the document.
    var writtenTransitions: [String: [XMLNode]] = [:]

    init(file: SourceFile, root: XMLNode) {
        self.file = file
        self.root = root
    }

    // MARK: - Errors

    func fail(_ node: XMLNode, _ message: String) -> ImportFailure {
        ImportFailure(.scxmlUnsupported, message, at: node.offset, length: node.name.utf8.count + 1)
    }

    /// A warning or note at `node`'s `<`.
    func finding(_ id: DiagnosticID, _ node: XMLNode, _ message: String) -> Diagnostic {
        Diagnostic(id, message, at: SourceRange(node.offset, node.offset + node.name.utf8.count + 1))
    }

    /// A warning or note at attribute `attribute` of `node` (its name, through its closing
    /// quote), or at the element when the attribute cannot be found.
    func finding(_ id: DiagnosticID, _ node: XMLNode, attribute: String, _ message: String) -> Diagnostic {
        guard let name = attributeNameOffset(node, attribute), let value = attributeValueOffset(node, attribute) else {
            return finding(id, node, message)
        }
        let end = bytesInto(value: value, scalars: Int.max)
        return Diagnostic(id, message, at: SourceRange(name, min(end + 1, file.bytes.count)))
    }

    /// A warning or note at the character `scalarOffset` into the value of `attribute`.
    func finding(_ id: DiagnosticID, _ node: XMLNode, attribute: String, scalarOffset: Int, length: Int,
                 _ message: String) -> Diagnostic {
        let start = attributeValueOffset(node, attribute) ?? node.offset
        let at = bytesInto(value: start, scalars: scalarOffset)
        return Diagnostic(id, message, at: SourceRange(at, bytesInto(value: start, scalars: scalarOffset + length)))
    }

    /// An error inside attribute `attribute` of `node`, `scalarOffset` scalars into its value.
    func fail(_ node: XMLNode, attribute: String, _ error: JSError) -> ImportFailure {
        let start = attributeValueOffset(node, attribute) ?? node.offset
        let at = bytesInto(value: start, scalars: error.offset)
        return ImportFailure(.scxmlUnsupported, "\(attribute)=\"…\": \(error.message)", at: at, length: 1)
    }

    /// A refusal of a whole attribute's value, naming its element (`<transition cond="…">: …`),
    /// at the value's first character.
    func fail(_ node: XMLNode, wholeAttribute attribute: String, _ message: String) -> ImportFailure {
        let start = attributeValueOffset(node, attribute) ?? node.offset
        return ImportFailure(.scxmlUnsupported, "<\(node.name) \(attribute)=\"…\">: \(message)", at: start, length: 1)
    }

    /// Where the value of `attribute` of `node` starts in the file.
    func attributeValueOffset(_ node: XMLNode, _ attribute: String) -> Int? {
        attributePosition(node, attribute)?.value
    }

    /// Where the name of `attribute` of `node` starts in the file.
    func attributeNameOffset(_ node: XMLNode, _ attribute: String) -> Int? {
        attributePosition(node, attribute)?.name
    }

    /// Where `attribute` of `node` is written: its name and its value (after the quote).
    func attributePosition(_ node: XMLNode, _ attribute: String) -> (name: Int, value: Int)? {
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
                    if j < bytes.count, bytes[j] == UInt8(ascii: "\"") || bytes[j] == UInt8(ascii: "'") { return (i, j + 1) }
                }
            }
            i += 1
        }
        return nil
    }

    /// The byte offset `scalars` decoded characters into an attribute value starting at
    /// `start` (an entity such as `&lt;` is one character), or where the value ends. The
    /// value ends at the quote that opened it (`cond="In('a')"` holds the other one).
    func bytesInto(value start: Int, scalars: Int) -> Int {
        let bytes = file.bytes
        let quote = start > 0 && start <= bytes.count && bytes[start - 1] == UInt8(ascii: "'") ? UInt8(ascii: "'") : UInt8(ascii: "\"")
        var i = start
        var n = 0
        while n < scalars, i < bytes.count, bytes[i] != quote {
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
        if root["binding"] == "late" { throw fail(root, "binding=\"late\" is not supported (data is bound early)") }
        diagnostics = []
        writtenTransitions = [:]
        if !collected {
            try collect()
            collected = true
        }
        nameFields()
        var out = MachineText()
        out.line("// Imported from \(sourceName) by `statecraft import`.")
        // States in document order: those renamed, and those the document left without an id
        // (described by their element and line, so that each state of the spec can be found in the document).
        var changed: [(String, (scxml: String, ours: String))] = []
        for (id, node) in stateByID.sorted(by: { $0.value.offset < $1.value.offset }) {
            let ours = stateNames.existingName(for: id)
            if generatedIDs.contains(id) {
                changed.append(("<\(node.name)> without an id (line \(file.location(of: node.offset).line))", ("", ours)))
            } else if ours != id {
                changed.append(("state", (id, ours)))
            }
        }
        changed += eventNames.changed.filter { timers[$0.scxml] == nil }.map { ("event", $0) }
            + variableNames.changed.map { ("variable", $0) } + fieldNames.changed.map { ("field", $0) }
            + outputNames.changed.map { ("output", $0) }
        if !changed.isEmpty {
            out.line("// SCXML names written differently here:")
            for (kind, c) in changed {
                out.line(c.scxml.isEmpty ? "//   \(kind) is \(c.ours)" : "//   \(kind) \"\(c.scxml)\" is \(c.ours)")
            }
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
            out.line("event \(eventNames.name(for: e))" + (list.isEmpty ? "" : "(\(list.joined(separator: ", ")))")
                     + externalName(e))
        }
        for label in outputOrder {
            let types = frozen ? (outputSignature[label] ?? []) : []
            var fields = types.count == 1 ? ["value: \(types[0].rawValue)"]
                : types.enumerated().map { "value\($0.offset + 1): \($0.element.rawValue)" }
            if let declared = declaredOutputs[label] { fields = declared.map { "\(Self.outputFieldName($0.name)): \($0.type.rawValue)" } }
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
}

extension Importer {
    /// ` as "watch.reset"` for an event whose name changed, ` as "tap.*"` (or
    /// ` as "watch.reset.*"`) for one a transition names, so that replay takes the names an
    /// engine running the document logs; nothing for one that kept its name and that no
    /// transition names, or whose name is not one logs can use (the spec still says which
    /// SCXML name it is, in the comment at its top).
    func externalName(_ e: String) -> String {
        let ours = eventNames.existingName(for: e)
        let extensible = extensibleEvents.contains(e)
        guard ours != e || extensible else { return "" }
        // An event named `bar.*` (which `<raise>` may send, though no engine's transition
        // matches it as a name) has no external name: it would stand for `bar`'s extensions.
        guard case .success(let name) = ExternalName.parse(e, range: .point(0)), !name.acceptsExtensions else { return "" }
        return " as " + ExpressionTranslator.stringLiteral(extensible ? e + ".*" : e)
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
