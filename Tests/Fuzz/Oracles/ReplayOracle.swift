import Foundation
import Statecraft

/// A bundled spec, chosen by the input's first byte, replaying the rest of the input as its
/// log: through full records one by one (the plain reference), in place on one thread, and
/// on two threads (a second one reading and scanning). The three must give the same report,
/// the same trace and stop at the same error. The first byte's higher bits pick the replay's
/// options (strict, trace, settle), so every combination is fuzzed.
public enum ReplayOracle: FuzzOracle {
    public static let name = "replay"

    public static func violations(_ input: [UInt8]) -> [String] {
        guard let first = input.first, !programs.isEmpty else { return [] }
        let program = programs[Int(first) % programs.count]
        let options = Replayer.Options(strict: first & 0x20 != 0, trace: first & 0x40 != 0, settle: first & 0x80 != 0)
        let log = Array(input.dropFirst())
        let reference = referenceOutcome(program, log, options)
        var found: [String] = []
        for concurrently in [false, true] {
            let outcome = replayOutcome(program, log, options, concurrently: concurrently)
            if outcome != reference {
                found.append("\(program.machine.name) \(options): replay(concurrently: \(concurrently)) differs "
                              + "from the records one by one:\n\(outcome)\nversus\n\(reference)")
            }
        }
        return found
    }

    public static func prepare() { _ = programs }

    /// The machines of `Specs/`, compiled once.
    static let programs: [Program] = {
        let specs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Specs").standardizedFileURL
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: specs.path)) ?? [])
            .filter { $0.hasSuffix(".machine") }.sorted()
        return names.compactMap { name in
            guard let data = FileManager.default.contents(atPath: specs.appendingPathComponent(name).path) else { return nil }
            return Statecraft.check(SourceFile(path: name, bytes: Array(data)), bounds: nil).machine.map { Program($0) }
        }
    }()

    /// `next` and `consume` record by record, then what `replay` does at the log's end.
    static func referenceOutcome(_ program: Program, _ log: [UInt8], _ options: Replayer.Options) -> String {
        var reader = EventLogReader(bytes: log)
        var replayer = Replayer(program: program, options: options)
        var trace: [String] = []
        var failure: LogError?
        do {
            while let record = try reader.next() { try replayer.consume(record) { trace.append("\($0)") } }
            replayer.finishInstant(afterLine: reader.linesRead) { trace.append("\($0)") }
            if options.settle { replayer.settle(afterLine: reader.linesRead) { trace.append("\($0)") } }
        } catch {
            failure = error
        }
        return describe(replayer.report, trace, failure)
    }

    static func replayOutcome(_ program: Program, _ log: [UInt8], _ options: Replayer.Options,
                              concurrently: Bool) -> String {
        var reader = EventLogReader(bytes: log)
        var replayer = Replayer(program: program, options: options)
        var trace: [String] = []
        var failure: LogError?
        do {
            try replayer.replay(&reader, concurrently: concurrently, trace: { (step: consuming TraceStep) in trace.append("\(step)") })
        } catch {
            failure = error
        }
        return describe(replayer.report, trace, failure)
    }

    static func describe(_ report: ReplayReport, _ trace: [String], _ failure: LogError?) -> String {
        """
        cases: \(report.cases)
        transitions: \(report.transitionCounts) states: \(report.visitedStates) records: \(report.records)
        trace: \(trace)
        error: \(failure.map { "\($0.line):\($0.column) \($0.message)" } ?? "none")
        """
    }
}
