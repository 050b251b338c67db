import StatecraftModel

/// An over-approximation of the values an expression can take: an interval for numbers,
/// which of true/false for bools, a finite set (or anything) for strings. Used to prove
/// that a guard can never hold.
enum AbstractValue: Equatable, Sendable, CustomStringConvertible {
    case number(lo: Double, hi: Double)
    case bool(canBeFalse: Bool, canBeTrue: Bool)
    /// nil means any string.
    case string(Set<String>?)

    /// How many strings a set may hold before it becomes "any string".
    static let maxStrings = 32

    static let anyNumber = AbstractValue.number(lo: -.infinity, hi: .infinity)
    static let anyBool = AbstractValue.bool(canBeFalse: true, canBeTrue: true)

    /// Every value of a type.
    static func any(_ type: ValueType) -> AbstractValue {
        switch type {
        case .number: anyNumber
        case .bool: anyBool
        case .string: .string(nil)
        }
    }

    /// No value at all: what an expression that always fails evaluates to.
    static func empty(_ type: ValueType) -> AbstractValue {
        switch type {
        case .number: .number(lo: 1, hi: 0)
        case .bool: .bool(canBeFalse: false, canBeTrue: false)
        case .string: .string([])
        }
    }

    /// Exactly one value.
    init(_ value: Value) {
        switch value {
        case .number(let n): self = .number(lo: n, hi: n)
        case .bool(let b): self = .bool(canBeFalse: !b, canBeTrue: b)
        case .string(let s): self = .string([s])
        }
    }

    /// Whether the value can be `true` (for bools).
    var canBeTrue: Bool {
        if case .bool(_, let t) = self { return t }
        return false
    }

    /// Whether the value can be `false` (for bools).
    var canBeFalse: Bool {
        if case .bool(let f, _) = self { return f }
        return false
    }

    /// Whether no value at all is possible (an empty interval: every run fails before).
    var isEmpty: Bool {
        switch self {
        case .number(let lo, let hi): lo > hi
        case .bool(let f, let t): !f && !t
        case .string(let set): set?.isEmpty ?? false
        }
    }

    /// The smallest value covering both.
    func joined(with other: AbstractValue) -> AbstractValue {
        switch (self, other) {
        case (.number(let a, let b), .number(let c, let d)):
            if lo(self) > hi(self) { return other }
            if c > d { return self }
            return .number(lo: Swift.min(a, c), hi: Swift.max(b, d))
        case (.bool(let f1, let t1), .bool(let f2, let t2)):
            return .bool(canBeFalse: f1 || f2, canBeTrue: t1 || t2)
        case (.string(let a?), .string(let b?)):
            let union = a.union(b)
            return .string(union.count > AbstractValue.maxStrings ? nil : union)
        case (.string, .string):
            return .string(nil)
        default:
            return self
        }
    }

    /// Widening: a bound that grew since `previous` jumps to infinity, so loops terminate.
    func widened(from previous: AbstractValue) -> AbstractValue {
        guard case .number(let lo, let hi) = self, case .number(let plo, let phi) = previous, plo <= phi else { return self }
        return .number(lo: lo < plo ? -.infinity : lo, hi: hi > phi ? .infinity : hi)
    }

    private func lo(_ v: AbstractValue) -> Double { if case .number(let l, _) = v { return l } else { return 0 } }
    private func hi(_ v: AbstractValue) -> Double { if case .number(_, let h) = v { return h } else { return 0 } }

    var description: String {
        switch self {
        case .number(let lo, let hi):
            if lo > hi { return "no value" }
            if lo == hi { return Value.number(lo).description }
            let l = lo == -.infinity ? "-∞" : Value.number(lo).description
            let h = hi == .infinity ? "∞" : Value.number(hi).description
            return "in [\(l), \(h)]"
        case .bool(let f, let t):
            return f && t ? "true or false" : t ? "true" : f ? "false" : "no value"
        case .string(let set?):
            return set.sorted().map { Value.string($0).description }.joined(separator: " or ")
        case .string(nil):
            return "any string"
        }
    }
}
