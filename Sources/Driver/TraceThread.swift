import Dispatch
import Statecraft

/// Formats and writes a log's trace on a second thread: the replaying thread only builds the
/// steps and hands them over in chunks, so a trace streams at the speed of the slower of
/// the two halves instead of their sum.
///
/// Steps keep their order: chunks go through a ring in sequence, and one thread formats
/// them all. While the thread runs it owns `output`; `finish()` waits until it has formatted
/// every step, after which the caller may use `output` again.
final class TraceThread: @unchecked Sendable {  // each chunk is handed over through the ring
    /// Steps per chunk.
    static let chunkSize = 1024

    /// One place in the ring, filled by one thread, then emptied by the other.
    private final class Chunk {
        var steps: [TraceStep] = []
        /// The last chunk: the formatting thread stops after it.
        var isLast = false
    }

    private let output: ReplayOutput
    private let log: String
    private let chunks = HandOffRing(depth: 3) { Chunk() }
    private let finished = DispatchSemaphore(value: 0)
    /// The replaying thread's side: the chunk being filled.
    private var pending: [TraceStep] = []
    private var isFinished = false

    /// Starts the formatting thread, which writes `log`'s steps to `output`.
    init(output: ReplayOutput, log: String) {
        self.output = output
        self.log = log
        pending.reserveCapacity(TraceThread.chunkSize)
        DispatchQueue.global().async { self.format() }
    }

    /// Adds a step (from the replaying thread).
    func add(_ step: consuming TraceStep) {
        pending.append(step)
        if pending.count >= TraceThread.chunkSize { handOver(last: false) }
    }

    /// Hands over the steps still pending and waits until every step is written to
    /// `output`'s buffer. Call it once, from the replaying thread, before using `output`.
    func finish() {
        guard !isFinished else { return }
        isFinished = true
        handOver(last: true)
        finished.wait()
    }

    private func handOver(last: Bool) {
        let chunk = chunks.slotToFill()
        // Swap, so the arrays' storage is reused; the steps formatted from this chunk before
        // are released here, on the thread that made them (glibc's malloc is much slower
        // when memory is freed on another thread than the one that allocates it).
        swap(&chunk.steps, &pending)
        pending.removeAll(keepingCapacity: true)
        chunk.isLast = last
        chunks.filled()
    }

    /// The formatting thread.
    private func format() {
        while true {
            let chunk = chunks.slotToEmpty()
            // By index, not `for step in`: that copies each step (retaining its arrays).
            chunk.steps.withUnsafeBufferPointer { steps in
                for k in steps.indices { output.step(steps[k], log: log) }
            }
            let last = chunk.isLast
            chunks.emptied()
            if last { break }
        }
        finished.signal()
    }
}
