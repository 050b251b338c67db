// The ECMAScript that SCXML documents write in `cond`, `expr` and `delayexpr`, as far as it
// maps onto our expressions: literals, data names, `_event.data.f`, `In('s')`, arithmetic,
// comparisons, `&&`, `||`, `!`, `?:`, `typeof` and the `Math` functions we have. Anything else
// (objects, `undefined`, assignments inside expressions, other calls) is refused with the
// column where it starts, since our typed language has no meaning for it.

/// An ECMAScript expression, as parsed.
indirect enum JSExpr {
    case number(Double, at: Int)
    case string(String, at: Int)
    case bool(Bool, at: Int)
    /// A name and the dotted members after it: `Var1`, `_event.data.x`, `Math.PI`.
    case path([String], at: Int)
    case call([String], [JSExpr], at: Int)
    case unary(String, JSExpr, at: Int)
    case binary(String, JSExpr, JSExpr, at: Int)
    case conditional(JSExpr, JSExpr, JSExpr)
    /// `[a, b]`: only an output's arguments (`<log expr="[a, b]">`) may be a list.
    case array([JSExpr], at: Int)

    var offset: Int {
        switch self {
        case .path(_, let at), .call(_, _, let at), .unary(_, _, let at), .binary(_, _, _, let at), .array(_, let at),
             .number(_, let at), .string(_, let at), .bool(_, let at): at
        case .conditional(let c, _, _): c.offset
        }
    }
}

/// A failure to read an expression: what, and at which character of the expression.
struct JSError: Error {
    var message: String
    var offset: Int
}

/// A recursive-descent parser over the expression's Unicode scalars (offsets are scalar
/// indices, which the importer turns into columns of the attribute value).
struct JSParser {
    enum Token: Equatable {
        case number(Double)
        case string(String)
        case name(String)
        case punct(String)
        case end
    }

    private var tokens: [(Token, Int)] = []
    private var index = 0
    /// How deep the expression being read nests; bounded well below where our own parser
    /// stops (its limit is 256), so that the translation still reads.
    private var depth = 0
    static let maxDepth = 128
    private static let punctuators = ["===", "!==", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=",
                                      "<", ">", "+", "-", "*", "/", "%", "!", "?", ":", "(", ")", ",", ".", "[", "]",
                                      "=", "{", "}", ";", "&", "|", "^", "~"]

    static func parse(_ text: String) throws(JSError) -> JSExpr {
        var parser = JSParser()
        try parser.tokenize(Array(text.unicodeScalars))
        let e = try parser.conditional()
        guard case .end = parser.peek else {
            throw JSError(message: "unexpected \(parser.describe(parser.peek)) after the expression", offset: parser.peekOffset)
        }
        return e
    }

    private var peek: Token { tokens[index].0 }
    private var peekOffset: Int { tokens[index].1 }

    private func describe(_ t: Token) -> String {
        switch t {
        case .number(let n): "number \(n)"
        case .string: "string"
        case .name(let n): "'\(n)'"
        case .punct(let p): "'\(p)'"
        case .end: "end of the expression"
        }
    }

    private mutating func tokenize(_ s: [Unicode.Scalar]) throws(JSError) {
        var i = 0
        func isNameStart(_ c: Unicode.Scalar) -> Bool { c == "_" || c == "$" || (c.isASCII && c.properties.isAlphabetic) }
        func isNamePart(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || ("0"..."9").contains(c) }
        while i < s.count {
            let c = s[i]
            if c == " " || c == "\t" || c == "\n" || c == "\r" { i += 1; continue }
            let start = i
            if ("0"..."9").contains(c) || (c == "." && i + 1 < s.count && ("0"..."9").contains(s[i + 1])) {
                var text = ""
                while i < s.count, ("0"..."9").contains(s[i]) || s[i] == "." { text.unicodeScalars.append(s[i]); i += 1 }
                if i < s.count, s[i] == "e" || s[i] == "E" {
                    text.unicodeScalars.append(s[i]); i += 1
                    if i < s.count, s[i] == "+" || s[i] == "-" { text.unicodeScalars.append(s[i]); i += 1 }
                    while i < s.count, ("0"..."9").contains(s[i]) { text.unicodeScalars.append(s[i]); i += 1 }
                }
                guard let value = Double(text), value.isFinite else {
                    throw JSError(message: "'\(text)' is not a number", offset: start)
                }
                if i < s.count, isNamePart(s[i]) { throw JSError(message: "a number literal in a form we do not read", offset: start) }
                tokens.append((.number(value), start))
            } else if c == "'" || c == "\"" {
                i += 1
                var text = ""
                while true {
                    guard i < s.count else { throw JSError(message: "a string without its closing quote", offset: start) }
                    let d = s[i]
                    if d == c { i += 1; break }
                    if d == "\\" {
                        guard i + 1 < s.count else { throw JSError(message: "a string without its closing quote", offset: start) }
                        let e = s[i + 1]
                        i += 2
                        switch e {
                        case "n": text += "\n"
                        case "t": text += "\t"
                        case "r": text += "\r"
                        case "0": text += "\0"
                        case "\\", "'", "\"": text.unicodeScalars.append(e)
                        case "u":
                            var hex = ""
                            while hex.count < 4, i < s.count, s[i].properties.isASCIIHexDigit { hex.unicodeScalars.append(s[i]); i += 1 }
                            guard hex.count == 4, let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) else {
                                throw JSError(message: "an escape '\\u' needs four hex digits of a Unicode scalar", offset: i - 2)
                            }
                            text.unicodeScalars.append(scalar)
                        default: throw JSError(message: "the escape '\\\(e)' is not read here", offset: i - 2)
                        }
                    } else {
                        text.unicodeScalars.append(d)
                        i += 1
                    }
                }
                tokens.append((.string(text), start))
            } else if isNameStart(c) {
                var text = ""
                while i < s.count, isNamePart(s[i]) { text.unicodeScalars.append(s[i]); i += 1 }
                tokens.append((.name(text), start))
            } else {
                var found: String?
                for p in Self.punctuators where p.unicodeScalars.count <= s.count - i {
                    if String(String.UnicodeScalarView(s[i..<(i + p.unicodeScalars.count)])) == p { found = p; break }
                }
                guard let p = found else { throw JSError(message: "'\(c)' is not read in an expression", offset: start) }
                tokens.append((.punct(p), start))
                i += p.unicodeScalars.count
            }
        }
        tokens.append((.end, s.count))
    }

    private mutating func take(_ p: String) -> Bool {
        if case .punct(p) = peek { index += 1; return true }
        return false
    }

    private mutating func expect(_ p: String) throws(JSError) {
        guard take(p) else { throw JSError(message: "expected '\(p)', found \(describe(peek))", offset: peekOffset) }
    }

    private mutating func conditional() throws(JSError) -> JSExpr {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else {
            throw JSError(message: "the expression nests more than \(Self.maxDepth) levels deep", offset: peekOffset)
        }
        let c = try binary(0)
        guard take("?") else { return c }
        let a = try conditional()
        try expect(":")
        let b = try conditional()
        return .conditional(c, a, b)
    }

    /// Binary operators, loosest first (ECMAScript's order for the ones we read).
    private static let levels: [[String]] = [["||"], ["&&"], ["===", "!==", "==", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]]

    private mutating func binary(_ level: Int) throws(JSError) -> JSExpr {
        guard level < Self.levels.count else { return try unary() }
        var left = try binary(level + 1)
        while case .punct(let p) = peek, Self.levels[level].contains(p) {
            let at = peekOffset
            index += 1
            let right = try binary(level + 1)
            left = .binary(p, left, right, at: at)
        }
        if case .punct(let p) = peek, ["=", "+=", "-=", "*=", "/=", "&", "|", "^"].contains(p) {
            throw JSError(message: "'\(p)' inside an expression has no equivalent here", offset: peekOffset)
        }
        return left
    }

    private mutating func unary() throws(JSError) -> JSExpr {
        let at = peekOffset
        // `typeof x` is read as ECMAScript reads it; the translator gives it a meaning only
        // where the answer is known from the document (`_event`'s fields).
        let prefix: String? = switch peek {
        case .punct(let p) where p == "!" || p == "-" || p == "+": p
        case .name("typeof"): "typeof"
        default: nil
        }
        if let p = prefix {
            index += 1
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maxDepth else {
                throw JSError(message: "the expression nests more than \(Self.maxDepth) levels deep", offset: at)
            }
            return .unary(p, try unary(), at: at)
        }
        if case .punct(let p) = peek, p == "++" || p == "--" || p == "~" {
            throw JSError(message: "'\(p)' has no equivalent here (an expression cannot change a variable)", offset: at)
        }
        if case .name(let n) = peek, ["void", "delete", "new", "instanceof", "function", "this"].contains(n) {
            throw JSError(message: "'\(n)' has no equivalent here", offset: at)
        }
        return try postfix()
    }

    private mutating func postfix() throws(JSError) -> JSExpr {
        let at = peekOffset
        switch peek {
        case .number(let n): index += 1; return .number(n, at: at)
        case .string(let s): index += 1; return .string(s, at: at)
        case .name("true"): index += 1; return .bool(true, at: at)
        case .name("false"): index += 1; return .bool(false, at: at)
        case .name(let n):
            index += 1
            var path = [n]
            while true {
                if take(".") {
                    guard case .name(let member) = peek else {
                        throw JSError(message: "expected a member name after '.', found \(describe(peek))", offset: peekOffset)
                    }
                    index += 1
                    path.append(member)
                    continue
                }
                // `x['name']` is `x.name` in ECMAScript (`_event.data['Var1']`); any other
                // index (a number, a variable) picks an element, which no typed value has.
                guard case .punct("[") = peek else { break }
                let bracket = peekOffset
                index += 1
                guard case .string(let member) = peek else {
                    throw JSError(message: "indexing ('[') has no equivalent here", offset: bracket)
                }
                index += 1
                try expect("]")
                path.append(member)
            }
            if take("(") {
                var args: [JSExpr] = []
                if !take(")") {
                    repeat { args.append(try conditional()) } while take(",")
                    try expect(")")
                }
                if case .punct(let p) = peek, p == "." || p == "(" || p == "[" {
                    throw JSError(message: "the result of a call used as an object has no equivalent here", offset: peekOffset)
                }
                return .call(path, args, at: at)
            }
            if case .punct(let p) = peek, p == "++" || p == "--" {
                throw JSError(message: "'\(p)' has no equivalent here (an expression cannot change a variable)", offset: peekOffset)
            }
            return .path(path, at: at)
        case .punct("("):
            index += 1
            let e = try conditional()
            try expect(")")
            return e
        case .punct("["):
            index += 1
            var items: [JSExpr] = []
            if !take("]") {
                repeat { items.append(try conditional()) } while take(",")
                try expect("]")
            }
            return .array(items, at: at)
        case .punct("{"):
            throw JSError(message: "an object literal has no equivalent here", offset: at)
        default:
            throw JSError(message: "expected a value, found \(describe(peek))", offset: at)
        }
    }
}
