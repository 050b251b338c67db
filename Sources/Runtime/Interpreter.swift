#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import StatecraftDiagnostics
import StatecraftModel

/// A run-time failure inside an expression: what went wrong and where in the spec.
public struct ExpressionFault: Error, Sendable, Equatable {
    /// Lowercase description, e.g. "division by zero".
    public var message: String
    /// The expression that failed, in the spec.
    public var range: SourceRange
}

/// An output emitted by the current step: its arguments are
/// `Instance.outputArguments[start ..< start + count]`.
struct PendingOutput: Sendable {
    var output: OutputID
    var start: Int32
    var count: Int32
}

/// The register files and journals one code block works on, borrowed from an instance for
/// the duration of a run.
struct Registers {
    var numbers: [Double]
    var strings: [String]
    /// Each variable assignment of the current step: the register and the value it
    /// replaced, in order, so a failed step can be undone and a trace can say what changed.
    var journal: [(slot: Int32, old: Double)] = []
    var stringJournal: [(slot: Int32, old: String)] = []
    var outputs: [PendingOutput] = []
    var outputArguments: [Value] = []
}

extension Registers {
    /// Runs the code block starting at `start` until its `end`. Type errors cannot happen
    /// (the checker proved types); the only failures are arithmetic ones, reported with the
    /// failing expression's range.
    mutating func execute(_ start: Int32, _ program: Program) throws(ExpressionFault) {
        // Moved out of `self` for the run, so the closure can use the other files too.
        var file = numbers
        numbers = []
        defer { numbers = file }
        let failure: (pc: Int, x: Double, y: Double)? = program.code.withUnsafeBufferPointer { code in
            file.withUnsafeMutableBufferPointer { n in
                var pc = Int(start)
                while true {
                    let i = code[pc]
                    let a = Int(i.a), b = Int(i.b), c = Int(i.c)
                    pc &+= 1
                    switch i.op {
                    case .move: n[a] = n[b]
                    case .add:
                        let r = n[b] + n[c]
                        guard r.isFinite else { return (pc - 1, n[b], n[c]) }
                        n[a] = r
                    case .subtract:
                        let r = n[b] - n[c]
                        guard r.isFinite else { return (pc - 1, n[b], n[c]) }
                        n[a] = r
                    case .multiply:
                        let r = n[b] * n[c]
                        guard r.isFinite else { return (pc - 1, n[b], n[c]) }
                        n[a] = r
                    case .divide:
                        let r = n[b] / n[c]
                        guard n[c] != 0, r.isFinite else { return (pc - 1, n[b], n[c]) }
                        n[a] = r
                    case .remainder:
                        let r = n[b].truncatingRemainder(dividingBy: n[c])
                        guard n[c] != 0, r.isFinite else { return (pc - 1, n[b], n[c]) }
                        n[a] = r
                    case .negate: n[a] = -n[b]
                    case .not: n[a] = n[b] == 0 ? 1 : 0
                    case .less: n[a] = n[b] < n[c] ? 1 : 0
                    case .lessEqual: n[a] = n[b] <= n[c] ? 1 : 0
                    case .greater: n[a] = n[b] > n[c] ? 1 : 0
                    case .greaterEqual: n[a] = n[b] >= n[c] ? 1 : 0
                    case .equal: n[a] = n[b] == n[c] ? 1 : 0
                    case .notEqual: n[a] = n[b] != n[c] ? 1 : 0
                    case .min: n[a] = Swift.min(n[b], n[c])
                    case .max: n[a] = Swift.max(n[b], n[c])
                    case .atan2:
                        let r = Glibc_atan2(n[b], n[c])
                        guard r.isFinite else { return (pc - 1, n[b], n[c]) }
                        n[a] = r
                    case .abs: n[a] = Swift.abs(n[b])
                    case .sqrt:
                        let r = n[b].squareRoot()
                        guard r.isFinite else { return (pc - 1, n[b], 0) }
                        n[a] = r
                    case .floor: n[a] = n[b].rounded(.down)
                    case .ceil: n[a] = n[b].rounded(.up)
                    case .round: n[a] = n[b].rounded(.toNearestOrAwayFromZero)
                    case .jump: pc = a
                    case .jumpIfFalse: if n[b] == 0 { pc = a }
                    case .jumpIfTrue: if n[b] != 0 { pc = a }
                    case .store:
                        journal.append((i.a, n[a]))
                        n[a] = n[b]
                    case .moveString: strings[a] = strings[b]
                    case .concatenate: strings[a] = strings[b] + strings[c]
                    case .equalStrings: n[a] = strings[b] == strings[c] ? 1 : 0
                    case .notEqualStrings: n[a] = strings[b] != strings[c] ? 1 : 0
                    case .storeString:
                        stringJournal.append((i.a, strings[a]))
                        strings[a] = strings[b]
                    case .emit:
                        let site = program.emits[a]
                        outputs.append(PendingOutput(output: site.output, start: Int32(outputArguments.count),
                                                     count: Int32(site.arguments.count)))
                        for (k, r) in site.arguments.enumerated() {
                            let index = Int(r.index)
                            switch r.file {
                            case .number: outputArguments.append(site.isBool[k] ? .bool(n[index] != 0) : .number(n[index]))
                            case .string: outputArguments.append(.string(strings[index]))
                            }
                        }
                    case .fail: return (pc - 1, 0, 0)
                    case .end: return nil
                    }
                }
            }
        }
        if let failure { throw program.fault(at: failure.pc, failure.x, failure.y) }
    }
}

extension Program {
    /// The fault of the instruction at `pc`, which failed on operands `x` and `y`.
    func fault(at pc: Int, _ x: Double, _ y: Double) -> ExpressionFault {
        guard let site = faults[pc] else { return ExpressionFault(message: "internal error at instruction \(pc)", range: SourceRange(0, 0)) }
        let a = Value.number(x), b = Value.number(y)
        let symbol: String = switch code[pc].op {
        case .add: "+"
        case .subtract: "-"
        case .multiply: "*"
        case .divide: "/"
        case .remainder: "%"
        default: "?"
        }
        let message: String
        switch site.style {
        case .message(let text): message = text
        case .call(.atan2): message = "'atan2' of \(a), \(b) is not a finite number"
        case .call(let f): message = "'\(f.rawValue)' of \(a) is not a finite number"
        case .expression where y == 0 && code[pc].op == .divide: message = "division by zero (\(a) / 0)"
        case .expression where y == 0 && code[pc].op == .remainder: message = "remainder by zero (\(a) % 0)"
        case .expression, .compound: message = "\(a) \(symbol) \(b) is not a finite number"
        }
        return ExpressionFault(message: message, range: site.range)
    }
}

@inline(__always)
private func Glibc_atan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
