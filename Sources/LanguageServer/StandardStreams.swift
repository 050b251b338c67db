#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Statecraft

/// Runs a `LanguageServer` over two file descriptors (standard input and output for
/// `statecraft lsp`): reads frames, answers them in order, writes the answers.
///
/// One thread, no locks. Before each message it reads whatever else the client has already
/// written, so that a `$/cancelRequest` behind a request it names is seen first (the request
/// is answered "cancelled"), and diagnostics are checked only when nothing is waiting (a
/// burst of changes is checked once; the slow search runs last, one document at a time,
/// and gives way to whatever the client sends). End of input (the client died or closed the pipe)
/// ends the server, with status 1 unless `shutdown` came first.
package struct StandardStreams {
    let input: Int32
    let output: Int32
    var server: LanguageServer
    private var framer = MessageFramer()
    /// What the client sent and the server has not handled yet, in order.
    private var queue: [Incoming] = []
    /// Whether the client closed its end.
    private var inputClosed = false

    private enum Incoming {
        case message(JSONValue)
        /// A body that is not JSON, or a header that could not be read: answered with an error.
        case unreadable([JSON])

        var message: JSONValue? {
            if case .message(let m) = self { return m }
            return nil
        }
    }

    /// A server reading `input` and writing `output`.
    package init(server: LanguageServer, input: Int32 = 0, output: Int32 = 1) {
        self.server = server
        self.input = input
        self.output = output
    }

    /// Serves until `exit` or the end of input; returns the exit status.
    package mutating func run() -> Int32 {
        // A client that goes away makes writes fail with EPIPE instead of killing us.
        signal(SIGPIPE, SIG_IGN)
        while true {
            if queue.isEmpty {
                guard send(server.publishDiagnostics()) else { return 1 }
                if inputClosed { return server.exitStatus ?? 1 }
                // The full check (the search) of one document, only while the client is quiet:
                // anything it sends first is handled first.
                if server.hasUnexploredDocuments {
                    readAvailable(blocking: false)
                    if queue.isEmpty && !inputClosed { guard send(server.publishExploration()) else { return 1 } }
                    continue
                }
                readAvailable(blocking: true)
                continue
            }
            readAvailable(blocking: false)
            let replies: [JSON]
            switch queue.removeFirst() {
            case .unreadable(let errors):
                replies = errors
            case .message(let message):
                if let id = message["id"], message["method"] != nil, takeCancellation(of: id) {
                    replies = [LanguageServer.cancelled(id)]
                } else {
                    replies = server.handle(message: message)
                }
            }
            guard send(replies) else { return 1 }
            if let status = server.exitStatus { return status }
        }
    }

    /// Removes a queued `$/cancelRequest` for `id`; true when there was one.
    private mutating func takeCancellation(of id: JSONValue) -> Bool {
        guard let index = queue.firstIndex(where: {
            $0.message?["method"]?.stringValue == "$/cancelRequest" && $0.message?["params"]?["id"] == id
        })
        else { return false }
        queue.remove(at: index)
        return true
    }

    /// Reads what the client has written (waiting for something when `blocking`) and queues
    /// the messages it completes. A frame or body that cannot be read is answered at once.
    private mutating func readAvailable(blocking: Bool) {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while !inputClosed {
            if !blocking || !queue.isEmpty {
                var poller = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 0) > 0 else { return }
            }
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                inputClosed = true
                return
            }
            framer.append(chunk[0..<count])
            while let frame = framer.next() {
                switch frame {
                case .message(let body):
                    if let message = try? JSONValue.parse(body) {
                        queue.append(.message(message))
                    } else {
                        // The server says what is wrong with it.
                        queue.append(.unreadable(server.handle(body)))
                    }
                case .badHeader(let problem):
                    queue.append(.unreadable([LSP.error(id: .null, RequestError(.parseError, "unreadable message header: \(problem)"))]))
                }
            }
        }
    }

    /// Writes each message with its header; false when the client is gone.
    private func send(_ messages: [JSON]) -> Bool {
        for message in messages {
            let body = Array(message.rendered(.compact).utf8)
            let frame = Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
            var written = 0
            while written < frame.count {
                let n = frame.withUnsafeBytes { buffer -> Int in
                    guard let base = buffer.baseAddress else { return 0 }
                    return write(output, base + written, buffer.count - written)
                }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                written += n
            }
        }
        return true
    }
}
