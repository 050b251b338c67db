@_spi(Bytes) import StatecraftDiagnostics
import StatecraftModel

// A value as trace lines write it, straight into the bytes of a line (`TraceNames`).
extension Value {
    /// `json`, appended to `out`.
    package func appendJSON(to out: inout ByteBuffer) {
        switch self {
        case .number(let n): JSONWriter.appendNumber(n, to: &out)
        case .bool(let b): out.append(b ? "true" : "false")
        case .string(let s): JSONWriter.appendQuoted(s, to: &out)
        }
    }

    /// `description` (spec notation), appended to `out`.
    package func appendDescription(to out: inout ByteBuffer) {
        switch self {
        case .number(let n) where n.isFinite: JSONWriter.appendNumber(n, to: &out)
        case .string(let s): StringEscaping.appendQuoted(s, style: .spec, to: &out)
        default: out.append(contentsOf: description)
        }
    }
}
