#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Clock, memory, files and child processes for the benchmark, straight from libc.
enum System {
    /// Seconds on the monotonic clock.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// This process's peak resident set so far, in bytes (getrusage's ru_maxrss: a high-water
    /// mark that never goes down).
    static func peakRSS() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    /// The size of the file at `path` in bytes, or nil when it does not exist.
    static func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// The whole file, or nil.
    static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? result : nil }
            result.append(contentsOf: chunk[0..<count])
        }
    }

    /// Writes `text` to `path` (created or truncated); false when it cannot.
    static func writeFile(_ path: String, _ text: String) -> Bool {
        guard let file = fopen(path, "wb") else { return false }
        let bytes = Array(text.utf8)
        let written = fwrite(bytes, 1, bytes.count, file)
        return fclose(file) == 0 && written == bytes.count
    }

    /// The absolute path of the running executable.
    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// What a finished child process did.
    struct ChildResult {
        var status: Int32
        var seconds: Double
        /// The child's own peak resident set, in bytes (wait4's ru_maxrss).
        var peakRSS: Int
    }

    /// Runs `arguments` (the first is the program, looked up in PATH) with stdout and stderr
    /// sent to the given files, and waits for it.
    static func run(_ arguments: [String], stdout: String = "/dev/null", stderr: String = "/dev/null") -> ChildResult? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let start = now()
        guard posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ) == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            if errno != EINTR { return nil }
        }
        let seconds = now() - start
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return ChildResult(status: exit, seconds: seconds, peakRSS: usage.ru_maxrss * 1024)
    }

    /// Counts `\n` bytes with read(2) into one 1 MiB buffer and memchr: the floor for any
    /// reader of the file. Returns nil if the file cannot be read.
    static func countNewlines(_ path: String) -> Int? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        defer { buffer.deallocate() }
        var lines = 0
        while true {
            let count = read(fd, buffer, size)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? lines : nil }
            var p = buffer
            var left = count
            while left > 0, let found = memchr(p, 0x0A, left) {
                lines += 1
                let next = found + 1
                left -= p.distance(to: next)
                p = next
            }
        }
    }
}

/// Writes bytes to a file through a 1 MiB buffer.
struct FileWriter {
    private let fd: Int32
    private var buffer: [UInt8] = []

    /// Creates or truncates `path`; nil if it cannot be opened.
    init?(path: String) {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        buffer.reserveCapacity(1 << 20)
    }

    /// Appends a string's UTF-8.
    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { flush() }
    }

    /// Writes what is buffered.
    mutating func flush() {
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes the file.
    mutating func close() {
        flush()
        _ = Glibc.close(fd)
    }
}

/// The median of `values` (0 for none).
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
