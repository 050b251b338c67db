/// Splits the bytes a client writes into JSON-RPC messages: each is a header block
/// (`Content-Length: N`, other headers ignored, ended by an empty line) and then N bytes.
///
/// Bytes arrive in pieces of any size (a pipe gives what it has), so the framer keeps what it
/// has not used yet. A header it cannot read is reported and skipped, and reading goes on
/// with the bytes after it, so one bad message never ends the session.
package struct MessageFramer: Sendable {
    /// What the framer found next.
    package enum Frame: Equatable, Sendable {
        /// A message body: the N bytes after a good header.
        case message([UInt8])
        /// A header block that could not be read, and why; its bytes were dropped.
        case badHeader(String)
    }

    /// Bodies larger than this are refused (and skipped) rather than buffered.
    package let maxBodyLength: Int
    /// A header block longer than this without its empty line is not a header.
    package static let maxHeaderLength = 8192

    private var buffer: [UInt8] = []
    /// Where the unread bytes of `buffer` start.
    private var start = 0
    /// Bytes still to drop from a refused body.
    private var skipping = 0

    /// Creates an empty framer that refuses bodies over `maxBodyLength` bytes (default 256 MiB).
    package init(maxBodyLength: Int = 256 << 20) {
        self.maxBodyLength = maxBodyLength
    }

    /// Adds bytes read from the client.
    package mutating func append<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, or nil until more bytes arrive.
    package mutating func next() -> Frame? {
        while true {
            if skipping > 0 {
                let dropped = min(skipping, buffer.count - start)
                start += dropped
                skipping -= dropped
                if skipping > 0 { compact(); return nil }
            }
            guard let (headerEnd, bodyStart) = endOfHeader() else {
                if buffer.count - start > Self.maxHeaderLength {
                    // Not a header at all: drop what we have and look for the next one.
                    start = buffer.count
                    compact()
                    return .badHeader("a header block longer than \(Self.maxHeaderLength) bytes without an empty line after it")
                }
                compact()
                return nil
            }
            let header = Array(buffer[start..<headerEnd])
            switch Self.contentLength(header) {
            case .failure(let problem):
                // A body shorter than its Content-Length said leaves the next header behind
                // some bytes: start again at the last header name inside the block, if any.
                start = lastHeaderName(after: start, before: headerEnd) ?? bodyStart
                return .badHeader(problem.message)
            case .success(let length) where length > maxBodyLength:
                start = bodyStart
                skipping = length
                return .badHeader("a message of \(length) bytes is larger than the \(maxBodyLength) bytes accepted")
            case .success(let length):
                guard buffer.count - bodyStart >= length else { compact(); return nil }
                let body = Array(buffer[bodyStart..<bodyStart + length])
                start = bodyStart + length
                return .message(body)
            }
        }
    }

    /// Where the header block that starts at `start` ends, and where its body starts: after
    /// the first empty line (`\r\n\r\n`, or `\n\n` from a careless client).
    private func endOfHeader() -> (Int, Int)? {
        var i = start
        while i < buffer.count {
            if buffer[i] == UInt8(ascii: "\n") {
                if i + 1 < buffer.count, buffer[i + 1] == UInt8(ascii: "\n") { return (i, i + 2) }
                if i + 2 < buffer.count, buffer[i + 1] == UInt8(ascii: "\r"), buffer[i + 2] == UInt8(ascii: "\n") {
                    return (i, i + 3)
                }
            }
            i += 1
        }
        return nil
    }

    /// Where the last `Content-Length` (any case) in `buffer[(start + 1)..<end]` begins.
    private func lastHeaderName(after start: Int, before end: Int) -> Int? {
        let name = Array("content-length".utf8)
        var i = end - name.count
        while i > start {
            if (0..<name.count).allSatisfy({ buffer[i + $0] | 0x20 == name[$0] }) { return i }
            i -= 1
        }
        return nil
    }

    private struct HeaderProblem: Error { var message: String }

    /// The `Content-Length` of a header block (names compared without case).
    private static func contentLength(_ header: [UInt8]) -> Result<Int, HeaderProblem> {
        let text = String(decoding: header, as: UTF8.self)
        var length: Int?
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else {
                return .failure(HeaderProblem(message: "a header line without ':' (\(quoted(line)))"))
            }
            let name = line[..<colon].trimmingSpaces.lowercased()
            guard name == "content-length" else { continue }
            let value = line[line.index(after: colon)...].trimmingSpaces
            guard !value.isEmpty, value.utf8.count <= 12, value.allSatisfy(\.isASCIIDigit), let n = Int(value) else {
                return .failure(HeaderProblem(message: "Content-Length is not a number of bytes (\(quoted(value)))"))
            }
            length = n
        }
        guard let length else { return .failure(HeaderProblem(message: "a header block without Content-Length")) }
        return .success(length)
    }

    private static func quoted<S: StringProtocol>(_ s: S) -> String {
        "'" + (s.count > 40 ? s.prefix(40) + "…" : String(s)) + "'"
    }

    /// Drops the bytes already used once they are most of the buffer.
    private mutating func compact() {
        if start > 0 && start * 2 >= buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
