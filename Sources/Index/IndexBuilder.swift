import StatecraftDiagnostics
import StatecraftSyntax

/// Walks a syntax tree and records every name it declares and uses, resolving names the way
/// the resolver does (`Sources/Semantics`): a `let` value first, then a payload field of the
/// transition's events, then a variable or constant. It works on whatever the parser kept,
/// so a file with syntax errors is indexed as far as it parsed; a name that resolves to
/// nothing is left out rather than guessed.
struct IndexBuilder {
    let file: SourceFile
    var occurrences: [Occurrence] = []
    var declarations: [Declaration] = []
    var transitions: [TransitionSummary] = []
    /// Variables and constants by name, the first declaration winning (as in the resolver).
    var values: [String: Symbol] = [:]
    var states: Set<String> = []
    /// Each event's payload fields by event name.
    var eventFields: [String: [String]] = [:]
    var events: Set<String> = []
    var outputs: Set<String> = []
    /// The fields each state's completion carries (its final children's values), by state name.
    var completionFields: [String: [String]] = [:]

    init(file: SourceFile) {
        self.file = file
    }

    mutating func build(_ machine: MachineDecl) {
        for member in machine.members { declare(member) }
        for member in machine.members { resolve(member) }
    }

    // MARK: Declarations

    private mutating func declare(_ member: MemberDecl) {
        switch member {
        case .constant(let c):
            let symbol = Symbol(.constant, c.name.name)
            if values[c.name.name] == nil { values[c.name.name] = symbol }
            let type = c.type?.name.name
            add(symbol, c.name, range: SourceRange(c.name.range.start, c.value.range.end),
                signature: "const \(c.name.name)" + (type.map { ": \($0)" } ?? "") + " = " + text(c.value.range), type: type)
        case .variable(let v):
            let symbol = Symbol(.variable, v.name.name)
            if values[v.name.name] == nil { values[v.name.name] = symbol }
            let type = v.type?.name.name
            add(symbol, v.name, range: SourceRange(v.name.range.start, v.initialValue.range.end),
                signature: (v.isPublic ? "public " : "") + "var \(v.name.name)" + (type.map { ": \($0)" } ?? "")
                    + " = " + text(v.initialValue.range), type: type)
        case .event(let e):
            events.insert(e.name.name)
            eventFields[e.name.name, default: []] += e.fields.map(\.name.name)
            add(Symbol(.event, e.name.name), e.name, range: e.name.range, signature: "event " + e.name.name + fieldList(e.fields)
                    + (e.externalName.map { " as " + Self.quoted($0.text) } ?? ""))
            for field in e.fields { declareField(field, owner: e.name.name, kind: .eventField) }
        case .output(let o):
            outputs.insert(o.name.name)
            add(Symbol(.output, o.name.name), o.name, range: o.name.range, signature: "output " + o.name.name + fieldList(o.fields))
            for field in o.fields { declareField(field, owner: o.name.name, kind: .outputField) }
        case .state(let s):
            declareState(s, parent: nil)
        case .initialTargets:
            break
        case .property(let p):
            add(Symbol(.property, p.name.name), p.name, range: p.range,
                signature: "property \(p.name.name): " + text(SourceRange(p.name.range.end, p.range.end))
                    .drop { $0 == ":" || $0 == " " || $0 == "\t" })
        }
    }

    private mutating func declareField(_ field: FieldDecl, owner: String, kind: Symbol.Kind) {
        let type = field.type.name.name
        let what = kind == .eventField ? "event" : "output"
        add(Symbol(kind, field.name.name, owner: owner), field.name,
            range: SourceRange(field.name.range.start, field.type.name.range.end),
            signature: (field.privateMark == nil ? "" : "private ") + "\(field.name.name): \(type) (a field of \(what) \(owner))",
            type: type)
    }

    private mutating func declareState(_ s: StateDecl, parent: String?) {
        states.insert(s.name.name)
        let modifiers = s.modifiers.map(\.kind.rawValue)
        let signature = (modifiers + ["state", s.name.name]).joined(separator: " ")
            + (s.historyDefaults.isEmpty ? "" : " -> " + s.historyDefaults.map(\.name).joined(separator: ", "))
        var declaration = Declaration(symbol: Symbol(.state, s.name.name), nameRange: s.name.range, range: s.range,
                                      signature: signature, type: nil)
        declaration.parent = parent
        declarations.append(declaration)
        occurrences.append(Occurrence(symbol: declaration.symbol, range: s.name.range, isDeclaration: true))
        // Every final child declares the fields of its parent's completion; a rename renames
        // them together, with the `done` transitions that read them.
        if let data = s.doneData, let parent {
            for field in data.fields {
                if !(completionFields[parent]?.contains(field.name.name) ?? false) { completionFields[parent, default: []].append(field.name.name) }
                add(Symbol(.completionField, field.name.name, owner: parent), field.name,
                    range: SourceRange(field.name.range.start, field.value.range.end),
                    signature: "\(field.name.name): \(text(field.value.range)) (a field of the completion of \(parent), given by final state \(s.name.name))")
            }
        }
        for child in s.children { declareState(child, parent: s.name.name) }
    }

    private mutating func add(_ symbol: Symbol, _ name: Identifier, range: SourceRange, signature: String,
                              type: String? = nil) {
        declarations.append(Declaration(symbol: symbol, nameRange: name.range, range: range, signature: signature, type: type))
        occurrences.append(Occurrence(symbol: symbol, range: name.range, isDeclaration: true))
    }

    private func fieldList(_ fields: [FieldDecl]) -> String {
        fields.isEmpty ? "" : "(" + fields.map { ($0.privateMark == nil ? "" : "private ") + "\($0.name.name): \($0.type.name.name)" }.joined(separator: ", ") + ")"
    }

    func text(_ range: SourceRange) -> String {
        let end = min(range.end, file.bytes.count)
        let start = min(range.start, end)
        return String(decoding: file.bytes[start..<end], as: UTF8.self)
    }

    // MARK: Uses

    private mutating func resolve(_ member: MemberDecl) {
        switch member {
        case .constant(let c): resolveExpr(c.value, Scope())
        case .variable(let v): resolveExpr(v.initialValue, Scope())
        case .state(let s): resolveState(s)
        case .initialTargets(let t):
            for target in t.targets { use(.state, target) }
            if let actions = t.actions { resolveBlock(actions, Scope()) }
        case .event, .output: break
        case .property(let p): resolveProperty(p)
        }
    }

    /// A property's names: the event or state of a response, and its expressions, which see
    /// variables, constants and `in(state)` but no payload field.
    private mutating func resolveProperty(_ p: PropertyDecl) {
        if case .response(_, let entering, let trigger, _, _, _) = p.form {
            use(entering == nil ? .event : .state, trigger)
        }
        for expr in p.form.expressions { resolveExpr(expr, Scope()) }
    }

    /// The names an expression can see besides variables and constants.
    struct Scope {
        /// The events whose payload fields are in scope (a transition's `on` events).
        var events: [String] = []
        /// `let` values in scope, innermost last.
        var locals: [(name: String, symbol: Symbol)] = []
        /// In a `done` / `done(x)` transition: the state whose completion's fields are in scope.
        var completion: String? = nil
    }

    private mutating func resolveState(_ s: StateDecl) {
        for target in s.historyDefaults { use(.state, target) }
        for initial in s.initialTargets {
            for target in initial.targets { use(.state, target) }
            if let actions = initial.actions { resolveBlock(actions, Scope()) }
        }
        if let actions = s.historyActions { resolveBlock(actions, Scope()) }
        for field in s.doneData?.fields ?? [] { resolveExpr(field.value, Scope()) }
        for block in s.entry + s.exit { resolveBlock(block.block, Scope()) }
        for t in s.transitions { resolveTransition(t, in: s) }
        for child in s.children { resolveState(child) }
    }

    private mutating func resolveTransition(_ t: TransitionDecl, in state: StateDecl) {
        var scope = Scope()
        let trigger: String
        switch t.trigger {
        case .events(let names):
            for name in names { use(.event, name) }
            scope.events = names.map(\.name).filter { events.contains($0) }
            trigger = "on " + names.map(\.name).joined(separator: ", ")
        case .after(let delay):
            resolveExpr(delay, scope)
            trigger = "after " + text(delay.range)
        case .done(let name):
            if let name { use(.state, name) }
            scope.completion = name?.name ?? state.name.name
            trigger = name.map { "done(\($0.name))" } ?? "done"
        case .always:
            trigger = "always"
        }
        if let g = t.guardExpr { resolveExpr(g, scope) }
        if let target = t.target { use(.state, target) }
        if let block = t.actions { resolveBlock(block, scope) }
        let names: [String] = if case .events(let list) = t.trigger { list.map(\.name) } else { [] }
        transitions.append(TransitionSummary(source: state.name.name, target: t.target?.name,
                                             trigger: (t.isInternal ? "internal " : "") + trigger,
                                             keywordRange: t.keywordRange, range: t.range, events: names))
    }

    private mutating func resolveBlock(_ block: BlockSyntax, _ outer: Scope) {
        var scope = outer
        for action in block.actions { resolveAction(action, &scope) }
    }

    private mutating func resolveAction(_ action: ActionSyntax, _ scope: inout Scope) {
        switch action {
        case .assign(let target, _, let value, _):
            resolveExpr(value, scope)
            useValue(target.name, target.range, scope)
        case .emit(let output, let arguments, _):
            use(.output, output)
            for argument in arguments { resolveExpr(argument, scope) }
        case .raise(let event, let arguments, _):
            use(.event, event)
            for argument in arguments { resolveExpr(argument, scope) }
        case .send(let event, let arguments, let delay, _):
            use(.event, event)
            for argument in arguments { resolveExpr(argument, scope) }
            if let delay { resolveExpr(delay, scope) }
        case .sendNamed(let name, let delay, _):
            // A computed name (`send "\(kind)"`) is known only when the action runs: no
            // occurrence. A plain literal spelling an event's own name (`send "lap"`) names it
            // as surely as `send lap`, so its characters inside the quotes are an occurrence
            // that a rename rewrites. A literal spelling an external name (`send "watch.reset"`)
            // is not: renaming the event leaves that name, and the send, as they are.
            if let (event, inside) = plainEventName(name) {
                use(.event, Identifier(event, inside))
            } else {
                resolveExpr(name, scope)
            }
            if let delay { resolveExpr(delay, scope) }
        case .cancel(let event, _):
            use(.event, event)
        case .letValue(let name, let value, _):
            resolveExpr(value, scope)
            let symbol = Symbol(.local, name.name, owner: String(name.range.start))
            declarations.append(Declaration(symbol: symbol, nameRange: name.range,
                                            range: SourceRange(name.range.start, value.range.end),
                                            signature: "let \(name.name) = " + text(value.range), type: nil))
            occurrences.append(Occurrence(symbol: symbol, range: name.range, isDeclaration: true))
            scope.locals.append((name.name, symbol))
        case .ifAction(let condition, let then, let otherwise, _):
            resolveExpr(condition, scope)
            resolveBlock(then, scope)
            if let otherwise { resolveBlock(otherwise, scope) }
        }
    }

    private mutating func resolveExpr(_ e: ExprSyntax, _ scope: Scope) {
        switch e.kind {
        case .number, .string, .bool, .bad: break
        case .name(let name): useValue(name, e.range, scope)
        case .call(let function, let arguments):
            // `in(x)` names a state, not a value.
            if function.name == "in", arguments.count == 1, let argument = arguments.first,
               case .name(let state) = argument.kind {
                use(.state, Identifier(state, argument.range))
            } else {
                for argument in arguments { resolveExpr(argument, scope) }
            }
        case .unary(_, let x), .paren(let x): resolveExpr(x, scope)
        case .binary(_, let l, let r):
            resolveExpr(l, scope)
            resolveExpr(r, scope)
        case .conditional(let c, let t, let f):
            resolveExpr(c, scope)
            resolveExpr(t, scope)
            resolveExpr(f, scope)
        case .interpolation(let pieces):
            for case .expression(let x) in pieces { resolveExpr(x, scope) }
        }
    }

    /// A value name in an expression or on the left of an assignment.
    private mutating func useValue(_ name: String, _ range: SourceRange, _ scope: Scope) {
        if let local = scope.locals.last(where: { $0.name == name }) {
            occurrences.append(Occurrence(symbol: local.symbol, range: range, isDeclaration: false))
            return
        }
        // A field every event of the trigger must declare: the use names each event's field.
        let owners = scope.events.filter { eventFields[$0]?.contains(name) ?? false }
        if !owners.isEmpty {
            for owner in owners {
                occurrences.append(Occurrence(symbol: Symbol(.eventField, name, owner: owner), range: range, isDeclaration: false))
            }
            return
        }
        if let owner = scope.completion, completionFields[owner]?.contains(name) ?? false {
            occurrences.append(Occurrence(symbol: Symbol(.completionField, name, owner: owner), range: range, isDeclaration: false))
            return
        }
        if let symbol = values[name] {
            occurrences.append(Occurrence(symbol: symbol, range: range, isDeclaration: false))
        }
    }

    /// The event name a send by name's string literal spells exactly, and the range inside its
    /// quotes: nil for an interpolated string, or one whose source text differs from its value
    /// (an escape, `"l\u{61}p"`), which a rename could not rewrite in place.
    private func plainEventName(_ e: ExprSyntax) -> (String, SourceRange)? {
        guard case .string(let value) = e.kind, e.range.end - e.range.start == value.utf8.count + 2,
              e.range.end <= file.bytes.count, file.bytes[e.range.start] == UInt8(ascii: "\""),
              file.bytes[e.range.end - 1] == UInt8(ascii: "\"") else { return nil }
        let inside = SourceRange(e.range.start + 1, e.range.end - 1)
        guard text(inside) == value else { return nil }
        return (value, inside)
    }

    /// A use of a state, event or output name, recorded only when the name is declared.
    private mutating func use(_ kind: Symbol.Kind, _ name: Identifier) {
        let known = switch kind {
        case .state: states.contains(name.name)
        case .event: events.contains(name.name)
        case .output: outputs.contains(name.name)
        default: false
        }
        guard known else { return }
        occurrences.append(Occurrence(symbol: Symbol(kind, name.name), range: name.range, isDeclaration: false))
    }
}

extension IndexBuilder {
    /// `text` as a string literal of the language (an event's external name in its signature).
    static func quoted(_ text: String) -> String {
        var out = "\""
        for c in text.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }
}
