/// A unified diff of two texts, line by line (`diff -u`'s format, three lines of context),
/// for `statecraft fmt --check`.
public enum UnifiedDiff {
    /// How many unchanged lines surround each change.
    public static let context = 3
    /// Past this many cells (changed lines before × after, once the common start and end
    /// are set aside) the differing middle is shown as one replacement instead of searched
    /// for common lines.
    static let searchLimit = 4_000_000

    private enum Edit: Equatable { case same, delete, insert }

    /// The diff from `old` to `new` under the names `oldName` and `newName`; empty when they
    /// are equal.
    public static func diff(_ old: String, _ new: String, oldName: String, newName: String) -> String {
        let a = lines(old)
        let b = lines(new)
        guard a != b else { return "" }
        let edits = editScript(a, b)
        var out = "--- \(oldName)\n+++ \(newName)\n"
        // Walk the script, cutting it into hunks: changes closer than 2 × context lines share one.
        var positions: [(edit: Edit, oldIndex: Int, newIndex: Int)] = []
        var i = 0
        var j = 0
        for edit in edits {
            positions.append((edit, i, j))
            switch edit {
            case .same: i += 1; j += 1
            case .delete: i += 1
            case .insert: j += 1
            }
        }
        var k = 0
        while k < positions.count {
            guard positions[k].edit != .same else { k += 1; continue }
            let start = max(0, k - context)
            var end = k
            var lastChange = k
            while end < positions.count {
                if positions[end].edit != .same { lastChange = end }
                if end - lastChange > 2 * context { break }
                end += 1
            }
            end = min(positions.count, lastChange + context + 1)
            let hunk = positions[start..<end]
            let oldCount = hunk.filter { $0.edit != .insert }.count
            let newCount = hunk.filter { $0.edit != .delete }.count
            let oldStart = oldCount == 0 ? hunk.first.map { $0.oldIndex } ?? 0 : (hunk.first?.oldIndex ?? 0) + 1
            let newStart = newCount == 0 ? hunk.first.map { $0.newIndex } ?? 0 : (hunk.first?.newIndex ?? 0) + 1
            out += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n"
            for p in hunk {
                switch p.edit {
                case .same: out += " " + a[p.oldIndex] + "\n"
                case .delete: out += "-" + a[p.oldIndex] + "\n"
                case .insert: out += "+" + b[p.newIndex] + "\n"
                }
            }
            k = end
        }
        if !old.isEmpty && !old.hasSuffix("\n") || !new.isEmpty && !new.hasSuffix("\n") {
            out += "\\ a file does not end with a line break\n"
        }
        return out
    }

    private static func range(_ start: Int, _ count: Int) -> String {
        count == 1 ? "\(start)" : "\(start),\(count)"
    }

    private static func lines(_ text: String) -> [String] {
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if parts.last == "" { parts.removeLast() }
        return parts
    }

    /// The shortest edit script by the longest common subsequence, after setting aside the
    /// common first and last lines.
    private static func editScript(_ a: [String], _ b: [String]) -> [Edit] {
        var prefix = 0
        while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix && suffix < b.count - prefix
                && a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        let middleA = Array(a[prefix..<(a.count - suffix)])
        let middleB = Array(b[prefix..<(b.count - suffix)])
        var edits = [Edit](repeating: .same, count: prefix)
        if middleA.count * middleB.count > searchLimit {
            edits += [Edit](repeating: .delete, count: middleA.count) + [Edit](repeating: .insert, count: middleB.count)
        } else {
            edits += lcsEdits(middleA, middleB)
        }
        edits += [Edit](repeating: .same, count: suffix)
        return edits
    }

    private static func lcsEdits(_ a: [String], _ b: [String]) -> [Edit] {
        let n = a.count
        let m = b.count
        // lengths[i][j]: the longest common subsequence of a[i...] and b[j...].
        var lengths = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i][j] = a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var edits: [Edit] = []
        var i = 0
        var j = 0
        while i < n || j < m {
            if i < n && j < m && a[i] == b[j] {
                edits.append(.same); i += 1; j += 1
            } else if i < n && (j == m || lengths[i + 1][j] >= lengths[i][j + 1]) {
                edits.append(.delete); i += 1
            } else {
                edits.append(.insert); j += 1
            }
        }
        return edits
    }
}
