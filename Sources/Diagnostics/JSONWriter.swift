/// Pieces for writing JSON by hand, so keys come in a fixed order and output is
/// byte-for-byte deterministic.
///
/// Each piece comes twice: as a String, and appended to a `ByteBuffer` (for output written
/// in bulk, such as replay traces). The String forms are built from the byte forms.
package enum JSONWriter {
    /// Quotes and escapes a string as a JSON string literal.
    package static func quote(_ s: String) -> String {
        StringEscaping.quoted(s, style: .json)
    }

    /// Formats a number the way JSON expects: integers without a fraction, no NaN or infinity.
    package static func number(_ value: Double) -> String {
        var out = ByteBuffer(capacity: 32)
        appendNumber(value, to: &out)
        return out.text
    }

    /// `quote(s)`, appended to `out`.
    package static func appendQuoted(_ s: String, to out: inout ByteBuffer) {
        StringEscaping.appendQuoted(s, style: .json, to: &out)
    }

    /// `number(value)`, appended to `out`: integers (below 10^15) without a fraction, other
    /// finite numbers as Swift's shortest round-trip `description`, NaN and infinity as `null`.
    package static func appendNumber(_ value: Double, to out: inout ByteBuffer) {
        guard value.isFinite else {
            out.append("null")
            return
        }
        if abs(value) < 1e15, Double(Int64(value)) == value {
            appendInteger(Int64(value), to: &out)
        } else if !appendShortDecimal(value, to: &out) && !appendShortest(value, to: &out) {
            // `description`'s text without building the String: Double writes its ASCII
            // digits to a text stream in one piece.
            var text = NumberText()
            value.write(to: &text)
            text.withBytes { out.append($0) }
        }
    }

    /// Appends an integer in decimal.
    package static func appendInteger(_ value: Int64, to out: inout ByteBuffer) {
        out.append(upTo: 20) { p in
            var n = 0
            if value < 0 {
                p[0] = UInt8(ascii: "-")
                n = 1
            }
            let digits = digitCount(value.magnitude)
            writeDigits(value.magnitude, count: digits, endingAt: p + n + digits)
            return n + digits
        }
    }

    /// How many decimal digits `n` has (1 for 0): log10 estimated from the bit length
    /// (1233 / 4096 ≈ log10 2), then one comparison.
    @inline(__always)
    static func digitCount(_ n: UInt64) -> Int {
        let bits = 64 - (n | 1).leadingZeroBitCount
        let guess = (bits &* 1233) &>> 12
        return Swift.max(1, guess + (n >= powerOfTen(guess) ? 1 : 0))
    }

    /// Writes `n`, which is below 10^`count`, as `count` decimal digits (with leading zeros)
    /// just before `end`. More than eight digits are written as the last eight and the rest,
    /// each in 32-bit arithmetic, which divides by constants in fewer instructions.
    @inline(__always)
    static func writeDigits(_ n: UInt64, count: Int, endingAt end: UnsafeMutablePointer<UInt8>) {
        guard count > 8 else {
            writeDigits32(UInt32(truncatingIfNeeded: n), count: count, endingAt: end)
            return
        }
        let high = n / 100_000_000
        writeDigits32(UInt32(truncatingIfNeeded: n &- high &* 100_000_000), count: 8, endingAt: end)
        if count > 16 {
            let top = high / 100_000_000
            writeDigits32(UInt32(truncatingIfNeeded: high &- top &* 100_000_000), count: 8, endingAt: end - 8)
            writeDigits32(UInt32(truncatingIfNeeded: top), count: count - 16, endingAt: end - 16)
        } else {
            writeDigits32(UInt32(truncatingIfNeeded: high), count: count - 8, endingAt: end - 8)
        }
    }

    /// `writeDigits` for a number below 10^`count` that fits 32 bits.
    @inline(__always)
    private static func writeDigits32(_ n: UInt32, count: Int, endingAt end: UnsafeMutablePointer<UInt8>) {
        var rest = n
        var p = end
        var left = count
        // Two digits per division; the tens of a pair below 100 are (pair × 103) >> 10.
        while left >= 2 {
            let pair = rest % 100
            rest /= 100
            let tens = (pair &* 103) &>> 10
            p -= 2
            p[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: tens)
            p[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair &- tens &* 10)
            left &-= 2
        }
        if left == 1 {
            p -= 1
            p.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
        }
    }

    /// Writes a number with a short decimal fraction (`602.6`, `-0.125`, `1.342`) exactly as
    /// `value.description` does, without building a String; false (nothing written) for
    /// numbers it does not handle.
    ///
    /// It takes the most fraction digits `d` with `|value| × 10^d < 2^43`, rounds
    /// `|value| × 10^d` to an integer and keeps it if that decimal converts back to `value`
    /// exactly, then drops its trailing zeros. With `|value| × 10^d < 2^43`, decimals of `d`
    /// digits are spaced hundreds of times wider than the doubles near `value`, so at most one
    /// of them converts back to `value` and the rounding finds it; the shortest round-trip
    /// form that `description` prints is that same decimal without its trailing zeros.
    /// Magnitudes from 0.001 to 10^9 are printed in plain notation, never with an exponent.
    static func appendShortDecimal(_ value: Double, to out: inout ByteBuffer) -> Bool {
        let magnitude = abs(value)
        guard magnitude >= 1e-3 && magnitude < 1e9 else { return false }
        let thousandths = magnitude * 1000
        // Below 10^12, so it converts exactly (truncating), in one instruction as an Int64.
        let wholeThousandths = Int64(thousandths)
        if Double(wholeThousandths) == thousandths && Double(wholeThousandths) / 1000 == magnitude {
            // Most numbers in logs have at most three decimals: 3 digits (never more than the
            // rule below gives), no search for the scale, and divisions by constants.
            let scaled = UInt64(wholeThousandths)
            var fraction = scaled % 1000
            var digits = 3
            if fraction % 10 == 0 {
                fraction /= 10
                digits = 2
                if fraction % 10 == 0 {
                    fraction /= 10
                    digits = 1
                }
            }
            appendDecimal(whole: scaled / 1000, fraction: fraction, digits: digits, negative: value < 0, to: &out)
            return true
        }
        // magnitude < 2^(exponent + 1), so magnitude × 10^digits < 2^43 when
        // digits <= (42 - exponent) × log10(2); from 3 (near 10^9) to 15 (near 0.001).
        let exponent = Int((magnitude.bitPattern >> 52) & 0x7FF) - 1023  // a normal number here
        var digits = Int(Double(42 - exponent) * 0.301029995663981)
        let scale = Double(powerOfTen(digits))  // exact: powers of ten up to 10^22 are doubles
        var scaled = UInt64(magnitude * scale + 0.5)
        guard Double(scaled) / scale == magnitude else { return false }
        // Drop the trailing zeros (fewer than `digits`, as `value` is no integer): 8, 4, 2, 1
        // at a time, dividing by constants (which compile to multiplications).
        stripZeros(8, 100_000_000, from: &scaled, &digits)
        stripZeros(4, 10_000, from: &scaled, &digits)
        stripZeros(2, 100, from: &scaled, &digits)
        stripZeros(1, 10, from: &scaled, &digits)
        let power = powerOfTen(digits)
        let whole = scaled / power
        appendDecimal(whole: whole, fraction: scaled &- whole &* power, digits: digits, negative: value < 0, to: &out)
        return true
    }

    /// Writes a number from 0.001 to 10^9 (in magnitude) exactly as `value.description` does,
    /// for any number of digits: the decimal with the fewest digits that converts back to
    /// `value`, and of those the closest to it. False (nothing written) outside that range.
    ///
    /// `value` is m × 2^e exactly; the doubles next to it are a spacing (2^e, or 2^(e-1)
    /// below a power of two) away, so the decimals that convert back to it are those within
    /// half a spacing. In units of 2^(e-2) that interval and `value` are integers, and so are they times
    /// 10^p: a 128-bit product, shifted down, tells exactly which decimals with p fraction
    /// digits lie in it. The search starts at 13 to 15 significant digits, where at most one
    /// decimal fits (so dropping its trailing zeros gives the shortest, as
    /// `appendShortDecimal` argues), and goes up one digit at a time; 17 always suffice.
    static func appendShortest(_ value: Double, to out: inout ByteBuffer) -> Bool {
        let magnitude = abs(value)
        guard magnitude >= 1e-3 && magnitude < 1e9 else { return false }
        let biased = Int((magnitude.bitPattern >> 52) & 0x7FF)  // a normal number here
        let fraction = magnitude.bitPattern & ((1 << 52) - 1)
        let m = fraction | (1 << 52)                            // magnitude = m × 2^(biased - 1075)
        let shift = 1077 - biased                               // the unit 2^(e-2) is 2^-shift: 25 ... 64
        let centre = m << 2
        let low = centre - (fraction == 0 ? 1 : 2)              // the gap below a power of two is half
        let high = centre + 2
        // floor(log10(magnitude)) give or take one (log10 of the power of two below, truncated).
        let exponent10 = Int(Double(biased - 1023) * 0.30102999566398119)
        var places = Swift.max(0, 13 - exponent10)
        while places <= 19 {
            let scale = powerOfTen(places)
            // The integers N with low × 10^places < N × 2^shift < high × 10^places. The ends
            // are odd multiples of the unit (or of half of it), so they are never decimals of
            // 19 places or fewer (2^shift would have to divide them times 10^places): whether
            // they count, as for an even m, never arises.
            guard let below = Wide(low, times: scale).shiftedDown(shift),
                  let last = Wide(high, times: scale).shiftedDown(shift) else { return false }
            if below < last {
                // The closest to the value (half to even), kept inside the interval.
                let mid = Wide(centre, times: scale)
                guard var n = mid.shiftedDown(shift) else { return false }
                let rest = mid.remainderVersusHalf(shift)
                if rest > 0 || (rest == 0 && n & 1 == 1) { n += 1 }
                appendFixed(Swift.min(Swift.max(n, below + 1), last), places: places, negative: value < 0, to: &out)
                return true
            }
            places += 1
        }
        return false
    }

    /// A 128-bit product, as two words (`UInt128` needs macOS 15).
    private struct Wide {
        var high: UInt64
        var low: UInt64

        @inline(__always)
        init(_ a: UInt64, times b: UInt64) {
            (high, low) = a.multipliedFullWidth(by: b)
        }

        /// The product divided by 2^`s` (0 < `s` < 128), rounded down; nil when that does
        /// not fit 64 bits (then the caller writes the number another way).
        @inline(__always)
        func shiftedDown(_ s: Int) -> UInt64? {
            if s >= 64 { return high &>> (s &- 64) }
            guard high &>> s == 0 else { return nil }
            return high &<< (64 &- s) | low &>> s
        }

        /// The product modulo 2^`s` (0 < `s` < 128) against 2^(`s` - 1): -1 below, 0 equal,
        /// 1 above.
        @inline(__always)
        func remainderVersusHalf(_ s: Int) -> Int {
            let restHigh = s >= 64 ? high & ((1 &<< (s &- 64)) &- 1) : 0
            let restLow = s >= 64 ? low : low & ((1 &<< s) &- 1)
            let halfHigh: UInt64 = s > 64 ? 1 &<< (s &- 65) : 0
            let halfLow: UInt64 = s > 64 ? 0 : 1 &<< (s &- 1)
            if restHigh != halfHigh { return restHigh < halfHigh ? -1 : 1 }
            if restLow != halfLow { return restLow < halfLow ? -1 : 1 }
            return 0
        }
    }

    /// Writes `scaled` / 10^`places` (with its sign) without trailing fraction zeros, but
    /// with one fraction digit at least (`description` writes `2.0`).
    private static func appendFixed(_ scaled: UInt64, places: Int, negative: Bool, to out: inout ByteBuffer) {
        var scaled = scaled, places = places
        while places > 1 && scaled % 10 == 0 {
            scaled /= 10
            places -= 1
        }
        let power = powerOfTen(places)
        let whole = scaled / power
        appendDecimal(whole: whole, fraction: scaled &- whole &* power, digits: Swift.max(places, 1), negative: negative,
                      to: &out)
    }

    /// Writes `whole`.`fraction` with its sign, the fraction as `digits` digits (with its
    /// leading zeros; `fraction` < 10^`digits`).
    @inline(__always)
    private static func appendDecimal(whole: UInt64, fraction: UInt64, digits: Int, negative: Bool,
                                      to out: inout ByteBuffer) {
        let wholeDigits = digitCount(whole)
        out.append(upTo: 1 + wholeDigits + 1 + digits) { p in
            var n = 0
            if negative {
                p[0] = UInt8(ascii: "-")
                n = 1
            }
            writeDigits(whole, count: wholeDigits, endingAt: p + n + wholeDigits)
            n += wholeDigits
            p[n] = UInt8(ascii: ".")
            writeDigits(fraction, count: digits, endingAt: p + n + 1 + digits)
            return n + 1 + digits
        }
    }

    /// Divides `scaled` by `power` (10^`count`) when it is a multiple and has that many
    /// fraction `digits` to lose. Inlined, so `power` is a constant at each use.
    @inline(__always)
    private static func stripZeros(_ count: Int, _ power: UInt64, from scaled: inout UInt64, _ digits: inout Int) {
        if digits >= count && scaled % power == 0 {
            scaled /= power
            digits -= count
        }
    }

    /// 10^k for 0 ≤ k ≤ 19 (a switch: no lazily initialised table to check on every use).
    @inline(__always)
    static func powerOfTen(_ k: Int) -> UInt64 {
        switch k {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        default: 10_000_000_000_000_000_000
        }
    }
}

/// The text of one number, as `Double.write(to:)` produces it (the same as `description`):
/// the digits arrive through `_writeASCII`, the stream's hook for ASCII text, and stay in a
/// fixed buffer; anything else arrives as a String and is kept too.
private struct NumberText: TextOutputStream {
    /// Room for the longest `description` of a Double (`-2.2250738585072014e-308`) and more.
    private var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
    private var count = 0
    /// Text that did not fit, or did not come as ASCII.
    private var overflow: [UInt8] = []

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        append(buffer)
    }

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { append($0) }
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        let capacity = MemoryLayout.size(ofValue: storage)
        if overflow.isEmpty && count + bytes.count <= capacity, let source = bytes.baseAddress {
            let start = count
            withUnsafeMutableBytes(of: &storage) { raw in
                guard let base = raw.baseAddress else { return }
                (base + start).copyMemory(from: source, byteCount: bytes.count)
            }
            count += bytes.count
        } else {
            if overflow.isEmpty {
                var kept: [UInt8] = []
                withBytes { kept.append(contentsOf: $0) }
                overflow = kept
            }
            overflow.append(contentsOf: bytes)
        }
    }

    /// Calls `body` with the text's bytes.
    func withBytes(_ body: (UnsafeRawBufferPointer) -> Void) {
        if !overflow.isEmpty {
            overflow.withUnsafeBytes(body)
            return
        }
        withUnsafeBytes(of: storage) { raw in body(UnsafeRawBufferPointer(rebasing: raw[0..<count])) }
    }
}
