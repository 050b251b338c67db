import Dispatch
import Statecraft

/// Formats and writes a log's trace on a second thread: the replaying thread only records
/// the steps (`TraceBatch`) and hands them over a batch at a time, so a trace streams at
/// the speed of the slower of the two halves instead of their sum.
///
/// Steps keep their order: batches go through a ring in sequence, and one thread formats
/// them all. While the thread runs it owns `output`; `finish()` waits until it has formatted
/// every step, after which the caller may use `output` again.
final class TraceThread: @unchecked Sendable {  // each batch is handed over through the ring
    /// One place in the ring, filled by one thread, then emptied by the other.
    private final class Chunk {
        var batch: TraceBatch
        /// The last chunk: the formatting thread stops after it.
        var isLast = false

        init(_ program: Program) {
            batch = TraceBatch(program: program)
        }
    }

    private let output: ReplayOutput
    private let log: String
    private let program: Program
    private let chunks: HandOffRing<Chunk>
    private let finished = DispatchSemaphore(value: 0)
    private var isFinished = false

    /// Starts the formatting thread, which writes `log`'s steps of `program` to `output`.
    init(output: ReplayOutput, log: String, program: Program) {
        self.output = output
        self.log = log
        self.program = program
        chunks = HandOffRing(depth: 3) { Chunk(program) }
        DispatchQueue.global().async { self.format() }
    }

    /// Takes the steps of `batch` for writing (from the replaying thread): `batch` is left
    /// holding a batch written before, for the replayer to empty and fill again.
    func take(_ batch: inout TraceBatch) {
        handOver(&batch, last: false)
    }

    /// Waits until every step taken is written to `output`'s buffer. Call it once, from the
    /// replaying thread, before using `output`.
    func finish() {
        guard !isFinished else { return }
        isFinished = true
        var none = TraceBatch(program: program)
        handOver(&none, last: true)
        finished.wait()
    }

    private func handOver(_ batch: inout TraceBatch, last: Bool) {
        let chunk = chunks.slotToFill()
        // Swap, so the batches' storage is reused; the strings of the batch formatted from
        // this chunk before are released by the replayer when it empties it, on the thread
        // that made them (glibc's malloc is much slower when memory is freed on another
        // thread than the one that allocates it).
        swap(&chunk.batch, &batch)
        chunk.isLast = last
        chunks.filled()
    }

    /// The formatting thread.
    private func format() {
        while true {
            let chunk = chunks.slotToEmpty()
            output.steps(chunk.batch, log: log)
            let last = chunk.isLast
            chunks.emptied()
            if last { break }
        }
        finished.signal()
    }
}
