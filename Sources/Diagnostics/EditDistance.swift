/// Levenshtein distance, for "did you mean" suggestions everywhere (names in specs, events
/// in logs, commands and options on the command line).
package enum EditDistance {
    /// The candidate closest to `name`, if it is close enough to be a likely typo: at most
    /// `limit` edits, by default a third of the name's length (at least one).
    package static func closest<S: Sequence>(to name: String, among candidates: S, limit: Int? = nil) -> String?
    where S.Element == String {
        let limit = limit ?? max(1, name.count / 3)
        var best: (String, Int)?
        for candidate in candidates where candidate != name {
            let d = distance(Array(name.utf8), Array(candidate.utf8), limit: limit)
            guard d <= limit else { continue }
            if let (bestName, bestDistance) = best, bestDistance < d || (bestDistance == d && bestName < candidate) {
                continue
            }
            best = (candidate, d)
        }
        return best?.0
    }

    /// The edit distance between two byte strings, counting a swap of two neighbours as one
    /// edit (`opne` → `open`), or `limit + 1` when it exceeds `limit`.
    static func distance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMin = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
                rowMin = min(rowMin, current[j])
            }
            if rowMin > limit { return limit + 1 }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
