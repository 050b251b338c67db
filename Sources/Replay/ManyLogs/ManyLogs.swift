import Dispatch
import StatecraftDiagnostics
import StatecraftEventLog
import StatecraftRecording
import StatecraftRuntime

/// Replays many logs against one program on several threads, and hands each log's result
/// over in the order the logs were given: whoever prints or adds up the results sees
/// exactly what one thread replaying the logs one after the other would give.
///
/// Each log is replayed on one thread (no reading thread of its own: the logs keep every
/// core busy). At most `window` results wait to be handed over, so memory stays flat in the
/// number of logs however slow one log is compared with the ones after it.
public enum ManyLogs {
    /// What replaying one log gave.
    public enum Outcome: Sendable {
        /// The log was read to its end, or to the malformed line `failure`.
        case replayed(ReplayReport, failure: LogError?)
        /// The log cannot be opened.
        case unreadable(String)
    }

    /// How far a run has come, for a progress display.
    public struct Progress: Sendable {
        /// How many logs have been replayed (or found unreadable) so far.
        public var logsDone: Int
        /// How many logs there are in all.
        public var logs: Int
        /// Events (lines) applied, ignored or rejected in the logs done.
        public var events: Int
    }

    /// Replays `paths` (relative to `context`'s folder) with `jobs` threads, calling `each` on
    /// the calling thread with every log's index and outcome, in order, and `progress` after each.
    public static func replay(_ paths: [String], program: Program, options: Replayer.Options, jobs: Int,
                              in context: InputFile.Context = .process,
                              each: (Int, Outcome) -> Void, progress: ((Progress) -> Void)? = nil) {
        var done = Progress(logsDone: 0, logs: paths.count, events: 0)
        func handOver(_ index: Int, _ outcome: Outcome) {
            each(index, outcome)
            done.logsDone += 1
            if case .replayed(let report, _) = outcome { done.events += report.events }
            progress?(done)
        }
        let jobs = max(1, min(jobs, paths.count))
        if jobs == 1 {
            for (index, path) in paths.enumerated() { handOver(index, replayOne(path, program: program, options: options, in: context)) }
            return
        }
        let slots = ResultSlots(count: paths.count, window: 4 * jobs)
        for _ in 0..<jobs {
            DispatchQueue.global().async {
                while let index = slots.nextIndex() {
                    slots.store(replayOne(paths[index], program: program, options: options, in: context), at: index)
                }
            }
        }
        for index in paths.indices { handOver(index, slots.take(index)) }
    }

    /// Replays one log on this thread.
    public static func replayOne(_ path: String, program: Program, options: Replayer.Options,
                                 in context: InputFile.Context = .process) -> Outcome {
        var reader: EventLogReader
        do {
            reader = try EventLogReader.open(path: path, in: context)
        } catch {
            return .unreadable(error.message)
        }
        return replay(&reader, program: program, options: options)
    }

    /// The one replay loop, behind `replay` (each log, or the ones it traces), `dot
    /// --coverage` and `replayOne`: replays `reader` to its end, or to its first malformed
    /// line, with a fresh replayer, and says what it gave. With `concurrently`, a second
    /// thread reads and stages the lines (for files, not live streams); traced steps go to
    /// `traceBatches` (see `Replayer.replay(_:concurrently:traceBatches:)`).
    package static func replay(_ reader: inout EventLogReader, program: Program, options: Replayer.Options,
                               concurrently: Bool = false,
                               traceBatches: Replayer.TraceSink = { _ in }) -> Outcome {
        var replayer = Replayer(program: program, options: options)
        var failure: LogError?
        do {
            try replayer.replay(&reader, concurrently: concurrently, traceBatches: traceBatches)
        } catch {
            failure = error
        }
        var report = replayer.report
        report.warnings = warnings(of: reader, program: program)
        return .replayed(report, failure: failure)
    }

    /// What the reader found besides records, once per log: a header that does not match
    /// the program's machine and spec, and a cut last line.
    package static func warnings(of reader: EventLogReader, program: Program) -> [LogWarning] {
        var warnings: [LogWarning] = []
        if let header = reader.header {
            // (Fingerprinting lexes the spec: only for a log that has a header.)
            let fingerprint = program.specFingerprint.description
            if let mismatch = header.mismatch(machine: program.machine.name, spec: fingerprint) {
                warnings.append(mismatch)
            }
        }
        return warnings + reader.warnings
    }
}

extension ReplayReport {
    /// Lines that were events (applied, ignored or rejected), over every case.
    public var events: Int { cases.reduce(0) { $0 + $1.applied + $1.ignored + $1.rejected } }
}

/// The results of a parallel run, in a ring of `window` slots: workers take the next index
/// (at most `window` ahead of the one handed over last, so its slot is free) and store its
/// outcome; the calling thread takes them in order.
private final class ResultSlots: @unchecked Sendable {  // `next` is guarded by `lock`; a slot belongs to one thread at a time, handed over by its semaphore
    private let lock = DispatchSemaphore(value: 1)
    private let count: Int
    private var next = 0
    private let room: DispatchSemaphore
    private let outcomes: UnsafeMutableBufferPointer<ManyLogs.Outcome?>
    private let ready: [DispatchSemaphore]

    init(count: Int, window: Int) {
        self.count = count
        room = DispatchSemaphore(value: window)
        outcomes = .allocate(capacity: window)
        outcomes.initialize(repeating: nil)
        ready = (0..<window).map { _ in DispatchSemaphore(value: 0) }
    }

    deinit {
        outcomes.deinitialize()
        outcomes.deallocate()
    }

    /// The next log to replay, once there is room for its result; nil when none is left.
    func nextIndex() -> Int? {
        room.wait()
        lock.wait()
        defer { lock.signal() }
        guard next < count else {
            room.signal()  // (another worker may be waiting to find out the same)
            return nil
        }
        next += 1
        return next - 1
    }

    func store(_ outcome: ManyLogs.Outcome, at index: Int) {
        outcomes[index % outcomes.count] = outcome
        ready[index % outcomes.count].signal()
    }

    /// Waits for log `index`'s outcome, and makes room for one more log.
    func take(_ index: Int) -> ManyLogs.Outcome {
        let slot = index % outcomes.count
        ready[slot].wait()
        let outcome = outcomes[slot]
        outcomes[slot] = nil
        room.signal()
        return outcome ?? .unreadable("internal error: no result for this log")
    }
}
