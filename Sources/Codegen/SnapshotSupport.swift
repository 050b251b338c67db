/// The JSON a generated type reads and writes its snapshots with: the same for every machine,
/// so it is fixed text, copied into each file (a generated file depends on nothing). It reads
/// exactly what the runtime's snapshot reader reads, with the same messages at the same line
/// and column, and writes numbers and strings as the runtime's writer does, so a generated
/// type's snapshot is byte for byte the one `Instance.snapshotJSON()` writes.
enum SnapshotSupport {
    static let lines: [String] = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

    private static let text = #"""
/// A snapshot document as read, and the JSON spellings the writer uses.
private indirect enum SnapshotJSON {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([SnapshotJSON])
    case object([(String, SnapshotJSON)])

    subscript(key: String) -> SnapshotJSON? {
        if case .object(let members) = self { return members.first { $0.0 == key }?.1 }
        return nil
    }

    /// A finite number in its shortest round-trip spelling; integral values without ".0".
    static func number(_ n: Double) -> String {
        if n == n.rounded(), Swift.abs(n) < 1e15, let i = Int64(exactly: n), !(n == 0 && n.sign == .minus) { return String(i) }
        return n.description
    }

    /// A JSON string: quotes, backslashes and control characters escaped.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20 || u.value == 0x7F:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    /// Malformed JSON: where (1-based line and column, in bytes) and what.
    struct SyntaxError: Error {
        var line: Int
        var column: Int
        var message: String
    }

    /// Reads one JSON document.
    struct Reader {
        let bytes: [UInt8]
        var i = 0
        var line = 1
        var lineStart = 0

        static func parse(_ text: String) throws(SyntaxError) -> SnapshotJSON {
            var reader = Reader(bytes: Array(text.utf8))
            reader.skipSpace()
            let value = try reader.value(depth: 0)
            reader.skipSpace()
            guard reader.i == reader.bytes.count else { throw reader.error("unexpected text after the snapshot") }
            return value
        }

        func error(_ message: String) -> SyntaxError { SyntaxError(line: line, column: i - lineStart + 1, message: message) }

        mutating func skipSpace() {
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "\n"): i += 1; line += 1; lineStart = i
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): i += 1
                default: return
                }
            }
        }

        mutating func expect(_ word: String) throws(SyntaxError) {
            for b in word.utf8 {
                guard i < bytes.count, bytes[i] == b else { throw error("expected '\(word)'") }
                i += 1
            }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> SnapshotJSON {
            guard depth < 64 else { throw error("nested too deeply") }
            guard i < bytes.count else { throw error("unexpected end of the snapshot") }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                var members: [(String, SnapshotJSON)] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a string key") }
                    let key = try string()
                    skipSpace()
                    try expect(":")
                    skipSpace()
                    members.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    guard i < bytes.count else { throw error("unexpected end of the snapshot") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                    throw error("expected ',' or '}'")
                }
            case UInt8(ascii: "["):
                i += 1
                var elements: [SnapshotJSON] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
                while true {
                    skipSpace()
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    guard i < bytes.count else { throw error("unexpected end of the snapshot") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
                    throw error("expected ',' or ']'")
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "n"): try expect("null"); return .null
            default: return .number(try number())
            }
        }

        /// JSON's grammar: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
        mutating func number() throws(SyntaxError) -> Double {
            let start = i
            var r = i
            func digits() -> Int {
                let s = r
                while r < bytes.count, bytes[r] >= UInt8(ascii: "0"), bytes[r] <= UInt8(ascii: "9") { r += 1 }
                return r - s
            }
            if r < bytes.count, bytes[r] == UInt8(ascii: "-") { r += 1 }
            let intStart = r
            let intDigits = digits()
            guard intDigits > 0, !(intDigits > 1 && bytes[intStart] == UInt8(ascii: "0")) else { throw error("expected a value") }
            if r < bytes.count, bytes[r] == UInt8(ascii: ".") {
                r += 1
                guard digits() > 0 else { i = r; throw error("expected a digit") }
            }
            if r < bytes.count, bytes[r] == UInt8(ascii: "e") || bytes[r] == UInt8(ascii: "E") {
                r += 1
                if r < bytes.count, bytes[r] == UInt8(ascii: "+") || bytes[r] == UInt8(ascii: "-") { r += 1 }
                guard digits() > 0 else { i = r; throw error("expected a digit") }
            }
            i = r
            guard let n = Double(String(decoding: bytes[start..<r], as: UTF8.self)), n.isFinite else {
                i = start
                throw error("number out of range")
            }
            return n
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            var v: UInt32 = 0
            for _ in 0..<4 {
                guard i < bytes.count else { throw error("unexpected end of the snapshot") }
                let b = bytes[i]
                let d: UInt32
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
                default: throw error("expected a hexadecimal digit")
                }
                v = v << 4 | d
                i += 1
            }
            return v
        }

        mutating func string() throws(SyntaxError) -> String {
            i += 1  // the opening quote
            var scalars = String.UnicodeScalarView()
            var runStart = i
            while true {
                guard i < bytes.count else { throw error("unterminated string") }
                let b = bytes[i]
                if b == UInt8(ascii: "\"") {
                    scalars.append(contentsOf: String(decoding: bytes[runStart..<i], as: UTF8.self).unicodeScalars)
                    i += 1
                    return String(scalars)
                }
                if b < 0x20 { throw error("control character in a string") }
                guard b == UInt8(ascii: "\\") else { i += 1; continue }
                scalars.append(contentsOf: String(decoding: bytes[runStart..<i], as: UTF8.self).unicodeScalars)
                i += 1
                guard i < bytes.count else { throw error("unterminated string") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var v = try hex4()
                    if v >= 0xD800, v < 0xDC00 {
                        guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate")
                        }
                        i += 2
                        let low = try hex4()
                        guard low >= 0xDC00, low < 0xE000 else { throw error("unpaired surrogate") }
                        v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(v) else { throw error("unpaired surrogate") }
                    scalars.append(u)
                default:
                    i -= 1
                    throw error("unknown escape")
                }
                runStart = i
            }
        }
    }
}
"""#
}
