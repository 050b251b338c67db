import Foundation
import Statecraft
@_spi(Bytes) import StatecraftDiagnostics

/// Standard output collected as bytes and written in large pieces: one write per
/// `ByteOutput.chunk` bytes instead of one String and one write per line.
///
/// Callers append whole lines and call `endLine()` after each; a write therefore always
/// ends at a line end (so a console that decodes each write as text never splits a
/// character). Call `flush()` before anything else is printed (on either stream) and
/// before returning, so nothing is lost or reordered.
final class ByteOutput {
    /// How much is collected before it is written.
    static let chunk = 1 << 16

    /// The bytes not yet written; append to it directly.
    @exclusivity(unchecked) var bytes: ByteBuffer  // one thread at a time (see ReplayOutput)
    /// Write after every line, not every chunk: for input that arrives a line at a time
    /// (standard input from a terminal or a pipe), so each step shows as it happens.
    @exclusivity(unchecked) var lineByLine = false
    private let console: Console

    init(console: Console) {
        self.console = console
        bytes = ByteBuffer(capacity: ByteOutput.chunk + ByteOutput.chunk / 4)
    }

    /// Appends one line with `body`, then writes what is collected once a chunk is full (or
    /// at once, line by line).
    @inline(__always)
    func line(_ body: (inout ByteBuffer) -> Void) {
        if ByteOutput.append(to: &bytes, body) || lineByLine { flush() }
    }

    /// Whether the buffer holds a chunk after `body` appended to it.
    @inline(__always)
    private static func append(to bytes: inout ByteBuffer, _ body: (inout ByteBuffer) -> Void) -> Bool {
        body(&bytes)
        return bytes.count >= ByteOutput.chunk
    }

    /// Writes out everything collected.
    func flush() {
        guard !bytes.isEmpty else { return }
        // A copy (one memcpy per chunk): the console may keep the Data it is given.
        bytes.withBytes { written in
            guard let base = written.baseAddress else { return }
            console.write(Data(bytes: base, count: written.count))
        }
        bytes.removeAll()
    }

    /// Appends text.
    func append(_ text: String) {
        bytes.append(contentsOf: text)
    }

    /// Whether a file descriptor delivers its input as it is produced (a terminal, a pipe or a
    /// socket) rather than all at once (a regular file).
    static func isLive(fileDescriptor: Int32) -> Bool {
        var info = stat()
        guard fstat(fileDescriptor, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) != S_IFREG
    }
}
