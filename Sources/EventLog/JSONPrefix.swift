/// Whether bytes are the beginning of a JSON object that stops before its end: what is left
/// of a line when a writer was killed in the middle of it.
///
/// A pushdown automaton over RFC 8259's grammar that accepts every proper prefix of a JSON
/// object (white space first allowed), up to and including a UTF-8 sequence, escape,
/// number or literal cut in its middle, and refuses anything that no continuation could
/// make valid. Run only on a log's last line when it has no line end and does not parse,
/// so it need not be fast.
enum JSONPrefix {
    /// True when `bytes` can be continued into one JSON object but is not one yet.
    static func isUnfinishedObject(_ bytes: [UInt8]) -> Bool {
        var scanner = Scanner()
        var i = 0
        while i < bytes.count {
            guard scanner.feed(bytes[i]) else { return false }
            i += 1
        }
        return scanner.started && !scanner.finished
    }

    private struct Scanner {
        /// What may come next.
        enum Expect {
            case start  // white space, then `{`
            case keyOrClose  // after `{`: a key or `}`
            case key  // after `,` in an object
            case colon
            case value  // after `:` or `,` in an array
            case valueOrClose  // after `[`: a value or `]`
            case afterValue  // `,` or the container's close
            case done  // the object is whole: only white space
        }
        enum Container { case object, array }

        var expect = Expect.start
        var stack: [Container] = []
        var started = false
        var finished = false
        /// Inside a string: whether it is a key, an escape being read (`\` seen: -1; hex
        /// digits of `\u` left: 1...4), UTF-8 continuation bytes left.
        var inString = false
        var stringIsKey = false
        var escape = 0
        var continuation = 0
        /// After the first byte of a 3- or 4-byte sequence, the range its next byte must be in.
        var nextLow: UInt8 = 0x80
        var nextHigh: UInt8 = 0xBF
        /// Inside a number: its state.
        var number: NumberState?
        /// Inside a literal: its remaining bytes.
        var literal: [UInt8] = []

        enum NumberState { case minus, zero, integer, dot, fraction, exponentMark, exponentSign, exponent }

        mutating func feed(_ b: UInt8) -> Bool {
            if inString { return feedString(b) }
            if let state = number {
                if let next = Scanner.numberStep(state, b) {
                    number = next
                    return true
                }
                // The number ended before `b` (if it may end here).
                guard state == .zero || state == .integer || state == .fraction || state == .exponent else { return false }
                number = nil
                expect = .afterValue
            }
            if !literal.isEmpty {
                guard b == literal.removeFirst() else { return false }
                if literal.isEmpty { expect = .afterValue }
                return true
            }
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { return true }
            switch expect {
            case .start:
                guard b == UInt8(ascii: "{") else { return false }
                started = true
                stack.append(.object)
                expect = .keyOrClose
            case .keyOrClose, .key:
                if b == UInt8(ascii: "}") && expect == .keyOrClose { return close(.object) }
                guard b == UInt8(ascii: "\"") else { return false }
                inString = true
                stringIsKey = true
            case .colon:
                guard b == UInt8(ascii: ":") else { return false }
                expect = .value
            case .value, .valueOrClose:
                if b == UInt8(ascii: "]") && expect == .valueOrClose { return close(.array) }
                return startValue(b)
            case .afterValue:
                switch b {
                case UInt8(ascii: ","): expect = stack.last == .object ? .key : .value
                case UInt8(ascii: "}"): return close(.object)
                case UInt8(ascii: "]"): return close(.array)
                default: return false
                }
            case .done:
                return false
            }
            return true
        }

        private mutating func startValue(_ b: UInt8) -> Bool {
            switch b {
            case UInt8(ascii: "{"):
                stack.append(.object)
                expect = .keyOrClose
            case UInt8(ascii: "["):
                stack.append(.array)
                expect = .valueOrClose
            case UInt8(ascii: "\""):
                inString = true
                stringIsKey = false
            case UInt8(ascii: "-"): number = .minus
            case UInt8(ascii: "0"): number = .zero
            case UInt8(ascii: "1")...UInt8(ascii: "9"): number = .integer
            case UInt8(ascii: "t"): literal = Array("rue".utf8)
            case UInt8(ascii: "f"): literal = Array("alse".utf8)
            case UInt8(ascii: "n"): literal = Array("ull".utf8)
            default: return false
            }
            return true
        }

        private mutating func close(_ container: Container) -> Bool {
            guard stack.last == container else { return false }
            stack.removeLast()
            if stack.isEmpty {
                finished = true
                expect = .done
            } else {
                expect = .afterValue
            }
            return true
        }

        private mutating func feedString(_ b: UInt8) -> Bool {
            if continuation > 0 {
                guard b >= nextLow && b <= nextHigh else { return false }
                (nextLow, nextHigh) = (0x80, 0xBF)
                continuation -= 1
                return true
            }
            if escape == -1 {
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    escape = 0
                case UInt8(ascii: "u"): escape = 4
                default: return false
                }
                return true
            }
            if escape > 0 {
                guard (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x66) else { return false }
                escape -= 1
                return true
            }
            switch b {
            case UInt8(ascii: "\""):
                inString = false
                expect = stringIsKey ? .colon : .afterValue
            case UInt8(ascii: "\\"): escape = -1
            case 0x00..<0x20: return false
            case 0x20..<0x80: break
            case 0xC2...0xDF: continuation = 1
            case 0xE0: (continuation, nextLow) = (2, 0xA0)
            case 0xED: (continuation, nextHigh) = (2, 0x9F)
            case 0xE1...0xEF: continuation = 2
            case 0xF0: (continuation, nextLow) = (3, 0x90)
            case 0xF1...0xF3: continuation = 3
            case 0xF4: (continuation, nextHigh) = (3, 0x8F)
            default: return false
            }
            return true
        }

        /// The number's state after `b`, or nil when `b` is not part of it.
        private static func numberStep(_ state: NumberState, _ b: UInt8) -> NumberState? {
            let digit = b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")
            switch state {
            case .minus: return b == UInt8(ascii: "0") ? .zero : digit ? .integer : nil
            case .zero: return b == UInt8(ascii: ".") ? .dot : (b | 0x20) == UInt8(ascii: "e") ? .exponentMark : nil
            case .integer:
                return digit ? .integer : b == UInt8(ascii: ".") ? .dot : (b | 0x20) == UInt8(ascii: "e") ? .exponentMark : nil
            case .dot: return digit ? .fraction : nil
            case .fraction: return digit ? .fraction : (b | 0x20) == UInt8(ascii: "e") ? .exponentMark : nil
            case .exponentMark:
                return digit ? .exponent : (b == UInt8(ascii: "+") || b == UInt8(ascii: "-")) ? .exponentSign : nil
            case .exponentSign, .exponent: return digit ? .exponent : nil
            }
        }
    }
}
