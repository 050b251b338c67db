// SCXML ids and event names may hold characters our identifiers cannot (`done.state.s0`,
// `foo.bar`, `a-b`) or be our keywords (`final`, `state`). Each namespace maps them to
// identifiers once, consistently, and remembers what it changed so that the generated
// spec can say so in a comment.

/// One namespace's mapping from SCXML names to our identifiers.
struct NameTable {
    private(set) var ours: [String: String] = [:]
    private var taken: Set<String> = []
    /// The names that were changed, in the order they were first mapped.
    private(set) var changed: [(scxml: String, ours: String)] = []

    static let keywords: Set<String> = ["machine", "const", "var", "public", "event", "output", "state", "initial", "final",
                                        "parallel", "entry", "exit", "on", "after", "if", "else", "emit", "let", "true",
                                        "false", "pi"]

    /// Our identifier for `name`: the same name when it is one already, else with every
    /// other character replaced by `_`, a leading digit prefixed with `_`, a keyword
    /// suffixed with `_`, and a number appended where that collides with another name.
    mutating func name(for name: String) -> String {
        if let known = ours[name] { return known }
        var base = ""
        for c in name.unicodeScalars {
            let ok = c == "_" || (c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c)))
            base.unicodeScalars.append(ok ? c : "_")
        }
        if base.isEmpty { base = "_" }
        if let first = base.unicodeScalars.first, ("0"..."9").contains(first) { base = "_" + base }
        if Self.keywords.contains(base) { base += "_" }
        var candidate = base
        var k = 2
        while taken.contains(candidate) {
            candidate = "\(base)_\(k)"
            k += 1
        }
        taken.insert(candidate)
        ours[name] = candidate
        if candidate != name { changed.append((name, candidate)) }
        return candidate
    }

    /// Gives `name` the identifier `identifier` (a spec's own name for it, which
    /// `statecraft:event-names` carries); false when `identifier` is not one or is taken.
    mutating func assign(_ name: String, _ identifier: String) -> Bool {
        guard ours[name] == nil, Self.isIdentifier(identifier), !taken.contains(identifier) else { return false }
        taken.insert(identifier)
        ours[name] = identifier
        if identifier != name { changed.append((name, identifier)) }
        return true
    }

    /// Whether `name` is one of our identifiers already, and not a keyword.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first), !keywords.contains(name) else { return false }
        return name.unicodeScalars.allSatisfy { c in c == "_" || (c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c))) }
    }

    /// The identifier `name` has, or would be given, without adding it to the table.
    func existingName(for name: String) -> String {
        if let known = ours[name] { return known }
        var copy = self
        return copy.name(for: name)
    }

    /// Reserves an identifier that no SCXML name may take (a generated one).
    mutating func reserve(_ identifier: String) { taken.insert(identifier) }
}
