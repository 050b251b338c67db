import Foundation
import Statecraft
import Testing
import TestSupport

/// Random lines written by `EventLogWriter` and read back by `EventLogReader` are the lines
/// that were written: names, keys and strings with every control character, quotes,
/// backslashes and non-ASCII; numbers to the bit; cases; expectations of every form.
@Suite struct WriterReaderPropertyTests {
    /// What a line said, in the writer's terms.
    enum Line: Equatable {
        case event(name: String, time: Double?, caseKey: LogCase?, payload: [Field])
        case expect(LogExpectation, time: Double?, caseKey: LogCase?)
    }

    struct Field: Equatable {
        var key: String
        var value: LogValue
    }

    static let scalars: [Unicode.Scalar] = (0..<0x20).map { Unicode.Scalar(UInt8($0)) }
        + ["\"", "\\", "/", "a", "Z", " ", "é", "€", "😀", "\u{7F}", "\u{85}", "\u{2028}", "\u{FEFF}", "\u{301}", "\u{10FFFF}"]

    static func string(_ rng: inout SeededGenerator, maxLength: Int = 12) -> String {
        var s = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...maxLength, using: &rng) {
            s.append(scalars.randomElement(using: &rng)!)
        }
        return String(s)
    }

    /// Any finite double: random bit patterns (subnormals and huge ones included), and the
    /// values where formatting goes wrong if it does.
    static func number(_ rng: inout SeededGenerator) -> Double {
        let special: [Double] = [0, -0.0, 1, -1, 0.1, 0.30000000000000004, 9_007_199_254_740_992, 9_007_199_254_740_994,
                                 -9_007_199_254_740_992, 1e21, 1e-7, .leastNonzeroMagnitude, .leastNormalMagnitude,
                                 .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 312.5, 600, 123456789.125]
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return special.randomElement(using: &rng)!
        case 1: return Double(Int.random(in: -1_000_000...1_000_000, using: &rng))
        default:
            while true {
                let d = Double(bitPattern: UInt64.random(in: .min ... .max, using: &rng))
                if d.isFinite { return d }
            }
        }
    }

    static func value(_ rng: inout SeededGenerator) -> LogValue {
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: .number(number(&rng))
        case 1: .bool(Bool.random(using: &rng))
        default: .string(string(&rng))
        }
    }

    static func caseKey(_ rng: inout SeededGenerator) -> LogCase? {
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: nil
        case 1: .number(Int.random(in: -(1 << 53)...(1 << 53), using: &rng))
        default: .name(string(&rng))
        }
    }

    static func line(_ rng: inout SeededGenerator) -> Line {
        let time: Double? = Bool.random(using: &rng) ? number(&rng) : nil
        let key = caseKey(&rng)
        if Int.random(in: 0..<3, using: &rng) > 0 {
            // Keys are unique and not reserved: a position makes them so (`recording` is an
            // ordinary payload field on an event line).
            let payload = (0..<Int.random(in: 0...4, using: &rng)).map { k in
                Field(key: k == 3 ? "recording" : string(&rng, maxLength: 4) + "#\(k)", value: value(&rng))
            }
            return .event(name: string(&rng), time: time, caseKey: key, payload: payload)
        }
        var expectation = LogExpectation()
        repeat {
            if Bool.random(using: &rng) { expectation.states = (0..<Int.random(in: 1...3, using: &rng)).map { _ in string(&rng) } }
            if Bool.random(using: &rng) {
                expectation.vars = (0..<Int.random(in: 0...3, using: &rng)).map { .init(string(&rng, maxLength: 3) + "#\($0)", value(&rng)) }
            }
            if Bool.random(using: &rng) {
                expectation.outputs = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                    ExpectedOutput(string(&rng), arguments: Bool.random(using: &rng)
                                   ? (0..<Int.random(in: 0...3, using: &rng)).map { _ in value(&rng) } : nil)
                }
            }
        } while expectation == LogExpectation()
        return .expect(expectation, time: time, caseKey: key)
    }

    static func write(_ line: Line, to writer: EventLogWriter) throws {
        switch line {
        case .event(let name, let time, let caseKey, let payload):
            try writer.event(name, time: time, case: caseKey) { fields throws(EventLogWriter.Failure) in
                for field in payload { try fields.value(field.key, field.value) }
            }
        case .expect(let expectation, let time, let caseKey):
            try writer.expect(expectation, time: time, case: caseKey)
        }
    }

    /// The line a record read back says, in the writer's terms (a case comes back as the
    /// string the reader keys cases by: 7 as "7").
    static func read(_ record: LogRecord) -> Line {
        let caseKey = record.caseKey.map { LogCase.name($0) }
        switch record.body {
        case .event(let name, _, let payload):
            return .event(name: name, time: record.time, caseKey: caseKey,
                          payload: payload.map { Field(key: $0.key, value: logValue($0.value)) })
        case .expect(let e):
            let outputs = e.outputs.map { names in
                names.indices.map { k in
                    ExpectedOutput(names[k], arguments: e.outputArguments?[k].map { $0.values.map(logValue) })
                }
            }
            return .expect(LogExpectation(states: e.states, vars: e.vars?.map { .init($0.key, logValue($0.value)) }, outputs: outputs),
                           time: record.time, caseKey: caseKey)
        }
    }

    static func logValue(_ json: JSONValue) -> LogValue {
        switch json {
        case .number(let n): .number(n)
        case .bool(let b): .bool(b)
        case .string(let s): .string(s)
        default: .string("unexpected \(json)")
        }
    }

    /// What the reader gives back for a written line: cases as their strings.
    static func expected(_ line: Line) -> Line {
        func key(_ c: LogCase?) -> LogCase? {
            switch c {
            case .number(let n)?: .name(String(n))
            default: c
            }
        }
        switch line {
        case .event(let name, let time, let c, let payload): return .event(name: name, time: time, caseKey: key(c), payload: payload)
        case .expect(let e, let time, let c): return .expect(e, time: time, caseKey: key(c))
        }
    }

    /// Numbers compared by bit pattern (`==` takes 0 for -0).
    static func bits(_ line: Line) -> [UInt64] {
        func of(_ v: LogValue) -> [UInt64] { if case .number(let n) = v { [n.bitPattern] } else { [] } }
        switch line {
        case .event(_, let time, _, let payload):
            return [time?.bitPattern ?? 1] + payload.flatMap { of($0.value) }
        case .expect(let e, let time, _):
            return [time?.bitPattern ?? 1] + (e.vars ?? []).flatMap { of($0.value) }
                + (e.outputs ?? []).flatMap { ($0.arguments ?? []).flatMap(of) }
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomLinesReadBackAsWritten(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let lines = (0..<500).map { _ in Self.line(&rng) }
        var bytes: [UInt8] = []
        let writer = EventLogWriter(bufferSize: 1000) { bytes += $0 }
        try writer.header(machine: Self.string(&rng), specText: "machine M { initial state a }")
        for line in lines { try Self.write(line, to: writer) }
        try writer.close()
        var reader = EventLogReader(bytes: bytes)
        var k = 0
        while let record = try reader.next() {
            let read = Self.read(record)
            #expect(read == Self.expected(lines[k]), "line \(k + 2): \(String(decoding: record.text, as: UTF8.self))")
            #expect(Self.bits(read) == Self.bits(lines[k]), "line \(k + 2)")
            k += 1
        }
        #expect(k == lines.count)
        #expect(reader.header?.spec == SpecFingerprint(specText: "machine M { initial state a }").description)
        #expect(reader.warnings.isEmpty)
    }
}
