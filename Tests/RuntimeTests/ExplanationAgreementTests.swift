import Foundation
import Statecraft
import Testing
import TestSupport

/// The explanations evaluate guards with the reference evaluator, while replay steps with the
/// compiled code: on random logs of every bundled spec they must agree. Every event the
/// compiled step ignored has only candidates whose guards the explanation finds false (each
/// with at least one culprit), and every event whose step failed has a candidate that was
/// not false (a fault, or a guard that held before an action failed).
@Suite struct ExplanationAgreementTests {
    static let numbers: [Double] = [-400, -120, -68.2, -33, -1, 0, 0.5, 1, 2, 50, 120, 400]
    static let strings = ["", "x", "❤️", "💀"]

    /// `count` random event lines of `machine`, one case, time rising by 0.25 s a line.
    static func randomLog(_ machine: Machine, count: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        var out = ""
        for k in 0..<count {
            let event = machine.events[Int(rng.next() % UInt64(machine.events.count))]
            var line = #"{"time": \#(Double(k) / 4), "event": "\#(event.name)""#
            for field in event.fields {
                let value: String
                switch field.type {
                case .number: value = "\(numbers[Int(rng.next() % UInt64(numbers.count))])"
                case .bool: value = rng.next() % 2 == 0 ? "true" : "false"
                case .string: value = JSONWriter.quote(strings[Int(rng.next() % UInt64(strings.count))])
                }
                line += #", "\#(field.name)": \#(value)"#
            }
            out += line + "}\n"
        }
        return Array(out.utf8)
    }

    @Test(arguments: Repository.specFiles())
    func explanationsAgreeWithTheCompiledSteps(spec: URL) throws {
        let result = Statecraft.check(SourceFile(path: spec.lastPathComponent, bytes: Repository.bytes(spec)), bounds: nil)
        let machine = try #require(result.machine)
        let program = Program(machine)
        var explained = 0
        for seed in UInt64(1)...4 {
            var replayer = Replayer(program: program, options: Replayer.Options(explain: true))
            var reader = EventLogReader(bytes: Self.randomLog(machine, count: 90, seed: seed))
            try replayer.replay(&reader)
            for c in replayer.report.cases {
                let events = (c.explanations ?? []).compactMap { e -> EventExplanation? in
                    if case .event(let x) = e { return x }
                    return nil
                }
                #expect(events.filter { $0.outcome == .ignored }.count == c.ignored)
                for e in events where !e.afterFinal {
                    explained += 1
                    let falseOnes = e.candidates.filter {
                        if case .isFalse(let culprits) = $0.verdict { return !culprits.isEmpty }
                        return false
                    }
                    if e.outcome == .ignored {
                        #expect(falseOnes.count == e.candidates.count, "line \(e.line) \(e.event): \(e.candidates)")
                    } else {
                        #expect(falseOnes.count < e.candidates.count, "line \(e.line) \(e.event): \(e.candidates)")
                    }
                }
            }
        }
        #expect(explained > 0, "no event was ignored in \(spec.lastPathComponent)")
    }
}
