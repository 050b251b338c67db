/// The values a number register may hold: within `low ... high`, or NaN where `maybeNaN`.
/// What `Program.stepRanges` carries along a step's code.
struct ValueRange: Sendable, Equatable {
    var low: Double
    var high: Double
    var maybeNaN: Bool

    /// Nothing known.
    static let any = ValueRange(low: -.infinity, high: .infinity, maybeNaN: true)
    /// A finite number, nothing else known: what an operation the interpreter checks for
    /// finiteness leaves when the step goes on (when it is not finite, the step fails).
    static let finite = ValueRange(low: -.greatestFiniteMagnitude, high: .greatestFiniteMagnitude, maybeNaN: false)
    /// A Bool as the number file holds it.
    static let bool = ValueRange(low: 0, high: 1, maybeNaN: false)

    static func exactly(_ v: Double) -> ValueRange {
        v.isNaN ? ValueRange(low: -.infinity, high: .infinity, maybeNaN: true) : ValueRange(low: v, high: v, maybeNaN: false)
    }

    func union(_ other: ValueRange) -> ValueRange {
        ValueRange(low: Swift.min(low, other.low), high: Swift.max(high, other.high), maybeNaN: maybeNaN || other.maybeNaN)
    }

    /// `Swift.min(x, y)`, which is `y < x ? y : x`: NaN comes only from `x`, and where `y` is
    /// NaN the result is `x`.
    static func min(_ x: ValueRange, _ y: ValueRange) -> ValueRange {
        ValueRange(low: Swift.min(x.low, y.low), high: y.maybeNaN ? x.high : Swift.min(x.high, y.high), maybeNaN: x.maybeNaN)
    }

    /// `Swift.max(x, y)`, which is `y >= x ? y : x`: NaN comes only from `x`, and where `y`
    /// is NaN the result is `x`.
    static func max(_ x: ValueRange, _ y: ValueRange) -> ValueRange {
        ValueRange(low: y.maybeNaN ? x.low : Swift.max(x.low, y.low), high: Swift.max(x.high, y.high), maybeNaN: x.maybeNaN)
    }

    /// A result the interpreter checks for finiteness, within `low ... high` as worked out
    /// (a bound that is not a number, such as infinity minus infinity, says nothing).
    static func checked(_ low: Double, _ high: Double) -> ValueRange {
        ValueRange(low: low.isNaN ? -.greatestFiniteMagnitude : Swift.max(low, -.greatestFiniteMagnitude),
                   high: high.isNaN ? .greatestFiniteMagnitude : Swift.min(high, .greatestFiniteMagnitude), maybeNaN: false)
    }
}

extension ValueRange {
    /// Whether `x op y` holds for every value of the two ranges (true), for none (false),
    /// or depends on the values (nil). A comparison with NaN is false, and `!=` true.
    /// `same`: `x` and `y` are one register, so one value (`q != q` is true only for NaN).
    static func compare(_ op: CompiledProperty.QuickTest.Op, _ x: ValueRange, _ y: ValueRange, same: Bool = false) -> Bool? {
        let nan = x.maybeNaN || y.maybeNaN
        if same {
            switch op {
            case .less, .greater: return false
            case .lessEqual, .greaterEqual, .equal: return nan ? nil : true
            case .notEqual: return nan ? nil : false
            default: break
            }
        }
        switch op {
        case .less:
            if x.low >= y.high { return false }
            return !nan && x.high < y.low ? true : nil
        case .lessEqual:
            if x.low > y.high { return false }
            return !nan && x.high <= y.low ? true : nil
        case .greater:
            if x.high <= y.low { return false }
            return !nan && x.low > y.high ? true : nil
        case .greaterEqual:
            if x.high < y.low { return false }
            return !nan && x.low >= y.high ? true : nil
        case .equal:
            if x.high < y.low || y.high < x.low { return false }
            return !nan && x.low == x.high && y.low == y.high && x.low == y.low ? true : nil
        case .notEqual:
            return compare(.equal, x, y).map { !$0 }
        case .truthy:
            if x.low > 0 || x.high < 0 { return true }  // NaN is not 0 either
            return !x.maybeNaN && x.low == 0 && x.high == 0 ? false : nil
        case .falsy:
            return compare(.truthy, x, y).map { !$0 }
        case .equalStrings, .notEqualStrings, .active, .inactive, .leaf, .notLeaf:
            return nil
        }
    }
}

extension Program {
    /// By transition: the range each number variable is in after a straight-line step that
    /// fires it, whatever the event's payload and the variables' values before (nil where a
    /// path to the `fire` leaves the variable as it was, or nothing is known of it).
    ///
    /// Read off the code like `variablesWritten`: code only jumps forward, so one pass over
    /// a block carries to each instruction the ranges of the registers its paths wrote, and
    /// joins them where paths meet. A guard's test does not narrow them (a path is followed
    /// whichever way it goes). An operation the interpreter checks for finiteness leaves a
    /// finite number, since a step whose result is not finite fails and fires nothing.
    ///
    /// What it is for: a property a step's writes settle (`always 0 <= progress && progress
    /// <= 1` after `progress = min(max(v, 0), 1)`) need not be judged after that step
    /// (`PropertyWatch.settledBy`).
    static func stepRanges(code: [Instruction], blocks: [Int32], variableCount: Int, transitionCount: Int,
                           constants: Range<Int>, initialNumbers: [Double]) -> [[ValueRange?]] {
        typealias Ranges = [Int32: ValueRange]
        var after: [[ValueRange?]?] = Array(repeating: nil, count: transitionCount)
        func range(_ r: Int32, _ known: Ranges) -> ValueRange {
            if let v = known[r] { return v }
            if constants.contains(Int(r)), Int(r) < initialNumbers.count { return .exactly(initialNumbers[Int(r)]) }
            return .any
        }
        // Where two paths meet: a register one of them did not write holds whatever it held.
        func join(_ a: Ranges?, _ b: Ranges) -> Ranges {
            guard let a else { return b }
            var joined: Ranges = [:]
            for (r, v) in a { if let w = b[r] { joined[r] = v.union(w) } }
            return joined
        }
        for start in Set(blocks) where start >= 0 {
            var current: Ranges? = [:]
            var jumps: [Int: Ranges] = [:]
            var pc = Int(start)
            while pc < code.count {
                if let arriving = jumps.removeValue(forKey: pc) { current = current.map { join($0, arriving) } ?? arriving }
                guard var known = current else {
                    if jumps.isEmpty { break }
                    pc += 1
                    continue
                }
                let i = code[pc]
                let b = range(i.b, known), c = range(i.c, known)
                switch i.op {
                case .jump:
                    jumps[Int(i.a)] = join(jumps[Int(i.a)], known)
                    current = nil
                case .jumpIfFalse, .jumpIfTrue, .jumpUnlessLess, .jumpUnlessLessEqual, .jumpUnlessGreater,
                     .jumpUnlessGreaterEqual, .jumpUnlessEqual, .jumpUnlessNotEqual:
                    jumps[Int(i.a)] = join(jumps[Int(i.a)], known)
                case .fire:
                    if i.a >= 0 && Int(i.a) < transitionCount {
                        let ranges = (0..<variableCount).map { v in known[Int32(v)] }
                        after[Int(i.a)] = after[Int(i.a)].map { seen in
                            zip(seen, ranges).map { s, r in
                                guard let s, let r else { return nil }
                                return s.union(r)
                            }
                        } ?? ranges
                    }
                    current = nil
                case .end:
                    current = nil
                default:
                    guard CodeGenerator.writesNumberRegister(i.op) else { break }
                    let d = range(Int32(i.ud), known)
                    let result: ValueRange = switch i.op {
                    case .move: b
                    case .add: .checked(b.low + c.low, b.high + c.high)
                    case .subtract: .checked(b.low - c.high, b.high - c.low)
                    case .multiply, .divide, .remainder, .atan2, .sqrt: .finite
                    case .negate: ValueRange(low: -b.high, high: -b.low, maybeNaN: b.maybeNaN)
                    case .min: .min(b, c)
                    case .max: .max(b, c)
                    case .clamp: .min(.max(b, c), d)
                    case .select: c.union(d)
                    case .not, .less, .lessEqual, .greater, .greaterEqual, .equal, .notEqual, .equalStrings,
                         .notEqualStrings, .isActive:
                        .bool
                    case .abs:
                        ValueRange(low: b.low >= 0 ? b.low : b.high <= 0 ? -b.high : 0,
                                   high: Swift.max(Swift.abs(b.low), Swift.abs(b.high)), maybeNaN: b.maybeNaN)
                    case .floor, .ceil, .round:
                        ValueRange(low: b.low.rounded(.down), high: b.high.rounded(.up), maybeNaN: b.maybeNaN)
                    default: .any
                    }
                    known[i.a] = result
                    current = known
                }
                if current == nil && jumps.isEmpty { break }
                pc += 1
            }
        }
        return after.map { $0 ?? Array(repeating: nil, count: variableCount) }
    }
}
