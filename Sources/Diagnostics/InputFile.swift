#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Opening the files a user names (a spec, a log): one routine and one set of messages for
/// every command, so a missing file, a folder or a file without permission reads the same
/// whether it was given to `check`, `replay`, `paths` or `dot`.
public enum InputFile {
    /// Why a file cannot be read: `cannot read 'x': no such file or directory`.
    package struct Problem: Error, Sendable, Equatable {
        /// The path as the user gave it (`-` for standard input).
        package var path: String
        /// Why it cannot be read, lowercase (`no such file or directory`, `permission denied`).
        package var reason: String
        /// The whole message: `cannot read 'PATH': REASON`.
        package var message: String { "cannot read '\(path)': \(reason)" }

        /// Creates a problem for a path and a reason.
        package init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// The path that means standard input.
    package static let standardInput = "-"

    /// Where a relative path and `-` lead: the process's working directory and standard
    /// input (`.process`), or a folder and a file descriptor of the caller's, for a command
    /// run inside another program (the test suite runs `statecraft` commands in process, many
    /// at once, each in its own folder). Messages keep the path as the user gave it.
    public struct Context: Sendable, Equatable {
        /// The folder relative paths start from; nil for the process's working directory.
        public var directory: String?
        /// The file descriptor `-` reads.
        public var standardInput: Int32

        /// Creates a context.
        public init(directory: String? = nil, standardInput: Int32 = 0) {
            self.directory = directory
            self.standardInput = standardInput
        }

        /// The process's working directory and standard input.
        public static let process = Context()

        /// `path` as the system should open it: unchanged when absolute, when there is no
        /// folder of our own, or for `-`.
        public func resolve(_ path: String) -> String {
            guard let directory, !path.hasPrefix("/"), path != InputFile.standardInput else { return path }
            return directory.hasSuffix("/") ? directory + path : directory + "/" + path
        }
    }

    /// Opens `path` for reading and returns its file descriptor, which the caller closes;
    /// standard input for `-`. A folder is refused here, not later as an odd read error.
    package static func open(_ path: String, in context: Context = .process) -> Result<Int32, Problem> {
        if path == standardInput { return .success(dup(context.standardInput)) }
        let descriptor = context.resolve(path).withCString { systemOpen($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return .failure(Problem(path: path, reason: describe(errno))) }
        var info = stat()
        if fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            _ = close(descriptor)
            return .failure(Problem(path: path, reason: "it is a folder, not a file"))
        }
        return .success(descriptor)
    }

    /// The whole contents of `path` (standard input for `-`).
    package static func read(_ path: String, in context: Context = .process) -> Result<[UInt8], Problem> {
        let descriptor: Int32
        switch open(path, in: context) {
        case .success(let d): descriptor = d
        case .failure(let problem): return .failure(problem)
        }
        defer { _ = close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return .success(bytes) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(Problem(path: path, reason: describe(errno)))
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// A system error number in the words of a diagnostic (lowercase, no period).
    package static func describe(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file or directory"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a folder, not a file"
        case ENOTDIR: "a part of the path is not a folder"
        case ENAMETOOLONG: "the path is too long"
        case ELOOP: "too many symbolic links"
        default:
            String(cString: strerror(code)).lowercased()
        }
    }
}

// The C functions, under names that do not clash with this type's own `open` and `read`.
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 { open(path, flags) }
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
