// Turns a parsed ECMAScript expression into our expression syntax, with its type.
//
// Our language is typed and ECMAScript is not, so the translation keeps only what means the
// same in both: `+` of two numbers adds, `+` with a string concatenates (written as string
// interpolation, since our `+` takes two strings), `===` and `==` compare values of one type,
// `&&`/`||`/`!` take Bools. A comparison of a number with a string, truthiness of a number
// or string, and other coercions are refused: a test that relies on them checks ECMAScript,
// not the statechart.
//
// Payload fields of events that come from outside (from the log, never sent by the document)
// have no declared type in SCXML; the type is inferred from their use (`_event.data.x > 0`
// makes `x` a Number), and a field whose use says nothing is a Number.

/// The types of our language.
enum ImportType: String {
    case number = "Number", bool = "Bool", string = "String"
}

/// A payload field of an event: the key under which inferred types are kept.
struct FieldKey: Hashable {
    var event: String
    var field: String
}

/// What the translator needs to know about the document's names.
struct ExpressionScope {
    /// A `<data>` id: our variable name and its type.
    var variable: (String) -> (name: String, type: TypeInfo)? = { _ in nil }
    /// `_event.data.f` in this transition: the events it may come from (empty outside a
    /// transition with events) and our field name.
    var events: [String] = []
    var fieldName: (String) -> String = { $0 }
    /// The event's name (`_event.name`) when the transition is taken on one event only.
    var eventName: String?
    /// In a transition taken on events: where each may come from, for `_event`'s other
    /// fields (`EventMetadata.swift`); nil elsewhere.
    var origins: EventOrigins?
    /// Whether an event's sends give it named fields (`<param>`, `namelist`), or one
    /// unnamed value (`<content>`): `_event.data` is read as a whole only for the second.
    var hasNamedFields: (String) -> Bool = { _ in false }
    var hasContent: (String) -> Bool = { _ in false }
    /// A state id named in `In('s')`: our state name.
    var state: (String) -> String? = { _ in nil }
    var isHistory: (String) -> Bool = { _ in false }
}

/// One translated expression.
struct Translated {
    var text: String
    /// Binding strength of the outermost operator (higher binds tighter), for parentheses.
    var precedence: Int
    var type: TypeInfo
    /// For a string built from literals and concatenation, its pieces (written as one
    /// string literal with interpolations).
    var pieces: [Piece]?

    enum Piece {
        case literal(String)
        case expression(String)
    }
}

/// A known type, or a field whose type is not known yet (it takes the type of what it is
/// combined with).
enum TypeInfo: Equatable {
    case known(ImportType)
    case unknown([FieldKey])
}

/// Translates expressions against one scope, recording field types it learns in `fields`.
struct ExpressionTranslator {
    /// Field types: declared (from `<param>`s) or inferred from use.
    var fields: [FieldKey: ImportType] = [:]
    /// The fields read, in the order first read, per event.
    var fieldsRead: [String: [String]] = [:]

    static let primary = 9

    mutating func translate(_ e: JSExpr, _ scope: ExpressionScope) throws(JSError) -> Translated {
        switch e {
        case .number(let n, _):
            return Translated(text: Self.number(n), precedence: Self.primary, type: .known(.number))
        case .string(let s, _):
            return Translated(text: Self.stringLiteral(s), precedence: Self.primary, type: .known(.string), pieces: [.literal(s)])
        case .bool(let b, _):
            return Translated(text: b ? "true" : "false", precedence: Self.primary, type: .known(.bool))
        case .path(let path, let at):
            return try translatePath(path, at: at, scope)
        case .call(let path, let args, let at):
            return try translateCall(path, args, at: at, scope)
        case .unary(let op, let operand, let at):
            // `typeof` asks whether its operand is defined, which reading it would refuse.
            if op == "typeof" { return try translateTypeOf(operand, at: at, scope) }
            let x = try translate(operand, scope)
            switch op {
            case "!":
                try require(.bool, x, at: operand.offset, "'!' takes a Bool")
                return Translated(text: "!" + wrap(x, 8), precedence: 8, type: .known(.bool))
            case "-":
                try require(.number, x, at: operand.offset, "'-' takes a Number")
                return Translated(text: "-" + wrap(x, 8), precedence: 8, type: .known(.number))
            default:
                try require(.number, x, at: at, "unary '+' converts to a number, which has no equivalent here except on numbers")
                return x
            }
        case .binary(let op, let l, let r, let at):
            return try translateBinary(op, l, r, at: at, scope)
        case .conditional(let c, let a, let b):
            let cond = try translate(c, scope)
            try require(.bool, cond, at: c.offset, "a condition must be a Bool (ECMAScript truthiness has no equivalent here)")
            let x = try translate(a, scope)
            let y = try translate(b, scope)
            let type = try unify(x, y, at: a.offset, "the two branches of '?:' have different types")
            return Translated(text: "\(wrap(cond, 1)) ? \(x.text) : \(wrap(y, 0))", precedence: 0, type: type)
        case .array(_, let at):
            throw JSError(message: "an array has no equivalent here", offset: at)
        }
    }

    /// `e` as a condition: a Bool (an unknown field used as a condition becomes a Bool).
    mutating func condition(_ e: JSExpr, _ scope: ExpressionScope) throws(JSError) -> String {
        let x = try translate(e, scope)
        try require(.bool, x, at: e.offset, "a condition must be a Bool (ECMAScript truthiness has no equivalent here)")
        return x.text
    }

    // MARK: - Names and calls

    private mutating func translatePath(_ path: [String], at: Int, _ scope: ExpressionScope) throws(JSError) -> Translated {
        if path.count == 1, let v = scope.variable(path[0]) {
            var type = v.type
            if case .unknown(let keys) = type, let learnt = keys.compactMap({ fields[$0] }).first { type = .known(learnt) }
            return Translated(text: v.name, precedence: Self.primary, type: type)
        }
        if path == ["Math", "PI"] { return Translated(text: "pi", precedence: Self.primary, type: .known(.number)) }
        if path == ["_event", "name"] {
            // The events a transition lists are the ones it can be taken on: with one, the
            // name is known where the transition is written.
            guard let name = scope.eventName else {
                throw JSError(message: "'_event.name' has an equivalent only in a transition taken on one event (here it may be several, or none)", offset: at)
            }
            return Translated(text: Self.stringLiteral(name), precedence: Self.primary, type: .known(.string), pieces: [.literal(name)])
        }
        if path == ["_event", "data"] {
            // The one value a `<send>` gives with `<content>`: payload field `data`.
            guard !scope.events.isEmpty else {
                throw JSError(message: "'_event.data' outside a transition taken on an event", offset: at)
            }
            if let e = scope.events.first(where: scope.hasNamedFields) {
                throw JSError(message: "'_event.data' as a whole: event '\(e)' carries named fields (<param> or namelist); read one as _event.data.name", offset: at)
            }
            return readField(Self.contentField, scope)
        }
        if path.count == 2, path[0] == "_event", let field = EventField(rawValue: path[1]) {
            return try translateMetadata(field, at: at, scope)
        }
        if path.first == "_event" {
            guard path.count == 3, path[1] == "data" else {
                throw JSError(message: "'\(path.joined(separator: "."))' (the current event's metadata) has no equivalent here", offset: at)
            }
            guard !scope.events.isEmpty else {
                throw JSError(message: "'_event.data' outside a transition taken on an event", offset: at)
            }
            if let e = scope.events.first(where: scope.hasContent) {
                throw JSError(message: "'\(path.joined(separator: "."))': event '\(e)' is sent with <content> (one value, read as _event.data), not named fields", offset: at)
            }
            return readField(path[2], scope)
        }
        let name = path.joined(separator: ".")
        if ["_sessionid", "_name", "_ioprocessors", "_x"].contains(path[0]) {
            throw JSError(message: "the system variable '\(path[0])' has no equivalent here", offset: at)
        }
        if ["undefined", "null", "NaN", "Infinity"].contains(name) {
            throw JSError(message: "'\(name)' has no equivalent here (values are typed)", offset: at)
        }
        if path.count > 1, scope.variable(path[0]) != nil {
            throw JSError(message: "'\(name)': members of a value have no equivalent here", offset: at)
        }
        throw JSError(message: "'\(name)' is not a <data> id of this document", offset: at)
    }

    /// The payload field under which a `<send>`'s `<content>` travels.
    static let contentField = "data"

    /// Payload field `field` of the scope's events, its type known or learnt later.
    private mutating func readField(_ field: String, _ scope: ExpressionScope) -> Translated {
        let keys = scope.events.map { FieldKey(event: $0, field: field) }
        for key in keys where !(fieldsRead[key.event] ?? []).contains(key.field) {
            fieldsRead[key.event, default: []].append(key.field)
        }
        let type: TypeInfo = keys.compactMap { fields[$0] }.first.map { .known($0) } ?? .unknown(keys)
        if case .known(let t) = type { for k in keys where fields[k] == nil { fields[k] = t } }
        return Translated(text: scope.fieldName(field), precedence: Self.primary, type: type)
    }

    private mutating func translateCall(_ path: [String], _ args: [JSExpr], at: Int, _ scope: ExpressionScope) throws(JSError) -> Translated {
        let name = path.joined(separator: ".")
        if name == "In" {
            let id: String
            switch args.first {
            case .string(let s, _)? where args.count == 1: id = s
            case .path(let p, _)? where args.count == 1 && Self.isUnquotedStateID(p, scope): id = p[0]
            case .path(let p, _)? where args.count == 1 && p.count == 1 && scope.variable(p[0]) == nil:
                throw JSError(message: "In(\(p[0])): no state has that id", offset: at)
            default:
                throw JSError(message: "In() takes one state id as a string literal", offset: at)
            }
            guard let state = scope.state(id) else { throw JSError(message: "In('\(id)'): no state has that id", offset: at) }
            // A history state is never in the configuration (SCXML 3.10.2).
            if scope.isHistory(id) { return Translated(text: "false", precedence: Self.primary, type: .known(.bool)) }
            return Translated(text: "in(\(state))", precedence: Self.primary, type: .known(.bool))
        }
        let functions: [String: (ours: String, arity: ClosedRange<Int>)] = [
            "Math.min": ("min", 2...Int.max), "Math.max": ("max", 2...Int.max), "Math.abs": ("abs", 1...1),
            "Math.sqrt": ("sqrt", 1...1), "Math.floor": ("floor", 1...1), "Math.ceil": ("ceil", 1...1),
            "Math.atan2": ("atan2", 2...2), "Math.round": ("round", 1...1),
        ]
        guard let f = functions[name] else { throw JSError(message: "the function '\(name)' has no equivalent here", offset: at) }
        guard f.arity.contains(args.count) else {
            throw JSError(message: "'\(name)' with \(args.count) argument\(args.count == 1 ? "" : "s") has no equivalent here", offset: at)
        }
        var texts: [String] = []
        for a in args {
            let x = try translate(a, scope)
            try require(.number, x, at: a.offset, "'\(name)' takes Numbers")
            texts.append(x.text)
        }
        // Math.round rounds halves up (-2.5 to -2); our round rounds them away from zero.
        if name == "Math.round" { return Translated(text: "floor(\(texts[0]) + 0.5)", precedence: Self.primary, type: .known(.number)) }
        return Translated(text: "\(f.ours)(\(texts.joined(separator: ", ")))", precedence: Self.primary, type: .known(.number))
    }

    /// `In(s)` without quotes, which editors write and engines accept: `s` is a state's id,
    /// and not a `<data>` id (`In(v)` of a variable reads the state id it holds, at run time,
    /// which has no equivalent here).
    static func isUnquotedStateID(_ path: [String], _ scope: ExpressionScope) -> Bool {
        path.count == 1 && scope.variable(path[0]) == nil && scope.state(path[0]) != nil
    }

    /// Every `In(s)` without quotes in `e`: the state id and its offset.
    static func unquotedStateIDs(_ e: JSExpr, _ scope: ExpressionScope) -> [(id: String, at: Int)] {
        switch e {
        case .call(["In"], let args, _):
            if args.count == 1, case .path(let p, let at) = args[0], isUnquotedStateID(p, scope) { return [(p[0], at)] }
            return args.flatMap { unquotedStateIDs($0, scope) }
        case .call(_, let args, _), .array(let args, _): return args.flatMap { unquotedStateIDs($0, scope) }
        case .unary(_, let x, _): return unquotedStateIDs(x, scope)
        case .binary(_, let x, let y, _): return unquotedStateIDs(x, scope) + unquotedStateIDs(y, scope)
        case .conditional(let a, let b, let c): return [a, b, c].flatMap { unquotedStateIDs($0, scope) }
        case .number, .string, .bool, .path: return []
        }
    }

    // MARK: - Operators

    private static func level(_ op: String) -> Int {
        switch op {
        case "||": 1
        case "&&": 2
        case "===", "!==", "==", "!=": 3
        case "<", "<=", ">", ">=": 4
        case "+", "-": 5
        default: 6
        }
    }

    private mutating func translateBinary(_ op: String, _ l: JSExpr, _ r: JSExpr, at: Int, _ scope: ExpressionScope) throws(JSError) -> Translated {
        let x = try translate(l, scope)
        let y = try translate(r, scope)
        let level = Self.level(op)
        func joined(_ ours: String, _ type: ImportType) -> Translated {
            Translated(text: "\(wrap(x, level)) \(ours) \(wrap(y, level + 1))", precedence: level, type: .known(type))
        }
        switch op {
        case "&&", "||":
            try require(.bool, x, at: l.offset, "'\(op)' takes Bools (ECMAScript truthiness has no equivalent here)")
            try require(.bool, y, at: r.offset, "'\(op)' takes Bools (ECMAScript truthiness has no equivalent here)")
            return joined(op, .bool)
        case "===", "!==", "==", "!=":
            _ = try unify(x, y, at: at, "'\(op)' compares values of different types (ECMAScript would convert them)")
            return joined(op.hasPrefix("=") ? "==" : "!=", .bool)
        case "<", "<=", ">", ">=":
            try require(.number, x, at: l.offset, "'\(op)' compares Numbers")
            try require(.number, y, at: r.offset, "'\(op)' compares Numbers")
            return joined(op, .bool)
        case "+":
            if x.type == .known(.string) || y.type == .known(.string) {
                if case .unknown(let keys) = x.type { learn(keys, .string) }
                if case .unknown(let keys) = y.type { learn(keys, .string) }
                return concatenate(x, y)
            }
            if x.type == .known(.bool) || y.type == .known(.bool) {
                throw JSError(message: "'+' of a Bool has no equivalent here", offset: at)
            }
            try require(.number, x, at: l.offset, "'+' adds Numbers")
            try require(.number, y, at: r.offset, "'+' adds Numbers")
            return joined("+", .number)
        default:
            try require(.number, x, at: l.offset, "'\(op)' takes Numbers")
            try require(.number, y, at: r.offset, "'\(op)' takes Numbers")
            return joined(op, .number)
        }
    }

    /// `x + y` where one is a string: ECMAScript concatenates, converting the other.
    private func concatenate(_ x: Translated, _ y: Translated) -> Translated {
        func pieces(_ t: Translated) -> [Translated.Piece] {
            if let p = t.pieces { return p }
            return [.expression(t.text)]
        }
        let all = pieces(x) + pieces(y)
        var text = "\""
        for piece in all {
            switch piece {
            case .literal(let s): text += Self.escapedContent(s)
            case .expression(let e): text += "\\(" + e + ")"
            }
        }
        text += "\""
        return Translated(text: text, precedence: Self.primary, type: .known(.string), pieces: all)
    }

    // MARK: - Types

    /// Types the fields nothing has typed yet, from where their value goes.
    mutating func learn(_ keys: [FieldKey], _ type: ImportType) {
        for k in keys where fields[k] == nil { fields[k] = type }
    }

    private mutating func require(_ type: ImportType, _ x: Translated, at: Int, _ message: String) throws(JSError) {
        switch x.type {
        case .known(let t) where t == type: return
        case .known: throw JSError(message: message, offset: at)
        case .unknown(let keys): learn(keys, type)
        }
    }

    private mutating func unify(_ x: Translated, _ y: Translated, at: Int, _ message: String) throws(JSError) -> TypeInfo {
        switch (x.type, y.type) {
        case (.known(let a), .known(let b)):
            guard a == b else { throw JSError(message: message, offset: at) }
            return x.type
        case (.known(let a), .unknown(let keys)), (.unknown(let keys), .known(let a)):
            learn(keys, a)
            return .known(a)
        case (.unknown, .unknown):
            return x.type
        }
    }

    private func wrap(_ x: Translated, _ level: Int) -> String {
        x.precedence >= level ? x.text : "(\(x.text))"
    }

    // MARK: - Literals

    /// A number as our lexer reads it back exactly.
    static func number(_ n: Double) -> String {
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return "\(n)"
    }

    static func stringLiteral(_ s: String) -> String { "\"" + escapedContent(s) + "\"" }

    /// The inside of one of our string literals.
    static func escapedContent(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\0": out += "\\0"
            default:
                if c.value < 0x20 || c.value == 0x7F {
                    out += "\\u{" + String(c.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out
    }
}
