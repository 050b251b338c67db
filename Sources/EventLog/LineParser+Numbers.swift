extension LineParser {
    /// number = [ "-" ] int [ frac ] [ exp ]; int = "0" / digit1-9 *DIGIT;
    /// frac = "." 1*DIGIT; exp = ( "e" / "E" ) [ "-" / "+" ] 1*DIGIT
    ///
    /// Numbers with at most 19 significant digits and a small exponent are converted exactly
    /// here (Clinger's fast path); the rest go to the standard library's correctly rounded
    /// parser. A number that is not finite as a double is an error.
    mutating func parseNumber() throws(LineFailure) -> Double {
        let start = position
        var i = position
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var digits = DecimalDigits()
        guard i < end, LineParser.isDigit(bytes[i]) else { throw unexpected("a digit after '-'", at: i) }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < end, LineParser.isDigit(bytes[i]) {
                throw LineFailure(offset: i, message: LogMessage.leadingZero())
            }
        } else {
            while i < end, LineParser.isDigit(bytes[i]) {
                digits.addIntegerDigit(bytes[i] &- UInt8(ascii: "0"))
                i += 1
            }
        }
        if i < end, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < end, LineParser.isDigit(bytes[i]) else { throw unexpected("a digit after '.'", at: i) }
            while i < end, LineParser.isDigit(bytes[i]) {
                digits.addFractionDigit(bytes[i] &- UInt8(ascii: "0"))
                i += 1
            }
        }
        if i < end, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var exponentNegative = false
            if i < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < end, LineParser.isDigit(bytes[i]) else { throw unexpected("a digit in the exponent", at: i) }
            var exponent = 0
            while i < end, LineParser.isDigit(bytes[i]) {
                // Past a million the result is 0 or infinite anyway; stop before overflowing.
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(bytes[i] &- UInt8(ascii: "0")) }
                i += 1
            }
            digits.exponent += exponentNegative ? -exponent : exponent
        }
        position = i
        if let value = digits.exactValue {
            return negative ? -value : value
        }
        let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        guard let value = Double(literal), value.isFinite else {
            let shown = literal.count > 24 ? String(literal.prefix(24)) + "…" : literal
            throw LineFailure(offset: start, message: LogMessage.numberOutOfRange(shown))
        }
        return value
    }

    @inline(__always)
    static func isDigit(_ b: UInt8) -> Bool {
        b &- UInt8(ascii: "0") < 10
    }
}

/// The significant digits of a decimal number as an integer mantissa and a power of ten.
struct DecimalDigits {
    var mantissa: UInt64 = 0
    /// Significant digits in `mantissa` (leading zeros do not count).
    var count = 0
    var exponent = 0
    /// False once a nonzero digit had to be dropped.
    var exact = true

    @inline(__always)
    mutating func addIntegerDigit(_ d: UInt8) {
        if count < 19 {
            mantissa = mantissa &* 10 &+ UInt64(d)
            if mantissa != 0 { count += 1 }
        } else {
            exponent += 1
            if d != 0 { exact = false }
        }
    }

    @inline(__always)
    mutating func addFractionDigit(_ d: UInt8) {
        if count < 19 {
            mantissa = mantissa &* 10 &+ UInt64(d)
            if mantissa != 0 { count += 1 }
            exponent -= 1
        } else if d != 0 {
            exact = false
        }
    }

    /// The value when it can be computed with one correctly rounded operation: the mantissa
    /// and the power of ten are both exact doubles.
    var exactValue: Double? {
        if mantissa == 0 { return 0 }
        guard exact, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
        let value = Double(mantissa)
        return exponent < 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
    }
}

/// 10^0 through 10^22: every power of ten that a double holds exactly.
private let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]
