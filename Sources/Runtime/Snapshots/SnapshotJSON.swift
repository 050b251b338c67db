import StatecraftDiagnostics
import StatecraftModel

// A small JSON reader and writer for snapshots. Runtime does not import Foundation (the lean
// product apps link), so snapshots read and write their own JSON: numbers as Swift's
// shortest round-trip spelling (read back exactly by `Double.init`), strings escaped as
// RFC 8259 requires.

/// A parsed JSON value, objects keeping their keys in written order.
package enum SnapshotJSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([SnapshotJSONValue])
    case object([(String, SnapshotJSONValue)])

    package static func == (a: SnapshotJSONValue, b: SnapshotJSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.number(x), .number(y)): x == y
        case let (.string(x), .string(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The member `key` of an object; nil for anything else or a missing key.
    package subscript(key: String) -> SnapshotJSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }
}

/// Writes JSON text into a string.
package struct SnapshotJSONWriter {
    package private(set) var text = ""

    package init() {}

    package mutating func raw(_ s: String) { text += s }

    /// A finite number in its shortest round-trip spelling (`Double.description`, which
    /// `Double.init(_:)` reads back to the same bits); integral values without ".0".
    package mutating func number(_ n: Double) {
        if n == n.rounded(), abs(n) < 1e15, let i = Int64(exactly: n), !(n == 0 && n.sign == .minus) {
            text += String(i)
        } else {
            text += n.description
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped (`\u001b`).
    package mutating func string(_ s: String) { text += StringEscaping.quoted(s, style: .json) }

    package mutating func value(_ v: Value) {
        switch v {
        case .number(let n): number(n)
        case .bool(let b): text += b ? "true" : "false"
        case .string(let s): string(s)
        }
    }
}

/// Malformed snapshot JSON: where (1-based line and column, in bytes) and what.
package struct SnapshotSyntaxError: Error, Sendable {
    package var line: Int
    package var column: Int
    package var message: String
}

/// Reads one JSON document.
package struct SnapshotJSONReader {
    private let bytes: [UInt8]
    private var i = 0
    private var line = 1
    private var lineStart = 0

    package static func parse(_ text: String) throws(SnapshotSyntaxError) -> SnapshotJSONValue {
        var reader = SnapshotJSONReader(bytes: Array(text.utf8))
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.i == reader.bytes.count else { throw reader.error("unexpected text after the snapshot") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ message: String) -> SnapshotSyntaxError {
        SnapshotSyntaxError(line: line, column: i - lineStart + 1, message: message)
    }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\n"): i += 1; line += 1; lineStart = i
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): i += 1
            default: return
            }
        }
    }

    private mutating func expect(_ word: String) throws(SnapshotSyntaxError) {
        for b in word.utf8 {
            guard i < bytes.count, bytes[i] == b else { throw error("expected '\(word)'") }
            i += 1
        }
    }

    private mutating func value(depth: Int) throws(SnapshotSyntaxError) -> SnapshotJSONValue {
        guard depth < 64 else { throw error("nested too deeply") }
        guard i < bytes.count else { throw error("unexpected end of the snapshot") }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            i += 1
            var members: [(String, SnapshotJSONValue)] = []
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
            var elements: [SnapshotJSONValue] = []
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

    private mutating func number() throws(SnapshotSyntaxError) -> Double {
        let start = i
        // JSON's grammar: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
        func digits(_ r: inout Int, _ bytes: [UInt8]) -> Int {
            let s = r
            while r < bytes.count, bytes[r] >= UInt8(ascii: "0"), bytes[r] <= UInt8(ascii: "9") { r += 1 }
            return r - s
        }
        var r = i
        if r < bytes.count, bytes[r] == UInt8(ascii: "-") { r += 1 }
        let intStart = r
        let intDigits = digits(&r, bytes)
        guard intDigits > 0, !(intDigits > 1 && bytes[intStart] == UInt8(ascii: "0")) else { throw error("expected a value") }
        if r < bytes.count, bytes[r] == UInt8(ascii: ".") {
            r += 1
            guard digits(&r, bytes) > 0 else { i = r; throw error("expected a digit") }
        }
        if r < bytes.count, bytes[r] == UInt8(ascii: "e") || bytes[r] == UInt8(ascii: "E") {
            r += 1
            if r < bytes.count, bytes[r] == UInt8(ascii: "+") || bytes[r] == UInt8(ascii: "-") { r += 1 }
            guard digits(&r, bytes) > 0 else { i = r; throw error("expected a digit") }
        }
        i = r
        guard let n = Double(String(decoding: bytes[start..<r], as: UTF8.self)), n.isFinite else {
            i = start
            throw error("number out of range")
        }
        return n
    }

    private mutating func hex4() throws(SnapshotSyntaxError) -> UInt32 {
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

    private mutating func string() throws(SnapshotSyntaxError) -> String {
        i += 1  // the opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = i
        func flush(_ end: Int) { scalars.append(contentsOf: String(decoding: bytes[runStart..<end], as: UTF8.self).unicodeScalars) }
        while true {
            guard i < bytes.count else { throw error("unterminated string") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                flush(i)
                i += 1
                return String(scalars)
            }
            if b < 0x20 { throw error("control character in a string") }
            guard b == UInt8(ascii: "\\") else { i += 1; continue }
            flush(i)
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
