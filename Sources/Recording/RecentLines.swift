/// The last lines an `EventLogWriter` wrote, kept in memory for a crash report: a ring of at
/// most `capacity` lines (and `byteLimit` bytes), the oldest dropped first.
///
/// ```swift
/// let recent = RecentLines(capacity: 200)
/// let log = EventLogWriter(bufferSize: 1, sink: recent.sink)  // every line at once
/// // ... when the app is about to crash, or a user reports a problem:
/// let text = recent.text  // the last 200 lines, oldest first
/// ```
///
/// Not thread-safe, like the writer that feeds it.
public final class RecentLines {
    /// How many lines it keeps.
    public let capacity: Int
    /// How many bytes of lines it keeps at most (a line longer than this is dropped).
    public let byteLimit: Int
    private var lines: [[UInt8]]
    private var next = 0
    private var count = 0
    private var bytes = 0
    private var partial: [UInt8] = []

    /// A ring of `capacity` lines (at least one) and at most `byteLimit` bytes.
    public init(capacity: Int, byteLimit: Int = 1 << 20) {
        self.capacity = max(1, capacity)
        self.byteLimit = max(1, byteLimit)
        lines = Array(repeating: [], count: max(1, capacity))
    }

    /// The writer's sink: takes whole lines (and, to be safe, keeps a line's start until its end
    /// arrives).
    public var sink: EventLogWriter.Sink {
        { [unowned self] chunk in self.take(chunk) }
    }

    /// The kept lines, oldest first, each without its line end.
    public var keptLines: [String] {
        (0..<count).map { k in String(decoding: lines[(next - count + k + capacity) % capacity], as: UTF8.self) }
    }

    /// The kept lines as a log, oldest first: a file `statecraft replay` reads.
    public var text: String { keptLines.map { $0 + "\n" }.joined() }

    private func take(_ chunk: UnsafeBufferPointer<UInt8>) {
        for byte in chunk {
            if byte == UInt8(ascii: "\n") {
                keep(partial)
                partial.removeAll(keepingCapacity: true)
            } else {
                partial.append(byte)
            }
        }
    }

    private func keep(_ line: [UInt8]) {
        guard line.count <= byteLimit else { return }
        if count == capacity {
            bytes -= lines[next].count
            count -= 1
        }
        lines[next] = line
        next = (next + 1) % capacity
        count += 1
        bytes += line.count
        // Over the byte limit: drop the oldest lines until under it.
        while bytes > byteLimit, count > 1 {
            let oldest = (next - count + capacity) % capacity
            bytes -= lines[oldest].count
            lines[oldest] = []
            count -= 1
        }
    }
}
