import StatecraftDiagnostics
import StatecraftSyntax

/// What identifies a spec's text for recordings (and, later, snapshots and generated code):
/// a 64-bit FNV-1a hash of its tokens, written as 16 lowercase hexadecimal digits.
///
/// It covers the text of every token in order, each preceded by its length in bytes (so
/// that `a b` and `ab` differ). White space, line ends, comments and a byte order mark are
/// not tokens: reformatting a spec (`statecraft fmt`) or editing its comments keeps its
/// fingerprint, while any change to a name, number, string, keyword or punctuation changes
/// it. A spec that does not lex cleanly still has one (its invalid tokens are hashed too).
///
/// FNV-1a is not a cryptographic hash: it tells versions of a spec apart, it does not
/// protect against someone making two specs collide on purpose.
public struct SpecFingerprint: Hashable, Sendable, CustomStringConvertible {
    /// The 64-bit hash.
    public let value: UInt64

    /// The fingerprint with this hash.
    public init(value: UInt64) {
        self.value = value
    }

    /// The fingerprint of spec text.
    public init(specText: String) {
        self.init(file: SourceFile(path: "<spec>", text: specText))
    }

    /// The fingerprint of a spec file's bytes.
    public init(file: SourceFile) {
        var hash = FNV1a64()
        var lexer = Lexer(file: file.withoutByteOrderMark)
        let bytes = lexer.file.bytes
        while true {
            let token = lexer.next()
            if token.kind == .endOfFile { break }
            let range = token.range
            var length = UInt32(truncatingIfNeeded: range.end - range.start)
            for _ in 0..<4 {
                hash.add(UInt8(truncatingIfNeeded: length))
                length >>= 8
            }
            for i in range.start..<range.end { hash.add(bytes[i]) }
        }
        value = hash.value
    }

    /// Reads the 16 hexadecimal digits of `description` back; nil for anything else.
    public init?(_ text: String) {
        guard text.utf8.count == 16, let value = UInt64(text, radix: 16) else { return nil }
        self.value = value
    }

    /// 16 lowercase hexadecimal digits, leading zeros included.
    public var description: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// The 64-bit Fowler–Noll–Vo hash, variant 1a: for each byte, xor then multiply.
struct FNV1a64 {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always)
    mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
}
