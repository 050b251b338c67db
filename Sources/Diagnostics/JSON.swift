/// A JSON document built in memory and then written out: the one shape every structured
/// report takes before it becomes text (`check --format json`, SARIF, replay reports, the
/// language server's messages).
///
/// Objects keep their members in the order they were added, so output is byte-for-byte
/// deterministic and reads in the order a person expects (`file` before `line`). Reading
/// JSON is the event-log reader's job (`JSONValue`, which keeps where each value stood in
/// its line); this type only writes.
public enum JSON: Equatable, Sendable {
    /// The JSON literal `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number; written without a fraction when it is an integer, `null` when not finite.
    case number(Double)
    /// An integer, written exactly (counts, lines and ids beyond a double's 2^53 stay exact).
    case integer(Int)
    /// A string, escaped as JSON requires when written.
    case string(String)
    /// An array of values, written in order.
    case array([JSON])
    /// An object whose members are written in the order they were added.
    case object(JSONObject)

    /// An object from its members, in order.
    public static func object(_ members: KeyValuePairs<String, JSON>) -> JSON {
        .object(JSONObject(members.map { ($0.key, $0.value) }))
    }

    /// An optional value, `null` when absent.
    public static func optional(_ value: JSON?) -> JSON { value ?? .null }
}

/// The members of a JSON object in order. Keys are expected to be unique; adding a key
/// again replaces its value in place.
public struct JSONObject: Equatable, Sendable {
    /// The key-value pairs in insertion order.
    public private(set) var members: [(key: String, value: JSON)]

    /// Creates an object from pairs in order; a repeated key keeps its first position and its last value.
    public init(_ members: [(String, JSON)] = []) {
        self.members = []
        for (key, value) in members { self[key] = value }
    }

    /// The value of `key`; setting `nil` removes it.
    public subscript(key: String) -> JSON? {
        get { members.first(where: { $0.key == key })?.value }
        set {
            let index = members.firstIndex(where: { $0.key == key })
            switch (index, newValue) {
            case (let i?, let v?): members[i].value = v
            case (let i?, nil): members.remove(at: i)
            case (nil, let v?): members.append((key, v))
            case (nil, nil): break
            }
        }
    }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.members.count == b.members.count && zip(a.members, b.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
                ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    /// Members in the order written.
    public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(JSONObject(elements)) }
    public init(nilLiteral: ()) { self = .null }
}

extension JSON {
    /// How the text is laid out. Both forms hold the same document.
    public enum Layout: Sendable, Equatable {
        /// One line, no spaces: for machines (the language server's messages).
        case compact
        /// Two-space indentation, `"key": value`; an array or object of scalars only stays on
        /// one line, so a list of numbers or a small record does not take a line per item.
        case indented
        /// The outer `levels` levels of containers one item per line (two-space indentation;
        /// as with `indented`, a container of scalars stays on one line), everything deeper
        /// on one line with `", "` and `": "`: one record per line, so a report reads and
        /// diffs line by line (`check --format json` puts each diagnostic on a line of its
        /// own); `outline(levels: 0)` is the whole document on one line.
        case outline(levels: Int)
    }

    /// The document as text, without a trailing newline.
    public func rendered(_ layout: Layout = .indented) -> String {
        var out = ByteBuffer(capacity: 256)
        write(to: &out, layout: layout, indent: 0)
        return out.text
    }

    /// Appends the document's text to `out`.
    package func write(to out: inout ByteBuffer, layout: Layout, indent: Int = 0) {
        switch self {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
        case .number(let n): JSONWriter.appendNumber(n, to: &out)
        case .integer(let n): JSONWriter.appendInteger(Int64(n), to: &out)
        case .string(let s): JSONWriter.appendQuoted(s, to: &out)
        case .array(let items):
            writeContainer(items.count, open: UInt8(ascii: "["), close: UInt8(ascii: "]"), to: &out,
                           layout: layout, indent: indent, flat: items.allSatisfy(\.isScalar)) { i, out in
                items[i].write(to: &out, layout: layout, indent: indent + 1)
            }
        case .object(let object):
            let members = object.members
            writeContainer(members.count, open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), to: &out,
                           layout: layout, indent: indent, flat: members.allSatisfy(\.value.isScalar)) { i, out in
                JSONWriter.appendQuoted(members[i].key, to: &out)
                out.append(layout == .compact ? ":" : ": ")
                members[i].value.write(to: &out, layout: layout, indent: indent + 1)
            }
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array(let items): items.isEmpty
        case .object(let o): o.members.isEmpty
        default: true
        }
    }

    private func writeContainer(_ count: Int, open: UInt8, close: UInt8, to out: inout ByteBuffer, layout: Layout,
                                indent: Int, flat: Bool, item: (Int, inout ByteBuffer) -> Void) {
        out.append(open)
        let broken: Bool
        switch layout {
        case .compact: broken = false
        case .indented: broken = !flat
        case .outline(let levels): broken = indent < levels && !flat
        }
        for i in 0..<count {
            if i > 0 { out.append(layout == .compact ? "," : (broken ? "," : ", ")) }
            if broken { Self.newline(indent + 1, to: &out) }
            item(i, &out)
        }
        if broken && count > 0 { Self.newline(indent, to: &out) }
        out.append(close)
    }

    private static func newline(_ indent: Int, to out: inout ByteBuffer) {
        out.append(UInt8(ascii: "\n"))
        for _ in 0..<indent { out.append("  ") }
    }
}
