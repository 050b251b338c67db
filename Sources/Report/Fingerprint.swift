/// A finding's identity across commits, for SARIF's `partialFingerprints`: code scanning
/// matches a new result to an old alert by it, so an alert stays one alert while lines are
/// added above it, and closes when the finding goes away.
///
/// It hashes what the finding is about, not where it is: the diagnostic's id, the file's
/// path, the text of the flagged line with its white space collapsed (so re-indenting does
/// not change it), and which occurrence of that same (id, path, line text) this is in the
/// file, counting from the top (two identical lines with the same finding stay two
/// alerts). The hash is 64-bit FNV-1a (Fowler, Noll and Vo's: small, stable across
/// platforms and runs, unlike Swift's `Hasher`, which is seeded per process), written as 16
/// hex digits, then `:` and the occurrence.
public struct Fingerprint {
    private var seen: [UInt64: Int] = [:]

    /// Creates a fingerprinter for one file, with no finding seen yet.
    public init() {}

    /// The fingerprint of the next finding; call it for a file's findings in order.
    public mutating func next(id: String, path: String, lineText: String) -> String {
        let normalized = lineText.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        var hash = Fingerprint.fnv1a(id)
        hash = Fingerprint.fnv1a("\u{0}" + path, seed: hash)
        hash = Fingerprint.fnv1a("\u{0}" + normalized, seed: hash)
        let occurrence = seen[hash, default: 0] + 1
        seen[hash] = occurrence
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + ":\(occurrence)"
    }

    /// 64-bit FNV-1a over the UTF-8 bytes of `text`, continuing from `seed`.
    static func fnv1a(_ text: String, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var hash = seed
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
